//! The table service of the engine: tables built on a background thread while the game goes
//! on, kept in memory (and in the cache folder), and probed by the search. Requests name the
//! root's material and the materials one capture away; a request that would not fit the
//! clock or the memory budget is declined with a message.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, Receiver, Sender};
use parking_lot::{Mutex, RwLock};
use variants::Variant;

use super::material::Material;
use super::mirror::{source_of, swapped};
use super::probe::table_form;
use super::rules::Rules;
use super::solve::{Metric, Table};
use super::{Builder, Settings, View};
use crate::board::position::Position;

/// Where the service's messages about a request go (a table skipped for the clock, built,
/// read, failed): the search that asked passes one that forwards them to its GUI, so that
/// the service knows nothing of the search above it.
pub type Notices = Box<dyn Fn(String) + Send>;

/// Positions (both sides to move) solved per second per thread, measured on this project's
/// machine (docs/PERFORMANCE.md, session 18: KBBvKN 165 million in 15 s on one thread,
/// KQvKRN 336 million in 48 s of CPU), used to decline builds that would not fit the clock.
const POSITIONS_PER_SECOND: f64 = 7.0e6;

/// The default men limit. Four-man tables build in under half a second; five-man tables in
/// 15 to 50 s of one core and 0.4 to 1 GB (docs/PERFORMANCE.md): games of a few minutes a
/// side get them, and at blitz the clock budget declines them, one message each.
pub const DEFAULT_MAX_MEN: usize = 5;

/// The same for the general solver (the tables `rows::eligible` refuses: boards of more
/// than 128 squares, passing, capture exceptions, men taken on the way or burnt, paths that
/// need a friend or a foe, promotions that depend on the capture), measured the same way
/// (session 19, when capablanca KAvKR and xiangqi KRNvKA still went through it: 20.5
/// million in 9.9 s and 4.4 million in 2.1 s, one thread each).
const GENERAL_POSITIONS_PER_SECOND: f64 = 2.0e6;

/// How often a search waiting for its root's table looks again.
const TABLE_POLL: Duration = Duration::from_millis(5);

/// Waits until `ready`, while what it waits for is still `queued` and `keep_waiting` says
/// so; true when it became ready.
fn poll(
    ready: impl Fn() -> bool,
    queued: impl Fn() -> bool,
    keep_waiting: impl Fn() -> bool,
) -> bool {
    loop {
        if ready() {
            return true;
        }
        if !queued() || !keep_waiting() {
            return false;
        }
        std::thread::sleep(TABLE_POLL);
    }
}

/// What the service may do.
#[derive(Clone, Debug)]
pub struct ServiceSettings {
    /// Build and probe at all.
    pub enabled: bool,
    /// Most men (both sides, royals included) a table may hold.
    pub max_men: usize,
    /// Cache folder (`None`: memory only).
    pub cache: Option<PathBuf>,
    /// Memory budget for all tables, in megabytes.
    pub memory_mb: usize,
}

impl Default for ServiceSettings {
    fn default() -> Self {
        ServiceSettings {
            enabled: true,
            max_men: DEFAULT_MAX_MEN,
            cache: super::cache::default_dir(),
            memory_mb: 1024,
        }
    }
}

/// The colour mirror of `m` when its positions are read from `m`'s table (see `mirror`).
fn readable_mirror(rules: &Rules, m: &Material) -> Option<Material> {
    let (other, _) = swapped(m);
    source_of(rules, &other)
        .filter(|(solved, _)| solved == m)
        .map(|_| other)
}

/// A variant's solved tables.
struct Solved {
    rules: Arc<Rules>,
    tables: HashMap<Material, Arc<Table>>,
}

impl Solved {
    /// Where `material`'s positions are read: its own table, or its colour mirror's (see
    /// `mirror`), if ready.
    fn view(&self, material: &Material) -> Option<View> {
        if let Some(t) = self.tables.get(material) {
            return Some(View {
                table: t.clone(),
                mirror: None,
            });
        }
        let (solved, mirror) = source_of(&self.rules, material)?;
        self.tables.get(&solved).map(|t| View {
            table: t.clone(),
            mirror: Some(mirror),
        })
    }

    /// True when `material`'s positions can be read.
    fn ready(&self, material: &Material) -> bool {
        self.view(material).is_some()
    }
}

struct Request {
    variant: Variant,
    materials: Vec<Material>,
    budget: Option<Duration>,
    notices: Option<Notices>,
}

/// Builds tables in the background and answers probes.
pub struct TableService {
    settings: RwLock<ServiceSettings>,
    solved: RwLock<HashMap<String, Solved>>,
    queued: Mutex<HashSet<(String, String)>>,
    /// Tables declined for the clock, with their estimated build time: asked for again only
    /// under a budget they fit (a search at every move would otherwise repeat the refusal).
    declined: Mutex<HashMap<(String, String), Duration>>,
    /// Table rules per variant (see [`TableService::rules_of`]).
    rules: Mutex<HashMap<String, Option<Arc<Rules>>>>,
    requests: Sender<Request>,
}

impl std::fmt::Debug for TableService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableService")
            .field("settings", &*self.settings.read())
            .finish_non_exhaustive()
    }
}

impl TableService {
    /// Starts the service and its builder thread.
    pub fn start(settings: ServiceSettings) -> Arc<TableService> {
        let (tx, rx) = unbounded();
        let service = Arc::new(TableService {
            settings: RwLock::new(settings),
            solved: RwLock::new(HashMap::new()),
            queued: Mutex::new(HashSet::new()),
            declined: Mutex::new(HashMap::new()),
            rules: Mutex::new(HashMap::new()),
            requests: tx,
        });
        let weak = Arc::downgrade(&service);
        std::thread::spawn(move || builder_loop(rx, weak));
        service
    }

    /// The settings.
    pub fn settings(&self) -> ServiceSettings {
        self.settings.read().clone()
    }

    /// Changes the settings; tables already built stay.
    pub fn set(&self, f: impl FnOnce(&mut ServiceSettings)) {
        f(&mut self.settings.write());
    }

    /// The value code of a position from its table, if that table is ready.
    pub fn probe(&self, pos: &Position) -> Option<u8> {
        let max = self.settings.read().max_men;
        if pos.men_count() > max {
            return None;
        }
        let solved = self.solved.read();
        let s = solved.get(&pos.variant().name)?;
        if !super::probe::readable(pos) {
            return None;
        }
        let (material, squares, stm) = table_form(&s.rules, pos)?;
        Some(s.view(&material)?.code(stm, &squares))
    }

    /// True when some table of the variant is ready.
    pub fn has_tables(&self, variant: &str) -> bool {
        self.solved
            .read()
            .get(variant)
            .is_some_and(|s| !s.tables.is_empty())
    }

    /// The names of `v`'s materials whose tables are ready.
    pub fn ready_tables(&self, v: &Variant) -> Vec<String> {
        self.solved.read().get(&v.name).map_or_else(Vec::new, |s| {
            let mirrors = s.tables.keys().filter_map(|m| readable_mirror(&s.rules, m));
            let mut names: Vec<String> = s
                .tables
                .keys()
                .chain(&mirrors.collect::<Vec<_>>())
                .map(|m| m.name(v))
                .collect();
            names.sort();
            names.dedup();
            names
        })
    }

    /// True while a table of `v` that was asked for is queued or being built.
    pub fn busy(&self, v: &Variant) -> bool {
        let ready = self.ready_tables(v);
        self.queued
            .lock()
            .iter()
            .any(|(name, m)| *name == v.name && !ready.contains(m))
    }

    /// Waits while the table of `pos`'s own material is queued or being built and
    /// `keep_waiting` says so; true when the table is ready.
    pub fn await_table(&self, pos: &Position, keep_waiting: impl Fn() -> bool) -> bool {
        let settings = self.settings.read().clone();
        if !settings.enabled || pos.men_count() > settings.max_men {
            return false;
        }
        let v = pos.variant();
        let Some(rules) = self.solved.read().get(&v.name).map(|s| s.rules.clone()) else {
            return self.await_first(pos, keep_waiting);
        };
        let Some((material, _, _)) = table_form(&rules, pos) else {
            return false;
        };
        let key = (v.name.clone(), material.name(v));
        let ready = || {
            self.solved
                .read()
                .get(&v.name)
                .is_some_and(|s| s.ready(&material))
        };
        poll(ready, || self.queued.lock().contains(&key), &keep_waiting)
    }

    /// [`TableService::await_table`] before the variant has any table (its rules are not
    /// kept yet): waits until the first arrive, then asks again.
    fn await_first(&self, pos: &Position, keep_waiting: impl Fn() -> bool) -> bool {
        let name = &pos.variant().name;
        let queued = || self.queued.lock().iter().any(|(v, _)| v == name);
        poll(|| self.has_tables(name), queued, &keep_waiting) && self.await_table(pos, keep_waiting)
    }

    /// The table rules of `v`, made once per variant and shared with its builder and its
    /// solved tables (`None`: the variant has no tables).
    fn rules_of(&self, v: &Variant) -> Option<Arc<Rules>> {
        let mut made = self.rules.lock();
        if let Some(r) = made.get(&v.name) {
            return r.clone();
        }
        let r = Rules::new(v, None, false).ok().map(Arc::new);
        made.insert(v.name.clone(), r.clone());
        r
    }

    /// Asks for the tables a game at `pos` will need soon: its own material and those one
    /// capture away, within the men limit. `budget`: the time the build may take.
    pub fn prepare(&self, pos: &Position, budget: Option<Duration>, notices: Option<Notices>) {
        let settings = self.settings.read().clone();
        if !settings.enabled || pos.men_count() > settings.max_men + 1 {
            return;
        }
        let v = pos.variant();
        let Some(rules) = self.rules_of(v) else {
            return;
        };
        let Some((material, _, _)) = table_form(&rules, pos) else {
            return;
        };
        let mut wanted = Vec::new();
        if material.men.len() <= settings.max_men {
            wanted.push(material.clone());
        }
        // The builder takes them in order: what a move at the root reaches first (the
        // search's next root is most likely there), then the other captures.
        wanted.extend(reached_at_root(&rules, pos, &material));
        for (i, m) in material.men.iter().enumerate() {
            if m.not_royal {
                wanted.push(material.without(i));
            }
        }
        wanted.retain(|m| m.men.len() <= settings.max_men);
        let mut seen = HashSet::new();
        wanted.retain(|m| seen.insert(m.clone()));
        let mut queued = self.queued.lock();
        let solved = self.solved.read();
        let declined = self.declined.lock();
        wanted.retain(|m| {
            let ready = solved.get(&v.name).is_some_and(|s| s.ready(m));
            let key = (v.name.clone(), m.name(v));
            let too_long = declined
                .get(&key)
                .is_some_and(|need| budget.is_some_and(|b| b < *need));
            !ready && !too_long && queued.insert(key)
        });
        drop(declined);
        if !wanted.is_empty() {
            let _ = self.requests.send(Request {
                variant: v.clone(),
                materials: wanted,
                budget,
                notices,
            });
        }
    }
}

/// The materials other than `own` that the legal moves of `pos` reach (captures and
/// promotions), the most valuable loss for the side not to move first.
fn reached_at_root(rules: &Rules, pos: &Position, own: &Material) -> Vec<Material> {
    let mut pos = pos.clone();
    let (mut moves, mut ops) = (Vec::new(), Vec::new());
    pos.legal_moves(&mut moves, &mut ops);
    let pieces = &rules.variant.pieces;
    let worth = |m: &Material, colour: u8| -> i32 {
        m.men
            .iter()
            .filter(|man| man.colour == colour)
            .map(|man| pieces.get(man.piece as usize).map_or(0, |p| p.value))
            .sum()
    };
    let them = pos.side_to_move().flip().index() as u8;
    let before = worth(own, them);
    let mut reached: Vec<(i32, Material)> = Vec::new();
    for m in &moves {
        let saved = pos.make(m, &mut ops);
        if let Some((after, _, _)) = table_form(rules, &pos) {
            if after != *own {
                reached.push((before - worth(&after, them), after));
            }
        }
        pos.unmake(saved, &mut ops);
    }
    reached.sort_by_key(|r| std::cmp::Reverse(r.0));
    reached.into_iter().map(|r| r.1).collect()
}

fn say(notices: &Option<Notices>, text: String) {
    if let Some(tell) = notices {
        tell(text);
    }
}

/// The builder thread: one [`Builder`] per variant, alive as long as the service.
fn builder_loop(rx: Receiver<Request>, service: std::sync::Weak<TableService>) {
    let mut builders: HashMap<String, Builder> = HashMap::new();
    while let Ok(req) = rx.recv() {
        let Some(service) = service.upgrade() else {
            return;
        };
        let settings = service.settings();
        let name = req.variant.name.clone();
        if !builders.contains_key(&name) {
            // The rules the requests were made with: one instance per variant.
            let Some(rules) = service.rules_of(&req.variant) else {
                continue;
            };
            let s = Settings {
                metric: Metric::Dtm,
                threads: 1,
                cache: settings.cache.clone(),
                memory_mb: settings.memory_mb,
                progress: false,
                presets: Vec::new(),
                alike_men: true,
                colour_mirrors: true,
            };
            builders.insert(name.clone(), Builder::new(rules, s));
        }
        let Some(builder) = builders.get_mut(&name) else {
            continue;
        };
        for material in req.materials {
            let text = material.name(&req.variant);
            // A cached table is read, not solved: no clock is too short for it (the tables
            // it converts into were cached with it).
            let cached = builder.cached(&material);
            let size = builder.size_of(&material);
            let rate = if super::rows::rules_allow(&builder.rules) {
                POSITIONS_PER_SECOND
            } else {
                GENERAL_POSITIONS_PER_SECOND
            };
            let seconds = 2.0 * size as f64 / rate;
            if !cached && req.budget.is_some_and(|b| seconds > b.as_secs_f64()) {
                say(&req.notices, format!("table {text} skipped: about {seconds:.1} s to build, more than the clock allows"));
                let key = (name.clone(), text);
                service.queued.lock().remove(&key);
                service
                    .declined
                    .lock()
                    .insert(key, Duration::from_secs_f64(seconds));
                continue;
            }
            let how = if cached { "loading" } else { "building" };
            say(&req.notices, format!("table {text}: {how}"));
            let start = Instant::now();
            match builder.view(&material) {
                Ok(_) => {
                    let mut solved = service.solved.write();
                    let entry = solved.entry(name.clone()).or_insert_with(|| Solved {
                        rules: builder.rules.clone(),
                        tables: HashMap::new(),
                    });
                    for t in builder.tables() {
                        entry.tables.insert(t.key(), t.clone());
                    }
                    say(
                        &req.notices,
                        format!(
                            "table {text}: ready in {:.2} s",
                            start.elapsed().as_secs_f64()
                        ),
                    );
                }
                Err(e) => {
                    // Not queued any more: nobody waits for a table that will not come.
                    service.queued.lock().remove(&(name.clone(), text.clone()));
                    say(&req.notices, format!("table {text}: {e}"));
                }
            }
        }
    }
}
