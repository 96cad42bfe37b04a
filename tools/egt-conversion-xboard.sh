#!/usr/bin/env bash
# tools/egt-conversion.sh for variants cutechess-cli lacks (xiangqi, janggi): Locust with
# endgame tables (White, first engine) against Locust with `EGT` off, one game per position
# of tests/data/egt-positions/VARIANT.epd, under XBoard in match mode (Xvfb); then the same
# verdict (tools/egt-verdict.py).
# usage: tools/egt-conversion-xboard.sh VARIANT [MINUTES] [INC] [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
variant=$1 minutes=${2:-0:10} inc=${3:-0.1} out=${4:-/tmp/locust-egt}
LOCUST=${LOCUST:-$PWD/target/release/locust}
epd=tests/data/egt-positions/$variant.epd
mkdir -p "$out"
stamp=$variant-egt-xboard-$(date +%H%M%S)
# Plain FENs; XBoard's letters for horse and elephant in xiangqi and janggi are H and E.
fens=$out/$stamp.fen
if [[ $variant == xiangqi || $variant == janggi ]]; then
  awk '{print $1, $2, $3, $4, "0 1"}' "$epd" | sed -f tools/xboard-letters.sed >"$fens"
else
  awk '{print $1, $2, $3, $4, "0 1"}' "$epd" >"$fens"
fi
n=$(grep -c . "$fens")
for i in $(seq 1 "$n"); do
  # One match of one game per position: XBoard alternates colours between a match's games.
  xvfb-run -a /usr/games/xboard -settingsFile "$out/$stamp.xboardrc" -saveSettingsFile "$out/$stamp.xboardrc" \
    -saveSettingsOnExit false -testLegality true -fcp "$LOCUST" -fd "$PWD" -fn Locust-EGT \
    -scp "$LOCUST" -sd "$PWD" -sn Locust-noEGT -secondOptions "EGT=0" \
    -variant "$variant" -lpf "$fens" -lpi "$i" -matchMode true -matchGames 1 -tc "$minutes" -inc "$inc" \
    -xponder -noGUI -autoCallFlag true -popupExitMessage false -testClaims true \
    -saveGameFile "$out/$stamp.pgn" -debug -nameOfDebugFile "$out/$stamp-$i.debug" \
    >>"$out/$stamp.log" 2>&1 || true
done
grep -iE "illegal|forfeit|error" "$out"/"$stamp"-*.debug | grep -v "^.*: *#" | head -5 || true
python3 tools/egt-verdict.py "$epd" "$out/$stamp.pgn"
