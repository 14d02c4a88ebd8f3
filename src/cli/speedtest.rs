//! `speedtest`: the hardware benchmark (src/speedtest.rs): nodes per second of game-like
//! searches on every thread, for a fixed time.

use springer::speedtest::{self, Settings};
use std::process::ExitCode;

/// `springer speedtest`'s arguments.
#[derive(clap::Args)]
pub struct SpeedtestArgs {
    /// Search threads [default: every logical CPU].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Hash in MB (less if the memory is not there) [default: 64 per thread].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    hash: Option<u64>,
    /// The run's length in seconds, shared equally by the positions.
    #[arg(long, default_value_t = speedtest::DEFAULT_SECONDS, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    seconds: u64,
    /// Print the result as one JSON object on stdout (progress still goes to stderr).
    #[arg(long)]
    json: bool,
}

/// `springer speedtest`: a progress line every few seconds on stderr, the result on stdout.
pub fn run(args: &SpeedtestArgs) -> ExitCode {
    let mut settings = Settings::for_this_machine();
    if let Some(threads) = args.threads {
        settings.threads = threads as usize;
        settings.hash_mb = settings.threads * speedtest::HASH_MB_PER_THREAD;
    }
    if let Some(hash) = args.hash {
        settings.hash_mb = hash as usize;
    }
    settings.seconds = args.seconds;
    eprintln!(
        "speedtest: threads {}, hash {} MB, {} s, CPU {}",
        settings.threads,
        settings.hash_mb,
        settings.seconds,
        springer::platform::cpu_name()
    );
    let progress = |p: &speedtest::Progress| {
        eprintln!(
            "{:>3} % {:>5}/{} positions, {} nodes, {} nps",
            p.done * 100 / p.total.max(1),
            p.done,
            p.total,
            p.nodes,
            p.nps()
        );
    };
    let result = match speedtest::run(&settings, &mut { progress }) {
        Ok(result) => result,
        Err(e) => return super::bad_input(e),
    };
    if result.hash_mb != settings.hash_mb {
        eprintln!("warning: Hash {} MB could not be allocated; used {} MB", settings.hash_mb, result.hash_mb);
    }
    let text = if args.json { result.json() + "\n" } else { result.text() };
    match std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => springer::output::closed(e),
    }
}
