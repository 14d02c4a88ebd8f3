//! A search thread's state (the `Worker`) and its bookkeeping: the static evaluator over the
//! current path, node counts and stop polling, repetition detection, the principal variation
//! and the live reports. The searches themselves are in `alphabeta.rs` (negamax),
//! `quiescence.rs` and `split_worker.rs` (split points); its fields are `pub(super)` for them.

use super::history::{Histories, PieceTo, QuietContext};
use super::live::{LiveInfo, LiveReporter};
use super::movepick::PickerBuffers;
use super::split::{SplitHub, SplitPoint};
use super::stack::Ply;
use super::tablebase::TbSettings;
use super::time::{IterationStats, TimeManager};
use super::tt::{TranspositionTable, TtEntry, NO_EVAL};
use super::{SearchControl, MAX_PLY};
use crate::eval::evaluate;
use crate::nnue::{self, AccumulatorStack, Network};
use crate::position::Position;
use crate::types::Move;
use std::sync::Arc;
use std::time::Instant;

/// The static evaluation: the network's when there is one, else the hand-crafted one.
pub(super) struct Evaluator {
    pub(super) net: Option<Arc<Network>>,
    pub(super) accumulators: AccumulatorStack,
}

impl Evaluator {
    fn new() -> Evaluator {
        let net = nnue::for_search();
        // The hand-crafted evaluation needs no accumulators.
        let plies = if net.is_some() { MAX_PLY + 4 } else { 0 };
        Evaluator { net, accumulators: AccumulatorStack::new(plies) }
    }

    /// Starts a new path at `pos`, the position at `ply` (a new root, or a split point taken
    /// from another thread): the accumulators of the old path are forgotten, `pos`'s computed.
    pub(super) fn reset(&mut self, pos: &Position, ply: usize) {
        if let Some(net) = &self.net {
            self.accumulators.reset(net, pos, ply);
        }
    }

    /// Records the move from `before` (at `ply`) to `after` (at `ply + 1`).
    #[inline]
    pub(super) fn push(&mut self, ply: usize, before: &Position, after: &Position) {
        if let Some(net) = &self.net {
            self.accumulators.push(net, ply + 1, before, after);
        }
    }

    /// The evaluation of `pos` at `ply` of the current path.
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match &self.net {
            Some(net) => {
                let score = self.accumulators.evaluate(net, pos, ply);
                debug_assert_eq!(score, net.evaluate(pos), "stale accumulator at ply {ply}: {}", pos.to_fen());
                score
            }
            None => evaluate(pos),
        }
    }

    /// The static evaluation, from the TT when it has one; `NO_EVAL` in check.
    pub(super) fn raw(&mut self, pos: &Position, ply: usize, tt_entry: Option<TtEntry>, in_check: bool) -> i32 {
        if in_check {
            return NO_EVAL;
        }
        match tt_entry {
            Some(entry) if entry.eval != NO_EVAL => entry.eval,
            _ => self.evaluate(pos, ply),
        }
    }

    /// The score at the ply horizon: the static evaluation (a draw in check, which has none).
    pub(super) fn horizon(&mut self, pos: &Position, ply: usize, in_check: bool) -> i32 {
        if in_check {
            0
        } else {
            self.evaluate(pos, ply)
        }
    }
}

/// A search thread's state.
pub struct Worker<'a> {
    pub(super) tt: &'a TranspositionTable,
    control: &'a SearchControl,
    time: TimeManager,
    was_pondering: bool,
    node_limit: Option<u64>,
    /// Nodes searched by this worker.
    pub nodes: u64,
    /// The part of `nodes` already added to the shared count.
    flushed: u64,
    /// In a parallel search: where this worker opens split points and finds them.
    pub(super) hub: Option<&'a SplitHub>,
    /// The split points this worker is searching moves of, outermost first: it stops when
    /// one of them aborts.
    pub(super) chain: Vec<Arc<SplitPoint>>,
    /// The deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// Keys of the positions before the current one (game history, then the search path).
    pub(super) keys: Vec<u64>,
    pub(super) root_len: usize,
    pub(super) stack: Vec<Ply>,
    pub(super) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    pub(super) histories: &'a mut Histories,
    pub(super) evaluator: Evaluator,
    /// Move-picker buffers per ply, reused from node to node.
    pub(super) pickers: Vec<Option<Box<PickerBuffers>>>,
    /// Root moves already given a MultiPV line this iteration: skipped at the root.
    pub root_excluded: Vec<Move>,
    /// Nodes this worker spent below each root move in the current iteration (for the time
    /// manager's node share of the best move): its own root moves, and with threads the root
    /// moves it took from a split point at the root. The share sums every worker's.
    pub root_move_nodes: Vec<(Move, u64)>,
    /// The root move this worker is searching under (what a split point it opens lies under).
    pub(super) root_move: Move,
    /// The best root move of the current iteration so far, with its score and PV: what a search
    /// stopped in mid-iteration can still use.
    pub root_best: Option<(Move, i32, Vec<Move>)>,
    /// Root moves to consider (`go searchmoves`); empty means all.
    pub(super) root_filter: Vec<Move>,
    /// Set when the search must unwind: results after it are meaningless.
    pub stopped: bool,
    /// Syzygy tables to probe below the root (`None`: do not probe).
    pub(super) tablebases: Option<TbSettings>,
    /// Tablebase probes below the root that gave a result.
    pub tb_hits: u64,
    /// The part of `tb_hits` already added to the shared count.
    flushed_tb_hits: u64,
    /// The main thread's live reports (`None` on helpers, and when nobody shows them).
    pub live: Option<LiveReporter<'a>>,
    /// While false (depth 1), stop requests wait so that a legal best move always exists.
    pub may_stop: bool,
}

impl<'a> Worker<'a> {
    /// A worker for one search from a position whose predecessors' keys are `history`.
    pub fn new(
        tt: &'a TranspositionTable,
        control: &'a SearchControl,
        time: TimeManager,
        node_limit: Option<u64>,
        history: &[u64],
        histories: &'a mut Histories,
        root_filter: Vec<Move>,
    ) -> Worker<'a> {
        Worker {
            tt,
            control,
            time,
            was_pondering: control.is_pondering(),
            node_limit,
            nodes: 0,
            flushed: 0,
            hub: None,
            chain: Vec::new(),
            seldepth: 0,
            keys: history.to_vec(),
            root_len: history.len(),
            stack: vec![Ply::default(); MAX_PLY + 4],
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            histories,
            evaluator: Evaluator::new(),
            pickers: (0..=MAX_PLY).map(|_| None).collect(),
            root_filter,
            root_excluded: Vec::new(),
            root_move_nodes: Vec::new(),
            root_move: Move::NULL,
            root_best: None,
            stopped: false,
            may_stop: false,
            tablebases: None,
            tb_hits: 0,
            flushed_tb_hits: 0,
            live: None,
        }
    }

    /// The worker probing `tablebases` below the root.
    pub fn with_tablebases(mut self, tablebases: Option<TbSettings>) -> Worker<'a> {
        self.tablebases = tablebases;
        self
    }

    /// The principal variation of the last completed root search.
    pub fn principal_variation(&self) -> &[Move] {
        &self.pv[0][..self.pv_len[0]]
    }

    /// The time manager (restarted on `ponderhit`).
    pub fn time(&self) -> &TimeManager {
        &self.time
    }

    /// Adds the nodes searched (and tablebase hits made) since the last report to the shared
    /// counts.
    pub fn flush_nodes(&mut self) {
        self.control.add_nodes(self.nodes - self.flushed);
        self.flushed = self.nodes;
        if self.tb_hits != self.flushed_tb_hits {
            self.control.add_tb_hits(self.tb_hits - self.flushed_tb_hits);
            self.flushed_tb_hits = self.tb_hits;
        }
    }

    /// Polls the stop conditions every 1024 nodes: `stop`, the hard deadline (unless
    /// pondering), the node limit over all threads, and for a helper the end of its task.
    #[inline]
    fn check_stop(&mut self) {
        if self.nodes & 1023 != 0 || !self.may_stop {
            return;
        }
        self.flush_nodes();
        if self.search_must_stop() || self.chain.iter().any(|point| point.aborted()) {
            self.stopped = true;
        } else {
            self.show_status();
        }
    }

    /// The main thread's status line, when nothing has been shown for `live::STATUS_EVERY`.
    fn show_status(&mut self) {
        let Some(live) = self.live.as_mut() else { return };
        let elapsed = self.time.elapsed();
        if !live.status_due(elapsed) {
            return;
        }
        let status = LiveInfo::Status {
            depth: live.depth,
            seldepth: self.seldepth,
            nodes: self.control.total_nodes(),
            elapsed,
            hashfull: self.tt.hashfull(),
            tbhits: live.root_tb_hits + self.control.total_tb_hits(),
        };
        live.show_status(status, elapsed);
    }

    /// Shows the root move the main thread starts searching (`number`th of the iteration).
    pub(super) fn show_current_move(&self, mv: Move, number: usize) {
        if let Some(live) = &self.live {
            live.show_current_move(self.time.elapsed(), mv, number);
        }
    }

    /// Whether the whole search must stop: `stop`, the hard deadline (unless pondering), or
    /// the node limit over all threads.
    pub fn search_must_stop(&mut self) -> bool {
        let pondering = self.follow_ponderhit();
        self.control.stop_requested()
            || (!pondering && self.time.hard_limit_reached())
            || self.node_limit.is_some_and(|n| self.control.total_nodes() >= n)
    }

    /// Whether to stop deepening after an iteration with `stats` (never while pondering).
    pub(super) fn should_stop_deepening(&mut self, stats: &IterationStats) -> bool {
        !self.follow_ponderhit() && self.time.should_stop_deepening(stats)
    }

    /// Whether the search still ponders; once `ponderhit` has ended it, this worker's clock
    /// runs from the `ponderhit` instant, the same for every worker however late each looks.
    fn follow_ponderhit(&mut self) -> bool {
        let pondering = self.control.is_pondering();
        if self.was_pondering && !pondering {
            self.time.restart_after_ponderhit(self.control.ponderhit_instant().unwrap_or_else(Instant::now));
        }
        self.was_pondering = pondering;
        pondering
    }

    /// Whether the position repeats one since the last irreversible move: any repetition
    /// inside the search path, or a second one from the game before the root.
    pub(super) fn is_repetition(&self, pos: &Position) -> bool {
        let key = pos.key();
        let n = self.keys.len();
        let reach = (pos.halfmove_clock() as usize).min(n);
        let mut earlier = 0;
        let mut back = 4;
        while back <= reach {
            let index = n - back;
            if self.keys[index] == key {
                if index >= self.root_len {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    fn previous_moves(&self, ply: usize) -> [Option<PieceTo>; 2] {
        let one = if ply >= 1 { self.stack[ply - 1].played } else { None };
        let two = if ply >= 2 { self.stack[ply - 2].played } else { None };
        [one, two]
    }

    /// What the quiet history scores of `pos` (at `ply`) depend on besides the moves.
    pub(super) fn quiet_context(&self, pos: &Position, ply: usize) -> QuietContext {
        let threats = pos.threats_against(pos.side_to_move());
        QuietContext { previous: self.previous_moves(ply), threats: threats.attacked, threatened: threats.by_cheaper }
    }

    /// `mv` followed by the principal variation just searched below it (from ply `ply + 1`).
    pub(super) fn line_through(&self, ply: usize, mv: Move) -> Vec<Move> {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        std::iter::once(mv).chain(self.pv[ply + 1][ply + 1..child_len].iter().copied()).collect()
    }

    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Counts a node, polls the stop conditions and tracks the selective depth; false when the
    /// search must unwind.
    #[inline]
    pub(super) fn enter_node(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return false;
        }
        self.seldepth = self.seldepth.max(ply);
        true
    }
}

/// Runs `f` on a single-threaded worker searching `pos` with the table `tt`, no time limit.
#[cfg(test)]
pub(super) fn with_worker<R>(pos: &Position, tt: &TranspositionTable, f: impl FnOnce(&mut Worker) -> R) -> R {
    let control = SearchControl::new(false);
    let time = TimeManager::new(&super::time::Limits::default(), pos.side_to_move(), 0, 0, std::time::Instant::now());
    let mut histories = Histories::default();
    let mut worker = Worker::new(tt, &control, time, None, &[], &mut histories, Vec::new());
    f(&mut worker)
}
