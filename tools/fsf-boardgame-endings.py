#!/usr/bin/env python3
"""Game ends in Fairy-Stockfish's board games (flag races, connect games), judged by pyffish,
written to tests/data/perft/fsf_boardgame_endings.txt and checked by tests/fsf_boardgames.rs.
Also perft rows (the newest FSF's `go perft` at depth 3, start and random positions) for
Locust's own test sections of rules no section of FSF's file that Locust loads uses
(`enclosingDrop = snort`), printed as `ini` lines and `perft VARIANT DEPTH COUNT FEN`.

For each variant: seeded random playouts (pyffish `legal_moves`) until no legal move is left;
each gives two rows, the game one move before its end (`on`) and at its end (pyffish's
`game_result` for the side to move: win, loss or draw). Sections of FSF's variants.ini are
loaded into pyffish from the mirror of its repository (the file at its newest commit).

Usage: tools/fsf-boardgame-endings.py > tests/data/perft/fsf_boardgame_endings.txt
       tools/fsf-boardgame-endings.py --only NAME,... >> tests/data/perft/fsf_boardgame_endings.txt
(`--only`: the ending rows of those built-ins or sections alone, to add to the file.)
"""
import argparse
import os
import random
import subprocess
import tempfile

import pyffish as sf

FSF_GIT = "/work/.mirror/fairy-stockfish+Fairy-Stockfish/repo"
ENGINE = "/opt/peers/fairy-stockfish-latest"
# Locust's own test sections (not FSF's text), loaded by both.
OWN = """[snortish]
maxRank = 5
maxFile = 5
immobile = p
startFen = 5/5/5/5/5[PPPPPPPPPPPPpppppppppppp] w - - 0 1
pieceDrops = true
enclosingDrop = snort
doubleStep = false
castling = false
stalemateValue = loss
immobilityIllegal = false
nMoveRule = 0
"""
OWN_NAMES = ["snortish"]
# Built-in variants, then sections of FSF's variants.ini.
VARIANTS = ["breakthrough", "fox-and-hounds", "jesonmor", "dobutsu"]
SECTIONS = ["tictactoe", "cfour", "cfour-anyside", "cfour-misere", "picaria", "nineholes",
            "tictacchess", "teeko", "symphony", "asimplegame", "allqueenschess",
            "roll-ing-to-four", "three-musketeers", "alapo", "squatter", "breakthrough5"]
# Playouts per variant, and the longest one (plies) before giving up on an end.
PLAYOUTS = 4
MAX_PLIES = 600


def result_word(value):
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def playout(name, rng):
    fen = sf.start_fen(name)
    moves = []
    while len(moves) < MAX_PLIES:
        legal = sf.legal_moves(name, fen, moves)
        if not legal:
            return fen, moves, result_word(sf.game_result(name, fen, moves))
        if sf.is_optional_game_end(name, fen, moves)[0]:
            return None
        moves.append(rng.choice(sorted(legal)))
    return None


def own_perft():
    """`ini` lines of OWN and FSF's perft of each own section: start and 4 random positions."""
    sf.load_variant_config(OWN)
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        f.write(OWN)
    p = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(cmd, last):
        p.stdin.write(cmd + "\n")
        p.stdin.flush()
        while True:
            line = p.stdout.readline().strip()
            if line.startswith(last):
                return line

    ask("uci", "uciok")
    ask("setoption name VariantPath value %s\nisready" % f.name, "readyok")
    for line in OWN.splitlines():
        print("ini " + line)
    for name in OWN_NAMES:
        ask("setoption name UCI_Variant value %s\nisready" % name, "readyok")
        rng = random.Random(name)
        fens = [sf.start_fen(name)]
        for _ in range(4):
            fen, moves = sf.start_fen(name), []
            for _ in range(rng.randint(4, 14)):
                legal = sf.legal_moves(name, fen, moves)
                if not legal:
                    break
                moves.append(rng.choice(sorted(legal)))
            fens.append(sf.get_fen(name, fen, moves))
        for fen in fens:
            count = ask("position fen %s\ngo perft 3" % fen, "Nodes searched").split()[-1]
            print("perft %s 3 %s %s" % (name, count, fen))
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    os.unlink(f.name)


def endings(names):
    """Two `ending` rows per playout that ends, PLAYOUTS playouts per name."""
    for name in names:
        rng = random.Random(name)
        found = 0
        for _ in range(PLAYOUTS * 10):
            got = playout(name, rng)
            if got is None:
                continue
            fen, moves, result = got
            if not moves:
                # Over at the start (crusade's full board): one row, every playout alike.
                print("ending %s %s %s ; " % (name, result, fen))
                break
            print("ending %s on %s ; %s" % (name, fen, " ".join(moves[:-1])))
            print("ending %s %s %s ; %s" % (name, result, fen, " ".join(moves)))
            found += 1
            if found == PLAYOUTS:
                break


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="comma-separated built-ins or sections: their rows alone")
    args = ap.parse_args()
    if SECTIONS or args.only:
        text = subprocess.run(["git", "--git-dir", FSF_GIT, "show", "HEAD:src/variants.ini"],
                              capture_output=True, text=True, check=True).stdout
        sf.load_variant_config(text)
    if args.only:
        return endings(args.only.split(","))
    print("# Game ends in Fairy-Stockfish's board games, judged by pyffish %s"
          % ".".join(map(str, sf.version())))
    print("# (legal_moves, game_result). Generated by tools/fsf-boardgame-endings.py; do not")
    print("# edit. `ending VARIANT RESULT FEN ; MOVES`: RESULT is `on` (the game goes on) or")
    print("# the side to move's win|loss|draw after MOVES. `ini LINE`: Locust's own test sections;")
    print("# `perft VARIANT DEPTH COUNT FEN`: the newest FSF's `go perft` of such a section.")
    own_perft()
    endings(VARIANTS + SECTIONS)


if __name__ == "__main__":
    main()
