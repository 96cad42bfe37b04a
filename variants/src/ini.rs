//! The INI reader: sections `[name]` / `[child:parent]`, `key = value` lines, `#`/`;` comments,
//! with the file and line of every key kept so that later errors can point at it.
//!
//! Reading is in two steps. [`parse`] splits one text into [`Section`]s; a syntax error inside
//! a section belongs to that section (so that the rest of the file still loads), and a key set
//! twice in one section takes its later value, as Fairy-Stockfish reads it (its own
//! variants.ini resets keys that way: `promotionPieceTypes = -` and later the real list).
//! [`resolve`] then flattens inheritance: a
//! child sees every key of its ancestors unless it sets the key itself. Parents are looked up
//! among all sections given (the user's file and the built-in files), so `[mine:chess]` works.
//! Nothing here knows what a key means; unknown keys are the loader's business.

use std::collections::{HashMap, HashSet};

use crate::error::VariantError;

/// One `key = value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The key, as written (case-sensitive, like Fairy-Stockfish).
    pub key: String,
    /// The value with surrounding blanks removed.
    pub value: String,
    /// File the line is in.
    pub path: String,
    /// 1-based line number.
    pub line: usize,
    /// How far up the inheritance chain the line is: 0 for the section's own lines, 1 for
    /// its parent's, and so on (set by [`resolve`]). A piece letter defined at a smaller depth
    /// replaces the same letter inherited from further up, as in Fairy-Stockfish.
    pub depth: usize,
    /// For [`MAP_KEYS`]: the pairs set by ancestors, which the value's own pairs override
    /// piece by piece (empty otherwise).
    pub inherited: String,
}

/// One `[name]` or `[name:parent]` section with its entries in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The variant name.
    pub name: String,
    /// The parent's name, if the header names one.
    pub parent: Option<String>,
    /// File the section is in.
    pub path: String,
    /// Line of the header.
    pub line: usize,
    /// The entries, in order.
    pub entries: Vec<Entry>,
    /// Syntax errors found inside this section: they make this section fail alone.
    pub errors: Vec<VariantError>,
}

/// A section with inheritance flattened: its own entries override its ancestors'.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The section itself (its `entries` are its own lines only).
    pub section: Section,
    /// Every entry in force, ancestors' first, each key once.
    pub entries: Vec<Entry>,
    /// The inheritance chain, root first, the section itself last (a child's piece keys
    /// change what its ancestors' letters name: `load::inherit`).
    pub chain: Vec<Section>,
}

/// Longest line the reader accepts; longer ones are an error rather than a slow path.
const MAX_LINE_LEN: usize = 10_000;
/// Deepest inheritance chain accepted (a guard beside cycle detection).
const MAX_DEPTH: usize = 64;

fn err(path: &str, line: usize, key: &str, message: impl Into<String>) -> VariantError {
    VariantError {
        path: path.to_string(),
        line,
        key: key.to_string(),
        message: message.into(),
    }
}

/// True for characters allowed in section names and keys.
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '+')
}

fn check_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(is_name_char)
}

/// Removes a comment: `#` or `;` at the start of a line, or after a blank.
fn strip_comment(line: &str) -> &str {
    let trimmed = line.trim_start();
    if trimmed.starts_with('#') || trimmed.starts_with(';') {
        return "";
    }
    let bytes = line.as_bytes();
    for i in 1..bytes.len() {
        if (bytes[i] == b'#' || bytes[i] == b';') && bytes[i - 1].is_ascii_whitespace() {
            return &line[..i];
        }
    }
    line
}

/// Splits `text` into sections. Returns every section that could be read (each with its own
/// syntax errors) and the errors that belong to no section (lines before the first header,
/// unreadable headers).
pub fn parse(text: &str, path: &str) -> (Vec<Section>, Vec<VariantError>) {
    let mut sections: Vec<Section> = Vec::new();
    let mut file_errors = Vec::new();
    let mut seen_sections: HashMap<String, usize> = HashMap::new();
    // A header that cannot be read: its lines belong to no section and are skipped.
    let mut in_bad_header = false;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = strip_comment(raw).trim();
        if raw.len() <= MAX_LINE_LEN && line.is_empty() {
            continue;
        }
        if raw.len() <= MAX_LINE_LEN && line.starts_with('[') {
            in_bad_header = false;
            match parse_header(&line[1..]) {
                Ok((name, parent)) => {
                    let mut section = Section {
                        name: name.clone(),
                        parent,
                        path: path.to_string(),
                        line: line_no,
                        entries: Vec::new(),
                        errors: Vec::new(),
                    };
                    if let Some(first) = seen_sections.get(&name) {
                        let msg = format!("duplicate section (first defined on line {first})");
                        section.errors.push(err(path, line_no, &name, msg));
                    }
                    seen_sections.entry(name).or_insert(line_no);
                    sections.push(section);
                }
                Err(message) => {
                    in_bad_header = true;
                    file_errors.push(err(path, line_no, "section", message));
                }
            }
            continue;
        }
        match (sections.last_mut(), in_bad_header) {
            (_, true) => {}
            (Some(section), false) => read_entry(raw, line, line_no, section),
            (None, false) => match entry_of(raw, line, path, line_no) {
                Ok(e) => file_errors.push(err(path, line_no, &e.key, "key outside any [section]")),
                Err(e) => file_errors.push(e),
            },
        }
    }
    (sections, file_errors)
}

/// Adds one `key = value` line to `section`, or records its error there. A key set again
/// replaces the earlier value (Fairy-Stockfish's reading), keeping the later line.
fn read_entry(raw: &str, line: &str, line_no: usize, section: &mut Section) {
    match entry_of(raw, line, &section.path, line_no) {
        Ok(entry) => match section.entries.iter_mut().find(|e| e.key == entry.key) {
            Some(slot) => *slot = entry,
            None => section.entries.push(entry),
        },
        Err(e) => section.errors.push(e),
    }
}

/// Reads one non-empty, non-header line as an entry.
fn entry_of(raw: &str, line: &str, path: &str, line_no: usize) -> Result<Entry, VariantError> {
    if raw.len() > MAX_LINE_LEN {
        return Err(err(path, line_no, "line", "line too long"));
    }
    let Some((key, value)) = line.split_once('=') else {
        return Err(err(path, line_no, line, "expected `key = value`"));
    };
    let (key, value) = (key.trim(), value.trim());
    if !check_name(key) {
        return Err(err(path, line_no, key, "bad key name"));
    }
    Ok(Entry {
        key: key.to_string(),
        value: value.to_string(),
        path: path.to_string(),
        line: line_no,
        depth: 0,
        inherited: String::new(),
    })
}

/// Reads the inside of `[...]` (after the opening bracket).
fn parse_header(rest: &str) -> Result<(String, Option<String>), String> {
    let inner = rest
        .strip_suffix(']')
        .ok_or_else(|| "section header must end with `]`".to_string())?;
    let (name, parent) = match inner.split_once(':') {
        Some((n, p)) => (n.trim(), Some(p.trim())),
        None => (inner.trim(), None),
    };
    if !check_name(name) {
        return Err(format!("bad section name `{name}`"));
    }
    match parent {
        Some(p) if !check_name(p) => Err(format!("bad parent name `{p}`")),
        _ => Ok((name.to_string(), parent.map(str::to_string))),
    }
}

/// Flattens inheritance for each of `own` sections. Parents are searched in `own` first,
/// then in `library` (built-in sections); a section named after its own parent (`[chu:chu]`)
/// inherits the built-in of that name, which it replaces. Errors name unknown parents and
/// cycles.
pub fn resolve(own: &[Section], library: &[Section]) -> (Vec<Resolved>, Vec<VariantError>) {
    let mut by_name: HashMap<&str, &Section> = HashMap::new();
    for s in library {
        by_name.insert(s.name.as_str(), s);
    }
    // A name defined twice in the file means its first section (the second is an error).
    let mut own_names = HashSet::new();
    for s in own.iter().filter(|s| own_names.insert(s.name.as_str())) {
        by_name.insert(s.name.as_str(), s);
    }
    let built_in: HashMap<&str, &Section> = library.iter().map(|s| (s.name.as_str(), s)).collect();
    let maps = (&by_name, &built_in);
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for section in own {
        match chain(section, maps) {
            Ok(ancestors) => out.push(Resolved {
                section: section.clone(),
                entries: merge(&ancestors),
                chain: ancestors.iter().map(|s| (*s).clone()).collect(),
            }),
            Err(e) => errors.push(e),
        }
    }
    (out, errors)
}

/// The section and its ancestors, root first.
fn chain<'a>(
    section: &'a Section,
    (by_name, built_in): (&HashMap<&str, &'a Section>, &HashMap<&str, &'a Section>),
) -> Result<Vec<&'a Section>, VariantError> {
    let mut list = vec![section];
    let mut names = vec![section.name.clone()];
    let mut seen: HashSet<*const Section> = HashSet::from([section as *const Section]);
    let mut current = section;
    while let Some(parent) = &current.parent {
        let at = |msg: String| err(&section.path, section.line, &section.name, msg);
        let map = if *parent == current.name {
            built_in
        } else {
            by_name
        };
        let Some(next) = map.get(parent.as_str()) else {
            return Err(at(format!("unknown parent variant `{parent}`")));
        };
        names.push(parent.clone());
        if !seen.insert(*next as *const Section) {
            return Err(at(format!("cyclic inheritance: {}", names.join(" -> "))));
        }
        if list.len() > MAX_DEPTH {
            return Err(at("inheritance chain too deep".to_string()));
        }
        if !next.errors.is_empty() {
            return Err(at(format!(
                "parent variant `{parent}` did not load (its errors are reported at line {})",
                next.line
            )));
        }
        list.push(next);
        current = next;
    }
    list.reverse();
    Ok(list)
}

/// Keys whose value is a per-piece map: Fairy-Stockfish updates only the pieces a child
/// names and keeps its parent's other pairs (`[cannonshogi:shogi]`'s `promotedPieceType`
/// adds its new pieces and keeps shogi's `r:d`). A child's entry keeps its ancestors' pairs
/// in [`Entry::inherited`]; the readers let the child's pair for a piece win, and skip an
/// inherited pair whose piece the child removed. (Locust's own `pieceValue` replaces the
/// parent's list: tenjiku's empty `pieceValue =` drops chu's values.)
pub const MAP_KEYS: &[&str] = &[
    "promotedPieceType",
    "promotionLimit",
    "pieceValueMg",
    "pieceValueEg",
];

/// The entries in force, root first; each keeps how far up the chain it was set.
fn merge(ancestors: &[&Section]) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    for (i, s) in ancestors.iter().enumerate() {
        let depth = ancestors.len() - 1 - i;
        for e in &s.entries {
            let mut e = Entry { depth, ..e.clone() };
            match entries.iter_mut().find(|x| x.key == e.key) {
                Some(slot) => {
                    if MAP_KEYS.contains(&e.key.as_str()) {
                        e.inherited = format!("{} {}", slot.inherited, slot.value);
                    }
                    *slot = e
                }
                None => entries.push(e),
            }
        }
    }
    entries
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn reads_sections_keys_and_comments() {
        let text = "# top\n[a]\nx = 1 ; note\n\n[b:a]\ny=2\n";
        let (s, e) = parse(text, "t.ini");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].entries[0].value, "1");
        assert_eq!(s[1].parent.as_deref(), Some("a"));
        assert_eq!(s[1].entries[0].line, 6);
        let (r, e) = resolve(&s, &[]);
        assert!(e.is_empty());
        assert_eq!(r[1].entries.len(), 2);
    }

    #[test]
    fn reports_cycles_with_names() {
        let (s, _) = parse("[a:b]\n[b:c]\n[c:a]\n", "t.ini");
        let (_, e) = resolve(&s, &[]);
        assert_eq!(e.len(), 3);
        assert!(
            e[0].message.contains("a -> b -> c -> a"),
            "{}",
            e[0].message
        );
    }
}
