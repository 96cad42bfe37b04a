#!/usr/bin/env python3
"""Game ends by repetition rules of Fairy-Stockfish (issue 44): janggimodern's
`moveRepetitionIllegal` (a side that takes a man back and forth a fourth time, never in check
as it moves, loses), from pyffish, written to tests/data/perft/fsf_repetition.txt and
checked by tests/fsf_repetition.rs.

Rows are `ending VARIANT RESULT FEN ; MOVES`: RESULT is the side to move's win|loss|draw
after MOVES, or `on` while the game goes on. pyffish judges as a game would: without a legal
move, `game_result`; else `is_immediate_game_end`, then `is_optional_game_end` (which holds
the repetition rules; pyffish asks it at ply 0, so repetitions count in full). Every prefix
of each line gives a row.

Lines: set by hand at the rule's edges (LINES), and seeded random games in which each side
plays its own last move backwards half the time where it can, so that trips of men recur
(the last PLAYOUT_ROWS prefixes of each game).

Usage: python3 tools/fsf-repetition-data.py [--only NAME,...]; without --only it writes
the whole file, with it prints the rows of those variants.
"""
import argparse
import os
import random
import sys

import pyffish as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fsfdata import ending_row, verdict, write_rows  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "perft", "fsf_repetition.txt")
JANGGI = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
JANGGI_BLACK = JANGGI.replace(" w ", " b ")
# A rook that takes on a5 and then shuttles; the black general shuttles in its palace.
ROOK_TAKES = "9/4k4/9/9/9/p8/9/9/4K4/R8 w - - 0 1"
# A white rook shuttling on rank 3 while a black rook checks along the e-file.
CHECKED = "3k5/9/9/7r1/9/9/9/R8/4K4/9 w - - 0 1"
LINES = [
    # Both rooks shuttle: White's fifth move a1a2 is its fourth return trip and loses.
    ("janggimodern", JANGGI, "a1a2 a10a9 a2a1 a9a10 a1a2 a10a9 a2a1 a9a10 a1a2"),
    # The rook arrives on a2 and shuttles a2-a3: the arrival counts as the first trip.
    ("janggimodern", JANGGI, "a1a2 e9e10 a2a3 e10e9 a3a2 e9e10 a2a3 e10e9 a3a2 e9e10"),
    # A pass stands for one of the returns.
    ("janggimodern", JANGGI,
     "a1a2 e9e10 a2a3 e10e9 a3a2 e9e10 a2a3 e10e9 e2e2 e9e10 a3a2 e10e9 a2a3"),
    # Generals and guards shuttle in their palaces: no count; repetitions end it at last.
    ("janggimodern", JANGGI,
     "e2e1 e9e10 e1e2 e10e9 e2e1 e9e10 e1e2 e10e9 d1d2 d10d9 d2d1 d9d10 d1d2 d10d9"),
    # FSF's empty move before the start "ends" on a1: a white rook shuttling from a1 in a
    # game that began with Black to move loses a trip early.
    ("janggimodern", JANGGI_BLACK, "e9e10 a1a2 e10e9 a2a1 e9e10 a1a2 e10e9 a2a1 e9e10"),
    # The rook came to a5 by a capture: that arrival does not count, the next trip does.
    ("janggimodern", ROOK_TAKES,
     "a1a5 e9e10 a5a6 e10e9 a6a5 e9e10 a5a6 e10e9 a6a5 e9e10 a5a6 e10e9 a6a5"),
    # Checked before some of its moves, the shuttling side is never counted out.
    ("janggimodern", CHECKED,
     "a3e3 h7h8 e3a3 h8e8 a3e3 e8h8 e3a3 h8e8 a3e3 e8h8 e3a3 h8e8 a3e3 e8h8 e3a3"),
    # The same games under janggi's other rules: no move rule, repetition draws sooner.
    ("janggi", JANGGI, "a1a2 a10a9 a2a1 a9a10 a1a2 a10a9 a2a1 a9a10 a1a2"),
    ("janggicasual", JANGGI, "a1a2 e9e10 a2a3 e10e9 a3a2 e9e10 a2a3 e10e9 a3a2 e9e10"),
]
VARIANTS = ["janggimodern"]
PLAYOUTS = 6
PLAYOUT_ROWS = 14
MAX_PLIES = 300
# How often a side plays its own last move backwards, where it is legal.
REVERSE = 0.5


def row(name, fen, moves):
    return ending_row(name, verdict(name, fen, moves), fen, moves)


def playout(name, rng):
    """A seeded game that keeps reversing moves, to its end or MAX_PLIES."""
    fen = sf.start_fen(name)
    moves = []
    while len(moves) < MAX_PLIES and verdict(name, fen, moves) == "on":
        legal = sorted(sf.legal_moves(name, fen, moves))
        back = None
        if len(moves) >= 2 and len(moves[-2]) >= 4:
            m = moves[-2]
            split = 2 if m[2].isalpha() else 3
            back = m[split:] + m[:split]
        if back in legal and rng.random() < REVERSE:
            moves.append(back)
        else:
            moves.append(rng.choice(legal))
    return fen, moves


def rows_of(name):
    out = []
    for variant, fen, line in LINES:
        if variant != name:
            continue
        moves = line.split()
        out.extend(row(name, fen, moves[:k]) for k in range(len(moves) + 1))
    if name in VARIANTS:
        rng = random.Random(name)
        for _ in range(PLAYOUTS):
            fen, moves = playout(name, rng)
            first = max(0, len(moves) - PLAYOUT_ROWS)
            out.extend(row(name, fen, moves[:k]) for k in range(first, len(moves) + 1))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="comma-separated variants (default: all)")
    args = ap.parse_args()
    names = []
    for n in [v for v, _, _ in LINES] + VARIANTS:
        if n not in names:
            names.append(n)
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    header = [
        "# Game ends by Fairy-Stockfish's repetition rules, by pyffish %s (legal_moves,"
        % ".".join(map(str, sf.version())),
        "# game_result, is_immediate_game_end, is_optional_game_end). Generated by",
        "# tools/fsf-repetition-data.py; do not edit. `ending VARIANT RESULT FEN ; MOVES`:",
        "# RESULT is `on` (the game goes on) or the side to move's win|loss|draw after MOVES.",
    ]
    out = []
    for name in names:
        out.extend(rows_of(name))
    write_rows(OUT, header, out, args.only)


if __name__ == "__main__":
    main()
