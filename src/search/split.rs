//! Split points: a node whose later moves are searched by several threads at once (young
//! brothers wait), and the hub where workers open split points and idle workers find them.
//! Owner and helpers take the moves one at a time, each with a null window at the split
//! point's shared, atomically raised alpha. A move that beats alpha (at a PV node) is searched
//! again at once with the full window by whoever took it, as principal variation search
//! requires, and its exact score raises alpha before the moves still to be taken. A fail high
//! aborts the split point and every split point below it. An owner whose moves are all taken
//! helps only at split points below its own until its helpers are done, so waits form a tree,
//! never a cycle.

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
    /// Its place among the node's moves searched, from 1 (a root move's `currmovenumber`).
    pub number: usize,
}

/// What a split point found: the best score and its move (`Move::NULL` if no move finished).
pub struct SplitOutcome {
    pub score: i32,
    pub best: Move,
    /// The best move's principal variation (from the move itself on), when a full-window
    /// search found it; empty otherwise.
    pub line: Vec<Move>,
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
    /// The root move the node lies under (`Move::NULL` for the root itself): a helper's nodes
    /// here count toward that move's share of the iteration.
    pub root_move: Move,
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
            result: Mutex::new(SplitOutcome { score: -INFINITY, best: Move::NULL, line: Vec::new() }),
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

    /// Records a finished move's null-window score; a fail high aborts the split point. A score
    /// below beta is an upper bound from a null window at the alpha of its time, which exact
    /// scores may have raised above the node's: it counts as at most the node's alpha, so that
    /// only a fail high or a full-window search (`record_exact`) can raise the node's alpha.
    pub fn record(&self, mv: Move, score: i32) {
        let score = if score >= self.node.beta { score } else { score.min(self.node.alpha) };
        self.take_score(mv, score, Vec::new());
    }

    /// Records the score of a full-window search of `mv` at a PV split point, with its
    /// principal variation `line` (the move first): an exact score when inside the window, so it
    /// raises alpha for the moves still to be taken; a fail high aborts the split point.
    pub fn record_exact(&self, mv: Move, score: i32, line: Vec<Move>) {
        self.take_score(mv, score, line);
    }

    /// Keeps `mv` as the best move if `score` beats the best so far, raises alpha to `score`
    /// and aborts the split point on a fail high.
    fn take_score(&self, mv: Move, score: i32, line: Vec<Move>) {
        let mut result = self.result();
        if score > result.score {
            result.score = score;
            result.best = mv;
            result.line = line;
        }
        self.alpha.fetch_max(score, Ordering::SeqCst);
        if score >= self.node.beta {
            self.aborted.store(true, Ordering::Relaxed);
        }
    }

    /// The best score and move found, with the move's line if a full-window search found it.
    pub fn outcome(&self) -> SplitOutcome {
        let mut result = self.result();
        SplitOutcome { score: result.score, best: result.best, line: std::mem::take(&mut result.line) }
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
