//! The XBoard (CECP v2) adapter: applies the commands `protocol::xboard` reads from a line
//! (features, game flow: new, variant, force, go, playother, usermove, undo/remove, setboard;
//! clocks: time, otim, level, st, sd; analysis, options) and writes thinking output, moves
//! and result claims; pondering and `hint` in [`ponder`].

mod drop_slots;
mod highlight;
mod ponder;

use std::io::Write;
use std::time::Duration;

use super::notation::{self, Dialect};
use super::{Engine, Task, NAME};
use variants::geometry::Coord;
use variants::rules::PieceId;

use crate::board::moves::Move;
use crate::board::types::Colour;
use crate::game::{Game, Outcome, Termination};
use crate::search::{Clock, Limits, Score, SearchEvent};
use protocol::number::NumberError;
use protocol::xboard::{self, XbCommand};

/// XBoard settings and game flow state.
#[derive(Debug)]
pub(super) struct XbState {
    /// Force mode: the engine plays neither side.
    force: bool,
    /// The side the engine plays.
    engine: Colour,
    /// Engine's and opponent's clocks.
    time: Duration,
    otim: Duration,
    /// `level`: moves per control (0: all), increment.
    mps: u32,
    inc: Duration,
    /// `st`: fixed time per move.
    st: Option<Duration>,
    /// `sd`: depth limit.
    sd: Option<u32>,
    /// Thinking output on.
    post: bool,
    /// `hard`: think on the opponent's time.
    ponder: bool,
    /// The reply the last search of the engine's move expects, with the key of the position
    /// it answers (a hint only there).
    expected: Option<(u64, Move)>,
    /// Option `Ranks from 0`: XBoard runs with `-rankOffset 1` (see
    /// [`self.xb_dialect()ZeroRanks`]).
    zero_ranks: bool,
    /// `lift`: the square of the man the user holds (the start of a multi-leg move).
    lifted: Option<Coord>,
    /// `put`: where the user let it go.
    put: Option<Coord>,
    /// `computer` since the last `new`: the opponent is an engine, and XBoard checks the
    /// engines' claims (see [`Engine::claim_after_own_move`]).
    computer: bool,
}

impl Default for XbState {
    fn default() -> XbState {
        XbState {
            force: false,
            engine: Colour::Black,
            time: Duration::from_secs(300),
            otim: Duration::from_secs(300),
            mps: 0,
            inc: Duration::ZERO,
            st: None,
            sd: None,
            post: true,
            ponder: false,
            expected: None,
            zero_ranks: false,
            lifted: None,
            put: None,
            computer: false,
        }
    }
}

impl<W: Write> Engine<W> {
    /// Reads one line of XBoard and applies it.
    pub(super) fn xboard(&mut self, line: &str) {
        let command = xboard::parse(line);
        self.ponder_gate(&command);
        if self.refused && command.needs_position() {
            // After a refused `setboard` the game kept is another one: no move is read,
            // searched or played in it until a position is accepted.
            return self.say(&format!("Error (no position): {line}"));
        }
        if let Some(game_command) = self.xb_setting(command, line) {
            self.xb_game(game_command);
        }
    }

    /// Applies a command about the game or the search; settings go to [`Self::xb_setting`].
    fn xb_game(&mut self, command: XbCommand) {
        match command {
            XbCommand::Protover => self.features(),
            XbCommand::New => self.xb_new(),
            XbCommand::Variant(name) => self.xb_variant(&name),
            XbCommand::Force => {
                self.halt_thinking();
                self.xb.force = true;
            }
            XbCommand::Go => {
                self.halt_thinking();
                self.xb.force = false;
                self.xb.engine = self.game.position().side_to_move();
                self.think();
            }
            XbCommand::PlayOther => {
                self.halt_thinking();
                self.xb.force = false;
                self.xb.engine = self.game.position().side_to_move().flip();
            }
            XbCommand::UserMove(m) => self.usermove(&m),
            XbCommand::SetBoard(fen) => self.setboard(&fen),
            XbCommand::Holding(arg) => self.holding(&arg),
            XbCommand::Ping(n) if n.is_empty() => self.say("pong"),
            XbCommand::Ping(n) => self.say(&format!("pong {n}")),
            XbCommand::MoveNow if self.task == Task::Think => self.searcher.stop(),
            XbCommand::Undo => self.take_back(1),
            XbCommand::Remove => self.take_back(2),
            XbCommand::Result => {
                self.halt();
                self.xb.force = true;
            }
            XbCommand::Hint => self.hint(),
            XbCommand::Analyze => self.analyze(),
            XbCommand::Exit => self.halt(),
            XbCommand::Perft(depth, arg) => self.xb_perft(depth, &arg),
            XbCommand::Lift(sq) => self.xb_lift(&sq),
            XbCommand::Put(sq) => self.xb_put(&sq),
            XbCommand::Quit => self.quit = true,
            XbCommand::Computer => self.xb.computer = true,
            XbCommand::Unknown(cmd) => self.say(&format!("Error (unknown command): {cmd}")),
            // `?` while not thinking, `hover`, the ignored commands (settings never get here).
            _ => {}
        }
    }

    /// Applies a setting (clocks, limits, modes, options); a refused number is reported and
    /// leaves the setting as it was. Returns any other command.
    fn xb_setting(&mut self, command: XbCommand, line: &str) -> Option<XbCommand> {
        match command {
            XbCommand::Time(t) => self.xb.time = self.xb_number(line, t)?,
            XbCommand::Otim(t) => self.xb.otim = self.xb_number(line, t)?,
            XbCommand::Level(Err(None)) => {
                let arg = line.split_once(' ').map_or("", |(_, a)| a.trim());
                self.say(&format!("Error (bad level): {arg}"));
            }
            XbCommand::Level(level) => {
                let level =
                    self.xb_number(line, level.map_err(|e| e.unwrap_or(NumberError::Empty)))?;
                (self.xb.mps, self.xb.inc) = (level.mps, level.inc);
                self.xb.st = None;
            }
            XbCommand::St(t) => {
                self.xb.st = Some(self.xb_number(line, t)?).filter(|t| !t.is_zero())
            }
            XbCommand::Sd(d) => self.xb.sd = Some(self.xb_number(line, d)? as u32),
            // `nps` is declined (`feature nps=0`); its number is still checked.
            XbCommand::Nps(n) => {
                self.xb_number(line, n);
            }
            XbCommand::Memory(mb) => {
                let mb = self.xb_number(line, mb)?.min(MAX_MEMORY_MB);
                self.set_options(|o| o.hash_mb = (mb as usize).max(1));
            }
            XbCommand::Cores(n) => {
                let n = self.xb_number(line, n)?.min(MAX_CORES);
                self.set_options(|o| o.threads = (n as usize).max(1));
            }
            XbCommand::Hard => self.xb.ponder = true,
            XbCommand::Easy => self.xb.ponder = false,
            XbCommand::Post => self.xb.post = true,
            XbCommand::NoPost => self.xb.post = false,
            XbCommand::Option { name, value } => self.xb_option(&name, &value),
            XbCommand::EgtPath(arg) => {
                // `egtpath locust DIR`: our own tables' folder; other formats are not ours.
                if let Some(dir) = arg.strip_prefix("locust").map(str::trim) {
                    if let Err(e) = self.set_table_option("EGT Path", dir) {
                        self.say(&format!("Error (egtpath): {e}"));
                    }
                }
            }
            other => return Some(other),
        }
        None
    }

    fn features(&mut self) {
        // XBoard's name for each variant, then its aliases that are FSF names (`mini`).
        let mut names: Vec<String> = Vec::new();
        for v in &self.variants {
            let own = xboard_name(&v.name);
            names.push(own.to_string());
            names.extend(super::fsf_aliases(v).filter(|a| *a != own).cloned());
        }
        self.say(&format!(
            "feature done=0 myname=\"{NAME}\" ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 san=0 name=0 pause=0 nps=0 memory=1 smp=1 exclude=0 debug=1 highlight=1"
        ));
        self.say(&format!("feature variants=\"{}\"", names.join(",")));
        self.say("feature option=\"VariantPath -file \"");
        self.say("feature option=\"EGT -check 1\"");
        self.say(&format!(
            "feature option=\"EGT Men -spin {} 2 {}\"",
            crate::egt::service::ServiceSettings::default().max_men,
            crate::egt::material::MAX_MEN
        ));
        self.say(&format!(
            "feature option=\"EGT Memory -spin 1024 1 {}\"",
            super::MAX_EGT_MEMORY_MB
        ));
        self.say("feature option=\"EGT Path -path \"");
        self.say("feature option=\"Ranks from 0 -check 0\"");
        self.say("feature egt=\"locust\"");
        self.say("feature done=1");
    }

    fn xb_new(&mut self) {
        self.halt();
        self.xb.force = false;
        self.xb.computer = false;
        self.xb.engine = Colour::Black;
        self.xb.st = None;
        self.xb.sd = None;
        self.xb.expected = None;
        if let Some(v) = self.find_variant("chess") {
            if let Ok(g) = Game::new(v) {
                self.game = g;
                self.refused = false;
            }
        }
        self.searcher.clear();
    }

    fn xb_variant(&mut self, name: &str) {
        self.halt();
        // XBoard may prefix a board size (`10x8_capablanca`); the name after it decides.
        let base = name.rsplit('_').next().unwrap_or(name);
        let found = self
            .find_variant(engine_name(name))
            .or_else(|| self.find_variant(engine_name(base)));
        match found.map(Game::new) {
            Some(Ok(g)) => {
                self.game = g;
                self.refused = false;
                self.send_setup();
            }
            Some(Err(e)) => self.say(&format!("Error (bad variant): {name}: {e}")),
            None => self.say(&format!("Error (unknown variant): {name}")),
        }
    }

    /// For variants XBoard does not know, tell it the board and the pieces' moves.
    fn send_setup(&mut self) {
        let v = self.game.position().variant().clone();
        if KNOWN.contains(&xboard_name(&v.name)) {
            return;
        }
        if uses_xboard_janggi_table(&v) {
            // XBoard 4.9 plays janggi only from a `setup` naming its own janggi table (its
            // `variant janggi` alone leaves a chess board); its janggi rules then apply.
            let fen = swap_letters(&v.start_fen, ENGINE_LETTERS, XBOARD_LETTERS);
            self.say(&format!(
                "setup ({XBOARD_JANGGI_TABLE}) 9x10+0_janggi {fen}"
            ));
            // XBoard 4.9's own janggi moves are xiangqi's for the soldier (no sideways step
            // before the river) and the elephant, which forfeited legal moves. The men not
            // confined to the palace get their own moves; what XBoard's Betza cannot say (a
            // palace's diagonals) is left out, a rarer move than the steps it forfeited.
            for p in v.pieces.iter().filter(|p| p.confined.is_none()) {
                let letter = swap_letters(&p.letter.to_string(), ENGINE_LETTERS, XBOARD_LETTERS);
                self.say(&format!("piece {letter}& {}", xboard_betza(p)));
            }
            return;
        }
        let parent = if v.xboard_parent.is_empty() {
            "fairy"
        } else {
            v.xboard_parent.as_str()
        };
        // The types a hand can hold: those in a hand at the start (S-chess's hawk and
        // elephant, placement's king: left out, XBoard dropped them from its holdings and
        // forfeited their drops), and the unpromoted, non-royal ones on the board.
        let pos = self.game.position();
        let lay = pos.layout();
        let hand_types: Vec<bool> = (0..v.pieces.len())
            .map(|i| {
                let p = &v.pieces[i];
                let held = PieceId::try_from(i).is_ok_and(|id| {
                    [Colour::White, Colour::Black]
                        .iter()
                        .any(|&c| pos.in_hand(c, id) > 0)
                });
                let on_board = lay
                    .start_squares
                    .iter()
                    .any(|c| c.get(i).is_some_and(|s| s.iter().next().is_some()));
                v.drops.enabled && (held || (on_board && !p.plus_form && !p.royal))
            })
            .collect();
        let (letters, hand) = piece_to_char(&v, parent, &hand_types);
        let kingless = [Colour::White, Colour::Black].map(|c| {
            lay.start_royals[c.index()] == 0
                && !v.pieces.iter().enumerate().any(|(i, p)| {
                    p.royal && PieceId::try_from(i).is_ok_and(|id| pos.in_hand(c, id) > 0)
                })
        });
        let letters = without_absent_kings(&v, letters, kingless);
        self.say(&format!(
            "setup ({letters}) {}x{}+{hand}_{parent} {}",
            v.files, v.ranks, v.start_fen
        ));
        // XBoard's Betza has no zones: for a zone-bound man (manchu's soldiers, palace men)
        // the parent variant's own rules for its letter are nearer the truth than its bare
        // moves, which made XBoard forfeit a soldier's legal sideways step across the river.
        for (i, p) in v.pieces.iter().enumerate() {
            if p.zone_bound(&v.zones) {
                continue;
            }
            let betza = xboard_betza(p) + cambodian_leaps(&v, i);
            if NATIVE_MEN.contains(&(parent, xboard_letter(p).as_str(), betza.as_str())) {
                continue;
            }
            let letter = if p.plus_form {
                format!("+{}", xboard_letter(p))
            } else {
                xboard_letter(p)
            };
            self.say(&format!("piece {letter}& {betza}"));
        }
    }

    fn usermove(&mut self, text: &str) {
        if self.task == Task::Think {
            self.halt();
        }
        let dialect = self.xb_dialect();
        match notation::parse(&mut self.game, text, dialect) {
            Ok(m) => {
                if self.task == Task::Ponder && self.ponder_hit(m) {
                    return;
                }
                self.game.play(m);
                if self.task == Task::Analyze {
                    self.analyze();
                } else if !self.xb.force && self.game.position().side_to_move() == self.xb.engine {
                    self.think();
                }
            }
            Err(_) => self.say(&format!("Illegal move: {text}")),
        }
    }

    fn setboard(&mut self, fen: &str) {
        self.halt_thinking();
        let v = self.game.position().variant();
        let ours = if xboard_letters(v) {
            swap_letters(fen, XBOARD_LETTERS, ENGINE_LETTERS)
        } else {
            fen.to_string()
        };
        self.refused = false;
        if let Err(e) = self.game.set_fen(&ours) {
            self.refused = true;
            self.say(&format!("tellusererror Illegal position: {e}"));
            self.say(&format!("Error (illegal position): {fen}"));
        }
    }

    /// `holding [WHITE] [BLACK] [Cp]`: the men in hand are set as listed (White's upper
    /// case, Black's lower case), or, when the colour and piece just added follow (`Wq`,
    /// `Bn`), that man is added to the current hands, as FSF reads it (the lists may lag
    /// behind). The moves so far are forgotten, as after `setboard`; a search under way
    /// starts again on the new hands.
    fn holding(&mut self, arg: &str) {
        let thinking = self.task == Task::Think;
        let Some(fen) = fen_with_holdings(&self.game.position().fen(), arg) else {
            return self.say(&format!("Error (bad holdings): holding {arg}"));
        };
        self.halt_thinking();
        if let Err(e) = self.game.set_fen(&fen) {
            return self.say(&format!("Error (illegal holdings: {e}): holding {arg}"));
        }
        if thinking {
            self.think();
        }
    }

    /// A number read for `line`, or `None` after an `Error (...)` naming what was wrong.
    fn xb_number<T>(&mut self, line: &str, number: Result<T, NumberError>) -> Option<T> {
        match number {
            Ok(v) => Some(v),
            Err(e) => {
                self.say(&format!("Error ({e}): {line}"));
                None
            }
        }
    }

    fn take_back(&mut self, n: usize) {
        let analyzing = self.task == Task::Analyze;
        self.halt();
        for _ in 0..n {
            self.game.undo();
        }
        if analyzing {
            self.analyze();
        }
    }

    fn xb_option(&mut self, name: &str, value: &str) {
        match name {
            "VariantPath" => {
                let (_, errors) = self.load_variant_file(value.trim());
                for e in errors {
                    self.say(&format!("Error (variant file): {e}"));
                }
            }
            "Ranks from 0" => match value.trim() {
                "0" | "1" => self.xb.zero_ranks = value.trim() == "1",
                v => self.say(&format!(
                    "Error (option): Ranks from 0={v}: expected 0 or 1"
                )),
            },
            other if other.starts_with("EGT") => {
                if let Err(e) = self.set_table_option(other, value) {
                    self.say(&format!("Error (option): {e}"));
                }
            }
            other => self.say(&format!("Error (unknown option): {other}")),
        }
    }

    /// The move notation XBoard expects (see the option `Ranks from 0`).
    pub(super) fn xb_dialect(&self) -> Dialect {
        if self.xb.zero_ranks {
            Dialect::XboardZeroRanks
        } else {
            Dialect::Xboard
        }
    }

    fn xb_perft(&mut self, depth: xboard::Number<u64>, arg: &str) {
        match depth {
            Ok(d) => {
                let d = d.min(super::uci::MAX_PERFT_DEPTH) as u32;
                self.start_perft(d, self.xb_dialect())
            }
            Err(e) => self.say(&format!("Error (bad depth: {e}): perft {arg}")),
        }
    }

    fn halt_thinking(&mut self) {
        if self.task != Task::Idle {
            self.halt();
        }
    }

    fn analyze(&mut self) {
        self.halt();
        self.task = Task::Analyze;
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.searcher
            .start(&self.game, limits, self.events_tx.clone());
    }

    /// Starts thinking on the engine's move, unless the game is over.
    fn think(&mut self) {
        if let Some(o) = self.claimable_outcome() {
            return self.claim(o);
        }
        let limits = self.limits_in(&self.game);
        self.task = Task::Think;
        self.searcher
            .start(&self.game, limits, self.events_tx.clone());
    }

    /// The limits of a search of the side to move's move in `game`: `sd`, `st`, else the
    /// clocks as XBoard last sent them.
    fn limits_in(&self, game: &Game) -> Limits {
        let us = game.position().side_to_move();
        let mut limits = Limits {
            depth: self.xb.sd,
            movetime: self.xb.st,
            ..Limits::default()
        };
        if self.xb.st.is_none() {
            let mut time = [self.xb.otim; 2];
            time[us.index()] = self.xb.time;
            let played = game.moves().count() as u32 / 2;
            let movestogo = (self.xb.mps > 0).then(|| self.xb.mps - played % self.xb.mps);
            limits.clock = Some(Clock {
                time,
                inc: [self.xb.inc; 2],
                movestogo,
            });
        }
        limits
    }

    /// The game's end as XBoard lets an engine claim it; where XBoard would call the claim
    /// false (and forfeit the engine) the engine plays on and XBoard rules itself. A
    /// perpetual check or chase: XBoard checks a win claim against its own mate and bare-king
    /// verdicts only, and rules on perpetuals after `-repeatsToDraw` repeats. The n-move
    /// rule: XBoard accepts a draw claim from [`XBOARD_RULE_PLIES`] reversible plies on, and
    /// in xiangqi does not count checks and evasions, so a claim there is left to it.
    fn claimable_outcome(&mut self) -> Option<Outcome> {
        let pos = self.game.position();
        let rule_ok = pos.halfmove_clock() >= XBOARD_RULE_PLIES
            && xboard_name(&pos.variant().name) != "xiangqi";
        self.game.outcome().filter(|o| match o.reason {
            Termination::PerpetualCheck | Termination::PerpetualChase => false,
            // XBoard knows no such rule: a win claimed by it would be called false.
            Termination::MoveRepetition => false,
            Termination::MoveRule => rule_ok,
            _ => true,
        })
    }

    /// The claim of a game the engine's own move ended. Between two engines XBoard checks a
    /// win claim against its own verdicts (mate, stalemate, bare king, the third check of its
    /// `3check`) and forfeits the claimant of any other win as a false claim (its
    /// `GameEnds`: a kingofthehill flag is such a win); the loser's claim it takes as it comes. So against an engine a win
    /// is left for the opponent, to move in the ended game, to claim (Fairy-Stockfish
    /// claims there, and so does this engine); a win XBoard sees it has ruled on already.
    fn claim_after_own_move(&mut self, o: Outcome) {
        if self.xb.computer && o.winner == Some(self.xb.engine) {
            return;
        }
        self.claim(o);
    }

    fn claim(&mut self, o: Outcome) {
        let (result, who) = match o.winner {
            Some(Colour::White) => ("1-0", "White wins"),
            Some(Colour::Black) => ("0-1", "Black wins"),
            None => ("1/2-1/2", "Draw"),
        };
        self.say(&format!("{result} {{{who} by {}}}", o.reason.text()));
    }

    pub(super) fn xboard_event(&mut self, ev: SearchEvent) {
        match ev {
            SearchEvent::Info(i) if self.xb.post => {
                let score = match i.score {
                    Score::Cp(c) => c,
                    Score::Mate(m) if m > 0 => 100_000 + m,
                    Score::Mate(m) => -100_000 + m,
                };
                let pv = if self.task == Task::Ponder {
                    self.ponder_pv_text(&i.pv)
                } else {
                    self.pv_text(&i.pv, self.xb_dialect())
                };
                let cs = i.time.as_millis() / 10;
                self.say(&format!("{} {score} {cs} {} {pv}", i.depth, i.nodes));
            }
            SearchEvent::Info(_) => {}
            SearchEvent::Message(m) => self.say(&format!("# {m}")),
            SearchEvent::BestMove { best, ponder } => {
                if self.task != Task::Think {
                    self.task = Task::Idle;
                    return;
                }
                self.task = Task::Idle;
                let Some(best) = best else {
                    if let Some(o) = self.claimable_outcome() {
                        self.claim(o);
                    }
                    return;
                };
                let text = notation::write(self.game.position(), &best, self.xb_dialect());
                self.game.play(best);
                self.say(&format!("move {text}"));
                match self.claimable_outcome() {
                    Some(o) => self.claim_after_own_move(o),
                    None => self.after_own_move(ponder),
                }
            }
        }
    }
}

/// Reversible plies from which XBoard 4.9 accepts an n-move draw claim.
const XBOARD_RULE_PLIES: u32 = 100;

/// Largest `memory` taken, in MB: the Hash option's maximum.
const MAX_MEMORY_MB: u64 = super::uci::MAX_HASH_MB as u64;
/// Most `cores` taken: the Threads option's maximum.
const MAX_CORES: u64 = super::uci::MAX_THREADS as u64;

/// Variants XBoard knows by these names (no `setup` needed).
const KNOWN: &[&str] = &[
    "normal",
    "fischerandom",
    "crazyhouse",
    "atomic",
    "knightmate",
    "berolina",
    "shatranj",
    "makruk",
    "courier",
    "capablanca",
    "gothic",
    "grand",
    "xiangqi",
    "shogi",
    "chu",
    "spartan",
    "seirawan",
    // Mighty-Lion Chess: XBoard's own start position, lion letter and lion-trading rules.
    "lion",
    // XBoard's own rules for these (its check count, its losing games with their stalemate
    // verdicts, its ASEAN table): under its legality test it ignores an engine's `setup`
    // for a variant it knows by name, and a `setup` naming another parent, taken when it does
    // not test legality, would change the variant it announces to the second engine.
    "3check",
    "giveaway",
    "suicide",
    "losers",
    "asean",
];

/// The letters XBoard 4.9 writes for horse and elephant in its own xiangqi and janggi
/// tables, and the engine's letters for them.
const XBOARD_LETTERS: &str = "HE";
const ENGINE_LETTERS: &str = "NB";

/// XBoard 4.9's janggi table (White, then Black), as its `setup` command must name it.
const XBOARD_JANGGI_TABLE: &str = "PH.R.AE..K.C.ph.r.ae..k.c.";

/// The engine's letters of the men XBoard's janggi table holds.
const JANGGI_LETTERS: &str = "ABCKNPR";

/// Whether XBoard is given its own janggi table for `v`: a janggi-parent variant on the
/// janggi board with exactly janggi's men, no hand and no promoted forms.
fn uses_xboard_janggi_table(v: &variants::Variant) -> bool {
    let mut letters: Vec<char> = v.pieces.iter().map(|p| p.letter).collect();
    letters.sort_unstable();
    v.xboard_parent == "janggi"
        && (v.files, v.ranks) == (9, 10)
        && !v.drops.enabled
        && v.pieces.iter().all(|p| !p.plus_form && p.suffix.is_none())
        && letters.into_iter().eq(JANGGI_LETTERS.chars())
}

/// A man's moves in XBoard's Betza, as far as the text of its own can say them.
fn xboard_betza(p: &variants::PieceType) -> String {
    variants::xbetza::parse(&p.betza)
        .map(|b| variants::xbetza::print(&b))
        .unwrap_or_else(|_| p.betza.clone())
}

/// The first leaps `cambodianMoves` gives type `i`, in XBoard's Betza (`i`: only a man that
/// has not moved, which XBoard reads from the gates of the FEN's castling field): the king's
/// knight leap one rank forward (`s`: the wide leaps; the backward ones leave the board from
/// a gate), the met's jump two squares forward, both to an empty square.
/// Without them XBoard refused the met's `e1e3` and `d8d6` in cambodian and karouk.
fn cambodian_leaps(v: &variants::Variant, i: usize) -> &'static str {
    let Some(c) = v.gating.as_ref().and_then(|g| g.cambodian.as_ref()) else {
        return "";
    };
    let id = PieceId::try_from(i).ok();
    if id.is_some() && c.king == id {
        "ismN"
    } else if id.is_some_and(|id| c.met.contains(&id)) {
        "ifmD"
    } else {
        ""
    }
}

/// Whether XBoard writes `v`'s FENs with its own xiangqi/janggi letters.
fn xboard_letters(v: &variants::Variant) -> bool {
    xboard_name(&v.name) == "xiangqi" || uses_xboard_janggi_table(v)
}

/// A FEN's board field with the letters of `from` replaced by those of `to` (either case);
/// the other fields as they are.
fn swap_letters(fen: &str, from: &str, to: &str) -> String {
    let (board, rest) = fen.split_at(fen.find(' ').unwrap_or(fen.len()));
    let swap = |c: char| {
        let upper = c.to_ascii_uppercase();
        match from.find(upper).and_then(|i| to.chars().nth(i)) {
            Some(o) if c.is_ascii_lowercase() => o.to_ascii_lowercase(),
            Some(o) => o,
            None => c,
        }
    };
    board.chars().map(swap).chain(rest.chars()).collect()
}

/// The name XBoard uses for an engine variant.
fn xboard_name(name: &str) -> &str {
    match name {
        "chess" => "normal",
        n => n,
    }
}

/// The engine's name for an XBoard variant name.
fn engine_name(name: &str) -> &str {
    match name {
        "normal" => "chess",
        n => n,
    }
}

/// XBoard's piece-to-char table: White's letters, then Black's, `.` for unused slots.
///
/// XBoard 4.9 gives the letters to its piece slots in order and the last letter of each half
/// to the king; the slot decides the image XBoard draws. Under the `fairy` parent (no hand, no
/// `+` forms) each letter goes to the slot whose image XBoard draws for that letter by default
/// (A archbishop, C chancellor, ...), so that XBoard shows the pieces with their own images;
/// shogi-style parents get [`shogi_slots`]. `hand` is the number of types XBoard's holdings
/// keep (the first ones of the table).
fn piece_to_char(v: &variants::Variant, parent: &str, hand_types: &[bool]) -> (String, usize) {
    let simple = parent == "fairy"
        && !v.drops.enabled
        && v.pieces.iter().all(|p| !p.plus_form && p.suffix.is_none());
    let shogi = (!simple)
        .then(|| shogi_slots(v, parent, hand_types))
        .flatten();
    let (white, hand) = match shogi {
        Some(t) => t,
        None if simple => (fairy_slots(v).unwrap_or_else(|| in_order(v)), 0),
        None => (in_order(v), hand_types.iter().filter(|&&h| h).count()),
    };
    // XBoard reads a letter's suffix (`'`, `!`) and the `^` mark as they are; only the
    // letters change case.
    let black: String = white.to_ascii_lowercase();
    (format!("{white}{black}"), hand)
}

/// The table with `.` in the king slot of each colour that `kingless` marks (no royal man on
/// the board or in hand at the start: horde's White). XBoard 4.9.1 holds a side whose king
/// slot carries a letter but has no such man on the board always in check, and refused every
/// move of horde's White (`a4a5`, from Locust and from Fairy-Stockfish); a side whose king
/// slot is `.` it never holds in check.
fn without_absent_kings(v: &variants::Variant, letters: String, kingless: [bool; 2]) -> String {
    let Some(royal) = v.pieces.iter().find(|p| p.royal && !p.plus_form) else {
        return letters;
    };
    let king = xboard_letter(royal);
    let (white, black) = letters.split_at(letters.len() / 2);
    let halves = [white.to_string(), black.to_string()];
    let [w, b] = [0, 1].map(|c| {
        let own = if c == 0 {
            king.clone()
        } else {
            king.to_ascii_lowercase()
        };
        match halves[c].strip_suffix(own.as_str()) {
            Some(rest) if kingless[c] => format!("{rest}."),
            _ => halves[c].clone(),
        }
    });
    format!("{w}{b}")
}

/// A type's letter as XBoard writes it in the table and the `piece` command: the letter and
/// its suffix (`D'`), without the `+` of a promoted form.
fn xboard_letter(p: &variants::PieceType) -> String {
    let mut s = p.letter.to_string();
    s.extend(p.suffix);
    s
}

/// Every type once, in piece order (the king, if any, last as XBoard expects it).
fn in_order(v: &variants::Variant) -> String {
    v.pieces
        .iter()
        .map(|p| {
            if p.plus_form {
                "+".to_string()
            } else {
                xboard_letter(p)
            }
        })
        .collect()
}

/// XBoard's own shogi slots (its `shogi` table): pawn, knight, bishop, rook, lance, silver,
/// and gold on the tenth; the promoted forms go eleven slots further by default.
const XBOARD_SHOGI_SLOTS: &[u8; 11] = b"PNBRLS...G.";

/// XBoard 4.9.1's own tables (White's slots before the king) for parents whose letters sit
/// elsewhere than at shogi's or the default slots; a letter takes its slot here first. In
/// makruk XBoard promotes to the ferz slot: Locust's khon there made it refuse
/// Fairy-Stockfish's promotion `d4d3m` in makpong.
const PARENT_SLOTS: &[(&str, &[u8])] = &[
    ("makruk", b"PN.R.M....S"),
    ("shatranj", b"PN.R.QB"),
    ("courier", b"PNBR.FE..WM"),
];

/// Men a parent's own rules move as the engine does, left to them (parent, letter, Betza):
/// XBoard 4.9.1 promotes a pawn given by a `piece` command on the last rank only, so it
/// refused makruk's promotion on the sixth (`g5g6m`, Fairy-Stockfish's, in makpong).
const NATIVE_MEN: &[(&str, &str, &str)] = &[("makruk", "P", "fmWfcF")];

/// Non-king slots of one side in XBoard 4.9 (its piece types before the king).
const XBOARD_MAX_SLOTS: usize = 65;

/// The table for shogi-style parents (`+` forms, drops): the royal letter last (XBoard's
/// king), the types a hand can hold first (XBoard's holdings keep the first `hand` letters
/// that are neither `.` nor `+`), at XBoard's own shogi or default slots where free, and every
/// `+X` form as `^X`, XBoard's mark for "the promoted form of X", so no `+` is left to chance
/// or to the king's place. Returns the White half and the number of hand types; `None` when
/// the types do not fit (more than one unpromoted royal, more types than slots, a `+X` whose
/// `X` is missing). A hand type takes only a slot whose drop rule in XBoard under `parent`
/// refuses none of its drops ([`drop_slots`]).
fn shogi_slots(
    v: &variants::Variant,
    parent: &str,
    hand_types: &[bool],
) -> Option<(String, usize)> {
    let mut table: Vec<Option<String>> = vec![None; XBOARD_MAX_SLOTS];
    let mut king: Option<String> = None;
    for p in v.pieces.iter().filter(|p| p.royal && !p.plus_form) {
        if king.replace(xboard_letter(p)).is_some() {
            return None;
        }
    }
    let is_hand = |i: usize| hand_types.get(i).copied().unwrap_or(false);
    let plain: Vec<usize> = (0..v.pieces.len())
        .filter(|&i| !v.pieces[i].plus_form && !v.pieces[i].royal)
        .collect();
    // Hand types first (XBoard's holdings), at their shogi or default slots where free.
    let prefer = PARENT_SLOTS
        .iter()
        .find(|(name, _)| *name == parent)
        .map_or(&[][..], |(_, t)| *t);
    let fits = |s: usize, i: usize| {
        PieceId::try_from(i).is_ok_and(|p| drop_slots::hand_type_fits(v, parent, s, p))
    };
    place_plain(
        v,
        &mut table,
        plain.iter().copied().filter(|&i| is_hand(i)),
        0,
        prefer,
        &fits,
    )?;
    let last_hand = table.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
    let hand = table[..last_hand].iter().filter(|t| t.is_some()).count();
    // The promoted forms of those at XBoard's default pairing, eleven slots on.
    place_promoted(v, &mut table, true)?;
    place_plain(
        v,
        &mut table,
        plain.iter().copied().filter(|&i| !is_hand(i)),
        last_hand,
        prefer,
        &|_, _| true,
    )?;
    place_promoted(v, &mut table, false)?;
    let used = table
        .iter()
        .rposition(Option::is_some)
        .map_or(0, |i| i + 1)
        .max(5);
    let mut white: String = table[..used]
        .iter()
        .map(|t| t.as_deref().unwrap_or("."))
        .collect();
    white.push_str(king.as_deref().unwrap_or("."));
    // A king in hand (placement, sittuyin) sits in the last slot, so XBoard's holdings must
    // reach it: every type counts.
    let royal_held = (0..v.pieces.len()).any(|i| v.pieces[i].royal && is_hand(i));
    let hand = if royal_held {
        table.iter().filter(|t| t.is_some()).count() + 1
    } else {
        hand
    };
    Some((white, hand))
}

/// XBoard pairs slot `s` below 11 with `s + 11` unless told otherwise: two plain letters
/// there would read as a piece and its promotion.
fn pairs_with_plain(table: &[Option<String>], s: usize) -> bool {
    let partner = match s {
        0..=10 => s + 11,
        11..=21 => s - 11,
        _ => return false,
    };
    table[partner]
        .as_deref()
        .is_some_and(|t| !t.starts_with('^'))
}

/// Puts the unpromoted types `ids` into free slots from `floor` on: first each at its letter's
/// slot in `prefer` (the parent's own table), XBoard's shogi or default table when that is
/// free (so XBoard draws its own image for the letter and applies its rules for that slot),
/// then the others in the first free slots; a type only where `fits(slot, type)`.
fn place_plain(
    v: &variants::Variant,
    table: &mut [Option<String>],
    ids: impl Iterator<Item = usize>,
    floor: usize,
    prefer: &[u8],
    fits: &dyn Fn(usize, usize) -> bool,
) -> Option<()> {
    let free = |t: &[Option<String>], s: usize, i: usize| {
        t[s].is_none() && !pairs_with_plain(t, s) && fits(s, i)
    };
    let mut rest = Vec::new();
    for i in ids {
        let p = &v.pieces[i];
        let want = u8::try_from(p.letter).ok().and_then(|b| {
            let slot_in = |t: &[u8]| t.iter().position(|&c| c == b);
            (slot_in(prefer))
                .or_else(|| slot_in(XBOARD_SHOGI_SLOTS))
                .or_else(|| slot_in(XBOARD_SLOTS))
        });
        match want.filter(|&s| p.suffix.is_none() && s >= floor && free(table, s, i)) {
            Some(s) => table[s] = Some(xboard_letter(p)),
            None => rest.push(i),
        }
    }
    for i in rest {
        let slot = (floor..table.len()).find(|&s| free(table, s, i))?;
        table[slot] = Some(xboard_letter(&v.pieces[i]));
    }
    Some(())
}

/// Puts every `+X` form whose `X` is placed as `^X`, eleven slots after `X` when free, else in
/// the first free slot. With `paired_only`, only those that get the default pairing.
fn place_promoted(
    v: &variants::Variant,
    table: &mut [Option<String>],
    paired_only: bool,
) -> Option<()> {
    for p in v.pieces.iter().filter(|p| p.plus_form) {
        let letter = xboard_letter(p);
        let mark = format!("^{letter}");
        if table.iter().any(|t| t.as_deref() == Some(mark.as_str())) {
            continue;
        }
        let Some(base) = table
            .iter()
            .position(|t| t.as_deref() == Some(letter.as_str()))
        else {
            if paired_only {
                continue;
            }
            return None; // a `+X` without its `X`
        };
        let paired = Some(base + 11).filter(|&s| base < 11 && table[s].is_none());
        let slot = match paired {
            Some(s) => s,
            None if paired_only => continue,
            None => table.iter().position(Option::is_none)?,
        };
        table[slot] = Some(mark);
    }
    Some(())
}

/// XBoard's default letters of its first piece slots (4.9: `moves.c`, `pieceToChar`), the
/// king's slot excluded.
const XBOARD_SLOTS: &[u8; 21] = b"PNBRQFEACWMOHIJGDVLSU";

/// The fairy-parent table: letters at their default slots, others in the free slots, the
/// royal piece last. `None` when the types do not fit (more than one royal letter, or more
/// types than slots).
fn fairy_slots(v: &variants::Variant) -> Option<String> {
    let mut table = [b'.'; 21];
    let mut king = None;
    let mut rest = Vec::new();
    for p in &v.pieces {
        let letter = u8::try_from(p.letter).ok()?;
        if p.royal {
            if king.is_some_and(|k| k != letter) {
                return None;
            }
            king = Some(letter);
        } else if let Some(i) = XBOARD_SLOTS.iter().position(|&c| c == letter) {
            if table[i] == b'.' {
                table[i] = letter;
            } else {
                rest.push(letter);
            }
        } else {
            rest.push(letter);
        }
    }
    for letter in rest {
        let free = table.iter().position(|&c| c == b'.')?;
        table[free] = letter;
    }
    // At least six letters a side (XBoard wants 12 or more in all).
    let used = table
        .iter()
        .rposition(|&c| c != b'.')
        .map_or(0, |i| i + 1)
        .max(5);
    let mut white: String = table[..used].iter().map(|&c| char::from(c)).collect();
    white.push(king.map_or('.', char::from));
    Some(white)
}

/// `fen` with the holdings XBoard's `holding` argument gives (see `holding`); `None` when
/// the argument or the FEN has no `[...]` lists.
fn fen_with_holdings(fen: &str, arg: &str) -> Option<String> {
    let (open, close) = (fen.find('[')?, fen.find(']')?);
    let mut parts = arg.split(['[', ']']).map(str::trim);
    let (_, white, _, black) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let added = parts.next().unwrap_or("");
    let hand = match added.as_bytes() {
        [] => format!(
            "{}{}",
            white.to_ascii_uppercase(),
            black.to_ascii_lowercase()
        ),
        [c @ (b'W' | b'B' | b'w' | b'b'), p] if p.is_ascii_alphabetic() => {
            let p = *p as char;
            let man = match c {
                b'W' | b'w' => p.to_ascii_uppercase(),
                _ => p.to_ascii_lowercase(),
            };
            format!("{}{man}", &fen[open + 1..close])
        }
        _ => return None,
    };
    Some(format!("{}[{hand}]{}", &fen[..open], &fen[close + 1..]))
}

#[cfg(test)]
mod holding_tests {
    use super::fen_with_holdings;

    #[test]
    fn holdings_replace_the_hands_or_add_the_man_named() {
        let fen = "8/8/8/8/8/8/8/K6k[Nn] w - - 0 1";
        assert_eq!(
            fen_with_holdings(fen, "[PQ] [RB]").as_deref(),
            Some("8/8/8/8/8/8/8/K6k[PQrb] w - - 0 1")
        );
        assert_eq!(
            fen_with_holdings(fen, "[PQ] [RB] Bq").as_deref(),
            Some("8/8/8/8/8/8/8/K6k[Nnq] w - - 0 1")
        );
        assert_eq!(
            fen_with_holdings(fen, "[] []").as_deref(),
            Some("8/8/8/8/8/8/8/K6k[] w - - 0 1")
        );
        assert_eq!(fen_with_holdings(fen, "PQ"), None);
        assert_eq!(fen_with_holdings(fen, "[P] [] Xq"), None);
        assert_eq!(
            fen_with_holdings("8/8/8/8/8/8/8/K6k w - - 0 1", "[P] []"),
            None
        );
    }
}
