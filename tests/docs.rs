//! No document cites a file that is not there: every repository path named in README.md and
//! docs/**/*.md (the history logs included), in backticks, links or plain text, exists; every
//! relative link resolves; and a path outside the repository is one of the few known places
//! (the shared folder beside the checkout, the installed peers, temporary folders, and in the
//! history logs the measurement sessions' scratch under /work/).

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

/// Where repository paths start: a word beginning with one of these must name a file.
const ROOTS: &[&str] = &[
    "src/",
    "tests/",
    "tools/",
    "docs/",
    "variants/",
    "protocol/",
    ".ci/",
];

/// Files at the top of the repository that documents name without a folder.
const TOP_FILES: &[&str] = &["engines.ini", "Cargo.toml", "clippy.toml"];

/// Places outside the repository a document may name: the shared folder beside the checkout,
/// installed programs and peers, temporary folders, the table cache, XBoard's settings, and
/// the placeholder of install.md's examples.
const EXTERNAL: &[&str] = &[
    "../shared/",
    "/usr/",
    "/bin/",
    "/opt/peers/",
    "/tmp/",
    "~/.cache/locust",
    "~/.xboardrc",
    "/path/to/",
];

/// The measurement sessions' scratch folder: named by the history logs only.
const SCRATCH: &str = "/work/";

/// Words that stand for a name in a path (`tests/data/perft/VARIANT.perft`).
const PLACEHOLDERS: &[&str] = &[
    "VARIANT", "V", "NAME", "FILE", "DIR", "N", "M", "MAT", "X", "D",
];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every Markdown file under docs/, as paths relative to the repository.
fn documents() -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from("README.md")];
    let mut dirs = vec![PathBuf::from("docs")];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(repo().join(&dir)).unwrap();
        for entry in entries {
            let rel = dir.join(entry.unwrap().file_name());
            if repo().join(&rel).is_dir() {
                dirs.push(rel);
            } else if rel.extension().is_some_and(|e| e == "md") {
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

/// Whether `c` can be part of a path word (placeholders `<x>`, `{a,b}` and globs included).
fn path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_./*<>{}~-".contains(c)
}

/// The line without its URLs (`https://...` names no file of ours).
fn without_urls(line: &str) -> String {
    line.split_whitespace()
        .filter(|w| !w.contains("://"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The path words of a line, trimmed of sentence punctuation and of `:LINE` / `::item` tails.
fn words(line: &str) -> Vec<String> {
    without_urls(line)
        .split(|c: char| !path_char(c) && c != ':')
        .map(|w| w.split(':').next().unwrap_or(""))
        .map(|w| w.trim_end_matches(['.', ',', ';']).to_string())
        .filter(|w| w.len() > 2 && w.chars().any(|c| c.is_ascii_lowercase()))
        .collect()
}

/// The targets of the Markdown links of a line (`[text](target)`), anchors dropped.
fn link_targets(line: &str) -> Vec<String> {
    line.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .filter(|t| !t.contains("://") && !t.starts_with('#') && !t.starts_with("mailto:"))
        .map(|t| t.split('#').next().unwrap_or("").to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

/// Does `name` match the one-segment pattern `pat`, where `*` stands for any run?
fn matches(pat: &str, name: &str) -> bool {
    match pat.split_once('*') {
        None => pat == name,
        Some((head, tail)) => {
            name.starts_with(head)
                && (0..=name.len() - head.len()).any(|i| {
                    name.is_char_boundary(head.len() + i) && matches(tail, &name[head.len() + i..])
                })
        }
    }
}

/// One path segment with its placeholders (`VARIANT`, `<x>`, `{a,b}`, `...`) as `*`.
fn as_pattern(segment: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in segment.chars() {
        match c {
            '<' | '{' => {
                depth += 1;
                out.push('*');
            }
            '>' | '}' => depth -= 1,
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    let out = out.replace("...", "*");
    out.split('.')
        .map(|part| {
            if PLACEHOLDERS.contains(&part) {
                "*"
            } else {
                part
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// Whether some file or folder matches `path` (relative to `base`), placeholders and globs
/// standing for any name.
fn exists(base: &Path, path: &str) -> bool {
    if base.join(path).exists() {
        return true;
    }
    let mut found = vec![base.to_path_buf()];
    for segment in path.trim_end_matches('/').split('/') {
        let pat = as_pattern(segment);
        let mut next = Vec::new();
        for dir in &found {
            if !pat.contains('*') {
                let p = dir.join(&pat);
                if p.exists() {
                    next.push(p);
                }
                continue;
            }
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for e in entries.flatten() {
                if matches(&pat, &e.file_name().to_string_lossy()) {
                    next.push(e.path());
                }
            }
        }
        found = next;
    }
    !found.is_empty()
}

/// What is wrong with a word of document `doc`, if it names a path that is not there.
fn dead_word(doc: &Path, word: &str) -> Option<String> {
    let dir = repo().join(doc.parent().unwrap_or(Path::new("")));
    let in_history = doc.starts_with("docs/history");
    if ROOTS.iter().any(|r| word.starts_with(r)) || TOP_FILES.contains(&word) {
        return (!exists(&repo(), word)).then(|| format!("`{word}` is not in the repository"));
    }
    let outside = word.starts_with('/') || word.starts_with("../") || word.starts_with("~/");
    // One segment (`/tmp`, a FEN's `/mv1f`) is not a path worth checking.
    if !outside
        || word
            .trim_start_matches(['/', '.', '~'])
            .matches('/')
            .count()
            == 0
    {
        return None;
    }
    if EXTERNAL.iter().any(|e| word.starts_with(e)) || (in_history && word.starts_with(SCRATCH)) {
        return None;
    }
    if word.starts_with("../") && exists(&dir, word) {
        return None;
    }
    Some(format!(
        "`{word}` is outside the repository and not a known place"
    ))
}

/// Every dead citation of one document, as `FILE:LINE: what`.
fn dead_in(doc: &Path, text: &str) -> Vec<String> {
    let dir = repo().join(doc.parent().unwrap_or(Path::new("")));
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = |what: String| format!("{}:{}: {what}", doc.display(), n + 1);
        for w in words(line) {
            out.extend(dead_word(doc, &w).map(at));
        }
        for t in link_targets(line) {
            if !exists(&dir, &t) {
                out.push(at(format!("link ({t}) does not resolve")));
            }
        }
    }
    out
}

#[test]
fn documents_cite_only_files_that_exist() {
    let docs = documents();
    assert!(docs.len() > 5, "found only {docs:?}");
    let mut dead = Vec::new();
    for doc in &docs {
        let text = std::fs::read_to_string(repo().join(doc)).unwrap();
        dead.extend(dead_in(doc, &text));
    }
    assert!(dead.is_empty(), "dead citations:\n{}", dead.join("\n"));
}

#[test]
fn a_dead_path_is_found_and_a_live_one_is_not() {
    let doc = Path::new("docs/ENGINE.md");
    let text = "See `src/board/attack.rs`, src/board/no_such.rs and [x](NO_SUCH.md); \
                tests/data/perft/VARIANT.perft, tools/*.sh, ../shared/DESIGN.md, /usr/games/x, \
                /work/s1/a.sh, https://example.org/src/x.rs, [y](history/strength-log.md).";
    let dead = dead_in(doc, text);
    assert_eq!(dead.len(), 3, "{dead:#?}");
    assert!(dead[0].contains("src/board/no_such.rs"), "{dead:#?}");
    assert!(
        dead[1].contains("/work/s1/a.sh"),
        "scratch outside the logs: {dead:#?}"
    );
    assert!(dead[2].contains("(NO_SUCH.md)"), "{dead:#?}");
    let history = Path::new("docs/history/performance-log.md");
    assert!(dead_in(history, "/work/s1/a.sh and [z](../PERFORMANCE.md)").is_empty());
}
