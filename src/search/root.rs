//! One iteration's root search on the worker pool: worker 0 searches from the root exactly as
//! the single-threaded search does, the other workers help at the split points it and they
//! open below (see `split.rs`).

use super::split::SplitHub;
use super::worker::Worker;
use crate::position::Position;
use crate::threads::WorkerPool;
use rayon::prelude::*;
use std::sync::atomic::{AtomicI32, Ordering};

/// One iteration's root search: the position, the window and depth.
pub struct RootIteration<'a> {
    pub root: &'a Position,
    pub alpha: i32,
    pub beta: i32,
    pub depth: i32,
}

/// Searches an iteration on the pool: the first worker searches from the root, the others
/// help at split points. Returns the score; the first worker holds the principal variation.
pub fn split_search(workers: &mut [Worker<'_>], pool: &WorkerPool, hub: &SplitHub, iteration: RootIteration) -> i32 {
    let RootIteration { root, alpha, beta, depth } = iteration;
    hub.set_finished(false);
    let score = AtomicI32::new(-super::INFINITY);
    pool.install(|| {
        workers.par_iter_mut().enumerate().for_each(|(id, worker)| {
            if id == 0 {
                score.store(worker.search_root(root, alpha, beta, depth), Ordering::SeqCst);
                hub.set_finished(true);
            } else {
                worker.seldepth = 0;
                worker.help(hub);
            }
        });
    });
    score.into_inner()
}
