//! The `springer` command: with no arguments a UCI engine on stdin/stdout; otherwise one of the
//! commands in `cli/` (perft, bench, speedtest, probe, datagen, train, tune, the other games).

mod cli;

use clap::{CommandFactory, FromArgMatches};
use cli::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    // Leaked once: clap keeps `&'static str`s, and this string lives as long as the program anyway.
    let description: &'static str = springer::platform::description().leak();
    let matches = Cli::command().long_version(description).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match cli.command {
        None => {
            springer::uci::run();
            ExitCode::SUCCESS
        }
        Some(Command::Perft(args)) => cli::perft::run(&args),
        Some(Command::PerftSplit(args)) => cli::perft::run_split(&args),
        Some(Command::PerftUnit(args)) => cli::perft::run_unit(&args),
        Some(Command::PerftMerge(args)) => cli::perft::run_merge(&args),
        Some(Command::PerftSuite(args)) => cli::perft::run_suite(&args),
        Some(Command::Probe(args)) => cli::probe::run(&args),
        Some(Command::Bench(args)) => cli::bench::run(&args),
        Some(Command::Speedtest(args)) => cli::speedtest::run(&args),
        Some(Command::Tune(args)) => cli::tune::run(&args),
        Some(Command::Datagen(args)) => cli::datagen::run(args),
        Some(Command::Rescore(args)) => cli::datagen::run_rescore(args),
        Some(Command::Train(args)) => cli::train::run(args),
        Some(Command::NetLoss(args)) => cli::train::run_net_loss(&args),
        Some(Command::Connect4(command)) => cli::games::run_connect4(command),
        Some(Command::Kalah(command)) => cli::games::run_kalah(command),
    }
}
