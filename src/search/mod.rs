//! The search driver: iterative deepening with aspiration windows over the alpha-beta worker,
//! the stop/ponder controls shared with the engine loop, and per-iteration reports. A search
//! always completes depth 1, so there is a legal best move however soon it is stopped.

pub mod correction;
pub mod history;
mod movepick;
pub mod pruning;
pub mod live;
pub mod see;
mod stack;
mod split;
mod split_worker;
mod alphabeta;
mod quiescence;
mod worker;
mod root;
pub mod strength;
pub mod tablebase;
pub mod time;
pub mod tt;

use crate::movegen::{count_legal, generate_legal, is_legal_move, MoveList};
use crate::position::Position;
use crate::threads::WorkerPool;
use crate::types::Move;
use history::Histories;
use live::{LiveReporter, LiveSink};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tablebase::TbSettings;
use time::{IterationStats, Limits, TimeManager};
use tt::{TranspositionTable, MATE, MATE_BOUND};
use worker::Worker;

/// The deepest ply the search reaches (plies beyond are evaluated statically).
pub const MAX_PLY: usize = 128;
/// A score beyond every real score (and every mate).
pub const INFINITY: i32 = 32_500;

/// What the engine loop shares with a running search: the stop request, the ponder state and
/// the node and tablebase-hit counts the workers have added so far.
#[derive(Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When `ponderhit` ended the pondering: every worker's clock runs from here.
    ponderhit_at: OnceLock<Instant>,
    nodes: AtomicU64,
    tb_hits: AtomicU64,
}

impl SearchControl {
    /// A control for a search that starts pondering or not.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl { pondering: AtomicBool::new(pondering), ..SearchControl::default() }
    }

    /// Asks the search to stop as soon as it can.
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was requested.
    #[inline]
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the search turns into a normal timed search,
    /// timed from now. (A `ponderhit` when not pondering changes nothing.)
    pub fn ponderhit(&self) {
        if self.is_pondering() {
            // The instant first: whoever sees the pondering end (Acquire) sees it too.
            let _ = self.ponderhit_at.set(Instant::now());
            self.pondering.store(false, Ordering::Release);
        }
    }

    /// Whether the search is still pondering (no time limit applies).
    #[inline]
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// When `ponderhit` ended the pondering, if it has.
    pub fn ponderhit_instant(&self) -> Option<Instant> {
        self.ponderhit_at.get().copied()
    }

    /// Nodes searched by every thread, as last reported (workers report every 1024 nodes).
    #[inline]
    pub fn total_nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Adds a worker's newly searched nodes.
    #[inline]
    pub fn add_nodes(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
    }

    /// Tablebase hits below the root by every thread, as last reported (with the nodes).
    #[inline]
    pub fn total_tb_hits(&self) -> u64 {
        self.tb_hits.load(Ordering::Relaxed)
    }

    /// Adds a worker's new tablebase hits.
    #[inline]
    pub fn add_tb_hits(&self, hits: u64) {
        self.tb_hits.fetch_add(hits, Ordering::Relaxed);
    }
}

/// How a reported score relates to the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ScoreBound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (an aspiration fail high).
    Lower,
    /// The true score is at most this (an aspiration fail low).
    Upper,
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Report {
    /// The iteration's depth.
    pub depth: i32,
    /// The deepest ply reached.
    pub seldepth: usize,
    /// Which line this is (1 = the best), for MultiPV.
    pub multipv: usize,
    /// The score from the side to move's point of view (mates beyond `MATE_BOUND`).
    pub score: i32,
    /// Exact, or a bound from an aspiration failure.
    pub bound: ScoreBound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Table usage in permille.
    pub hashfull: usize,
    /// Tablebase probes that gave a result (root moves included).
    pub tbhits: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// One principal variation and its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The score from the side to move's point of view.
    pub score: i32,
    /// The moves, first the root move.
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`Move::NULL` when there is no legal move).
    pub best_move: Move,
    /// The expected reply, if known.
    pub ponder_move: Move,
    /// The score of the best move.
    pub score: i32,
    /// The last completed depth.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// The last completed iteration's lines, best first (`Limits::multipv` of them).
    pub lines: Vec<Line>,
}

impl SearchResult {
    /// A result before any iteration: `best_move` with `score`, nothing searched.
    fn unsearched(best_move: Move, score: i32) -> SearchResult {
        SearchResult { best_move, ponder_move: Move::NULL, score, depth: 0, nodes: 0, lines: Vec::new() }
    }
}

/// What a search needs besides the position and limits.
pub struct SearchContext<'a> {
    /// The shared transposition table.
    pub tt: &'a TranspositionTable,
    /// Stop and ponder controls.
    pub control: &'a SearchControl,
    /// Move-ordering statistics, one per search thread, kept between searches.
    pub histories: &'a mut [Histories],
    /// Keys of the game's positions before the root (for repetition draws).
    pub history: &'a [u64],
    /// Milliseconds kept back for communication latency.
    pub move_overhead_ms: u64,
    /// The threads of the parallel search (`None`, or a one-thread pool: a single-threaded search).
    pub pool: Option<&'a WorkerPool>,
    /// Syzygy tables and their options, if `SyzygyPath` found any.
    pub tablebases: Option<&'a TbSettings>,
    /// Where the main thread's live reports (current root move, status) go; `None`: not made.
    pub live: Option<LiveSink<'a>>,
}

/// Whether the fifty-move rule draws `pos`: a hundred half-moves without a capture or pawn move,
/// unless the last of them mated (asked only then: it generates the moves).
pub(crate) fn fifty_moves_drawn(pos: &Position) -> bool {
    pos.halfmove_clock() >= 100 && (!pos.is_check() || count_legal(pos) > 0)
}

/// A mate score in moves (positive: the side to move mates), if `score` is one.
pub fn mate_in_moves(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// Searches `root` under `limits`, calling `report` after each iteration (and on aspiration
/// failures), and returns the best move found. With a pool of more than one thread (and one
/// `Histories` per thread) iterations from depth 2 on split from the root down (`root.rs`,
/// `split.rs`); with one thread the search is the plain single-threaded one.
pub fn search(
    root: &Position,
    limits: &Limits,
    context: SearchContext,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    let start = Instant::now();
    let game_ply = 2 * u32::from(root.fullmove_number().max(1) - 1) + u32::from(!root.side_to_move().is_white());
    let time = TimeManager::new(limits, root.side_to_move(), context.move_overhead_ms, game_ply, start);
    let mut root_moves = RootMoves::new(root, limits, context.tablebases, context.history);
    let Some(&first) = root_moves.moves.first() else {
        return SearchResult::unsearched(Move::NULL, if root.is_check() { -MATE } else { 0 });
    };

    let tt = context.tt;
    let hub = split::SplitHub::default();
    let mut search = RootSearch::new(root, limits, context, time, &root_moves, &hub);

    let mut progress = Progress::new(first);
    let max_depth = limits.depth.unwrap_or(MAX_PLY as i32 - 4).clamp(1, MAX_PLY as i32 - 4);
    let wanted_lines = limits.multipv.clamp(1, root_moves.moves.len());
    'deepening: for depth in 1..=max_depth {
        for worker in &mut search.workers {
            worker.may_stop = depth > 1;
        }
        // The iteration's lines, each by aspiration windows; MultiPV searches each further line
        // without the moves of the lines above. The time manager reads the first line's search,
        // the one whose move is played (a later line's excludes that move).
        let mut first_line = FirstLine { failed_low: false, best_move_node_share: 1.0 };
        let mut lines: Vec<Line> = Vec::with_capacity(wanted_lines);
        for line_index in 0..wanted_lines {
            let excluded: Vec<Move> = lines.iter().filter_map(|line| line.pv.first().copied()).collect();
            for worker in &mut search.workers {
                worker.root_excluded.clone_from(&excluded);
            }
            let previous = progress.result.lines.get(line_index).map_or(progress.result.score, |line| line.score);
            let Some(outcome) = search.aspiration(depth, line_index + 1, previous, &progress.pv, report) else {
                // A move that beat the first one in the unfinished iteration is better informed
                // than the last complete iteration's best.
                if let (0, 1, Some(best)) = (line_index, wanted_lines, search.workers[0].root_best.take()) {
                    if progress.adopt_unfinished(best) {
                        // Shown, so that the last line a GUI or match runner saw starts with
                        // the move about to be played (fastchess warns otherwise). Shown as
                        // exact although a move that failed high at the window's top has only a
                        // lower bound: match runners and GUIs take the last exact line as the
                        // engine's choice and skip bound lines.
                        let shown = root_moves.shown_score(Some(&progress.result.best_move), progress.result.score);
                        let line = search.report(depth, 1, shown, ScoreBound::Exact, progress.pv.clone());
                        search.show(&line, report);
                    }
                }
                break 'deepening;
            };
            let mut pv = outcome.pv;
            if pv.is_empty() {
                pv = root_moves.moves.iter().copied().find(|mv| !excluded.contains(mv)).into_iter().collect();
            }
            if line_index == 0 {
                let best_move_node_share = pv.first().map_or(1.0, |&best| search.node_share(best));
                first_line = FirstLine { failed_low: outcome.failed_low, best_move_node_share };
            }
            lines.push(Line { score: outcome.score, pv });
        }

        // The iteration is complete: its lines become the result and are reported.
        let score = progress.adopt(depth, lines, &mut root_moves.moves);
        for (index, line) in progress.result.lines.iter().enumerate() {
            let shown = root_moves.shown_score(line.pv.first(), line.score);
            let line = search.report(depth, index + 1, shown, ScoreBound::Exact, line.pv.clone());
            search.show(&line, report);
        }

        if !progress.go_deeper(depth, score, first_line, limits, &mut search) {
            break;
        }
    }

    for worker in &mut search.workers {
        worker.flush_nodes();
    }
    let Progress { mut result, pv, .. } = progress;
    result.nodes = search.nodes();
    result.score = root_moves.shown_score(Some(&result.best_move), result.score);
    for line in &mut result.lines {
        line.score = root_moves.shown_score(line.pv.first(), line.score);
    }
    result.ponder_move = pv.get(1).copied().unwrap_or_else(|| expected_reply(root, result.best_move, tt));
    result
}

/// The root moves to search: the legal moves (or those of `searchmoves` that are legal), and in
/// the tablebases only those that keep the best result.
struct RootMoves {
    /// The moves searched, best first after each iteration.
    moves: Vec<Move>,
    /// What the workers restrict the root to (empty: every legal move).
    filter: Vec<Move>,
    /// The tablebase ranking, when the root is in the tables.
    ranking: Option<tablebase::RootRanking>,
}

impl RootMoves {
    fn new(root: &Position, limits: &Limits, tablebases: Option<&TbSettings>, history: &[u64]) -> RootMoves {
        let mut legal = MoveList::new();
        generate_legal(root, &mut legal);
        // Each legal move once, however often `searchmoves` names it.
        let mut filter: Vec<Move> = legal.iter().copied().filter(|mv| limits.search_moves.contains(mv)).collect();
        let mut moves: Vec<Move> = if filter.is_empty() { legal.to_vec() } else { filter.clone() };
        let ranking = tablebases.and_then(|tb| tablebase::rank_root_moves(tb, root, &moves, history));
        if let Some(ranking) = &ranking {
            moves.clone_from(&ranking.best);
            filter.clone_from(&ranking.best);
        }
        RootMoves { moves, filter, ranking }
    }

    /// Whether the search probes the tablebases below the root.
    fn probe_below(&self) -> bool {
        self.ranking.as_ref().is_none_or(|r| r.probe_below)
    }

    /// The tablebase hits of ranking the root moves.
    fn tb_hits(&self) -> u64 {
        self.ranking.as_ref().map_or(0, |r| r.scores.len() as u64)
    }

    /// The score shown for `mv`: a root in the tables shows its tablebase score unless the
    /// search proves a mate.
    fn shown_score(&self, mv: Option<&Move>, score: i32) -> i32 {
        match (&self.ranking, mv) {
            (Some(ranking), Some(&mv)) if score.abs() < MATE_BOUND => ranking.score_of(mv).unwrap_or(score),
            _ => score,
        }
    }
}

/// The threads searching one root, and what their reports read.
struct RootSearch<'a> {
    root: &'a Position,
    /// Keys of the game's positions before the root.
    history: &'a [u64],
    workers: Vec<Worker<'a>>,
    /// The pool, when iterations split over more than one thread.
    pool: Option<&'a WorkerPool>,
    hub: &'a split::SplitHub,
    tt: &'a TranspositionTable,
    /// Tablebase hits counted before the workers started (ranking the root moves).
    root_tb_hits: u64,
}

/// One line of an iteration, searched to an exact score.
struct LineOutcome {
    score: i32,
    pv: Vec<Move>,
    /// Whether a window failed low on the way.
    failed_low: bool,
}

impl<'a> RootSearch<'a> {
    /// The threads for `root` (starting a new search in the table): one worker per thread of
    /// the pool that has its own histories; with more than one, every worker joins `hub` and
    /// iterations split over the pool.
    fn new(
        root: &'a Position,
        limits: &Limits,
        context: SearchContext<'a>,
        time: TimeManager,
        root_moves: &RootMoves,
        hub: &'a split::SplitHub,
    ) -> RootSearch<'a> {
        context.tt.new_search();
        let threads = context.pool.map_or(1, |pool| pool.threads()).min(context.histories.len()).max(1);
        let tb_settings = context.tablebases.filter(|_| root_moves.probe_below());
        let mut workers: Vec<Worker<'a>> = context
            .histories
            .iter_mut()
            .take(threads)
            .map(|histories| {
                let filter = root_moves.filter.clone();
                Worker::new(context.tt, context.control, time.clone(), limits.nodes, context.history, histories, filter)
                    .with_tablebases(tb_settings.cloned())
            })
            .collect();
        if threads > 1 {
            for worker in &mut workers {
                worker.join(hub);
            }
        }
        workers[0].live = context.live.map(|sink| LiveReporter::new(sink, root_moves.tb_hits()));
        RootSearch {
            root,
            history: context.history,
            workers,
            pool: context.pool.filter(|_| threads > 1),
            hub,
            tt: context.tt,
            root_tb_hits: root_moves.tb_hits(),
        }
    }

    fn nodes(&self) -> u64 {
        self.workers.iter().map(|w| w.nodes).sum()
    }

    fn seldepth(&self) -> usize {
        self.workers.iter().map(|w| w.seldepth).max().unwrap_or(0)
    }

    fn tbhits(&self) -> u64 {
        self.root_tb_hits + self.workers.iter().map(|w| w.tb_hits).sum::<u64>()
    }

    fn stopped(&self) -> bool {
        self.workers.iter().any(|w| w.stopped)
    }

    /// The share of the last iteration's root nodes spent below `best`, over every worker.
    fn node_share(&self, best: Move) -> f64 {
        node_share(self.workers.iter().flat_map(|w| &w.root_move_nodes), best)
    }

    /// The root searched at `depth` in the window (`alpha`, `beta`); the first worker then
    /// holds the principal variation.
    fn search_window(&mut self, depth: i32, alpha: i32, beta: i32) -> i32 {
        match self.pool {
            Some(pool) => {
                let iteration = root::RootIteration { root: self.root, alpha, beta, depth };
                root::split_search(&mut self.workers, pool, self.hub, iteration)
            }
            None => self.workers[0].search_root(self.root, alpha, beta, depth),
        }
    }

    /// Line `multipv` at `depth`, in a window around `previous` (the full window below
    /// `ASPIRATION_MIN_DEPTH`) widened by half on each failure; a failure is reported (with
    /// `pv`, the best line so far) once the search has run a second. `None` when stopped.
    fn aspiration(
        &mut self,
        depth: i32,
        multipv: usize,
        previous: i32,
        pv: &[Move],
        report: &mut dyn FnMut(&Report),
    ) -> Option<LineOutcome> {
        let mut delta = pruning::ASPIRATION_DELTA.get();
        let (mut alpha, mut beta) = if depth >= pruning::ASPIRATION_MIN_DEPTH {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        let mut failed_low = false;
        // The root move that failed high in an earlier window of this depth: if the search stops
        // in the wider window before any move beats alpha there, that move is still the news.
        let mut failed_high_best = None;
        loop {
            let score = self.search_window(depth, alpha, beta);
            if self.stopped() {
                let root_best = &mut self.workers[0].root_best;
                if root_best.is_none() {
                    *root_best = failed_high_best;
                }
                return None;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                failed_low = true;
                failed_high_best = None;
                ScoreBound::Upper
            } else if score >= beta {
                failed_high_best = self.workers[0].root_best.take();
                beta = (score + delta).min(INFINITY);
                ScoreBound::Lower
            } else {
                let pv = self.workers[0].principal_variation().to_vec();
                return Some(LineOutcome { score, pv, failed_low });
            };
            if self.workers[0].time().elapsed() > Duration::from_secs(1) {
                let line = self.report(depth, multipv, score, bound, pv.to_vec());
                self.show(&line, report);
            }
            delta += delta / 2;
        }
    }

    /// Passes `line` to `report` and tells the main thread's live reporter it was shown.
    fn show(&mut self, line: &Report, report: &mut dyn FnMut(&Report)) {
        report(line);
        if let Some(live) = self.workers[0].live.as_mut() {
            live.shown_at(line.elapsed);
        }
    }

    fn report(&self, depth: i32, multipv: usize, score: i32, bound: ScoreBound, pv: Vec<Move>) -> Report {
        Report {
            depth,
            seldepth: self.seldepth(),
            multipv,
            score,
            bound,
            nodes: self.nodes(),
            elapsed: self.workers[0].time().elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.tbhits(),
            pv: shown_pv(self.root, self.history, pv),
        }
    }
}

/// The part of `pv` a GUI may show: up to the first move that draws by threefold repetition
/// (counting the game's positions before the root) or by the fifty-move rule, and before any move
/// that is not legal. The search scores a repetition as a draw at once, but a line read back from
/// the table may run on past it; match runners check PVs (fastchess warns of one that continues
/// after a draw).
fn shown_pv(root: &Position, history: &[u64], mut pv: Vec<Move>) -> Vec<Move> {
    let mut pos = root.clone();
    let mut keys: Vec<u64> = history.iter().copied().chain([root.key()]).collect();
    for (index, &mv) in pv.iter().enumerate() {
        if !is_legal_move(&pos, mv) {
            pv.truncate(index);
            break;
        }
        pos.make_move(mv);
        keys.push(pos.key());
        let occurrences = keys.iter().filter(|&&key| key == pos.key()).count();
        if occurrences >= 3 || pos.halfmove_clock() >= 100 {
            pv.truncate(index + 1);
            break;
        }
    }
    pv
}

/// What an iteration's first line tells the time manager.
#[derive(Clone, Copy)]
struct FirstLine {
    /// A window failed low on the way.
    failed_low: bool,
    /// The share of the line's last window's root nodes spent below its best move.
    best_move_node_share: f64,
}

/// What the iterations so far have settled.
struct Progress {
    result: SearchResult,
    /// The best line's moves.
    pv: Vec<Move>,
    /// Completed iterations in a row with the same best move.
    stable_iterations: u32,
    /// Each completed iteration's best score.
    scores: Vec<i32>,
}

impl Progress {
    fn new(first: Move) -> Progress {
        Progress {
            result: SearchResult::unsearched(first, 0),
            pv: vec![first],
            stable_iterations: 0,
            scores: Vec::new(),
        }
    }

    /// Takes a complete iteration's `lines` and returns its best score. Lines found later may
    /// score higher than earlier ones (other windows): they are ordered by score, keeping the
    /// search order among equals, and their first moves lead `root_moves`, in line order.
    fn adopt(&mut self, depth: i32, mut lines: Vec<Line>, root_moves: &mut [Move]) -> i32 {
        lines.sort_by_key(|line| std::cmp::Reverse(line.score));
        let score = lines[0].score;
        if let Some(&best) = lines[0].pv.first() {
            self.stable_iterations = if best == self.result.best_move { self.stable_iterations + 1 } else { 0 };
            self.result.best_move = best;
            self.pv = lines[0].pv.clone();
            for line in lines.iter().rev() {
                if let Some(index) = line.pv.first().and_then(|first| root_moves.iter().position(|mv| mv == first)) {
                    root_moves[..=index].rotate_right(1);
                }
            }
        }
        self.result.score = score;
        self.result.depth = depth;
        self.result.lines = lines;
        score
    }

    /// Whether to search one iteration deeper after the one at `depth` ended with `score`
    /// (`first_line`: what its first line's search said), recording the score.
    fn go_deeper(
        &mut self,
        depth: i32,
        score: i32,
        first_line: FirstLine,
        limits: &Limits,
        search: &mut RootSearch,
    ) -> bool {
        let mate = mate_in_moves(score);
        if let (Some(wanted), Some(found)) = (limits.mate, mate) {
            if found > 0 && found <= wanted {
                return false;
            }
        }
        // Far beyond a proven mate's length, deeper iterations rarely shorten it: stop (an
        // infinite search then waits quietly for `stop`), unless `go mate` wants a shorter one.
        if limits.mate.is_none() && mate.is_some_and(|m| depth > 4 * m.abs() + 8) {
            return false;
        }
        let stats = IterationStats {
            depth,
            stable_iterations: self.stable_iterations,
            best_move_node_share: first_line.best_move_node_share,
            score_drop: average_of_last_two(&self.scores).map_or(0, |average| average - score),
            failed_low: first_line.failed_low,
        };
        self.scores.push(score);
        if search.workers[0].should_stop_deepening(&stats) {
            return false;
        }
        let below = |limit: Option<u64>| limit.is_none_or(|n| search.nodes() < n);
        below(limits.nodes) && below(limits.soft_nodes)
    }

    /// Takes the best move of an unfinished iteration (move, score, line) when it differs from
    /// the last complete iteration's; whether it did.
    fn adopt_unfinished(&mut self, (best, score, line): (Move, i32, Vec<Move>)) -> bool {
        if best == self.result.best_move {
            return false;
        }
        self.result.best_move = best;
        self.result.score = score;
        self.pv = line;
        self.result.lines = vec![Line { score, pv: self.pv.clone() }];
        true
    }
}

/// The average of the last two scores (or the one there is).
fn average_of_last_two(scores: &[i32]) -> Option<i32> {
    let last = &scores[scores.len().saturating_sub(2)..];
    (!last.is_empty()).then(|| last.iter().sum::<i32>() / last.len() as i32)
}

/// The share of the root nodes spent below `best` (1 when nothing was counted), from every
/// worker's counts: with threads, the root moves after the first are searched at a split point,
/// mostly by the helpers, and counting worker 0's alone made the best move's share look near 1
/// (so a multi-threaded search stopped early).
fn node_share<'m>(root_move_nodes: impl Iterator<Item = &'m (Move, u64)> + Clone, best: Move) -> f64 {
    let total: u64 = root_move_nodes.clone().map(|&(_, n)| n).sum();
    let spent: u64 = root_move_nodes.filter(|&&(mv, _)| mv == best).map(|&(_, n)| n).sum();
    if total == 0 {
        1.0
    } else {
        spent as f64 / total as f64
    }
}

/// The position at the end of the quiescence search's principal variation from `pos`: a
/// quiet position whose static evaluation matches the quiescence score (for eval tuning).
pub fn quiet_leaf(pos: &Position, tt: &TranspositionTable, histories: &mut Histories) -> Position {
    let control = SearchControl::new(false);
    let time = TimeManager::new(&Limits::default(), pos.side_to_move(), 0, 0, Instant::now());
    let mut worker = Worker::new(tt, &control, time, None, &[], histories, Vec::new());
    worker.quiescence_root(pos);
    let mut leaf = pos.clone();
    for &mv in worker.principal_variation() {
        leaf.make_move(mv);
    }
    leaf
}

/// The reply the table expects after `best`, if it is legal there.
fn expected_reply(root: &Position, best: Move, tt: &TranspositionTable) -> Move {
    if best.is_null() {
        return Move::NULL;
    }
    let child = root.after(best);
    match tt.probe(child.key()) {
        Some(entry) if is_legal_move(&child, entry.mv) => entry.mv,
        _ => Move::NULL,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(fen: &str, depth: i32) -> SearchResult {
        search_on_threads(fen, &Limits::depth(depth), 1)
    }

    /// Searches `fen` on `threads` threads (one: the plain single-threaded search).
    fn search_on_threads(fen: &str, limits: &Limits, threads: usize) -> SearchResult {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
        let tt = TranspositionTable::new(8);
        let control = SearchControl::new(false);
        let pool = (threads > 1).then(|| WorkerPool::new(threads).unwrap_or_else(|e| unreachable!("{e}")));
        let mut histories: Vec<Histories> = (0..threads).map(|_| Histories::default()).collect();
        search(&pos, limits, test_context(&tt, &control, &mut histories, pool.as_ref()), &mut |_| {})
    }

    /// A context with no game history, move overhead or tablebases.
    fn test_context<'a>(
        tt: &'a TranspositionTable,
        control: &'a SearchControl,
        histories: &'a mut [Histories],
        pool: Option<&'a WorkerPool>,
    ) -> SearchContext<'a> {
        SearchContext { tt, control, histories, history: &[], move_overhead_ms: 0, pool, tablebases: None, live: None }
    }

    /// The search issue's case: after 1...Qa5, 2. Bd2 attacks the queen with a bishop. Shallow
    /// searches used to prune the queen's quiet escapes as late or futile, leaving only Qxd2+,
    /// and scored Bd2 at about +770.
    #[test]
    fn a_piece_attacked_by_a_cheaper_one_keeps_its_escapes() {
        let fen = "rnb1kbnr/p2p2pp/2p2p2/qp2p3/2P3P1/3P1N2/PP2PPBP/RNBQK2R w KQkq - 1 6";
        for depth in 2..=4 {
            let result = best(fen, depth);
            assert!(result.score < 300, "depth {depth}: {result:?}");
        }
    }

    #[test]
    fn finds_mate_in_one_and_two() {
        let m1 = best("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3);
        assert_eq!(m1.best_move.to_string(), "a1a8");
        assert_eq!(mate_in_moves(m1.score), Some(1));
        // Mate in two: 1. Kc7 Ka7 2. Ra1#.
        let m2 = best("k7/8/2K5/8/8/8/8/7R w - - 0 1", 5);
        assert_eq!(mate_in_moves(m2.score), Some(2), "{m2:?}");
    }

    #[test]
    fn a_soft_node_limit_finishes_the_iteration_it_falls_in() {
        // Past the soft limit no iteration starts, so the search is the fixed-depth search of
        // its last depth, node for node; the hard limit of the same size stops inside one.
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let soft = search_on_threads(fen, &Limits { soft_nodes: Some(5000), ..Limits::default() }, 1);
        assert!(soft.nodes >= 5000, "{soft:?}");
        let fixed = search_on_threads(fen, &Limits::depth(soft.depth), 1);
        assert_eq!((soft.nodes, soft.best_move, soft.score), (fixed.nodes, fixed.best_move, fixed.score));
        // ...and that depth is the one the limit fell in: one less stays below it.
        let shallower = search_on_threads(fen, &Limits::depth(soft.depth - 1), 1);
        assert!(shallower.nodes < 5000, "{shallower:?}");
        let hard = search_on_threads(fen, &Limits { nodes: Some(5000), ..Limits::default() }, 1);
        assert!(hard.nodes < soft.nodes && hard.nodes >= 5000, "{hard:?} against {soft:?}");
        // Both limits, the same size: the hard one decides, node for node (datagen's old way).
        let both = Limits { nodes: Some(5000), soft_nodes: Some(5000), ..Limits::default() };
        let both = search_on_threads(fen, &both, 1);
        assert_eq!((both.nodes, both.best_move, both.score), (hard.nodes, hard.best_move, hard.score));
    }

    #[test]
    fn the_root_split_finds_mates_and_legal_moves() {
        for threads in [2, 3] {
            // Mate in two (Kc7); threads sharing the table may settle for a longer mate first.
            let m2 = search_on_threads("k7/8/2K5/8/8/8/8/7R w - - 0 1", &Limits::depth(6), threads);
            assert!(mate_in_moves(m2.score).is_some_and(|m| (2..=3).contains(&m)), "{threads} threads: {m2:?}");
            let m1 = search_on_threads("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", &Limits::depth(5), threads);
            assert_eq!((m1.best_move.to_string(), mate_in_moves(m1.score)), ("a1a8".to_string(), Some(1)));
            // Kiwipete: every line's first move legal, lines ordered by score, nodes summed.
            let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
            let limits = Limits { multipv: 3, ..Limits::depth(8) };
            let result = search_on_threads(fen, &limits, threads);
            let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            assert_eq!(result.lines.len(), 3);
            assert!(result.lines.windows(2).all(|w| w[0].score >= w[1].score), "{:?}", result.lines);
            assert!(result.lines.iter().all(|line| is_legal_move(&pos, line.pv[0])));
            assert_eq!(result.best_move, result.lines[0].pv[0]);
            assert!(result.nodes > 1000);
        }
    }

    #[test]
    fn the_node_share_counts_the_root_moves_of_every_thread() {
        // With threads, the root moves after the first go to a split point, mostly to the
        // helper: counting worker 0's root moves alone made the best move's share look near 1
        // and the timed search stop early.
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let root = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
        let (tt, control) = (TranspositionTable::new(8), SearchControl::new(false));
        let pool = WorkerPool::new(2).unwrap_or_else(|e| unreachable!("{e}"));
        let mut histories = vec![Histories::default(), Histories::default()];
        let limits = Limits::depth(9);
        let context = test_context(&tt, &control, &mut histories, Some(&pool));
        let root_moves = RootMoves::new(&root, &limits, None, &[]);
        let time = TimeManager::new(&limits, root.side_to_move(), 0, 0, Instant::now());
        let hub = split::SplitHub::default();
        let mut search = RootSearch::new(&root, &limits, context, time, &root_moves, &hub);
        for depth in 1..=8 {
            search.search_window(depth, -INFINITY, INFINITY);
        }
        let before = search.nodes();
        search.search_window(9, -INFINITY, INFINITY);
        // Every node of the iteration below the root counts toward some root move, whichever
        // thread searched it (a helper's help deep inside a root move included). The root's own
        // node and a singular search there count toward none.
        let iteration = search.nodes() - before;
        let counted: u64 = search.workers.iter().flat_map(|w| &w.root_move_nodes).map(|&(_, n)| n).sum();
        assert!(counted <= iteration && counted * 100 >= iteration * 99, "{counted} of {iteration}");
        // A full window searches every root move in the last iteration, whoever took it.
        let counted: std::collections::HashSet<Move> =
            search.workers.iter().flat_map(|w| &w.root_move_nodes).map(|&(mv, _)| mv).collect();
        assert_eq!(counted.len(), root_moves.moves.len());
        let best = search.workers[0].principal_variation()[0];
        let share = search.node_share(best);
        assert!(share > 0.0 && share < 1.0, "{share}");
    }

    /// Runs `f` on a single-threaded root search of `fen` under `limits` once full-window
    /// iterations 1 to `depth - 1` are done; a fresh table and histories, so a run repeats.
    fn after_iterations<R>(fen: &str, limits: &Limits, depth: i32, f: impl FnOnce(&mut RootSearch) -> R) -> R {
        let root = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
        let (tt, control) = (TranspositionTable::new(8), SearchControl::new(false));
        let mut histories = vec![Histories::default()];
        let context = test_context(&tt, &control, &mut histories, None);
        let root_moves = RootMoves::new(&root, limits, None, &[]);
        let time = TimeManager::new(limits, root.side_to_move(), 0, 0, Instant::now());
        let hub = split::SplitHub::default();
        let mut search = RootSearch::new(&root, limits, context, time, &root_moves, &hub);
        for shallower in 1..depth {
            search.search_window(shallower, -INFINITY, INFINITY);
        }
        search.workers[0].may_stop = true;
        f(&mut search)
    }

    #[test]
    fn a_move_that_failed_high_is_kept_when_the_wider_window_is_stopped() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let depth = 8;
        // A previous score far below the truth: the first window fails high.
        let previous = -2000;
        let delta = pruning::ASPIRATION_DELTA.get();
        let (nodes, failed_high) = after_iterations(fen, &Limits::default(), depth, |search| {
            let score = search.search_window(depth, previous - delta, previous + delta);
            assert!(score >= previous + delta);
            (search.nodes(), search.workers[0].root_best.clone())
        });
        let failed_high = failed_high.unwrap_or_else(|| unreachable!("a fail high has a best move"));
        // The same search stopped by a node limit just past that window: the wider window is
        // stopped before its first move is searched, and the move that failed high stays.
        let limits = Limits { nodes: Some(nodes + 1), ..Limits::default() };
        after_iterations(fen, &limits, depth, |search| {
            assert!(search.aspiration(depth, 1, previous, &[], &mut |_| {}).is_none());
            assert_eq!(search.workers[0].root_best.as_ref().map(|best| best.0), Some(failed_high.0));
        });
    }

    #[test]
    fn no_legal_move_gives_null_move() {
        let stalemate = best("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 4);
        assert_eq!(stalemate.best_move, Move::NULL);
        assert_eq!(stalemate.score, 0);
        let mated = best("R6k/8/6K1/8/8/8/8/8 b - - 0 1", 4);
        assert_eq!(mated.best_move, Move::NULL);
        assert_eq!(mated.score, -MATE);
    }

    #[test]
    fn repetition_and_material_draws_score_zero() {
        // Bare kings: a draw at any depth.
        assert_eq!(best("8/8/4k3/8/8/4K3/8/8 w - - 0 1", 6).score, 0);
        // White is a rook down but can force perpetual check with the queen.
        let perpetual = best("6k1/5ppp/8/8/8/8/r4PPP/r1Q3K1 w - - 0 1", 8);
        assert!(perpetual.score.abs() < MATE_BOUND);
    }

    #[test]
    fn a_draw_by_rule_after_the_last_move_is_seen_at_the_horizon() {
        // A rook up, but every move White has ends the fifty moves: at depth 1 each child is at
        // the horizon, where quiescence alone would count the rook.
        assert_eq!(best("8/8/4k3/8/8/4K3/8/R7 w - - 99 80", 1).score, 0);
        assert!(best("8/8/4k3/8/8/4K3/8/R7 w - - 97 80", 1).score > 300);
    }

    /// `fen`'s position and the moves of `texts` (UCI notation), each legal after the ones before.
    fn line(fen: &str, texts: &[&str]) -> (Position, Vec<Move>) {
        let root = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
        let mut pos = root.clone();
        let mut moves = Vec::new();
        for text in texts {
            let mut list = MoveList::new();
            generate_legal(&pos, &mut list);
            let mv = list.iter().copied().find(|mv| mv.to_uci(false).to_string() == *text);
            let mv = mv.unwrap_or_else(|| unreachable!("{text} is not legal"));
            pos.make_move(mv);
            moves.push(mv);
        }
        (root, moves)
    }

    #[test]
    fn a_shown_pv_stops_at_a_draw_or_an_illegal_move() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"];
        let (root, pv) = line(start, &shuffle);
        // The start position's third occurrence comes after the eighth move.
        assert_eq!(shown_pv(&root, &[], pv.clone()), pv[..8]);
        // With the root seen once before in the game, after the fourth.
        assert_eq!(shown_pv(&root, &[root.key()], pv.clone()), pv[..4]);
        // The fifty-move rule: the 100th half-move without a capture or pawn move ends the line.
        let (root, pv) = line("8/8/4k3/8/8/4K3/8/R7 w - - 98 80", &["a1a2", "e6d6", "a2a3", "d6e6"]);
        assert_eq!(shown_pv(&root, &[], pv.clone()), pv[..2]);
        // A move that is not legal where it stands (a stale table line) and all after it go.
        let (root, mut pv) = line(start, &["e2e4", "e7e5"]);
        pv.insert(1, pv[0]);
        assert_eq!(shown_pv(&root, &[], pv.clone()), pv[..1]);
    }

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(mate_in_moves(MATE - 1), Some(1));
        assert_eq!(mate_in_moves(MATE - 3), Some(2));
        assert_eq!(mate_in_moves(-(MATE - 2)), Some(-1));
        assert_eq!(mate_in_moves(-(MATE - 4)), Some(-2));
        assert_eq!(mate_in_moves(100), None);
    }

    /// Pondering began long before `ponderhit`; from then on every check of the clock, by any
    /// worker and however late it looks, times the search from the `ponderhit` instant. (Before,
    /// a worker that looked first outside its 1,024-node poll, as a split point's owner does
    /// when it closes, or the root between iterations, saw the clock run out at once.)
    #[test]
    fn after_ponderhit_every_clock_check_runs_from_the_ponderhit() {
        let pos = Position::startpos();
        let tt = TranspositionTable::new(1);
        let control = SearchControl::new(true);
        let limits = Limits { time_ms: [Some(10_000), Some(10_000)], ..Limits::default() };
        let go = Instant::now().checked_sub(Duration::from_secs(60)).unwrap_or_else(|| unreachable!("uptime < 60 s"));
        let time = TimeManager::new(&limits, pos.side_to_move(), 0, 0, go);
        let mut histories = Histories::default();
        let mut worker = Worker::new(&tt, &control, time, None, &[], &mut histories, Vec::new());
        let stats = IterationStats {
            depth: 20,
            stable_iterations: 0,
            best_move_node_share: 0.5,
            score_drop: 0,
            failed_low: false,
        };
        assert!(!worker.search_must_stop() && !worker.should_stop_deepening(&stats), "no limit while pondering");

        control.ponderhit();
        let pause = Duration::from_millis(20);
        std::thread::sleep(pause);
        assert!(!worker.should_stop_deepening(&stats), "60 s of pondering spent none of the move's time");
        assert!(!worker.search_must_stop());
        let elapsed = worker.time().elapsed();
        assert!(elapsed >= pause && elapsed < Duration::from_secs(30), "timed from the ponderhit: {elapsed:?}");

        let late = TimeManager::new(&limits, pos.side_to_move(), 0, 0, go);
        assert!(late.hard_limit_reached(), "the same budget from `go` is long spent");
    }

    /// MultiPV searches each later line without the lines above; the root's TT entry keeps the
    /// first line's move (before, the last line's replaced it and led the next iteration).
    #[test]
    fn multipv_leaves_the_best_line_in_the_roots_table_entry() {
        let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap_or_else(|e| unreachable!("{e}"));
        let tt = TranspositionTable::new(8);
        let control = SearchControl::new(false);
        let mut histories = vec![Histories::default()];
        let limits = Limits { multipv: 3, ..Limits::depth(6) };
        let result = search(&pos, &limits, test_context(&tt, &control, &mut histories, None), &mut |_| {});
        assert_eq!(result.lines.len(), 3);
        let entry = tt.probe(pos.key()).unwrap_or_else(|| unreachable!("the root was stored"));
        assert_eq!(entry.mv, result.best_move, "lines: {:?}", result.lines.iter().map(|l| l.pv[0]).collect::<Vec<_>>());
    }

    /// A line into a won ending shows the win: at a PV node the tables' bound (here the loss of
    /// the side to move after Qxe5, an upper bound) stays when it does not cut. Before, once an
    /// aspiration window had failed high the wider one no longer cut, and the node was scored
    /// by its moves' evaluations (+2,394 at depth 8).
    #[test]
    fn a_pv_line_into_a_tablebase_win_shows_the_win() {
        // Five pieces, out of the tables; Qxe5 leaves KQP v K, won.
        let result = search_with_test_tables("3k4/8/8/4n3/8/2Q5/P7/6K1 w - - 0 1", 8);
        assert_eq!(result.best_move.to_string(), "c3e5");
        assert!(result.score >= tablebase::TB_WIN_BOUND, "{}", result.score);
    }

    /// Searches `fen` to `depth` on one thread with the committed test tables (3-4 pieces),
    /// probed at every depth.
    fn search_with_test_tables(fen: &str, depth: i32) -> SearchResult {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/syzygy");
        let (tables, problems) = crate::tb::Tablebases::open(dir);
        assert!(problems.is_empty(), "{problems:?}");
        let tables = tables.unwrap_or_else(|| unreachable!("the fixture tables load"));
        let tb = TbSettings { tables, probe_depth: 1, rule50: true, probe_limit: 7 };
        let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
        let tt = TranspositionTable::new(8);
        let control = SearchControl::new(false);
        let mut histories = vec![Histories::default()];
        let context = SearchContext { tablebases: Some(&tb), ..test_context(&tt, &control, &mut histories, None) };
        search(&pos, &Limits::depth(depth), context, &mut |_| {})
    }

    /// At the 99th half-move every move but a mate ends the fifty moves: the root's tablebase
    /// ranking scores them as draws (it showed a cursed win, cp 37), and a mate still mates.
    #[test]
    fn the_hundredth_half_move_draws_at_a_tablebase_root_unless_it_mates() {
        for (fen, mate) in [("8/8/8/8/8/2k5/8/KR6 w - - 99 1", false), ("k7/8/1K6/8/8/8/8/7R w - - 99 1", true)] {
            let result = search_with_test_tables(fen, 5);
            if mate {
                assert_eq!((result.best_move.to_string(), mate_in_moves(result.score)), ("h1h8".to_string(), Some(1)));
            } else {
                assert_eq!(result.score, 0, "{fen}");
            }
        }
    }
}
