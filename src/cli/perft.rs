//! `perft`, `perft-suite` and the distributed `perft-split` / `perft-unit` / `perft-merge`: the
//! move generator's counts, checked against known ones or summed over work units.

use super::{bad_input, mnps, parse_fen, variant};
use springer::perft::{self, PerftCase};
use springer::position::{Position, Variant, START_FEN};
use springer::say;
use springer::threads::{available_cpus, WorkerPool};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// `springer perft`'s arguments.
#[derive(clap::Args)]
pub struct PerftArgs {
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
}

/// `springer perft-split`'s arguments.
#[derive(clap::Args)]
pub struct SplitArgs {
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
}

/// `springer perft-unit`'s arguments.
#[derive(clap::Args)]
pub struct UnitArgs {
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
}

/// `springer perft-merge`'s arguments.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// The units file.
    units: PathBuf,
    /// Files of result lines (default: standard input).
    results: Vec<PathBuf>,
}

/// `springer perft-suite`'s arguments.
#[derive(clap::Args)]
pub struct SuiteArgs {
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
}

fn make_pool(threads: usize) -> Result<WorkerPool, ExitCode> {
    WorkerPool::new(threads).map_err(bad_input)
}

/// `springer perft`: the count (or the divide) with its time and speed.
pub fn run(args: &PerftArgs) -> ExitCode {
    let PerftArgs { depth, divide, threads, full, hash, chess960, .. } = *args;
    let variant = variant(chess960);
    let pos = match parse_fen(&args.fen, variant) {
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

fn read_units(path: &Path) -> Result<(perft::split::Split, u64), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    perft::split::Split::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `springer perft-split`: writes the units file.
pub fn run_split(args: &SplitArgs) -> ExitCode {
    let SplitArgs { depth, plies, ref fen, chess960, ref out } = *args;
    let variant = variant(chess960);
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

/// `springer perft-unit`: one checked `result` line per unit counted.
pub fn run_unit(args: &UnitArgs) -> ExitCode {
    let (split, checksum) = match read_units(&args.units) {
        Ok(read) => read,
        Err(e) => return bad_input(e),
    };
    let pool = match make_pool(args.threads) {
        Ok(pool) => pool,
        Err(code) => return code,
    };
    let mut ranges = Vec::new();
    for spec in &args.indices {
        match unit_indices(spec) {
            Some(range) => ranges.push(range),
            None => return bad_input(format!("'{spec}' is not a unit number or a range like 0-99")),
        }
    }
    let table = perft::PerftTable::new(args.hash as usize);
    for index in ranges.into_iter().flatten() {
        match perft::split::run_unit(&split, index, &table, &pool) {
            Ok(count) => say!("{}", perft::split::result_line(checksum, index, count)),
            Err(e) => return bad_input(e),
        }
    }
    ExitCode::SUCCESS
}

/// `springer perft-merge`: the total, or exit code 1 when a unit is missing, repeated or wrong.
pub fn run_merge(args: &MergeArgs) -> ExitCode {
    let (split, checksum) = match read_units(&args.units) {
        Ok(read) => read,
        Err(e) => return bad_input(e),
    };
    let mut text = String::new();
    if args.results.is_empty() {
        if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut text) {
            return bad_input(format!("cannot read the results from standard input: {e}"));
        }
    }
    for path in &args.results {
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

/// `springer perft-suite`: every case checked, each mismatch reported; exit code 1 if any.
pub fn run_suite(args: &SuiteArgs) -> ExitCode {
    let SuiteArgs { ref file, max_depth, threads, chess960 } = *args;
    let variant = variant(chess960);
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => return bad_input(format!("cannot read {}: {e}", file.display())),
    };
    let cases = match perft::parse_suite(&text) {
        Ok(cases) => cases,
        Err(e) => return bad_input(format!("{}: {e}", file.display())),
    };
    let pool = match make_pool(threads.unwrap_or_else(available_cpus)) {
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
