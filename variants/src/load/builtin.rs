//! The built-in variant files, embedded in the binary. Each file is an ordinary variant INI
//! file; children may inherit from sections of other built-in files.

/// Name and text of every built-in file, in the order `locust variants` lists them.
pub const BUILTIN_FILES: &[(&str, &str)] = &[
    ("chess.ini", include_str!("../../data/chess.ini")),
    (
        "fischerandom.ini",
        include_str!("../../data/fischerandom.ini"),
    ),
    ("crazyhouse.ini", include_str!("../../data/crazyhouse.ini")),
    ("atomic.ini", include_str!("../../data/atomic.ini")),
    ("berolina.ini", include_str!("../../data/berolina.ini")),
    ("knightmate.ini", include_str!("../../data/knightmate.ini")),
    ("spartan.ini", include_str!("../../data/spartan.ini")),
    ("hekatomb.ini", include_str!("../../data/hekatomb.ini")),
    ("battleotk.ini", include_str!("../../data/battleotk.ini")),
    ("shatranj.ini", include_str!("../../data/shatranj.ini")),
    ("makruk.ini", include_str!("../../data/makruk.ini")),
    ("courier.ini", include_str!("../../data/courier.ini")),
    ("capablanca.ini", include_str!("../../data/capablanca.ini")),
    ("gothic.ini", include_str!("../../data/gothic.ini")),
    ("embassy.ini", include_str!("../../data/embassy.ini")),
    ("grand.ini", include_str!("../../data/grand.ini")),
    ("xiangqi.ini", include_str!("../../data/xiangqi.ini")),
    ("janggi.ini", include_str!("../../data/janggi.ini")),
    ("shogi.ini", include_str!("../../data/shogi.ini")),
    ("minishogi.ini", include_str!("../../data/minishogi.ini")),
    ("chu.ini", include_str!("../../data/chu.ini")),
    ("tenjiku.ini", include_str!("../../data/tenjiku.ini")),
];

/// What the path of every built-in file starts with.
pub const PREFIX: &str = "<builtin>/";

/// The path used in errors and origins for a built-in file.
pub fn label(file: &str) -> String {
    format!("{PREFIX}{file}")
}
