//! Tunables of the game rules that the variant file does not fix.

/// The chasing rule: a protected man is chased only by an attacker it outvalues by this
/// ratio (per mille of the attacker's value). At 1.5 the xiangqi values of the variant file
/// (R 900, C 450, N 400, A/B 200) reproduce the AXF table: horse and cannon chase a chariot,
/// advisor and elephant chase a horse, cannon or chariot, a horse never chases a cannon.
pub const CHASE_DEARER_PER_MILLE: i64 = 1500;
