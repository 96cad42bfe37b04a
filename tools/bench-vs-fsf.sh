#!/usr/bin/env bash
# Perft speed of Locust and Fairy-Stockfish side by side, interleaved A B A B (the machine's
# speed drifts, so only ratios measured in one window mean anything). Bulk-counted leaves/s.
# Usage: [CASES="chess:6 grand:4"] tools/bench-vs-fsf.sh [rounds]   (needs /usr/games/fairy-stockfish, or FSF=path, and a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
fsf=${FSF:-/usr/games/fairy-stockfish}
locust=${LOCUST:-target/release/locust}
cases=${CASES:-"chess:6 capablanca:5 xiangqi:5 shogi:5 grand:4 janggi:5"}
now() { date +%s.%N; }
run_fsf() {
  local v=$1 d=$2 t0 t1 n
  t0=$(now)
  n=$(printf 'uci\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\n' "$v" "$d" \
      | "$fsf" 2>/dev/null | awk '/Nodes searched/ {print $3}')
  t1=$(now)
  echo "$n $(echo "$t1 - $t0" | bc)"
}
run_locust() {
  local v=$1 d=$2 t0 t1 n
  t0=$(now)
  n=$("$locust" perft "$v" "$d" | awk '/Nodes searched/ {print $3}')
  t1=$(now)
  echo "$n $(echo "$t1 - $t0" | bc)"
}
printf '%-11s %5s %12s %9s %9s %7s\n' variant round nodes fsf_s locust_s ratio
for c in $cases; do
  v=${c%%:*}; d=${c##*:}
  for r in $(seq 1 "$rounds"); do
    read -r nf tf < <(run_fsf "$v" "$d")
    read -r nl tl < <(run_locust "$v" "$d")
    [ "$nf" = "$nl" ] || echo "MISMATCH $v $d: fsf $nf locust $nl"
    printf '%-11s %5s %12s %9.2f %9.2f %7.2f\n' "$v" "$r" "$nl" "$tf" "$tl" "$(echo "$tf / $tl" | bc -l)"
  done
done
