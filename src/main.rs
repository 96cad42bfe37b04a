//! The `locust` binary: without arguments it speaks XBoard or UCI on stdin/stdout; with a
//! subcommand it runs a tool (variants, check-variants; perft and bench to come).

// Lint posture: no unsafe code; documented public items; no unwrap/expect outside tests
// (CI runs clippy with -D warnings, so these warnings fail the build).
#![forbid(unsafe_code)]
#![warn(missing_docs, clippy::unwrap_used, clippy::expect_used)]

mod cli;

use clap::Parser;

fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    cli::run(cli::Cli::parse())
}
