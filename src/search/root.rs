//! The parallel root split. The first root move (the previous iteration's best) is searched
//! in full by the main thread while the other threads search it too as helpers, one ply
//! deeper on odd threads, to fill the shared table; when it is done the helpers drop it and
//! every thread takes the remaining root moves one at a time from a shared queue, each with a
//! null window at the shared, atomically raised alpha and a full-window re-search when it
//! fails high, as principal variation search requires.

use super::alphabeta::Worker;
use super::SearchControl;
use crate::position::Position;
use crate::threads::WorkerPool;
use crate::types::Move;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The result of one iteration at the root.
pub struct RootOutcome {
    /// The best score (a bound if it is outside the window).
    pub score: i32,
    /// The principal variation, best move first (empty if the search was stopped first).
    pub pv: Vec<Move>,
}

struct Best {
    score: i32,
    pv: Vec<Move>,
}

/// One iteration's root search: the position, its moves (best first), the window and depth.
pub struct RootIteration<'a> {
    pub root: &'a Position,
    pub moves: &'a [Move],
    pub alpha: i32,
    pub beta: i32,
    pub depth: i32,
}

/// Searches an iteration's root moves on the pool.
pub fn split_search(
    workers: &mut [Worker<'_>],
    pool: &WorkerPool,
    control: &SearchControl,
    iteration: RootIteration,
) -> RootOutcome {
    let RootIteration { root, moves, alpha, beta, depth } = iteration;
    let info = root.check_info();
    let shared_alpha = AtomicI32::new(alpha);
    let next = AtomicUsize::new(1);
    let cutoff = AtomicBool::new(false);
    let best = Mutex::new(Best { score: -super::INFINITY, pv: Vec::new() });
    control.set_helpers_abort(false);

    let record = |worker: &Worker<'_>, score: i32| {
        let Ok(mut best) = best.lock() else { return };
        if score > best.score {
            best.score = score;
            best.pv = worker.principal_variation().to_vec();
        }
        shared_alpha.fetch_max(score, Ordering::Relaxed);
        if score >= beta {
            cutoff.store(true, Ordering::Relaxed);
        }
    };

    pool.install(|| {
        workers.par_iter_mut().enumerate().for_each(|(id, worker)| {
            if id == 0 {
                let score = worker.search_root_move(root, &info, moves[0], 0, alpha, beta, depth, true);
                if !worker.stopped {
                    record(worker, score);
                }
                control.set_helpers_abort(true);
            } else {
                // Helper: the same first move, on odd threads one ply deeper, for the table.
                worker.helper = true;
                let helper_depth = depth + (id % 2) as i32;
                worker.search_root_move(root, &info, moves[0], 0, alpha, beta, helper_depth, true);
                worker.helper = false;
                worker.stopped = false;
                while !control.helpers_abort() && !control.stop_requested() {
                    std::thread::yield_now();
                }
            }
            if worker.stopped || control.stop_requested() {
                worker.stopped = true;
                return;
            }
            loop {
                if cutoff.load(Ordering::Relaxed) {
                    break;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(&mv) = moves.get(index) else { break };
                let a = shared_alpha.load(Ordering::Relaxed);
                let mut score = worker.search_root_move(root, &info, mv, index, a, a + 1, depth, false);
                if score > a && !worker.stopped {
                    let a = shared_alpha.load(Ordering::Relaxed).max(alpha);
                    if score > a {
                        score = worker.search_root_move(root, &info, mv, index, a, beta, depth, true);
                    }
                }
                if worker.stopped {
                    break;
                }
                if score > shared_alpha.load(Ordering::Relaxed) {
                    record(worker, score);
                }
            }
        });
    });
    let best = best.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    RootOutcome { score: best.score, pv: best.pv }
}
