//! The parallel root split. Every thread starts on the first root move (the previous
//! iteration's best) at the iteration's depth, sharing the table and the busy-move marks of
//! `busy.rs`, so that they split its tree between them; the first to finish gives the move's
//! score and the others drop it. Then every thread takes the remaining root moves one at a
//! time from a shared queue, each with a null window at the shared, atomically raised alpha
//! and a full-window re-search when it fails high, as principal variation search requires. A
//! thread that finds the queue empty does not wait idle: until the last root move is done it
//! joins the search of a root move another thread still has (the same move, window and depth,
//! again split by the busy marks; the owner's result counts), and with none to join it
//! searches the best move so far a ply deeper for the next iteration.

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

/// A root move a thread is searching, for idle threads to join.
#[derive(Clone, Copy)]
struct Job {
    mv: Move,
    index: usize,
    alpha: i32,
    beta: i32,
    pv: bool,
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
    let jobs: Mutex<Vec<Option<Job>>> = Mutex::new(vec![None; workers.len()]);
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
    // Publishing a job (or its end) ends the current task, so that joining threads choose again.
    let publish = |id: usize, job: Option<Job>| {
        if let Ok(mut jobs) = jobs.lock() {
            jobs[id] = job;
        }
        control.next_task();
    };
    let open_job = || jobs.lock().ok().and_then(|jobs| jobs.iter().flatten().next().copied());

    pool.install(|| {
        workers.par_iter_mut().enumerate().for_each(|(id, worker)| {
            // The first root move: shared by all, its result given by the first to finish.
            worker.helper_task = Some(first_task);
            let score = worker.search_root_move(root, &info, moves[0], 0, alpha, beta, depth, true);
            if !worker.stopped && control.finish_task(first_task) {
                record(worker, score);
            }
            worker.leave_task();

            while !worker.stopped && !cutoff.load(Ordering::Relaxed) {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(&mv) = moves.get(index) else { break };
                let a = shared_alpha.load(Ordering::Relaxed);
                publish(id, Some(Job { mv, index, alpha: a, beta: a + 1, pv: false }));
                let mut score = worker.search_root_move(root, &info, mv, index, a, a + 1, depth, false);
                if score > a && !worker.stopped {
                    let a = shared_alpha.load(Ordering::Relaxed).max(alpha);
                    if score > a {
                        publish(id, Some(Job { mv, index, alpha: a, beta, pv: true }));
                        score = worker.search_root_move(root, &info, mv, index, a, beta, depth, true);
                    }
                }
                publish(id, None);
                if !worker.stopped && score > shared_alpha.load(Ordering::Relaxed) {
                    record(worker, score);
                }
            }

            // The tail: join other threads' root moves until the last one is done.
            if busy.fetch_sub(1, Ordering::AcqRel) == 1 {
                control.next_task();
                return;
            }
            loop {
                // The task first: if it is the one the last busy thread started as it left,
                // that thread's leaving is seen here too, and the tail is over.
                let task = control.task();
                if worker.stopped || busy.load(Ordering::Acquire) == 0 {
                    break;
                }
                worker.helper_task = Some(task);
                let mut helper_depth = depth + 1;
                if let Some(Job { mv, index, alpha, beta, pv }) = open_job().filter(|_| !cutoff.load(Ordering::Relaxed))
                {
                    worker.search_root_move(root, &info, mv, index, alpha, beta, depth, pv);
                }
                // With no job to join, or once a joined search ends before its owner's (another
                // would only repeat it), search the best move ever deeper until the task moves on.
                while !worker.stopped && control.task() == task && helper_depth < super::MAX_PLY as i32 - 4 {
                    worker.search_root_move(
                        root,
                        &info,
                        best_move(),
                        0,
                        -super::INFINITY,
                        super::INFINITY,
                        helper_depth,
                        true,
                    );
                    helper_depth += 1;
                }
                if control.task() == task {
                    std::thread::yield_now();
                }
                worker.leave_task();
            }
        });
    });
    let best = best.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    RootOutcome { score: best.score, pv: best.pv }
}
