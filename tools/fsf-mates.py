#!/usr/bin/env python3
"""Mate distances from Fairy-Stockfish for random positions of one material, to check
Locust's tables against an independent engine (tests/data/egt/fsf-mates-*.txt).

Draws random legal placements (or, with --stdin, takes the won positions that
`locust egt build --examples N` prints), asks `locust egt probe` for each one's value, keeps
those the table calls a win or loss in at most --max-moves moves (any side to move), and asks
Fairy-Stockfish (UCI, --depth plies) for its score. Prints `FEN;locust;fsf` lines, where
both are signed mate distances in moves from the side to move ("mate 3", "mate -2") and
fsf is "none" where it found no mate. The table's value is printed beside, not used to
filter: the test compares the two.
"""
import argparse
import random
import subprocess
import sys


def fen_of(files, ranks, men, stm):
    board = [["" for _ in range(files)] for _ in range(ranks)]
    for letter, (f, r) in men:
        board[r][f] = letter
    rows = []
    for r in range(ranks - 1, -1, -1):
        row, empty = "", 0
        for f in range(files):
            if board[r][f]:
                row += (str(empty) if empty else "") + board[r][f]
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {stm} - - 0 1"


def locust_value(locust, variant, fen, cache):
    out = subprocess.run([locust, "egt", "probe", variant, fen, "--cache", cache],
                         capture_output=True, text=True).stdout
    first = out.splitlines()[0] if out else ""
    value = first.rsplit(": ", 1)[-1]
    words = value.split()
    if len(words) == 3 and words[1] == "in":
        n = int(words[2])
        return n if words[0] == "win" else -n
    return None


class Engine:
    def __init__(self, path, variant):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("engine ended")
            lines.append(line)
            if line.startswith(word):
                return lines

    def mate(self, fen, depth):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        score = None
        for line in self.wait("bestmove"):
            words = line.split()
            if "score" in words:
                i = words.index("score")
                score = (words[i + 1], int(words[i + 2]))
        return score[1] if score and score[0] == "mate" else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--locust", default="target/release/locust")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--variant", default="capablanca")
    ap.add_argument("--files", type=int, default=10)
    ap.add_argument("--ranks", type=int, default=8)
    ap.add_argument("--men", default="KAkq", help="letters, White upper case")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--max-moves", type=int, default=5)
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--cache", default="/tmp/fsf-mates-cache")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stdin", action="store_true",
                    help="take the positions from `locust egt build --examples N` on stdin")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    eng = Engine(a.fsf, a.variant)
    if a.stdin:
        for line in sys.stdin:
            if ";" not in line:
                continue
            fen = line.split(";")[0].strip()
            ours = locust_value(a.locust, a.variant, fen, a.cache)
            theirs = eng.mate(fen, a.depth)
            print(f"{fen};{ours};{'none' if theirs is None else theirs}", flush=True)
        return
    squares = [(f, r) for f in range(a.files) for r in range(a.ranks)]
    kept, tried = 0, 0
    while kept < a.count and tried < 200 * a.count:
        tried += 1
        men = list(zip(a.men, rng.sample(squares, len(a.men))))
        fen = fen_of(a.files, a.ranks, men, rng.choice("wb"))
        ours = locust_value(a.locust, a.variant, fen, a.cache)
        if ours is None or abs(ours) > a.max_moves:
            continue
        theirs = eng.mate(fen, a.depth)
        print(f"{fen};{ours};{'none' if theirs is None else theirs}", flush=True)
        kept += 1


if __name__ == "__main__":
    main()
