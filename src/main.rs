//! The `locust` binary: without arguments it speaks XBoard or UCI on stdin/stdout; with a
//! subcommand it runs a tool (variants, check-variants; perft and bench to come).

mod cli;

use clap::Parser;

fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    cli::run(cli::Cli::parse())
}
