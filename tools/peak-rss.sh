#!/usr/bin/env bash
# Peak resident memory of Locust in games that build endgame tables, against its budget
# (Hash + EGT Memory): Locust against itself from the five- and six-man starts of
# tests/data/egt-positions/chess-match.epd, each engine under /usr/bin/time -v, tables built
# during play into a fresh folder.
# usage: tools/peak-rss.sh [GAMES] [TC] [HASH_MB] [EGT_MB]   (default 4 10+0.1 64 256)
#        LOCUST=binary CUTECHESS=cutechess-cli OUT=folder
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-4} tc=${2:-10+0.1} hash=${3:-64} egt=${4:-256}
LOCUST=${LOCUST:-$PWD/target/release/locust}
CUTECHESS=${CUTECHESS:-/opt/peers/cutechess-cli}
out=${OUT:-/tmp/locust-peak-rss}
rm -rf "$out" && mkdir -p "$out/tables"
for side in A B; do
  cat >"$out/locust-$side.sh" <<EOF
#!/bin/sh
exec /usr/bin/time -v -a -o "$out/time-$side.txt" "$LOCUST" "\$@"
EOF
  chmod +x "$out/locust-$side.sh"
done
opts=(option.Hash="$hash" "option.EGT Memory=$egt" "option.EGT Path=$out/tables" option.EGT=true)
"$CUTECHESS" -variant standard \
  -engine cmd="$out/locust-A.sh" proto=uci name=Locust-A "${opts[@]}" \
  -engine cmd="$out/locust-B.sh" proto=uci name=Locust-B "${opts[@]}" \
  -each tc="$tc" -games "$games" -repeat -concurrency 1 \
  -openings file=tests/data/egt-positions/chess-match.epd format=epd order=sequential \
  -pgnout "$out/games.pgn" >"$out/cutechess.log" 2>&1
grep -E '^Finished game' "$out/cutechess.log"
peak=$(grep -h 'Maximum resident' "$out"/time-*.txt | awk '{print $NF}' | sort -n | tail -1)
echo "tables built: $(find "$out/tables" -type f | wc -l) files; peak RSS of any engine process:" \
  "$((peak / 1024)) MB; budget Hash + EGT Memory = $((hash + egt)) MB"
