//! `bench`: the fixed search whose node count is the engine's signature (src/bench.rs).

use std::process::ExitCode;

/// `springer bench`'s arguments.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Depth per position.
    #[arg(value_parser = clap::value_parser!(i32).range(1..=64))]
    depth: Option<i32>,
    /// Search threads (1 gives the signature node count).
    #[arg(value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
}

/// `springer bench`: ends with `Nodes searched: N` and `Nodes/second: M`.
pub fn run(args: &BenchArgs) -> ExitCode {
    let mut out = std::io::stdout().lock();
    let threads = args.threads.unwrap_or(1) as usize;
    match springer::bench::run(args.depth.unwrap_or(springer::bench::DEFAULT_DEPTH), threads, &mut out) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => springer::output::closed(e),
    }
}
