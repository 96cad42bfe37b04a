#!/bin/bash
# usage: tools/search-instructions.sh FENFILE VARIANT DEPTH BIN...
# Instruction counts of a fixed search workload (exact and load-independent, unlike time):
# every FEN of FENFILE (lines starting with # skipped) searched to DEPTH under callgrind
# (`locust search VARIANT --fen F --depth DEPTH`, one process each), summed per binary, with
# the node total. Each process's start-up (about 25 M for chess: `locust search chess
# --depth 1` under callgrind) is included.
set -eu
file=$1; variant=$2; depth=$3; shift 3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for bin in "$@"; do
    ir=0; nodes=0
    while read -r fen; do
        case "$fen" in ''|'#'*) continue ;; esac
        log=$(valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" search "$variant" --fen "$fen" --depth "$depth" 2>&1)
        i=$(echo "$log" | grep "I   refs" | awk '{print $NF}' | tr -d ,)
        n=$(echo "$log" | grep "^depth $depth " | awk '{print $9}')
        ir=$((ir + i)); nodes=$((nodes + n))
    done <"$file"
    echo "$bin: $variant depth $depth: $nodes nodes, $ir instructions, $((ir / nodes)) per node"
done
