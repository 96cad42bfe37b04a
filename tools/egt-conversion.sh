#!/usr/bin/env bash
# Plays Locust (endgame tables on) as White from every position of
# tests/data/egt-positions/VARIANT.epd against a defender, once each, under cutechess-cli,
# and checks: every "win in N" position is won within N moves, every "draw" is not lost.
# usage: tools/egt-conversion.sh VARIANT [DEFENDER] [TC] [OUTDIR]
# (cutechess-cli has no xiangqi; xiangqi's conversions are checked by tests/egt_play.rs)
#   DEFENDER: locust (Locust with EGT off, default) | fsf-latest | fsf
set -euo pipefail
cd "$(dirname "$0")/.."
variant=$1 defender=${2:-locust} tc=${3:-10+0.1} out=${4:-/tmp/locust-egt}
CUTECHESS=${CUTECHESS:-/opt/peers/cutechess-cli}
LOCUST=${LOCUST:-$PWD/target/release/locust}
epd=tests/data/egt-positions/$variant.epd
mkdir -p "$out"
case $defender in
  locust)     def=(cmd="$LOCUST" proto=uci name=Locust-noEGT option.EGT=false) ;;
  fsf-latest) def=(cmd=/opt/peers/fairy-stockfish-latest proto=uci name=FSF-latest) ;;
  fsf)        def=(cmd=/usr/games/fairy-stockfish proto=uci name=FSF-11.1) ;;
  *) echo "unknown defender $defender" >&2; exit 2 ;;
esac
n=$(wc -l < "$epd")
stamp=$variant-egt-$defender-$(date +%H%M%S)
cc_variant=${variant/#chess/standard}   # cutechess-cli's name for orthodox chess
"$CUTECHESS" -variant "$cc_variant" \
  -engine cmd="$LOCUST" proto=uci name=Locust-EGT \
  -engine "${def[@]}" \
  -each tc="$tc" -games "$n" -noswap -recover -concurrency 1 \
  -openings file="$epd" format=epd order=sequential \
  -pgnout "$out/$stamp.pgn" > "$out/$stamp.log" 2>&1 || true
grep -E "^Score|forfeit|illegal|disconnect|stall" "$out/$stamp.log" || true
python3 tools/egt-verdict.py "$epd" "$out/$stamp.pgn"
