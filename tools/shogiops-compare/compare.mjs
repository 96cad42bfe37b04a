// Chu Shogi move counts from shogiops (lishogi's rules), converted to Locust's counting.
//
// shogiops lets a side move into check and lists a lion's two-step moves once per path;
// Locust counts a move as (from, to, set of squares whose men it removes, promotion) and
// forbids leaving the side's only remaining royal attacked. `moves()` below does that
// conversion; everything else is shogiops' own rules (its lion-trading and promotion
// rules included).
//
// Usage (install first: `npm install` in this directory):
//   node compare.mjs gen [games] [seed]     print tests/data/perft/chu.perft to stdout
//   node compare.mjs perft FEN DEPTH        converted perft of one Locust FEN
//   node compare.mjs divide FEN             converted moves of one Locust FEN, one a line
//   node compare.mjs diff FEN DEPTH         Locust's divide against shogiops', first difference
//   node compare.mjs random N SEED          N random positions (Locust FENs), one a line
//   node compare.mjs counts N SEED DEPTH    N random positions and their perft, tab-separated

import { parseSfen, makeSfen } from 'shogiops/sfen';
import { secondLionStepDests } from 'shogiops/variant/chushogi';
import { pieceCanPromote } from 'shogiops/variant/util';
import { opposite, squareDist, squareFile, squareRank } from 'shogiops/util';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const VERSION = JSON.parse(
  readFileSync(new URL('./node_modules/shogiops/package.json', import.meta.url)),
).version;

const LIONS = ['lion', 'lionpromoted'];
const LION_POWER = [...LIONS, 'eagle', 'falcon'];
const START = 'lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - - 0 1';

/// Hand-made positions for the lion rules, igui, the lion powers of falcon and eagle,
/// promotion and the second royal; random games also start from them.
const SEEDS = [
  ['protected-lion-bridges', '11k/12/12/12/4p7/4n7/3p1g6/4N7/12/12/12/K11 w - - 0 1'],
  ['unprotected-lion', '11k/12/12/7g4/12/4n7/3p8/4N7/12/12/12/K11 w - - 0 1'],
  ['adjacent-protected-lion', '11k/12/12/12/12/5g6/3i1n6/4N7/12/12/12/K11 w - - 0 1'],
  ['counterstrike', '11k/12/4g7/4n7/12/b11/12/2N9/12/12/7P4/K3R7 w - - 0 1'],
  ['kirin-promotes-on-lion', '11k/12/4g7/4n7/3x8/b3O7/12/2N9/12/12/12/K11 w - - 0 1'],
  ['falcon-eagle', '11k/12/12/12/12/4gp6/4s1c1n3/4+H2+D4/12/12/12/K11 w - - 0 1'],
  ['promotions', '11k/3pP4L2/3G8/5S6/2P1l7/12/1O10/12/12/12/12/K11 w - - 0 1'],
  ['king-and-prince', '11k/12/12/2n9/r11/12/12/12/7b4/1+E10/12/K11 w - - 0 1'],
  ['lion-vs-lion-open', '11k/12/12/3+Dg7/12/5+op5/12/5N6/12/7+H4/12/K11 w - - 0 1'],
];

/// Locust FEN (White = sente moves first) to SFEN and back; the boards are written alike.
function toSfen(fen) {
  const [board, side] = fen.split(' ');
  return `${board} ${side === 'w' ? 'b' : 'w'} - 1`;
}
function toFen(pos) {
  const [board, turn, strike] = makeSfen(pos).split(' ');
  return { fen: `${board} ${turn === 'b' ? 'w' : 'b'} - - 0 1`, strike: strike !== '-' };
}
function position(fen) {
  return parseSfen('chushogi', toSfen(fen), false).unwrap();
}

/// Locust's square name of a shogiops square (file 0 is the right-hand file "1").
function name(sq) {
  return String.fromCharCode(97 + 11 - squareFile(sq)) + (12 - squareRank(sq));
}

/// True when `color` has exactly one royal left and the other side attacks it.
function lastRoyalAttacked(pos, color) {
  const royals = pos.kingsOf(color);
  if (royals.size() !== 1) return false;
  const sq = royals.singleSquare();
  return pos.squareAttackers(sq, opposite(color), pos.board.occupied).nonEmpty();
}

/// Every move of the side to move, converted: one per (from, to, removed set, promotion),
/// legal by Locust's royal rule. Each entry: { key, move, child, text }.
export function moves(pos) {
  if (pos.kingsOf('sente').isEmpty() || pos.kingsOf('gote').isEmpty()) return [];
  const us = pos.turn;
  const out = new Map();
  const add = (move) => {
    const removed = [move.midStep, move.to]
      .filter((s) => s !== undefined && s !== move.from)
      .filter((s) => pos.board.get(s)?.color === opposite(us))
      .map(name)
      .sort();
    const key = `${name(move.from)}-${name(move.to)}${removed.length ? 'x' + [...new Set(removed)].join('x') : ''}${move.promotion ? '+' : ''}`;
    if (out.has(key)) return;
    const child = pos.clone();
    child.play(move);
    const theirsGone = child.kingsOf(opposite(us)).isEmpty();
    if (!theirsGone && lastRoyalAttacked(child, us)) return;
    out.set(key, { key, move, child });
  };
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      const promote = pieceCanPromote('chushogi')(piece, from, to, pos.board.get(to));
      add({ from, to, promotion: false });
      if (promote) add({ from, to, promotion: true });
      if (LION_POWER.includes(piece.role)) {
        for (const end of secondLionStepDests(pos, from, to)) add({ from, to: end, midStep: to });
      }
    }
  }
  return [...out.values()];
}

export function perft(pos, depth) {
  if (depth === 0) return 1;
  const list = moves(pos);
  if (depth === 1) return list.length;
  return list.reduce((n, m) => n + perft(m.child, depth - 1), 0);
}

/// A small deterministic generator (mulberry32).
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/// What a position exercises, for the notes of the data file.
function features(pos, list) {
  const f = new Set();
  for (const { move, key } of list) {
    const role = pos.board.get(move.from).role;
    if (move.midStep !== undefined && move.to === move.from && key.includes('x')) f.add('igui');
    if (move.promotion) f.add('promotion');
    if ((key.match(/x/g) || []).length === 2) f.add('double-capture');
    const victim = pos.board.get(move.to);
    if (victim && victim.color !== pos.turn && LIONS.includes(victim.role)) {
      f.add(LIONS.includes(role) ? 'lion-takes-lion' : 'lion-taken');
      if (move.midStep === undefined && !LIONS.includes(role)) {
        const child = list.find((m) => m.move === move).child;
        if (child.lastLionCapture !== undefined) f.add('counterstrike-next');
      }
    }
  }
  // A lion two squares from an enemy lion that it may not take (protected-lion rule).
  const lions = (color) => [...pos.board.color(color).intersect(pos.board.roles(...LIONS))];
  for (const a of lions(pos.turn)) {
    for (const b of lions(opposite(pos.turn))) {
      const taken = list.some(({ move }) => move.from === a && move.to === b);
      if (squareDist(a, b) === 2 && !taken) f.add('protected-lion-refused');
    }
  }
  return f;
}

/// The lion moves that end nearest an enemy lion (so that lions meet and trade).
function closest(pos, lionMoves) {
  const theirs = [...pos.board.color(opposite(pos.turn)).intersect(pos.board.roles(...LIONS))];
  if (!theirs.length) return lionMoves;
  const dist = (m) => Math.min(...theirs.map((t) => squareDist(m.move.to, t)));
  const best = Math.min(...lionMoves.map(dist));
  return lionMoves.filter((m) => dist(m) === best);
}

/// Random games, captures (and among them lion captures) preferred so that trades, igui and
/// promotions come up; positions whose counterstrike square is set are left out (a Locust
/// FEN cannot say it), their parents cover the rule at depth 2.
function randomPositions(count, seed) {
  const rand = rng(seed);
  const picked = [];
  const restart = () => {
    const i = Math.floor(rand() * (SEEDS.length + 1));
    return position(i < SEEDS.length ? SEEDS[i][1] : START);
  };
  let pos = restart();
  let ply = 0;
  while (picked.length < count) {
    const list = moves(pos);
    if (list.length === 0 || ply > 300) {
      pos = restart();
      ply = 0;
      continue;
    }
    const { fen, strike } = toFen(pos);
    // Positions that exercise the lion rules or igui are kept far more often.
    const lionish = [...features(pos, list)].some((f) => f !== 'promotion');
    if (ply >= 2 && !strike && rand() < (lionish ? 0.9 : 0.15)) picked.push({ fen, pos, list, ply });
    const captures = list.filter((m) => m.key.includes('x'));
    const lionMoves = list.filter((m) => LIONS.includes(pos.board.get(m.move.from).role));
    const lionHits = captures.filter((m) =>
      [m.move.to, m.move.midStep].some((s) => s !== undefined && LIONS.includes(pos.board.get(s)?.role)),
    );
    const r = rand();
    let pool = list;
    if (lionHits.length && r < 0.5) pool = lionHits;
    else if (captures.length && r < 0.4) pool = captures;
    else if (lionMoves.length && r < 0.85) pool = lionMoves;
    if (pool === lionMoves && rand() < 0.6) pool = closest(pos, lionMoves);
    pos = pool[Math.floor(rand() * pool.length)].child;
    ply += 1;
  }
  return picked;
}

function gen(games, seed) {
  const rows = randomPositions(games, seed);
  const lines = [
    '# Perft reference data for chu (Locust). Generated by tools/shogiops-compare/compare.mjs; do not edit by hand.',
    `# Command: node tools/shogiops-compare/compare.mjs gen ${games} ${seed} > tests/data/perft/chu.perft   (shogiops ${VERSION})`,
    '# Counter: shogiops (lishogi rules) converted to Locust counting: one move per (from, to, removed',
    "# squares, promotion); moves leaving the side's only remaining royal attacked are dropped.",
    '',
    'id startpos',
    `fen ${START}`,
  ];
  const start = position(START);
  for (const d of [1, 2, 3]) lines.push(`perft ${d} ${perft(start, d)}`);
  lines.push('source shogiops converted (tools/shogiops-compare/compare.mjs)', '');
  for (const [id, fen] of SEEDS) {
    const pos = position(fen);
    const f = [...features(pos, moves(pos))];
    lines.push(`id ${id}`, `fen ${fen}`);
    for (const d of [1, 2, 3]) lines.push(`perft ${d} ${perft(pos, d)}`);
    lines.push('source shogiops converted (tools/shogiops-compare/compare.mjs)');
    lines.push(`note hand-made${f.length ? '; ' + f.join(', ') : ''}`, '');
  }
  const tally = {};
  rows.forEach((r, i) => {
    const f = [...features(r.pos, r.list)];
    f.forEach((x) => (tally[x] = (tally[x] || 0) + 1));
    lines.push(`id random-${i}`, `fen ${r.fen}`, `perft 1 ${r.list.length}`);
    if (i % 5 === 0) lines.push(`perft 2 ${perft(r.pos, 2)}`);
    lines.push('source shogiops converted (tools/shogiops-compare/compare.mjs)');
    lines.push(`note ply ${r.ply} of a random game (from the start or a hand-made position)${f.length ? '; ' + f.join(', ') : ''}`, '');
  });
  lines.splice(4, 0, `# Features among the ${rows.length} random positions: ${JSON.stringify(tally)}`);
  console.log(lines.join('\n'));
}

/// The shogiops square of a Locust square name.
function square(text) {
  return (11 - (text.charCodeAt(0) - 97)) + 16 * (12 - Number(text.slice(1)));
}

/// Locust's divide at `depth` (`perft --divide`), each move text turned into a key.
function locustDivide(binary, fen, depth, pos) {
  const out = execFileSync(binary, ['perft', 'chu', String(depth), '--fen', fen, '--divide']);
  const counts = new Map();
  for (const line of out.toString().split('\n')) {
    const m = line.match(/^([a-l0-9,]+?)([a-z+]?): (\d+)$/);
    if (!m) continue;
    const squares = m[1].match(/[a-l]\d+/g);
    const from = square(squares[0]), to = square(squares[squares.length - 1]);
    const removed = squares
      .slice(1)
      .map(square)
      .filter((s) => s !== from && pos.board.get(s)?.color === opposite(pos.turn))
      .map(name)
      .sort();
    const uniq = [...new Set(removed)];
    const key = `${name(from)}-${name(to)}${uniq.length ? 'x' + uniq.join('x') : ''}${m[2] ? '+' : ''}`;
    counts.set(key, Number(m[3]));
  }
  return counts;
}

/// Compares Locust's divide with the converted shogiops counts, descending into the first
/// differing move; prints the path to the first position whose move lists differ.
function diff(binary, fen, depth) {
  const pos = position(fen);
  const ours = locustDivide(binary, fen, depth, pos);
  const theirs = new Map(moves(pos).map((m) => [m.key, m]));
  for (const key of new Set([...ours.keys(), ...theirs.keys()])) {
    const them = theirs.get(key);
    const n = them ? perft(them.child, depth - 1) : undefined;
    if (ours.get(key) === n) continue;
    console.log(`${fen}: ${key} locust ${ours.get(key)} shogiops ${n}`);
    if (ours.has(key) && them && depth > 1) return diff(binary, toFen(them.child).fen, depth - 1);
    return false;
  }
  return true;
}

const [cmd, a, b] = process.argv.slice(2);
if (cmd === 'gen') gen(Number(a || 160), Number(b || 1));
else if (cmd === 'perft') console.log(perft(position(a), Number(b)));
else if (cmd === 'diff') {
  const binary = new URL('../../target/release/locust', import.meta.url).pathname;
  process.exit(diff(process.env.LOCUST || binary, a, Number(b)) ? 0 : 1);
} else if (cmd === 'divide') moves(position(a)).forEach((m) => console.log(m.key));
else if (cmd === 'random') randomPositions(Number(a), Number(b)).forEach((r) => console.log(r.fen));
else if (cmd === 'counts') {
  const depth = Number(process.argv[5] || 1);
  for (const r of randomPositions(Number(a), Number(b))) console.log(`${r.fen}\t${perft(r.pos, depth)}`);
}
else {
  console.error('usage: compare.mjs gen [games] [seed] | perft FEN DEPTH | divide FEN | diff FEN DEPTH | random N SEED | counts N SEED DEPTH');
  process.exit(2);
}
