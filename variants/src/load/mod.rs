//! The variant loader: INI text in, validated [`Variant`]s out, with every error found
//! (not just the first) as `FILE:LINE: key: message`.
//!
//! * [`load_str`] / [`load_file`] read a user's file; its sections may inherit from each
//!   other and from the built-in variants.
//! * [`builtins`] compiles the embedded files; [`find`] looks a variant up by name or alias.

mod chirality;
mod compile;
mod connect;
mod context;
mod counting;
mod diagonal_lines;
mod en_passant;
mod extinction;
mod fen;
mod fsf_betza;
mod gating;
mod inherit;
mod petrify;
mod piece_defs;
mod pieces;
mod repetition;
mod rules_keys;
mod stand_ins;
pub mod unmodelled;
pub mod values;
mod walling;
mod zones;

pub mod builtin;

use crate::error::VariantError;
use crate::ini::{self, Section};
use crate::rules::{Origin, Variant};

pub use builtin::BUILTIN_FILES;
pub use fen::{check as check_fen, is_check_count, start_squares, FenInfo};

/// Every section of every built-in file, for parents named by user files.
fn builtin_sections() -> Vec<Section> {
    BUILTIN_FILES
        .iter()
        .flat_map(|(file, text)| ini::parse(text, &builtin::label(file)).0)
        .collect()
}

/// Loads every variant of `text`, all or nothing: any error anywhere fails the whole text
/// (the built-in files are read this way); `path` labels errors and origins.
pub fn load_str(text: &str, path: &str) -> Result<Vec<Variant>, Vec<VariantError>> {
    let library = builtin_sections();
    load_with_library(text, path, &library, |s| Origin::File {
        path: path.to_string(),
        line: s.line,
    })
}

/// What loading one file gave, section by section: a bad section is reported and skipped,
/// and the rest of the file still loads.
#[derive(Clone, Debug, Default)]
pub struct FileReport {
    /// Every section in file order: its name, header line, and the variant or its errors.
    pub sections: Vec<SectionReport>,
    /// Errors that belong to no section (lines before the first header, bad headers).
    pub file_errors: Vec<VariantError>,
}

/// One section's outcome.
#[derive(Clone, Debug)]
pub struct SectionReport {
    /// The section's name.
    pub name: String,
    /// The line of its header.
    pub line: usize,
    /// The compiled variant, or every error found in the section (sorted by line).
    pub result: Result<Variant, Vec<VariantError>>,
}

impl FileReport {
    /// The variants that loaded, in file order.
    pub fn variants(&self) -> Vec<Variant> {
        (self.sections.iter())
            .filter_map(|s| s.result.as_ref().ok().cloned())
            .collect()
    }

    /// Every error: the file's own, then each section's, in line order.
    pub fn errors(&self) -> Vec<VariantError> {
        let mut all = self.file_errors.clone();
        for s in &self.sections {
            if let Err(e) = &s.result {
                all.extend(e.iter().cloned());
            }
        }
        all.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
        all
    }

    /// The variants if nothing failed, else every error (the all-or-nothing reading).
    pub fn into_result(self) -> Result<Vec<Variant>, Vec<VariantError>> {
        let errors = self.errors();
        if errors.is_empty() {
            Ok(self.variants())
        } else {
            Err(errors)
        }
    }
}

/// Loads `text` section by section; a section that fails is reported and skipped.
pub fn load_report(text: &str, path: &str) -> FileReport {
    let library = builtin_sections();
    report_with_library(text, path, &library, |s| Origin::File {
        path: path.to_string(),
        line: s.line,
    })
}

/// Reads a file from disk section by section ([`load_report`]).
pub fn load_file_report(path: &str) -> FileReport {
    // Bounded: a device or a huge file is refused, never read without end.
    match crate::file::read_text(std::path::Path::new(path)) {
        Ok(text) => load_report(&text, path),
        Err(message) => FileReport {
            sections: Vec::new(),
            file_errors: vec![VariantError {
                path: path.to_string(),
                line: 0,
                key: "file".to_string(),
                message,
            }],
        },
    }
}

fn report_with_library(
    text: &str,
    path: &str,
    library: &[Section],
    origin: impl Fn(&Section) -> Origin,
) -> FileReport {
    let (sections, file_errors) = ini::parse(text, path);
    let (resolved, resolve_errors) = ini::resolve(&sections, library);
    let mut report = FileReport {
        sections: Vec::new(),
        file_errors,
    };
    for s in &sections {
        let mut errors = s.errors.clone();
        let about = resolve_errors.iter().filter(|e| is_about(e, s));
        errors.extend(about.map(|e| name_fsf_parent(e.clone())));
        let compiled = match resolved.iter().find(|r| r.section.line == s.line) {
            Some(r) if errors.is_empty() => compile::compile(r, origin(s)),
            _ => Err(Vec::new()),
        };
        let result = match compiled {
            Ok(v) => Ok(v),
            Err(e) => {
                errors.extend(e);
                errors.sort_by_key(|e| e.line);
                Err(errors)
            }
        };
        report.sections.push(SectionReport {
            name: s.name.clone(),
            line: s.line,
            result,
        });
    }
    report
}

/// An unknown parent (or further ancestor) that is one of Fairy-Stockfish's built-ins is
/// named as such.
fn name_fsf_parent(mut e: VariantError) -> VariantError {
    let missing = (e.message.strip_prefix("unknown parent variant `"))
        .and_then(|rest| rest.strip_suffix('`'))
        .filter(|name| builtin::FSF_BUILTIN_NAMES.contains(name))
        .map(str::to_string);
    if let Some(name) = missing {
        // An alias (`mini`, `normal`) is played under its section's name, which a parent
        // must use. Only on this error path are the built-ins loaded to find it.
        let all = builtins().unwrap_or_default();
        e.message = match find(&all, &name) {
            Some(v) => format!(
                "parent `{name}` is Locust's alias of `{}`: name that section as the parent",
                v.name
            ),
            None => format!(
                "parent `{name}` is a Fairy-Stockfish built-in variant that Locust does not play"
            ),
        };
    }
    e
}

/// True when a resolve error is about section `s` (it is reported at the section's header).
fn is_about(e: &VariantError, s: &Section) -> bool {
    e.line == s.line && e.key == s.name
}

fn load_with_library(
    text: &str,
    path: &str,
    library: &[Section],
    origin: impl Fn(&Section) -> Origin,
) -> Result<Vec<Variant>, Vec<VariantError>> {
    report_with_library(text, path, library, origin).into_result()
}

/// Loads a file from disk, all or nothing: the variants if no section failed.
pub fn load_file(path: &str) -> Result<Vec<Variant>, Vec<VariantError>> {
    load_file_report(path).into_result()
}

/// Compiles one embedded file (by its file name, e.g. `chess.ini`).
pub fn load_builtin_file(file: &str) -> Result<Vec<Variant>, Vec<VariantError>> {
    load_builtin_with(file, &builtin_sections())
}

/// [`load_builtin_file`] with the built-in sections parsed already (`library`).
fn load_builtin_with(file: &str, library: &[Section]) -> Result<Vec<Variant>, Vec<VariantError>> {
    let Some((_, text)) = BUILTIN_FILES.iter().find(|(f, _)| *f == file) else {
        return Err(vec![VariantError {
            path: builtin::label(file),
            line: 0,
            key: "file".to_string(),
            message: "no such built-in file".to_string(),
        }]);
    };
    load_with_library(text, &builtin::label(file), library, |_| {
        Origin::Builtin(file.to_string())
    })
}

/// Every built-in variant, in file order. Errors would be a bug in the embedded files.
pub fn builtins() -> Result<Vec<Variant>, Vec<VariantError>> {
    let mut all = Vec::new();
    let mut errors = Vec::new();
    // Parsed once for all files: each file's variants may build on any built-in section.
    let library = builtin_sections();
    for (file, _) in BUILTIN_FILES {
        match load_builtin_with(file, &library) {
            Ok(v) => all.extend(v),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(all)
    } else {
        Err(errors)
    }
}

/// The built-in variant named `name` (by name or alias, as [`find`]) compiled alone: a tool
/// about one variant need not compile the other built-ins (6 ms, a sixtieth of a 4-man
/// table's build). `None` when no built-in has that name.
pub fn builtin(name: &str) -> Option<Result<Variant, Vec<VariantError>>> {
    let library = builtin_sections();
    let aliased = |s: &&Section| {
        (s.entries.iter())
            .any(|e| e.key == "alias" && e.value.split_whitespace().any(|a| a == name))
    };
    let section =
        (library.iter().find(|s| s.name == name)).or_else(|| library.iter().find(aliased))?;
    let (file, _) = BUILTIN_FILES
        .iter()
        .find(|(f, _)| builtin::label(f) == section.path)?;
    let (resolved, errors) = ini::resolve(std::slice::from_ref(section), &library);
    if !errors.is_empty() {
        return Some(Err(errors));
    }
    let r = resolved.first()?;
    Some(compile::compile(r, Origin::Builtin(file.to_string())))
}

/// Finds a variant by name or alias.
pub fn find<'a>(variants: &'a [Variant], name: &str) -> Option<&'a Variant> {
    variants.iter().find(|v| v.name == name).or_else(|| {
        variants
            .iter()
            .find(|v| v.aliases.iter().any(|a| a == name))
    })
}
