"""Small driver for Fairy-Stockfish (UCI) perft, plus a pyffish-based perft fallback."""
import re
import subprocess

FSF = "/usr/games/fairy-stockfish"


class Engine:
    def __init__(self, path=FSF):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.variants = set()
        for line in self.until(lambda l: l == "uciok"):
            if "UCI_Variant" in line:
                self.variants = set(line.split(" var ")[1:])
            if line.startswith("id name"):
                self.name = line[len("id name "):]
        self.variant = None

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def until(self, pred):
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine died; last output: %r" % out[-5:])
            line = line.rstrip("\n")
            out.append(line)
            if pred(line):
                return out

    def sync(self):
        self.send("isready")
        return self.until(lambda l: l == "readyok")[:-1]

    def set_variant(self, v):
        if v != self.variant:
            self.send("setoption name UCI_Variant value " + v)
            self.sync()
            self.variant = v

    def position(self, variant, fen=None, moves=()):
        self.set_variant(variant)
        cmd = "position " + ("startpos" if fen is None else "fen " + fen)
        if moves:
            cmd += " moves " + " ".join(moves)
        self.send(cmd)
        return self.sync()  # anything printed here is a complaint

    def fen(self, variant, fen=None, moves=()):
        """FEN as this engine writes it (from the `d` command)."""
        self.position(variant, fen, moves)
        self.send("d")
        out = self.sync()
        for l in out:
            if l.startswith("Fen: "):
                return l[5:]
        raise RuntimeError("no Fen line: %r" % out)

    def perft(self, variant, fen, depth, divide=False):
        self.position(variant, fen)
        self.send("go perft %d" % depth)
        out = self.until(lambda l: l.startswith("Nodes searched"))
        n = int(out[-1].split(":")[1])
        if divide:
            d = {}
            for l in out[:-1]:
                m = re.match(r"^(\S+): (\d+)$", l)
                if m:
                    d[m.group(1)] = int(m.group(2))
            return n, d
        return n

    def quit(self):
        self.send("quit")
        self.p.wait()


def py_perft(sf, variant, fen, depth, moves=None):
    """perft by pyffish recursion (legal_moves + get_fen), bulk-counting at the last ply."""
    ms = sf.legal_moves(variant, fen, [])
    if depth == 1:
        return len(ms)
    if depth == 0:
        return 1
    return sum(py_perft(sf, variant, sf.get_fen(variant, fen, [m]), depth - 1) for m in ms)


def py_perft_hist(sf, variant, fen, depth, moves=()):
    """perft by pyffish recursion that keeps the move history (needed for janggi, where a pass
    after a pass, or a pass while the kings face each other, ends the game)."""
    ms = sf.legal_moves(variant, fen, list(moves))
    if depth == 1:
        return len(ms)
    return sum(py_perft_hist(sf, variant, fen, depth - 1, list(moves) + [m]) for m in ms)
