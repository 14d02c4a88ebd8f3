//! `bench`: a fixed set of positions searched to a fixed depth on one thread with a fresh table
//! each, ending with the node count (the search's signature: any change to search or eval
//! changes it) and the speed. OpenBench reads the last two lines.

use crate::position::Position;
use crate::search::history::Histories;
use crate::search::time::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{search, SearchContext, SearchControl};
use crate::threads::WorkerPool;
use std::io::Write;
use std::time::{Duration, Instant};

/// The default bench depth.
pub const DEFAULT_DEPTH: i32 = 12;

/// The bench positions, one FEN a line (`#` lines are comments), from `src/bench.fen`.
const POSITIONS_TEXT: &str = include_str!("bench.fen");

/// The bench positions, in order.
pub fn positions() -> impl Iterator<Item = &'static str> {
    POSITIONS_TEXT.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#'))
}

/// What a bench run measured.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Time spent searching.
    pub elapsed: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.elapsed)
    }
}

/// `nodes` over `elapsed`, in nodes per second (no division by zero).
pub fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64
}

/// Searches every bench position to `depth` on `threads` threads (one: the signature run),
/// writing a line per position (with its time to depth) and the summary to `out`.
pub fn run(depth: i32, threads: usize, out: &mut dyn Write) -> std::io::Result<BenchResult> {
    let pool = if threads > 1 {
        match WorkerPool::new(threads) {
            Ok(pool) => Some(pool),
            Err(e) => return Err(std::io::Error::other(e.to_string())),
        }
    } else {
        None
    };
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    let count = positions().count();
    for (i, fen) in positions().enumerate() {
        let pos = match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(e) => unreachable!("bench position {i} is valid: {e}"),
        };
        let tt = TranspositionTable::new(16);
        let control = SearchControl::new(false);
        let mut histories: Vec<Histories> = (0..threads.max(1)).map(|_| Histories::default()).collect();
        let context = SearchContext {
            tt: &tt,
            control: &control,
            histories: &mut histories,
            history: &[],
            move_overhead_ms: 0,
            pool: pool.as_ref(),
            tablebases: None,
            live: None,
        };
        let start = Instant::now();
        let result = search(&pos, &Limits::depth(depth), context, &mut |_| {});
        let took = start.elapsed();
        elapsed += took;
        nodes += result.nodes;
        writeln!(
            out,
            "{:>2}/{} bestmove {:<6} score {:>6} nodes {:>9} time {:>6} ms  {fen}",
            i + 1,
            count,
            result.best_move.to_string(),
            result.score,
            result.nodes,
            took.as_millis()
        )?;
    }
    let result = BenchResult { nodes, elapsed };
    writeln!(out, "Threads: {}", threads.max(1))?;
    writeln!(out, "Total time (ms) : {}", elapsed.as_millis())?;
    writeln!(out, "Nodes searched: {nodes}")?;
    writeln!(out, "Nodes/second: {}", result.nps())?;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid_and_distinct() {
        let mut keys = std::collections::HashSet::new();
        assert_eq!(positions().count(), 50);
        for fen in positions() {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{fen}: {e}"));
            assert!(keys.insert(pos.key()), "{fen}");
        }
    }

    #[test]
    fn bench_runs_on_several_threads() {
        // Every position on 2, 3 and 8 threads (more threads than cores: more interleavings,
        // nested split points); a worker left waiting at a split point would hang here.
        for threads in [2, 3, 8] {
            let result = run(7, threads, &mut std::io::sink()).map(|r| r.nodes).ok();
            assert!(result.is_some_and(|n| n > 0), "{threads} threads");
        }
    }

    #[test]
    fn bench_is_deterministic() {
        let first = run(4, 1, &mut std::io::sink()).map(|r| r.nodes).ok();
        let second = run(4, 1, &mut std::io::sink()).map(|r| r.nodes).ok();
        assert!(first.is_some_and(|n| n > 0));
        assert_eq!(first, second);
    }
}
