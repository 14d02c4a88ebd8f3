//! The command line: the clap root and one module per command family, each owning its `Args`
//! and a `run` that returns the exit code (0 done, 1 a check failed, 2 bad input, as clap uses
//! for bad arguments). `main.rs` parses and dispatches; no command means UCI.

pub mod bench;
pub mod datagen;
pub mod games;
pub mod perft;
pub mod probe;
pub mod speedtest;
pub mod train;
pub mod tune;

use clap::{Parser, Subcommand};
use springer::position::{ParsedFen, Position, Variant};
use std::process::ExitCode;

/// The `springer` command line.
#[derive(Parser)]
#[command(
    name = "springer",
    version,
    about = "Springer: a bitboard chess engine. Without a command it speaks UCI on stdin/stdout."
)]
pub struct Cli {
    /// The command; none means UCI.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The commands, in the order `springer --help` lists them.
#[derive(Subcommand)]
pub enum Command {
    /// Count the leaves of the legal move tree DEPTH plies deep, with time and speed.
    Perft(perft::PerftArgs),
    /// Split a perft into work units: the distinct positions PLIES deep, each with its
    /// multiplicity and the depth left, written as one checksummed file.
    PerftSplit(perft::SplitArgs),
    /// Count work units of a units file; prints one checked `result` line per unit.
    PerftUnit(perft::UnitArgs),
    /// Check that every unit of a units file came back exactly once and sum them.
    PerftMerge(perft::MergeArgs),
    /// Probe the Syzygy tables: a position's WDL, DTZ and DTZ-optimal move.
    Probe(probe::ProbeArgs),
    /// Search the bench positions to a fixed depth (one thread, fresh table each); ends with
    /// `Nodes searched: N` and `Nodes/second: M`.
    Bench(bench::BenchArgs),
    /// The hardware benchmark: game-like searches on every thread for a fixed time (a share of
    /// it per position); ends with nodes per second, in total and per thread.
    Speedtest(speedtest::SpeedtestArgs),
    /// Texel-tune the evaluation on labelled positions (`FEN;RESULT` lines, RESULT 1.0, 0.5 or
    /// 0.0 for White) and write a new `src/eval/params.rs`.
    Tune(tune::TuneArgs),
    /// Self-play games for network training, written in chunks to DIR (resumes after the chunks
    /// already there); format in src/datagen/format.rs.
    Datagen(datagen::DatagenArgs),
    /// Search older datagen games' trainable positions again with this build's net and write
    /// them, moves and results kept, to a new directory (resumes after the chunks already there).
    Rescore(datagen::RescoreArgs),
    /// Train the network on datagen directories and gen-0 text files and write a quantised net
    /// (src/train; the loss per epoch goes to stderr).
    Train(train::TrainArgs),
    /// The training loss of nets on the same positions (every one, none held out), each after
    /// the first with its paired difference to the first: which net predicts new games best.
    NetLoss(train::NetLossArgs),
    /// Connect Four: solve positions (`solve`).
    #[command(subcommand)]
    Connect4(games::Connect4Command),
    /// Kalah: solve a position (`solve`).
    #[command(subcommand)]
    Kalah(games::KalahCommand),
    /// Run an EPD perft suite (`FEN ;D1 n ;D2 n ...`) and report every mismatch.
    PerftSuite(perft::SuiteArgs),
}

/// Exit code for bad input (FEN, file, arguments), as clap uses for bad arguments.
pub const EXIT_BAD_INPUT: u8 = 2;

/// Prints `error: {message}` to stderr and gives the bad-input exit code.
pub fn bad_input(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(EXIT_BAD_INPUT)
}

/// Millions of nodes per second.
pub fn mnps(nodes: u64, seconds: f64) -> f64 {
    nodes as f64 / seconds.max(1e-9) / 1e6
}

/// The variant a `--chess960` flag names.
pub fn variant(chess960: bool) -> Variant {
    if chess960 {
        Variant::Chess960
    } else {
        Variant::Standard
    }
}

/// Parses `fen`, warning on stderr about dropped castling rights.
pub fn parse_fen(fen: &str, variant: Variant) -> Result<Position, springer::position::FenError> {
    let ParsedFen { position, dropped } = Position::parse_fen(fen, variant)?;
    for right in dropped {
        eprintln!("warning: {right}");
    }
    Ok(position)
}
