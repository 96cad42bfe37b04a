#!/usr/bin/env python3
"""Perft counts and game results from Fairy-Stockfish (pyffish) for the variants of its goal
rules that Locust plays (check counting, capture the flag, extinction, the losing games),
written to
tests/data/perft/fsf_rules.txt.

For each variant: the start position, then positions from seeded random playouts in which
moves towards the goal (checks; moves of the flag piece) are preferred half of the time, so
that playouts reach the goal. Kept: positions along the way, the last position before the
game ended and the final position. Counts are pyffish recursion over sf.legal_moves (FSF's
legal generator returns no move once the game has ended, so ended games count 0). Each
final position, and every position where pyffish's is_immediate_game_end says so, gets a
`result` line with pyffish's game_result from the side to move (win, loss or draw).

Usage: tools/fsf-rules-data.py [--seed N] > tests/data/perft/fsf_rules.txt
"""
import argparse
import random
import sys

import pyffish as sf

VARIANTS = ["3check", "5check", "kingofthehill", "racingkings"]
# Games without royals and the losing games (extinction, obligatory capture), appended so
# that the rows of the variants above keep their seeded playouts.
EXTINCTION_VARIANTS = ["extinction", "kinglet", "threekings", "giveaway", "antichess",
                       "suicide", "losers", "codrus", "horde"]
VARIANTS += EXTINCTION_VARIANTS
# Positions set up by hand at the rules' edges, counted and judged like the others.
SPECIAL = {
    # A check counter at 0 for the side to move ends nothing (FSF reads only the mover's);
    # lichess's counters (checks given, of three); the next check wins.
    "3check": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0+3 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+0 0 1",
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 +2+1",
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+1 0 3",
    ],
    "5check": ["r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 1+5 2 3"],
    # The king on the hill; one step from it.
    "kingofthehill": [
        "8/8/8/3K4/8/8/8/k7 b - - 0 1",
        "8/8/8/8/2K5/8/8/k7 w - - 0 1",
        "rnbq1bnr/pppp1ppp/8/4p3/4k3/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
    ],
    # White's king on the 8th rank with Black to move: Black can follow (plays on, then a
    # draw), cannot (loses at once); Black's king got there first; both got there.
    "racingkings": [
        "K7/7k/8/8/8/8/8/8 b - - 0 1",
        "K7/7k/8/4B3/8/8/8/6R1 b - - 0 1",
        "k7/8/7K/8/8/8/8/8 w - - 0 1",
        "K5k1/8/8/8/8/8/8/8 w - - 0 2",
        "8/K6k/8/8/8/8/8/8 w - - 0 1",
        "8/1K5k/8/8/8/8/r7/8 w - - 0 1",
    ],
    # A type gone (White's queen; Black's last knight just taken); one capture from it.
    "extinction": [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
        "r1bqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1",
    ],
    # White's last pawn gone; a capture of Black's last pawn available.
    "kinglet": [
        "4k3/p7/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/1p6/P7/4K3 w - - 0 1",
    ],
    # White down to two kings; a king capture available.
    "threekings": [
        "knbqkbnk/pppppppp/8/8/8/8/PPPPPPPP/KNBQ1BNK w - - 0 1",
        "k6k/8/8/8/8/8/8/K3k2K w - - 0 1",
    ],
    # White has no men; White is stalemated; a capture forced.
    "giveaway": [
        "8/8/8/8/8/8/8/k7 w - - 0 1",
        "8/8/8/8/p7/P7/8/7k w - - 0 1",
        "8/8/8/8/3p4/8/8/2B4k w - - 0 1",
    ],
    "antichess": [
        "8/8/8/8/p7/P7/8/7k w - - 0 1",
        "8/8/8/8/8/8/8/k7 b - - 0 1",
    ],
    # Stalemates with fewer, more and as many men as the other side.
    "suicide": [
        "8/8/8/8/p7/P7/8/7k w - - 0 1",
        "8/8/8/8/p7/P7/7P/7k b - - 0 1",
        "8/8/8/8/p7/P7/8/8 w - - 0 1",
    ],
    # Both kings bare (the mover's judged first); White checkmated; a capture forced.
    "losers": [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/5PPP/3r2K1 w - - 0 1",
        "4k3/8/8/8/8/8/3p4/2B1K3 w - - 0 1",
    ],
    # White's last man about to go; a first-rank double step beside a black pawn (no e.p.).
    "horde": [
        "4k3/8/8/8/8/8/3q4/4P3 b - - 0 1",
        "4k3/8/8/8/8/1p6/8/P7 w - - 0 1",
    ],
    # White's king gone; a capture of the king available.
    "codrus": [
        "4k3/8/8/8/8/8/P7/8 w - - 0 1",
        "8/8/8/8/8/8/3k4/2B1K3 w - - 0 1",
    ],
}
# Plies of a playout at most, and playouts per variant.
MAX_PLIES = 160
PLAYOUTS = 6
# Positions kept from the middle of each playout (besides its last two).
MIDDLE_KEPT = 1
DEPTH = 3
# Counts above this are recounted at depth 2 instead (pyffish recursion is slow).
MAX_COUNT = 60000
# The later variants: fewer playouts, and depth 3 only below this depth-2 count (their
# depth-3 counts from the start and from playouts are in fsf_builtin.txt, by FSF's perft).
OWN_PLAYOUTS = 4
OWN_DEPTH3_BELOW = 600


def perft(variant, fen, depth):
    if depth == 0:
        return 1
    moves = sf.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    return sum(perft(variant, sf.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def occupied(fen):
    """The occupied squares of a FEN's board (8x8)."""
    squares = set()
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                squares.add("abcdefgh"[f] + str(8 - i))
                f += 1
    return squares


def goal_moves(variant, fen, moves):
    """Moves that head for the goal: checks in check counting, captures in the extinction
    and losing games, else moves of the king."""
    if variant in EXTINCTION_VARIANTS:
        taken = occupied(fen)
        return [m for m in moves if m[2:4] in taken]
    if "check" in variant:
        return [m for m in moves if sf.gives_check(variant, fen, [m])]
    board = fen.split()[0]
    king = "K" if fen.split()[1] == "w" else "k"
    squares = []
    rank = 8
    for row in board.split("/"):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                if ch == king:
                    squares.append("abcdefgh"[f] + str(rank))
                f += 1
        rank -= 1
    return [m for m in moves if m[:2] in squares]


def playout(variant, rng):
    fen = sf.start_fen(variant)
    seen = [fen]
    for _ in range(MAX_PLIES):
        moves = sf.legal_moves(variant, fen, [])
        if not moves:
            break
        goal = goal_moves(variant, fen, moves) if rng.random() < 0.5 else []
        m = rng.choice(goal or moves)
        fen = sf.get_fen(variant, fen, [m])
        seen.append(fen)
    return seen


def result_word(variant, fen):
    value = sf.game_result(variant, fen, [])
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=44)
    ap.add_argument("--only", help="comma-separated variants of EXTINCTION_VARIANTS: print "
                    "only their sections (equal to those of a full run)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.only:
        for variant in args.only.split(","):
            section(variant, random.Random("%d:%s" % (args.seed, variant)))
        return
    print("# Perft and game results of Fairy-Stockfish's goal-rule variants (check counting, capture")
    print(f"# the flag), by pyffish {'.'.join(map(str, sf.version()))} (recursion over sf.legal_moves; an ended game has no")
    print(f"# legal move). Generated by tools/fsf-rules-data.py --seed {args.seed}; do not edit by hand.")
    print("# Formats: `perft VARIANT DEPTH COUNT FEN` and `result VARIANT win|loss|draw FEN` (the game is")
    print("# over; the result is the side to move's, pyffish's game_result).")
    for variant in VARIANTS:
        # The later variants have playouts of their own, so that `--only` reproduces them.
        own = variant in EXTINCTION_VARIANTS
        section(variant, random.Random("%d:%s" % (args.seed, variant)) if own else rng)


def section(variant, rng):
    """Prints one variant's rows."""
    print(f"\n# {variant}")
    kept = [sf.start_fen(variant)] + SPECIAL.get(variant, [])
    ended = []
    own = variant in EXTINCTION_VARIANTS
    for _ in range(OWN_PLAYOUTS if own else PLAYOUTS):
        seen = playout(variant, rng)
        middle = seen[1:-2]
        kept += rng.sample(middle, min(MIDDLE_KEPT, len(middle)))
        kept += seen[-2:]
        for fen in seen:
            over, _ = sf.is_immediate_game_end(variant, fen, [])
            if over or not sf.legal_moves(variant, fen, []):
                ended.append(fen)
    for fen in SPECIAL.get(variant, []):
        over, _ = sf.is_immediate_game_end(variant, fen, [])
        if over or not sf.legal_moves(variant, fen, []):
            ended.append(fen)
    for fen in dict.fromkeys(kept):
        depth = DEPTH
        if own and perft(variant, fen, 2) >= OWN_DEPTH3_BELOW:
            depth = 2
        count = perft(variant, fen, depth)
        if count > MAX_COUNT:
            depth = 2
            count = perft(variant, fen, depth)
        print(f"perft {variant} {depth} {count} {fen}")
    for fen in dict.fromkeys(ended):
        print(f"result {variant} {result_word(variant, fen)} {fen}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
