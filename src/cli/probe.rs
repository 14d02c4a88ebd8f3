//! `probe`: one position's Syzygy WDL, DTZ and DTZ-optimal move, straight from the tables.

use super::bad_input;
use springer::position::Position;
use springer::say;
use std::process::ExitCode;

/// `springer probe`'s arguments.
#[derive(clap::Args)]
pub struct ProbeArgs {
    /// The position, as FEN.
    #[arg(long)]
    fen: String,
    /// Directories holding the tables (separated by ':'; ';' on Windows).
    #[arg(long)]
    syzygy: String,
}

/// `springer probe`: prints `wdl`, `dtz` and `bestmove` lines; exit 2 for bad input, 1 when the
/// position's table is missing.
pub fn run(args: &ProbeArgs) -> ExitCode {
    let dirs = &args.syzygy;
    let pos = match Position::from_fen(&args.fen) {
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
    let best = tables.best_move(&pos);
    // A table found unusable while ranking the moves (a corrupt file) fails the probe.
    let warnings = tables.take_warnings();
    for warning in &warnings {
        eprintln!("error: {warning}");
    }
    match best {
        Some((mv, _)) if warnings.is_empty() => say!("bestmove {mv}"),
        None if warnings.is_empty() && springer::movegen::count_legal(&pos) == 0 => say!("bestmove (none)"),
        _ => {
            eprintln!("error: the tables gave no best move ({})", tables.summary());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
