//! XBetza: H.G. Muller's extension of Betza's funny notation. [`parse`] reads text into a
//! [`Betza`] syntax tree, [`compile`] turns that into trajectory trees, [`print`] writes the
//! canonical text back.

use crate::error::XbetzaError;
use crate::trajectory::Trajectories;

/// A parsed XBetza description (placeholder until the parser lands).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Betza {
    text: String,
}

/// Parses XBetza text.
pub fn parse(text: &str) -> Result<Betza, XbetzaError> {
    Ok(Betza {
        text: text.to_string(),
    })
}

/// Compiles a parsed description; unlimited ranges become `max_range` steps.
pub fn compile(_betza: &Betza, _max_range: u8) -> Trajectories {
    Trajectories::default()
}

/// Prints the canonical text of a parsed description.
pub fn print(betza: &Betza) -> String {
    betza.text.clone()
}
