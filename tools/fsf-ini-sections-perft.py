#!/usr/bin/env python3
"""Perft rows for tests/data/perft/fsf_ini_sections.txt: for each named section of
Fairy-Stockfish's variants.ini, `name depth count` from its start position, counted by pyffish
(sf.load_variant_config, recursion over sf.legal_moves with the moves played from the start
position, not through FENs: a FEN does not say that the last move was a pass, and two passes
in a row end the game), printed to stdout for appending.

Usage: tools/fsf-ini-sections-perft.py VARIANTS_INI [--depth 3] NAME...
"""
import argparse

import pyffish as sf


def perft(variant, fen, played, depth):
    moves = sf.legal_moves(variant, fen, played)
    if depth == 1:
        return len(moves)
    return sum(perft(variant, fen, played + [m], depth - 1) for m in moves)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ini")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("names", nargs="+")
    args = ap.parse_args()
    with open(args.ini) as f:
        sf.load_variant_config(f.read())
    for name in args.names:
        print(f"{name} {args.depth} {perft(name, sf.start_fen(name), [], args.depth)}", flush=True)


if __name__ == "__main__":
    main()
