#!/usr/bin/env python3
"""Perft rows for Fairy-Stockfish's built-in variants that Locust plays under FSF's names.

For each such variant (a section name or `alias` in variants/data/*.ini that pyffish lists in
`variants()`): the start position and POSITIONS positions from seeded random playouts
(pyffish `legal_moves`, FENs from pyffish `get_fen`); a playout that reaches the end of the
game gives the position one ply before it. Each position is counted by the newest
Fairy-Stockfish build's `go perft` at depth 3 (depth 2 where depth 3 exceeds MAX_NODES) and,
as a cross-check, by a pyffish recursion over `legal_moves` at depth 2: the two must agree or
the tool stops. Both stop at an immediate game end (no legal moves there), so such positions
count 0 and Locust must agree.

Writes tests/data/perft/fsf_builtin.txt (checked by tests/fsf_builtin_perft.rs), one row a
position: `variant depth count fen`.

    python3 tools/fsf-builtin-perft.py [--engine PATH] [--only NAME,...]
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys
import zlib

import pyffish as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fsfdata import CHESS960, ENGINE, FSF_GIT, Fsf, py_perft, write_rows  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "perft", "fsf_builtin.txt")
# Random positions per variant, besides the start position.
POSITIONS = 3
# Playout length range in plies (a playout that ends earlier keeps its last position).
PLIES = (6, 60)
# Largest count at depth 3 kept; above it the row is depth 2.
MAX_NODES = 400_000


def locust_fsf_names():
    """FSF built-in names that a built-in Locust section has as its name or alias."""
    fsf = set(sf.variants())
    names = []
    for path in sorted(glob.glob(os.path.join(ROOT, "variants", "data", "*.ini"))):
        with open(path) as f:
            for line in f:
                m = re.match(r"^\[([^\]:]+)", line)
                if m:
                    names.append(m.group(1))
                m = re.match(r"^alias\s*=\s*(.*)$", line)
                if m:
                    names.extend(m.group(1).split())
    return sorted(n for n in set(names) if n in fsf)


def positions(variant):
    """The start FEN and POSITIONS playout FENs, seeded by the variant's name."""
    rng = random.Random(zlib.crc32(variant.encode()))
    start = sf.start_fen(variant)
    is960 = variant in CHESS960
    fens = [sf.get_fen(variant, start, [], is960)]
    if not sf.legal_moves(variant, start, [], is960):
        # The game is over at the start (crusade's full board): no playout exists.
        return fens
    while len(fens) < POSITIONS + 1:
        moves = []
        for _ in range(rng.randint(*PLIES)):
            legal = sf.legal_moves(variant, start, moves, is960)
            if not legal:
                # The game is over: keep the position before the last move, whose tree
                # holds the ending (an atomic king blown up has no FEN Locust reads).
                moves.pop()
                break
            moves.append(rng.choice(sorted(legal)))
        fen = sf.get_fen(variant, start, moves, is960)
        if fen not in fens:
            fens.append(fen)
    return fens


def rows(engine, variant):
    for fen in positions(variant):
        two = engine.perft(variant, fen, 2)
        check = py_perft(variant, fen, 2)
        if two != check:
            sys.exit("%s %s: go perft 2 = %d, pyffish = %d" % (variant, fen, two, check))
        three = engine.perft(variant, fen, 3) if two <= MAX_NODES // 10 else None
        if three is not None and three <= MAX_NODES:
            yield (variant, 3, three, fen)
        else:
            yield (variant, 2, two, fen)


def one(engine, name):
    """Rows of one variant, printed (run in a process of its own: pyffish crashes, seen on
    minixiangqi, after many calls across variants in one process)."""
    for row in rows(Fsf(engine), name):
        print("%s %d %d %s" % row, flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=ENGINE)
    ap.add_argument("--only", help="comma-separated variants (default: all Locust plays)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        return one(args.engine, args.one)
    names = args.only.split(",") if args.only else locust_fsf_names()
    engine = Fsf(args.engine)
    commit = subprocess.run(["git", "--git-dir", FSF_GIT, "rev-parse", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    header = [
        "# Perft of Fairy-Stockfish's built-in variants that Locust plays under the same name:",
        "# each variant's start position and %d positions from seeded random playouts" % POSITIONS,
        "# (pyffish %s, legal_moves and get_fen). Counts by %s `go perft`"
        % (".".join(map(str, sf.version())), engine.name),
        "# (source commit %s), at depth 3 or, above %d nodes," % (commit, MAX_NODES),
        "# at depth 2; every depth-2 count also equals pyffish's recursion over legal_moves.",
        "# Both stop at an immediate game end. Generated by tools/fsf-builtin-perft.py; do not",
        "# edit by hand. Format: variant depth count fen",
    ]
    out = []
    for name in names:
        cmd = [sys.executable, __file__, "--one", name, "--engine", args.engine]
        got = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        out.extend(got.splitlines())
        print(got, end="", file=sys.stderr)
    write_rows(OUT, header, out, args.only)


if __name__ == "__main__":
    main()
