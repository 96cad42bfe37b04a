//! Fairy-Stockfish's predefined piece names and their moves in XBetza, so that an FSF
//! definition such as `knight = n` or `dragonHorse = h` means what it means there.
//! The moves are written from the published rules of each piece.

/// A predefined piece: its INI key (FSF's name), its XBetza and a default value in
/// centipawns (`0` = estimate from mobility).
pub struct Predefined {
    /// Key name, e.g. `dragonHorse`.
    pub name: &'static str,
    /// XBetza of its moves.
    pub betza: &'static str,
    /// Default value in centipawns, or 0 to estimate.
    pub value: i32,
    /// Default endgame value in centipawns, or 0 for the same as `value`.
    pub value_eg: i32,
}

const fn p(name: &'static str, betza: &'static str, value: i32) -> Predefined {
    Predefined {
        name,
        betza,
        value,
        value_eg: 0,
    }
}

/// XBetza of the orthodox pawn without its double step (added from `doubleStep`).
pub const PAWN_BETZA: &str = "fmWfceF";
/// The pawn's single step and capture when the variant has no double step (no en passant).
pub const PAWN_NO_EP_BETZA: &str = "fmWfcF";
/// The pawn's initial double step, added when `doubleStep = true`.
pub const DOUBLE_STEP_BETZA: &str = "ifmnD";
/// The double step from a region the file sets: from anywhere in it, moved before or not.
pub const REGION_DOUBLE_STEP_BETZA: &str = "fmnD";

/// The pawn's triple step from FSF's `tripleStepRegion*`, moved before or not.
pub const TRIPLE_STEP_BETZA: &str = "fmnH";

/// Every predefined piece name Fairy-Stockfish accepts, with its moves.
pub const PREDEFINED: &[Predefined] = &[
    p("pawn", PAWN_BETZA, 100),
    p("knight", "N", 305),
    p("bishop", "B", 333),
    p("rook", "R", 563),
    p("queen", "Q", 950),
    p("fers", "F", 150),
    p("met", "F", 150),
    p("alfil", "A", 100),
    p("fersAlfil", "FA", 250),
    p("silver", "FfW", 250),
    p("khon", "FfW", 250),
    p("aiwok", "RNF", 0),
    p("bers", "RF", 0),
    p("dragon", "RF", 0),
    p("archbishop", "BN", 875),
    p("chancellor", "RN", 900),
    p("amazon", "QN", 1200),
    p("knibis", "mNcB", 0),
    p("biskni", "mBcN", 0),
    p("kniroo", "mNcR", 0),
    p("rookni", "mRcN", 0),
    p("shogiPawn", "fW", 100),
    p("lance", "fR", 0),
    p("shogiKnight", "fN", 0),
    p("gold", "WfF", 0),
    p("dragonHorse", "BW", 0),
    p("clobber", "cW", 0),
    p("breakthrough", "fmWfF", 0),
    p("immobile", "", 0),
    p("cannon", "mRcpR", 450),
    p("janggiCannon", "pR", 0),
    p("soldier", "fsW", 0),
    p("horse", "nN", 0),
    p("elephant", "nA", 0),
    p("janggiElephant", "nZ", 0),
    p("banner", "RcpRnN", 0),
    p("wazir", "W", 0),
    p("commoner", "K", 0),
    p("centaur", "KN", 0),
];

/// The moves of the default royal king.
pub const KING_BETZA: &str = "K";

/// Finds a predefined piece by its key.
pub fn predefined(name: &str) -> Option<&'static Predefined> {
    PREDEFINED.iter().find(|p| p.name == name)
}
