//! One game: the position, the moves played with what undoes them, the keys for repetition,
//! move text in and out, and the end of the game by the variant's rules.

pub mod chase;
pub mod material;
pub mod move_repetition;
pub mod outcome;
pub mod params;

use variants::geometry::Coord;
use variants::Variant;

use crate::board::fen::FenError;
use crate::board::make::{Op, Saved};
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;

use move_repetition::{History, Step};

pub use chase::Chased;
pub use outcome::{Outcome, Termination};

/// Why a game could not be set up or a move not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The FEN was rejected.
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
    /// The move text names no legal move here.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// The move text could not be read at all.
    #[error("malformed move: {0}")]
    MalformedMove(String),
}

/// One played move and what takes it back.
struct Played {
    mv: Move,
    saved: Saved,
}

/// A game record over a live position.
pub struct Game {
    pos: Position,
    ops: Vec<Op>,
    played: Vec<Played>,
    /// Keys of every position of the game, the current one last.
    keys: Vec<u64>,
    /// Whether the side to move was in check, per position of `keys`.
    checks: Vec<bool>,
    /// The men the move into each position of `keys` chased (the start: none); kept only
    /// where the variant has a chasing rule, else none.
    chases: Vec<Chased>,
    /// Per position of `keys`: what the move into it did that `moveRepetitionIllegal` reads.
    steps: Vec<Step>,
}

impl Game {
    /// The start position of a variant.
    pub fn new(variant: Variant) -> Result<Game, GameError> {
        Ok(Game::from_position(Position::new_game(variant)?))
    }

    /// A game from a FEN of a variant.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Game, GameError> {
        let start = Position::new_game(variant)?;
        Ok(Game::from_position(start.with_fen(fen)?))
    }

    /// A game that starts from this position.
    pub fn from_position(pos: Position) -> Game {
        let keys = vec![pos.hash()];
        let checks = vec![pos.in_check(pos.side_to_move())];
        let steps = vec![Step::start(&pos)];
        Game {
            pos,
            ops: Vec::with_capacity(4096),
            played: Vec::new(),
            keys,
            checks,
            chases: vec![Chased::NONE],
            steps,
        }
    }

    /// Replaces the game by one from a FEN of the same variant.
    pub fn set_fen(&mut self, fen: &str) -> Result<(), GameError> {
        let pos = self.pos.with_fen(fen)?;
        *self = Game::from_position(pos);
        Ok(())
    }

    /// Back to the variant's start position.
    pub fn restart(&mut self) -> Result<(), GameError> {
        let fen = self.pos.variant().start_fen.clone();
        self.set_fen(&fen)
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played so far.
    pub fn moves(&self) -> impl Iterator<Item = &Move> {
        self.played.iter().map(|p| &p.mv)
    }

    /// Keys of every position of the game, the current one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Per position of [`Game::keys`]: was the side to move in check.
    pub fn checks(&self) -> &[bool] {
        &self.checks
    }

    /// Per position of [`Game::keys`]: the men the move into it chased.
    pub fn chases(&self) -> &[Chased] {
        &self.chases
    }

    /// Per position of [`Game::keys`]: what the move into it did (`moveRepetitionIllegal`).
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Every legal move.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut out = Vec::new();
        self.pos.legal_moves(&mut out, &mut self.ops);
        out
    }

    /// Canonical coordinate text of a move (`e2e4`, `P@e4`, `a10b10`, `@@@@`, legs with commas).
    pub fn move_text(&self, mv: &Move) -> String {
        move_text(&self.pos, mv)
    }

    /// The legal move written as `text` in canonical coordinates.
    pub fn parse_move(&mut self, text: &str) -> Result<Move, GameError> {
        let text = text.trim();
        if text.is_empty() || text.len() > 64 || !text.is_ascii() {
            return Err(GameError::MalformedMove(text.chars().take(64).collect()));
        }
        let legal = self.legal_moves();
        // A pass also as FSF writes it in UCI: its square twice (`a1a1`).
        let fsf_pass = pass_square(&self.pos).map(|c| format!("{c}{c}", c = c.to_text()));
        legal
            .into_iter()
            .find(|m| {
                self.move_text(m).eq_ignore_ascii_case(text)
                    || m.kind == MoveKind::Pass
                        && m.wall_coord().is_none()
                        && fsf_pass.as_deref() == Some(text)
            })
            .ok_or_else(|| GameError::IllegalMove(text.to_string()))
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: Move) {
        let men_before = self.pos.men_count();
        // What a move chases is only asked of a repetition; the game keeps it for every move
        // where the rule exists (the search, with far more moves, replays the cycle instead).
        let (saved, chased) = if self.pos.variant().end.chasing_rule {
            chase::make_chasing(&mut self.pos, &mv, &mut self.ops)
        } else {
            (self.pos.make(&mv, &mut self.ops), Chased::NONE)
        };
        self.played.push(Played { mv, saved });
        self.keys.push(self.pos.hash());
        self.checks.push(self.pos.in_check(self.pos.side_to_move()));
        self.chases.push(chased);
        let prev = self.steps.last().copied().unwrap_or_default();
        (self.steps).push(Step::after(prev, &self.pos, &mv, men_before));
    }

    /// Takes the last move back; false at the start of the game.
    pub fn undo(&mut self) -> bool {
        let Some(p) = self.played.pop() else {
            return false;
        };
        self.pos.unmake(p.saved, &mut self.ops);
        self.keys.pop();
        self.checks.pop();
        self.chases.pop();
        self.steps.pop();
        true
    }

    /// The end of the game, if the current position ends it.
    pub fn outcome(&mut self) -> Option<Outcome> {
        let legal = self.legal_moves();
        let rule = self.pos.variant().end.move_repetition.as_ref();
        let history = History {
            moves: &self.moves().copied().collect::<Vec<_>>(),
            checks: &self.checks,
            steps: &self.steps,
        };
        let repeater = rule.and_then(|r| move_repetition::judge(r, &self.pos, &history).loser);
        outcome::adjudicate(
            &self.pos,
            legal.is_empty(),
            &self.keys,
            &self.checks,
            &self.chases,
            repeater,
        )
    }
}

/// The square FSF names a pass by in UCI (from and to the same): the side to move's royal,
/// or without one its man on the lowest square (rank by rank from a1, as FSF's `lsb`).
pub fn pass_square(pos: &Position) -> Option<Coord> {
    let lay = pos.layout();
    if let Some(sq) = pos.royals(pos.side_to_move()).next() {
        return lay.coord(sq);
    }
    (pos.live())
        .filter(|(_, m)| m.colour == pos.side_to_move())
        .filter_map(|(_, m)| lay.coord(m.sq))
        .min_by_key(|c| (c.rank, c.file))
}

/// Canonical coordinate text of a move in a position.
pub fn move_text(pos: &Position, mv: &Move) -> String {
    let pieces = &pos.variant().pieces;
    let text = mv.text(|p| pieces.get(p as usize).map_or('?', |t| t.letter));
    // A promoted form dropped (`dropPromoted`) is written as FSF writes it: `+P@e4`.
    let plus = pieces.get(mv.piece as usize).is_some_and(|t| t.plus_form);
    if mv.kind == MoveKind::Drop && plus {
        return format!("+{text}");
    }
    text
}
