#!/usr/bin/env python3
"""Search speed beside Fairy-Stockfish, in one window: time to depth and nodes per second
from the start position of each variant, both engines over UCI with one thread and 64 MB,
then Locust's time to depth on 1 and 2 threads (Lazy SMP).

usage: tools/search-vs-fsf.py [VARIANT:DEPTH ...]
env:   LOCUST (default target/release/locust), FSF (default /opt/peers/fairy-stockfish-latest)
Prints a Markdown table for docs/PERFORMANCE.md."""
import os
import re
import subprocess
import sys

LOCUST = os.environ.get("LOCUST", "target/release/locust")
FSF = os.environ.get("FSF", "/opt/peers/fairy-stockfish-latest")
CASES = sys.argv[1:] or [
    "chess:9", "capablanca:8", "shatranj:9", "xiangqi:8", "shogi:7",
    "grand:7", "janggi:7", "makruk:9", "crazyhouse:7", "atomic:8",
]
INFO = re.compile(r"info depth (\d+) .*?nodes (\d+) .*?time (\d+)")


def time_to_depth(engine, variant, depth, threads=1):
    """Runs `go depth` and returns (time ms, nodes) of the last completed depth line."""
    script = (
        f"uci\nsetoption name Threads value {threads}\nsetoption name Hash value 64\n"
        f"setoption name UCI_Variant value {variant}\nisready\nucinewgame\n"
        f"position startpos\ngo depth {depth}\n"
    )
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write(script)
    proc.stdin.flush()
    last = None
    for line in proc.stdout:
        m = INFO.search(line)
        if m and "upperbound" not in line and "lowerbound" not in line:
            last = m
        if line.startswith("bestmove"):
            break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait(timeout=10)
    if last is None:
        return None
    return int(last.group(3)), int(last.group(2)), int(last.group(1))


def fmt(r):
    if r is None:
        return "-"
    ms, nodes, depth = r
    return f"{ms} ms, {nodes:,} nodes, {nodes * 1000 // max(ms, 1):,} n/s (d{depth})"


print("| variant | depth | Locust 1 thread | Fairy-Stockfish 1 thread | Locust 2 threads |")
print("|---|---|---|---|---|")
for case in CASES:
    variant, depth = case.split(":")
    ours = time_to_depth(LOCUST, variant, depth)
    theirs = time_to_depth(FSF, variant, depth)
    smp = time_to_depth(LOCUST, variant, depth, threads=2)
    print(f"| {variant} | {depth} | {fmt(ours)} | {fmt(theirs)} | {fmt(smp)} |", flush=True)
