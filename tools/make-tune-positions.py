#!/usr/bin/env python3
"""Training positions for `locust tune` (docs/TUNING.md): quiet positions labelled with the
score of a shallow Fairy-Stockfish search.

Fairy-Stockfish plays games from an opening book at a fixed node count; every position
after the book's moves whose side to move is not in check and whose best move is not a
capture (a quiet position: the static evaluation is meant to score it) is written with
that search's score, in centipawns from the side to move's view, as

    FEN;SCORE

Games stop at a mate score, at |score| > --stop, or at --max-plies. A share of the moves
(--random) is a random legal move instead, so that the games do not repeat one line and
the positions include imbalances that Fairy-Stockfish itself would avoid.

usage: tools/make-tune-positions.py VARIANT BOOK.epd OUT [--games N] [--nodes N] ...
"""

import argparse
import random
import subprocess
import sys

import pyffish


class Engine:
    """A UCI engine on pipes."""

    def __init__(self, path, variant, options):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        for line in self.p.stdout:
            if line.startswith(token):
                return line
        raise RuntimeError("engine exited")

    def search(self, fen, nodes):
        """(best move, score in cp or None for a mate score)."""
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        score = None
        for line in self.p.stdout:
            parts = line.split()
            if "score" in parts:
                i = parts.index("score")
                score = int(parts[i + 2]) if parts[i + 1] == "cp" else None
            if line.startswith("bestmove"):
                return parts[1], score
        raise RuntimeError("engine exited")

    def close(self):
        self.send("quit")
        self.p.wait()


def play(engine, variant, start, args, out):
    """Plays one game from `start`, writes its quiet positions; returns how many."""
    moves = []
    written = 0
    for _ in range(args.max_plies):
        fen = pyffish.get_fen(variant, start, moves)
        legal = pyffish.legal_moves(variant, fen, [])
        if not legal:
            break
        best, score = engine.search(fen, args.nodes)
        if score is None or abs(score) > args.stop:
            break
        quiet = not pyffish.gives_check(variant, fen, []) and not pyffish.is_capture(
            variant, fen, [], best
        )
        if quiet and random.random() < args.keep:
            out.write(f"{fen};{score}\n")
            written += 1
        move = random.choice(legal) if random.random() < args.random else best
        moves.append(move)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("variant", help="Fairy-Stockfish's variant name")
    ap.add_argument("book", help="EPD openings (one FEN a line)")
    ap.add_argument("out", help="output file (appended to)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--nodes", type=int, default=4000, help="FSF nodes a move")
    ap.add_argument("--random", type=float, default=0.08, help="share of random moves")
    ap.add_argument("--keep", type=float, default=0.5, help="share of quiet positions kept")
    ap.add_argument("--stop", type=int, default=1500, help="end a game at this |score|")
    ap.add_argument("--max-plies", type=int, default=240)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default="/opt/peers/fairy-stockfish-latest")
    args = ap.parse_args()
    random.seed(args.seed)
    with open(args.book) as f:
        book = [" ".join(l.split()[:6]) for l in f if l.strip() and not l.startswith("#")]
    engine = Engine(args.engine, args.variant, {"Threads": 1, "Hash": 16})
    total = 0
    with open(args.out, "a") as out:
        for g in range(args.games):
            fen = random.choice(book)
            if pyffish.validate_fen(fen, args.variant) != pyffish.FEN_OK:
                continue
            total += play(engine, args.variant, fen, args, out)
            out.flush()
            print(f"game {g + 1}: {total} positions", file=sys.stderr)
    engine.close()


if __name__ == "__main__":
    main()
