//! The `springer` command: with no arguments a UCI engine on stdin/stdout; `perft`,
//! `perft-suite` and `bench` for move-generator verification and speed measurement.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use springer::perft::{self, PerftCase};
use springer::position::{ParsedFen, Position, Variant, START_FEN};
use springer::say;
use springer::threads::{available_cpus, WorkerPool};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "springer",
    version,
    about = "Springer: a bitboard chess engine. Without a command it speaks UCI on stdin/stdout."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree DEPTH plies deep, with time and speed.
    Perft {
        /// Plies to count.
        depth: u32,
        /// The position (default: the start position).
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// Print the count below each legal move too.
        #[arg(long)]
        divide: bool,
        /// Worker threads (the root and the ply below are split between them).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Make every leaf move instead of counting the last ply (what a search pays per node).
        #[arg(long)]
        full: bool,
        /// Cache subtree counts in a table of this many MB (for deep counts; a full 64-bit key
        /// check, see src/perft/hashed.rs for the risk of a false hit).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
        hash: Option<u64>,
        /// Read the FEN as Chess960 (X-FEN or Shredder-FEN castling; castling moves written
        /// king-takes-rook). Without it, castling rights standard chess cannot have are dropped.
        #[arg(long)]
        chess960: bool,
    },
    /// Split a perft into work units: the distinct positions PLIES deep, each with its
    /// multiplicity and the depth left, written as one checksummed file.
    PerftSplit {
        /// The total perft depth.
        depth: u32,
        /// Plies split off at the root (the units are the positions this deep).
        #[arg(long)]
        plies: u32,
        /// The root position (default: the start position).
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// Read the FEN as Chess960.
        #[arg(long)]
        chess960: bool,
        /// The units file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Count work units of a units file; prints one checked `result` line per unit.
    PerftUnit {
        /// The units file (from perft-split).
        units: PathBuf,
        /// The unit numbers to count (`7`, or a range `0-99`).
        #[arg(required = true)]
        indices: Vec<String>,
        /// Hash table MB for each unit's hashed perft.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
        hash: u64,
        /// Worker threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Check that every unit of a units file came back exactly once and sum them.
    PerftMerge {
        /// The units file.
        units: PathBuf,
        /// Files of result lines (default: standard input).
        results: Vec<PathBuf>,
    },
    /// Probe the Syzygy tables: a position's WDL, DTZ and DTZ-optimal move.
    Probe {
        /// The position, as FEN.
        #[arg(long)]
        fen: String,
        /// Directories holding the tables (separated by ':'; ';' on Windows).
        #[arg(long)]
        syzygy: String,
    },
    /// Search the bench positions to a fixed depth (one thread, fresh table each); ends with
    /// `Nodes searched: N` and `Nodes/second: M`.
    Bench {
        /// Depth per position.
        #[arg(value_parser = clap::value_parser!(i32).range(1..=64))]
        depth: Option<i32>,
        /// Search threads (1 gives the signature node count).
        #[arg(value_parser = clap::value_parser!(u64).range(1..=1024))]
        threads: Option<u64>,
    },
    /// Texel-tune the evaluation on labelled positions (`FEN;RESULT` lines, RESULT 1.0, 0.5 or
    /// 0.0 for White) and write a new `src/eval/params.rs`.
    Tune {
        /// The labelled positions.
        data: PathBuf,
        /// Use at most this many positions.
        #[arg(long, default_value_t = usize::MAX)]
        positions: usize,
        /// Adam epochs.
        #[arg(long, default_value_t = 400)]
        epochs: usize,
        /// Adam step size in centipawns.
        #[arg(long, default_value_t = 1.0)]
        learning_rate: f64,
        /// Weight of the game result in the target when a reference score is given (third field).
        #[arg(long, default_value_t = 0.5)]
        result_weight: f32,
        /// Pull toward the starting values.
        #[arg(long, default_value_t = 1e-8)]
        regularization: f64,
        /// Where to write the parameters.
        #[arg(long, default_value = "params.rs")]
        out: PathBuf,
    },
    /// Self-play games for network training, written in chunks to DIR (resumes after the chunks
    /// already there); format in src/datagen/format.rs.
    Datagen {
        /// The output directory.
        #[arg(long)]
        out: PathBuf,
        /// Games to play in this run.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Games played at once, one per thread.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
        threads: u64,
        /// The node limit per move.
        #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Random legal moves before the search takes over.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=40))]
        random_plies: u32,
        /// Start from random Chess960 positions.
        #[arg(long)]
        chess960: bool,
        /// Games per chunk file.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        games_per_chunk: u32,
        /// Seed of the random opening moves (game n of a directory always plays the same way).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Train the network on datagen directories and gen-0 text files and write a quantised net
    /// (src/train; the loss per epoch goes to stderr).
    Train {
        /// Datagen directories (every chunk-*.bin) and `FEN | score | bestmove | result` text files.
        #[arg(required = true)]
        data: Vec<PathBuf>,
        /// The net file to write.
        #[arg(long)]
        out: PathBuf,
        /// Passes over the data.
        #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        epochs: u64,
        /// Positions per Adam step.
        #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        batch: u64,
        /// Adam's step size at the first epoch (it decays to 5 % of it by the last).
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// The game result's share of the target (the rest is the search score). 0 by default:
        /// blending in the results of these short games squeezed the net's scale (docs/nnue.md).
        #[arg(long, default_value_t = 0.0)]
        wdl: f32,
        /// Worker threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
        threads: u64,
        /// Seed of the shuffles and the initial weights.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also train on each position without castling rights mirrored left to right.
        #[arg(long, conflicts_with = "king_mirror")]
        mirror: bool,
        /// King-mirrored inputs: each side sees the board mirrored left to right while its king
        /// stands on files e-h (a `SPRNNUE3` net; every build reads it). Its mirrored copies
        /// would be duplicates, so `--mirror` is refused beside it.
        #[arg(long)]
        king_mirror: bool,
        /// Hidden neurons per perspective: 64, 128, 256 or 512 (default: the embedded net's). A
        /// build reads nets of its embedded net's width only.
        #[arg(long, default_value_t = springer::nnue::HIDDEN as u64)]
        hidden: u64,
        /// Output layers, one per range of piece counts (8: 2-5, 6-9, ..., 30-32 pieces); 1 to
        /// 16. Every build reads nets of any bucket count.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=springer::nnue::MAX_BUCKETS as u64))]
        buckets: u64,
        /// Start from this net file instead of random weights (fine-tuning it on new games, best
        /// with a smaller --lr); its width, buckets and mirroring are kept, so --hidden,
        /// --buckets and --king-mirror are refused beside it.
        #[arg(long, conflicts_with_all = ["hidden", "buckets", "king_mirror"])]
        init: Option<PathBuf>,
    },
    /// Connect Four: solve positions (`solve`).
    #[command(subcommand)]
    Connect4(Connect4Command),
    /// Kalah: solve a position (`solve`).
    #[command(subcommand)]
    Kalah(KalahCommand),
    /// Run an EPD perft suite (`FEN ;D1 n ;D2 n ...`) and report every mismatch.
    PerftSuite {
        /// The suite file.
        file: PathBuf,
        /// Check no deeper than this (default: every depth listed).
        #[arg(long)]
        max_depth: Option<u32>,
        /// Worker threads (default: every logical CPU).
        #[arg(long)]
        threads: Option<usize>,
        /// Read the suite's FENs as Chess960 (needed for `chess960.epd`).
        #[arg(long)]
        chess960: bool,
    },
}

#[derive(Subcommand)]
enum Connect4Command {
    /// Solve each line `<moves> [<expected>]` (1-based column digits from the empty board) of
    /// FILE or stdin: prints `<moves> <score> <nodes> <us>` per line and a summary; exit code 1
    /// if an expected score differs, 2 if a line was malformed.
    Solve {
        /// Only win / draw / loss (1, 0, -1).
        #[arg(long)]
        weak: bool,
        /// Threads searching each position (sharing one table).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// The main table's size in MB (rounded down to a power of two; positions with fewer
        /// than 24 empty cells go to a 4 MB table beside it).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: u32,
        /// The positions (default: stdin).
        file: Option<PathBuf>,
    },
    /// A game in the terminal against the program: levels 1-7 search 2 x level - 1 plies, 8
    /// plays perfectly (exactly solved from 12 stones on).
    Play {
        /// 1-7: search 2 x level - 1 plies; 8: perfect play.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=8))]
        level: u8,
        /// Who moves first: human or computer.
        #[arg(long, default_value = "human")]
        first: String,
    },
    /// Games between two levels from the empty board, each side first in turn: wins, draws,
    /// losses and the score of the first level (`--first-only`: the first level always starts).
    Match {
        /// The two levels (1-8).
        #[arg(long, num_args = 2, value_parser = clap::value_parser!(u8).range(1..=8))]
        levels: Vec<u8>,
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// The first level moves first in every game.
        #[arg(long)]
        first_only: bool,
        /// Seed of the players' random choices among equal moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// The board, rules and position that `kalah solve` and `kalah perft` start from.
#[derive(clap::Args)]
struct KalahBoardArgs {
    /// Houses a side.
    #[arg(long, default_value_t = 6)]
    houses: usize,
    /// Seeds a house at the start.
    #[arg(long, default_value_t = 4)]
    seeds: u8,
    /// seed, standard or empty-capture.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Pits in sowing order from the side to move (its houses, its store, the opponent's
    /// houses, the opponent's store), comma-separated; default: the start position.
    #[arg(long)]
    position: Option<String>,
}

impl KalahBoardArgs {
    /// The rules and the board these arguments name, or the message for bad ones.
    fn setup(&self) -> Result<(springer::games::kalah::Rules, springer::games::kalah::Board), String> {
        kalah_setup(&self.rules, self.houses, self.seeds, self.position.as_deref())
    }
}

#[derive(Subcommand)]
enum KalahCommand {
    /// Prints `value V` for the side to move under perfect play (the final margin, e.g.
    /// `value +10`; `value win` or `value loss` under seed rules), then nodes and time.
    Solve {
        #[command(flatten)]
        board: KalahBoardArgs,
        /// Builds endgame databases of every position with up to this many seeds in the houses
        /// first (standard and empty-capture rules; 0 = none); its size and build time are
        /// printed.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=40))]
        endgame: u32,
        /// The table's size in MB (rounded down to a power of two, at least 1).
        #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: u32,
        /// Threads searching (sharing one table) and building the databases; default: every
        /// core.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
    },
    /// Counts the move sequences of 1 to DEPTH moves (a move that earns another is a ply of its
    /// own; finished games stop counting): a perft for Kalah.
    Perft {
        /// Moves deep.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        #[command(flatten)]
        board: KalahBoardArgs,
    },
    /// A game in the terminal against the program (the founding program's six levels, then 7:
    /// perfect once few enough seeds are left).
    Play {
        /// 1-6: search depth in moves; 7: perfect play.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=7))]
        level: u8,
        /// seed, standard or empty-capture.
        #[arg(long, default_value = "seed")]
        rules: String,
        /// Who moves first: human or computer.
        #[arg(long, default_value = "human")]
        first: String,
        /// Houses a side.
        #[arg(long, default_value_t = 6)]
        houses: usize,
        /// Seeds a house at the start.
        #[arg(long, default_value_t = 6)]
        seeds: u8,
    },
    /// Games between two levels from the start position, each side first in turn: wins, draws,
    /// losses and the score of the first level.
    Match {
        /// The two levels (1-7).
        #[arg(long, num_args = 2, value_parser = clap::value_parser!(u8).range(1..=7))]
        levels: Vec<u8>,
        #[arg(long, default_value_t = 100)]
        games: u32,
        #[arg(long, default_value = "seed")]
        rules: String,
        #[arg(long, default_value_t = 6)]
        houses: usize,
        #[arg(long, default_value_t = 6)]
        seeds: u8,
        /// Seed of the players' random choices among equal moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Exit code for bad input (FEN, file, arguments), as clap uses for bad arguments.
const EXIT_BAD_INPUT: u8 = 2;

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
        Some(Command::Bench { depth, threads }) => {
            let mut out = std::io::stdout().lock();
            let threads = threads.unwrap_or(1) as usize;
            match springer::bench::run(depth.unwrap_or(springer::bench::DEFAULT_DEPTH), threads, &mut out) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => springer::output::closed(e),
            }
        }
        Some(Command::Perft { depth, fen, divide, threads, full, hash, chess960 }) => {
            run_perft(&PerftRun { depth, fen, divide, threads, full, hash, variant: variant(chess960) })
        }
        Some(Command::PerftSplit { depth, plies, fen, chess960, out }) => {
            run_perft_split(depth, plies, &fen, variant(chess960), &out)
        }
        Some(Command::PerftUnit { units, indices, hash, threads }) => run_perft_unit(&units, &indices, hash, threads),
        Some(Command::PerftMerge { units, results }) => run_perft_merge(&units, &results),
        Some(Command::Probe { fen, syzygy }) => run_probe(&fen, &syzygy),
        Some(Command::Tune { data, positions, epochs, learning_rate, result_weight, regularization, out }) => {
            let config = springer::tune::TuneConfig { positions, epochs, learning_rate, result_weight, regularization };
            run_tune(&data, &config, &out)
        }
        Some(Command::Datagen { out, games, threads, nodes, random_plies, chess960, games_per_chunk, seed }) => {
            let config = springer::datagen::Config {
                out,
                games,
                threads: threads as usize,
                nodes,
                random_plies,
                chess960,
                games_per_chunk,
                seed,
            };
            run_datagen(&config)
        }
        Some(Command::Train {
            data,
            out,
            epochs,
            batch,
            lr,
            wdl,
            threads,
            seed,
            mirror,
            king_mirror,
            hidden,
            buckets,
            init,
        }) => {
            if !(lr > 0.0 && lr.is_finite() && (0.0..=1.0).contains(&wdl)) {
                return bad_input("--lr must be positive and --wdl within 0..1");
            }
            let config = springer::train::Config {
                data,
                out,
                epochs: epochs as usize,
                batch: batch as usize,
                lr,
                wdl,
                threads: threads as usize,
                seed,
                mirror,
                king_mirror,
                hidden: hidden as usize,
                buckets: buckets as usize,
                init,
            };
            match springer::train::run(&config) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => bad_input(e),
            }
        }
        Some(Command::Connect4(Connect4Command::Solve { weak, threads, hash, file })) => {
            run_connect4_solve(weak, (usize::from(threads), hash as usize), file.as_deref())
        }
        Some(Command::Connect4(Connect4Command::Play { level, first })) => run_connect4_play(level, &first),
        Some(Command::Connect4(Connect4Command::Match { levels, games, first_only, seed })) => {
            run_connect4_match(&levels, games, first_only, seed)
        }
        Some(Command::Kalah(KalahCommand::Solve { board, endgame, hash, threads })) => {
            let threads =
                threads.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), usize::from);
            run_kalah_solve(&board, (endgame, hash as usize, threads))
        }
        Some(Command::Kalah(KalahCommand::Perft { depth, board })) => run_kalah_perft(depth, &board),
        Some(Command::Kalah(KalahCommand::Play { level, rules, first, houses, seeds })) => {
            run_kalah_play(level, &rules, &first, houses, seeds)
        }
        Some(Command::Kalah(KalahCommand::Match { levels, games, rules, houses, seeds, seed })) => {
            run_kalah_match(&levels, games, &rules, houses, seeds, seed)
        }
        Some(Command::PerftSuite { file, max_depth, threads, chess960 }) => {
            run_suite(&file, max_depth, threads.unwrap_or_else(available_cpus), variant(chess960))
        }
    }
}

fn bad_input(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(EXIT_BAD_INPUT)
}

fn make_pool(threads: usize) -> Result<WorkerPool, ExitCode> {
    WorkerPool::new(threads).map_err(bad_input)
}

fn mnps(nodes: u64, seconds: f64) -> f64 {
    nodes as f64 / seconds.max(1e-9) / 1e6
}

fn variant(chess960: bool) -> Variant {
    if chess960 {
        Variant::Chess960
    } else {
        Variant::Standard
    }
}

/// Parses `fen`, warning on stderr about dropped castling rights.
fn parse_fen(fen: &str, variant: Variant) -> Result<Position, springer::position::FenError> {
    let ParsedFen { position, dropped } = Position::parse_fen(fen, variant)?;
    for right in dropped {
        eprintln!("warning: {right}");
    }
    Ok(position)
}

/// A `perft` command's arguments.
struct PerftRun {
    depth: u32,
    fen: String,
    divide: bool,
    threads: usize,
    full: bool,
    hash: Option<u64>,
    variant: Variant,
}

fn run_perft(run: &PerftRun) -> ExitCode {
    let PerftRun { depth, divide, threads, full, hash, variant, .. } = *run;
    let pos = match parse_fen(&run.fen, variant) {
        Ok(pos) => pos,
        Err(e) => return bad_input(e),
    };
    let pool = match make_pool(threads) {
        Ok(pool) => pool,
        Err(code) => return code,
    };
    let start = Instant::now();
    let nodes = if divide {
        let counts = perft::divide(&pos, depth, &pool);
        for (mv, n) in &counts {
            say!("{}: {n}", mv.to_uci(variant == Variant::Chess960));
        }
        say!();
        counts.iter().map(|(_, n)| n).sum()
    } else if full {
        perft::perft_full(&pos, depth)
    } else if let Some(mb) = hash {
        perft::perft_hashed_parallel(&pos, depth, &perft::PerftTable::new(mb as usize), &pool)
    } else {
        perft::perft_parallel(&pos, depth, &pool)
    };
    let seconds = start.elapsed().as_secs_f64();
    say!("Nodes: {nodes}");
    say!("Time: {seconds:.3} s");
    say!("Speed: {:.1} Mnps", mnps(nodes, seconds));
    ExitCode::SUCCESS
}

fn read_units(path: &std::path::Path) -> Result<(perft::split::Split, u64), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    perft::split::Split::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn run_perft_split(depth: u32, plies: u32, fen: &str, variant: Variant, out: &std::path::Path) -> ExitCode {
    let pos = match parse_fen(fen, variant) {
        Ok(pos) => pos,
        Err(e) => return bad_input(e),
    };
    let split = match perft::split::Split::new(&pos, variant, depth, plies) {
        Ok(split) => split,
        Err(e) => return bad_input(e),
    };
    if let Err(e) = std::fs::write(out, split.to_text()) {
        return bad_input(format!("cannot write {}: {e}", out.display()));
    }
    let orders: u64 = split.units.iter().map(|u| u.multiplicity).sum();
    say!("{} units ({orders} move orders) of depth {} written to {}", split.units.len(), depth - plies, out.display());
    ExitCode::SUCCESS
}

/// `7` or `0-99`.
fn unit_indices(spec: &str) -> Option<std::ops::RangeInclusive<usize>> {
    match spec.split_once('-') {
        Some((a, b)) => Some(a.parse().ok()?..=b.parse().ok()?),
        None => spec.parse().ok().map(|i| i..=i),
    }
}

fn run_perft_unit(units: &std::path::Path, indices: &[String], hash: u64, threads: usize) -> ExitCode {
    let (split, checksum) = match read_units(units) {
        Ok(read) => read,
        Err(e) => return bad_input(e),
    };
    let pool = match make_pool(threads) {
        Ok(pool) => pool,
        Err(code) => return code,
    };
    let mut ranges = Vec::new();
    for spec in indices {
        match unit_indices(spec) {
            Some(range) => ranges.push(range),
            None => return bad_input(format!("'{spec}' is not a unit number or a range like 0-99")),
        }
    }
    let table = perft::PerftTable::new(hash as usize);
    for index in ranges.into_iter().flatten() {
        match perft::split::run_unit(&split, index, &table, &pool) {
            Ok(count) => say!("{}", perft::split::result_line(checksum, index, count)),
            Err(e) => return bad_input(e),
        }
    }
    ExitCode::SUCCESS
}

/// `springer probe`: prints `wdl`, `dtz` and `bestmove` lines; exit 2 for bad input, 1 when the
/// position's table is missing.
fn run_probe(fen: &str, dirs: &str) -> ExitCode {
    let pos = match Position::from_fen(fen) {
        Ok(pos) => pos,
        Err(e) => return bad_input(format!("bad FEN: {e}")),
    };
    if pos.castling_rights() != springer::position::CastlingRights::NONE {
        return bad_input("positions with castling rights are not in the tables");
    }
    let (tables, problems) = springer::tb::Tablebases::open(dirs);
    for problem in problems {
        eprintln!("warning: {problem}");
    }
    let Some(tables) = tables else {
        return bad_input(format!("no Syzygy tables found in {dirs}"));
    };
    let (wdl, dtz) = match (tables.probe_wdl(&pos), tables.probe_dtz(&pos)) {
        (Some(wdl), Some(dtz)) => (wdl, dtz),
        _ => {
            for warning in tables.take_warnings() {
                eprintln!("error: {warning}");
            }
            let pieces = pos.occupied().count();
            eprintln!("error: no usable table for this position ({pieces} pieces; {})", tables.summary());
            return ExitCode::FAILURE;
        }
    };
    say!("wdl {}", wdl.name());
    say!("dtz {dtz}");
    match tables.best_move(&pos) {
        Some((mv, _)) => say!("bestmove {mv}"),
        None => say!("bestmove (none)"),
    }
    ExitCode::SUCCESS
}

fn run_perft_merge(units: &std::path::Path, results: &[PathBuf]) -> ExitCode {
    let (split, checksum) = match read_units(units) {
        Ok(read) => read,
        Err(e) => return bad_input(e),
    };
    let mut text = String::new();
    if results.is_empty() {
        if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut text) {
            return bad_input(format!("cannot read the results from standard input: {e}"));
        }
    }
    for path in results {
        match std::fs::read_to_string(path) {
            Ok(part) => {
                text.push_str(&part);
                text.push('\n');
            }
            Err(e) => return bad_input(format!("cannot read {}: {e}", path.display())),
        }
    }
    match perft::split::merge(&split, checksum, &text) {
        Ok(total) => {
            say!("perft {} of {}: {total}", split.depth, split.root);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn run_datagen(config: &springer::datagen::Config) -> ExitCode {
    let report = |summary: &springer::datagen::Summary| {
        eprintln!(
            "chunks {} games {} positions {} ({:.0} positions/s)",
            summary.chunks,
            summary.games,
            summary.positions,
            summary.positions as f64 / summary.seconds.max(1e-9)
        );
    };
    match springer::datagen::run(config, &mut |summary| report(summary)) {
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

fn run_connect4_solve(weak: bool, threads_and_mb: (usize, usize), file: Option<&std::path::Path>) -> ExitCode {
    use springer::games::connect4::solver::solve_lines;
    let mut out = std::io::stdout().lock();
    let summary = match file {
        Some(path) => match std::fs::File::open(path) {
            Ok(f) => solve_lines(std::io::BufReader::new(f), weak, threads_and_mb, &mut out),
            Err(e) => return bad_input(format!("cannot read {}: {e}", path.display())),
        },
        None => solve_lines(std::io::stdin().lock(), weak, threads_and_mb, &mut out),
    };
    match summary {
        Ok(summary) if summary.mismatches > 0 => ExitCode::FAILURE,
        Ok(summary) if summary.bad_lines > 0 => ExitCode::from(EXIT_BAD_INPUT),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => springer::output::closed(e),
        Err(e) => bad_input(format!("connect4 solve: {e}")),
    }
}

/// `springer kalah perft`: the counts at 1 to `depth` moves, each with its time.
fn run_kalah_perft(depth: u32, args: &KalahBoardArgs) -> ExitCode {
    let (rules, board) = match args.setup() {
        Ok(setup) => setup,
        Err(e) => return bad_input(e),
    };
    for plies in 1..=depth {
        let start = Instant::now();
        let count = springer::games::kalah::perft(&board, rules, plies);
        say!("perft {plies} {count} ({:.3} s)", start.elapsed().as_secs_f64());
    }
    ExitCode::SUCCESS
}

/// `resources`: the endgame databases' seeds (0 = none), the table's MB and the threads.
fn run_kalah_solve(args: &KalahBoardArgs, resources: (u32, usize, usize)) -> ExitCode {
    let (endgame, hash_mb, threads) = resources;
    use springer::games::kalah::{endgame::EndgameTable, solver::Solver, Rules};
    let (rules, board) = match args.setup() {
        Ok(setup) => setup,
        Err(e) => return bad_input(e),
    };
    let mut solver = Solver::with_table_mb(rules, hash_mb).with_threads(threads);
    if endgame > 0 {
        let start = Instant::now();
        let build = || EndgameTable::build(rules, board.houses(), endgame);
        let built = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(build),
            Err(_) => build(),
        };
        let Some(table) = built else {
            return bad_input("kalah solve: --endgame needs standard or empty-capture rules");
        };
        say!(
            "endgame databases: up to {endgame} seeds, {} positions ({:.1} MB), built in {:.3} s",
            table.positions(),
            table.positions() as f64 / 1e6,
            start.elapsed().as_secs_f64()
        );
        solver = solver.with_endgame(std::sync::Arc::new(table));
    }
    let start = Instant::now();
    let value = solver.solve_reporting(&board, &mut |bounds| {
        say!(
            "bounds {:+} to {:+} after {} nodes, {:.3} s",
            bounds.lower,
            bounds.upper,
            bounds.nodes,
            start.elapsed().as_secs_f64()
        );
    });
    let text = match (rules, value) {
        (Rules::Seed, v) if v > 0 => "win".to_string(),
        (Rules::Seed, _) => "loss".to_string(),
        (_, v) => format!("{v:+}"),
    };
    say!("value {text}");
    say!("nodes {}", solver.nodes);
    say!("time {:.3} s", start.elapsed().as_secs_f64());
    ExitCode::SUCCESS
}

/// Asks with `prompt` until a line holds a number that `valid` accepts (saying `'line'
/// {refusal}` otherwise); `None` at the end of input.
fn ask_number(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
    prompt: &str,
    refusal: &str,
    valid: impl Fn(usize) -> bool,
) -> Option<usize> {
    loop {
        springer::output::prompt(prompt);
        let Some(Ok(line)) = lines.next() else {
            say!();
            return None;
        };
        match line.trim().parse::<usize>() {
            Ok(n) if valid(n) => return Some(n),
            _ => say!("'{}' {refusal}", line.trim()),
        }
    }
}

fn run_connect4_play(level: u8, first: &str) -> ExitCode {
    use springer::games::connect4::{play::Player, Position, CELLS, WIDTH};
    use std::io::BufRead;
    let human = match first {
        "human" => 0,
        "computer" => 1,
        other => return bad_input(format!("--first must be human or computer, not '{other}'")),
    };
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
    let mut computer = Player::new(level, seed);
    let stones = if human == 0 { ['X', 'O'] } else { ['O', 'X'] };
    say!("Connect Four, level {level}. You play {}, Springer {}; X moves first.", stones[0], stones[1]);
    let mut pos = Position::empty();
    let mut lines = std::io::stdin().lock().lines();
    let verdict = loop {
        say!("{pos}\n{}", (1..=WIDTH).map(|c| c.to_string()).collect::<Vec<_>>().join(" "));
        if pos.moves() == CELLS {
            break "A draw.";
        }
        let human_to_move = pos.moves() % 2 == human;
        let col = if human_to_move {
            let prompt = format!("Your move (column 1-{WIDTH}): ");
            let refusal = format!("is not a column with room: type 1 to {WIDTH}.");
            match ask_number(&mut lines, &prompt, &refusal, |c| (1..=WIDTH).contains(&c) && pos.can_play(c - 1)) {
                Some(c) => c - 1,
                None => return ExitCode::SUCCESS,
            }
        } else {
            let Some(col) = computer.choose(&pos) else { break "A draw." };
            say!("Springer drops into column {}.", col + 1);
            col
        };
        if pos.is_winning_move(col) {
            pos.play(col);
            say!("{pos}");
            break if human_to_move { "You win." } else { "Springer wins." };
        }
        pos.play(col);
    };
    say!("{verdict}");
    ExitCode::SUCCESS
}

fn run_connect4_match(levels: &[u8], games: u32, first_only: bool, seed: u64) -> ExitCode {
    use springer::games::connect4::{
        play::{play_game, Player},
        Position,
    };
    let [a, b] = [levels[0], levels[1]];
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let start = Instant::now();
    for game in 0..games {
        let a_first = first_only || game % 2 == 0;
        let seed_a = seed.wrapping_mul(1_000_003).wrapping_add(2 * u64::from(game));
        let (first, second) = if a_first { (a, b) } else { (b, a) };
        let mut players = [Player::new(first, seed_a), Player::new(second, seed_a + 1)];
        let result = play_game(Position::empty(), &mut players);
        match if a_first { result } else { -result } {
            1 => wins += 1,
            0 => draws += 1,
            _ => losses += 1,
        }
    }
    let score = (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(games.max(1));
    say!(
        "level {a} vs level {b}, Connect Four, {games} games: W/D/L {wins}/{draws}/{losses}, score {:.1} %, {:.1} s",
        100.0 * score,
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// Rules and a board from the command line (`position` if given, else the start), or the
/// message for bad ones.
fn kalah_setup(
    rules: &str,
    houses: usize,
    seeds: u8,
    position: Option<&str>,
) -> Result<(springer::games::kalah::Rules, springer::games::kalah::Board), String> {
    use springer::games::kalah::Board;
    let rules = rules.parse()?;
    let board = match position {
        Some(text) => Board::parse(text, houses)?,
        None => Board::start(houses, seeds)?,
    };
    Ok((rules, board))
}

fn run_kalah_play(level: u8, rules: &str, first: &str, houses: usize, seeds: u8) -> ExitCode {
    use springer::games::kalah::play::Player;
    use std::io::BufRead;
    let (rules, mut board) = match kalah_setup(rules, houses, seeds, None) {
        Ok(setup) => setup,
        Err(e) => return bad_input(e),
    };
    let human = match first {
        "human" => 0,
        "computer" => 1,
        other => return bad_input(format!("--first must be human or computer, not '{other}'")),
    };
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
    let mut computer = Player::new(level, rules, seed);
    let names = if human == 0 { ["you", "Springer"] } else { ["Springer", "you"] };
    say!("Kalah({houses},{seeds}), {rules:?} rules, level {level}. Player 1: {}, player 2: {}.", names[0], names[1]);
    let mut lines = std::io::stdin().lock().lines();
    // Who won; a side left without a move at the start of its turn loses.
    let winner;
    loop {
        say!("{board}");
        let mover = board.side();
        let house = if mover == human {
            if !(0..houses).any(|h| board.is_legal(h)) {
                say!("You cannot move.");
                winner = Some(1 - human);
                break;
            }
            let prompt = format!("Your move (house 1-{houses}): ");
            let refusal = format!("is not a house with seeds: type 1 to {houses}.");
            match ask_number(&mut lines, &prompt, &refusal, |h| (1..=houses).contains(&h) && board.is_legal(h - 1)) {
                Some(h) => h - 1,
                None => return ExitCode::SUCCESS,
            }
        } else {
            let Some(house) = computer.choose(&board) else {
                say!("Springer cannot move.");
                winner = Some(human);
                break;
            };
            say!("Springer sows house {}.", house + 1);
            house
        };
        let sown = board.sow(house, rules);
        board = sown.board;
        if sown.over {
            winner = board.winner(rules, mover);
            break;
        }
        if sown.again {
            say!("Another move for {}.", names[mover]);
        }
    }
    say!("{board}");
    let (yours, mine) = (board.store_seeds(human), board.store_seeds(1 - human));
    let verdict = match winner {
        Some(side) if side == human => "You win.",
        Some(_) => "Springer wins.",
        None => "A draw.",
    };
    say!("Stores: you {yours}, Springer {mine}. {verdict}");
    ExitCode::SUCCESS
}

fn run_kalah_match(levels: &[u8], games: u32, rules: &str, houses: usize, seeds: u8, seed: u64) -> ExitCode {
    use springer::games::kalah::play::{play_game, Player};
    let (rules, board) = match kalah_setup(rules, houses, seeds, None) {
        Ok(setup) => setup,
        Err(e) => return bad_input(e),
    };
    let [a, b] = [levels[0], levels[1]];
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    // The first level's wins when it started and when it moved second.
    let mut wins_by_turn = [0u32; 2];
    let start = Instant::now();
    for game in 0..games {
        let a_first = game % 2 == 0;
        let seed_a = seed.wrapping_mul(1_000_003).wrapping_add(2 * u64::from(game));
        let (first, second) = if a_first { (a, b) } else { (b, a) };
        let mut players = [Player::new(first, rules, seed_a), Player::new(second, rules, seed_a + 1)];
        let result = play_game(board, rules, &mut players);
        let for_a = if a_first { result } else { -result };
        match for_a.signum() {
            1 => {
                wins += 1;
                wins_by_turn[usize::from(!a_first)] += 1;
            }
            0 => draws += 1,
            _ => losses += 1,
        }
    }
    let score = (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(games.max(1));
    let [first_games, second_games] = [games.div_ceil(2), games / 2];
    say!("level {a} vs level {b}, Kalah({houses},{seeds}) {rules:?}, {games} games: W/D/L {wins}/{draws}/{losses}, score {:.1} %, {:.1} s",
        100.0 * score, start.elapsed().as_secs_f64());
    say!(
        "level {a} won {} of {first_games} games as first player, {} of {second_games} as second",
        wins_by_turn[0],
        wins_by_turn[1]
    );
    ExitCode::SUCCESS
}

fn run_tune(data: &PathBuf, config: &springer::tune::TuneConfig, out: &PathBuf) -> ExitCode {
    let text = match std::fs::read_to_string(data) {
        Ok(text) => text,
        Err(e) => return bad_input(format!("cannot read {}: {e}", data.display())),
    };
    let start = Instant::now();
    let tuned = match springer::tune::tune(&text, springer::eval::current_params(), config, &mut |line| {
        eprintln!("[{:>6.1}s] {line}", start.elapsed().as_secs_f64())
    }) {
        Ok(tuned) => tuned,
        Err(e) => return bad_input(format!("{}: {e}", data.display())),
    };
    let provenance = format!(
        "Texel-tuned by `springer tune {} --positions {} --epochs {} --learning-rate {} --result-weight {} --regularization {}`.",
        data.display(),
        config.positions,
        config.epochs,
        config.learning_rate,
        config.result_weight,
        config.regularization
    );
    match std::fs::write(out, springer::tune::render_params(&tuned, &provenance)) {
        Ok(()) => {
            eprintln!("wrote {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => bad_input(format!("cannot write {}: {e}", out.display())),
    }
}

fn run_suite(file: &PathBuf, max_depth: Option<u32>, threads: usize, variant: Variant) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => return bad_input(format!("cannot read {}: {e}", file.display())),
    };
    let cases = match perft::parse_suite(&text) {
        Ok(cases) => cases,
        Err(e) => return bad_input(format!("{}: {e}", file.display())),
    };
    let pool = match make_pool(threads) {
        Ok(pool) => pool,
        Err(code) => return code,
    };
    let show_progress = std::io::stderr().is_terminal();
    let start = Instant::now();
    let (mut nodes, mut failures) = (0u64, 0usize);
    for (i, case) in cases.iter().enumerate() {
        if show_progress {
            eprint!("\r[{:>4}/{}] line {:<5} {:<60.60}", i + 1, cases.len(), case.line, case.fen);
            let _ = std::io::stderr().flush();
        }
        match check_case(case, max_depth, &pool, variant) {
            Ok(counted) => nodes += counted,
            Err(report) => {
                failures += 1;
                if show_progress {
                    eprint!("\r{:90}\r", "");
                }
                say!("{report}");
            }
        }
    }
    if show_progress {
        eprint!("\r{:90}\r", "");
    }
    let seconds = start.elapsed().as_secs_f64();
    say!(
        "{}: {} positions, {} passed, {} failed; {} nodes in {:.2} s ({:.1} Mnps, {} threads)",
        file.display(),
        cases.len(),
        cases.len() - failures,
        failures,
        nodes,
        seconds,
        mnps(nodes, seconds),
        pool.threads()
    );
    if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Checks every listed depth up to `max_depth`; returns the nodes counted or a failure report.
fn check_case(case: &PerftCase, max_depth: Option<u32>, pool: &WorkerPool, variant: Variant) -> Result<u64, String> {
    let name = match &case.label {
        Some(label) => format!("line {} ({label})", case.line),
        None => format!("line {}", case.line),
    };
    let parsed = Position::parse_fen(&case.fen, variant).map_err(|e| format!("FAIL {name}: {e}: {}", case.fen))?;
    if let Some(right) = parsed.dropped.first() {
        return Err(format!("FAIL {name}: {right}: {}", case.fen));
    }
    let pos = parsed.position;
    let mut nodes = 0;
    for &(depth, expected) in &case.expected {
        if max_depth.is_some_and(|max| depth > max) {
            continue;
        }
        let got = perft::perft_parallel(&pos, depth, pool);
        nodes += got;
        if got != expected {
            return Err(format!("FAIL {name} depth {depth}: expected {expected}, got {got}: {}", case.fen));
        }
    }
    Ok(nodes)
}
