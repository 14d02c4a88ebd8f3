//! One search thread: negamax alpha-beta with principal variation search over copy-made
//! positions, and the quiescence search below it. Pruning and reductions are the usual modern
//! set (null move, reverse futility, razoring, late-move reductions and pruning, futility and
//! SEE pruning), each gated so that no node in check and no PV node is pruned unsoundly.

use super::ordering::{Histories, MovePicker, PickerBuffers, PieceTo};
use super::root::{SplitHub, SplitMove, SplitNode, SplitOutcome, SplitPoint};
use super::see::{captured_value, see_ge};
use super::time::TimeManager;
use super::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable, MATE, MATE_BOUND, NO_EVAL};
use super::{SearchControl, INFINITY, MAX_PLY};
use crate::eval::{evaluate, is_insufficient_material};
use crate::movegen::{count_legal, MAX_MOVES};
use crate::position::Position;
use crate::types::{Move, Piece};
use std::sync::{Arc, OnceLock};

/// The least depth at which a node hands its later moves to helpers: shallower subtrees cost
/// less than the hand-over.
const SPLIT_MIN_DEPTH: i32 = 4;
/// The most split points a worker can be inside at once.
const MAX_SPLIT_NESTING: usize = 16;

/// Per-ply search state.
#[derive(Clone, Copy, Default)]
pub(super) struct Ply {
    static_eval: i32,
    killers: [Move; 2],
    /// The move made from this ply, as (piece, to), for continuation history below it.
    played: Option<PieceTo>,
    null_move: bool,
}

/// Late-move reductions by depth and move number: about ln(depth) * ln(moves) / 2.
fn reduction_table() -> &'static [[i32; 64]; 64] {
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [[0; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.8 + (depth as f64).ln() * (moves as f64).ln() / 2.2) as i32;
            }
        }
        table
    })
}

/// The late-move reduction of the `moves_searched`-th move at `depth`: the table value, more
/// at non-PV and expected cut nodes, less when improving, for checks, for well-scored quiet
/// moves and for killers and counter moves.
#[allow(clippy::too_many_arguments)]
fn late_move_reduction(
    depth: i32,
    moves_searched: usize,
    pv: bool,
    cut_node: bool,
    improving: bool,
    gives_check: bool,
    history: i32,
    special: bool,
) -> i32 {
    let mut r = reduction_table()[(depth as usize).min(63)][moves_searched.min(63)];
    r += i32::from(!pv) + i32::from(cut_node);
    r -= i32::from(improving) + i32::from(gives_check) + i32::from(special);
    r - history / 6000
}

/// A search thread's state.
pub struct Worker<'a> {
    tt: &'a TranspositionTable,
    control: &'a SearchControl,
    time: TimeManager,
    was_pondering: bool,
    node_limit: Option<u64>,
    /// Nodes searched by this worker.
    pub nodes: u64,
    /// The part of `nodes` already added to the shared count.
    flushed: u64,
    /// In a parallel search: where this worker opens split points and finds them.
    hub: Option<&'a SplitHub>,
    /// The split points this worker is searching moves of, outermost first: it stops when
    /// one of them aborts.
    chain: Vec<Arc<SplitPoint>>,
    /// The deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// Keys of the positions before the current one (game history, then the search path).
    keys: Vec<u64>,
    root_len: usize,
    stack: Vec<Ply>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    histories: &'a mut Histories,
    /// Move-picker buffers per ply, reused from node to node.
    pickers: Vec<Option<Box<PickerBuffers>>>,
    /// Root moves already given a MultiPV line this iteration: skipped at the root.
    pub root_excluded: Vec<Move>,
    /// Root moves to consider (`go searchmoves`); empty means all.
    root_filter: Vec<Move>,
    /// Set when the search must unwind: results after it are meaningless.
    pub stopped: bool,
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
            pickers: (0..=MAX_PLY).map(|_| None).collect(),
            root_filter,
            root_excluded: Vec::new(),
            stopped: false,
            may_stop: false,
        }
    }

    /// The principal variation of the last completed root search.
    pub fn principal_variation(&self) -> &[Move] {
        &self.pv[0][..self.pv_len[0]]
    }

    /// The time manager (restarted on `ponderhit`).
    pub fn time(&self) -> &TimeManager {
        &self.time
    }

    /// Adds the nodes searched since the last report to the shared count.
    pub fn flush_nodes(&mut self) {
        self.control.add_nodes(self.nodes - self.flushed);
        self.flushed = self.nodes;
    }

    /// Polls the stop conditions every 1024 nodes: `stop`, the hard deadline (unless
    /// pondering), the node limit over all threads, and for a helper the end of its task.
    #[inline]
    fn check_stop(&mut self) {
        if self.nodes & 1023 != 0 || !self.may_stop {
            return;
        }
        self.flush_nodes();
        let pondering = self.control.is_pondering();
        if self.was_pondering && !pondering {
            self.time.restart_after_ponderhit();
        }
        self.was_pondering = pondering;
        if self.search_must_stop() || self.chain.iter().any(|point| point.aborted()) {
            self.stopped = true;
        }
    }

    /// Whether the whole search must stop: `stop`, the hard deadline (unless pondering), or
    /// the node limit over all threads.
    pub fn search_must_stop(&self) -> bool {
        self.control.stop_requested()
            || (!self.control.is_pondering() && self.time.hard_limit_reached())
            || self.node_limit.is_some_and(|n| self.control.total_nodes() >= n)
    }

    /// Whether the position repeats one since the last irreversible move: any repetition
    /// inside the search path, or a second one from the game before the root.
    fn is_repetition(&self, pos: &Position) -> bool {
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

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Searches the root to `depth` in the window (alpha, beta).
    pub fn search_root(&mut self, pos: &Position, alpha: i32, beta: i32, depth: i32) -> i32 {
        self.seldepth = 0;
        self.negamax::<true>(pos, alpha, beta, depth, 0, false)
    }

    /// Searches a move after the first at a node of `ply` (`child` is the position after it):
    /// with a null window at `alpha`, reduced by `r` and re-searched unreduced if it fails
    /// high, then at PV nodes with the full window if it lands inside it.
    #[allow(clippy::too_many_arguments)]
    fn search_later_move<const PV: bool>(
        &mut self,
        child: &Position,
        alpha: i32,
        beta: i32,
        new_depth: i32,
        r: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let mut score = -self.negamax::<false>(child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
        if score > alpha && r > 0 {
            score = -self.negamax::<false>(child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
        }
        if PV && score > alpha && score < beta {
            score = -self.negamax::<true>(child, -beta, -alpha, new_depth, ply + 1, false);
        }
        score
    }

    /// Makes this worker one of a parallel search's, splitting nodes and helping at split
    /// points through `hub`.
    pub fn join(&mut self, hub: &'a SplitHub) {
        self.hub = Some(hub);
    }

    /// Whether a node of `depth` whose first move is searched splits: deep enough, while a
    /// thread is idle, and not nested too far.
    fn may_split(&self, depth: i32) -> bool {
        depth >= SPLIT_MIN_DEPTH && self.chain.len() < MAX_SPLIT_NESTING && self.hub.is_some_and(|hub| hub.has_idle())
    }

    /// Searches the later moves `jobs` of `node` together with the helpers: opens a split
    /// point, takes moves from it like any helper, helps at split points below it until its
    /// helpers are done, and returns the best score and move found.
    fn split(&mut self, hub: &SplitHub, node: SplitNode, jobs: Vec<SplitMove>) -> SplitOutcome {
        let ply = node.ply;
        let keys = self.keys.len();
        let point = Arc::new(SplitPoint::new(node, self.chain.clone(), jobs));
        hub.open(Arc::clone(&point));
        let outer = std::mem::replace(&mut self.chain, point.chain());
        self.serve(&point);
        while let Some(below) = hub.wait_for_work(Some(&point), || !point.has_helpers()) {
            self.help_at(&below);
        }
        hub.close(&point);
        self.chain = outer;
        self.keys.truncate(keys);
        self.stack[..=ply].copy_from_slice(&point.node.stack);
        self.update_stop();
        point.outcome()
    }

    /// Keeps `stopped` only while a reason holds: `stop`, the clock or the node limit, or a
    /// fail high at a split point this worker is below. (A stop because of a helper's unfinished
    /// move is caught here too.)
    fn update_stop(&mut self) {
        self.stopped = (self.may_stop && self.search_must_stop()) || self.chain.iter().any(|point| point.aborted());
    }

    /// A helper's part in an iteration: waits for split points on `hub` and searches moves
    /// from them until the iteration ends or the search must stop.
    pub fn help(&mut self, hub: &SplitHub) {
        while let Some(point) = hub.wait_for_work(None, || hub.finished()) {
            self.help_at(&point);
            if self.stopped {
                break;
            }
        }
    }

    /// Searches moves of `point` (entered by `wait_for_work`) from its node until none is left.
    fn help_at(&mut self, point: &Arc<SplitPoint>) {
        let ply = point.node.ply;
        self.keys.truncate(self.root_len);
        self.keys.extend_from_slice(&point.node.path_keys);
        self.stack[..=ply].copy_from_slice(&point.node.stack);
        self.stack[ply + 1].killers = [Move::NULL; 2];
        let outer = std::mem::replace(&mut self.chain, point.chain());
        self.serve(point);
        self.chain = outer;
        point.leave();
        self.update_stop();
    }

    /// Takes moves from `point` until none is left, the split point aborts or the search
    /// stops, recording each finished move's score (or deferring it, if it beat alpha).
    fn serve(&mut self, point: &SplitPoint) {
        let node = &point.node;
        let info = node.pos.check_info();
        let key = node.pos.key();
        while !self.stopped {
            let Some(job) = point.take() else { break };
            let alpha = point.alpha();
            let mut child = node.pos.clone();
            child.make_move_with(job.mv, &info);
            self.stack[node.ply].played = Some(PieceTo::of(&node.pos, job.mv));
            self.keys.push(key);
            let score = self.search_later_move::<false>(
                &child,
                alpha,
                node.beta,
                job.new_depth,
                job.reduction,
                node.ply,
                node.cut_node,
            );
            self.keys.pop();
            if self.stopped {
                break;
            }
            if score > alpha && score < node.beta {
                point.defer(job, score);
            } else {
                point.record(job.mv, score);
            }
        }
    }

    /// The quiescence search of `pos` with a full window (its PV leads to a quiet position).
    pub fn quiescence_root(&mut self, pos: &Position) -> i32 {
        self.quiescence::<true>(pos, -INFINITY, INFINITY, 0)
    }

    fn negamax<const PV: bool>(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let root = ply == 0;
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.quiescence::<PV>(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.is_check();

        if !root {
            if self.is_repetition(pos)
                || is_insufficient_material(pos)
                || (pos.halfmove_clock() >= 100 && (!in_check || count_legal(pos) > 0))
            {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { evaluate(pos) };
            }
            // Mate distance pruning: no line from here can beat a mate already found nearer.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let key = pos.key();
        let tt_entry = self.tt.probe(key);
        let tt_move = tt_entry.map_or(Move::NULL, |e| e.mv);
        if let Some(entry) = tt_entry {
            let score = score_from_tt(entry.score, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if !PV && entry.depth >= depth && usable && pos.halfmove_clock() < 90 {
                return score;
            }
        }

        // Static evaluation, sharpened by the TT score when its bound points the right way.
        let raw_eval = if in_check {
            NO_EVAL
        } else {
            match tt_entry {
                Some(entry) if entry.eval != NO_EVAL => entry.eval,
                _ => evaluate(pos),
            }
        };
        let mut eval = raw_eval;
        if let (Some(entry), false) = (tt_entry, in_check) {
            let score = score_from_tt(entry.score, ply);
            let sharper = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score > eval,
                Bound::Upper => score < eval,
            };
            if sharper && score.abs() < MATE_BOUND {
                eval = score;
            }
        }
        self.stack[ply].static_eval = raw_eval;
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NO_EVAL
            && raw_eval > self.stack[ply - 2].static_eval;
        self.stack[ply + 1].killers = [Move::NULL; 2];

        if !PV && !in_check {
            // Reverse futility pruning: far above beta at low depth, assume it holds.
            if depth <= 8 && eval.abs() < MATE_BOUND && eval - 75 * (depth - i32::from(improving)) >= beta {
                return eval;
            }
            // Razoring: far below alpha near the leaves, see whether captures can save it.
            if depth <= 3 && eval + 250 * depth <= alpha {
                let score = self.quiescence::<false>(pos, alpha, alpha + 1, ply);
                if score <= alpha {
                    return score;
                }
            }
            // Null move pruning: if passing still fails high, a real move will too. Not in
            // pawn endings, where passing may be the only thing that does not lose (zugzwang).
            let us = pos.side_to_move();
            let has_pieces =
                (pos.color(us) & !pos.pieces(us, Piece::Pawn) & !pos.pieces(us, Piece::King)).is_nonempty();
            if depth >= 3
                && eval >= beta
                && has_pieces
                && !(ply >= 1 && self.stack[ply - 1].null_move)
                && beta.abs() < MATE_BOUND
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let mut child = pos.clone();
                child.make_null_move();
                self.stack[ply].played = None;
                self.stack[ply].null_move = true;
                self.keys.push(key);
                let score = -self.negamax::<false>(&child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.keys.pop();
                self.stack[ply].null_move = false;
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Internal iterative reduction: without a TT move this node is probably not important.
        if depth >= 4 && tt_move.is_null() && (PV || cut_node) {
            depth -= 1;
        }

        let previous = self.previous_moves(ply);
        let counter = self.histories.counter_move(previous[0]);
        let buffers = self.pickers[ply].take().unwrap_or_default();
        let mut picker = MovePicker::new(pos, tt_move, self.stack[ply].killers, counter, buffers);
        let info = pos.check_info();
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let mut moves_searched: usize = 0;
        let mut quiets_tried = [Move::NULL; MAX_MOVES];
        let mut quiet_count = 0;
        let mut captures_tried = [Move::NULL; MAX_MOVES];
        let mut capture_count = 0;
        let us = pos.side_to_move();
        let has_pieces = (pos.color(us) & !pos.pieces(us, Piece::Pawn) & !pos.pieces(us, Piece::King)).is_nonempty();
        // The moves left for the helpers once this node splits.
        let mut split_jobs: Option<Vec<SplitMove>> = None;

        while let Some(mv) = picker.next(pos, self.histories, &previous) {
            if root
                && ((!self.root_filter.is_empty() && !self.root_filter.contains(&mv))
                    || self.root_excluded.contains(&mv))
            {
                continue;
            }
            let quiet = !mv.is_noisy();
            let history = if quiet { self.histories.quiet_score(pos, mv, &previous) } else { 0 };
            let gives_check = pos.gives_check(mv, &info);

            // Move-loop pruning, once a move has been found that is not being mated; checking
            // moves are kept (they are few, and they find the mates).
            if !root && best_score > -MATE_BOUND && has_pieces && !gives_check {
                if quiet {
                    let late_move_limit = ((3 + depth * depth) / if improving { 1 } else { 2 }) as usize;
                    // Pruned one by one (not by skipping the quiet stage): a later quiet check
                    // must still be searched.
                    if depth <= 8 && moves_searched >= late_move_limit {
                        continue;
                    }
                    // Futility: a quiet move cannot lift a hopeless static eval to alpha (not
                    // once alpha is a mate score: then it would prune every quiet move).
                    if !in_check
                        && depth <= 8
                        && alpha.abs() < MATE_BOUND
                        && eval + 100 + 90 * depth <= alpha
                        && history < 4096
                    {
                        continue;
                    }
                    if depth <= 8 && !see_ge(pos, mv, -50 * depth) {
                        continue;
                    }
                } else if depth <= 8 && !see_ge(pos, mv, -90 * depth) {
                    continue;
                }
            }

            moves_searched += 1;
            if quiet {
                quiets_tried[quiet_count] = mv;
                quiet_count += 1;
            } else {
                captures_tried[capture_count] = mv;
                capture_count += 1;
            }

            let extension = i32::from(gives_check);
            let new_depth = depth - 1 + extension;
            // Late-move reduction for quiet moves and losing captures searched late.
            let mut r = 0;
            if depth >= 3 && moves_searched > 1 + usize::from(root) && (quiet || !see_ge(pos, mv, 0)) {
                let special = mv == self.stack[ply].killers[0] || mv == self.stack[ply].killers[1] || mv == counter;
                r = late_move_reduction(depth, moves_searched, PV, cut_node, improving, gives_check, history, special)
                    .clamp(0, new_depth - 1);
            }
            if let Some(jobs) = split_jobs.as_mut() {
                jobs.push(SplitMove { mv, new_depth, reduction: r });
                continue;
            }

            let mut child = pos.clone();
            child.make_move_with(mv, &info);
            self.stack[ply].played = Some(PieceTo::of(pos, mv));
            self.keys.push(key);
            let score = if moves_searched == 1 {
                -self.negamax::<PV>(&child, -beta, -alpha, new_depth, ply + 1, false)
            } else {
                self.search_later_move::<PV>(&child, alpha, beta, new_depth, r, ply, cut_node)
            };
            self.keys.pop();
            if self.stopped {
                self.pickers[ply] = Some(picker.into_buffers());
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
            // Young brothers wait: once the first move is searched, the rest may go to the
            // helpers, as soon as one is idle.
            if split_jobs.is_none() && self.may_split(depth) {
                split_jobs = Some(Vec::new());
            }
        }

        self.pickers[ply] = Some(picker.into_buffers());
        if let (Some(jobs), Some(hub)) = (split_jobs.filter(|jobs| !jobs.is_empty()), self.hub) {
            let node = SplitNode {
                pos: pos.clone(),
                ply,
                depth,
                alpha,
                beta,
                cut_node,
                path_keys: self.keys[self.root_len..].to_vec(),
                stack: self.stack[..=ply].to_vec(),
            };
            let outcome = self.split(hub, node, jobs);
            if self.stopped {
                return 0;
            }
            if outcome.score > best_score {
                best_score = outcome.score;
                if outcome.score > alpha {
                    best_move = outcome.best;
                    if PV {
                        // Only a fail high comes back from a split point with a best move.
                        self.pv[ply][ply] = outcome.best;
                        self.pv_len[ply] = ply + 1;
                    }
                    alpha = outcome.score;
                }
            }
            for job in outcome.deferred {
                if alpha >= beta {
                    break;
                }
                let mut child = pos.clone();
                child.make_move_with(job.mv, &info);
                self.stack[ply].played = Some(PieceTo::of(pos, job.mv));
                self.keys.push(key);
                let score = self.search_later_move::<PV>(&child, alpha, beta, job.new_depth, 0, ply, cut_node);
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if score > best_score {
                    best_score = score;
                    if score > alpha {
                        best_move = job.mv;
                        if PV {
                            self.update_pv(ply, job.mv);
                        }
                        alpha = score;
                    }
                }
            }
            // Only the quiets up to the best one count as tried, as when searched in order.
            if let Some(index) = quiets_tried[..quiet_count].iter().position(|&mv| mv == best_move) {
                quiet_count = index + 1;
            }
        }
        if moves_searched == 0 {
            // No legal move (or every root move filtered): mate or stalemate.
            return if in_check { -MATE + ply as i32 } else { 0 };
        }

        if alpha >= beta && !best_move.is_null() {
            if best_move.is_noisy() {
                self.histories.update_captures(pos, best_move, &captures_tried[..capture_count], depth);
            } else {
                self.histories.update_quiets(pos, best_move, &quiets_tried[..quiet_count], depth, &previous);
                self.histories.update_captures(pos, Move::NULL, &captures_tried[..capture_count], depth);
                let killers = &mut self.stack[ply].killers;
                if killers[0] != best_move {
                    killers[1] = killers[0];
                    killers[0] = best_move;
                }
            }
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, score_to_tt(best_score, ply), raw_eval, depth, bound);
        best_score
    }

    fn quiescence<const PV: bool>(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        self.pv_len[ply] = ply;
        if is_insufficient_material(pos) {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { evaluate(pos) };
        }

        let key = pos.key();
        let tt_entry = self.tt.probe(key);
        if let Some(entry) = tt_entry {
            let score = score_from_tt(entry.score, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if !PV && usable {
                return score;
            }
        }

        let raw_eval = if in_check {
            NO_EVAL
        } else {
            match tt_entry {
                Some(entry) if entry.eval != NO_EVAL => entry.eval,
                _ => evaluate(pos),
            }
        };
        let mut best_score = if in_check { -MATE + ply as i32 } else { raw_eval };
        if !in_check {
            // Stand pat: the side to move can usually do at least as well as doing nothing.
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        let original_alpha = alpha;
        let mut best_move = Move::NULL;
        let buffers = self.pickers[ply].take().unwrap_or_default();
        let mut picker = MovePicker::quiescence(pos, tt_entry.map_or(Move::NULL, |e| e.mv), buffers);
        let info = pos.check_info();
        let previous = self.previous_moves(ply);
        while let Some(mv) = picker.next(pos, self.histories, &previous) {
            if !in_check && !mv.is_promotion() {
                // Delta pruning: even winning this piece for free cannot reach alpha.
                let gain = captured_value(pos, mv);
                if raw_eval + gain + 200 <= alpha && !see_ge(pos, mv, 1) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.make_move_with(mv, &info);
            self.stack[ply].played = Some(PieceTo::of(pos, mv));
            let score = -self.quiescence::<PV>(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                self.pickers[ply] = Some(picker.into_buffers());
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }

        self.pickers[ply] = Some(picker.into_buffers());
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, score_to_tt(best_score, ply), raw_eval, 0, bound);
        best_score
    }
}
