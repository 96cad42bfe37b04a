#!/usr/bin/env python3
"""How long Locust takes from `stop` to `bestmove`, seen as a GUI sees it (over UCI pipes).

usage: tools/stop-latency.py [LOCUST] [TRIALS]   (default target/release/locust, 20 trials)

For each variant, each trial starts `go infinite` from the start position, lets it run a
varying while (100-700 ms, so the stop lands at different points of the tree), sends `stop`
and times the reply. Prints the median and the worst per variant, in milliseconds. The suite
only checks that a stop is obeyed (tests/search.rs); this figure goes to docs/PERFORMANCE.md.
"""
import statistics
import subprocess
import sys
import time

VARIANTS = ["chess", "xiangqi", "shogi", "chu", "tenjiku"]


def wait_for(proc, prefix):
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit(f"engine closed its output while waiting for {prefix!r}")
        if line.startswith(prefix):
            return line


def trial(proc, variant, run_ms):
    send(proc, f"setoption name UCI_Variant value {variant}")
    send(proc, "ucinewgame")
    send(proc, "position startpos")
    send(proc, "isready")
    wait_for(proc, "readyok")
    send(proc, "go infinite")
    time.sleep(run_ms / 1000)
    start = time.perf_counter()
    send(proc, "stop")
    wait_for(proc, "bestmove")
    return (time.perf_counter() - start) * 1000


def send(proc, text):
    proc.stdin.write(text + "\n")
    proc.stdin.flush()


def main():
    engine = sys.argv[1] if len(sys.argv) > 1 else "target/release/locust"
    trials = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    send(proc, "uci")
    wait_for(proc, "uciok")
    for variant in VARIANTS:
        waits = [trial(proc, variant, 100 + 600 * i // max(trials - 1, 1)) for i in range(trials)]
        print(f"{variant:8} stop->bestmove over {trials}: median {statistics.median(waits):.1f} ms, "
              f"worst {max(waits):.1f} ms")
    send(proc, "quit")
    proc.wait()


if __name__ == "__main__":
    main()
