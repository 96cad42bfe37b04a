#!/usr/bin/env python3
"""Rewrites an opening file's moves (tests/data/openings/VARIANT.pgn, Fairy-Stockfish SAN)
as coordinate moves in XBoard's numbering, for XBoard matches against engines that have no
setboard (MaxQi, Fairy-Max: XBoard then sets a position up by `edit`, which they misread
in xiangqi). XBoard reads its own SAN but not pyffish's (1-based ranks, P for pawns) on
boards with ten ranks; coordinate moves it reads everywhere.

usage: tools/xboard-openings.py VARIANT > tests/data/openings/VARIANT-xboard.pgn"""
import re
import sys

import pyffish

variant = sys.argv[1]
text = open(f"tests/data/openings/{variant}.pgn").read()
start = pyffish.start_fen(variant)
ranks = len(start.split()[0].split("/"))


def xboard(uci):
    """pyffish's coordinates (ranks from 1) in XBoard's (ranks from 0 on 10-rank boards)."""
    if ranks < 10:
        return uci
    squares = re.findall(r"([a-z])(\d+)", uci)
    return "".join(f"{f}{int(r) - 1}" for f, r in squares) + re.sub(r"^[a-z]\d+[a-z]\d+", "", uci)


for game in re.split(r"\n(?=\[Variant)", text.strip()):
    body = "\n".join(line for line in game.splitlines() if not line.startswith("["))
    tokens = [t for t in body.split() if not re.fullmatch(r"\d+\.|\*|1-0|0-1|1/2-1/2", t)]
    played = []
    for san in tokens:
        fen = pyffish.get_fen(variant, start, played)
        match = [m for m in pyffish.legal_moves(variant, start, played)
                 if pyffish.get_san(variant, fen, m) == san]
        if len(match) != 1:
            sys.exit(f"{variant}: cannot read {san!r} after {played}")
        played.append(match[0])
    moves = " ".join(
        (f"{i // 2 + 1}. " if i % 2 == 0 else "") + xboard(m) for i, m in enumerate(played)
    )
    print(f'[Variant "{variant}"]\n\n{moves} *\n')
