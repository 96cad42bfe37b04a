#!/usr/bin/env python3
"""Writes openings for XBoard matches in variants no other engine judges (chu, tenjiku):
the start position followed by a few random plies, kept when Locust's own search finds the
position roughly level.

Each ply is a random legal move of Locust's (`locust perft VARIANT 1 --divide`) that moves
one man from one square to another without a capture or a promotion (no lion double moves,
no passes: XBoard and HaChu read plain coordinate moves alike). The finished line is kept
when `locust search VARIANT --depth DEPTH` scores it within MAX_CP of level, and when no
earlier line reached the same position.

usage: tools/locust-openings.py VARIANT COUNT [PLIES] [SEED] > tests/data/openings/VARIANT-locust.pgn
Use the file with tools/ini-match.py's OPENINGS (and OPENINGS_FROM) settings.
"""
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCUST = os.environ.get("LOCUST", os.path.join(ROOT, "target", "release", "locust"))
DEPTH = 6
MAX_CP = 80
PLAIN = re.compile(r"[a-z]\d+[a-z]\d+")


def run(*args):
    return subprocess.run([LOCUST, *args], capture_output=True, text=True, check=True).stdout


def fen_after(variant, moves):
    """The FEN after `moves` from the start position (Locust's UCI `d` command)."""
    script = f"uci\nsetoption name UCI_Variant value {variant}\n"
    script += f"position startpos moves {' '.join(moves)}\nd\nquit\n"
    out = subprocess.run([LOCUST], input=script, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("info string fen "):
            return line[len("info string fen "):]
        if "illegal" in line:
            sys.exit(f"{moves}: {line}")
    sys.exit(f"no FEN after {moves}")


def plain_moves(variant, fen):
    """Legal moves of one man from square to square, neither capturing nor promoting."""
    out = run("perft", variant, "1", "--fen", fen, "--divide")
    moves = [line.split(":")[0] for line in out.splitlines() if re.fullmatch(r"\S+: 1", line)]
    men = occupied_squares(fen.split()[0])
    return [m for m in moves if PLAIN.fullmatch(m) and re.findall(r"[a-z]\d+", m)[1] not in men]


def occupied_squares(board):
    """The squares (`a1`, `l12`) holding a man in a FEN's placement field."""
    rows = board.split("/")
    out = set()
    for i, row in enumerate(rows):
        rank, file = len(rows) - i, 0
        for token in re.findall(r"\d+|\+?[A-Za-z]", row):
            if token.isdigit():
                file += int(token)
            else:
                out.add(f"{chr(97 + file)}{rank}")
                file += 1
    return out


def score(variant, fen):
    out = run("search", variant, "--fen", fen, "--depth", str(DEPTH))
    lines = [l for l in out.splitlines() if l.startswith(f"depth {DEPTH} ")]
    m = re.search(r"score (cp|mate) (-?\d+)", lines[-1]) if lines else None
    return int(m.group(2)) if m and m.group(1) == "cp" else None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    variant, count = sys.argv[1], int(sys.argv[2])
    plies = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    start = fen_after(variant, [])
    seen, kept = set(), 0
    while kept < count:
        moves, fen = [], start
        for _ in range(plies):
            choices = plain_moves(variant, fen)
            if not choices:
                break
            moves.append(rng.choice(choices))
            fen = fen_after(variant, moves)
        placement = " ".join(fen.split()[:2])
        if len(moves) < plies or placement in seen:
            continue
        s = score(variant, fen)
        if s is None or abs(s) > MAX_CP:
            continue
        seen.add(placement)
        kept += 1
        body = " ".join(
            (f"{i // 2 + 1}. " if i % 2 == 0 else "") + m for i, m in enumerate(moves))
        print(f'[Event "Locust opening {kept}"]\n[Variant "{variant}"]\n'
              f'[Result "*"]\n[Comment "depth {DEPTH}: {s} cp"]\n\n{body} *\n')


main()
