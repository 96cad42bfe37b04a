#!/usr/bin/env python3
"""Every man's targets in Locust against HaChu's, through XBoard's `lift` (issue 44).

HaChu (/usr/games/hachu, an XBoard engine) answers `lift SQUARE` with a `highlight` board of
that man's legal targets (yellow a move, red a capture, magenta a promotion, cyan the first
stop of a lion's move of two legs); Locust answers `lift` the same way (the convention is
HaChu's). This tool reaches positions by random legal play in Locust (UCI `go perft 1` lists
the moves, `d` gives the FEN), lifts every man of the side to move in both engines and
compares the answers.

HaChu's `setboard` takes only a board with White to move, so a position with Black to move
is given to it turned (180 degrees for the shogi variants, whose men are turned with their
side; mirrored top to bottom for the chess ones) with the colours swapped, and its answers
are turned back.

  generate: tools/hachu-lift.py gen VARIANT... [--positions N] [--seed S] [--out FILE]
            [--fen 'VARIANT FEN']...
            plays, compares, and writes (appends) the positions and HaChu's answers to FILE
            (default tests/data/hachu-lift.txt); exit status 1 on any difference.
  check:    tools/hachu-lift.py check [FILE] [--sample N]
            asks HaChu again for every answer kept in FILE (the peer test); exit status 1
            on any difference, with the lines that differ.

What is compared: HaChu's answers list moves that leave the king attacked, so Locust is
asked in tests/data/hachu-pseudo.ini's copies of the variants, whose king is an ordinary man.
Not compared: a mark on the lifted man's own square (HaChu's lion pass, and on a1 the empty
entries of its move list) and Locust's pass (cyan on an empty square, kept as a plain move
there): HaChu lists one pass a side. In FIRST_STOPS_AS_TARGETS a first stop is compared as
the square's plain mark. HaChu is started afresh for each lift, `memory` last, because its
killer moves survive `setboard` and bring moves of earlier positions into later answers.

File format: `position VARIANT FEN` (Locust's FEN), then `lift SQUARE HIGHLIGHT` for each man
of the side to move (`-` where HaChu sends nothing). Needs /usr/games/hachu and a Locust
binary (LOCUST, default target/release/locust).

The kept file was made with:
  tools/hachu-lift.py gen wa-shogi --positions 40 --seed 1 --fen 'wa-shogi ...' (5 chosen)
  tools/hachu-lift.py gen dai --positions 40 --seed 1 --fen 'dai ...' (3 chosen)
  tools/hachu-lift.py gen cashew-shogi --positions 50 --seed 3
  tools/hachu-lift.py gen macadamia-shogi --positions 150 --seed 1 --fen '...' (4 chosen)
  (of which HaChu exits on 90 set-ups and answers for no man in one, so they are not kept,
  and one position was removed by hand: HaChu's answer for its castle lists squares no
  castle reaches; the FEN is in the file's macadamia-shogi line)
  tools/hachu-lift.py gen lion --positions 60 --seed 1 --fen 'lion ...' (12 chosen)
  tools/hachu-lift.py gen werewolf --positions 50 --seed 1 --fen 'werewolf ...' (10 chosen)
  tools/hachu-lift.py gen werewolf --positions 12 --seed 3
(seed 2's werewolf batch was dropped: in `r1b4r/pw2k1pp/1p1p4/2pnP2P/2N1BbP1/BPPPP1nN/
P1K1RR2/8 w` HaChu answers nothing for the rook on e2, which has d2 and e1; HaChu's werewolf
set-up from a FEN loses men: in small positions no man of its answers at all)
(the chosen positions are the first of each variant's block in the file).
"""
import argparse
import os
import random
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LOCUST = os.environ.get("LOCUST", os.path.join(ROOT, "target", "release", "locust"))
HACHU = os.environ.get("HACHU", "/usr/games/hachu")
DATA = os.path.join(ROOT, "tests", "data", "hachu-lift.txt")
# The king-is-a-man copies (and, to try a variant file before it is built in, that file's
# sections too: PSEUDO=FILE).
PSEUDO = os.environ.get("PSEUDO", os.path.join(ROOT, "tests", "data", "hachu-pseudo.ini"))
HASH_MB = 16          # HaChu keeps no root move list (and answers no lift) before `memory`
PLIES = 400           # length of each random game
EVERY = 17            # plies between kept positions of a game (odd: both sides move)
# How a variant's position is turned for HaChu when Black is to move.
CHESS_LIKE = {"lion", "werewolf"}
# Variants with HaChu's lion dog, whose multi-captures HaChu encodes with a first stop that is
# not their victim (an empty square, even its own man): there a first stop (cyan) is compared
# as the square's plain mark, from both engines: yellow on an empty square; on a man, HaChu's
# red or magenta as it is (dropped on its own men), Locust's as `X`, a capture that matches
# either (a first stop hides whether the capture that ends there may promote).
FIRST_STOPS_AS_TARGETS = {"cashew-shogi", "macadamia-shogi"}
# HaChu's castling, where it differs from the game's (XBoard's and the published rules'):
# in lion it castles whenever king and rook stand on their squares with the squares between
# empty, with no castling rights (its setboard takes none) and no test of the squares the
# king crosses; in werewolf it never castles. The king's two-square moves from its square are
# compared only where Locust has the right (lion), or not at all (werewolf).
CASTLING_WITHOUT_RIGHTS = {"lion"}
NO_CASTLING = {"werewolf"}
# Variants where HaChu's answers are nonsense while a man other than the king stands on the
# king's square of the side to move (e1 in HaChu's view): its Lion-Chess castling code writes
# the king's value into that man, and then no man of the side answers `lift`, or a queen
# there answers with castlings only. Such positions are not kept.
KING_SQUARE_CLOBBERED = {"lion"}
# Men whose lifts are not kept, per variant (lower-case letters, both sides): HaChu answers
# none for them, or moves them by other rules than the published game's. Macadamia: the
# hook movers (h!, c!: HaChu generates no hook move), the wolf (w!) and the priest's
# promotion (+i', queen and wolf), which HaChu moves as Maka Dai Dai's lion dog and teaching
# king (leaps to the third square), the phoenix's promotion (+x: HaChu's is a go-between)
# and the emperor (+k: HaChu's has no move). docs/variants.md, "Macadamia Shogi".
NO_ORACLE = {"macadamia-shogi": {"h!", "c!", "w!", "+i'", "+x", "+k"}}
# Contagion (per variant: the contagious men, and the immune movers): Locust writes a
# capture that turns its taker as a promotion (magenta); HaChu turns the taker only on taking
# +i' or +j' (the published rule on i' and j' too) and marks such a capture red or magenta as
# the taker could promote or not. So there Locust's mark is compared as `X`, a capture that
# matches either; the turning itself is tested against the reference generator.
CONTAGION_AS_CAPTURE = {"macadamia-shogi": ({"i'", "j'", "+i'", "+j'"}, {"e", "k", "+e", "+k"})}


def plain_stops(marks, men, mover_white, on_man):
    """First stops (C) as plain marks: `on_man` on an enemy, none on an own man."""
    for i, row in enumerate(marks):
        for j, m in enumerate(row):
            if m != "C":
                continue
            man = men[i][j]
            own = man is not None and man.lstrip("+")[0].isupper() == mover_white
            row[j] = None if own else ("Y" if man is None else on_man)


def contagion_as_capture(marks, men, sq, rule):
    """A capture of a contagious enemy man as `X`, unless the man on `sq` is immune."""
    contagious, immune = rule
    f, r = ord(sq[0]) - ord("a"), int(sq[1:])
    mover = men[len(men) - r][f]
    if mover is None or mover.lower() in immune:
        return
    for i, row in enumerate(marks):
        for j, m in enumerate(row):
            man = men[i][j]
            enemy = man is not None and man.lstrip("+")[0].isupper() != mover.lstrip("+")[0].isupper()
            if m in ("M", "R") and enemy and man.lower() in contagious:
                row[j] = "X"


HEADER = """\
# Every man's targets as HaChu 0.21 (Debian hachu 0.21-29-gdf26f4a-3, /usr/games/hachu) gives
# them in answer to XBoard's `lift`, for positions reached by random legal play in Locust
# (and a few chosen ones), made by tools/hachu-lift.py and checked by tests/hachu_variants.rs.
# `position VARIANT FEN` (Locust's FEN), then `lift SQUARE BOARD` for each man of the side to
# move: HaChu's `highlight` colour board in the FEN's orientation (Y move, R capture, M
# promotion, C the first stop of a lion's two-leg move), `-` where it sends none. A lion's
# pass is not kept (HaChu lists one a side). HaChu's answers list moves that leave the king
# attacked, so Locust's are asked in tests/data/hachu-pseudo.ini's copies of the variants.
"""


class Proc:
    """A line-oriented engine process."""

    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.n = 0

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, pred):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited; last lines: %r" % lines[-5:])
            line = line.rstrip("\n")
            lines.append(line)
            if pred(line):
                return lines

    def sync(self):
        """Lines up to the answer to a fresh `ping`."""
        self.n += 1
        self.send("ping %d" % self.n)
        return self.until(lambda l: l == "pong %d" % self.n)

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def tokens(row):
    """A FEN rank as a list of men (None for empty squares): `+x`, `x'`, `x!` are one man."""
    out, i = [], 0
    while i < len(row):
        m = re.match(r"\d+", row[i:])
        if m:
            out += [None] * int(m.group())
            i += len(m.group())
            continue
        j = i + 1 if row[i] != "+" else i + 2
        while j < len(row) and row[j] in "'!":
            j += 1
        out.append(row[i:j])
        i = j
    return out


def grid(board):
    """Rows top rank first, each a list of men or marks."""
    return [tokens(r) for r in board.split("/")]


def write(rows):
    out = []
    for row in rows:
        s, gap = "", 0
        for t in row:
            if t is None:
                gap += 1
                continue
            if gap:
                s += str(gap)
                gap = 0
            s += t
        out.append(s + (str(gap) if gap else ""))
    return "/".join(out)


def turn(rows, chess_like):
    """The board seen from the other side: turned half round (shogi) or mirrored (chess)."""
    rows = rows[::-1]
    return rows if chess_like else [r[::-1] for r in rows]


def swap(t):
    return None if t is None else t.swapcase()


def square(f, r):
    return "%s%d" % (chr(ord("a") + f), r + 1)


class Locust:
    """Locust twice: UCI for moves and FENs, XBoard for `lift`."""

    def __init__(self, variant):
        self.v = variant
        self.uci = Proc([LOCUST, "--variants", PSEUDO])
        self.uci.send("uci")
        self.uci.until(lambda l: l == "uciok")
        self.uci.send("setoption name UCI_Variant value " + variant)
        self.uci.send("isready")
        self.uci.until(lambda l: l == "readyok")
        # Lifts in the copy whose king is an ordinary man: HaChu's answers ignore checks.
        self.xb = Proc([LOCUST, "--variants", PSEUDO])
        for c in ["xboard", "protover 2", "variant %s-pseudo" % variant, "force"]:
            self.xb.send(c)
        self.xb.sync()

    def start_fen(self):
        self.uci.send("position startpos")
        return self.fen()

    def fen(self):
        self.uci.send("d")
        line = self.uci.until(lambda l: l.startswith("info string fen "))[-1]
        return line[len("info string fen "):]

    def moves(self, fen):
        self.uci.send("position fen " + fen)
        self.uci.send("go perft 1")
        lines = self.uci.until(lambda l: l.startswith("Nodes searched"))
        return [l.split(":")[0] for l in lines if re.match(r"^\S+: \d+$", l)]

    def play(self, fen, move):
        self.uci.send("position fen %s moves %s" % (fen, move))
        return self.fen()

    def lift(self, fen, sq):
        """Locust's answer, a pass (cyan on an empty square: where it turns) written as a
        plain move there (passes are not compared)."""
        self.xb.send("setboard " + fen)
        self.xb.send("lift " + sq)
        got = [l for l in self.xb.sync() if l.startswith("highlight ")]
        if not got:
            return "-"
        marks = grid(got[-1].split(" ", 1)[1])
        men = grid(fen.split()[0])
        for i, row in enumerate(marks):
            for j, m in enumerate(row):
                if m == "C" and men[i][j] is None:
                    row[j] = "Y"
        if self.v in CONTAGION_AS_CAPTURE:
            contagion_as_capture(marks, men, sq, CONTAGION_AS_CAPTURE[self.v])
        if self.v in FIRST_STOPS_AS_TARGETS:
            plain_stops(marks, men, fen.split()[1] == "w", "X")
        if self.v in NO_CASTLING:
            drop_castlings(fen, sq, marks, False)
        if all(m is None for row in marks for m in row):
            return "-"
        return write(marks)

    def close(self):
        self.uci.close()
        self.xb.close()


class HaChu:
    """HaChu, started afresh for every lift: its killer moves outlive `setboard`, and from
    there moves of earlier searches (even onto its own men) turn up in later answers."""


    def __init__(self, variant):
        self.v = variant
        self.chess_like = variant in CHESS_LIKE

    def ask(self, board, sq):
        p = Proc([HACHU])
        # `memory` last: before it HaChu searches nothing, so the first search it makes (and
        # every killer move it keeps) is of this position.
        for c in ["xboard", "protover 2", "variant " + self.v, "force", "setboard " + board,
                  "memory %d" % HASH_MB, "lift " + sq]:
            p.send(c)
        got = [l for l in p.sync() if l.startswith("highlight ")]
        p.close()
        return got

    def takes(self, fen):
        """Whether HaChu sets up `fen` and lives (0.21 exits on some macadamia-shogi
        positions' `setboard`)."""
        board, stm = fen.split()[0], fen.split()[1]
        if stm == "b":
            board = write([[swap(t) for t in row] for row in turn(grid(board), self.chess_like)])
        p = Proc([HACHU])
        for c in ["xboard", "protover 2", "variant " + self.v, "force", "setboard " + board,
                  "memory %d" % HASH_MB]:
            p.send(c)
        try:
            p.sync()
            return True
        except RuntimeError:
            return False
        finally:
            p.close()

    def lift(self, fen, sq):
        """HaChu's answer for the man on `sq` in `fen` (Locust's FEN), in `fen`'s orientation."""
        board, stm = fen.split()[0], fen.split()[1]
        rows = grid(board)
        ranks, files = len(rows), len(rows[0])
        f, r = ord(sq[0]) - ord("a"), int(sq[1:]) - 1
        black = stm == "b"
        if black:
            rows = [[swap(t) for t in row] for row in turn(rows, self.chess_like)]
            r = ranks - 1 - r
            if not self.chess_like:
                f = files - 1 - f
        got = self.ask(write(rows), square(f, r))
        if not got:
            return "-"
        marks = grid(got[-1].split(" ", 1)[1])
        row = ranks - 1 - r  # the lifted man's row in `marks` (top rank first)
        # Where the root list's empty entries (0, "a1a1") fall on the board: boards 15 and 16
        # wide start at HaChu's square 0.
        if (f, r) == (0, 0) and files >= 15:
            marks[row][f] = None
        # HaChu marks a lion's pass (its null move) on the lion's own square; it lists one
        # pass a side (its last man with a lion's step), Locust one for each such man, so
        # passes are not compared.
        marks[row][f] = None
        if black:
            marks = turn(marks, self.chess_like)
        if self.v in FIRST_STOPS_AS_TARGETS:
            plain_stops(marks, grid(board), stm == "w", "R")
        if self.v in CASTLING_WITHOUT_RIGHTS:
            drop_castlings(fen, sq, marks, True)
        if all(m is None for row in marks for m in row):
            return "-"
        return write(marks)

    def close(self):
        pass


def drop_castlings(fen, sq, marks, keep_with_right):
    """Removes the king's castling targets (c and g file, from e1 or e8) from `marks` (FEN
    orientation), all of them or (`keep_with_right`) those the FEN has no right for."""
    board, stm, rights = fen.split()[0], fen.split()[1], fen.split()[2]
    white = stm == "w"
    home = "e1" if white else "e8"
    rows = grid(board)
    row = len(rows) - 1 if white else 0
    if sq != home or rows[row][4] != ("K" if white else "k"):
        return
    for file, right in ((2, "Q"), (6, "K")):
        right = right if white else right.lower()
        if not (keep_with_right and right in rights):
            marks[row][file] = None


def own_squares(fen, skip=()):
    """Squares of the men of the side to move, a1 first, but for the men in `skip`."""
    board, stm = fen.split()[0], fen.split()[1]
    rows = grid(board)
    out = []
    for i, row in enumerate(rows[::-1]):
        for f, t in enumerate(row):
            if t is None or t.lower() in skip:
                continue
            letter = t.lstrip("+")[0]
            if letter.isupper() == (stm == "w"):
                out.append(square(f, i))
    return out


def comparable(v, fen):
    """A position HaChu can be asked about (KING_SQUARE_CLOBBERED)."""
    if v not in KING_SQUARE_CLOBBERED:
        return True
    rows = grid(fen.split()[0])
    white = fen.split()[1] == "w"
    man = rows[-1 if white else 0][4]
    return man is None or man == ("K" if white else "k")


def without_ep(v, fen):
    """HaChu's setboard takes no e.p. square: in the chess-like variants a kept position has
    none (Locust would list the e.p. capture, HaChu cannot)."""
    if v not in CHESS_LIKE:
        return fen
    f = fen.split()
    if len(f) > 3:
        f[3] = "-"
    return " ".join(f)


def positions(loc, n, rng):
    """`n` positions from random games, every EVERY plies (the next comparable one)."""
    out = []
    while len(out) < n:
        fen = loc.start_fen()
        due = 0
        for ply in range(PLIES):
            if ply >= due and comparable(loc.v, fen):
                out.append(without_ep(loc.v, fen))
                due = ply + EVERY
                if len(out) >= n:
                    break
            moves = loc.moves(fen)
            if not moves:
                break
            fen = loc.play(fen, rng.choice(moves))
    return out


def agree(theirs, ours):
    """HaChu's kept answer against Locust's (an `X` of Locust's matches red or magenta)."""
    if "-" in (theirs, ours):
        return theirs == ours
    a, b = grid(theirs), grid(ours)
    return all(x == y or y == "X" and x in "RM" for ra, rb in zip(a, b) for x, y in zip(ra, rb))


def lifts_of(loc, hachu, v, fen):
    """(square, HaChu's answer, Locust's) for every man of the side to move with an oracle,
    or None where HaChu cannot be asked: it exits on the set-up, or answers for no man while
    Locust's men move (its set-up lost them: werewolf, macadamia-shogi)."""
    if not hachu.takes(fen):
        print("HaChu exits on this set-up, not kept: %s %s" % (v, fen))
        return None
    out = [(sq, hachu.lift(fen, sq), loc.lift(fen, sq))
           for sq in own_squares(fen, NO_ORACLE.get(v, ()))]
    if all(t == "-" for _, t, _ in out) and any(o != "-" for _, _, o in out):
        print("HaChu answers for no man here, not kept: %s %s" % (v, fen))
        return None
    return out


def generate(args):
    rng = random.Random(args.seed)
    bad = 0
    new = not os.path.exists(args.out)
    with open(args.out, "a") as out:
        if new:
            out.write(HEADER)
        for v in args.variants:
            loc, hachu = Locust(v), HaChu(v)
            fens = [f.split(" ", 1)[1] for f in args.fen if f.split(" ", 1)[0] == v]
            chosen = len(fens)
            fens += positions(loc, args.positions, rng)
            kept = [(fen, lifts_of(loc, hachu, v, fen)) for fen in fens]
            kept = [(fen, lifts) for fen, lifts in kept if lifts is not None]
            out.write("# %s: %d positions kept of %d chosen and %d from random games in Locust "
                      "(seed %d)\n" % (v, len(kept), chosen, len(fens) - chosen, args.seed))
            lifts = 0
            for fen, answers in kept:
                out.write("position %s %s\n" % (v, fen))
                for sq, theirs, ours in answers:
                    out.write("lift %s %s\n" % (sq, theirs))
                    lifts += 1
                    if not agree(theirs, ours):
                        bad += 1
                        print("DIFF %s %s lift %s\n  hachu  %s\n  locust %s"
                              % (v, fen, sq, theirs, ours))
            print("%s: %d positions, %d lifts" % (v, len(kept), lifts))
            loc.close()
            hachu.close()
    print("differences: %d" % bad)
    return 1 if bad else 0


def check(args):
    bad, n, seen, engines = 0, 0, 0, {}
    fen = v = None
    for line in open(args.file):
        if line.startswith("position "):
            _, v, fen = line.rstrip("\n").split(" ", 2)
            if v not in engines:
                engines[v] = HaChu(v)
        elif line.startswith("lift "):
            seen += 1
            if seen % args.sample:
                continue
            _, sq, want = line.rstrip("\n").split(" ", 2)
            got = engines[v].lift(fen, sq)
            n += 1
            if got != want:
                bad += 1
                print("DIFF %s %s lift %s\n  kept   %s\n  hachu  %s" % (v, fen, sq, want, got))
    for e in engines.values():
        e.close()
    print("%d lifts asked again, %d differ" % (n, bad))
    return 1 if bad or not n else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("variants", nargs="+")
    g.add_argument("--positions", type=int, default=20)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", default=DATA)
    g.add_argument("--fen", action="append", default=[],
                   help="'VARIANT FEN': a position of one's own choosing, besides the random ones")
    c = sub.add_parser("check")
    c.add_argument("file", nargs="?", default=DATA)
    c.add_argument("--sample", type=int, default=1, help="ask again for one answer in N")
    args = ap.parse_args()
    sys.exit(generate(args) if args.cmd == "gen" else check(args))


if __name__ == "__main__":
    main()
