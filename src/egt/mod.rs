//! Endgame tables: a retrograde generator for any material of any variant whose board has at
//! most 256 squares (`locust egt build`), their statistics, a cache on disk, and probing.
//!
//! The tables use the variant's compiled pieces (the same trajectories as the engine), laid
//! out as path lists with occupancy conditions on a small board (`paths`).

// The layers, top to bottom: each group of modules uses only its own members and the
// groups below it. The entry point, [`Builder`], is this module's; the users call it.
//
// Users of the tables: the command line, the engine's background service, probing.
pub mod bench;
pub mod cli;
pub mod probe;
pub mod service;
// What a build prints and the files it keeps.
pub mod cache;
pub mod report;
// The order tables are solved in, and the two solvers: the row solver and the general one
// (which also dispatches between them).
pub mod layout;
pub mod propagate;
pub mod rows;
pub mod schedule;
// The general solver's escape counters, the perpetual-check pass, counting a solved table.
pub mod escapes;
pub mod perpetual;
pub mod stats;
// One table: its men, values, moves and un-moves; the pass threads; the statistics' counts.
pub mod counts;
pub mod solve;
pub mod threads;
// The variant compiled for tables, materials, indexing, values, words and the board.
pub mod board;
pub mod index;
pub mod material;
pub mod mirror;
pub mod paths;
pub mod rules;
pub mod value;
pub mod word;

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use parking_lot::Mutex;

use material::{ManSpec, Material, MaterialError};
use mirror::Mirror;
use rules::{Rules, RulesError};
use solve::{Conv, IdleWork, Metric, SolveError, Table};
use threads::Threads;

/// Why tables could not be had.
#[derive(Debug, thiserror::Error)]
pub enum EgtError {
    /// The variant cannot have tables.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The material text is wrong.
    #[error(transparent)]
    Material(#[from] MaterialError),
    /// Solving failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A man whose moves the generator does not model (a capture of its own men, a range
    /// jump, a promotion into a burner): its table would miss those moves.
    #[error("{name}: tables are not supported for the {piece}, which has {why}")]
    Piece {
        /// Table name.
        name: String,
        /// The piece type's name.
        piece: String,
        /// What the generator does not model.
        why: &'static str,
    },
    /// More royal men of a type on one side than any position of the game holds (its start
    /// position's, or a promotion's limit where one makes it): such a table would be of no
    /// game.
    #[error(
        "{name}: {have} men of the royal {piece} on one side, but no position of the game \
         holds more than {most} (its start position's, and what promotions may add)"
    )]
    Unreachable {
        /// Table name.
        name: String,
        /// The piece type's name.
        piece: String,
        /// Men of it on that side in the material.
        have: usize,
        /// The most a side can have.
        most: usize,
    },
    /// Lions on both sides where the variant's lion-trading rules hold: whether a lion may
    /// be taken depends on the move before, which a table does not know.
    #[error(
        "{name}: tables with lions on both sides are not supported (the lion-trading rules \
         depend on the move before)"
    )]
    LionTrading {
        /// Table name.
        name: String,
    },
    /// The table would not fit the memory budget.
    #[error(
        "{name}: needs {need} MB{}, more than the {budget} MB allowed (--memory)",
        beside(.held)
    )]
    Memory {
        /// Table name.
        name: String,
        /// Megabytes needed.
        need: usize,
        /// Megabytes held by the tables planned before it (its sub-tables among them).
        held: usize,
        /// Budget in megabytes.
        budget: usize,
    },
}

/// The part of [`EgtError::Memory`]'s message on the tables planned before.
fn beside(held: &usize) -> String {
    match held {
        0 => String::new(),
        h => format!(" beside the {h} MB of the tables planned before it"),
    }
}

/// Build settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Metric.
    pub metric: Metric,
    /// Threads.
    pub threads: usize,
    /// Cache folder; `None`: keep tables in memory only.
    pub cache: Option<PathBuf>,
    /// Memory budget in megabytes for all tables built.
    pub memory_mb: usize,
    /// Print progress on stderr.
    pub progress: bool,
    /// Values given from outside for listed positions (EGTgen's `-f`); tables built with
    /// presets are never cached.
    pub presets: Vec<Preset>,
    /// Index alike men (two bishops of one side) as a set: half the entries for a pair. Off
    /// only to check the indexing against the layout with one factor per man.
    pub alike_men: bool,
    /// Read a table through its colour mirror's where the rules allow (see `mirror`): one
    /// solve for the pair. Off only to check the mirrors against tables solved apart.
    pub colour_mirrors: bool,
}

/// A position whose value is given, not computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preset {
    /// Its material.
    pub material: Material,
    /// The men's squares in material order.
    pub squares: Vec<u8>,
    /// Side to move.
    pub stm: usize,
    /// The value code (see `value`).
    pub code: u8,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            metric: Metric::Dtm,
            threads: 1,
            cache: None,
            memory_mb: 16 * 1024,
            progress: false,
            presets: Vec::new(),
            alike_men: true,
            colour_mirrors: true,
        }
    }
}

/// Where a material's positions are read: its own table, or its colour mirror's.
#[derive(Clone, Debug)]
pub struct View {
    /// The table solved.
    pub table: Arc<Table>,
    /// How to read it, when it is the colour mirror's.
    pub mirror: Option<Mirror>,
}

impl View {
    /// The code of a position of the material viewed (squares in its canonical order).
    pub fn code(&self, stm: usize, sq: &[u8]) -> u8 {
        match &self.mirror {
            Some(m) => self.table.code_sorted(1 - stm, &m.squares(sq)[..sq.len()]),
            None => self.table.code_sorted(stm, sq),
        }
    }
}

/// The megabytes counted against the budget for a table of `size` entries per side: a value
/// byte per side, and the table's two bit arrays per side (undecided positions, positions
/// without a move), a quarter byte. (Counting the values alone let a build near the budget
/// hold a quarter more, with the solver's own arrays on top: a six-man pawn build on a 5x5
/// board was killed at 24 GB under the 16 GB default.)
fn megabytes(size: usize) -> usize {
    (5 * size / 2) >> 20
}

/// Builds tables and their sub-tables, once each.
pub struct Builder {
    /// The rules.
    pub rules: Arc<Rules>,
    /// Settings.
    pub settings: Settings,
    tables: HashMap<Material, Arc<Table>>,
    used_mb: usize,
    /// The tables the current build solves, and how many of them are solved (the
    /// progress bar's).
    planned: usize,
    solved: AtomicUsize,
    /// Cached files the current build found damaged, foreign or of another version: read
    /// once (and warned of once), then solved.
    unreadable: HashSet<Material>,
    /// Cached tables the current build read one side of (see [`Builder::preload`]), by
    /// material and the side read: only its conversions see them, never `tables`, and
    /// they are let go when the build ends (the tables converting into them keep them).
    partial: HashMap<(Material, usize), Arc<Table>>,
    /// How many such tables the last build read.
    partial_last: usize,
}

impl Builder {
    /// A builder for one variant's rules.
    pub fn new(rules: impl Into<Arc<Rules>>, settings: Settings) -> Builder {
        Builder {
            rules: rules.into(),
            settings,
            tables: HashMap::new(),
            used_mb: 0,
            planned: 0,
            solved: AtomicUsize::new(0),
            unreadable: HashSet::new(),
            partial: HashMap::new(),
            partial_last: 0,
        }
    }

    /// The tables built or loaded so far.
    pub fn tables(&self) -> impl Iterator<Item = &Arc<Table>> {
        self.tables.values()
    }

    /// How many tables the last build solved (the others it used were read from the cache
    /// or built before).
    pub fn solved_last(&self) -> usize {
        self.planned
    }

    /// How many tables the last build read one side of for its conversions alone (not
    /// among [`Builder::tables`]).
    pub fn read_partly_last(&self) -> usize {
        self.partial_last
    }

    /// Entries per side of the table of `material` (nothing is built).
    pub fn size_of(&self, material: &Material) -> usize {
        let rules = &self.rules;
        let mut group = u8::MAX;
        let mut size = 1usize;
        let men = &material.men;
        for (i, m) in men.iter().enumerate() {
            let (c, p) = (m.colour as usize, m.piece as usize);
            group &= rules.symmetric[c][p];
            let n = rules.domain[c][p].count() as usize;
            // The k-th alike man of a run (see `index`) multiplies by (n - k) / (k + 1).
            let k = (1..i)
                .rev()
                .take_while(|&j| men[j] == *m && self.settings.alike_men)
                .count();
            let k = if i + 1 < men.len() { k } else { 0 };
            size = size.saturating_mul(n.saturating_sub(k)) / (k + 1);
        }
        let maps = (0..8).filter(|k| group & (1 << k) != 0).count().max(1);
        size / maps
    }

    /// True when `material`'s table, or the colour mirror [`Builder::view`] reads instead,
    /// is in the cache folder (checked by name only: a file that turns out stale or broken
    /// is rebuilt by [`Builder::table`]).
    pub fn cached(&self, material: &Material) -> bool {
        let Some(dir) = &self.settings.cache else {
            return false;
        };
        let solved = self.source(material).map(|(m, _)| m);
        let name = solved
            .as_ref()
            .unwrap_or(material)
            .name(&self.rules.variant);
        self.settings.presets.is_empty()
            && cache::path_of(dir, &self.rules, &name, self.settings.metric).is_file()
    }

    /// The colour mirror `material`'s positions are read from instead of its own table,
    /// when there is one (see `mirror`; never with presets, which name one material).
    fn source(&self, material: &Material) -> Option<(Material, Mirror)> {
        if !self.settings.colour_mirrors
            || !self.settings.presets.is_empty()
            || self.tables.contains_key(material)
        {
            return None;
        }
        mirror::source_of(&self.rules, material)
    }

    /// A table `material`'s positions are read from: its own, or its colour mirror's
    /// (built, with every table it converts into, if needed). Only one of a pair of
    /// mirrors is solved this way.
    pub fn view(&mut self, material: &Material) -> Result<View, EgtError> {
        self.reachable(material)?;
        self.build(|b, pending| b.plan_view(material, pending))
    }

    /// The table of `material` itself, building it (and every table it converts into) if
    /// needed.
    pub fn table(&mut self, material: &Material) -> Result<Arc<Table>, EgtError> {
        self.reachable(material)?;
        self.build(|b, pending| b.plan(material, pending))
    }

    /// Refuses a material with more royal men of a type on one side than the game holds
    /// (see [`Rules::royal_cap`]). Asked of the tables asked for, not of those planned
    /// below them: a sub-table read through its colour mirror (KvKK's through KKvK, where
    /// Black starts with two kings and White with one) holds the other side's men.
    fn reachable(&self, material: &Material) -> Result<(), EgtError> {
        let rules = &self.rules;
        for m in &material.men {
            let (c, p) = (m.colour as usize, m.piece as usize);
            let have = (material.men.iter())
                .filter(|o| o.colour == m.colour && o.piece == m.piece)
                .count();
            let most = rules.royal_cap[c][p];
            if have > most {
                return Err(EgtError::Unreachable {
                    name: material.name(&rules.variant),
                    piece: rules.variant.pieces[p].name.clone(),
                    have,
                    most,
                });
            }
        }
        Ok(())
    }

    /// Plans with `plan` (the tables to fill join `pending`, each after those it converts
    /// into), then loads or solves them; on failure none of them is kept.
    fn build<T>(
        &mut self,
        plan: impl FnOnce(&mut Builder, &mut Vec<Arc<Table>>) -> Result<T, EgtError>,
    ) -> Result<T, EgtError> {
        let mut pending = Vec::new();
        // A file refused by an earlier build may have been written since.
        self.unreadable.clear();
        let out = plan(self, &mut pending).and_then(|out| {
            self.planned = pending.len();
            self.solved.store(0, Relaxed);
            schedule::run(&pending, self.settings.threads, |t, threads| {
                self.fill(t, threads)
            })?;
            Ok(out)
        });
        if out.is_err() {
            for t in &pending {
                self.tables.remove(&t.key());
                self.used_mb = self.used_mb.saturating_sub(megabytes(t.index.size));
            }
        }
        self.partial_last = self.partial.len();
        self.partial.clear();
        out
    }

    /// [`Builder::view`]'s plan.
    fn plan_view(
        &mut self,
        material: &Material,
        pending: &mut Vec<Arc<Table>>,
    ) -> Result<View, EgtError> {
        Ok(match self.source(material) {
            Some((solved, mirror)) => View {
                table: self.plan(&solved, pending)?,
                mirror: Some(mirror),
            },
            None => View {
                table: self.plan(material, pending)?,
                mirror: None,
            },
        })
    }

    /// The table of `material` with its conversions, empty unless it was built before; a
    /// new one joins `pending`, after the new tables it converts into.
    fn plan(
        &mut self,
        material: &Material,
        pending: &mut Vec<Arc<Table>>,
    ) -> Result<Arc<Table>, EgtError> {
        if let Some(t) = self.tables.get(material) {
            return Ok(t.clone());
        }
        let mut table = self.empty_table(material)?;
        // A cached table is read now, without the tables it converts into: only a solve
        // reads those (a probe of a conversion asks for its table by material), so a build
        // from cached sub-tables reads the ones a move reaches, not all below them.
        let loaded = !self.unreadable.contains(material)
            && self
                .cache_dir()
                .is_some_and(|dir| cache::load(dir, &mut table).is_ok());
        if !loaded {
            table.convs = self.conversions(&table, pending)?;
        }
        let table = Arc::new(table);
        self.tables.insert(material.clone(), table.clone());
        if !loaded {
            pending.push(table.clone());
        }
        Ok(table)
    }

    /// The cache folder tables are read from and written to: none with presets (a preset
    /// table is not the table its name says).
    fn cache_dir(&self) -> Option<&std::path::Path> {
        (self.settings.cache.as_deref()).filter(|_| self.settings.presets.is_empty())
    }

    /// Solves a planned table on `threads` threads (and caches it: the file's writer is
    /// set up first, so that the solve's idle threads may write what is final, see
    /// `cache::Writer`).
    fn fill(&self, table: &Table, threads: &Threads) -> Result<(), EgtError> {
        let not_cached = |e: cache::CacheError| log::warn!("{}: not cached: {e}", table.name);
        let writer = match self
            .cache_dir()
            .map(|dir| cache::Writer::create(dir, table))
        {
            Some(Ok(w)) => Some(w),
            Some(Err(e)) => {
                not_cached(e);
                None
            }
            None => None,
        };
        let write = |ready: &dyn Fn(Range<usize>) -> bool| {
            if let Some(w) = &writer {
                w.write_ready(table, ready);
            }
        };
        let idle = writer.is_some().then_some(&write as IdleWork);
        let solved = self.solve(table, threads, idle);
        // Whatever the outcome: dropped unfinished, the writer removes its file.
        solved?;
        if let Some(Err(e)) = writer.map(|w| w.finish(table, threads.get())) {
            not_cached(e);
        }
        Ok(())
    }

    fn solve(
        &self,
        table: &Table,
        threads: &Threads,
        idle: Option<IdleWork>,
    ) -> Result<(), EgtError> {
        let show = self.settings.progress;
        let mut shown = report::Progress::new(&table.name, Some((&self.solved, self.planned)));
        let mut progress = |what: &str| {
            if show {
                shown.step(what);
            }
        };
        let mut presets = Vec::new();
        for p in self
            .settings
            .presets
            .iter()
            .filter(|p| p.material == table.key())
        {
            table
                .index
                .encode_all(&table.from_sorted(&p.squares)[..p.squares.len()], |idx| {
                    presets.push((p.stm, idx, p.code))
                });
        }
        propagate::solve(table, threads, &presets, idle, &mut progress)?;
        self.solved.fetch_add(1, Relaxed);
        if show {
            shown.done();
        }
        Ok(())
    }

    /// A table with its indexer and zeroed values, no conversions yet.
    fn empty_table(&mut self, material: &Material) -> Result<Table, EgtError> {
        self.empty_sides(material, None)
    }

    /// [`Builder::empty_table`] with values for side `only` alone when given (the other's
    /// empty).
    fn empty_sides(&mut self, material: &Material, only: Option<usize>) -> Result<Table, EgtError> {
        let rules = &self.rules;
        let name = material.name(&rules.variant);
        refuse_unsupported(rules, material, &name)?;
        let mut group = u8::MAX;
        let mut domains = Vec::new();
        let kinds: Vec<u32> = material
            .men
            .iter()
            .map(|m| (u32::from(m.colour) << 16) | u32::from(m.piece))
            .collect();
        for m in &material.men {
            let (c, p) = (m.colour as usize, m.piece as usize);
            group &= rules.symmetric[c][p];
            let d = rules.domain[c][p];
            domains.push(d.squares().collect());
        }
        // En passant is played by the pawn levels, which need the men told apart (see
        // `layout::pawns_first`): alike pawns then take their places twice.
        let alike = self.settings.alike_men && !rules.en_passant_among(material);
        let index = index::Indexer::new(
            &rules.board,
            &domains,
            alike.then_some(kinds.as_slice()),
            group,
        );
        let colour: Vec<u8> = material.men.iter().map(|m| m.colour).collect();
        let royals = [0, 1].map(|c| {
            (material.men.iter().enumerate())
                .filter(|(_, m)| m.colour == c && !m.not_royal)
                .fold(0u32, |acc, (i, _)| acc | 1 << i)
        });
        // Values come last, once the order of the men (and so the index's size) is known.
        let mut table = Table {
            name,
            values: [Vec::new(), Vec::new()],
            open: [Vec::new(), Vec::new()],
            metric: self.settings.metric,
            piece: material.men.iter().map(|m| m.piece).collect(),
            // The first royal of each side (a material has one: see `Material::royal_each`).
            royal: royals.map(|bits| {
                if bits == 0 {
                    0
                } else {
                    bits.trailing_zeros() as usize
                }
            }),
            royals,
            promos: allowed_promotions(rules, material),
            colour,
            convs: Vec::new(),
            rules: rules.clone(),
            index,
            material: material.clone(),
            perm: None,
            stuck: Default::default(),
            counted: Default::default(),
            losses: Default::default(),
        };
        if rows::eligible(&table) {
            if let Some(perm) = layout::row_order(&table) {
                table = layout::reordered(&table, &perm);
            }
        }
        // The general solver's bits of undecided positions: none where the row solver
        // solves the table, so that a probe of the solved table (a conversion's, thousands
        // a row) reads no bit beside the value.
        let presets = self
            .settings
            .presets
            .iter()
            .any(|p| p.material == *material);
        let general = !propagate::by_rows(&table, presets);
        let need = megabytes(table.index.size);
        if self.used_mb + need > self.settings.memory_mb {
            return Err(EgtError::Memory {
                name: table.name,
                need,
                held: self.used_mb,
                budget: self.settings.memory_mb,
            });
        }
        self.used_mb += need;
        let size = table.index.size;
        table.values = [0, 1].map(|side| {
            let size = if only.is_none_or(|s| s == side) {
                size
            } else {
                0
            };
            word::zeroed_bytes(size)
        });
        if general {
            table.open = solve::open_bits(size);
        }
        Ok(table)
    }

    /// Every sub-table the table converts into, by conversion key.
    fn conversions(
        &mut self,
        table: &Table,
        pending: &mut Vec<Arc<Table>>,
    ) -> Result<Vec<Option<Conv>>, EgtError> {
        let m = table.men();
        let np = self.rules.variant.pieces.len();
        let mut convs: Vec<Option<Conv>> = (0..conv_slots(table) * (m * np + 1))
            .map(|_| None)
            .collect();
        self.preload(table);
        for key in conversion_keys(table) {
            let conv = match self.partial_conversion(table, key) {
                Some(conv) => conv,
                None => self.conversion(table, key, pending)?,
            };
            convs[table.conv_key_of(key.0, key.1)] = Some(conv);
        }
        Ok(convs)
    }

    /// Reads the cached tables that `table`'s conversions lead to, side by side on the
    /// build's threads (a pawn table's are several megabytes each, and were the most of
    /// its start). A table that cannot be read is left for [`Builder::plan`]. Of a table
    /// whose positions all conversions reach with one side to move (the other side's, or
    /// the same side's when read through its colour mirror: KPvKP's promotions reach
    /// KQvKP with Black to move from both sides) only that side is kept (see
    /// [`Builder::partial`]): half the memory to fill, where filling fresh memory was
    /// most of the reading.
    fn preload(&mut self, table: &Table) {
        let Some(dir) = self.cache_dir().map(|d| d.to_path_buf()) else {
            return;
        };
        // Per stored material: the one side its conversions reach, `None` for both.
        let mut wanted: Vec<(Material, Option<usize>)> = Vec::new();
        for key in conversion_keys(table) {
            let (sub, _) = self.sub_material(table, key);
            if !self.cached(&sub) {
                continue;
            }
            let source = self.source(&sub);
            let side = Self::side_reached(table, key, source.is_some());
            let solved = source.map_or(sub, |(solved, _)| solved);
            if self.tables.contains_key(&solved) {
                continue;
            }
            match wanted.iter_mut().find(|(m, _)| *m == solved) {
                Some((_, w)) if *w != side => *w = None,
                Some(_) => {}
                None => wanted.push((solved, side)),
            }
        }
        wanted.retain(|(m, side)| side.is_none_or(|s| !self.partial.contains_key(&(m.clone(), s))));
        let mut empty: Vec<Table> = Vec::new();
        let mut kept: Vec<Option<usize>> = Vec::new();
        for (m, side) in &wanted {
            if let Ok(t) = self.empty_sides(m, *side) {
                empty.push(t);
                kept.push(*side);
            }
        }
        let loaded = load_all(&dir, self.settings.threads, &mut empty);
        for ((t, ok), side) in empty.into_iter().zip(loaded).zip(kept) {
            if !ok {
                self.unreadable.insert(t.key());
                self.used_mb = self.used_mb.saturating_sub(megabytes(t.index.size));
            } else if let Some(side) = side {
                self.partial.insert((t.key(), side), Arc::new(t));
            } else {
                self.tables.insert(t.key(), Arc::new(t));
            }
        }
    }

    /// The side to move of the stored table (the sub-material's own, or its colour
    /// mirror's when `mirrored`) in every position that conversion `key` of `table` leads
    /// to: the other side than the one making it, seen through the mirror when read so.
    /// `None` when the key does not tell who makes it (men of both sides taken, as in an
    /// explosion).
    fn side_reached(table: &Table, (victims, promo): ConvKey, mirrored: bool) -> Option<usize> {
        let mut makers = 0u8;
        if let Some((i, _)) = promo {
            makers |= 1 << table.colour[i];
        }
        for j in (0..table.men()).filter(|&j| victims >> j & 1 != 0) {
            makers |= 1 << (1 - table.colour[j]);
        }
        let maker = match makers {
            0b01 => 0,
            0b10 => 1,
            _ => return None,
        };
        Some(if mirrored { maker } else { 1 - maker })
    }

    /// Conversion `key` of `table` through a table of which this build read one side (see
    /// [`Builder::preload`]), when it read that conversion's.
    fn partial_conversion(&self, table: &Table, key: ConvKey) -> Option<Conv> {
        let (sub, order) = self.sub_material(table, key);
        let source = self.source(&sub);
        let side = Self::side_reached(table, key, source.is_some())?;
        let view = match source {
            Some((solved, mirror)) => View {
                table: self.partial.get(&(solved, side))?.clone(),
                mirror: Some(mirror),
            },
            None => View {
                table: self.partial.get(&(sub, side))?.clone(),
                mirror: None,
            },
        };
        Some(conv_through(view, order))
    }

    /// The material `table` converts into by `(victim, promo)`, its men in order, with
    /// the man of `table` each of them was.
    fn sub_material(&self, table: &Table, (victims, promo): ConvKey) -> (Material, Vec<u8>) {
        let v = &self.rules.variant;
        let mut men: Vec<(ManSpec, u8)> = table
            .material
            .men
            .iter()
            .enumerate()
            .map(|(i, m)| (*m, i as u8))
            .collect();
        if let Some((i, pc)) = promo {
            men[i].0.piece = pc;
            men[i].0.not_royal = !v.pieces[pc as usize].royal;
        }
        // Highest first, so the others keep their places.
        for j in (0..men.len()).rev().filter(|&j| victims >> j & 1 != 0) {
            men.remove(j);
        }
        men.sort();
        let sub = Material::new(men.iter().map(|(m, _)| *m).collect());
        (sub, men.iter().map(|(_, i)| *i).collect())
    }

    fn conversion(
        &mut self,
        table: &Table,
        key: ConvKey,
        pending: &mut Vec<Arc<Table>>,
    ) -> Result<Conv, EgtError> {
        let (sub, order) = self.sub_material(table, key);
        let view = self.plan_view(&sub, pending)?;
        Ok(conv_through(view, order))
    }
}

/// The conversion reading `view` for a sub-material whose men are the converting table's
/// `order`.
fn conv_through(view: View, order: Vec<u8>) -> Conv {
    // `order` and the mirror's are by the canonical material's men; the sub-table may hold
    // its men in another order (see `Table::perm`).
    let (order, flip): (Vec<u8>, _) = match view.mirror {
        // The mirror's man `j` is the sub-material's man `mirror.order[j]`.
        Some(mirror) => (
            mirror.order.iter().map(|&k| order[k as usize]).collect(),
            Some(mirror.flip),
        ),
        None => (order, None),
    };
    let order = match &view.table.perm {
        Some(perm) => perm.iter().map(|&k| order[k as usize]).collect(),
        None => order,
    };
    Conv {
        table: view.table,
        order,
        flip,
    }
}

/// Fills `tables` from their files in `dir` on up to `threads` threads; per table, whether
/// it was read.
fn load_all(dir: &std::path::Path, threads: usize, tables: &mut [Table]) -> Vec<bool> {
    // Taken in turn by the threads: the tables differ in size (KPvK beside KQvKP).
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<(&mut Table, bool)>> =
        tables.iter_mut().map(|t| Mutex::new((t, false))).collect();
    let work = || {
        while let Some(slot) = slots.get(next.fetch_add(1, Relaxed)) {
            let mut slot = slot.lock();
            slot.1 = cache::load(dir, slot.0).is_ok();
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.min(slots.len()) {
            scope.spawn(work);
        }
        work();
    });
    slots.into_iter().map(|s| s.into_inner().1).collect()
}

/// A conversion: the men captured (bit `i` for man `i`), and the man promoted with its new
/// piece.
type ConvKey = (u32, Option<(usize, variants::PieceId)>);

/// How many victim sets `table`'s conversion keys range over (see [`Table::conv_key_of`]):
/// none or one man, and any set of men where a locust takes several at once.
fn conv_slots(table: &Table) -> usize {
    let m = table.men();
    if (0..2).any(|c| table.irregular(c)) {
        m + (1 << m)
    } else {
        m + 1
    }
}

/// Every conversion a position of `table` may make: a capture of any man its side may lose,
/// a promotion of any man to any of its choices, or both (a capture of another man); and
/// where a man takes several at once (a locust), every such set of the other side's men,
/// with or without that man's promotion.
fn conversion_keys(table: &Table) -> impl Iterator<Item = ConvKey> + '_ {
    let m = table.men();
    let victims = (0..m)
        .filter(|&v| !table.protected(v))
        .map(|v| 1u32 << v)
        .chain([0]);
    let single = victims.flat_map(move |victims| {
        let promos = (0..m).flat_map(|i| table.promos[i].iter().map(move |&pc| Some((i, pc))));
        promos
            .chain([None])
            .filter(move |promo| victims != 0 || promo.is_some())
            .filter(move |promo| !promo.is_some_and(|(i, _)| victims >> i & 1 != 0))
            .map(move |promo| (victims, promo))
    });
    single.chain(several_taken(table))
}

/// The conversions of [`conversion_keys`] that take two men or more: per man whose paths
/// take up to `k` at once, every set of 2 to `k` unprotected men of the other side.
fn several_taken(table: &Table) -> Vec<ConvKey> {
    let m = table.men();
    let mut keys = Vec::new();
    for i in 0..m {
        let c = table.colour[i] as usize;
        let most = table.rules.moves[c][table.piece[i] as usize].max_victims;
        if most < 2 {
            continue;
        }
        let theirs = (0..m)
            .filter(|&j| table.colour[j] as usize != c && !table.protected(j))
            .fold(0u32, |acc, j| acc | 1 << j);
        let promos = table.promos[i].iter().map(|&pc| Some((i, pc)));
        for set in (1..=theirs).filter(|&s| s & !theirs == 0) {
            if (2..=most).contains(&(set.count_ones() as usize)) {
                keys.extend(promos.clone().chain([None]).map(|p| (set, p)));
            }
        }
    }
    keys.sort();
    keys.dedup();
    keys
}

/// The name of a range jumper of `material` (tenjiku's generals) that some other man of it
/// (or a type that man may promote to) has a lower jump rank than: the generator plays a
/// range jumper as the slider it is where no man it could jump stands, as when only higher
/// men (the kings) are left.
fn jumper_with_lower_men(rules: &Rules, material: &Material) -> Option<String> {
    let pieces = &rules.variant.pieces;
    let promos = allowed_promotions(rules, material);
    let lowest = |j: usize| {
        let man = material.men[j].piece;
        (promos[j].iter().chain([&man]))
            .map(|&p| pieces[p as usize].jump_rank)
            .min()
            .unwrap_or(0)
    };
    material.men.iter().enumerate().find_map(|(i, m)| {
        let jumper = &pieces[m.piece as usize];
        let lower = (0..material.men.len()).any(|j| j != i && lowest(j) < jumper.jump_rank);
        (jumper.range_jump && lower).then(|| jumper.name.clone())
    })
}

/// The refusals of a material whose men the generator cannot solve (named `name`): a piece
/// with moves the tables do not model, lions on both sides, a range jumper with lower men
/// to jump, a promotion into a burner.
fn refuse_unsupported(rules: &Rules, material: &Material, name: &str) -> Result<(), EgtError> {
    for m in &material.men {
        let (c, p) = (m.colour as usize, m.piece as usize);
        if let Some(why) = rules.moves[c][p].unsupported {
            let piece = rules.variant.pieces[p].name.clone();
            return Err(EgtError::Piece {
                name: name.to_string(),
                piece,
                why,
            });
        }
    }
    if lions_on_both_sides(rules, material) {
        return Err(EgtError::LionTrading {
            name: name.to_string(),
        });
    }
    if let Some(piece) = jumper_with_lower_men(rules, material) {
        let why = "range jumps over lower men, and a man it could jump is in the table";
        return Err(EgtError::Piece {
            name: name.to_string(),
            piece,
            why,
        });
    }
    let promos = allowed_promotions(rules, material);
    for (m, choices) in material.men.iter().zip(&promos) {
        if choices
            .iter()
            .any(|&c| rules.variant.pieces[c as usize].burns)
        {
            let piece = rules.variant.pieces[m.piece as usize].name.clone();
            let why = "a promotion into a burner (which would burn as it lands)";
            return Err(EgtError::Piece {
                name: name.to_string(),
                piece,
                why,
            });
        }
    }
    Ok(())
}

/// True when the variant has lion-trading rules and both sides of `material` hold a lion or
/// a man that may become one. (With lions on one side only, the rules never apply: they
/// limit the captures of lions by the other side's lions, or its replies to a lion's loss.)
fn lions_on_both_sides(rules: &Rules, material: &Material) -> bool {
    let Some(trading) = &rules.variant.capture_matrix.lion else {
        return false;
    };
    let promos = allowed_promotions(rules, material);
    let lion = |i: usize| {
        let man = &material.men[i];
        trading.lions.contains(&man.piece) || promos[i].iter().any(|p| trading.lions.contains(p))
    };
    (0..2u8).all(|c| (0..material.men.len()).any(|i| material.men[i].colour == c && lion(i)))
}

/// Per man of `material`, the types it may promote to: its piece's choices less those its
/// side holds as many of as the variant's promotion limit allows (see [`Rules::promo_cap`]).
fn allowed_promotions(rules: &Rules, material: &Material) -> Vec<Vec<variants::PieceId>> {
    let held = |c: u8, t: variants::PieceId| {
        (material.men.iter())
            .filter(|m| m.colour == c && m.piece == t)
            .count()
    };
    (material.men.iter())
        .map(|m| {
            let c = m.colour as usize;
            (rules.promo[c][m.piece as usize].choices.iter())
                .copied()
                .filter(|&t| held(m.colour, t) < rules.promo_cap[c][t as usize])
                .collect()
        })
        .collect()
}
