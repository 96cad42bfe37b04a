#!/usr/bin/env python3
"""Generate perft reference data for Locust: tests/data/perft/<variant>.perft.

Numbers come from Fairy-Stockfish 11.1 (Debian, /usr/games/fairy-stockfish, `go perft N`) run in a
subprocess. Variants that FSF 11.1 does not have (atomic, berolina, spartan) are counted by pyffish
recursion (legal_moves + get_fen, bulk counting at the last ply). Every entry is cross-checked at a
low depth by pyffish recursion; atomic and crazyhouse are also cross-checked with python-chess.

Usage:  python3 tools/perft-data/gen.py [--variant V ...] [--no-deep] [--with-chess7]
See docs/perft-data.md for the file format.
"""
import argparse
import os
import random
import re
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyffish as sf  # noqa: E402

import fsf  # noqa: E402
from positions import HAND, TABLE, DEEP, VARIANTS  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "data", "perft")

START_LIMIT = 3_500_000   # last depth of the fast start-position group
MID_LIMIT = 500_000       # last depth of the fast mid-game groups
MID_MIN = 1_000           # aim: last fast depth has at least this many nodes
PY_CALL_LIMIT = 15_000    # max interior nodes for a pyffish-recursion count
XCHECK_LEAVES = 12_000    # pyffish cross-check at the largest depth with at most this many nodes

ENGINE = None


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- counting backends

def backend(variant):
    return "fsf" if variant in ENGINE.variants else "pyffish"


def source_name(variant):
    return ("fsf-11.1 go perft" if backend(variant) == "fsf"
            else "pyffish %s recursion (variant not in FSF 11.1)" % ".".join(map(str, sf.version())))


def count(variant, fen, depth):
    if backend(variant) == "fsf":
        return ENGINE.perft(variant, fen, depth)
    return fsf.py_perft(sf, variant, fen, depth)


def canonical_fen(variant, fen):
    return sf.get_fen(variant, fen, [])


def series(variant, fen, limit, max_depth=12, min_nodes=MID_MIN, want=None):
    """perft 1..d with the last value <= limit (stops early if the prediction exceeds limit)."""
    res = []
    prev = 1
    for d in range(1, max_depth + 1):
        if res:
            last = res[-1][1]
            if last == 0:
                break
            bf = last / max(prev, 1)
            predicted = last * max(bf, 1)
            slack = 3 if backend(variant) == "fsf" else 1
            if predicted > limit * slack and (want is None or d > want):
                break
            if backend(variant) == "pyffish" and last > PY_CALL_LIMIT and (want is None or d > want):
                break
            prev = last
        n = count(variant, fen, d)
        if n > limit and (want is None or d > want):
            break
        res.append((d, n))
    return res


# ---------------------------------------------------------------- board helpers

SQ = re.compile(r"^(?:([A-Za-z+]+)@|([a-l])(\d+))([a-l])(\d+)(.*)$")


def parse_move(m):
    x = SQ.match(m)
    if not x:
        return None
    drop, ff, fr, tf, tr, suf = x.groups()
    frm = None if drop else (ord(ff) - 97, int(fr) - 1)
    return drop, frm, (ord(tf) - 97, int(tr) - 1), suf


def parse_board(fen):
    """-> (board dict (file, rank)->piece string, nfiles, nranks, holdings, fields)."""
    fields = fen.split()
    b = fields[0]
    hold = ""
    if "[" in b:
        b, hold = b.split("[", 1)
        hold = hold.rstrip("]")
    rows = b.split("/")
    nr = len(rows)
    board = {}
    nf = 0
    for i, row in enumerate(rows):
        r = nr - 1 - i
        f = 0
        j = 0
        while j < len(row):
            c = row[j]
            if c.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                f += int(row[j:k])
                j = k
                continue
            if c == "*":
                f += 1
                j += 1
                continue
            p = ""
            if c == "+":
                p = "+"
                j += 1
                c = row[j]
            p += c
            j += 1
            if j < len(row) and row[j] == "~":
                p += "~"
                j += 1
            board[(f, r)] = p
            f += 1
        nf = max(nf, f)
    return board, nf, nr, hold, fields


def side(fen):
    return fen.split()[1]


def own(p, stm):
    c = p.lstrip("+")[0]
    return c.isupper() == (stm == "w")


def kings(board, variant):
    kl = "k"
    if variant == "knightmate":
        kl = "k"
    return [sq for sq, p in board.items() if p.lower() == kl]


# ---------------------------------------------------------------- special-rule features

def features(variant, fen, lm):
    board, nf, nr, hold, fields = parse_board(fen)
    stm = side(fen)
    feats = set()
    if not lm:
        return feats
    if sf.gives_check(variant, fen, []):
        feats.add("check")
    ks = [sq for sq, p in board.items() if p in ("K", "k")]
    my_k = [sq for sq in ks if own(board[sq], stm)]
    their_k = [sq for sq in ks if not own(board[sq], stm)]
    bases = set()
    pm = [parse_move(m) for m in lm]
    for m, x in zip(lm, pm):
        if x is None:
            feats.add("odd-move-notation")
            continue
        drop, frm, to, suf = x
        if drop:
            feats.add("drop")
            if drop.upper() == "P":
                feats.add("pawn-drop")
            continue
        piece = board.get(frm, "?")
        tgt = board.get(to)
        if frm == to:
            feats.add("pass")
        if tgt is not None and not own(tgt, stm):
            feats.add("capture")
            if piece.lower() == "c" and variant in ("xiangqi", "janggi"):
                feats.add("cannon-capture")
            if variant == "atomic":
                for k in ks:
                    if max(abs(k[0] - to[0]), abs(k[1] - to[1])) == 1:
                        feats.add("explosion-next-to-king")
        if suf == "+":
            feats.add("shogi-promotion")
            bases.add(m[:-1])
        elif suf and suf.isalpha():
            feats.add("promotion")
            if suf.lower() not in "qm" or (variant in ("capablanca", "gothic", "embassy", "grand")
                                          and suf.lower() != "q"):
                feats.add("underpromotion")
        if piece in ("K", "k") and variant not in ("xiangqi", "janggi", "shogi", "minishogi"):
            if tgt is not None and own(tgt, stm) or abs(frm[0] - to[0]) >= 2:
                feats.add("castling")
        if piece in ("K", "k") and variant in ("knightmate",) and abs(frm[0] - to[0]) >= 2 \
                and frm[1] == to[1]:
            feats.add("castling")
        if variant == "janggi" and frm[0] != to[0] and frm[1] != to[1] and \
                piece.lower() in ("r", "c", "p") and abs(frm[0] - to[0]) == abs(frm[1] - to[1]):
            feats.add("palace-diagonal")
    if "shogi-promotion" in feats:
        plain = set(lm)
        if any(b in plain for b in bases):
            feats.add("optional-promotion")
        if any(b not in plain for b in bases):
            feats.add("forced-promotion")
    ep = fields[3] if len(fields) > 3 and variant not in ("shogi", "minishogi") else "-"
    if ep != "-":
        feats.add("ep-field")
        epsq = parse_move(ep[:2] + ep[:2]) if not ep[1:].isdigit() or len(ep) <= 3 else None
        target = ep[:2] if ep[2:3].isalpha() else ep
        tx = parse_move(target + target)
        if tx:
            for x in pm:
                if x and x[1] and x[2] == tx[2] and board.get(x[1], "?").lower() in ("p", "h"):
                    feats.add("en-passant")
    if variant in ("shogi", "minishogi", "crazyhouse"):
        mine = hold.upper() if stm == "w" else hold.lower()
        if variant != "crazyhouse" and "P" in [c for c in hold if c.isupper() == (stm == "w")
                                               for c in [c.upper()]]:
            pawn = "P" if stm == "w" else "p"
            if any(p == pawn for p in board.values()):
                feats.add("nifu-restricted")
        del mine
    if variant in ("xiangqi", "janggi") and len(ks) == 2 and ks[0][0] == ks[1][0]:
        lo, hi = sorted(k[1] for k in ks)
        between = sum(1 for r in range(lo + 1, hi) if (ks[0][0], r) in board)
        feats.add("kings-facing" if between == 0 else ("flying-general-pin" if between == 1
                                                        else "kings-same-file"))
    if variant in ("xiangqi", "janggi"):
        for sq, p in board.items():
            if not own(p, stm):
                continue
            if p.lower() == "n":
                for d in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    leg = (sq[0] + d[0], sq[1] + d[1])
                    if leg in board:
                        feats.add("horse-leg-blocked")
            if p.lower() == "b" and variant == "xiangqi":
                for d in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
                    eye = (sq[0] + d[0], sq[1] + d[1])
                    if eye in board:
                        feats.add("elephant-eye-blocked")
    if variant == "atomic" and len(ks) == 2 and max(abs(ks[0][0] - ks[1][0]),
                                                    abs(ks[0][1] - ks[1][1])) == 1:
        feats.add("kings-adjacent")
    if variant == "spartan" and sum(1 for p in board.values() if p == "k") == 2:
        feats.add("two-kings")
    if any(p.endswith("~") for p in board.values()):
        feats.add("promoted-piece-on-board")
    del my_k, their_k
    return feats


# rules we try to find in random games, per variant (first match wins; order = priority)
WANT = {
    "chess": ["en-passant", "castling", "underpromotion", "check"],
    "fischerandom": ["castling", "en-passant", "promotion", "check"],
    "crazyhouse": ["pawn-drop", "promoted-piece-on-board", "check", "promotion", "castling"],
    "atomic": ["explosion-next-to-king", "kings-adjacent", "en-passant", "check", "castling"],
    "berolina": ["en-passant", "promotion", "castling", "check"],
    "knightmate": ["castling", "promotion", "check", "en-passant"],
    "spartan": ["two-kings", "check", "promotion", "castling"],
    "shatranj": ["promotion", "check", "capture"],
    "makruk": ["promotion", "check", "capture"],
    "courier": ["promotion", "check", "capture"],
    "capablanca": ["castling", "promotion", "en-passant", "check"],
    "gothic": ["castling", "promotion", "en-passant", "check"],
    "embassy": ["castling", "promotion", "en-passant", "check"],
    "grand": ["promotion", "en-passant", "check", "capture"],
    "xiangqi": ["flying-general-pin", "cannon-capture", "elephant-eye-blocked", "horse-leg-blocked",
                "check"],
    "janggi": ["palace-diagonal", "kings-facing", "flying-general-pin", "cannon-capture", "check",
               "horse-leg-blocked"],
    "shogi": ["nifu-restricted", "forced-promotion", "optional-promotion", "check", "drop"],
    "minishogi": ["nifu-restricted", "forced-promotion", "optional-promotion", "check", "drop"],
}


def random_positions(variant, seed, want, games=60, max_ply=140):
    """Play biased random games with pyffish; return {feature: (fen, moves-from-start)}."""
    rng = random.Random(seed)
    found = {}
    start = sf.start_fen(variant)
    for g in range(games):
        fen = start
        hist = []
        for ply in range(max_ply):
            lm = sf.legal_moves(variant, fen, [])
            if not lm:
                break
            if ply >= 10:
                fs = features(variant, fen, lm)
                for f in want:
                    if f in fs and f not in found:
                        found[f] = (fen, list(hist), sorted(fs))
            if len(found) == len(want):
                return found
            # bias: prefer promotions, captures, pawn pushes
            pm = [(m, parse_move(m)) for m in lm]
            board = parse_board(fen)[0]
            r = rng.random()
            pick = None
            promos = [m for m, x in pm if x and x[3]]
            caps = [m for m, x in pm if x and not x[0] and x[2] in board]
            pawns = [m for m, x in pm if x and x[1] and board.get(x[1], "").lower() in ("p", "h")]
            if promos and r < 0.5:
                pick = rng.choice(promos)
            elif caps and r < 0.45:
                pick = rng.choice(caps)
            elif pawns and r < 0.7:
                pick = rng.choice(pawns)
            else:
                pick = rng.choice(lm)
            hist.append(pick)
            fen = sf.get_fen(variant, fen, [pick])
    return found


# ---------------------------------------------------------------- cross-checks

def pychess_board(variant, fen):
    import chess
    import chess.variant
    if variant == "atomic":
        return chess.variant.AtomicBoard(fen)
    if variant == "crazyhouse":
        return chess.variant.CrazyhouseBoard(fen)
    if variant == "chess":
        return chess.Board(fen)
    return None


def pychess_perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in list(board.legal_moves):
        board.push(m)
        n += pychess_perft(board, depth - 1)
        board.pop()
    return n


def crosscheck(variant, fen, ser):
    """Return comment lines for an entry (pyffish recursion at a low depth)."""
    lines = []
    cand = [(d, n) for d, n in ser if n <= XCHECK_LEAVES]
    if backend(variant) == "fsf" and cand:
        d, n = cand[-1]
        t = time.time()
        if variant == "janggi":
            p = fsf.py_perft_hist(sf, variant, fen, d)
        else:
            p = fsf.py_perft(sf, variant, fen, d)
        verdict = "agrees" if p == n else "DISAGREES (pyffish %d)" % p
        lines.append("# cross-check: pyffish %s recursion%s perft %d = %d, %s"
                     % (".".join(map(str, sf.version())),
                        " (with move history)" if variant == "janggi" else "", d, p, verdict))
        if p != n:
            log("  !! pyffish disagrees", variant, fen, d, n, p)
        del t
    return lines


def strict_perft(variant, fen, depth):
    """pyffish perft that drops pawn-drop mates (shogi rule uchifuzume) from the move lists."""
    n = 0
    for m in sf.legal_moves(variant, fen, []):
        if m.startswith("P@") and sf.gives_check(variant, fen, [m]) and \
                not sf.legal_moves(variant, fen, [m]):
            continue
        n += 1 if depth == 1 else strict_perft(variant, sf.get_fen(variant, fen, [m]), depth - 1)
    return n


# ---------------------------------------------------------------- output

class Entry:
    def __init__(self, id, fen, perfts, sources, notes, comments=()):
        self.id, self.fen, self.perfts, self.sources, self.notes = id, fen, perfts, sources, notes
        self.comments = list(comments)

    def text(self):
        out = list(self.comments)
        out.append("id " + self.id)
        out.append("fen " + self.fen)
        out += ["perft %d %d" % dn for dn in self.perfts]
        out += ["source " + s for s in self.sources]
        out += ["note " + n for n in self.notes]
        return "\n".join(out) + "\n"


def fen_comments(variant, fen, input_fen=None):
    c = []
    if input_fen and input_fen != fen:
        c.append("# input fen (as published/written by hand): " + input_fen)
    if backend(variant) == "fsf":
        e = ENGINE.fen(variant, fen)
        if e != fen:
            c.append("# fsf-11.1 `d` writes: " + e)
    return c


def make_entries(variant, id, fen_in, note, limit, extra_sources=(), want=None, expect=None,
                 deep=(), skip_fast=False):
    """One fast entry (+ optional deep entry) for a position. expect: {depth: nodes} to check."""
    fen = canonical_fen(variant, fen_in)
    out = []
    t = time.time()
    ser = series(variant, fen, limit, want=None)
    srcs = [source_name(variant)] + list(extra_sources)
    comments = fen_comments(variant, fen, fen_in)
    deep_ser = []
    need = set(deep)
    if expect:
        need |= {d for d in expect if d not in dict(ser)}
    if need:
        need |= set(range(len(ser) + 1, max(need) + 1))
    for d in sorted(need):
        if d in dict(ser):
            continue
        log("   deep", variant, id, d)
        td = time.time()
        deep_ser.append((d, count(variant, fen, d)))
        log("     ->", deep_ser[-1][1], "%.1fs" % (time.time() - td))
    allv = dict(ser)
    allv.update(deep_ser)
    if expect:
        for d, n in sorted(expect.items()):
            got = allv.get(d)
            if got != n:
                comments.append("# DISAGREEMENT: published perft %d = %d, %s gives %s"
                                % (d, n, source_name(variant), got))
                log("  !! DISAGREEMENT", variant, id, d, n, got)
            else:
                comments.append("# published perft %d = %d reproduced" % (d, n))
    comments += crosscheck(variant, fen, ser)
    if variant in ("atomic", "crazyhouse"):
        b = pychess_board(variant, fen)
        cand = [(d, n) for d, n in ser if n <= 50_000]
        if b is not None and cand:
            d, n = cand[-1]
            p = pychess_perft(b, d)
            comments.append("# cross-check: python-chess perft %d = %d, %s"
                            % (d, p, "agrees" if p == n else "DISAGREES"))
            if p != n:
                log("  !! python-chess disagrees", variant, id, d, n, p)
    notes = [note]
    if variant == "janggi":
        notes.append("FSF counts pass moves (king to its own square); a pass right after a pass, or "
                     "a pass while the kings face each other, ends the game (0 replies), so counts "
                     "depend on move history inside the tree; the root has no previous pass")
    if variant in ("shogi", "minishogi") and "pawn-drop-mate" in id:
        strict = [(d, strict_perft(variant, fen, d)) for d, n in ser if n <= 20_000]
        notes.append("strict-rule counts (pawn-drop mate illegal; pyffish recursion): " +
                     ", ".join("perft %d = %d" % dn for dn in strict))
    if not skip_fast:
        out.append(Entry(id, fen, ser, srcs, notes, comments))
    if deep_ser:
        out.append(Entry(id + "-deep", fen, deep_ser, srcs, [note + " (deep benchmark depths)"],
                         ["# deep"] + (comments if skip_fast else [])))
    log("  %-14s %-28s %s %.1fs" % (variant, id, ser + deep_ser, time.time() - t))
    return out


def gen_variant(variant, args):
    log("==", variant)
    entries = []
    start = sf.start_fen(variant)
    # (a) start position
    exp = {}
    srcs = []
    for row in TABLE.get(variant, []):
        if row[0] == "startpos":
            exp.update(row[2])
            srcs.append(row[1])
    deep = [] if args.no_deep else [d for d in DEEP.get(variant, []) if d != 7 or args.with_chess7]
    entries += make_entries(variant, "startpos", start, "start position", START_LIMIT,
                            extra_sources=["agrees with " + s for s in srcs], expect=exp,
                            deep=deep)
    if variant == "chess" and not args.with_chess7:
        entries.append(Entry("startpos-deep7", canonical_fen(variant, start),
                             [(7, 3195901860)], ["peers.md table (not re-run by default; "
                                                 "gen.py --with-chess7 runs it, ~5 min)"],
                             ["start position, depth 7, benchmark only"], ["# deep"]))
    if start != canonical_fen(variant, start):
        entries += make_entries(variant, "startpos-literal", start,
                                "start position written as in FSF's variant.cpp startFen "
                                "(parser must accept this form too)", 30_000)
        entries[-1].fen = start
    # (b) published table rows (non-start)
    for row in TABLE.get(variant, []):
        if row[0] == "startpos":
            continue
        id, src, exp, fen, note = row
        maxd = max(exp)
        entries += make_entries(variant, id, fen, note, MID_LIMIT * 7 if maxd > 2 else MID_LIMIT,
                                extra_sources=["agrees with " + src], expect=exp)
    # (c) hand-made positions
    for id, fen, note in HAND.get(variant, []):
        entries += make_entries(variant, id, fen, note, MID_LIMIT)
    # (c) random-game positions
    found = random_positions(variant, zlib.crc32(variant.encode()), WANT[variant])
    seen = set()
    for f in WANT[variant]:
        if f not in found:
            log("  (no random position with", f, ")")
            continue
        fen, hist, fs = found[f]
        if fen in seen:
            continue
        seen.add(fen)
        note = "random game (pyffish, seeded), ply %d; exercises %s; features: %s" % (
            len(hist), f, " ".join(fs))
        es = make_entries(variant, "rand-" + f, fen, note, MID_LIMIT)
        es[0].comments.insert(0, "# moves from start: " + " ".join(hist))
        entries += es
    return entries


HEADER = """# Perft reference data for {v} (Locust). Generated by tools/perft-data/gen.py; do not edit by hand.
# Format: docs/perft-data.md. Counter: {src}. Bulk counting at the last ply (leaf nodes).
# Entries whose id ends in -deep (marked "# deep") are benchmark depths, too slow for debug tests.
"""


def main():
    global ENGINE
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", action="append")
    ap.add_argument("--no-deep", action="store_true")
    ap.add_argument("--with-chess7", action="store_true")
    args = ap.parse_args()
    ENGINE = fsf.Engine()
    log(ENGINE.name, "pyffish", sf.version())
    os.makedirs(OUT, exist_ok=True)
    for v in args.variant or VARIANTS:
        t = time.time()
        es = gen_variant(v, args)
        ids = [e.id for e in es]
        assert len(ids) == len(set(ids)), ids
        # blank line between entries
        with open(os.path.join(OUT, v + ".perft"), "w") as fh:
            fh.write(HEADER.format(v=v, src=source_name(v)))
            for e in es:
                fh.write("\n" + e.text())
        log("== %s: %d entries, %.0fs" % (v, len(es), time.time() - t))
    ENGINE.quit()


if __name__ == "__main__":
    main()
