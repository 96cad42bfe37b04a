#!/usr/bin/env bash
# The fast-clock check: many short games in which Locust must never lose on time, play an
# illegal move or drop its connection. Prints each set's score and its count of bad endings.
# usage: tools/fast-clock.sh [OUTDIR]      (LOCUST=binary, CUTECHESS=cutechess-cli)
#   - cutechess-cli at 1s+0.01s, no time margin: chess and capablanca against Fairy-Max,
#     self-play in crazyhouse and shogi (drops): 500 games;
#   - XBoard under Xvfb at 0:01+0.01: xiangqi against MaxQi (cutechess-cli has no xiangqi);
#   - cutechess-cli at a tenth of a second a move (`st=0.1`, UCI `go movetime`, XBoard `st`):
#     chess against Fairy-Max and capablanca self-play over XBoard: 100 games.
# Engines run at nice -15 below this shell's priority where allowed, so that a busy machine's
# other jobs do not starve the clocks. Takes about 45 minutes on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/locust-fast-clock}
LOCUST=${LOCUST:-$PWD/target/release/locust}
CUTECHESS=${CUTECHESS:-/opt/peers/cutechess-cli}
mkdir -p "$out"
nice_cmd=(nice -n -15)
"${nice_cmd[@]}" true 2>/dev/null || nice_cmd=()

# set NAME VARIANT GAMES EACH PEER...: one cutechess-cli set, openings from tests/data/openings.
cc_set() {
  local name=$1 variant=$2 games=$3 each=$4; shift 4
  local book=tests/data/openings/$variant.pgn
  [ -f "$book" ] || book=tests/data/openings/chess.pgn   # crazyhouse: chess's first moves
  "${nice_cmd[@]}" "$CUTECHESS" -variant "${variant/#chess/standard}" \
    -engine cmd="$LOCUST" proto=uci name=Locust option.EGT=true \
    -engine "$@" \
    -each $each -games "$games" -repeat -recover -concurrency 1 \
    -openings file="$book" format=pgn order=random \
    -pgnout "$out/$name.pgn" >"$out/$name.log" 2>&1
  report "$name" "$out/$name.log"
}

# report NAME LOG: the score line and every ending that is not a game's own result.
report() {
  local games bad
  games=$(grep -c '^Finished game' "$2")
  bad=$(grep '^Finished game' "$2" | grep -ciE 'forfeit|illegal|disconnect|stall|on time|crash|terminat')
  echo "$1: $games games, $bad bad endings; $(grep -E '^Score of' "$2" | tail -1)"
  grep '^Finished game' "$2" | grep -iE 'forfeit|illegal|disconnect|stall|on time|crash|terminat' | sed 's/^/  /'
}

fm=(cmd=/usr/games/fairymax proto=xboard name=Fairy-Max)
self_uci=(cmd="$LOCUST" proto=uci name=Locust-B)
self_xb=(cmd="$LOCUST" proto=xboard name=Locust-XB)
cc_set chess-fairymax chess 150 "tc=1+0.01" "${fm[@]}"
cc_set capablanca-fairymax capablanca 150 "tc=1+0.01" "${fm[@]}"
cc_set crazyhouse-self crazyhouse 100 "tc=1+0.01" "${self_uci[@]}"
cc_set shogi-self shogi 100 "tc=1+0.01" "${self_xb[@]}"
LOCUST=$LOCUST "${nice_cmd[@]}" tools/xboard-match.sh xiangqi maxqi 50 0:01 0.01 "$out" \
  | sed 's/^/xiangqi-maxqi (XBoard): /'
pgn=$(ls -t "$out"/xiangqi-maxqi-*.pgn | head -1)
echo "xiangqi-maxqi (XBoard): $(grep -cE '^\[Result "(1-0|0-1|1/2-1/2)"' "$pgn") games with a result," \
  "$(grep -ciE '\{[^}]*(on time|flag|forfeit|illegal|disconnect|exit|crash)' "$pgn") bad endings"
grep -iE '\{[^}]*(on time|flag|forfeit|illegal|disconnect|exit|crash)' "$pgn" | sed 's/^/  /'
cc_set chess-fairymax-st chess 50 "st=0.1" "${fm[@]}"
cc_set capablanca-self-st capablanca 50 "st=0.1" "${self_xb[@]}"
