//! The board core: compiled layout (moveTable), position, incremental attack map, FEN,
//! make/unmake, move generation, legality and the slow reference generator.

pub mod access;
pub mod attack;
pub mod burn;
pub mod compact;
pub mod connect;
pub mod counting;
pub mod drops;
pub mod enclosing;
pub mod evasion;
pub mod extinction;
pub mod fen;
pub mod goals;
pub mod igui;
pub mod layout;
pub mod legality;
pub mod lion;
pub mod make;
pub mod movegen;
pub mod moves;
pub mod petrify;
pub mod position;
pub mod reference;
pub mod reference_drops;
pub mod reference_goals;
pub mod reference_walls;
pub mod royal_move;
pub mod royalty;
pub mod see;
pub mod sittuyin;
pub mod stages;
pub mod types;
pub mod validate;
pub mod walls;
pub mod zobrist;
