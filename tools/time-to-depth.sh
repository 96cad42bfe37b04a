#!/bin/bash
# usage: tools/time-to-depth.sh FENFILE VARIANT DEPTH BIN...
# Searches every FEN of FENFILE (lines starting with # skipped) to DEPTH with each binary
# (`locust search VARIANT --fen F --depth DEPTH`, one thread) and prints the total nodes and
# the total CPU time (perf stat's task-clock, which a loaded machine disturbs less than
# the wall clock). Node counts at a fixed depth are exact and repeatable; the times are not.
set -eu
file=$1; variant=$2; depth=$3; shift 3
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for bin in "$@"; do
    nodes=0; ms=0; count=0
    while read -r fen; do
        case "$fen" in ''|'#'*) continue ;; esac
        t=$( { perf stat -x, -e task-clock "$bin" search "$variant" --fen "$fen" --depth "$depth" >"$tmp"; } 2>&1 | grep task-clock | cut -d, -f1)
        n=$(grep "^depth $depth " "$tmp" | awk '{print $9}')
        nodes=$((nodes + n)); ms=$(awk -v a="$ms" -v b="$t" 'BEGIN { printf "%.0f", a + b }'); count=$((count + 1))
    done <"$file"
    echo "$bin: $variant, $count positions, depth $depth: $nodes nodes, $ms ms CPU"
done
