#!/usr/bin/env python3
"""Writes tests/data/egt-positions/chess-match.epd: pawnless five- and six-man chess
positions for a match of Locust with tables against Locust without (docs/history/strength-log.md).
Men are placed at random (fixed seed); a position is kept when it is legal, White to move is
not in check, no capture is on the board for either side and neither side can mate in one,
so the captures, and the tables they lead to, come from play, and no game is decided by its
first move. Needs python-chess (placement and legality only).
usage: tools/make-egt-match-positions.py"""
import pathlib
import random

import chess

SEED = 11
MATERIALS = [
    "KQvKRB", "KQvKRN", "KRBvKR", "KRNvKR", "KRvKBN", "KQvKBB", "KBBvKN", "KBNvKB",
    "KQRvKQ", "KQBvKQ", "KRRvKQ", "KQvKNN",
    "KRBvKRN", "KRNvKRB", "KQRvKQB", "KRRvKRB", "KQBvKRR", "KBNvKBN", "KRBvKBN", "KQNvKQB",
]


def quiet(board):
    """No capture for either side."""
    if any(board.is_capture(m) for m in board.legal_moves):
        return False
    board.turn = chess.BLACK
    quiet_black = not any(board.is_capture(m) for m in board.legal_moves)
    board.turn = chess.WHITE
    return quiet_black


def mates_in_one(board):
    """The side to move has a mating move."""
    for m in board.legal_moves:
        board.push(m)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return True
    return False


def no_quick_mate(board):
    """Neither side, were it to move, mates in one."""
    if mates_in_one(board):
        return False
    board.turn = chess.BLACK
    black = mates_in_one(board)
    board.turn = chess.WHITE
    return not black


def place(material, rng):
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, len(material) - 1)
        men = [(c, chess.WHITE if i < material.index("v") else chess.BLACK)
               for i, c in enumerate(material) if c != "v"]
        for sq, (c, colour) in zip(squares, men):
            board.set_piece_at(sq, chess.Piece.from_symbol(c if colour else c.lower()))
        board.turn = chess.WHITE
        if board.is_valid() and not board.is_check() and quiet(board) and no_quick_mate(board):
            return board


def main():
    rng = random.Random(SEED)
    out = pathlib.Path(__file__).resolve().parent.parent / "tests/data/egt-positions/chess-match.epd"
    lines = [f'{place(m, rng).epd()} c0 "{m}";' for m in MATERIALS]
    out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
