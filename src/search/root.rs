//! The parallel root split. Every thread starts on the first root move (the previous
//! iteration's best): thread 0 at the iteration's depth, odd threads one ply deeper, all
//! sharing the table; the first to finish gives the move's score and the others drop it.
//! Then every thread takes the remaining root moves one at a time from a shared queue, each
//! with a null window at the shared, atomically raised alpha and a full-window re-search when
//! it fails high, as principal variation search requires. A thread that finds the queue empty
//! does not wait idle: until the last root move is done it searches the best move so far one
//! ply deeper, which fills the table for the next iteration.

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
    let busy = AtomicUsize::new(workers.len());
    let cutoff = AtomicBool::new(false);
    let best = Mutex::new(Best { score: -super::INFINITY, pv: Vec::new() });
    let first_task = control.task();

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
    let best_move = || best.lock().ok().and_then(|best| best.pv.first().copied()).unwrap_or(moves[0]);

    pool.install(|| {
        workers.par_iter_mut().enumerate().for_each(|(id, worker)| {
            // The first root move: a race, won by the first thread to finish it.
            worker.helper_task = Some(first_task);
            let first_depth = depth + (id % 2) as i32;
            let score = worker.search_root_move(root, &info, moves[0], 0, alpha, beta, first_depth, true);
            if !worker.stopped && control.finish_task(first_task) {
                record(worker, score);
            }
            worker.leave_task();

            while !worker.stopped && !cutoff.load(Ordering::Relaxed) {
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
                if !worker.stopped && score > shared_alpha.load(Ordering::Relaxed) {
                    record(worker, score);
                }
            }

            // The tail: the last thread to finish ends it; until then, help the next iteration.
            let tail = control.task();
            if busy.fetch_sub(1, Ordering::AcqRel) == 1 {
                control.finish_task(tail);
                return;
            }
            worker.helper_task = Some(tail);
            let mut helper_depth = depth + 1;
            while !worker.stopped && control.task() == tail && helper_depth < super::MAX_PLY as i32 - 4 {
                let mv = best_move();
                worker.search_root_move(root, &info, mv, 0, -super::INFINITY, super::INFINITY, helper_depth, true);
                helper_depth += 1;
            }
            worker.leave_task();
        });
    });
    let best = best.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    RootOutcome { score: best.score, pv: best.pv }
}
