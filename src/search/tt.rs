//! The transposition table: a lock-free table of 16-byte entries shared by every search thread
//! (key xor data checked on read, so a torn entry is a miss), sized in MB, with aging. An
//! entry also keeps the node's static evaluation, which a later visit need not compute.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::board::compact::CompactMove;
use crate::board::moves::{Move, MoveKind};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least the score (a fail high).
    Lower,
    /// At most the score (a fail low).
    Upper,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// Signature of the best move (see [`move_sig`]); 0 for none.
    pub sig: u32,
    /// Score, rebased to the probing node by the caller.
    pub score: i32,
    /// Draft searched.
    pub depth: i32,
    /// Bound of the score.
    pub bound: Bound,
    /// The position's static evaluation, when the storing node had one (not in check).
    pub eval: Option<i32>,
}

/// A move's 32-bit signature: its compact code ([`CompactMove`]) with the extra-square byte
/// flipped, so that no move has signature 0 (a code never holds an extra square without its
/// flag). The search uses a stored signature only when it equals that of a move the node
/// generated itself, and tests that move's legality before making it: the checks of
/// [`crate::board::position::Position::decode_move`] without a second generation. A move
/// whose piece type does not fit the code has signature 0 (never stored, never matched).
pub fn move_sig(m: &Move) -> u32 {
    CompactMove::encode(m).map_or(0, |c| c.0 ^ SIG_FLIP)
}

/// True when `m`'s signature is `sig` (never for 0), without encoding `m` when its ends
/// already differ: a compact code keeps `from | to << 8` in its low 16 bits, which the flip
/// leaves alone (only the pass's own code does not, and a pass is always encoded).
#[inline]
pub fn sig_matches(m: &Move, sig: u32) -> bool {
    let ends = u32::from(m.from) | u32::from(m.to) << 8;
    sig != 0 && (m.kind == MoveKind::Pass || sig & 0xFFFF == ends) && move_sig(m) == sig
}

/// XOR between a compact code and a signature.
const SIG_FLIP: u32 = 0x00FF_0000;

/// The compact move a signature stands for (0: none).
pub fn sig_move(sig: u32) -> Option<CompactMove> {
    (sig != 0).then_some(CompactMove(sig ^ SIG_FLIP))
}

/// The shared table.
pub struct Tt {
    slots: Vec<[AtomicU64; 2]>,
    age: AtomicU64,
}

const ENTRY_BYTES: usize = 16;

/// The key bits an entry is checked against: the top 16 carry the static evaluation instead
/// (xored in), and are all but implied by the slot, which the top bits choose.
const KEY_CHECK: u64 = (1 << 48) - 1;
/// Where the static evaluation sits in the key word.
const EVAL_SHIFT: u32 = 48;
/// The stored evaluation of an entry without one.
const NO_EVAL: i16 = i16::MIN;

/// Largest share (per mille) of the machine's memory a table may take.
const RAM_SHARE_PER_MILLE: usize = 500;

/// [`RAM_SHARE_PER_MILLE`] of the machine's memory in MB, where the system says (Linux's
/// /proc/meminfo); `None` elsewhere.
fn ram_cap_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some((kb / 1024).saturating_mul(RAM_SHARE_PER_MILLE) / 1000)
}

/// Plies by which another position's entry of the current search must be deeper than a new
/// one to be kept (see [`Tt::store`]).
const KEEP_DEEPER: i32 = 4;

impl Tt {
    /// A table of `mb` megabytes (at least one entry).
    /// When the machine cannot give that much (a GUI may offer the option's maximum on a
    /// small machine), the table halves until the allocation succeeds instead of aborting.
    /// The size is also capped at [`RAM_SHARE_PER_MILLE`] of the machine's memory where it is
    /// known: with overcommit the reservation succeeds and zeroing the table then gets the
    /// process killed.
    pub fn new(mb: usize) -> Tt {
        let mut mb = mb.max(1).min(ram_cap_mb().unwrap_or(usize::MAX));
        let mut slots = Vec::new();
        let n = loop {
            let n = (mb.saturating_mul(1024 * 1024) / ENTRY_BYTES).max(1024);
            if slots.try_reserve_exact(n).is_ok() || mb == 1 {
                break n;
            }
            mb /= 2;
        };
        slots.extend((0..n).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Tt {
            slots,
            age: AtomicU64::new(0),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }

    /// A new search begins: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry of `key`, if present and intact.
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let s = &self.slots[self.index(key)];
        let data = s[1].load(Ordering::Relaxed);
        let check = s[0].load(Ordering::Relaxed) ^ data ^ key;
        if check & KEY_CHECK != 0 || data == 0 {
            return None;
        }
        let eval = (check >> EVAL_SHIFT) as u16 as i16;
        Some(TtHit {
            eval: (eval != NO_EVAL).then_some(eval as i32),
            ..unpack(data)
        })
    }

    /// Stores an entry, replacing a shallower or older one (an exact score always wins).
    /// Another position's entry of this search is kept when it is [`KEEP_DEEPER`] plies
    /// deeper: quiescence stores its results too, and would otherwise wash the main
    /// search's deep entries out. `eval` is the node's static evaluation (`None` in check:
    /// the same position's earlier one is kept).
    pub fn store(&self, key: u64, entry: TtHit) {
        let TtHit {
            sig,
            score,
            depth,
            bound,
            eval,
        } = entry;
        let s = &self.slots[self.index(key)];
        let old = s[1].load(Ordering::Relaxed);
        let age = self.age.load(Ordering::Relaxed) & 0x3F;
        let old_check = s[0].load(Ordering::Relaxed) ^ old ^ key;
        let same = old_check & KEY_CHECK == 0;
        if old != 0 {
            let prev = unpack(old);
            let old_age = (old >> 58) & 0x3F;
            if same && old_age == age && prev.depth > depth + 2 && bound != Bound::Exact {
                return;
            }
            if !same && old_age == age && prev.depth >= depth + KEEP_DEEPER {
                return;
            }
        }
        let sig = if sig == 0 && same {
            unpack(old).sig
        } else {
            sig
        };
        let eval = match eval {
            Some(e) if e.abs() <= i16::MAX as i32 => e as i16,
            _ if same && old != 0 => (old_check >> EVAL_SHIFT) as u16 as i16,
            _ => NO_EVAL,
        };
        let data = pack(sig, score, depth, bound, age);
        s[0].store(
            key ^ data ^ ((eval as u16 as u64) << EVAL_SHIFT),
            Ordering::Relaxed,
        );
        s[1].store(data, Ordering::Relaxed);
    }

    /// Per mille of a sample of entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 0x3F;
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s[1].load(Ordering::Relaxed);
                d != 0 && (d >> 58) & 0x3F == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

fn pack(sig: u32, score: i32, depth: i32, bound: Bound, age: u64) -> u64 {
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    sig as u64
        | ((score.clamp(-32767, 32767) as i16 as u16 as u64) << 32)
        | ((depth.clamp(-1, 254) + 1) as u64) << 48
        | b << 56
        | age << 58
}

fn unpack(data: u64) -> TtHit {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    TtHit {
        sig: data as u32,
        score: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32 - 1,
        bound,
        eval: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every legal move of a few start positions has a non-zero signature that decodes, in
    /// its position, to the move itself.
    #[test]
    fn signatures_are_compact_codes_that_decode() {
        let all = variants::builtins().unwrap_or_default();
        for name in ["chess", "shogi", "xiangqi", "chu", "tenjiku"] {
            let Some(v) = variants::find(&all, name) else {
                panic!("{name} is built in");
            };
            let Ok(mut pos) = crate::board::position::Position::new_game(v.clone()) else {
                panic!("{name} starts");
            };
            let (mut legal, mut ops) = (Vec::new(), Vec::new());
            pos.legal_moves(&mut legal, &mut ops);
            for m in &legal {
                let sig = move_sig(m);
                assert_ne!(sig, 0, "{name} {m:?}");
                let code = sig_move(sig).unwrap_or(CompactMove(0));
                assert_eq!(pos.decode_move(code).as_ref(), Ok(m), "{name}");
            }
        }
    }

    /// `sig_matches` agrees with comparing full signatures, for every pair of pseudo-legal
    /// moves (pass, drops, promotions and castling among them) and for signature 0.
    #[test]
    fn the_quick_signature_match_equals_the_full_comparison() {
        let all = variants::builtins().unwrap_or_default();
        for name in ["chess", "crazyhouse", "shogi", "chu", "seirawan", "duck"] {
            let Some(v) = variants::find(&all, name) else {
                panic!("{name} is built in");
            };
            let Ok(pos) = crate::board::position::Position::new_game(v.clone()) else {
                panic!("{name} starts");
            };
            let mut moves = Vec::new();
            pos.pseudo_moves(&mut moves);
            let origin = variants::geometry::Coord::new(0, 0);
            let mut pass = Move::normal(origin, origin);
            pass.kind = MoveKind::Pass;
            moves.push(pass);
            for a in &moves {
                assert!(!sig_matches(a, 0), "{name} {a:?}");
                for b in &moves {
                    let full = move_sig(a) != 0 && move_sig(a) == move_sig(b);
                    assert_eq!(sig_matches(a, move_sig(b)), full, "{name} {a:?} {b:?}");
                }
            }
        }
    }

    fn entry(sig: u32, score: i32, depth: i32, bound: Bound, eval: Option<i32>) -> TtHit {
        TtHit {
            sig,
            score,
            depth,
            bound,
            eval,
        }
    }

    #[test]
    fn stores_and_finds_negative_scores_and_bounds() {
        let tt = Tt::new(1);
        let key = 0xDEAD_BEEF_1234;
        tt.store(
            key,
            entry(77 | 1 << 31, -31000, 12, Bound::Lower, Some(-123)),
        );
        let hit = tt.probe(key).unwrap();
        assert_eq!(
            (hit.sig, hit.score, hit.depth, hit.bound, hit.eval),
            (77 | 1 << 31, -31000, 12, Bound::Lower, Some(-123))
        );
        assert!(tt.probe(0xDEAD_BEEF_1235).is_none());
        // A key differing only in the top bits, where the evaluation is stored, is a miss.
        assert!(tt.probe(key ^ 1 << 50).is_none());
    }

    #[test]
    fn the_static_evaluation_is_kept_by_a_store_without_one() {
        let tt = Tt::new(1);
        let key = 0x0123_4567_89AB_CDEF;
        tt.store(key, entry(5, 10, 0, Bound::Upper, Some(i16::MAX as i32)));
        assert_eq!(tt.probe(key).and_then(|h| h.eval), Some(i16::MAX as i32));
        // In check (no evaluation): the position's earlier one stays.
        tt.store(key, entry(0, -40, 3, Bound::Exact, None));
        let hit = tt.probe(key).unwrap();
        assert_eq!((hit.sig, hit.score, hit.depth), (5, -40, 3));
        assert_eq!(hit.eval, Some(i16::MAX as i32));
        // A score beyond 16 bits is not stored, and the entry of a new position has none.
        tt.store(key ^ 1, entry(0, 0, 1, Bound::Exact, Some(40_000)));
        assert_eq!(tt.probe(key ^ 1).map(|h| h.eval), Some(None));
    }
}
