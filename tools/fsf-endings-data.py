#!/usr/bin/env python3
"""Game endings by Fairy-Stockfish's claimable rules (repetition with nFoldValue and
nFoldValueAbsolute, perpetual check, counting rules, material counting), judged by pyffish,
written to tests/data/perft/fsf_endings.txt and checked by tests/fsf_endings.rs.

Each case is a FEN and a move sequence played from it. The tool writes two rows per case:
the sequence without its last move (pyffish: the game goes on) and the whole sequence
(pyffish's is_optional_game_end, or game_result where no move is left: the result for the
side to move). Sequences come from a shuffle finder (two men stepping out and back until the
position recurs the variant's nFoldRule times) or are given by hand.

Test sections are Locust's own (written here, not copied from FSF); they are printed into the
data file as `ini` lines, so that the test loads exactly what pyffish loaded.

Usage: tools/fsf-endings-data.py > tests/data/perft/fsf_endings.txt
"""
import os
import random
import sys

import pyffish as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fsfdata import verdict  # noqa: E402

# Test sections: a name, its INI text.
SECTIONS = [
    "[fold-loss:chess]\nnFoldValue = loss",
    "[fold-win:chess]\nnFoldValue = win",
    "[fold-absolute:chess]\nnFoldValue = loss\nnFoldValueAbsolute = true",
    "[fold-perpetual:chess]\nnFoldValue = loss\nperpetualCheckIllegal = true",
    "[fold-four:chess]\nnFoldRule = 4\nnFoldValue = win\nnFoldValueAbsolute = true",
    "[fold-off:chess]\nnFoldRule = 0\nnFoldValue = loss",
    "[count-cambodian:makruk]\ncountingRule = cambodian",
    "[material-unweighted:chess]\nmaterialCounting = unweighted",
    "[material-white:chess]\nmaterialCounting = whitedrawodds\nnMoveRule = 2",
]
# Chess without White's h1 rook; a stalemate (Black to move).
ROOKLESS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
# Counting: (variant, fen) from which a seeded random playout runs until pyffish ends the
# game (by the count, or otherwise), never repeating a position so that repetition does not
# end it first. Pieces' honour by each man, board's honour, a bare king taking the last pawn,
# a count already running in the FEN.
COUNTING = [
    ("makruk", "8/8/8/3k4/8/8/8/R3K3 w - - 0 1"),
    ("makruk", "8/8/8/3k4/8/8/8/R3K2R w - - 0 1"),
    ("makruk", "8/8/8/3k4/8/8/8/1SS1K3 w - - 0 1"),
    ("makruk", "8/8/8/3k4/8/8/8/1NN1K3 w - - 0 1"),
    ("makruk", "8/8/8/3k4/8/8/8/2S1K3 w - - 0 1"),
    ("makruk", "8/8/8/3k4/8/8/8/3MK3 w - - 0 1"),
    ("makruk", "8/8/8/3k4/3n4/8/8/R3K2R w - - 0 1"),
    ("makruk", "8/8/8/3k4/3P4/8/8/R3K3 b - - 0 1"),
    ("makruk", "8/8/8/3k4/8/8/8/R3K3 w - 32 28 40"),
    ("makruk", "8/8/3k4/8/8/8/4M3/R3K3 w - - 0 1"),
    ("asean", "8/8/8/3k4/8/8/8/R3K3 w - - 0 1"),
    ("asean", "8/8/8/3k4/8/8/8/2B1K3 w - - 0 1"),
    ("asean", "8/8/8/3k4/8/8/8/1N2K3 w - - 0 1"),
    ("ai-wok", "8/8/1k6/8/8/8/8/3AK3 w - - 0 1"),
    ("count-cambodian", "8/8/8/3k4/8/8/8/R3K3 w - - 0 1"),
    ("count-cambodian", "8/8/8/3k4/3n4/8/8/R3K2R w - - 0 1"),
    # Goals and rules of issue 44's second batch: the first check wins (checkshogi); a king
    # in check may only take its checker (makpong).
    ("checkshogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 1+1 0 1"),
    ("makpong", "8/8/8/3k4/8/8/8/R3K2R w - - 0 1"),
    ("makpong", "8/8/8/3k4/3n4/8/8/R3K2R w - - 0 1"),
]
# Most plies of a counting playout.
COUNTING_PLIES = 300
# FEN rows kept along each counting playout (besides its last position).
FEN_ROWS = 4
# A rook that checks on every one of its moves (h8, h7) while the king steps e8-e7.
ROOK_CHECKS = "4k3/8/8/8/8/8/8/4K2R w - - 0 1"
ROOK_CYCLE = ["h1h8", "e8e7", "h8h7", "e7e8", "h7h8", "e8e7", "h8h7", "e7e8", "h7h8", "e8e7"]
# (variant, fen or None for the start, moves before the shuffle, hand-given moves or None).
CASES = [
    ("chess", None, [], None),
    ("fold-loss", None, [], None),
    ("fold-loss", None, ["e2e4"], None),
    ("fold-win", None, [], None),
    ("fold-win", None, ["e2e4"], None),
    ("fold-absolute", None, [], None),
    ("fold-absolute", None, ["e2e4"], None),
    ("fold-perpetual", None, [], None),
    ("fold-perpetual", ROOK_CHECKS, [], ROOK_CYCLE),
    ("fold-perpetual", ROOK_CHECKS, ["h1h2"], None),
    ("fold-loss", ROOK_CHECKS, [], ROOK_CYCLE),
    ("fold-four", None, [], None),
    ("fold-four", None, ["e2e4"], None),
    ("fold-off", None, [], None),
    ("minishogi", None, [], None),
    ("minishogi", None, ["a2a3"], None),
    ("shogi", None, [], None),
    ("gorogoro", None, [], None),
    ("janggi", None, [], None),
    ("janggi", None, ["a4b4"], None),
    ("janggi", None, [], ["e2e2", "e9e9"]),
    ("janggi", None, ["b1c3"], ["b1c3", "e9e9", "e2e2"]),
    ("armageddon", None, [], None),
    ("armageddon", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", [], ["f1f7"]),
    ("material-unweighted", None, [], None),
    ("material-unweighted", ROOKLESS, [], None),
    ("material-white", None, [], ["g1f3", "g8f6", "f3g1", "f6g8"]),
    # Torishogi: a 4-fold repetition loses for the side that made it.
    ("torishogi", None, [], None),
    ("torishogi", None, ["c3c4"], None),
]


def n_fold(variant):
    """The variant's repetition count: the shortest shuffle pyffish ends, from the start."""
    for n in range(2, 6):
        fen = sf.start_fen(variant)
        moves = shuffle_moves(variant, fen, [], n)
        if moves and sf.is_optional_game_end(variant, fen, moves)[0]:
            return n
    return 3


def quiet(m):
    return "@" not in m and len(m) <= 5 and not m[-1].isalpha()


def reverse(m):
    # Squares are a letter and a number (one or two digits).
    i = 2 if len(m) == 4 or not m[2].isdigit() else 3
    return m[i:] + m[:i]


def shuffle_moves(variant, fen, prefix, n):
    """prefix, then a white and a black man stepping out and back until the position after
    the prefix has occurred n times; None if no such pair is found."""
    first = sf.legal_moves(variant, fen, prefix)
    for a in sorted(filter(quiet, first)):
        after_a = prefix + [a]
        if sf.get_fen(variant, fen, after_a).split()[0].count("x"):
            continue
        for b in sorted(filter(quiet, sf.legal_moves(variant, fen, after_a))):
            cycle = [a, b, reverse(a), reverse(b)]
            moves = list(prefix)
            ok = True
            for m in cycle * (n - 1):
                if m not in sf.legal_moves(variant, fen, moves):
                    ok = False
                    break
                moves.append(m)
            captured = sf.get_fen(variant, fen, moves).split()[0] != sf.get_fen(variant, fen, prefix).split()[0]
            if ok and not captured:
                return moves
    return None


def counting_playout(variant, fen, rng):
    """Random moves from fen, none back to a position seen before, until pyffish ends the
    game; the moves, or None if the playout found no end."""
    moves, seen = [], {sf.get_fen(variant, fen, []).split()[0] + fen.split()[1]}
    for _ in range(COUNTING_PLIES):
        if verdict(variant, fen, moves) != "on":
            return moves
        fresh = []
        for m in sf.legal_moves(variant, fen, moves):
            f = sf.get_fen(variant, fen, moves + [m]).split()
            if f[0] + f[1] not in seen:
                fresh.append((m, f[0] + f[1]))
        if not fresh:
            return None
        m, key = rng.choice(fresh)
        seen.add(key)
        moves.append(m)
    return None


def main():
    config = "\n\n".join(SECTIONS) + "\n"
    sf.load_variant_config(config)
    print("# Endings by Fairy-Stockfish's claimable rules (repetition with nFoldValue, perpetual")
    print(f"# check, counting), judged by pyffish {'.'.join(map(str, sf.version()))} (is_optional_game_end, or")
    print("# game_result with no move left). Generated by tools/fsf-endings-data.py; do not edit.")
    print("# `ini LINE`: the test sections, loaded by both; `ending VARIANT RESULT FEN ; MOVES`:")
    print("# RESULT is `on` (the game goes on) or the side to move's win|loss|draw after MOVES;")
    print("# `fen VARIANT FEN ; START ; MOVES`: pyffish's FEN after MOVES from START.")
    for line in config.splitlines():
        print(f"ini {line}")
    for variant, fen, prefix, given in CASES:
        fen = fen or sf.start_fen(variant)
        moves = given or shuffle_moves(variant, fen, prefix, n_fold(variant))
        if moves is None:
            raise SystemExit(f"{variant}: no shuffle found")
        for cut in (moves[:-1], moves):
            print(f"ending {variant} {verdict(variant, fen, cut)} {fen} ; {' '.join(cut)}")
    rng = random.Random(44)
    for variant, fen in COUNTING:
        moves = counting_playout(variant, fen, rng)
        if moves is None:
            raise SystemExit(f"{variant}: {fen}: the playout did not end")
        for cut in (moves[:-1], moves):
            print(f"ending {variant} {verdict(variant, fen, cut)} {fen} ; {' '.join(cut)}")
        for k in sorted(rng.sample(range(len(moves)), min(FEN_ROWS, len(moves)))) + [len(moves)]:
            cut = moves[:k]
            print(f"fen {variant} {sf.get_fen(variant, fen, cut)} ; {fen} ; {' '.join(cut)}")


if __name__ == "__main__":
    main()
