#!/bin/sh
# Starts an XBoard engine with the `computer` command filtered out of its input.
# Debian's fairymax 5.0b (package fairymax 5.0b-1) dies with a segmentation fault when it
# receives `computer`, which XBoard sends to both engines of an engine-engine game; the rest
# of the protocol passes through unchanged, a line at a time.
# usage (XBoard): -scp "/path/to/locust/tools/no-computer.sh /usr/games/fairymax"
grep --line-buffered -vx computer | "$@"
