#!/usr/bin/env python3
"""Game ends and perft counts for the third batch of Fairy-Stockfish rules of issue 44
(castlingWins, petrifyOnCaptureTypes, piecePromotionOnCapture, wolf's two promotions,
shatar's mate rule; elgam's diagonalLines, its immobile `nC` man and its soldier drops),
from pyffish and the newest Fairy-Stockfish, written to tests/data/perft/fsf_rules3.txt and
checked by tests/fsf_rules3.rs.

For each variant (built-ins, and sections of FSF's variants.ini loaded from the mirror of
its repository at its newest commit): seeded random playouts (pyffish `legal_moves`) in which
the moves that exercise the rule (castling, king and rook moves; captures; promotions;
checks) are preferred half of the time, until no legal move is left. Each playout gives two
`ending` rows: the game one move before its end (`on`) and at its end (pyffish's
`game_result` for the side to move: win, loss or draw; a hand-set sequence may also end by
pyffish's `is_optional_game_end`, a repetition). Each playout also gives `perft` rows,
counted by the newest FSF's `go perft` (depth 3, or 2 above MAX_NODES): the position three
plies before the end and the one before the end.

Usage: tools/fsf-rules3-data.py > tests/data/perft/fsf_rules3.txt
       tools/fsf-rules3-data.py --only NAME[,NAME] >> tests/data/perft/fsf_rules3.txt
(--only: the rows of those variants alone, without the header, to append)
"""
import argparse
import os
import random
import sys

import pyffish as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fsfdata import Fsf, ending_row, perft_row, playout, variants_ini, verdict  # noqa: E402

# Variants, each with the kind of move its playouts prefer.
VARIANTS = [
    ("castle", "castle"),
    ("petrified", "capture"),
    ("nuclear", "capture"),
    ("wolf", "promote"),
    ("micro", "capture"),
    ("cetus", "capture"),
    ("shatar", "check"),
    ("elgam", "check"),
]
# Positions set up by hand at the rules' edges, each with a move sequence from it: two
# `ending` rows (before the last move, after it) and a `perft` row of the position.
SPECIAL = [
    # Black castles queen side and wins; castles king side and loses its last winning right.
    ("castle", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", ["e8c8"]),
    ("castle", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", ["e8g8"]),
    # White castling either way decides nothing (only Black's queen side counts).
    ("castle", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", ["e1c1", "h7h6"]),
    # A rook takes the rook that kept Black's right: Black loses at once.
    ("castle", "r3k3/1ppppppp/8/8/8/8/1PPPPPPP/R3K3 w Qq - 0 1", ["a1a8"]),
    # Black without its right in the FEN has lost already: no move is left.
    ("castle", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQk - 0 1", []),
    # Petrified: a king next to the enemy king may not castle across its guard (FSF's
    # castling test counts it) but may stand beside it, and never captures.
    ("petrified", "8/8/8/8/8/8/3k4/R3K2R w KQ - 0 1", ["e1e2"]),
    ("petrified", "8/8/8/8/8/8/6k1/R3K2R w KQ - 0 1", ["e1d1"]),
    ("petrified", "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", ["e1e2"]),
    # A capture leaves a stone; the stone blocks; a pawn that captures stays a pawn.
    ("petrified", "4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", ["d1d5", "e8d8"]),
    ("petrified", "4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1", ["e2d3", "e8d8"]),
    ("petrified", "3rk3/8/8/8/8/3*4/8/3K4 w - - 0 1", []),
    # Nuclear: the stone left on the capture square blocks nothing in the capture's own
    # legality test (FSF's atomic test empties the square).
    ("nuclear", "1nbq1b1r/1p2kppp/r6B/p1ppp3/3P2nP/1QP3PB/PP2PP1R/RN1K2N1 w - - 0 10", ["b3c4"]),
    ("nuclear", "1nbq1b1r/1p2kppp/r2p3B/p1p1p3/3P2nP/1QP3PB/PP2PP1R/RN2K1N1 w Q - 5 9", []),
    # Wolf: a pawn on the last rank becomes a chess piece or, turned over, the elephant
    # (`+P`); a sergeant only a chess piece; the elephant moves on.
    ("wolf", "7k/P1S5/8/8/8/8/8/8/8/K7 w - - 0 1", ["a9a10+", "h10h9", "a10a4"]),
    ("wolf", "7k/P1S5/8/8/8/8/8/8/8/K7 w - - 0 1", ["c9c10w", "h10h9", "a9a10b"]),
    ("wolf", "1r5k/P7/8/8/8/8/8/8/8/K7 w - - 0 1", ["a9b10+", "h10h9"]),
    # A pawn's double step from b3 gives e.p.; a sergeant's from its start square does not.
    ("wolf", "7k/8/8/8/8/2p2s2/8/1P4S1/8/K7 w - - 0 1", ["b3b5", "c5b4"]),
    ("wolf", "7k/8/8/8/8/8/7p/8/6S1/K7 w - - 0 1", ["g2g4", "h4h3"]),
    # Shatar: a mate by a knight alone loses for the side that gives it; a mate by a lone
    # bishop's check is a draw (niol); a rook's mate wins; a bishop's mate wins after a
    # rook's check began the series, and draws where the series begins with it.
    ("shatar", "6rk/6pp/8/6N1/8/8/8/4K3 w - - 0 1", ["g5f7"]),
    ("shatar", "7k/5K1p/3B4/8/8/8/8/8 w - - 0 1", ["d6e5"]),
    ("shatar", "7k/6pp/8/8/8/8/8/R3K3 w - - 0 1", ["a1a8"]),
    ("shatar", "7k/4K1p1/8/8/8/3B4/8/R7 w - - 0 1", ["a1h1", "h8g8", "d3c4"]),
    ("shatar", "6k1/4K1p1/8/8/8/3B4/8/7R w - - 2 2", ["d3c4"]),
    # Micro: a capture turns the man over (the rook to a gold, back to a rook on the next
    # capture); a move to an empty square never does.
    ("micro", "kb+r+l/p3/4/3P/+L+RBK[-] w 0 1", ["d2d3", "a4a3", "c1a3+", "b5d3+"]),
    # Elgam's lines (c6 d7 e8 f9 g10, e10 f9 g8 h7 i6 for Black; mirrored for White): a rook
    # checks along one as a bishop; the piece it pins may take it along the line; a horse
    # uncovers such a check; a cannon hops diagonally on a line, never over a cannon; a
    # soldier and a wazir check diagonally from a line.
    ("elgam", "r4a5/11/1c2k6/11/2R8/11/2S8/7C3/5K5/4A6[hs] b - - 0 1", []),
    ("elgam", "r10/11/1c2k6/3a7/2R8/11/2S8/7C3/5K5/4A6[s] b - - 0 1", ["d7c6"]),
    ("elgam", "r5a4/11/4k4c1/3H7/2R8/11/2S8/7C3/5K5/4A6[S] w - - 0 1", ["d7e5"]),
    ("elgam", "r5C4/5s5/4k6/8s2/11/11/1S9/11/5K5/R10[c] b - - 0 1", []),
    ("elgam", "r5C4/5c5/4k6/8s2/11/11/1S9/11/5K5/R10[] b - - 0 1", []),
    ("elgam", "r10/11/4k6/3S6s/11/11/11/7C3/5K5/R10[h] b - - 0 1", []),
    ("elgam", "r5k4/5A5/2c8/10s/11/11/11/11/5K5/R10[e] b - - 0 1", []),
    # White's own lines: the rook slides g1-c5 until e3 blocks it, the wazir steps from f2,
    # the cannon hops f2 from e1; black soldiers step diagonally onto them (d4-e3, h4-g3).
    ("elgam", "r10/5k5/7R3/11/11/8c2/3s7/4S6/5AK4/4C1R4[Ss] w - - 0 1", []),
    ("elgam", "10r/5k5/11/11/11/2S8/3s3s3/11/11/R4K5[s] b - - 0 1", []),
    # A soldier promotes on the last rank after a diagonal step (to w, or turned over).
    ("elgam", "r10/5S5/6k4/11/11/11/2s8/11/5K5/R10[] w - - 0 1", ["f9e10+"]),
    # Soldiers may be dropped on the first and the last rank (FSF bars them to its pawn).
    ("elgam", "10r/5k5/11/11/6c4/4C6/11/11/5K5/R10[SSss] w - - 0 1", ["S@a10", "S@k1"]),
    # A soldier drop mates (only FSF's shogiPawn may not): the king may not leave its region
    # and its immobile `o` men (FSF's `nC` gives no move) hem it in.
    ("elgam", "10r/4oo5/4ko5/11/11/11/11/11/5K5/R10[S] w - - 0 1", ["S@d7"]),
    # Stalemate loses.
    ("elgam", "5ok4/5oo4/11/11/11/11/10S/11/5K5/R10[] w - - 0 1", ["f2f1"]),
    # The third repetition loses for the side to move (nFoldValue = loss).
    ("elgam", "rheoa1aoehr/5k5/1c7c1/s1s1s1s1s1s/5v5/5V5/S1S1S1S1S1S/1C7C1/5K5/RHEOA1AOEHR[] "
     "w - - 0 1", ["a1a2", "a10a9", "a2a1", "a9a10", "a1a2", "a10a9", "a2a1", "a9a10"]),
]
PLAYOUTS = 4
MAX_PLIES = 400
MAX_NODES = 400_000
# How often a playout's move is drawn from the preferred moves.
PREFER = 0.8


def preferred(kind, name, fen, moves, legal):
    """The legal moves of the kind the variant's playouts prefer."""
    board = sf.get_fen(name, fen, moves).split()[0]
    rows = board.split("/")

    def piece_at(sq):
        file, rank = ord(sq[0]) - ord("a"), int(sq[1:])
        row = rows[len(rows) - rank]
        f = 0
        i = 0
        while i < len(row):
            c = row[i]
            if c.isdigit():
                j = i
                while j < len(row) and row[j].isdigit():
                    j += 1
                f += int(row[i:j])
                i = j
                continue
            if c in "+~[":
                i += 1
                continue
            if f == file:
                return c
            f += 1
            i += 1
        return None

    def src(m):
        return m[:2] if m[1].isdigit() and not m[2].isdigit() else m[:3]

    if kind == "castle":
        # Castling where it is legal (the king two files or more along its rank), else
        # moves of other men, so that games reach castling as well as lost rights.
        kings = [m for m in legal if (piece_at(src(m)) or "").lower() == "k"]
        castlings = [m for m in kings if abs(ord(m[0]) - ord(m[len(src(m))])) >= 2]
        return castlings or [m for m in legal if (piece_at(src(m)) or "").lower() not in "kr"]
    if kind == "capture":
        # Drops (`P@c3`) take nothing.
        boards = [m for m in legal if "@" not in m]
        return [m for m in boards
                if piece_at(m[len(src(m)):len(src(m)) + 2]) not in (None, "*")]
    if kind == "check":
        return [m for m in legal if sf.gives_check(name, fen, moves + [m])]
    if kind == "promote":
        return [m for m in legal if m[-1].isalpha() or m.endswith("+")]
    return legal


def pick(kind, name, rng):
    """A playout's choice: the preferred moves PREFER of the time, else any."""
    return lambda fen, moves, legal: (preferred(kind, name, fen, moves, legal)
                                      if rng.random() < PREFER else legal)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="comma-separated variants: their rows only, no header")
    args = ap.parse_args()
    only = args.only.split(",") if args.only else None
    ini, text, _ = variants_ini()
    sf.load_variant_config(text)
    engine = Fsf(ini=ini)
    if only is None:
        print_header()
    for name, fen, moves in SPECIAL:
        if only is not None and name not in only:
            continue
        if moves:
            print(ending_row(name, verdict(name, fen, moves[:-1]), fen, moves[:-1]))
        print(ending_row(name, verdict(name, fen, moves), fen, moves))
        print(perft_row(name, *engine.perft_capped(name, fen, MAX_NODES), fen))
    for name, kind in VARIANTS:
        if only is not None and name not in only:
            continue
        rng = random.Random(name)
        found = 0
        for _ in range(PLAYOUTS * 10):
            got = playout(name, rng, MAX_PLIES, pick(kind, name, rng))
            if got is None:
                continue
            fen, moves, result = got
            print(ending_row(name, "on", fen, moves[:-1]))
            print(ending_row(name, result, fen, moves))
            for back in (3, 1):
                if len(moves) >= back:
                    at = sf.get_fen(name, fen, moves[:-back])
                    print(perft_row(name, *engine.perft_capped(name, at, MAX_NODES), at))
            found += 1
            if found == PLAYOUTS:
                break
    engine.quit()
    os.unlink(ini)


def print_header():
    print("# Game ends and perft of issue 44's third batch of Fairy-Stockfish rules, by pyffish")
    print("# %s (legal_moves, game_result) and the newest FSF's `go perft`. Generated by"
          % ".".join(map(str, sf.version())))
    print("# tools/fsf-rules3-data.py; do not edit. `ending VARIANT RESULT FEN ; MOVES`: RESULT")
    print("# is `on` (the game goes on) or the side to move's win|loss|draw after MOVES;")
    print("# `perft VARIANT DEPTH COUNT FEN`.")


if __name__ == "__main__":
    main()
