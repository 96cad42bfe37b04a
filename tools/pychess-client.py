#!/usr/bin/env python3
"""Drives Locust with python-chess's engine module, as a real client would: a full game of
chess through UCI, one through XBoard, and a MultiPV analysis. Exits 0 when everything held,
1 with a message otherwise.  usage: tools/pychess-client.py PATH_TO_LOCUST"""
import sys

import chess
import chess.engine

LIMIT = chess.engine.Limit(time=0.02)
MAX_PLIES = 160


def play(engine_cmd, protocol):
    opener = chess.engine.SimpleEngine.popen_uci if protocol == "uci" else chess.engine.SimpleEngine.popen_xboard
    with opener(engine_cmd) as engine:
        board = chess.Board()
        while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
            result = engine.play(board, LIMIT)
            if result.move is None or result.move not in board.legal_moves:
                raise SystemExit(f"{protocol}: illegal or no move {result.move} in {board.fen()}")
            board.push(result.move)
        return board


def analyse(engine_cmd):
    with chess.engine.SimpleEngine.popen_uci(engine_cmd) as engine:
        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3")
        infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        if len(infos) != 3:
            raise SystemExit(f"multipv: {len(infos)} lines")
        best = infos[0]
        if best["pv"][0] != chess.Move.from_uci("f3f7") or not best["score"].relative.is_mate():
            raise SystemExit(f"multipv: expected the mate Qxf7#, got {best['pv'][0]} {best['score']}")
        moves = {i["pv"][0] for i in infos}
        if len(moves) != 3:
            raise SystemExit("multipv: lines repeat a move")


def main():
    cmd = sys.argv[1]
    for protocol in ("uci", "xboard"):
        board = play(cmd, protocol)
        print(f"{protocol}: {board.ply()} plies, {board.result(claim_draw=True)}")
    analyse(cmd)
    print("multipv: ok")


main()
