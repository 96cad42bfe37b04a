//! Every tunable of the evaluation, in one place (centipawns unless said otherwise).

/// Bonus per step closer to the centre, middle game.
pub const CENTRE_MG: i32 = 6;
/// Same in the endgame.
pub const CENTRE_EG: i32 = 4;
/// Royal pieces: bonus per step closer to the centre in the endgame (they hide in the middle
/// game: the same amount is a penalty there).
pub const ROYAL_CENTRE_EG: i32 = 10;
/// Royal pieces: penalty per step away from their home rank in the middle game.
pub const ROYAL_ADVANCE_MG: i32 = 12;
/// Promoting pieces: share (per mille) of the promotion gain earned at the last rank before
/// the zone, growing with the square of the progress.
pub const ADVANCE_PER_MILLE: i32 = 60;
/// Weakest pieces (pawns): bonus per rank advanced, middle game / endgame.
pub const PAWN_RANK_MG: i32 = 2;
/// Endgame counterpart of [`PAWN_RANK_MG`].
pub const PAWN_RANK_EG: i32 = 8;
/// A piece counts as a pawn for the rank bonus below this value.
pub const PAWN_VALUE_LIMIT: i32 = 150;
/// Cheap men (no mobility term) with extra moves in a zone: share (per mille) of their value
/// earned per extra first step, relative to their usual first steps (a xiangqi soldier across
/// the river, two sideways steps beside one forward: worth about twice its value, as the
/// game's books count it).
pub const ZONE_STEP_PER_MILLE: i32 = 500;
/// Mobility: bonus per reachable square of a man, scaled by 100 / its value (so a knight's
/// square counts more than a queen's, whose value already pays for its reach), middle game.
pub const MOBILITY_MG: i32 = 12;
/// Endgame counterpart of [`MOBILITY_MG`].
pub const MOBILITY_EG: i32 = 12;
/// Centralisation applies in full to pieces of at most this value, less to dearer ones.
pub const CENTRE_VALUE: i32 = 350;
/// King safety: penalty per enemy path onto a square next to a royal (middle game).
pub const KING_ZONE_ATTACK: i32 = 6;
/// Friendly paths onto squares next to a royal (shelter), middle game.
pub const KING_ZONE_DEFENCE: i32 = 3;
/// Pieces in hand are worth this share (per mille) of their board value.
pub const HAND_PER_MILLE: i32 = 1150;
/// Side to move bonus.
pub const TEMPO: i32 = 12;
/// Non-royal material (both sides, per mille of the start material) at and above which the
/// game counts as a full middle game.
pub const PHASE_FULL_PER_MILLE: i32 = 800;
/// Material at and below which the game counts as a pure endgame (per mille of start).
pub const PHASE_NONE_PER_MILLE: i32 = 200;
/// Scale of the phase blend.
pub const PHASE_MAX: i32 = 256;
/// Bare-king variants: extra worth of each of a side's last [`BARE_GUARD_MEN`] non-royal men
/// (losing the last one loses the game).
pub const BARE_GUARD: i32 = 80;
/// See [`BARE_GUARD`].
pub const BARE_GUARD_MEN: i32 = 2;
/// Passed pawns: share (per mille) of the promotion gain earned in the endgame on the last
/// rank, growing with the square of the progress (a chess pawn on the 7th: about 140).
pub const PASSED_PER_MILLE: i32 = 250;
/// Passed pawns: middle-game share (per mille) of the endgame bonus.
pub const PASSED_MG_PER_MILLE: i32 = 500;
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
/// Threats: share (per mille) of the stakes of a side's threatened men (attacked and
/// undefended: the man's value; attacked by a cheaper man: the difference) it loses, both
/// sides (the threat ties the man down even when the owner is to move).
pub const THREAT_PER_MILLE: i32 = 100;
/// Threats: the stakes summed for [`THREAT_PER_MILLE`] are counted up to this much (in a
/// melee of chu's many men the sum says little more).
pub const THREAT_SUM_CAP: i32 = 2000;
/// Threats: share (per mille) of the second largest stake the side to move loses besides:
/// it can save one threatened man, and the quiescence search's stand-pat does not see that
/// the other falls.
pub const THREAT_SECOND_PER_MILLE: i32 = 500;
/// Royals per side the passed-pawn term looks at (the nearest counts).
pub const MAX_ROYALS: usize = 4;
/// Passed pawns: the royal-distance and free-path terms weigh `slope * r - offset` for a pawn
/// on rank r of a chess-scaled 0..=7 (from the 5th rank on; deeper boards scale their ranks).
pub const PASSER_RANK_SLOPE: i32 = 5;
/// See [`PASSER_RANK_SLOPE`].
pub const PASSER_RANK_OFFSET: i32 = 13;
/// Passed pawns, endgame: weight per step the enemy's nearest royal stands from the square in
/// front of the pawn (it must catch the pawn).
pub const PASSER_ENEMY_KING: i32 = 5;
/// Passed pawns, endgame: weight per step the own nearest royal stands from that square (it
/// escorts the pawn).
pub const PASSER_OWN_KING: i32 = 2;
/// Royal distances count up to this many steps.
pub const PASSER_KING_REACH: i32 = 5;
/// Passed pawns: weight when the square in front is empty and the enemy does not attack it.
pub const PASSER_FREE: i32 = 15;
/// Passed pawns: weight when the square in front is empty and defended.
pub const PASSER_DEFENDED: i32 = 5;
/// Passed pawns: the weights above times the rank factor, per this many centipawns.
pub const PASSER_DIVISOR: i32 = 2;
