#!/usr/bin/env python3
"""Finds tactical test positions: positions from random games (pyffish) where the newest
Fairy-Stockfish finds a short mate or a decisive material win with one clearly best move.

usage: tools/make-tactics.py VARIANT COUNT >> tests/data/tactics.txt
Line format: variant | FEN | best move (UCI, Fairy-Stockfish's notation) | what | checked by
"""
import random
import subprocess
import sys

import pyffish

FSF = "/opt/peers/fairy-stockfish-latest"
DEPTH = 14
MARGIN = 400  # cp between the best and the second-best move


def analyse(proc, variant, fen):
    proc.stdin.write(f"setoption name UCI_Variant value {variant}\nsetoption name MultiPV value 2\n"
                     f"position fen {fen}\ngo depth {DEPTH}\n")
    proc.stdin.flush()
    lines = {}
    for line in proc.stdout:
        parts = line.split()
        if parts and parts[0] == "info" and "multipv" in parts and "score" in parts and "pv" in parts:
            k = int(parts[parts.index("multipv") + 1])
            i = parts.index("score")
            lines[k] = (parts[i + 1], int(parts[i + 2]), parts[parts.index("pv") + 1])
        if line.startswith("bestmove"):
            return lines


def value(s):
    kind, v, _ = s
    return (100000 - abs(v)) * (1 if v > 0 else -1) if kind == "mate" else v


def main():
    variant, count = sys.argv[1], int(sys.argv[2])
    rng = random.Random(variant)
    proc = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    start = pyffish.start_fen(variant)
    found = 0
    tries = 0
    while found < count and tries < 400:
        tries += 1
        moves = []
        for _ in range(rng.randint(8, 40)):
            legal = pyffish.legal_moves(variant, start, moves)
            if not legal:
                break
            # Prefer captures and checks a little so that tactics arise.
            moves.append(rng.choice(legal))
        if not pyffish.legal_moves(variant, start, moves):
            continue
        fen = pyffish.get_fen(variant, start, moves)
        lines = analyse(proc, variant, fen)
        if 1 not in lines or 2 not in lines:
            continue
        best, second = lines[1], lines[2]
        if best[0] == "mate" and 0 < best[1] <= 3 and value(best) - value(second) >= MARGIN:
            what = f"mate in {best[1]}"
        elif best[0] == "cp" and best[1] >= 300 and best[1] - value(second) >= MARGIN and abs(value(second)) < 300:
            what = f"wins material ({best[1]} cp vs {value(second)})"
        else:
            continue
        print(f"{variant} | {fen} | {best[2]} | {what} | Fairy-Stockfish 231126 depth {DEPTH} multipv 2", flush=True)
        found += 1
    proc.stdin.write("quit\n")
    proc.stdin.flush()


main()
