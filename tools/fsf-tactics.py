#!/usr/bin/env python3
"""Wins in 1-3 moves that Fairy-Stockfish finds, in the variants named, as lines for
tests/data/fsf_rules_tactics.txt (`variant | FEN | its best move | mate N`).

For each variant, seeded random playouts by pyffish from the start position; from ply
--from on, each position is given to the newest Fairy-Stockfish (UCI, `go depth --depth`),
and the first --per positions it scores as a win in at most --max-mate moves for the side
to move are printed. Random play leaves men hanging, so such positions come within a few
dozen plies in most games. Positions where pyffish already sees the game ended are skipped.

With --ini FILE (FSF's variants.ini), its sections are playable too: pyffish loads the file
and Fairy-Stockfish gets it as its VariantPath.

Usage: tools/fsf-tactics.py [--fsf PATH] [--seed N] [--ini FILE] VARIANT... >> tests/data/fsf_rules_tactics.txt
"""
import argparse
import random
import subprocess
import sys

import pyffish as sf

FSF = "/opt/peers/fairy-stockfish-latest"


class Engine:
    """One UCI Fairy-Stockfish process, asked for the score of one position at a time."""

    def __init__(self, path, ini=None):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        if ini:
            self.send("setoption name VariantPath value " + ini)
            self.send("isready")
            self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait(self, token):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish exited")
            lines.append(line.strip())
            if line.startswith(token):
                return lines

    def mate(self, variant, fen, depth):
        """(mate distance in moves, best move), or (None, best move) when it sees none."""
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        lines = self.wait("bestmove")
        best = lines[-1].split()[1]
        score = None
        for line in lines:
            words = line.split()
            if "score" in words:
                i = words.index("score")
                score = (words[i + 1], int(words[i + 2]))
        if score and score[0] == "mate" and score[1] > 0:
            return score[1], best
        return None, best

    def close(self):
        self.send("quit")
        self.proc.wait()


def wins(engine, variant, rng, args):
    """Up to args.per wins in at most args.max_mate moves, from random playouts."""
    found, tries = [], 0
    while len(found) < args.per and tries < args.games:
        tries += 1
        fen = sf.start_fen(variant)
        for ply in range(args.plies):
            moves = sf.legal_moves(variant, fen, [])
            if not moves or sf.is_immediate_game_end(variant, fen, [])[0]:
                break
            if ply >= args.start:
                n, best = engine.mate(variant, fen, args.depth)
                if n is not None and n <= args.max_mate:
                    found.append(f"{variant} | {fen} | {best} | mate {n}")
                    break
            fen = sf.get_fen(variant, fen, [rng.choice(moves)])
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("variants", nargs="+")
    p.add_argument("--fsf", default=FSF)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--depth", type=int, default=8)
    p.add_argument("--max-mate", type=int, default=3)
    p.add_argument("--per", type=int, default=1, help="wins kept per variant")
    p.add_argument("--start", type=int, default=10, help="first ply examined")
    p.add_argument("--plies", type=int, default=120, help="longest playout")
    p.add_argument("--games", type=int, default=20, help="playouts tried per variant")
    p.add_argument("--ini", help="a variants.ini whose sections may be named")
    args = p.parse_args()
    if args.ini:
        with open(args.ini) as f:
            sf.load_variant_config(f.read())
    engine = Engine(args.fsf, args.ini)
    rng = random.Random(args.seed)
    for variant in args.variants:
        lines = wins(engine, variant, rng, args)
        if not lines:
            print(f"{variant}: no win found", file=sys.stderr)
        for line in lines:
            print(line, flush=True)
    engine.close()


if __name__ == "__main__":
    main()
