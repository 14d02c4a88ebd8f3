//! The rayon pool behind parallel perft and the parallel search: built once for a thread count
//! and kept by its owner (the CLI command, or the engine until `Threads` changes).

use std::fmt;

/// A pool of worker threads of a fixed size.
pub struct WorkerPool {
    pool: rayon::ThreadPool,
}

/// The pool could not be built (the system refused to start threads).
#[derive(Debug)]
pub struct PoolError(String);

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot start worker threads: {}", self.0)
    }
}

impl std::error::Error for PoolError {}

/// Stack for each worker: deep searches keep a position and a move list per ply.
const WORKER_STACK_BYTES: usize = 16 << 20;

impl WorkerPool {
    /// A pool of `threads` workers (at least one).
    pub fn new(threads: usize) -> Result<WorkerPool, PoolError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .stack_size(WORKER_STACK_BYTES)
            .thread_name(|i| format!("springer-worker-{i}"))
            .build()
            .map_err(|e| PoolError(e.to_string()))?;
        Ok(WorkerPool { pool })
    }

    /// The number of workers.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `work` inside the pool, so rayon's parallel iterators in it use these workers.
    pub fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        self.pool.install(work)
    }
}

/// The number of logical CPUs (1 if unknown).
pub fn available_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
