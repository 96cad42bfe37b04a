//! The `locust` binary: without arguments it speaks XBoard or UCI on stdin/stdout; with a
//! subcommand it runs a tool (perft, variants, check-variants, bench).

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    println!("Locust {}", env!("CARGO_PKG_VERSION"));
}
