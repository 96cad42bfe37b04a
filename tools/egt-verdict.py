#!/usr/bin/env python3
"""Checks endgame-table conversion games: every "win in N" start of the EPD file won by
White within N moves, every "draw" start not lost. usage: egt-verdict.py EPD PGN
(XBoard writes xiangqi's horse and elephant as H and E: read as N and B.)"""
import re, sys
from textfile import read_text
epd, pgn = sys.argv[1], sys.argv[2]
want = {}
for line in read_text(epd).splitlines():
    fen = " ".join(line.split()[:2])  # board and side: XBoard drops the other fields
    m = re.search(r'"(\S+) (win in (\d+)|draw)"', line)
    want[fen] = (m.group(1), int(m.group(3)) if m.group(3) else None)
games = read_text(pgn).split("[Event ")[1:]
bad = 0
for g in games:
    fen = re.search(r'\[FEN "([^"]+)"\]', g).group(1)
    if re.search(r'\[Variant "(xiangqi|janggi)"\]', g):
        fen = fen.replace("h", "n").replace("H", "N").replace("e", "b").replace("E", "B")
    fen = " ".join(fen.split()[:2])
    result = re.search(r'\[Result "([^"]+)"\]', g).group(1)
    moves = re.sub(r"\{[^}]*\}", "", g.split("\n\n", 1)[1])
    white_moves = len(re.findall(r"\d+\.\s", moves))
    material, dtm = want.get(fen, ("?", None))
    if material == "?":
        ok, verdict = False, "start not in the EPD file"
    elif dtm is not None:
        ok = result == "1-0" and white_moves <= dtm
        verdict = f"win in {dtm}: {result} after {white_moves} moves"
    else:
        ok = result in ("1-0", "1/2-1/2")
        verdict = f"draw: {result}"
    bad += not ok
    print(f"{'ok ' if ok else 'BAD'} {material:8} {verdict:34} {fen}")
print(f"{len(games) - bad} of {len(games)} as the tables say")
