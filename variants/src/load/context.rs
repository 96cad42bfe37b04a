//! Key access for one resolved section: every key read is marked used, so that the keys left
//! over at the end are reported as unknown; every failure becomes a `VariantError` that
//! points at the line where the key was set.

use crate::error::VariantError;
use crate::ini::{Entry, Resolved};

/// The section being compiled, with its used-key marks and collected errors.
pub struct Ctx<'a> {
    resolved: &'a Resolved,
    used: Vec<bool>,
    /// Every error found so far.
    pub errors: Vec<VariantError>,
}

impl<'a> Ctx<'a> {
    /// Starts reading a resolved section.
    pub fn new(resolved: &'a Resolved) -> Self {
        Ctx {
            resolved,
            used: vec![false; resolved.entries.len()],
            errors: Vec::new(),
        }
    }

    /// Takes a key, marking it used.
    pub fn take(&mut self, key: &str) -> Option<Entry> {
        let i = self.resolved.entries.iter().position(|e| e.key == key)?;
        self.used[i] = true;
        Some(self.resolved.entries[i].clone())
    }

    /// The value of a key without marking it used.
    pub fn peek(&self, key: &str) -> Option<&str> {
        let e = self.resolved.entries.iter().find(|e| e.key == key)?;
        Some(e.value.as_str())
    }

    /// Takes a key only if the section itself sets it (not inherited), e.g. `alias`.
    pub fn take_own(&mut self, key: &str) -> Option<Entry> {
        let own = self.resolved.section.entries.iter().any(|e| e.key == key);
        let entry = self.take(key)?;
        own.then_some(entry)
    }

    /// Takes every key that starts with `prefix`, in file order.
    pub fn take_prefixed(&mut self, prefix: &str) -> Vec<Entry> {
        let mut out = Vec::new();
        for (i, e) in self.resolved.entries.iter().enumerate() {
            if e.key.starts_with(prefix) && e.key.len() > prefix.len() {
                self.used[i] = true;
                out.push(e.clone());
            }
        }
        out
    }

    /// Records an error about an entry.
    pub fn fail(&mut self, entry: &Entry, message: impl Into<String>) {
        self.errors.push(VariantError {
            path: entry.path.clone(),
            line: entry.line,
            key: entry.key.clone(),
            message: message.into(),
        });
    }

    /// Records an error about the section as a whole (its header line).
    pub fn fail_section(&mut self, key: &str, message: impl Into<String>) {
        let s = &self.resolved.section;
        self.errors.push(VariantError {
            path: s.path.clone(),
            line: s.line,
            key: key.to_string(),
            message: message.into(),
        });
    }

    /// Takes and parses a key; a parse failure is recorded and gives `None`.
    pub fn parsed<T>(&mut self, key: &str, parse: impl Fn(&str) -> Result<T, String>) -> Option<T> {
        let entry = self.take(key)?;
        match parse(&entry.value) {
            Ok(v) => Some(v),
            Err(msg) => {
                self.fail(&entry, msg);
                None
            }
        }
    }

    /// A boolean key with its default.
    pub fn flag(&mut self, key: &str, default: bool) -> bool {
        self.parsed(key, super::values::boolean).unwrap_or(default)
    }

    /// The section's name.
    pub fn name(&self) -> &str {
        &self.resolved.section.name
    }

    /// Reports every key that nothing read.
    pub fn report_unknown(&mut self) {
        let unknown: Vec<Entry> = self
            .resolved
            .entries
            .iter()
            .zip(&self.used)
            .filter(|(_, used)| !**used)
            .map(|(e, _)| e.clone())
            .collect();
        for e in unknown {
            self.fail(&e, "unknown key");
        }
    }
}
