//! Named zones: `zone.NAME = squares` (White's squares, mirrored for Black),
//! `zone.NAME.white` / `zone.NAME.black` for zones that are not mirror images, and the
//! built-in `ownHalf` / `enemyHalf`, added to the variant only when something uses them.

use super::context::Ctx;
use super::values::squares;
use crate::geometry::SquareSet;
use crate::rules::Zone;

/// Zone names the loader knows without a definition.
pub const BUILTIN_ZONES: [&str; 2] = ["ownHalf", "enemyHalf"];

/// The zones of a variant under construction.
pub struct Zones {
    files: u8,
    ranks: u8,
    /// The zones so far; their position is the index stored in pieces and trajectories.
    pub list: Vec<Zone>,
}

impl Zones {
    /// Reads every `zone.*` key.
    pub fn read(ctx: &mut Ctx, files: u8, ranks: u8) -> Zones {
        let mut zones = Zones {
            files,
            ranks,
            list: Vec::new(),
        };
        for entry in ctx.take_prefixed("zone.") {
            let rest = &entry.key["zone.".len()..];
            let (name, colour) = match rest.rsplit_once('.') {
                Some((n, c @ ("white" | "black"))) => (n, Some(c)),
                _ => (rest, None),
            };
            if name.is_empty() || name.contains('.') || BUILTIN_ZONES.contains(&name) {
                ctx.fail(&entry, format!("bad zone name `{name}`"));
                continue;
            }
            match squares(&entry.value, files, ranks) {
                Ok(set) => zones.set(name, colour, set),
                Err(msg) => ctx.fail(&entry, msg),
            }
        }
        zones
    }

    fn set(&mut self, name: &str, colour: Option<&str>, set: SquareSet) {
        let flipped = set.flip_ranks(self.ranks);
        let zone = match self.list.iter_mut().find(|z| z.name == name) {
            Some(z) => z,
            None => {
                self.list.push(Zone {
                    name: name.to_string(),
                    white: set,
                    black: flipped,
                });
                return;
            }
        };
        match colour {
            Some("white") => zone.white = set,
            Some(_) => zone.black = set,
            None => {
                zone.white = set;
                zone.black = flipped;
            }
        }
    }

    /// Adds (or replaces) a zone given for both colours and returns its index.
    pub fn add(&mut self, name: &str, white: SquareSet, black: SquareSet) -> u8 {
        if let Some(i) = self.list.iter().position(|z| z.name == name) {
            self.list[i].white = white;
            self.list[i].black = black;
            return i as u8;
        }
        self.list.push(Zone {
            name: name.to_string(),
            white,
            black,
        });
        (self.list.len() - 1) as u8
    }

    /// The index of a zone by name, adding a built-in zone on first use.
    pub fn index(&mut self, name: &str) -> Option<u8> {
        if let Some(i) = self.list.iter().position(|z| z.name == name) {
            return Some(i as u8);
        }
        let half = self.ranks / 2;
        let top = self.ranks.saturating_sub(1);
        let white = match name {
            "ownHalf" if half > 0 => SquareSet::ranks(self.files, 0, half - 1),
            "enemyHalf" => SquareSet::ranks(self.files, self.ranks - half, top),
            _ => return None,
        };
        let black = white.flip_ranks(self.ranks);
        Some(self.add(name, white, black))
    }
}
