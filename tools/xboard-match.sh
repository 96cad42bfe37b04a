#!/usr/bin/env bash
# Runs a match under XBoard in match mode (headless, Xvfb) for variants cutechess-cli lacks
# (xiangqi, janggi, chu, tenjiku, engine-defined ones) and prints the score from the PGN.
# usage: tools/xboard-match.sh VARIANT PEER GAMES [MINUTES] [INC] [OUTDIR]
# (tools/ini-match.py does the same for any two entries of engines.ini.)
#   PEER: maxqi | fairymax | hachu | fsf (Debian 11.1) | fsf-latest | locust
# Environment: PEER_TIME_ODDS=N gives the peer a Nth of Locust's clock (XBoard's
# -secondTimeOdds: time odds, issue 43). The newest FSF plays with its classical evaluation,
# as under cutechess-cli (tools/match.sh).
# TESTLEGALITY=false lets XBoard relay moves it cannot judge (4.9.1 has no walls, so duck
# and amazons moves are forfeited as invalid under its legality test); default true.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=$1 peer=$2 games=$3 minutes=${4:-0:10} inc=${5:-0.1} out=${6:-/tmp/locust-matches}
LOCUST=${LOCUST:-$PWD/target/release/locust}
mkdir -p "$out"
case $peer in
  maxqi)    scp=/usr/games/maxqi ;;
  fairymax) scp="$PWD/tools/no-computer.sh /usr/games/fairymax" ;;  # Debian's crashes on `computer`
  hachu)    scp=/usr/games/hachu ;;
  fsf)      scp=/usr/games/fairy-stockfish ;;               # Debian's 11.1
  fsf-latest) scp=/opt/peers/fairy-stockfish-latest ;;
  locust)   scp="$LOCUST" ;;
  *) echo "unknown peer $peer" >&2; exit 2 ;;
esac
peer_args=()
[[ $peer == fsf-latest ]] && peer_args+=(-secondOptions "Use NNUE=0")
[[ -n ${PEER_TIME_ODDS:-} ]] && peer_args+=(-secondTimeOdds "$PEER_TIME_ODDS")
stamp=$variant-$peer-$(date +%H%M%S)
# Openings, each played twice with colours reversed, in file order: the positions of
# tests/data/openings/VARIANT.epd, or, against engines without setboard (MaxQi, Fairy-Max:
# XBoard would set the position up by `edit`, which they misread in xiangqi), the same
# openings as moves in XBoard's coordinates (VARIANT-xboard.pgn, from tools/xboard-openings.py).
# OPENINGS=file overrides (.pgn: moves, else positions); OPENINGS= (empty) starts every game
# from the initial position.
case $peer in
  maxqi|fairymax) default_book=tests/data/openings/$variant-xboard.pgn ;;
  *)              default_book=tests/data/openings/$variant.epd ;;
esac
book=${OPENINGS-$default_book}
opening_args=()
if [[ -n $book && -f $book && $book == *.pgn ]]; then
  opening_args=(-lgf "$book" -lgi -2 -rewindIndex "$(grep -c '^\[Variant' "$book")")
elif [[ -n $book && -f $book ]]; then
  if [[ $variant == xiangqi || $variant == janggi ]]; then
    # XBoard's letters for horse and elephant there are H and E (the engine's N and B).
    sed -f tools/xboard-letters.sed "$book" >"$out/$stamp.epd"
    book=$out/$stamp.epd
  fi
  opening_args=(-lpf "$book" -lpi -2 -rewindIndex "$(grep -c . "$book")")
fi
# A private settings file: ~/.xboardrc is neither read nor rewritten by the match.
xvfb-run -a /usr/games/xboard -settingsFile "$out/$stamp.xboardrc" -saveSettingsFile "$out/$stamp.xboardrc" \
  -saveSettingsOnExit false -testLegality "${TESTLEGALITY:-true}" -fcp "$LOCUST" -fd "$PWD" -scp "$scp" -sd "$PWD" "${peer_args[@]}" \
  -variant "$variant" "${opening_args[@]}" -matchMode true -matchGames "$games" -tc "$minutes" -inc "$inc" \
  -xponder -noGUI -autoCallFlag true -popupExitMessage false -testClaims true \
  -saveGameFile "$out/$stamp.pgn" -debug -nameOfDebugFile "$out/$stamp.debug" \
  >"$out/$stamp.log" 2>&1 || true
python3 - "$out/$stamp.pgn" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
w = l = d = 0
for white, black, result in re.findall(r'\[White "([^"]*)"\]\s*\[Black "([^"]*)"\]\s*\[Result "([^"]*)"\]', text):
    us_white = white.startswith("Locust")
    if result == "1/2-1/2":
        d += 1
    elif (result == "1-0") == us_white:
        w += 1
    elif result in ("1-0", "0-1"):
        l += 1
n = w + l + d
print(f"Locust: +{w} -{l} ={d} of {n} games, score {(w + d / 2) / max(n, 1):.3f}")
PY
grep -iE "illegal move|error" "$out/$stamp.debug" | head -5 || true
echo "pgn: $out/$stamp.pgn"
