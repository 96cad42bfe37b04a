#!/usr/bin/env python3
"""Write tests/data/perft/malformed_fens.txt: FENs a strict parser must reject.

Each data line: `<variant> | <fen> | <what is wrong>`. Above each line a comment records what
pyffish.validate_fen returns (1 = accepted, <=0 = rejected) and what Fairy-Stockfish 11.1 does
with `position fen ...` followed by `d` (fresh process each time, 5 s timeout).
"""
import os
import subprocess

import pyffish as sf

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "data", "perft", "malformed_fens.txt")

CASES = [
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks instead of 8"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "9 ranks instead of 8"),
    ("chess", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank with 9 files"),
    ("chess", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank with only 7 files"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unknown piece letter X"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move 'x'"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR KQkq - 0 1", "side-to-move field missing"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1", "bad castling letter z"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
     "castling right K without a rook on h1"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "e.p. square off board"),
    ("chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
     "e.p. square on the wrong rank (e4 instead of e3)"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "negative halfmove clock"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999999999999",
     "fullmove number overflows 64 bits"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove number 0"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w kq - 0 1", "white has no king"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "two white kings (not allowed in chess)"),
    ("chess", "rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "digit 0 as empty run"),
    ("chess", "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "two adjacent digits (44 is read as 44 empty squares)"),
    ("chess", "", "empty string"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "trailing garbage field"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\u00a0w KQkq - 0 1",
     "non-ASCII no-break space as separator"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\u265c w KQkq - 0 1",
     "non-ASCII chess symbol as piece"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP//RNBQKBNR w KQkq - 0 1", "empty rank between //"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBpR w KQkq - 0 1", "black pawn on the first rank"),
    ("chess", "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1", "white pawn on the last rank"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1 ",
     "trailing space (lenient parsers accept; strict ones may reject)"),
    ("fischerandom", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w IAia - 0 1",
     "Shredder castling file I beyond the 8-file board"),
    ("crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[ w KQkq - 0 1", "holdings bracket not closed"),
    ("crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Xx] w KQkq - 0 1", "unknown piece X in holdings"),
    ("crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[K] w KQkq - 0 1", "king in holdings"),
    ("crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN~ w KQkq - 0 1", "'~' alone without a piece"),
    ("crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR]P[ w KQkq - 0 1", "brackets reversed"),
    ("capablanca", "rnabqkbcnr/pppppppppp/11/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
     "multi-digit run 11 exceeds the 10-file width"),
    ("capablanca", "rnabqkbcnr/pppppppppp/1/0/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
     "'10' split by '/' into '1/0' (9 ranks, rank of width 1 and a 0)"),
    ("grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - e11 0 1",
     "e.p. square on rank 11 of a 10-rank board"),
    ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] x 0 1", "bad side to move"),
    ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL+[-] w 0 1",
     "'+' followed by a rank separator/nothing to promote (promotion marker at end of rank)"),
    ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL[-] w 0 1",
     "'+' before a gold (not promotable)"),
    ("shogi", "lnsg+kgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1",
     "'+' before a king (not promotable)"),
    ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[+P] w 0 1",
     "promoted piece in holdings"),
    ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 0 1",
     "holdings bracket missing in a drop variant (lenient parsers accept)"),
    ("shogi", "lnsgkgsnP/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL[-] w 0 1",
     "sente pawn on the last rank (dead piece)"),
    ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w -3 1",
     "negative move counter"),
    ("minishogi", "rbsgk/4p/5/P4/KGSBR/5[-] w 0 1", "6 ranks on a 5x5 board"),
    ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w - - 0 1",
     "9 ranks instead of 10"),
    ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
     "side to move 'r' (red; FSF uses w/b)"),
    ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1",
     "red king missing"),
    ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN10 w - - 0 1",
     "10-run on a 9-file board"),
    ("xiangqi", "rnba1abnr/9/1c5c1/p1p1p1p1p/4k4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
     "black king outside the palace"),
    ("janggi", "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1 junk",
     "extra trailing field"),
    ("janggi", "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4KK3/RNBA1ABNR w - - 0 1",
     "two red kings"),
    ("spartan", "lgkcckwl/hhhhhhhh/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
     "control: VALID spartan start (two black kings are legal here) -- not malformed, keep as contrast"),
    ("spartan", "lgkcckwl/hhhhhhhh/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1",
     "two white kings (only the spartan side may have two)"),
]


def fsf_probe(variant, fen):
    cmd = "uci\nsetoption name UCI_Variant value %s\nposition fen %s\nd\nisready\nquit\n" % (variant, fen)
    try:
        p = subprocess.run(["/usr/games/fairy-stockfish"], input=cmd.encode("utf-8"),
                           capture_output=True, timeout=5)
    except subprocess.TimeoutExpired:
        return "timeout"
    out = p.stdout.decode("utf-8", "replace")
    if " var %s " % variant not in out.split("uciok")[0] + " ":
        return "variant not available"
    if p.returncode < 0:
        return "crashed (signal %d)" % -p.returncode
    fens = [l[5:] for l in out.splitlines() if l.startswith("Fen: ")]
    return "accepts, `d` writes %s" % (fens[-1] if fens else "(nothing)")


def main():
    lines = ["# Malformed FENs for parser tests. Format: <variant> | <fen> | <what is wrong>",
             "# Generated by tools/perft-data/malformed.py. Comment lines record peer behaviour:",
             "# pyffish.validate_fen result (1 = valid, <= 0 = rejected) and Fairy-Stockfish 11.1",
             "# `position fen` + `d` (FSF 11.1 has no FEN validation and silently accepts or repairs",
             "# most of these; it is not a model for our parser). A line marked 'control' is valid.",
             ""]
    for v, fen, why in CASES:
        assert "|" not in fen
        try:
            val = sf.validate_fen(fen, v) if fen else "n/a (empty)"
        except Exception as e:  # noqa: BLE001
            val = "exception %s" % type(e).__name__
        lines.append("# pyffish validate_fen: %s; fsf-11.1: %s" % (val, fsf_probe(v, fen)))
        lines.append("%s | %s | %s" % (v, fen, why))
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
