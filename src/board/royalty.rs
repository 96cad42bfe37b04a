//! The royal rules and the legal-move filter built on them: when the side that moved has
//! left its royals safe (absolute or extinction royalty, explosions, the flying general and
//! bikjang), lost or bared royals that end the game, the shogi drop-mate rule, and legality
//! of pseudo-legal moves with the shortcut of `legality.rs` first.

use variants::rules::Royalty;

use crate::board::evasion::CheckPaths;
use crate::board::legality::PinCache;
use crate::board::make::{Op, Saved};
use crate::board::moves::{Move, MoveKind, NO_PIECE};
use crate::board::position::Position;
use crate::board::types::{Colour, Sq};

/// What legality testing needs of one position (see [`Position::legality`]).
#[derive(Clone, Debug)]
pub struct Legality {
    /// The side to move is in check (or in bikjang).
    checked: bool,
    /// The side to move faces the enemy royal (bikjang).
    facing: bool,
    /// A royal of the other side can be taken now (a position set up so, or one royal of
    /// several left attacked): a move that takes the last one wins whatever it leaves, which
    /// the shortcuts do not know, so such moves get the full test.
    foe_exposed: bool,
    /// Royals of the side to move, `None` when there are too many to list.
    royals: Option<arrayvec::ArrayVec<Sq, 32>>,
    /// Which men of the side to move may be pinned, filled in as moves are tested.
    pins: PinCache,
    /// In check, where the rules allow it (see [`Position::check_resolvers`]): the squares
    /// a non-royal man must move or drop to so that every check is captured or blocked.
    resolve: Option<arrayvec::ArrayVec<Sq, 64>>,
    /// In check, where `resolve` cannot be used but the rules allow it: the squares of every
    /// check's path, one of which each non-royal move must change
    /// (see [`Position::check_paths`]).
    paths: Option<CheckPaths>,
    /// The variant has Lion-trading rules (read once per node, not per move).
    lion_rules: bool,
    /// Not in check, no Lion-trading rules, explosions, burners, igui or enemy paths that go
    /// on past an occupied square: a plain move is legal when its man cannot be pinned.
    plain: bool,
    /// Every move is made and tested: a move that gives check is illegal
    /// (`checking = false`), or the move's own wall shields the mover
    /// ([`variants::Walling::shields`]: no shortcut knows which checks it blocks).
    full_test: bool,
    /// `mustCapture` with a legal capture on the board: only captures are legal.
    captures_only: bool,
    /// A drop that gives check is illegal (`dropChecks = false`): every drop is made and
    /// tested.
    drop_checks_barred: bool,
    /// `mustDrop`: a legal drop exists and must be played; every other move is illegal.
    drop_forced: bool,
    /// A promotion that gives check is illegal (`sittuyinPromotion`): every promotion is
    /// made and tested.
    promotion_checks_barred: bool,
    /// `makpongRule` in check: the one square a royal may move to (its only checker's),
    /// `Some(None)` under a double check; `None` where the rule does not apply.
    royal_only_to: Option<Option<Sq>>,
}

impl Position {
    /// True when the side that just moved (`mover`) has not left its royals capturable, nor
    /// facing the enemy royal where the rules forbid it (`was_facing`: the mover was in
    /// bikjang before a move that was not a pass).
    pub fn royals_safe(&self, mover: Colour, was_facing: bool) -> bool {
        let them = mover.flip();
        let end = &self.lay.variant.end;
        let mut total = 0;
        let mut attacked = 0;
        if self.lay.variant.blast.is_some() {
            // Explosions: losing the own royal is never allowed, blowing up the enemy's wins.
            let (ours, theirs) = (self.royals(mover).count(), self.royals(them).count());
            if ours == 0 && self.lay.start_royals[mover.index()] > 0 {
                return false;
            }
            if theirs == 0 && self.lay.start_royals[them.index()] > 0 {
                return true;
            }
        }
        for sq in self.royals(mover) {
            total += 1;
            if self.royal_attacked(mover, sq) {
                attacked += 1;
            }
            if (end.flying_general || was_facing) && self.map.faced(them, sq) {
                return false;
            }
        }
        match end.royalty {
            Royalty::Absolute => attacked == 0,
            Royalty::Extinction => total == 0 || attacked < total,
            Royalty::Last => total != 1 || attacked == 0,
        }
    }

    /// True when `colour` started with royals and has none left (an atomic king blown up):
    /// the game is over.
    pub fn royals_lost(&self, colour: Colour) -> bool {
        self.lay.start_royals[colour.index()] > 0 && self.royals(colour).next().is_none()
    }

    /// Explosions: true when the enemy attacks a man of `colour` next to one of its royals.
    /// Taking that man blows the royal up, a threat no static score sees (the search keeps
    /// such nodes from its static-score cut-offs).
    pub fn blast_threat(&self, colour: Colour) -> bool {
        if self.lay.variant.blast.is_none() {
            return false;
        }
        let them = colour.flip();
        self.royals(colour).any(|k| {
            self.neighbours(k).any(|sq| {
                self.man_at(sq).is_some_and(|m| m.colour == colour) && self.map.attacked(them, sq)
            })
        })
    }

    /// Bare-king rule: `colour` (the side that just moved) has nothing but royals left, so
    /// the game is over (lost, or drawn if it bared the other side in return).
    pub fn bared(&self, colour: Colour) -> bool {
        self.lay.variant.end.bare_king_loses
            && self
                .live()
                .filter(|(_, m)| m.colour == colour)
                .all(|(_, m)| self.lay.kinds[m.kind as usize].royal)
    }

    /// True when a royal of `colour` faces an enemy royal on an open file.
    pub fn facing(&self, colour: Colour) -> bool {
        self.royals(colour)
            .any(|sq| self.map.faced(colour.flip(), sq))
    }

    /// Every legal move. None once both sides have passed in a row: the game is over (janggi).
    pub fn legal_moves(&mut self, out: &mut Vec<Move>, ops: &mut Vec<Op>) {
        let Some(ctx) = self.legality() else {
            return;
        };
        // Pseudo-legal moves go straight into `out` and are filtered in place: no allocation.
        let start = out.len();
        self.pseudo_moves(out);
        let mut kept = start;
        for i in start..out.len() {
            let m = out[i];
            // Most moves are plain moves of men that cannot be pinned: decided here without
            // the general shortcut's per-move questions about the variant.
            let quick = ctx.plain
                && m.kind == MoveKind::Normal
                && m.n_extra == 0
                && self.unpinnable(
                    self.lay.sq(m.from_coord()),
                    ctx.royals.as_deref(),
                    &ctx.pins,
                );
            if ctx.captures_only && !self.is_capture(&m) {
                continue;
            }
            if quick || self.is_legal_in(&m, &ctx, ops) {
                out[kept] = m;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Legality of one pseudo-legal move generated in this position. False once the game is
    /// over, as `legal_moves` then has none. Testing many moves of one position is cheaper
    /// with [`Position::legality`] and [`Position::is_legal_in`].
    pub fn is_legal(&mut self, m: &Move, ops: &mut Vec<Op>) -> bool {
        match self.legality() {
            Some(ctx) => self.is_legal_in(m, &ctx, ops),
            None => false,
        }
    }

    /// What legality testing needs of the position, computed once per position; `None`
    /// when the game is over whatever is on the board (no move is legal then).
    pub fn legality(&mut self) -> Option<Legality> {
        if self.game_ended() {
            return None;
        }
        let mut ctx = self.legality_ctx();
        if self.lay.variant.end.must_capture {
            ctx.captures_only = self.has_legal_capture(&ctx);
        }
        Some(ctx)
    }

    /// True when a capture is legal here (`mustCapture` then makes every other move
    /// illegal); `ctx` is the context without that rule.
    fn has_legal_capture(&mut self, ctx: &Legality) -> bool {
        let mut moves = Vec::new();
        self.gen_stage(crate::board::stages::Stage::Captures, &mut moves);
        let mut ops = Vec::new();
        moves
            .iter()
            .any(|m| self.is_capture(m) && self.is_legal_in(m, ctx, &mut ops))
    }

    /// What legality testing needs of the position, asked whether or not the game is over.
    pub(crate) fn legality_ctx(&self) -> Legality {
        let us = self.stm;
        let facing = self.lay.variant.end.bikjang && self.facing(us);
        let checked = facing || self.in_check(us);
        let mut royals: arrayvec::ArrayVec<Sq, 32> = arrayvec::ArrayVec::new();
        let all_listed = self.royals(us).all(|r| royals.try_push(r).is_ok());
        let resolve = if checked && !facing {
            self.check_resolvers()
        } else {
            None
        };
        let paths = if checked && !facing && resolve.is_none() && all_listed {
            self.check_paths(&royals)
        } else {
            None
        };
        let checking = self.lay.variant.end.checking;
        let drop_forced = self.drop_forced();
        let royal_only_to = (checked && !facing && self.lay.variant.end.makpong).then(|| {
            let checkers = self.checkers(us);
            checkers.first().copied().filter(|_| checkers.len() == 1)
        });
        Legality {
            checked,
            facing,
            foe_exposed: self.in_check(us.flip()),
            royals: all_listed.then_some(royals),
            pins: PinCache::default(),
            resolve,
            paths,
            lion_rules: self.lay.variant.capture_matrix.lion.is_some(),
            plain: !checked
                && !self.walls_shield()
                && self.lay.variant.capture_matrix.lion.is_none()
                && self.lay.variant.blast.is_none()
                && !self.lay.uncounted
                && !self.lay.hops[us.flip().index()]
                && checking
                && !drop_forced,
            full_test: !checking || self.walls_shield(),
            captures_only: false,
            drop_checks_barred: self.lay.variant.drops.no_checks,
            drop_forced,
            promotion_checks_barred: self.lay.variant.promotion.sittuyin,
            royal_only_to,
        }
    }

    /// `makpongRule`: false for a royal's move in check that does not take its only checker.
    #[cold]
    #[inline(never)]
    fn makpong_ok(&self, m: &Move, ctx: &Legality) -> bool {
        let Some(only) = ctx.royal_only_to else {
            return true;
        };
        if matches!(m.kind, MoveKind::Drop | MoveKind::Pass) {
            return true;
        }
        let from = self.man_at(self.lay.sq(m.from_coord()));
        !from.is_some_and(|man| self.lay.kinds[man.kind as usize].royal)
            || only == Some(self.lay.sq(m.to_coord()))
    }

    /// `passOnStalemate`: true for a pass while the side to move has another legal move
    /// (FSF's rule: the pass is for a side that is stuck).
    fn pass_not_forced(&mut self, m: &Move, ctx: &Legality, ops: &mut Vec<Op>) -> bool {
        if m.kind != MoveKind::Pass || !self.lay.variant.end.pass_on_stalemate[self.stm.index()] {
            return false;
        }
        let mut moves = Vec::new();
        self.pseudo_moves(&mut moves);
        moves
            .iter()
            .any(|o| o.kind != MoveKind::Pass && self.is_legal_in(o, ctx, ops))
    }

    /// The game is over whatever is on the board: two passes, a royal lost, a bare king, a
    /// goal reached (the last check given, a flag taken).
    fn game_ended(&self) -> bool {
        self.passes >= 2
            || self.board_filled()
            || self.royals_lost(Colour::White)
            || self.royals_lost(Colour::Black)
            || self.bared(self.stm.flip())
            || self.goal_end().is_some()
    }

    /// Legality of one pseudo-legal move of this position, given its [`Legality`].
    pub fn is_legal_in(&mut self, m: &Move, ctx: &Legality, ops: &mut Vec<Op>) -> bool {
        if (ctx.captures_only && !self.is_capture(m))
            || (ctx.drop_forced && m.kind != MoveKind::Drop)
        {
            return false;
        }
        if ctx.lion_rules && !self.lion_trade_ok(m, ops)
            || ctx.royal_only_to.is_some() && !self.makpong_ok(m, ctx)
            || self.pass_not_forced(m, ctx, ops)
        {
            return false;
        }
        if let Some(verdict) = self.shortcut(m, ctx) {
            return verdict;
        }
        match self.make_if_legal_slow(m, ctx.facing, ops) {
            Some(saved) => {
                self.unmake(saved, ops);
                true
            }
            None => false,
        }
    }

    /// Makes a pseudo-legal move of this position if it is legal (`None`, the position
    /// unchanged, if not). A searcher that will make the move anyway saves the second make
    /// that [`Position::is_legal_in`] followed by [`Position::make`] costs when the shortcut
    /// cannot decide.
    pub fn make_if_legal(&mut self, m: &Move, ctx: &Legality, ops: &mut Vec<Op>) -> Option<Saved> {
        if (ctx.captures_only && !self.is_capture(m))
            || (ctx.drop_forced && m.kind != MoveKind::Drop)
        {
            return None;
        }
        if ctx.lion_rules && !self.lion_trade_ok(m, ops)
            || ctx.royal_only_to.is_some() && !self.makpong_ok(m, ctx)
            || self.pass_not_forced(m, ctx, ops)
        {
            return None;
        }
        match self.shortcut(m, ctx) {
            Some(true) => return Some(self.make(m, ops)),
            Some(false) => return None,
            None => {}
        }
        self.make_if_legal_slow(m, ctx.facing, ops)
    }

    /// The shortcut's verdict, `None` when it cannot tell: a pass when not in check, or a
    /// move `quick_verdict` decides; in check, a non-royal move that does not land where
    /// it captures or blocks every check is illegal, and one that does (or a royal's move)
    /// is decided by `quick_verdict` where it can.
    #[inline]
    fn shortcut(&self, m: &Move, ctx: &Legality) -> Option<bool> {
        let drop_checked = ctx.drop_checks_barred && m.kind == MoveKind::Drop
            || ctx.promotion_checks_barred && m.kind == MoveKind::Promotion;
        if ctx.full_test || drop_checked || ctx.foe_exposed && self.takes_royal(m) {
            return None; // the full test knows (the move may win the game)
        }
        let royals = ctx.royals.as_deref();
        if !ctx.checked {
            if m.kind == MoveKind::Pass {
                return Some(true);
            }
            return self.quick_verdict(m, royals, &ctx.pins);
        }
        if let Some(paths) = &ctx.paths {
            return self.answers_checks(m, paths, royals, &ctx.pins);
        }
        let resolve = ctx.resolve.as_ref()?;
        let simple = matches!(m.kind, MoveKind::Normal | MoveKind::Promotion);
        let royal_drop = m.kind == MoveKind::Drop
            && self.lay.kinds[self.lay.kind_of(m.piece, false) as usize].royal;
        if !(simple || m.kind == MoveKind::Drop) || m.n_extra > 0 || royal_drop {
            return None;
        }
        let royal_move = simple
            && self
                .man_at(self.lay.sq(m.from_coord()))
                .is_some_and(|man| self.lay.kinds[man.kind as usize].royal);
        if royal_move && royals.is_none_or(|r| r.len() != 1) {
            return None; // another royal may stand in check
        }
        if !royal_move && !resolve.contains(&self.lay.sq(m.to_coord())) {
            return Some(false); // every check's path is left as it was
        }
        self.quick_verdict(m, royals, &ctx.pins)
    }

    /// In check, when no enemy path goes on past an occupied square (so a man on a path
    /// square blocks it) and royalty is absolute without explosions or sight lines: the
    /// squares common to every check's path (the checker's square and the squares its path
    /// passed over). A non-royal move that lands elsewhere leaves a check standing; one that
    /// lands there is legal when it opens no new line, which the not-in-check shortcut tells.
    /// `None` when the rules need the full test.
    fn check_resolvers(&self) -> Option<arrayvec::ArrayVec<Sq, 64>> {
        let v = &self.lay.variant;
        let them = self.stm.flip();
        if self.lay.hops[them.index()]
            || self.lay.uncounted
            || v.blast.is_some()
            || v.end.flying_general
            || v.end.royalty != Royalty::Absolute
        {
            return None;
        }
        let mut common: Option<arrayvec::ArrayVec<Sq, 64>> = None;
        for r in self.royals(self.stm) {
            for id in self.map.cells_at(r, them) {
                let (slot, c) = self.map.split(id);
                let enemy = self.men[slot as usize]?;
                let t = &self.lay.kinds[enemy.kind as usize].cells[them.index()];
                let rights = t.cells[c as usize].rights;
                if rights & variants::rights::CAPTURE == 0 || rights & variants::rights::TAME != 0 {
                    continue; // not an attack (the map does not count it either)
                }
                let mut path: arrayvec::ArrayVec<Sq, 64> = arrayvec::ArrayVec::new();
                path.push(enemy.sq);
                let mut a = t.cells[c as usize].parent;
                while a != crate::board::layout::NO_CELL {
                    path.try_push(self.map.square_of(self.map.id(slot, a))?)
                        .ok()?;
                    a = t.cells[a as usize].parent;
                }
                common = Some(match common {
                    None => path,
                    Some(mut s) => {
                        s.retain(|x| path.contains(x));
                        s
                    }
                });
            }
        }
        common
    }

    /// Make / test, for the moves the shortcut cannot decide; an illegal move is unmade.
    #[inline(never)]
    pub(crate) fn make_if_legal_slow(
        &mut self,
        m: &Move,
        facing: bool,
        ops: &mut Vec<Op>,
    ) -> Option<Saved> {
        if m.gate_piece().is_some() {
            return self.gated_if_legal(m, facing, ops);
        }
        let us = self.stm;
        let had = [self.royals(us).count(), self.royals(us.flip()).count()];
        if self.walls_shield() {
            return self.shielded_if_legal(m, facing, had, ops);
        }
        // The wall a move places is no blocker for its own legality (Fairy-Stockfish).
        let saved = self.make_unwalled(m, ops);
        self.make_wall_if_legal(m, facing, saved, had, ops)
    }

    /// Make / test where the move's own wall shields the mover (FSF's test of pseudo-royal
    /// men): the test runs on the whole move, its wall placed and the duck lifted. A
    /// castling king's start and the squares it crosses must not be attacked then either;
    /// the start, when the wall goes there, is judged as FSF does, as if the wall were
    /// not on it (a wall blocks no attack on its own square).
    #[inline(never)]
    fn shielded_if_legal(
        &mut self,
        m: &Move,
        facing: bool,
        had: [usize; 2],
        ops: &mut Vec<Op>,
    ) -> Option<Saved> {
        let us = self.stm;
        let from = self.lay.sq(m.from_coord());
        let castle = m.kind == MoveKind::Castle;
        if castle && m.wall_coord() == Some(m.from_coord()) {
            let saved = self.make_unwalled(m, ops);
            self.lift_ducks(ops);
            let attacked = self.royal_attacked(us, from);
            self.unmake(saved, ops);
            if attacked {
                return None;
            }
        }
        let saved = self.make(m, ops);
        if self.unwalled_legal(m, facing, had, ops) && (!castle || self.crossed_safe(m, us)) {
            return Some(saved);
        }
        self.unmake(saved, ops);
        None
    }

    /// With the castling move `m` of `us` made: no square from the king's start up to its
    /// end (that one excluded, unless the king stays) is attacked, a walled one excepted
    /// (see [`Position::shielded_if_legal`]).
    fn crossed_safe(&self, m: &Move, us: Colour) -> bool {
        let (from, to) = (m.from_coord(), m.to_coord());
        let rank = from.rank;
        let files: Vec<u8> = if to.file > from.file {
            (from.file..to.file).collect()
        } else if to.file < from.file {
            ((to.file + 1)..=from.file).collect()
        } else {
            vec![from.file]
        };
        files.into_iter().all(|f| {
            let c = variants::geometry::Coord::new(f, rank);
            Some(c) == m.wall_coord() || !self.royal_attacked(us, self.lay.sq(c))
        })
    }

    /// A gated move is legal when its ungated form is: the gated man is no blocker for its
    /// own move's test (Fairy-Stockfish). Rare enough to pay for a second make.
    #[inline(never)]
    fn gated_if_legal(&mut self, m: &Move, facing: bool, ops: &mut Vec<Op>) -> Option<Saved> {
        let saved = self.make_if_legal_slow(&m.with_gate(None, false), facing, ops)?;
        self.unmake(saved, ops);
        Some(self.make(m, ops))
    }

    /// The legality test of `make_if_legal_slow` on the unwalled move just made; the wall
    /// goes on once it passes.
    fn make_wall_if_legal(
        &mut self,
        m: &Move,
        facing: bool,
        saved: Saved,
        had: [usize; 2],
        ops: &mut Vec<Op>,
    ) -> Option<Saved> {
        if self.unwalled_legal(m, facing, had, ops) {
            self.make_wall(m, ops);
            return Some(saved);
        }
        self.unmake(saved, ops);
        None
    }

    /// The test itself, with the side that moved as `us` (the move is made).
    fn unwalled_legal(
        &mut self,
        m: &Move,
        facing: bool,
        had: [usize; 2],
        ops: &mut Vec<Op>,
    ) -> bool {
        let us = self.stm.flip();
        if facing && m.kind == MoveKind::Pass {
            return true; // passing out of bikjang ends the game, even under check
        }
        if !self.royal_lost(us, had[0]) && self.royal_lost(us.flip(), had[1]) {
            return true; // the game is won on the spot, whatever the move leaves
        }
        let check_allowed = self.lay.variant.end.checking || !self.in_check(us.flip());
        self.royals_safe(us, facing)
            && check_allowed
            && self.drop_check_ok(m)
            && self.promotion_check_ok(m)
            && self.kept_royal_safe(us, had[0], m)
            && self.drop_mate_ok(m, ops)
    }

    /// Royals counted as the move begins (XBoard's chu): a side that moved with one royal
    /// must keep that one safe even when the move just made (`m`) promoted to a second.
    fn kept_royal_safe(&self, us: Colour, had: usize, m: &Move) -> bool {
        let end = &self.lay.variant.end;
        if !end.royals_counted_before_move || end.royalty != Royalty::Last || had != 1 {
            return true;
        }
        if self.royals(us).count() == had {
            return true; // nothing made: `royals_safe` has judged the one royal
        }
        let made = self.lay.sq(m.to_coord());
        self.royals(us)
            .filter(|&sq| sq != made)
            .all(|sq| !self.royal_attacked(us, sq))
    }

    /// True when `colour`, which had `had` royals before the move just made, has lost the
    /// game by it: any royal under absolute royalty, the last one otherwise.
    fn royal_lost(&self, colour: Colour, had: usize) -> bool {
        let has = self.royals(colour).count();
        match self.lay.variant.end.royalty {
            Royalty::Absolute => has < had,
            Royalty::Extinction | Royalty::Last => had > 0 && has == 0,
        }
    }

    /// True when the move removes an enemy royal: on its end square, as an extra victim or
    /// by burning.
    fn takes_royal(&self, m: &Move) -> bool {
        self.enemy_victims(m)
            .any(|o| self.lay.kinds[o.kind as usize].royal)
    }

    /// Shogi: a pawn drop may not give mate (called with the drop made).
    fn drop_mate_ok(&mut self, m: &Move, ops: &mut Vec<Op>) -> bool {
        if m.kind != MoveKind::Drop || m.piece == NO_PIECE {
            return true;
        }
        if !self.lay.variant.drops.no_drop_mate.contains(&m.piece) || !self.in_check(self.stm) {
            return true;
        }
        // A check that wins by a goal (checkshogi's first check) ends the game before mate
        // is asked (FSF judges goals first).
        if self.goal_end().is_some() {
            return true;
        }
        let mut replies = Vec::new();
        self.legal_moves(&mut replies, ops);
        !replies.is_empty()
    }
}
