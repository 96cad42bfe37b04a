#!/usr/bin/env python3
"""Starts a match between two named entries of engines.ini in a named variant.

usage: tools/ini-match.py [--dry-run] [--gui] xboard|cutechess ENTRY1 ENTRY2 VARIANT [GAMES] [TC]

  xboard     entries of the [xboard] section, by their quoted name ("Locust", "Fairy-Max");
             XBoard runs in match mode, under xvfb-run with -noGUI unless --gui is given
             (--gui needs a display). TC is XBoard's MINUTES:SECONDS+INC, default 0:10+0.1.
  cutechess  entries of the [cutechess-cli] section, by key (locust, fairymax, fsf);
             cutechess-cli is $CUTECHESS, /opt/peers/cutechess-cli or on PATH.
             TC is cutechess's, default 10+0.1.
  GAMES      default 2 (both colours).

XBoard matches start from the variant's start position, or with OPENINGS=FILE (a PGN of
opening lines, such as tools/locust-openings.py writes) each line is played twice, colours
reversed, from the OPENINGS_FROM-th line on (default 1; give two streams different ones).

`/path/to/locust` in engines.ini stands for this checkout. The PGN, XBoard's debug log or
cutechess-cli's output go to $OUT (default /tmp/locust-matches); the script prints the
result lines and exits 1 when a game ended by forfeit (illegal move, crash, disconnect).
--dry-run prints the command instead of running it.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from textfile import read_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INI = os.path.join(ROOT, "engines.ini")


def read_sections():
    """engines.ini as {section: [non-comment lines]} (the [xboard] section is a list of engine
    lines, not key = value pairs, so configparser is used only for the cutechess one)."""
    sections, current = {}, None
    with open(INI, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith(";"):
                continue
            m = re.fullmatch(r"\[(.+)\]", line)
            if m:
                current = m.group(1)
                sections[current] = []
            elif current:
                sections[current].append(line.replace("/path/to/locust", ROOT))
    return sections


def xboard_entries(sections):
    """{name: [args]} from the [xboard] engine-list lines."""
    out = {}
    for line in sections.get("xboard", []):
        words = shlex.split(line)
        if words:
            out[words[0]] = words[1:]
    return out


def cutechess_entries(sections):
    """{key: [-engine args]} from the [cutechess-cli] section's `key = -engine ...` lines."""
    out = {}
    for line in sections.get("cutechess-cli", []):
        key, eq, value = line.partition("=")
        if eq:
            words = shlex.split(value)
            out[key.strip()] = words
    return out


def find(entries, name, section):
    for key, value in entries.items():
        if key.lower() == name.lower():
            return key, value
    sys.exit(f"engines.ini [{section}] has no entry {name!r}; it has: {', '.join(entries)}")


def as_second(args):
    """An engine-list line's first-engine options turned into second-engine ones."""
    out, skip = [], False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a == "-variant":  # the match's variant decides
            skip = True
            continue
        if a.startswith("-first"):  # -firstOptions, -firstLogo, ...
            out.append("-second" + a[6:])
        else:
            out.append("-s" + a[2:] if a.startswith("-f") else a)
    return out


def without_variant(args):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == "-variant":
            skip = True
        else:
            out.append(a)
    return out


def xboard_command(e1, e2, variant, games, tc, gui, stamp, outdir):
    entries = xboard_entries(read_sections())
    _, first = find(entries, e1, "xboard")
    _, second = find(entries, e2, "xboard")
    base, _, inc = tc.partition("+")
    cmd = ["/usr/games/xboard" if os.path.exists("/usr/games/xboard") else "xboard"]
    cmd += without_variant(first) + as_second(second)
    settings = os.path.join(outdir, stamp + ".xboardrc")
    cmd += ["-settingsFile", settings, "-saveSettingsFile", settings, "-saveSettingsOnExit", "false",
            "-variant", variant, "-matchMode", "true", "-matchGames", str(games),
            "-tc", base, "-inc", inc or "0", "-mps", "0",
            "-xponder", "-popupExitMessage", "false", "-autoCallFlag", "true",
            "-saveGameFile", os.path.join(outdir, stamp + ".pgn"),
            "-debug", "-nameOfDebugFile", os.path.join(outdir, stamp + ".debug")]
    openings = os.environ.get("OPENINGS")
    if openings:
        lines = opening_lines(openings, int(os.environ.get("OPENINGS_FROM", "1")))
        path = os.path.join(outdir, stamp + "-openings.pgn")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        # Each line twice, colours reversed; back to the first after the last.
        cmd += ["-loadGameFile", path, "-loadGameIndex", "-2", "-rewindIndex", str(len(lines))]
    if "-testLegality" not in first + second:  # an entry may turn it off (tenjiku)
        cmd += ["-testLegality", "true"]
    if not gui:
        cmd = ["xvfb-run", "-a"] + cmd + ["-noGUI"]
    return cmd


def opening_lines(path, first):
    """The games of a PGN file from the `first`-th on (1-based), as texts."""
    text = read_text(path)
    games = [g.strip() + "\n" for g in re.split(r"^(?=\[Event )", text, flags=re.M) if g.strip()]
    if not 1 <= first <= len(games):
        sys.exit(f"{path}: {len(games)} openings, none numbered {first}")
    return games[first - 1:]


def cutechess_command(e1, e2, variant, games, tc, stamp, outdir):
    entries = cutechess_entries(read_sections())
    _, first = find(entries, e1, "cutechess-cli")
    _, second = find(entries, e2, "cutechess-cli")
    cc = os.environ.get("CUTECHESS") or (
        "/opt/peers/cutechess-cli" if os.path.exists("/opt/peers/cutechess-cli") else shutil.which("cutechess-cli"))
    if not cc:
        sys.exit("cutechess-cli not found (set CUTECHESS)")
    cmd = [cc, "-variant", variant] + first + second
    cmd += ["-each", f"tc={tc}", "-games", str(games), "-concurrency", "1",
            "-pgnout", os.path.join(outdir, stamp + ".pgn")]
    if games > 1:
        cmd.append("-repeat")
    return cmd


def main():
    args = sys.argv[1:]
    dry = "--dry-run" in args
    gui = "--gui" in args
    args = [a for a in args if a not in ("--dry-run", "--gui")]
    if len(args) < 4 or args[0] not in ("xboard", "cutechess"):
        sys.exit(__doc__)
    tool, e1, e2, variant = args[:4]
    games = int(args[4]) if len(args) > 4 else 2
    outdir = os.environ.get("OUT", "/tmp/locust-matches")
    os.makedirs(outdir, exist_ok=True)
    stamp = f"{variant}-{e1}-{e2}-{time.strftime('%H%M%S')}".replace(" ", "_")
    if tool == "xboard":
        tc = args[5] if len(args) > 5 else "0:10+0.1"
        cmd = xboard_command(e1, e2, variant, games, tc, gui, stamp, outdir)
    else:
        tc = args[5] if len(args) > 5 else "10+0.1"
        cmd = cutechess_command(e1, e2, variant, games, tc, stamp, outdir)
    if dry:
        print(shlex.join(cmd))
        return
    proc = subprocess.run(cmd, cwd=outdir, capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    with open(os.path.join(outdir, stamp + ".log"), "w", encoding="utf-8") as f:
        f.write(log)
    pgn = os.path.join(outdir, stamp + ".pgn")
    text = open(pgn, encoding="utf-8", errors="replace").read() if os.path.exists(pgn) else ""
    if tool == "cutechess":
        ends = [l for l in log.splitlines() if l.startswith(("Finished game", "Score of"))]
    else:
        ends = [l[l.rfind("{"):] for l in text.splitlines() if re.search(r"\} (1-0|0-1|1/2-1/2|\*)$", l)]
    for line in ends:
        print(line)
    results = re.findall(r'\[Result "([^"]*)"\]', text)
    print(f"{len(results)} games: {' '.join(results)}   pgn: {pgn}")
    bad = re.compile(r"forfeit|illegal|disconnect|stall|crash|error writing", re.I)
    if len(results) != games or any(bad.search(l) for l in ends):
        sys.exit(1)


main()
