#!/usr/bin/env python3
"""Writes a small per-variant opening file (EPD, one FEN per line) for matches.

Each opening is the start position followed by a few random legal plies (pyffish), kept only
when the newest Fairy-Stockfish judges it roughly level (|score| <= MAX_CP at depth DEPTH).
usage: tools/make-openings.py VARIANT COUNT [PLIES]
writes tests/data/openings/VARIANT.epd (FENs) and VARIANT.pgn (the same openings as moves from
the start, for engines without setboard such as Fairy-Max).
For the shogi family (CUTECHESS_SHOGI) the FENs are written in cutechess-cli's shogi dialect,
`BOARD[HAND] w - MOVE` with `-` for empty hands (it refuses FSF's `[] w - - 0 1` and then plays
every game from the start position); Locust and Fairy-Stockfish read both forms.
Environment: OUT=DIR writes DIR/VARIANT.epd and .pgn instead; DEPTH and MAX_CP change the
level test (tools/sprt.sh's larger books: OUT=tests/data/openings/sprt DEPTH=8 MAX_CP=100).
"""
import os
import random
import subprocess
import sys

import pyffish

FSF = "/opt/peers/fairy-stockfish-latest"
DEPTH = int(os.environ.get("DEPTH", 10))
MAX_CP = int(os.environ.get("MAX_CP", 80))
OUT = os.environ.get("OUT", "tests/data/openings")
# Variants that cutechess-cli plays on its shogi board, whose FEN dialect differs from FSF's.
CUTECHESS_SHOGI = {"shogi", "minishogi"}


def cutechess_fen(variant, fen):
    """`fen` as cutechess-cli reads it for `variant`: the shogi family's board and hand
    (`-` when empty), side to move, `-` and the move number; other variants unchanged."""
    if variant not in CUTECHESS_SHOGI:
        return fen
    fields = fen.split()
    board = fields[0].replace("[]", "[-]")
    return f"{board} {fields[1]} - {fields[-1]}"


def score(proc, variant, fen):
    proc.stdin.write(f"setoption name UCI_Variant value {variant}\nposition fen {fen}\ngo depth {DEPTH}\n")
    proc.stdin.flush()
    last = None
    for line in proc.stdout:
        if " score " in line:
            parts = line.split()
            i = parts.index("score")
            last = (parts[i + 1], int(parts[i + 2]))
        if line.startswith("bestmove"):
            return last


def main():
    variant, count = sys.argv[1], int(sys.argv[2])
    plies = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    rng = random.Random(f"{variant}-{count}-{plies}")
    proc = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    start = pyffish.start_fen(variant)
    seen = set()
    epd = open(f"{OUT}/{variant}.epd", "w")
    pgn = open(f"{OUT}/{variant}.pgn", "w")
    while len(seen) < count:
        moves = []
        for _ in range(plies):
            legal = pyffish.legal_moves(variant, start, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
        fen = pyffish.get_fen(variant, start, moves)
        if fen in seen or not pyffish.legal_moves(variant, start, moves):
            continue
        s = score(proc, variant, fen)
        if s and s[0] == "cp" and abs(s[1]) <= MAX_CP:
            seen.add(fen)
            epd.write(cutechess_fen(variant, fen) + "\n")
            sans = pyffish.get_san_moves(variant, start, moves)
            text = " ".join((f"{i // 2 + 1}. " if i % 2 == 0 else "") + m for i, m in enumerate(sans))
            pgn.write(f'[Variant "{variant}"]\n\n{text} *\n\n')
    proc.stdin.write("quit\n")
    proc.stdin.flush()


main()
