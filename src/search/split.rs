//! Split points: a node whose later moves are searched by several threads at once (young
//! brothers wait), and the hub where workers open split points and idle workers find them.
//! Owner and helpers take the moves one at a time, each with a null window at the split
//! point's shared, atomically raised alpha. A move that beats alpha is deferred: the node's
//! owner searches it with the full window after the split point closes, where its tree can
//! split in turn, as principal variation search requires. A fail high aborts the split point
//! and every split point below it. An owner whose moves are all taken helps only at split
//! points below its own until its helpers are done, so waits form a tree, never a cycle.

use super::stack::Ply;
use super::INFINITY;
use crate::position::Position;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The least depth at which a node hands its later moves to helpers: shallower subtrees cost
/// less than the hand-over.
pub const SPLIT_MIN_DEPTH: i32 = 4;
/// The most split points a worker can be inside at once.
pub const MAX_SPLIT_NESTING: usize = 16;

/// A move left for the helpers at a split point, with its depth and late-move reduction.
#[derive(Clone, Copy)]
pub struct SplitMove {
    pub mv: Move,
    pub new_depth: i32,
    pub reduction: i32,
}

/// What a split point found: the best score and its move (`Move::NULL` if no move finished).
pub struct SplitOutcome {
    pub score: i32,
    pub best: Move,
    /// Moves that beat alpha with a null window: the owner searches them with the full window
    /// after the split point closes, where their trees can split in turn.
    pub deferred: Vec<SplitMove>,
}

/// The node a split point searches, and the search state that leads to it.
pub struct SplitNode {
    pub pos: Position,
    pub ply: usize,
    pub depth: i32,
    /// The window when the node split.
    pub alpha: i32,
    pub beta: i32,
    pub cut_node: bool,
    /// Keys of the positions from the root to the node (not the node's own).
    pub path_keys: Vec<u64>,
    /// The owner's search stack from the root to the node.
    pub stack: Vec<Ply>,
}

/// A node whose later moves are being searched in parallel.
pub struct SplitPoint {
    pub node: SplitNode,
    /// The split points the node lies below, outermost first: when one of them aborts, so
    /// does this one.
    ancestors: Vec<Arc<SplitPoint>>,
    jobs: Vec<SplitMove>,
    /// The index in `jobs` of the next move to take.
    next: AtomicUsize,
    alpha: AtomicI32,
    /// Set by a fail high: every worker on the split point (or below it) drops its move.
    aborted: AtomicBool,
    /// Helpers between `enter` and `leave`.
    helpers: AtomicUsize,
    result: Mutex<SplitOutcome>,
}

impl SplitPoint {
    /// A split point for `node` below `ancestors`, with the moves `jobs`.
    pub fn new(node: SplitNode, ancestors: Vec<Arc<SplitPoint>>, jobs: Vec<SplitMove>) -> SplitPoint {
        let alpha = node.alpha;
        SplitPoint {
            node,
            ancestors,
            jobs,
            next: AtomicUsize::new(0),
            alpha: AtomicI32::new(alpha),
            aborted: AtomicBool::new(false),
            helpers: AtomicUsize::new(0),
            result: Mutex::new(SplitOutcome { score: -INFINITY, best: Move::NULL, deferred: Vec::new() }),
        }
    }

    /// The chain of split points a worker on this one is inside: the ancestors, then it.
    pub fn chain(self: &Arc<Self>) -> Vec<Arc<SplitPoint>> {
        let mut chain = self.ancestors.clone();
        chain.push(Arc::clone(self));
        chain
    }

    /// The next move nobody has taken yet.
    pub fn take(&self) -> Option<SplitMove> {
        if self.aborted() {
            return None;
        }
        self.jobs.get(self.next.fetch_add(1, Ordering::SeqCst)).copied()
    }

    /// Whether moves are left to take.
    fn has_work(&self) -> bool {
        !self.aborted() && self.next.load(Ordering::SeqCst) < self.jobs.len()
    }

    /// The current alpha: the node's, raised by every move that beat it.
    pub fn alpha(&self) -> i32 {
        self.alpha.load(Ordering::SeqCst)
    }

    /// Whether a fail high ended this split point.
    #[inline]
    pub fn aborted(&self) -> bool {
        self.aborted.load(Ordering::Relaxed)
    }

    /// Whether `self` lies below `other`.
    fn is_below(&self, other: &SplitPoint) -> bool {
        self.ancestors.iter().any(|point| std::ptr::eq(Arc::as_ptr(point), other))
    }

    /// A helper starts on the split point (before it takes a move, so that the owner, once the
    /// moves are all taken, waits for it).
    fn enter(&self) {
        self.helpers.fetch_add(1, Ordering::SeqCst);
    }

    /// A helper is done with the split point.
    pub fn leave(&self) {
        self.helpers.fetch_sub(1, Ordering::SeqCst);
    }

    /// Whether helpers are still on the split point.
    pub fn has_helpers(&self) -> bool {
        self.helpers.load(Ordering::SeqCst) != 0
    }

    fn result(&self) -> MutexGuard<'_, SplitOutcome> {
        self.result.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records a finished move's score; a fail high aborts the split point. A score below
    /// beta is an upper bound from a null window at the alpha of its time, which deferred
    /// moves may have raised above the node's: it counts as at most the node's alpha, so that
    /// only a fail high or a deferred move's search can raise the node's alpha.
    pub fn record(&self, mv: Move, score: i32) {
        let score = if score >= self.node.beta { score } else { score.min(self.node.alpha) };
        let mut result = self.result();
        if score > result.score {
            result.score = score;
            result.best = mv;
        }
        self.alpha.fetch_max(score, Ordering::SeqCst);
        if score >= self.node.beta {
            self.aborted.store(true, Ordering::Relaxed);
        }
    }

    /// Defers `job`, which beat alpha with a null window (its score, a lower bound, raises
    /// alpha for the moves after it).
    pub fn defer(&self, job: SplitMove, score: i32) {
        self.result().deferred.push(job);
        self.alpha.fetch_max(score, Ordering::SeqCst);
    }

    /// The best score and move found, and the deferred moves in the order of `jobs`.
    pub fn outcome(&self) -> SplitOutcome {
        let mut result = self.result();
        let mut deferred = std::mem::take(&mut result.deferred);
        deferred.sort_by_key(|job| self.jobs.iter().position(|other| other.mv == job.mv));
        SplitOutcome { score: result.score, best: result.best, deferred }
    }
}

/// Where workers post split points and idle workers find them, for one search.
#[derive(Default)]
pub struct SplitHub {
    open: Mutex<Vec<Arc<SplitPoint>>>,
    /// Counts the split points opened: moves to take appear only then, so a waiting worker
    /// looks through `open` again only when this has changed.
    opened: AtomicU64,
    /// Workers waiting for work: a node splits only when one is.
    idle: AtomicUsize,
    /// Set when the iteration's root search has returned: the helpers return.
    finished: AtomicBool,
}

impl SplitHub {
    fn open_points(&self) -> MutexGuard<'_, Vec<Arc<SplitPoint>>> {
        self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether a worker is waiting for work.
    #[inline]
    pub fn has_idle(&self) -> bool {
        self.idle.load(Ordering::Relaxed) > 0
    }

    /// Opens `point` to the helpers.
    pub fn open(&self, point: Arc<SplitPoint>) {
        self.open_points().push(point);
        self.opened.fetch_add(1, Ordering::SeqCst);
    }

    /// Closes `point`.
    pub fn close(&self, point: &Arc<SplitPoint>) {
        self.open_points().retain(|open| !Arc::ptr_eq(open, point));
    }

    /// The open split point with moves left and the most depth to search, among those below
    /// `below` if given (a waiting owner helps only its own helpers); the caller has entered it.
    fn find_work(&self, below: Option<&SplitPoint>) -> Option<Arc<SplitPoint>> {
        let open = self.open_points();
        let point = open
            .iter()
            .filter(|point| point.has_work() && below.is_none_or(|owner| point.is_below(owner)))
            .max_by_key(|point| point.node.depth)?;
        point.enter();
        Some(Arc::clone(point))
    }

    /// Waits for a split point with work (below `below`, if given), entered, or `None` once
    /// `done` says the wait is over.
    pub fn wait_for_work(&self, below: Option<&SplitPoint>, done: impl Fn() -> bool) -> Option<Arc<SplitPoint>> {
        self.idle.fetch_add(1, Ordering::SeqCst);
        let mut polls = 0u32;
        let mut seen = None;
        let found = loop {
            if done() {
                break None;
            }
            let opened = self.opened.load(Ordering::SeqCst);
            if seen != Some(opened) {
                seen = Some(opened);
                if let Some(point) = self.find_work(below) {
                    break Some(point);
                }
            }
            polls = polls.wrapping_add(1);
            pause(polls);
        };
        self.idle.fetch_sub(1, Ordering::SeqCst);
        found
    }

    /// Whether the iteration is over.
    pub fn finished(&self) -> bool {
        self.finished.load(Ordering::SeqCst)
    }

    /// Marks the iteration as running (`false`) or over (`true`: the helpers return).
    pub fn set_finished(&self, finished: bool) {
        self.finished.store(finished, Ordering::SeqCst);
    }
}

/// A moment's wait in the `polls`-th round of a polling loop: a short spin, and now and then
/// the core left to others (for when threads outnumber cores).
fn pause(polls: u32) {
    for _ in 0..32 {
        std::hint::spin_loop();
    }
    if polls.is_multiple_of(64) {
        std::thread::yield_now();
    }
}
