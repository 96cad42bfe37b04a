#!/usr/bin/env bash
# Plays two games (one with each colour) against the newest Fairy-Stockfish in every built-in
# variant of Locust's that cutechess-cli also knows, and reports each game's ending. A check of
# rules and protocol in every variant (issue 44): no illegal move, no forfeit, no disconnect;
# not a strength test.
# usage: tools/cutechess-every-variant.sh [OUTDIR] [VARIANT...]
#   VARIANT...: only these (default: every name `locust variants` lists).
# Environment: LOCUST (binary), CUTECHESS, FSF (the peer), TC_LOCUST [20+0.2], MAXMOVES [300],
# FSF_LIMIT [tc=inf nodes=50000]: the peer plays a fixed number of nodes a move, so that it
# neither forfeits on a loaded machine (at 2s+0.02s it lost 34 of 68 games on time under a
# load of 13) nor ends every game at once; Locust keeps a real clock.
# Variants cutechess-cli does not know are listed as skipped: XBoard referees those
# (tools/xboard-match.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/locust-every-variant}
shift || true
CUTECHESS=${CUTECHESS:-/opt/peers/cutechess-cli}
LOCUST=${LOCUST:-$PWD/target/release/locust}
FSF=${FSF:-/opt/peers/fairy-stockfish-latest}
TC_LOCUST=${TC_LOCUST:-20+0.2} MAXMOVES=${MAXMOVES:-300}
read -r -a fsf_limit <<<"${FSF_LIMIT:-tc=inf nodes=50000}"
mkdir -p "$out"
if [ $# -gt 0 ]; then names=("$@"); else mapfile -t names < <("$LOCUST" variants | awk '{print $1}'); fi
bad=0 played=0
for name in "${names[@]}"; do
  # cutechess-cli calls orthodox chess `standard`; Locust knows both names.
  variant=$name
  [ "$variant" = chess ] && variant=standard
  log=$out/$name.log pgn=$out/$name.pgn
  rm -f "$pgn"
  "$CUTECHESS" -variant "$variant" \
    -engine cmd="$LOCUST" proto=uci name=Locust tc="$TC_LOCUST" \
    -engine cmd="$FSF" proto=uci name=FSF "${fsf_limit[@]}" \
    -games 2 -repeat -recover -concurrency 1 -maxmoves "$MAXMOVES" \
    -pgnout "$pgn" >"$log" 2>&1 || true
  if [ ! -s "$pgn" ]; then
    echo "$name: skipped (cutechess-cli: $(grep -m1 -iE 'variant|error|warning' "$log" || echo 'no game'))"
    continue
  fi
  played=$((played + 1))
  # cutechess-cli's own line per game: "Finished game N (A vs B): RESULT {why}".
  endings=$(grep -E "^Finished game" "$log" | sed 's/^Finished game [0-9]* //' | tr '\n' ';')
  score=$(grep -E "^Score of" "$log" | tail -1 | sed 's/^Score of //')
  echo "$name: $score | $endings"
  # A bad ending counts against Locust only when Locust is the side it names ("White makes
  # an illegal move", "Black loses on time"); the peer's own forfeits are listed as such.
  while read -r ending; do
    white=$(sed -E 's/^\(([^ ]*) vs .*/\1/' <<<"$ending")
    why=$(sed -E 's/.*\{(.*)\}.*/\1/' <<<"$ending")
    grep -qiE 'illegal|forfeit|disconnect|stall|crash|on time|no result|abort' <<<"$why" || continue
    side=Black
    [ "$white" = Locust ] && side=White
    if grep -q "^$side" <<<"$why" || ! grep -qE '^(White|Black)' <<<"$why"; then
      echo "  BAD ENDING for Locust in $name: $ending (see $pgn)"
      bad=$((bad + 1))
    else
      echo "  (the peer's fault in $name: $why)"
    fi
  done < <(grep -E "^Finished game" "$log" | sed 's/^Finished game [0-9]* //')
  if [ "$(grep -c '^Finished game' "$log")" -ne 2 ]; then
    echo "  BAD: $(grep -c '^Finished game' "$log") games finished in $name"
    bad=$((bad + 1))
  fi
done
echo "variants played: $played; with a bad ending: $bad"
