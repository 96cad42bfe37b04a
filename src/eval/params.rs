//! Every weight of the evaluation, in one place (centipawns unless said otherwise): the
//! tunable ones as runtime values in [`Weights`], the structural constants below them.

/// Defines [`Weights`]: the evaluation's tunable weights, their defaults and their names (the
/// tuner, src/eval/tune.rs, walks them by name).
macro_rules! weights {
    ($($(#[doc = $doc:literal])* $name:ident = $value:expr;)*) => {
        /// The evaluation's tunable weights (runtime values, so that the tuner can change
        /// them); [`Weights::DEFAULT`] holds the values the engine plays with.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Weights {
            $($(#[doc = $doc])* pub $name: i32,)*
        }

        impl Weights {
            /// The weights the engine plays with.
            pub const DEFAULT: Weights = Weights { $($name: $value,)* };

            /// Every weight by name, for the tuner.
            pub fn named_mut(&mut self) -> Vec<(&'static str, &mut i32)> {
                vec![$((stringify!($name), &mut self.$name)),*]
            }
        }

        impl Default for Weights {
            fn default() -> Weights {
                Weights::DEFAULT
            }
        }
    };
}

weights! {
    /// Bonus per step closer to the centre, middle game.
    centre_mg = 1;
    /// Same in the endgame.
    centre_eg = 0;
    /// Royal pieces: bonus per step closer to the centre in the endgame (they hide in the middle
    /// game: the same amount is a penalty there).
    royal_centre_eg = 6;
    /// Royal pieces: penalty per step away from their home rank in the middle game.
    royal_advance_mg = 12;
    /// Promoting pieces: share (per mille) of the promotion gain earned at the last rank before
    /// the zone, growing with the square of the progress.
    advance_per_mille = 8;
    /// Weakest pieces (pawns): bonus per rank advanced, middle game / endgame.
    pawn_rank_mg = 0;
    /// Endgame counterpart of [`Weights::pawn_rank_mg`].
    pawn_rank_eg = 0;
    /// Cheap men (no mobility term) with extra moves in a zone: share (per mille) of their value
    /// earned per extra first step, relative to their usual first steps (a xiangqi soldier across
    /// the river, two sideways steps beside one forward: worth about twice its value, as the
    /// game's books count it).
    zone_step_per_mille = 500;
    /// Mobility: bonus per reachable square of a man, scaled by 100 / its value (so a knight's
    /// square counts more than a queen's, whose value already pays for its reach), middle game.
    mobility_mg = 17;
    /// Endgame counterpart of [`Weights::mobility_mg`].
    mobility_eg = 6;
    /// King safety: penalty per enemy path onto a square next to a royal (middle game).
    king_zone_attack = 11;
    /// Friendly paths onto squares next to a royal (shelter), middle game.
    king_zone_defence = 5;
    /// King danger (src/eval/king.rs): attack units per enemy capture path onto a square next
    /// to a royal (royal attackers left out).
    kd_path = 15;
    /// King danger: further attack units per such path, per mille of the attacker's value
    /// (counted up to [`KING_DANGER_VALUE_CAP`]).
    kd_value_per_mille = 41;
    /// King danger: attack units per attacked square next to a royal that only the royal
    /// itself (or nothing) guards.
    kd_weak = 10;
    /// King danger: attack units per enemy man in hand, per mille of its value (counted up
    /// to [`KING_DANGER_VALUE_CAP`]), once the zone is attacked.
    kd_hand_per_mille = 30;
    /// King danger: middle-game penalty `units² / 64 * kd_quad / 64` (at most
    /// [`KING_DANGER_CAP`]).
    kd_quad = 4;
    /// King danger: endgame penalty `units * kd_eg / 64`.
    kd_eg = 0;
    /// Pieces in hand are worth this share (per mille) of their board value.
    hand_per_mille = 1150;
    /// Side to move bonus.
    tempo = 24;
    /// Bare-king variants: extra worth of each of a side's last [`BARE_GUARD_MEN`] non-royal men
    /// (losing the last one loses the game).
    bare_guard = 80;
    /// Passed pawns: share (per mille) of the promotion gain earned in the endgame on the last
    /// rank, growing with the square of the progress (a chess pawn on the 7th: about 140).
    passed_per_mille = 71;
    /// Passed pawns: middle-game share (per mille) of the endgame bonus.
    passed_mg_per_mille = 117;
    /// Threats: share (per mille) of the stakes of a side's threatened men (attacked and
    /// undefended: the man's value; attacked by a cheaper man: the difference) it loses, both
    /// sides (the threat ties the man down even when the owner is to move), middle game.
    threat_mg_per_mille = 140;
    /// Endgame counterpart of [`Weights::threat_mg_per_mille`].
    threat_eg_per_mille = 160;
    /// Threats: share (per mille) of the second largest stake the side to move loses besides:
    /// it can save one threatened man, and the quiescence search's stand-pat does not see that
    /// the other falls.
    threat_second_per_mille = 36;
    /// Passed pawns: the royal-distance and free-path terms weigh `slope * r - offset` for a pawn
    /// on rank r of a chess-scaled 0..=7 (from the 5th rank on; deeper boards scale their ranks).
    passer_rank_slope = 5;
    /// See [`Weights::passer_rank_slope`].
    passer_rank_offset = 19;
    /// Passed pawns, endgame: weight per step the enemy's nearest royal stands from the square in
    /// front of the pawn (it must catch the pawn).
    passer_enemy_king = 6;
    /// Passed pawns, endgame: weight per step the own nearest royal stands from that square (it
    /// escorts the pawn).
    passer_own_king = 1;
    /// Passed pawns: weight when the square in front is empty and the enemy does not attack it.
    passer_free = 15;
    /// Passed pawns: weight when the square in front is empty and defended.
    passer_defended = 14;
    /// Pawn structure (src/eval/structure.rs; pawns that capture otherwise than they move):
    /// penalty of a pawn with an own pawn in front of it on its file, middle game.
    doubled_mg = 34;
    /// Endgame counterpart of [`Weights::doubled_mg`].
    doubled_eg = 12;
    /// Pawn structure: penalty of a pawn without own pawns on the neighbouring files.
    isolated_mg = 0;
    /// Endgame counterpart of [`Weights::isolated_mg`].
    isolated_eg = 4;
    /// Pawn structure: bonus of a pawn with an own pawn beside it or diagonally behind it,
    /// at the start of its way; it grows by a [`CONNECTED_RANK_BASE`]th per rank.
    connected_mg = 3;
    /// Endgame counterpart of [`Weights::connected_mg`].
    connected_eg = 0;
    /// Royal shelter: middle-game bonus per own pawn one rank in front of a royal, on its file
    /// or a neighbouring one.
    shelter_near = 5;
    /// Same, two ranks in front.
    shelter_far = 0;
    /// A man that slides along its file (not diagonally), on a file without pawns.
    open_file_mg = 35;
    /// Endgame counterpart of [`Weights::open_file_mg`].
    open_file_eg = 8;
    /// Same, on a file without own pawns but with an enemy pawn.
    half_open_file_mg = 24;
    /// Endgame counterpart of [`Weights::half_open_file_mg`].
    half_open_file_eg = 16;
    /// A side with men of one colour-bound kind on both square colours (the bishop pair).
    pair_mg = 0;
    /// Endgame counterpart of [`Weights::pair_mg`].
    pair_eg = 36;
}

/// King danger: an attacker's or a man in hand's value counts up to this much (a chu lion is
/// no more dangerous next to the king than a queen).
pub const KING_DANGER_VALUE_CAP: i32 = 1000;
/// King danger: the scale of its quadratic and linear weights.
pub const KING_DANGER_SCALE: i32 = 64;
/// King danger: the middle-game penalty is at most this much.
pub const KING_DANGER_CAP: i32 = 1000;
/// A piece counts as a pawn for the rank bonus below this value.
pub const PAWN_VALUE_LIMIT: i32 = 150;
/// Centralisation applies in full to pieces of at most this value, less to dearer ones.
pub const CENTRE_VALUE: i32 = 350;
/// Non-royal material (both sides, per mille of the start material) at and above which the
/// game counts as a full middle game.
pub const PHASE_FULL_PER_MILLE: i32 = 800;
/// Material at and below which the game counts as a pure endgame (per mille of start).
pub const PHASE_NONE_PER_MILLE: i32 = 200;
/// Scale of the phase blend.
pub const PHASE_MAX: i32 = 256;
/// See [`Weights::bare_guard`].
pub const BARE_GUARD_MEN: i32 = 2;
/// Where the game is won by the count of men on the board (`materialCounting = unweighted`:
/// ataxx, reversi), every man is worth this much, whatever it moves like.
pub const COUNTED_MAN_VALUE: i32 = 100;
/// Lions per side looked at for the lion trap (chu has two at most: the lion and a promoted
/// kirin; tenjiku's lion hawk and lion make four).
pub const MAX_LIONS: usize = 4;
/// Pawns per side looked at for the passed-pawn test (the rest count as not passed).
pub const MAX_PAWNS: usize = 32;
/// Lion trap: the weight of a square in the enemy camp's corners for a lion (a man the
/// variant's lion-trading rules name), by its rank counted from the enemy's back rank; 0
/// beyond. A lion that raids a corner is easily shut in there by the enemy lion and the men
/// around it (HaChu's evaluation knows this; Locust lost chu games to such raids,
/// docs/history/strength-log.md, session 22).
pub const LION_TRAP_RANKS: [i32; 5] = [7, 7, 7, 4, 2];
/// Lion trap: files from either edge that make the corner.
pub const LION_TRAP_FILES: i32 = 3;
/// Lion trap: factor by the distance (in king steps) to the nearest enemy lion; a lion next
/// to it trades at once instead, and one far away does not threaten.
pub const LION_TRAP_DISTANCE: [i32; 9] = [0, 0, 10, 9, 8, 7, 5, 3, 1];
/// Lion trap: a lion no own man protects is this many times as exposed.
pub const LION_TRAP_UNPROTECTED: i32 = 10;
/// Lion trap: the penalty is the lion's value times the three factors above, per this many
/// (the worst case, an unprotected lion in the corner two steps from the enemy lion, costs
/// 70% of its value).
pub const LION_TRAP_SCALE: i32 = 1000;
/// Lion cage: a lion (a man the lion-trading rules name) deep in the enemy camp, in the
/// last `ranks / LION_CAMP_DIVISOR` ranks, loses this share (per mille) of its value by the
/// number of squares within two steps it could flee to (not held by its own side, not
/// attacked by the enemy); none beyond the list. Locust lost chu games to lion raids that
/// won material and then found the lion shut in (docs/history/strength-log.md, session 23): the
/// search saw the capture of the lion only after its horizon.
pub const LION_CAGE: [i32; 3] = [250, 120, 40];
/// Lion cage: the enemy camp is the last ranks / this many of the board.
pub const LION_CAMP_DIVISOR: i32 = 3;
/// Lion cage: a lion reaches the squares within this many king steps.
pub const LION_REACH: i32 = 2;
/// Capture the flag: a man of its side's flag type earns this much (middle game, endgame) per
/// king step nearer its flag region than the farthest square of the board, so that the search
/// sees progress towards a goal many plies away (king of the hill, racing kings).
pub const FLAG_STEP: (i32, i32) = (12, 40);
/// Check counting: a side with this many checks left to give (index; more counts as the
/// last) earns the bonus; 0 left has ended the game. A check given is worth material, more
/// as the goal nears.
pub const CHECKS_LEFT_BONUS: [i32; 6] = [0, 500, 250, 120, 60, 30];
/// Threats: the stakes summed for [`Weights::threat_mg_per_mille`] are counted up to this much (in a
/// melee of chu's many men the sum says little more).
pub const THREAT_SUM_CAP: i32 = 2000;
/// Royals per side the passed-pawn term looks at (the nearest counts).
pub const MAX_ROYALS: usize = 4;
/// Royal distances count up to this many steps.
pub const PASSER_KING_REACH: i32 = 5;
/// Passed pawns: the weights above times the rank factor, per this many centipawns.
pub const PASSER_DIVISOR: i32 = 2;
/// File sliders and colour-bound men per side the structure terms look at.
pub const MAX_SLIDERS: usize = 8;
/// Connected pawns: the bonus at (chess-scaled) rank r is the weight x (r + this) / this.
pub const CONNECTED_RANK_BASE: i32 = 4;
