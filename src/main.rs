//! The `locust` binary: without arguments it speaks XBoard or UCI on stdin/stdout; with a
//! subcommand it runs a tool (variants, check-variants, perft, bench, search, egt).

// Lint posture: no unsafe code; documented public items; no unwrap/expect outside tests
// (CI runs clippy with -D warnings, so these warnings fail the build).
#![forbid(unsafe_code)]
#![warn(missing_docs, clippy::unwrap_used, clippy::expect_used)]

mod cli;

/// The allocator: the table solver's passes make and drop many short buffers on two
/// threads at once, where the system allocator's arena locks showed in profiles.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::Parser;

fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    quiet_on_closed_output();
    cli::run(cli::Cli::parse())
}

/// `locust variants | head` closes our output early; printing then panics with "Broken
/// pipe". Nobody is left to read an error, so leave quietly; other panics report as usual.
fn quiet_on_closed_output() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.contains("Broken pipe") {
            std::process::exit(0);
        }
        report(info);
    }));
}
