//! `datagen`: self-play games for network training, written in resumable chunks (src/datagen);
//! `rescore`: older games' positions searched again by this build's net.

use super::bad_input;
use springer::say;
use std::path::PathBuf;
use std::process::ExitCode;

/// The hard node limit per move as a multiple of the soft one, by default: far enough that a
/// normal iteration finishes, near enough to cut one that explodes.
const DEFAULT_HARD_NODES_FACTOR: u64 = 8;

/// The node limits of each search, datagen's and rescore's.
#[derive(clap::Args)]
struct NodeLimits {
    /// The soft node limit per search: no new iteration starts after it, and the one under way
    /// finishes (unless --hard-nodes cuts it), so scores come from complete iterations.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// The hard node limit per search, which stops it inside an iteration [default: 8 x
    /// --nodes]. `--hard-nodes` equal to `--nodes` searches as datagen did before 2026-12-01.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    hard_nodes: Option<u64>,
}

impl NodeLimits {
    /// The soft and the hard limit.
    fn resolve(&self) -> (u64, u64) {
        (self.nodes, self.hard_nodes.unwrap_or(self.nodes.saturating_mul(DEFAULT_HARD_NODES_FACTOR)))
    }
}

/// `springer datagen`'s arguments.
#[derive(clap::Args)]
pub struct DatagenArgs {
    /// The output directory.
    #[arg(long)]
    out: PathBuf,
    /// Games to play in this run.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Games played at once, one per thread.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: u64,
    #[command(flatten)]
    limits: NodeLimits,
    /// Random legal moves before the search takes over: N or N + 1, at random, so each side
    /// makes the last one in half the games.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=40))]
    random_plies: u32,
    /// An opening whose first search scores beyond this many centipawns, either side ahead, is
    /// drawn again (32000 keeps every opening).
    #[arg(long, default_value_t = springer::datagen::DEFAULT_OPENING_SCORE_LIMIT as i64,
          value_parser = clap::value_parser!(i64).range(100..=32_000))]
    opening_score_limit: i64,
    /// Start from random Chess960 positions.
    #[arg(long)]
    chess960: bool,
    /// Games per chunk file.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    games_per_chunk: u32,
    /// Seed of the random opening moves (game n of a directory always plays the same way).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// `springer datagen`: a progress line per chunk on stderr, a summary on stdout.
pub fn run(args: DatagenArgs) -> ExitCode {
    let DatagenArgs { out, games, threads, limits, random_plies, opening_score_limit, chess960, games_per_chunk, seed } =
        args;
    let (nodes, hard_nodes) = limits.resolve();
    let config = springer::datagen::Config {
        out,
        games,
        threads: threads as usize,
        nodes,
        hard_nodes,
        random_plies,
        opening_score_limit: opening_score_limit as i32,
        chess960,
        games_per_chunk,
        seed,
    };
    let report = |summary: &springer::datagen::Summary| {
        eprintln!(
            "chunks {} games {} positions {} ({:.0} positions/s)",
            summary.chunks,
            summary.games,
            summary.positions,
            summary.positions as f64 / summary.seconds.max(1e-9)
        );
    };
    match springer::datagen::run(&config, &mut |summary| report(summary)) {
        Ok(summary) => {
            say!(
                "datagen: {} games, {} positions in {} chunks to {} in {:.1} s ({:.0} positions/s)",
                summary.games,
                summary.positions,
                summary.chunks,
                config.out.display(),
                summary.seconds,
                summary.positions as f64 / summary.seconds.max(1e-9)
            );
            ExitCode::SUCCESS
        }
        Err(e) => bad_input(e),
    }
}

/// `springer rescore`'s arguments.
#[derive(clap::Args)]
pub struct RescoreArgs {
    /// The directory of datagen chunks to rescore (read only).
    input: PathBuf,
    /// The output directory: the same chunk names, moves and results, new scores.
    #[arg(long)]
    out: PathBuf,
    /// Games searched at once, one per thread.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: u64,
    #[command(flatten)]
    limits: NodeLimits,
}

/// `springer rescore`: a progress line per chunk on stderr, a summary on stdout.
pub fn run_rescore(args: RescoreArgs) -> ExitCode {
    let RescoreArgs { input, out, threads, limits } = args;
    let (nodes, hard_nodes) = limits.resolve();
    let config = springer::datagen::rescore::Config { input, out, threads: threads as usize, nodes, hard_nodes };
    let rate = |summary: &springer::datagen::rescore::Summary| summary.rescored as f64 / summary.seconds.max(1e-9);
    let report = |summary: &springer::datagen::rescore::Summary| {
        eprintln!(
            "chunks {} positions {} rescored {} ({:.0} rescored/s)",
            summary.chunks,
            summary.positions,
            summary.rescored,
            rate(summary)
        );
    };
    match springer::datagen::rescore::run(&config, &mut |summary| report(summary)) {
        Ok(summary) => {
            say!(
                "rescore: {} chunks ({} already there), {} positions, {} rescored to {} in {:.1} s ({:.0} rescored/s)",
                summary.chunks,
                summary.skipped,
                summary.positions,
                summary.rescored,
                config.out.display(),
                summary.seconds,
                rate(&summary)
            );
            ExitCode::SUCCESS
        }
        Err(e) => bad_input(e),
    }
}
