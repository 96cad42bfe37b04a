#!/usr/bin/env python3
"""Draws random legal chess positions per material and writes their Syzygy WDL and DTZ
(probed with python-chess from tables made by syzygy1/tb's rtbgen/rtbgenp) as the data file
that tests/egt_syzygy.rs checks Locust's tables against (tests/data/egt/syzygy-wdl.txt).

Usage:
  python3 tools/syzygy-sample.py --tables DIR --tb-commit HASH [--seed N] [--out FILE]

DIR holds the .rtbw/.rtbz files of every material listed below (and of their sub-tables).
The tables are not kept in the project: only the sampled values are.
"""

import argparse
import datetime
import random
import sys

import chess
import chess.syzygy

# Materials in Syzygy's naming (the stronger side first; each covers both colourings).
THREE = ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"]
FOUR = [
    "KQvKQ", "KQvKR", "KQvKB", "KQvKN", "KQvKP",
    "KRvKR", "KRvKB", "KRvKN", "KRvKP",
    "KBvKB", "KBvKN", "KBvKP",
    "KNvKN", "KNvKP",
    "KPvKP",
    "KQQvK", "KQRvK", "KQBvK", "KQNvK", "KQPvK",
    "KRRvK", "KRBvK", "KRNvK", "KRPvK",
    "KBBvK", "KBNvK", "KBPvK",
    "KNNvK", "KNPvK",
    "KPPvK",
]
FIVE = ["KBBvKN", "KRBvKR", "KRNvKR", "KRPvKR"]

LETTER = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
          "N": chess.KNIGHT, "P": chess.PAWN}

# Squares a pawn may stand on (not the first or last rank).
PAWN_SQUARES = [s for s in chess.SQUARES if 1 <= chess.square_rank(s) <= 6]


def sides(material):
    """The two sides' pieces of a material name, e.g. KQvKR -> ([K, Q], [K, R])."""
    a, b = material.split("v")
    return [LETTER[c] for c in a], [LETTER[c] for c in b]


def place(board, rng, colour, pieces, taken):
    """Puts `pieces` of `colour` on random free squares; False when a pawn finds no room."""
    for p in pieces:
        pool = PAWN_SQUARES if p == chess.PAWN else chess.SQUARES
        free = [s for s in pool if s not in taken]
        if not free:
            return False
        s = rng.choice(free)
        taken.add(s)
        board.set_piece_at(s, chess.Piece(p, colour))
    return True


def draw_plain(rng, strong, weak):
    """A random placement with a random side to move and a random colouring; None if not a
    legal position. Checks python-chess calls impossible (two sliders giving check, say) are
    kept: the tables hold them like any other position."""
    board = chess.Board(None)
    white, black = (strong, weak) if rng.random() < 0.5 else (weak, strong)
    taken = set()
    if not place(board, rng, chess.WHITE, white, taken):
        return None
    if not place(board, rng, chess.BLACK, black, taken):
        return None
    board.turn = rng.random() < 0.5
    allowed = chess.STATUS_IMPOSSIBLE_CHECK | chess.STATUS_TOO_MANY_CHECKERS
    if board.status() & ~allowed:
        return None
    return board


def draw_ep(rng, strong, weak):
    """A random position in which the side to move may take en passant: the other side's
    pawn has just made a double step past one of the mover's pawns. None when the pieces
    drawn do not allow it or the position is not legal."""
    board = chess.Board(None)
    white, black = (strong, weak) if rng.random() < 0.5 else (weak, strong)
    if chess.PAWN not in white or chess.PAWN not in black:
        return None
    mover = rng.random() < 0.5
    board.turn = mover
    # The pawn that just moved stands on its fourth rank, the ep square just behind it.
    rank = 4 if mover == chess.WHITE else 3
    behind = 5 if mover == chess.WHITE else 2
    start = 6 if mover == chess.WHITE else 1
    f = rng.randrange(8)
    g = f + rng.choice([-1, 1])
    if not 0 <= g < 8:
        return None
    moved = chess.square(f, rank)
    taker = chess.square(g, rank)
    board.set_piece_at(moved, chess.Piece(chess.PAWN, not mover))
    board.set_piece_at(taker, chess.Piece(chess.PAWN, mover))
    # The squares the pawn passed must be empty.
    taken = {moved, taker, chess.square(f, behind), chess.square(f, start)}
    rest = {chess.WHITE: list(white), chess.BLACK: list(black)}
    rest[not mover].remove(chess.PAWN)
    rest[mover].remove(chess.PAWN)
    for colour in (chess.WHITE, chess.BLACK):
        if not place(board, rng, colour, rest[colour], taken):
            return None
    board.ep_square = chess.square(f, behind)
    if board.status() != chess.STATUS_VALID or not board.has_legal_en_passant():
        return None
    return board


def sample(tb, rng, material, count, ep_share):
    """Up to `count` distinct positions of `material`, as (fen, wdl, dtz), balanced over
    the WDL values found (rare results, such as the weaker side's wins, would otherwise
    hardly show)."""
    strong, weak = sides(material)
    both_pawns = chess.PAWN in strong and chess.PAWN in weak
    want_ep = int(count * ep_share) if both_pawns else 0
    by_wdl = {}
    ep = []
    seen = set()
    for tries in range(30 * count):
        if len(ep) < want_ep and tries % 2 == 0:
            board = draw_ep(rng, strong, weak)
        else:
            board = draw_plain(rng, strong, weak)
        if board is None or board.fen() in seen:
            continue
        seen.add(board.fen())
        if board.ep_square is not None:
            ep.append(board)
            continue
        pool = by_wdl.setdefault(tb.probe_wdl(board), [])
        if len(pool) < count:
            pool.append(board)
        if len(by_wdl) == 5 and all(len(v) >= count for v in by_wdl.values()):
            break
    # Round robin over the WDL values, then the en passant positions.
    chosen = ep[:want_ep]
    pools = [by_wdl[k][::-1] for k in sorted(by_wdl)]
    while len(chosen) < count and any(pools):
        for pool in pools:
            if pool and len(chosen) < count:
                chosen.append(pool.pop())
    return [(b.fen(), tb.probe_wdl(b), tb.probe_dtz(b)) for b in chosen]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", required=True, help="folder of .rtbw/.rtbz files")
    ap.add_argument("--tb-commit", required=True, help="syzygy1/tb commit the tables came from")
    ap.add_argument("--out", default="tests/data/egt/syzygy-wdl.txt")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--three", type=int, default=300, help="positions per 3-man material")
    ap.add_argument("--four", type=int, default=400, help="positions per 4-man material")
    ap.add_argument("--five", type=int, default=500, help="positions per 5-man material")
    ap.add_argument("--ep-share", type=float, default=0.25,
                    help="share of en passant positions where both sides have pawns")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    tb = chess.syzygy.open_tablebase(args.tables)
    lines = [
        "# Syzygy WDL and DTZ of random legal chess positions, for tests/egt_syzygy.rs.",
        f"# Tables: syzygy1/tb commit {args.tb_commit}, made with its rtbgen/rtbgenp -p",
        "# (ply-accurate DTZ); probed with python-chess " + chess.__version__ + ".",
        f"# Made {datetime.date.today().isoformat()} by: python3 tools/syzygy-sample.py"
        f" --tables DIR --tb-commit {args.tb_commit} --seed {args.seed}"
        f" --three {args.three} --four {args.four} --five {args.five}"
        f" --ep-share {args.ep_share}",
        "# Line: material;FEN;WDL;DTZ. WDL from the side to move: 2 win, 1 win that the",
        "# 50-move rule spoils, 0 draw, -1 and -2 likewise losses. DTZ: python-chess's",
        "# probe_dtz (plies to a capture, pawn move or mate; signed as WDL).",
    ]
    for group, count in ((THREE, args.three), (FOUR, args.four), (FIVE, args.five)):
        for material in group:
            rows = sample(tb, rng, material, count, args.ep_share)
            counts = {}
            for _, w, _ in rows:
                counts[w] = counts.get(w, 0) + 1
            print(material, len(rows), dict(sorted(counts.items())), file=sys.stderr)
            lines.extend(f"{material};{fen};{wdl};{dtz}" for fen, wdl, dtz in rows)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
