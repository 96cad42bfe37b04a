#!/usr/bin/env python3
"""Nodes to depth of a UCI engine on a file of FENs: each position searched from a new game
(`ucinewgame`, 16 MB hash, one thread) with `go depth D`; prints the nodes of each completed
depth from 6 on, per position and summed. Fairy-Stockfish is run with its classical
evaluation (`Use NNUE` false), as in the matches.

usage: tools/nodes-to-depth.py ENGINE DEPTH FENFILE [VARIANT]
e.g.   tools/nodes-to-depth.py target/release/locust 12 tools/search-data/chess-middlegames.fen
       tools/nodes-to-depth.py /opt/peers/fairy-stockfish-latest 12 tools/search-data/chess-middlegames.fen"""
import re
import subprocess
import sys

INFO = re.compile(r" depth (\d+) .*? nodes (\d+)")
FIRST_SHOWN = 6


def nodes_by_depth(engine, fen, depth, variant):
    """The nodes of each completed depth (final lines with a PV, no bound) of one search."""
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    send("uci")
    if "fairy" in engine:
        send("setoption name Use NNUE value false")
    send("setoption name Hash value 16")
    if variant != "chess":
        send(f"setoption name UCI_Variant value {variant}")
    send("isready")
    while proc.stdout.readline().strip() != "readyok":
        pass
    send("ucinewgame")
    send(f"position fen {fen}")
    send(f"go depth {depth}")
    found = {}
    for line in proc.stdout:
        if line.startswith("bestmove"):
            break
        m = INFO.search(line)
        if m and " pv " in line and "bound" not in line:
            found[int(m.group(1))] = int(m.group(2))
    send("quit")
    proc.wait()
    return found


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    engine, depth, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    variant = sys.argv[4] if len(sys.argv) > 4 else "chess"
    fens = [l.strip() for l in open(path) if l.strip() and not l.startswith("#")]
    total = {}
    for fen in fens:
        found = nodes_by_depth(engine, fen, depth, variant)
        print(" ".join(f"{d}:{n}" for d, n in sorted(found.items()) if d >= FIRST_SHOWN), flush=True)
        for d, n in found.items():
            total[d] = total.get(d, 0) + n
    print("TOTAL", " ".join(f"{d}:{n}" for d, n in sorted(total.items()) if d >= FIRST_SHOWN))


if __name__ == "__main__":
    main()
