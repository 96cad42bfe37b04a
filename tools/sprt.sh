#!/usr/bin/env bash
# Self-play SPRT between two Locust binaries with cutechess-cli: decides a search or
# evaluation change by games (issue 43). Prints cutechess-cli's result and SPRT lines.
#
# usage: tools/sprt.sh NEW BASE [VARIANT]
#   NEW, BASE: engine binaries. Keep BASE outside the repository (e.g. /work/bins/base-<hash>)
#              so that rebuilding does not change it under a running test.
#   VARIANT:   cutechess-cli variant name (default standard; the book is chosen from it).
# Environment (defaults in brackets):
#   NODES [20000]  fixed nodes a move (UCI `go nodes`, cutechess `tc=inf nodes=N`): for changes
#                  that only reshape the tree; the result does not depend on machine load.
#   TC             a time control instead (e.g. 10+0.1): for changes that cost speed.
#   ELO0 [0] ELO1 [5] ALPHA [0.05] BETA [0.05]   SPRT bounds (elo1=5 is the standard; a
#                  larger elo1 decides sooner, record the bounds used).
#   ROUNDS [2000]  pairs of games at most (each opening is played with both colours).
#   BOOK           openings (EPD). Default tests/data/openings/sprt/VARIANT.epd when it exists
#                  (600 openings of 8 plies; with fixed nodes both engines are deterministic,
#                  so the 40 of tests/data/openings/VARIANT.epd give only 80 distinct games),
#                  else tests/data/openings/VARIANT.epd.
#   HASH [16]      Hash (MB) of both engines.
#   OUT [/tmp/locust-sprt]  where the PGN and the full log go.
#   CONCURRENCY [1]  games at once (2 is fine at fixed nodes: the result does not depend on
#                  load; leave 1 under a time control on a shared machine).
# Games are adjudicated to save time: a draw after move 40 when both scores stay within
# 10 cp for 8 moves each, a resignation at 700 cp against for 4 moves each.
#
# Example (a tree-shape change, standard bounds):
#   cp target/release/locust /work/bins/base-$(git rev-parse --short HEAD)   # before the change
#   ... change, cargo build --release ...
#   tools/sprt.sh target/release/locust /work/bins/base-abc1234
set -euo pipefail
cd "$(dirname "$0")/.."
new=$(realpath "$1") base=$(realpath "$2") variant=${3:-standard}
CUTECHESS=${CUTECHESS:-/opt/peers/cutechess-cli}
name=${variant/standard/chess}
book=${BOOK:-tests/data/openings/sprt/$name.epd}
[ -f "$book" ] || book=tests/data/openings/$name.epd
out=${OUT:-/tmp/locust-sprt}
mkdir -p "$out"
if [ -n "${TC:-}" ]; then limit=(tc="$TC"); else limit=(tc=inf nodes="${NODES:-20000}"); fi
stamp=$name-$(date +%m%d-%H%M%S)
echo "# new=$new base=$base variant=$variant book=$book limit=${limit[*]}" \
  "sprt elo0=${ELO0:-0} elo1=${ELO1:-5} alpha=${ALPHA:-0.05} beta=${BETA:-0.05} log=$out/$stamp.log"
"$CUTECHESS" -variant "$variant" \
  -engine cmd="$new" proto=uci name=new \
  -engine cmd="$base" proto=uci name=base \
  -each "${limit[@]}" option.Hash="${HASH:-16}" \
  -games 2 -rounds "${ROUNDS:-2000}" -repeat -recover -concurrency "${CONCURRENCY:-1}" \
  -openings file="$book" format=epd order=random \
  -draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=700 \
  -sprt elo0="${ELO0:-0}" elo1="${ELO1:-5}" alpha="${ALPHA:-0.05}" beta="${BETA:-0.05}" \
  -ratinginterval 20 -pgnout "$out/$stamp.pgn" 2>&1 | tee "$out/$stamp.log" |
  grep -E "^(Elo|SPRT|Finished match)|forfeit|illegal|disconnect|stall|crash" || true
grep "^Score of" "$out/$stamp.log" | tail -1
