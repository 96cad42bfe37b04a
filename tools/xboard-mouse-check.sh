#!/bin/bash
# Drives a real XBoard window with the mouse (Xvfb + xdotool) to check what a human sees of
# Locust's `highlight` answers: a chu lion's igui and double capture, made by dragging.
#
# usage: tools/xboard-mouse-check.sh [LOCUST_BINARY]   (default: target/release/locust)
# needs: /usr/games/xboard (4.9.1), Xvfb, xdotool, ImageMagick's `import` (for screenshots)
#
# For each case the script sets up a position (`-loadPositionFile`), presses the mouse on
# the lion, drops it on the cyan square (the victim), then on the second leg's square, and
# checks XBoard's debug log for the `lift`/`highlight`/`put` exchange and the multi-leg move
# it sends. Screenshots go to $OUT (default /tmp/locust-mouse). Exit status 1 on a mismatch.
#
# The square geometry below is XBoard 4.9.1's with `-size 49` on a 1400x1100 screen: the
# board's top-left corner at (2, 89) and squares 34.1 pixels wide (measured on a
# screenshot); another XBoard or size needs them measured again.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$ROOT/target/release/locust}
OUT=${OUT:-/tmp/locust-mouse}
mkdir -p "$OUT"
DISPLAY_NUM=:97
ORIGIN_X=2.3
ORIGIN_Y=88.6
SQUARE=34.1
RANKS=12

Xvfb $DISPLAY_NUM -screen 0 1400x1100x24 >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null' EXIT
export DISPLAY=$DISPLAY_NUM
sleep 2

# Pixel centre of a square given as file index (a = 0) and rank (1 = bottom).
px() { python3 -c "print(int($ORIGIN_X + ($1 + 0.5) * $SQUARE), int($ORIGIN_Y + ($RANKS + 0.5 - $2) * $SQUARE))"; }

# drag FROM_FILE FROM_RANK TO_FILE TO_RANK
drag() {
    xdotool mousemove $(px "$1" "$2") mousedown 1
    sleep 0.5
    xdotool mousemove $(px "$3" "$4")
    sleep 0.3
    xdotool mouseup 1
    sleep 1
}

status=0
# case NAME FEN SECOND_FILE SECOND_RANK EXPECTED_MOVE: the lion on f6 takes the pawn on f7,
# then goes to the second square.
run_case() {
    local name=$1 fen=$2 file=$3 rank=$4 expect=$5
    echo "$fen" >"$OUT/$name.fen"
    /usr/games/xboard -fcp "$BIN" -variant chu -debug -nameOfDebugFile "$OUT/$name.debug" \
        -size 49 -popupExitMessage false -loadPositionFile "$OUT/$name.fen" >/dev/null 2>&1 &
    local xb=$!
    sleep 5
    drag 5 6 5 7
    import -window root "$OUT/$name-first-leg.png" 2>/dev/null
    drag 5 7 "$file" "$rank"
    sleep 2
    import -window root "$OUT/$name-done.png" 2>/dev/null
    kill $xb 2>/dev/null
    wait $xb 2>/dev/null
    grep -E ">first : (lift|put|usermove)|<first : (highlight|move|Illegal|Error)" "$OUT/$name.debug" |
        sed "s/^/$name: /"
    if grep -q ">first : $expect\$" "$OUT/$name.debug"; then
        echo "$name: ok, XBoard sent $expect"
    else
        echo "$name: MISMATCH, expected XBoard to send $expect"
        status=1
    fi
}

FEN="5k6/12/12/12/12/5pg5/5N6/12/12/12/12/5K6 w - - 0 1"
run_case igui "$FEN" 5 6 "f6f7,f7f6"
run_case double "$FEN" 6 7 "f6f7,f7g7"
exit $status
