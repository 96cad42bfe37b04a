#!/usr/bin/env bash
# Writes tests/data/egt-positions/VARIANT.epd: won positions (White to move, at least half
# the longest win deep) and drawn positions (White the weaker side) taken from Locust's own
# tables, for tools/egt-conversion.sh. Each line: the FEN's first four fields, then
# `c0 "MATERIAL win in N"` or `c0 "MATERIAL draw"`.
set -euo pipefail
cd "$(dirname "$0")/.."
LOCUST=${LOCUST:-$PWD/target/release/locust}
out=tests/data/egt-positions
mkdir -p "$out"
emit() { # variant material wins draws
  "$LOCUST" egt build "$1" "$2" --no-cache --examples "$3" --draw-examples "$4" 2>/dev/null |
    awk -v m="$2" -F' ; ' '/ ; [0-9]+$/ {
      split($1, f, " "); fen = f[1] " " f[2] " " f[3] " " f[4];
      if ($2 == 0) print fen " c0 \"" m " draw\";"; else print fen " c0 \"" m " win in " $2 "\";" }'
}
{ emit chess KBNvK 4 0; emit chess KQvKR 4 0; emit chess KRvKB 4 0; emit chess KBvKR 0 4; emit chess KNvKR 0 3; } > "$out/chess.epd"
{ emit capablanca KAvK 3 0; emit capablanca KCvK 3 0; emit capablanca KAvKR 0 3; } > "$out/capablanca.epd"
{ emit xiangqi KNvKA 3 0; emit xiangqi KRvKN 3 0; emit xiangqi KNvKR 0 3; } > "$out/xiangqi.epd"
{ emit shatranj KRvKQ 3 0; } > "$out/shatranj.epd"
wc -l "$out"/*.epd
