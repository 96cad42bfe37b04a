"""What the Fairy-Stockfish data tools (tools/fsf-*.py) share: the newest FSF build driven
over UCI for `go perft` (optionally with a variants.ini loaded), FSF's own variants.ini read
from the mirror of its repository, pyffish's perft by recursion and its result words, and
writing a data file whole or printing the rows of `--only` variants to append.

Import it from a tool in tools/ with `sys.path.insert(0, os.path.dirname(__file__))`.
"""
import subprocess
import tempfile

import pyffish as sf

# The mirror of Fairy-Stockfish's repository (`fetch github:fairy-stockfish/Fairy-Stockfish`).
FSF_GIT = "/work/.mirror/fairy-stockfish+Fairy-Stockfish/repo"
# The newest build (../shared/tools/build-peers.sh).
ENGINE = "/opt/peers/fairy-stockfish-latest"
# Variants whose FENs carry Chess960 castling fields.
CHESS960 = {"fischerandom", "caparandom"}


class Fsf:
    """Fairy-Stockfish over UCI, for `go perft`; with `ini`, that file's sections are
    UCI_Variant values."""

    def __init__(self, path=ENGINE, ini=None):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.name = next(l[8:] for l in self.lines("uciok") if l.startswith("id name "))
        if ini is not None:
            self.send("setoption name VariantPath value " + ini)
            self.sync()
        self.variant = None

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def lines(self, last):
        """The engine's lines up to and including the first that starts with `last`."""
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish exited")
            line = line.rstrip("\n")
            yield line
            if line.startswith(last):
                return

    def sync(self):
        self.send("isready")
        list(self.lines("readyok"))

    def perft(self, variant, fen, depth):
        if variant != self.variant:
            self.send("setoption name UCI_Variant value " + variant)
            self.sync()
            self.variant = variant
        is960 = variant in CHESS960
        if is960:
            self.send("setoption name UCI_Chess960 value true")
        self.send("position fen " + fen)
        self.send("go perft %d" % depth)
        out = list(self.lines("Nodes searched"))
        if is960:
            self.send("setoption name UCI_Chess960 value false")
        return int(out[-1].split(":")[1])

    def perft_capped(self, variant, fen, max_nodes):
        """(depth, count): depth 3 where its count is at most `max_nodes`, else depth 2."""
        three = self.perft(variant, fen, 3)
        if three <= max_nodes:
            return 3, three
        return 2, self.perft(variant, fen, 2)

    def quit(self):
        self.send("quit")
        self.p.wait()


def git(*args):
    return subprocess.run(["git", "--git-dir", FSF_GIT, *args], capture_output=True,
                          text=True, check=True).stdout


def variants_ini(commit="HEAD"):
    """(path, text, full commit): FSF's src/variants.ini at `commit`, written to a temporary
    file (FSF's file is GPL: it is read from the mirror, never kept in this repository)."""
    full = git("rev-parse", commit).strip()
    text = git("show", full + ":src/variants.ini")
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        f.write(text)
    return f.name, text, full


def result_word(value):
    """pyffish's game value for the side to move, as the data files write it."""
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def verdict(name, fen, moves):
    """The side to move's result after `moves` as a game would judge it: without a legal move
    pyffish's `game_result`, else an immediate or optional end (the repetition and counting
    rules) where one holds, else `on`."""
    if not sf.legal_moves(name, fen, list(moves)):
        return result_word(sf.game_result(name, fen, list(moves)))
    for test in (sf.is_immediate_game_end, sf.is_optional_game_end):
        over, value = test(name, fen, list(moves))
        if over:
            return result_word(value)
    return "on"


def py_perft(variant, fen, depth, moves=()):
    """Perft by pyffish's recursion over `legal_moves` (the move history kept)."""
    legal = sf.legal_moves(variant, fen, list(moves), variant in CHESS960)
    if depth == 1:
        return len(legal)
    return sum(py_perft(variant, fen, depth - 1, list(moves) + [m]) for m in legal)


def playout(name, rng, max_plies, pick=None, optional_end_stops=True):
    """A seeded random game from the start position to its end: (start FEN, moves, the side
    to move's result word at the end), or None where it lasts `max_plies` or (with
    `optional_end_stops`) reaches an end pyffish counts optional, such as a claimable draw.
    `pick(fen, moves, legal)` gives the moves to choose from (falling back on all of them
    where it gives none); it may draw on `rng` itself."""
    fen = sf.start_fen(name)
    moves = []
    while len(moves) < max_plies:
        legal = sorted(sf.legal_moves(name, fen, moves))
        if not legal:
            return fen, moves, result_word(sf.game_result(name, fen, moves))
        if optional_end_stops and sf.is_optional_game_end(name, fen, moves)[0]:
            return None
        pool = pick(fen, moves, legal) if pick else legal
        moves.append(rng.choice(pool or legal))
    return None


def ending_row(name, result, fen, moves):
    return "ending %s %s %s ; %s" % (name, result, fen, " ".join(moves))


def perft_row(name, depth, count, fen):
    return "perft %s %d %d %s" % (name, depth, count, fen)


def write_rows(path, header, rows, only):
    """The whole data file (`header` lines, then `rows`), or with `only` the rows alone,
    printed to be appended (other tools' and helpers' rows in the file are kept)."""
    if only:
        print("\n".join(rows))
    else:
        with open(path, "w") as f:
            f.write("\n".join(header + rows) + "\n")
