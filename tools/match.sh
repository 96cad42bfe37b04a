#!/usr/bin/env bash
# Runs a match of Locust against a peer and prints cutechess-cli's result lines.
# usage: tools/match.sh VARIANT PEER GAMES [TC] [OUTDIR]
# (tools/ini-match.py does the same for any two entries of engines.ini.)
#   PEER: fairymax | maxqi | fsf (Debian 11.1) | fsf-latest | locust (a second Locust)
#   TC:   cutechess time control (default 10+0.1)
# Environment: PEER_TC gives the peer its own time control (time odds, issue 43: Locust at TC,
# the peer at PEER_TC); CONCURRENCY [1]; LOCUST, CUTECHESS. The newest FSF plays with its
# classical evaluation (`Use NNUE=false`), as every recorded match against it.
# Variants cutechess-cli lacks (xiangqi, janggi, the large shogis) run under XBoard in match
# mode under Xvfb instead (tools/xboard-match.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
variant=$1 peer=$2 games=$3 tc=${4:-10+0.1} out=${5:-/tmp/locust-matches}
CUTECHESS=${CUTECHESS:-/opt/peers/cutechess-cli}
LOCUST=${LOCUST:-$PWD/target/release/locust}
mkdir -p "$out"
case $peer in
  fairymax)   peer_args=(cmd=/usr/games/fairymax proto=xboard name=Fairy-Max) ;;
  maxqi)      peer_args=(cmd=/usr/games/maxqi proto=xboard name=MaxQi) ;;
  fsf)        peer_args=(cmd=/usr/games/fairy-stockfish proto=uci name=FSF-11.1) ;;
  fsf-latest) peer_args=(cmd=/opt/peers/fairy-stockfish-latest proto=uci name=FSF-latest "option.Use NNUE=false") ;;
  locust)     peer_args=(cmd="$LOCUST" proto=uci name=Locust-B) ;;
  *) echo "unknown peer $peer" >&2; exit 2 ;;
esac
book=tests/data/openings/${variant/standard/chess}.pgn   # moves from the start: Fairy-Max has no setboard
format=pgn
# cutechess-cli reads shogi moves only in its own notation, not the book's FSF SAN (R-48): the
# shogi family plays from the FENs, written in cutechess-cli's shogi dialect (tools/make-openings.py).
case $variant in shogi|minishogi) book=tests/data/openings/$variant.epd format=epd ;; esac
peer_tc=${PEER_TC:-$tc}
stamp=$variant-$peer-$(date +%H%M%S)
"$CUTECHESS" -variant "$variant" \
  -engine cmd="$LOCUST" proto=uci name=Locust tc="$tc" \
  -engine "${peer_args[@]}" tc="$peer_tc" \
  -games "$games" -repeat -recover -concurrency "${CONCURRENCY:-1}" \
  -openings file="$book" format=$format order=random \
  -pgnout "$out/$stamp.pgn" 2>&1 | tee "$out/$stamp.log" | grep -E "^(Score|Elo|Finished|.*(forfeit|illegal|disconnect|stall))" || true
