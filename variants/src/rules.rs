//! The compiled, validated form of a variant: everything the engine needs, as plain data.
//! Built from an INI section by the loader; the engine never reads INI text or XBetza.

use crate::geometry::SquareSet;
use crate::trajectory::Trajectories;

/// Index of a piece type within [`Variant::pieces`].
pub type PieceId = u8;

/// Where a variant definition came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Embedded in the binary; the name of the built-in file.
    Builtin(String),
    /// A user file, with the line of its section header.
    File {
        /// Path of the file as given.
        path: String,
        /// Line of the `[name]` header, 1-based.
        line: usize,
    },
}

/// How a player's royal pieces work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Royalty {
    /// Every royal piece must be kept out of check (chess king).
    Absolute,
    /// A player may not leave *all* royals attacked at once, and loses when the last one is
    /// captured (duple check: Spartan's two kings, extinction royalty).
    Extinction,
    /// Only a side's last royal must be kept out of check: while it has two or more, any of
    /// them may stand attacked; it loses when the last one is captured (Chu Shogi's king and
    /// crown prince).
    Last,
}

/// Result of a game-end condition, seen from the side to move in the final position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// Draw.
    Draw,
}

/// One piece type of a variant.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceType {
    /// Human-readable name (`knight`, `dragonHorse`).
    pub name: String,
    /// FEN letter, upper case (White's). For a `plus_form` type this is the letter of the
    /// base piece it is written with (`+P` has letter `P`).
    pub letter: char,
    /// True when the FEN writes this type as `+` followed by the letter of `demotes_to`.
    pub plus_form: bool,
    /// XBoard's mark after the letter (`'` or `!`) for variants with more than 26 types
    /// (Tenjiku: `N'`, `D!`); `None` for a plain letter.
    pub suffix: Option<char>,
    /// Canonical XBetza of the moves (printed back by the XBetza printer).
    pub betza: String,
    /// The compiled moves, including initial (`i`) paths and castling.
    pub moves: Trajectories,
    /// Value in centipawns: given in the file, or estimated from mobility (the middle
    /// game's value when the endgame has its own).
    pub value: i32,
    /// Endgame value in centipawns: FSF's `pieceValueEg` when the file gives it, else
    /// [`PieceType::value`].
    pub value_eg: i32,
    /// True when losing this piece (or leaving it in check) decides the game.
    pub royal: bool,
    /// Pieces this type may promote to on reaching its promotion zone (pawn-style choice).
    pub promotions: Vec<PieceId>,
    /// Shogi-style promotion: the type this piece turns into (`+X`), if any.
    pub promoted: Option<PieceId>,
    /// The type this piece reverts to when captured into a hand (shogi), if different.
    pub demotes_to: Option<PieceId>,
    /// Promotion is mandatory on reaching the zone.
    pub mandatory_promotion: bool,
    /// Squares (for White; mirrored for Black) where this type may not stand because it
    /// could never move again (shogi pawn/lance last rank, knight last two): promotion is
    /// forced there and drops are barred.
    pub dead_squares: SquareSet,
    /// Squares (for White) where this type could never move again, whether or not
    /// `immobilityIllegal` bars them; with `promotion.on_entry` a move there may promote.
    /// Computed only for variants with either key (empty otherwise).
    pub stuck_squares: SquareSet,
    /// The piece stays inside this zone (palace, own half).
    pub confined: Option<u8>,
    /// Battle-of-the-Kings leave-behind: moving this piece off a square leaves a piece of
    /// this type (same colour) on the square it vacated.
    pub leaves_behind: Option<PieceId>,
    /// Tenjiku Fire Demon (`burn`): after this piece moves, every enemy piece adjacent to
    /// its destination is removed.
    pub burns: bool,
    /// Tenjiku jumping generals (`rangeJump`): the piece's sliding moves may jump over any
    /// number of pieces whose `jump_rank` is lower than its own, to capture only (a path
    /// that passed a piece never ends on an empty square).
    pub range_jump: bool,
    /// Rank in the jumping hierarchy (`jumpRank`); 0 for ordinary pieces.
    pub jump_rank: u8,
    /// The type this promoted form stands for where rules are keyed by type (FSF's
    /// `promotedPieceType = q:k` makes a promoted queen a `k`): royalty, extinction, the
    /// flag and `promotionLimit` count it as that type. `None`: it counts as itself.
    pub stands_for: Option<PieceId>,
}

impl PieceType {
    /// True when where the piece stands decides how it moves in a way its XBetza text does
    /// not say: it is confined to a zone (palace, own half) or has moves only in a zone (a
    /// soldier's sideways steps across the river). The pawn's double step from its region
    /// ([`DOUBLE_STEP_ZONE`]) is in the text.
    pub fn zone_bound(&self, zones: &[Zone]) -> bool {
        let said = |z: u8| {
            zones
                .get(z as usize)
                .is_some_and(|z| z.name == DOUBLE_STEP_ZONE || z.name == TRIPLE_STEP_ZONE)
        };
        self.confined.is_some()
            || (self.moves.nodes.iter())
                .any(|n| n.zone.is_some() || n.from_zone.is_some_and(|z| !said(z)))
    }
}

/// The zone the loader gives the pawn's double step (`doubleStepRegion*`).
pub const DOUBLE_STEP_ZONE: &str = "doubleStep";

/// The zone the loader gives the pawn's triple step (`tripleStepRegion*`).
pub const TRIPLE_STEP_ZONE: &str = "tripleStep";

/// A named set of squares, given separately for each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    /// Name used in the INI file (`palace`, `ownHalf`).
    pub name: String,
    /// White's squares.
    pub white: SquareSet,
    /// Black's squares.
    pub black: SquareSet,
}

/// Castling, data-driven (orthodox, Capablanca-style and Chess960).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Castling {
    /// File the king ends on when castling towards the h side.
    pub king_side_file: u8,
    /// File the king ends on when castling towards the a side.
    pub queen_side_file: u8,
    /// Piece types that can be the castling rook.
    pub rook_types: Vec<PieceId>,
    /// Piece type that castles as the king.
    pub king_type: PieceId,
    /// Chess960 rules: start files of king and rooks vary, FENs may use Shredder letters.
    pub chess960: bool,
    /// The rank castling happens on, counted from each side's own edge (`castlingRank`,
    /// 0 = the first rank): a FEN's castling letters name men on it.
    pub rank: u8,
    /// Where a FEN's `K` starts looking for its rook, towards the a-file
    /// (`castlingRookKingsideFile`); `Q` looks from `rook_files.1` towards the last file.
    pub rook_files: (u8, u8),
    /// `oppositeCastling`: castling on one side takes the opponent's right to castle on the
    /// same side.
    pub opposite: bool,
    /// `castlingWins` (castle chess): per colour (White first), per side (`[king side,
    /// queen side]`), castling there wins; a side with such a win loses once it has no
    /// right left to castle on any of its winning sides.
    pub wins: [[bool; 2]; 2],
}

impl Castling {
    /// True when castling wins for some side (`castlingWins`).
    pub fn has_wins(&self) -> bool {
        self.wins.iter().flatten().any(|&w| w)
    }

    /// The board rank castling happens on for White (`white`) or Black.
    pub fn home_rank(&self, white: bool, ranks: u8) -> u8 {
        if white {
            self.rank
        } else {
            ranks - 1 - self.rank
        }
    }

    /// The file of the rook a FEN castling letter (`K`, `Q`, or a Shredder file letter,
    /// upper case) names, given the files of the side's castling rooks on its castling rank:
    /// FSF's reading (`K`: the first such rook from `rook_files.0` towards the a-file).
    /// The rook must stand on the letter's side of the king (`king`: the king's file).
    pub fn rook_file(&self, letter: char, rooks: &[u8], king: u8) -> Option<u8> {
        let on = |f: &u8| *f > king && *f <= self.rook_files.0;
        let off = |f: &u8| *f < king && *f >= self.rook_files.1;
        match letter {
            'K' => rooks.iter().copied().filter(on).max(),
            'Q' => rooks.iter().copied().filter(off).min(),
            c @ 'A'..='Z' => rooks.iter().copied().find(|&f| f == c as u8 - b'A'),
            _ => None,
        }
    }
}

/// Pawn-style and shogi-style promotion settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Promotion {
    /// Promotion zone for White (Black's is `zone_black`).
    pub zone_white: SquareSet,
    /// Promotion zone for Black.
    pub zone_black: SquareSet,
    /// Shogi style: promotion also when leaving the zone, and optional unless forced.
    pub shogi_style: bool,
    /// A pawn may only promote to a piece type its side has lost (Grand chess).
    pub limited_to_captured: bool,
    /// Most pieces of a type a side may have after promoting (`promotionLimit`, Grand and
    /// Spartan); types not listed are unlimited.
    pub limits: Vec<(PieceId, u8)>,
    /// Promoted pieces may also demote by moving (Kyoto shogi, `pieceDemotion`).
    pub demotion: bool,
    /// Chu Shogi promotion (`promotionOnEntry`): a shogi-style piece may promote only on a
    /// move from outside the zone into it, on a capture that starts or ends in the zone, or
    /// on a move to a square where it could never move again (pawns and lances on the last
    /// rank); never forced.
    pub on_entry: bool,
    /// HaChu's reading of `on_entry` (`promotionOnEntryStuck = false`): a move onto a square
    /// the man could never leave may promote only when it enters the zone or captures, and
    /// then it must; a plain move there within the zone stays unpromoted, immobile.
    pub stuck_forced: bool,
    /// Sittuyin's promotion (`sittuyinPromotion`): a pawn in the zone (or a side's last
    /// pawn anywhere) may, instead of moving as a pawn, become a promotion type where it
    /// stands or on an empty square that type reaches from there, when the new man attacks
    /// no enemy man there and the move gives no check; pawns never promote by moving.
    pub sittuyin: bool,
    /// `piecePromotionOnCapture` (micro shogi, cetus): a shogi-style promotion, or a
    /// demotion under `pieceDemotion`, only on a move that lands on a man; a move to an
    /// empty square never turns a man over (and one that must turn over may still make it).
    pub on_capture: bool,
    /// `promotedCaptureForcesPromotion` (ours, Macadamia Shogi): a man that takes a promoted
    /// (`+X`) man, on its destination or on the way, must promote where it may.
    pub forced_by_promoted_victim: bool,
}

/// Drop rules (shogi, crazyhouse).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drops {
    /// Pieces in hand may be dropped.
    pub enabled: bool,
    /// Captured pieces go to the captor's hand.
    pub captures_to_hand: bool,
    /// Piece types that may not be dropped on a file holding an unpromoted friend of the same
    /// type (shogi pawns).
    pub no_doubled: Vec<PieceId>,
    /// A drop of these types may not give immediate mate (`shogiPawnDropMateIllegal`:
    /// FSF's `shogiPawn` type only).
    pub no_drop_mate: Vec<PieceId>,
    /// Ranks (for White; mirrored for Black) where pawn-type pieces may not be dropped
    /// (crazyhouse: first and last rank).
    pub pawn_drop_forbidden: SquareSet,
    /// The types the previous field applies to: FSF's `pawn` type alone, as FSF bars them
    /// (other promoting types, such as elgam's soldiers, may be dropped there).
    pub pawn_types: Vec<PieceId>,
    /// Squares each side may drop on, White first (`dropRegionWhite`, `dropRegionBlack`;
    /// absolute squares, every square by default).
    pub region: [SquareSet; 2],
    /// `dropNoDoubledCount`: a `no_doubled` type may not be dropped on a file that already
    /// holds this many unpromoted friends of its type (shogi: 1; 0 bars every such drop).
    pub no_doubled_count: u32,
    /// `dropChecks = false`: a drop may not give check (to a `king`; FSF sees no check on
    /// pseudo-royal men).
    pub no_checks: bool,
    /// `dropPromoted`: a man in hand with a promoted form may also be dropped as that form.
    pub promoted: bool,
    /// `dropLoop`: a captured promoted man goes to hand as it stands, not demoted.
    pub keep_promoted: bool,
    /// `mustDrop`: while a side holds men in hand (of `must_drop_type`, if given) and one of
    /// them can be dropped legally, it must drop.
    pub must_drop: bool,
    /// `mustDropType`: the only type that must (and, while held, may) be dropped.
    pub must_drop_type: Option<PieceId>,
    /// Fairy-Stockfish's `enclosingDrop` rules: where a drop may go, from the men on the
    /// board.
    pub enclosing: EnclosingDrop,
    /// `enclosingDropStart`: while one of these squares is empty, drops go there only
    /// (reversi's four centre squares). Empty: no such opening.
    pub enclosing_start: SquareSet,
    /// `freeDrops`: every type may be dropped at will, from a hand that never runs out
    /// (ataxx); hands are neither counted nor written in the FEN.
    pub free: bool,
    /// `twoBoards` (bughouse): one board of a game played on two. The men in hand come
    /// from outside (the FEN, XBoard's `holding`), and promoted men keep their `~` mark in
    /// the FEN as FSF writes it, since the partner's board takes them back as pawns.
    pub two_boards: bool,
    /// `sittuyinRookDrop`: these types (FSF's `rook`) are dropped on their side's first
    /// rank only.
    pub first_rank_only: Vec<PieceId>,
    /// `dropOppositeColoredBishop` (placement): the type (FSF's `bishop`) whose men a side
    /// must be able to drop onto both square colours: no drop may leave too few free
    /// squares of one colour for the bishops still in hand, and no bishop may join more
    /// than half of them on one colour.
    pub opposite_bishops: Option<PieceId>,
    /// `castlingDroppedPiece` (placement): a king dropped on its castling square, or a rook
    /// dropped on a corner of that rank beside it, may castle (gets its castling right).
    pub castling_dropped: bool,
}

/// FSF's `enclosingDrop` rules: which empty squares a drop may go to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EnclosingDrop {
    /// No such rule.
    #[default]
    None,
    /// `reversi`: a square from which some line (rank, file or diagonal) runs over one or
    /// more enemy men to a man of the dropping side (FSF steps over walls on that line).
    Reversi,
    /// `ataxx`: a square next to (a king's step from) a man of the dropping side.
    Ataxx,
    /// `top`: onto the first rank or straight above an occupied square (connect four).
    Top,
    /// `snort`: not orthogonally next to an enemy man.
    Snort,
    /// `anyside`: pushed in from an edge: per rank and file, the first empty square reached
    /// from each side (FSF's reading, which replaces every other drop restriction).
    AnySide,
}

/// FSF's `flipEnclosedPieces`: which enemy men change colour after a move or drop lands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Flip {
    /// No man changes colour.
    #[default]
    None,
    /// `reversi`: on each line from the landing square, the unbroken run of enemy men that
    /// ends at a man of the mover's (a wall, an empty square or the edge breaks it).
    Reversi,
    /// `ataxx`: every enemy man next to the landing square.
    Ataxx,
    /// `quadwrangle`: as `ataxx` after a move on the board, and after a drop only when the
    /// dropped man has a friend next to it.
    Quadwrangle,
}

/// Game-end rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// Result for the side that is checkmated (normally `Loss`).
    pub checkmate: Outcome,
    /// Result for the side that is stalemated.
    pub stalemate: Outcome,
    /// Royalty rule for players with several royals.
    pub royalty: Royalty,
    /// Under [`Royalty::Last`], count a side's royals as its move begins
    /// (`royalsCountedBeforeMove`, XBoard's chu): a promotion to a royal then does not let the
    /// side's only royal stand attacked. False: count them as the move ends (lishogi).
    pub royals_counted_before_move: bool,
    /// Losing all pieces of these types loses (extinction), when non-empty.
    pub extinction_types: Vec<PieceId>,
    /// A side left with only its royal loses (bare king; shatranj), unless it can bare the
    /// opponent's king in reply.
    pub bare_king_loses: bool,
    /// Plies without capture or pawn move before a draw (`0` = none).
    pub n_move_rule: u32,
    /// Per colour, per piece type: a move of such a man restarts the n-move count
    /// (`nMoveRuleTypes`; a capture always does).
    pub n_move_resets: [Vec<bool>; 2],
    /// Repetitions that end the game (`nFoldRule`; 0: repetition never ends it).
    pub n_fold_rule: u32,
    /// The result of a repetition nobody is blamed for (no perpetual check or chase), seen
    /// from the side to move in the repeated position (`nFoldValue`), or from White's side
    /// when `n_fold_value_absolute` (`nFoldValueAbsolute`: minishogi's repetition loses for
    /// sente, whoever repeats).
    pub n_fold_value: Outcome,
    /// `n_fold_value` is White's result rather than the side to move's.
    pub n_fold_value_absolute: bool,
    /// Perpetual check loses (xiangqi, shogi).
    pub perpetual_check_illegal: bool,
    /// Xiangqi chasing rule.
    pub chasing_rule: bool,
    /// Kings may not face each other on an open file (xiangqi).
    pub flying_general: bool,
    /// Janggi's bikjang: a side whose royal faces the enemy royal on an open file must break
    /// the facing or pass; creating the facing is allowed.
    pub bikjang: bool,
    /// Check counting (`checkCounting`, 3check): each side has a number of checks left to
    /// give, kept in the position and its FEN (`3+3`); a side that gives its last one wins.
    pub check_counting: bool,
    /// Checks are allowed (`checking`); false: a move that gives check is illegal
    /// (racing kings).
    pub checking: bool,
    /// Capture the flag (king of the hill, racing kings), if the variant has it.
    pub flag: Option<Flag>,
    /// Connect games: a line, block or chain of the mover's men ends the game (FSF's
    /// `connect*` and `collinearN` keys).
    pub connect: Option<Connect>,
    /// A counting rule (`countingRule`: makruk, cambodian, asean), if the variant has it.
    pub counting: Option<Counting>,
    /// Who wins what would be a draw (`materialCounting`), if anyone decides it.
    pub material_counting: Option<MaterialCounting>,
    /// Extinction of men that are not royal (FSF's `extinction*` keys without
    /// `extinctionPseudoRoyal`: extinction, horde, the losing games), if the variant has it.
    pub extinction: Option<Extinction>,
    /// A capture is obligatory when the side to move has one (`mustCapture`, antichess).
    pub must_capture: bool,
    /// A stalemate is judged by the men left (`stalematePieceCount`, suicide): the side with
    /// fewer men on the board gets `stalemate`'s result, the other its opposite, equal
    /// numbers draw.
    pub stalemate_piece_count: bool,
    /// `passOnStalemate` (White's first): a side that has men on the board but no legal
    /// move must pass instead of being stalemated; two passes in a row end the game.
    pub pass_on_stalemate: [bool; 2],
    /// `adjudicateFullBoard`: the game ends as soon as no empty square is left, decided as
    /// a draw is (by `material_counting` where the variant has it).
    pub full_board_ends: bool,
    /// FSF's `makpongRule` (makpong): a royal in check may move only to capture its one
    /// checker (never under a double check); other men answer the check as usual.
    pub makpong: bool,
    /// Shatar's mate rule (`shatarMateRule`), if the variant has it.
    pub shatar: Option<ShatarMate>,
    /// FSF's `moveRepetitionIllegal` (janggi under modern rules), if the variant has it.
    pub move_repetition: Option<MoveRepetition>,
}

/// Fairy-Stockfish's `shatarMateRule` (shatar, Mongolian chess): how a mate ends the game
/// depends on the checks that led to it. A mate given by knights alone is forbidden, so the
/// mated side wins; otherwise it is a mate (`checkmate`) only if some check of the mating
/// side's unbroken series of checks was a shak (a check given by a man of `shak`), and a
/// draw (niol) if none was. FSF names the types by its piece names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShatarMate {
    /// Men whose check is a shak (FSF's `knight`, `rook` and `bers`).
    pub shak: Vec<PieceId>,
    /// Men that may not give mate alone (FSF's `knight`).
    pub knights: Vec<PieceId>,
}

/// Fairy-Stockfish's `moveRepetitionIllegal`: a side that, never in check as it moves, takes
/// a man back and forth between the same two squares until the man has made the trip four
/// times (a pass may stand for one of the returns) loses, unless the man came to the first
/// square by a capture. Read from the game's moves, not a legality rule (FSF scores it as a
/// game end); `src/game/move_repetition.rs` judges it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRepetition {
    /// Per colour of the mover (White first), per piece type: a man of this type may stand
    /// somewhere the other side's royal may (FSF compares the moved man's region with the
    /// enemy king's): only such men's trips count (janggi: not the general's or guards').
    pub counted: [Vec<bool>; 2],
}

/// Fairy-Stockfish's `materialCounting`: a game that would end drawn (stalemate, the n-move
/// rule, a repetition, passes) is decided by the material on the board instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MaterialCounting {
    /// Janggi: points per man of these types (FSF's weights by its piece names: rook 13,
    /// cannon 7, horse 5, elephant 3, advisor 3, soldier 2); White wins when its points exceed
    /// Black's by more than one, else Black wins.
    Janggi(Vec<(PieceId, i32)>),
    /// More men on the board wins; equal is a draw.
    Unweighted,
    /// White wins every draw.
    WhiteDrawOdds,
    /// Black wins every draw (armageddon).
    BlackDrawOdds,
}

/// Which of Fairy-Stockfish's counting rules (`countingRule`) a variant has: how many moves
/// a side left with little may still flee before the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountingRule {
    /// Makruk: board's honour (64 moves) while the weaker side has men besides its king and
    /// no pawn is left, pieces' honour (8 to 64 moves by the stronger side's men) once it is
    /// bare; the count also starts when a bare king takes the last pawn.
    Makruk,
    /// Cambodian (ouk chatrang): as makruk with 63 and one move less for each piece limit,
    /// board's honour only while the weaker side has at most three men.
    Cambodian,
    /// ASEAN chess: only a bare king counts, from 0, by the stronger side's best man.
    Asean,
}

/// A counting rule with the men it counts, found by Fairy-Stockfish's piece names (`pawn`,
/// `rook`, `khon`, `knight`): FSF counts those types only, never custom pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counting {
    /// The rule.
    pub rule: CountingRule,
    /// The pawn types: no count while any is on the board.
    pub pawns: Vec<PieceId>,
    /// Rook types.
    pub rooks: Vec<PieceId>,
    /// Khon (silver) types.
    pub khons: Vec<PieceId>,
    /// Knight types.
    pub knights: Vec<PieceId>,
}

/// Extinction of non-royal men (Fairy-Stockfish's `extinctionValue`, `extinctionPieceTypes`,
/// `extinctionPieceCount`, `extinctionOpponentPieceCount`): a side with no more than `count`
/// men of one of the types (board and hand together), while the other side has at least
/// `opponent_count` of that type, has the result `value`; the side that just moved is judged
/// first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extinction {
    /// The result for the extinct side (`loss` in extinction chess, `win` in antichess).
    pub value: Outcome,
    /// The types counted one by one.
    pub types: Vec<PieceId>,
    /// All men of a side counted together (`*`).
    pub all_men: bool,
    /// At most this many left is extinction (`extinctionPieceCount`).
    pub count: u32,
    /// The other side must have at least this many (`extinctionOpponentPieceCount`).
    pub opponent_count: u32,
}

/// Capture the flag: a side wins by bringing men of its flag type into its flag region
/// (Fairy-Stockfish's `flagPiece`, `flagRegion`, `flagPieceCount`, `flagPieceBlockedWin`,
/// `flagMove`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The type that counts, per colour (`None`: any man, FSF's default).
    pub piece: [Option<PieceId>; 2],
    /// The region, per colour (White first); a colour with an empty region has no flag.
    pub region: [SquareSet; 2],
    /// Men of the type needed in the region at once (`flagPieceCount`).
    pub count: u32,
    /// One man of the type in the region suffices when the region is full
    /// (`flagPieceBlockedWin`).
    pub blocked_win: bool,
    /// The other side gets one more move after the flag is reached (`flagMove`): a win only
    /// if the flag still stands after it; where the flag type is royal, Black reaching its
    /// own flag on that move draws, and a White flag reached second comes too late.
    pub flag_move: bool,
    /// A flag counts only while no enemy man attacks a man of the type on it, when exactly
    /// `count` of them stand there (`flagPieceSafe`); with `flag_move` the check applies to
    /// the side that just moved only, and both sides safe on their flags is a draw without it.
    pub safe: bool,
}

/// Fairy-Stockfish's connect rules, judged after every move for the side that made it:
/// `connectN` men in a row, an `connectNxN` square block, `collinearN` men on one line (gaps
/// allowed), or a chain from region 1 to region 2, along the allowed directions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connect {
    /// Men in an unbroken row (0: no such rule).
    pub n: u32,
    /// Side of a full square block (0: none).
    pub nxn: u32,
    /// Men on one line, gaps allowed (0: none).
    pub collinear: u32,
    /// Lines along ranks (`connectHorizontal`).
    pub horizontal: bool,
    /// Lines along files (`connectVertical`).
    pub vertical: bool,
    /// Diagonal lines (`connectDiagonal`).
    pub diagonal: bool,
    /// The types that count (`connectPieceTypes`; `None`: every type).
    pub pieces: Option<Vec<PieceId>>,
    /// The chain's ends per colour (`connectRegion1White`, ...; empty: no chain rule).
    pub region1: [SquareSet; 2],
    /// See `region1`.
    pub region2: [SquareSet; 2],
    /// The result for the side that made the connection (`connectValue`).
    pub value: Outcome,
}

impl Connect {
    /// The directions lines run in, as (file, rank) steps: FSF's east, north, north-east and
    /// south-east, as its keys allow them. A chain grows only along these steps, never
    /// against them (FSF's rule, kept so that games end where FSF's end).
    pub fn steps(&self) -> Vec<(i8, i8)> {
        let mut steps = Vec::new();
        if self.horizontal {
            steps.push((1, 0));
        }
        if self.vertical {
            steps.push((0, 1));
        }
        if self.diagonal {
            steps.extend([(1, 1), (1, -1)]);
        }
        steps
    }
}

/// Atomic chess: a capture explodes the capturer and every non-immune piece next to it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Blast {
    /// Types that survive a neighbouring explosion (pawns in atomic).
    pub immune: Vec<PieceId>,
    /// Types that never explode, not even when they capture (`blastImmuneTypes`).
    pub fully_immune: Vec<PieceId>,
}

/// Which piece types may not capture or hop over which (iron pieces, janggi cannons).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaptureMatrix {
    /// `(attacker, victim)` pairs where the capture is forbidden.
    pub no_capture: Vec<(PieceId, PieceId)>,
    /// `(mover, screen)` pairs where hopping is forbidden.
    pub no_hop: Vec<(PieceId, PieceId)>,
    /// Chu Shogi's Lion-trading rules, when the variant has them.
    pub lion: Option<LionTrading>,
    /// Werewolf Chess's contagion (`contagion`, ours): a man that captures a man of one of
    /// these types on its destination becomes one.
    pub contagion: Vec<PieceId>,
    /// Types a capture never turns (`contagionImmune`, ours: Werewolf Chess's king).
    pub contagion_immune: Vec<PieceId>,
    /// `contagionPromotes` (ours, Macadamia Shogi): the taker becomes the victim's promoted
    /// form (its own type when it has none), and an immune taker must make its own
    /// promotion where it has one.
    pub contagion_promotes: bool,
}

/// Chu Shogi's Lion-trading rules (`lionPieces`, `lionBridges`, `protectedLionRule`,
/// `counterstrikeRule`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LionTrading {
    /// The lion types (`n +o` in chu): both the capturers and the victims the rules name.
    pub lions: Vec<PieceId>,
    /// Men whose capture on the way does not license taking a protected lion (`p i`).
    pub bridges: Vec<PieceId>,
    /// A lion may not take a non-adjacent lion that is protected, unless the same move first
    /// captured a man that is not one of `bridges`.
    pub protected: bool,
    /// After a non-lion takes a lion, the other side may not take a lion with a non-lion on
    /// the next move, except on the square where that capture happened.
    pub counterstrike: bool,
    /// A bridge the lion takes on the way still protects the lion it stood by (lishogi's
    /// reading: protection as the move begins); false: protection only as the move ends
    /// (HaChu's and XBoard's reading).
    pub bridge_protects: bool,
    /// XBoard's reading of the counterstrike rule (`counterstrikeEndSquareOnly`): only the
    /// end square counts. A strike is a non-lion's move that ends on a lion (an igui or a
    /// lion taken on the way is none), and the reply may not end on a lion with any man,
    /// lions included. XBoard's legality test forfeits a lion that takes a lion then.
    pub end_square_only: bool,
}

/// A fully compiled variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// Name as used by protocols and the command line (`chess`, `chu`).
    pub name: String,
    /// Other names accepted for it (`chushogi`).
    pub aliases: Vec<String>,
    /// Where the definition came from.
    pub origin: Origin,
    /// Number of files.
    pub files: u8,
    /// Number of ranks.
    pub ranks: u8,
    /// Piece types.
    pub pieces: Vec<PieceType>,
    /// Start position in FEN.
    pub start_fen: String,
    /// Named zones, indexed by the `zone` fields of trajectories and pieces.
    pub zones: Vec<Zone>,
    /// Castling, if any.
    pub castling: Option<Castling>,
    /// Promotion settings.
    pub promotion: Promotion,
    /// Drop settings.
    pub drops: Drops,
    /// Game-end settings.
    pub end: GameEnd,
    /// Atomic explosions, if any.
    pub blast: Option<Blast>,
    /// Capture and hop restrictions between types.
    pub capture_matrix: CaptureMatrix,
    /// Pass moves are legal (janggi).
    pub pass_move: bool,
    /// Which enemy men change colour when a man lands (`flipEnclosedPieces`).
    pub flip: Flip,
    /// Black's men move as White's turned half round, as in shogi, where it matters for men
    /// whose moves are not the same left and right (`blackRotated`); otherwise as White's
    /// mirrored top to bottom, as in chess.
    pub black_rotated: bool,
    /// XBoard's name for the parent variant when the engine must describe this one with
    /// `setup` (`fairy`, `shogi`, `chu`, `xiangqi`).
    pub xboard_parent: String,
    /// Fairy-Stockfish rules the built-in of FSF's name has and this one does not play,
    /// as `key = value` (Locust's makruk: `countingRule = makruk`). Empty for a user's
    /// variant: there such a key refuses the section.
    pub omits: Vec<String>,
    /// Squares where each side may take en passant (`enPassantRegion*`, White's first): a
    /// double step leaves only the squares it passed that lie in the other side's region
    /// (horde: none from the first rank). `None`: every square.
    pub en_passant_region: Option<[SquareSet; 2]>,
    /// Fairy-Stockfish's walling rules (`wallingRule`, `wallingRegion*`, `wallOrMove`):
    /// every move also puts a wall on an empty square. `None`: no walls are placed.
    pub walling: Option<Walling>,
    /// Fairy-Stockfish's gating (`gating`, `seirawanGating`): squares on each side's
    /// gating rank keep a right, written in the FEN's castling field. `None`: no gates.
    pub gating: Option<Gating>,
    /// `petrifyOnCaptureTypes`: a man of these types that captures becomes a wall where it
    /// landed (decided by its type before the move; the loader refuses sets a promotion
    /// crosses). Empty: nobody petrifies.
    pub petrify: Vec<PieceId>,
    /// The pseudo-royal types of `petrify`: the loader takes their captures away (FSF
    /// forbids them, and never counts their attacks on a royal), but FSF's castling test
    /// still counts their steps on the squares the king starts from and crosses.
    pub petrify_guards: Vec<Guard>,
}

/// Gating: each side's men on its gating rank that have not moved keep a gate (FSF's
/// `gatesBB`), lost when the man leaves or is taken there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gating {
    /// The gating rank from White's side (FSF's castling rank); Black's is mirrored.
    pub rank: u8,
    /// `seirawanGating` (S-chess): a man leaving a gate may put a man from hand on the
    /// square it left (castling: on the king's or the rook's square).
    pub seirawan: bool,
    /// `cambodianMoves`: the first leaps of the king and the met from their gates.
    pub cambodian: Option<CambodianMoves>,
}

/// Cambodian chess's first moves (FSF's `cambodianMoves`), by FSF's types: a king on its
/// gate, not in check, may leap as a knight one rank forward; a met (`fers`) on its gate may
/// jump two squares straight forward; both only to an empty square. A rook that moves onto
/// the file or rank of the enemy king closes that king's gate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CambodianMoves {
    /// FSF's `king` type, if the variant has one.
    pub king: Option<PieceId>,
    /// FSF's `fers` type (named `met` or `fers`).
    pub met: Vec<PieceId>,
    /// FSF's `rook` type.
    pub rook: Vec<PieceId>,
}

impl Gating {
    /// The gating rank of a side on a board of `ranks` ranks.
    pub fn home_rank(&self, white: bool, ranks: u8) -> u8 {
        if white {
            self.rank
        } else {
            ranks - 1 - self.rank
        }
    }
}

/// A pseudo-royal type that petrifies, with the one-step captures it had (steps seen from
/// White, as [`Node::step`](crate::Node)): the squares it still guards against castling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    /// The type.
    pub piece: PieceId,
    /// Its former capture steps.
    pub steps: Vec<(i8, i8)>,
}

/// Where the wall a move places may stand (Fairy-Stockfish's `wallingRule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WallingRule {
    /// Amazons: a square the moved man could move to from where it landed.
    Arrow,
    /// Duck chess: the walls on the board are lifted first; the new one goes on any
    /// empty square but those (the duck must move).
    Duck,
    /// Atlantis: an edge square, or one next to a wall (orthogonally).
    Edge,
    /// Snailtrail, joust: the square the man left.
    Past,
    /// Isolation: any empty square.
    Static,
}

/// The walling rule of a variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Walling {
    /// Where the wall may go relative to the move.
    pub rule: WallingRule,
    /// Squares each side (White first) may wall (`wallingRegionWhite/Black`).
    pub region: [SquareSet; 2],
    /// `wallOrMove`: a side either moves a man (no wall) or passes and places a wall.
    pub or_move: bool,
    /// The move's own wall blocks in its legality test and the walls it lifts (the duck's)
    /// do not; a castling king's start and the squares it crosses are then judged with the
    /// wall too. Fairy-Stockfish's test of pseudo-royal men (`extinctionPseudoRoyal`:
    /// atomicduck); its test of a royal king ignores the new wall.
    pub shields: bool,
}

impl Variant {
    /// True when some promoted form stands for a type that a rule counts by type (royal,
    /// extinction, the flag, `promotionLimit`), so that counting it as itself would play
    /// another game.
    pub fn stand_in_counts(&self) -> bool {
        let end = &self.end;
        let keyed = |t: PieceId| {
            self.pieces.get(t as usize).is_some_and(|p| p.royal)
                || end.extinction_types.contains(&t)
                || (end.extinction.as_ref()).is_some_and(|e| e.types.contains(&t))
                || (end.flag.as_ref()).is_some_and(|f| f.piece.contains(&Some(t)))
                || self.promotion.limits.iter().any(|&(p, _)| p == t)
        };
        self.pieces.iter().filter_map(|p| p.stands_for).any(keyed)
    }

    /// The type a man of type `p` counts as in rules keyed by type (extinction, the flag,
    /// `promotionLimit`): the type its promoted form stands for, else `p`.
    #[inline]
    pub fn rule_type(&self, p: PieceId) -> PieceId {
        self.pieces
            .get(p as usize)
            .and_then(|t| t.stands_for)
            .unwrap_or(p)
    }

    /// The type a man of type `p` turns into by a shogi-style promotion: its promoted form,
    /// or under `pieceDemotion` (kyotoshogi's flipping) a promoted form's base type.
    pub fn flips_to(&self, p: PieceId) -> Option<PieceId> {
        let piece = self.pieces.get(p as usize)?;
        piece
            .promoted
            .or(piece.demotes_to.filter(|_| self.promotion.demotion))
    }

    /// The type a man of type `mover` becomes by taking a man of type `victim` on its
    /// destination (`contagion`): the victim's type (or its promoted form, with
    /// `contagionPromotes`) when that is contagious, unless the mover is of that type
    /// already or immune.
    pub fn turned(&self, mover: PieceId, victim: PieceId) -> Option<PieceId> {
        let cm = &self.capture_matrix;
        if !cm.contagion.contains(&victim) || cm.contagion_immune.contains(&mover) {
            return None;
        }
        let into = if cm.contagion_promotes {
            self.flips_to(victim).unwrap_or(victim)
        } else {
            victim
        };
        (mover != into).then_some(into)
    }

    /// Whether a man of type `mover` that takes a man of type `destination` on its
    /// destination (if any) and men of the types `on_the_way` must promote where it may:
    /// `promotedCaptureForcesPromotion` and a promoted (`+X`) victim, or `contagionPromotes`
    /// and an immune mover that takes a contagious man on its destination.
    pub fn capture_forces_promotion(
        &self,
        mover: PieceId,
        destination: Option<PieceId>,
        on_the_way: &[PieceId],
    ) -> bool {
        let cm = &self.capture_matrix;
        let promoted = |p: &PieceId| self.pieces.get(*p as usize).is_some_and(|t| t.plus_form);
        let forced = self.promotion.forced_by_promoted_victim
            && (destination.iter().any(promoted) || on_the_way.iter().any(promoted));
        forced
            || cm.contagion_promotes
                && cm.contagion_immune.contains(&mover)
                && destination.is_some_and(|v| cm.contagion.contains(&v))
    }

    /// The piece type with this FEN letter (either case), not counting `+` forms.
    pub fn piece_by_letter(&self, letter: char) -> Option<PieceId> {
        let up = letter.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.letter == up && !p.plus_form && p.suffix.is_none())
            .map(|i| i as PieceId)
    }

    /// The piece type written with this letter (either case), `+` prefix and `'`/`!` suffix.
    pub fn piece_by_symbol(
        &self,
        letter: char,
        plus: bool,
        suffix: Option<char>,
    ) -> Option<PieceId> {
        let up = letter.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.letter == up && p.plus_form == plus && p.suffix == suffix)
            .map(|i| i as PieceId)
    }
}
