//! `bench`: a fixed set of positions searched to a fixed depth on one thread with a fresh table
//! each, ending with the node count (the search's signature: any change to search or eval
//! changes it) and the speed. OpenBench reads the last two lines.

use crate::position::Position;
use crate::search::ordering::Histories;
use crate::search::time::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{search, SearchContext, SearchControl};
use crate::threads::WorkerPool;
use std::io::Write;
use std::time::{Duration, Instant};

/// The default bench depth.
pub const DEFAULT_DEPTH: i32 = 12;

/// Opening, middlegame and endgame positions from Stockfish self-play games (the tuning data;
/// see README), 50 in all.
pub const POSITIONS: [&str; 50] = [
    "r1b1kb2/pp1nnpp1/2p5/q2pp2r/3P4/P1N1PP2/1PP1N2P/R1BQKB1R w KQq - 0 6",
    "r1bqk2r/pp2bppp/2n1pn2/1B1p4/4P3/3Q1P1N/PPP3PP/RNB1K2R w KQkq - 1 6",
    "1rbqk2r/1p3pb1/p1np2pp/2p1p2n/P1P1P3/N1BP2PP/1P2NPB1/R2Q1RK1 w k - 5 11",
    "rn2nrk1/pq2pp2/1pp3p1/1P3b1p/P2P1P1P/2N2B2/1B1P2P1/R2Q1RK1 b - - 2 13",
    "r4rk1/p1p1n1pp/2nq4/1pbbp1P1/3pPP2/P4Q1B/1PPBN2P/2K2R1R w - - 0 13",
    "r1bqkbnr/1p1n1ppp/2pp4/p7/P2PPP2/2N1B3/1PP4P/R2QKB1R b KQkq - 0 7",
    "r2qk2r/pppb2b1/2n1p2p/3p1pp1/2PPn3/PP2PNP1/1B3PBP/RN1QK2R b KQkq - 0 8",
    "r2qkbnr/ppp3pb/2n2p1p/4pP2/4p1P1/1PN4P/P1PP2B1/R1BQK1NR w KQkq - 1 6",
    "2kr3r/pp3pp1/2nb1n1p/2pqp3/6b1/1PPPNN2/P3BPPP/R1BQ1RK1 b - - 7 7",
    "rnb2rk1/pp3qp1/2p2n1p/3p1p2/3P1N1P/P1N2P2/1PPQB1P1/R3K2R w KQ - 1 12",
    "1brqr3/pp4k1/2b1ppp1/3p3p/P2PnP1N/2PB2P1/1P3QP1/R1B1R1K1 w - - 2 27",
    "r1b1k2r/p1p1npp1/2nbpq1p/3p4/4P3/P1N2P1N/1PPP2PP/R1BQKB1R w KQkq - 3 10",
    "r1bqk2r/pppn2pp/1b6/4pp2/3nN1P1/1PPP1P2/P2B3P/R2QKBNR w KQkq - 0 10",
    "2bqr1k1/r4pbp/1p1p2p1/p1pP4/PnP5/R1B1NN1P/1P3PP1/3QR1K1 b - - 5 21",
    "1kr5/1p2nB1p/1pp1Nn2/4PP2/rP5P/6P1/2P5/2KRR3 b - - 0 26",
    "2r4k/r3n1pp/1p6/1B6/P2NQ3/4P1B1/4K1PP/8 b - - 6 28",
    "5rk1/1q4pp/2pn4/p2pNpP1/PR1P1P2/4Q2P/P1K5/7R b - - 0 24",
    "1k1r4/pb2qR2/1p1p4/n1pP3B/P6p/2P1N2P/3Q2P1/7K b - - 0 31",
    "4r2k/p5p1/5p1p/2p2N1P/2P1rqP1/2PQ3K/P7/6R1 w - - 3 43",
    "6k1/1prr2p1/p4p1p/P7/4n3/P2nBN2/5PPP/R2R1K2 w - - 4 27",
    "4kb1r/2n5/5p2/P3p1p1/R7/2P2NPp/5P1P/3rBBK1 w k - 2 28",
    "r3k2r/ppp2ppp/4pq2/4Pb2/3Pp3/P7/1PPN1PPP/R2QK2R b KQkq - 0 9",
    "3rr3/1kp4p/1pb2qp1/p2p3P/8/P1PBpP2/2P1K1P1/R3Q2R b - - 0 24",
    "1rb2k2/pp3pp1/4pb2/3r4/1PP4p/P3R2P/3NBPP1/3R2K1 b - - 0 18",
    "1kb5/pp2p3/4nq2/2Q2pp1/1PP5/P4P1P/6P1/3B3K w - - 5 29",
    "r2k1b1r/2pq2p1/p1p2pQ1/3p4/1P3P2/2P1P2P/P2BK3/R6R b - - 1 20",
    "r4rk1/p1q2ppp/1p2p3/3n4/3B1P2/6P1/PPPQ3P/2KR3R b - - 1 15",
    "r4rk1/p4ppp/2p2n2/2q1p3/P3P3/1P1B1b1P/5PP1/R2Q1RK1 w - - 0 14",
    "3br3/pk5p/2p5/2p1PP2/6p1/8/pPP4P/K5R1 w - - 3 32",
    "8/2k4p/p3p1b1/P1KpP1Pr/8/1Bp3R1/6P1/8 w - - 8 35",
    "1N6/2r4k/4n1p1/2p1p1Pp/Pp2P2K/2b2P2/2P1R3/5R2 b - - 4 51",
    "2Rrq1k1/pb1n1pbp/1p4p1/3Pp3/8/BP3NP1/P4PBP/3QR1K1 b - - 0 17",
    "1rb4k/5B1p/6pP/2p1pp2/1p1q4/P1NPnPP1/2n1PK2/1RQ4R w - - 3 20",
    "4rb2/1kpr2p1/1p3n1p/n3pN1P/P5P1/4P3/1BRPKN2/7R w - - 1 27",
    "4r1k1/3q1prp/p1p2R2/Pp1p4/1P1P2b1/2P2BP1/5Q1P/5RK1 b - - 2 23",
    "1k1r2r1/pbp1np1p/1p6/1B2qP2/Q1P5/P3B3/1P2N2b/3RKR2 w - - 1 23",
    "8/6k1/8/5p1P/5P2/3q2PB/6RK/4b3 b - - 0 69",
    "8/6R1/8/1k4p1/p7/5K2/1BP5/8 w - - 0 36",
    "8/8/4k2P/8/8/6K1/5P2/8 w - - 1 85",
    "2R5/5R2/8/6Kp/1k4pP/6P1/3r4/8 b - - 5 59",
    "2K5/1P6/2R5/8/8/3k4/1r6/8 b - - 26 138",
    "r7/1p3pk1/bPn5/p7/P1PP4/8/8/4R1K1 b - - 0 28",
    "8/1p6/k1p5/b1P2R2/8/3K4/8/7n w - - 0 76",
    "6r1/5p2/2Np1k2/5n2/8/8/3K4/R7 w - - 12 52",
    "r7/4B2p/5pk1/4p3/4P3/7p/5K2/5R2 b - - 3 61",
    "r7/Pr3p2/5k2/1N5R/6P1/R4K2/2b5/8 b - - 16 68",
    "3N4/2k3pp/8/pp6/8/1b1B1PP1/4R1KP/8 w - - 0 47",
    "8/8/3Pk3/P7/4P3/5P2/P3K3/8 b - - 0 51",
    "8/4R2p/7k/8/8/5NP1/2r2PK1/8 w - - 9 55",
    "8/2k2q2/8/P1P5/1P5p/2KQ3P/8/8 b - - 9 61",
];

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
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
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
    for (i, fen) in POSITIONS.iter().enumerate() {
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
            POSITIONS.len(),
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
        for fen in POSITIONS {
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
