#!/usr/bin/env python3
"""Finds where Locust's perft differs from Fairy-Stockfish's: compares the divides of a
position and descends into the first root move whose counts differ, down to depth 1.
Usage: tools/divide-diff.py VARIANT DEPTH [FEN]"""
import subprocess
import sys

import pyffish as sf

FSF = "/usr/games/fairy-stockfish"
LOCUST = "target/release/locust"


def is_pass(m):
    """Fairy-Stockfish writes a pass as the king moving to its own square (e2e2)."""
    half = len(m) // 2
    return len(m) % 2 == 0 and m[:half] == m[half:]


def fsf_divide(variant, fen, depth):
    cmds = f"uci\nsetoption name UCI_Variant value {variant}\nposition fen {fen}\ngo perft {depth}\n"
    out = subprocess.run([FSF], input=cmds, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        if ": " in line and not line.startswith(("info", "Nodes", "id", "option")):
            m, n = line.split(": ")
            m = m.strip()
            rows["@@@@" if is_pass(m) else m] = int(n)
            if is_pass(m):
                PASS_NAME[fen] = m
    return rows


PASS_NAME = {}


def locust_divide(variant, fen, depth):
    out = subprocess.run([LOCUST, "perft", variant, str(depth), "--fen", fen, "--divide"],
                         capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        if ": " in line and not line.startswith(("Time", "Nodes")):
            m, n = line.split(": ")
            rows[m.strip()] = int(n)
    return rows


def main():
    variant, depth = sys.argv[1], int(sys.argv[2])
    fen = sys.argv[3] if len(sys.argv) > 3 else sf.start_fen(variant)
    while depth >= 1:
        a, b = fsf_divide(variant, fen, depth), locust_divide(variant, fen, depth)
        print(f"depth {depth} fen {fen}: fsf {sum(a.values())} locust {sum(b.values())}")
        only_fsf = sorted(set(a) - set(b))
        only_us = sorted(set(b) - set(a))
        if only_fsf or only_us:
            print("  only fsf:", only_fsf)
            print("  only locust:", only_us)
        diff = [m for m in a if m in b and a[m] != b[m]]
        if not diff:
            return
        m = diff[0]
        print(f"  descending into {m}: fsf {a[m]} locust {b[m]}")
        fen = sf.get_fen(variant, fen, [PASS_NAME.get(fen, m) if m == "@@@@" else m])
        depth -= 1


main()
