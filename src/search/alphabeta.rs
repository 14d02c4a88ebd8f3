//! Negamax alpha-beta with principal variation search over copy-made positions. `negamax`
//! reads as its phases: the node's early exits, the TT probe, the static evaluation, pruning
//! before any move, the move loop (which may split), and the store. Every margin is named in
//! `pruning.rs`; each pruning is gated so that no node in check and no PV node is pruned
//! unsoundly. The worker's state is in `worker.rs`, quiescence in `quiescence.rs`.

use super::history::{PieceTo, QuietContext};
use super::movepick::MovePicker;
use super::pruning::{
    LateMove, FUTILITY_BASE, FUTILITY_HISTORY_LIMIT, FUTILITY_PER_PLY, IIR_MIN_DEPTH, LMP_BASE, LMR_MIN_DEPTH,
    MOVE_PRUNING_MAX_DEPTH, NMP_BASE_REDUCTION, NMP_DEPTH_DIVISOR, NMP_EVAL_DIVISOR, NMP_EVAL_MAX_REDUCTION,
    NMP_MIN_DEPTH, RAZOR_MARGIN, RAZOR_MAX_DEPTH, RFP_MARGIN, RFP_MAX_DEPTH, SEE_CAPTURE_MARGIN, SEE_QUIET_MARGIN,
    SE_MARGIN_PER_PLY, SE_MIN_DEPTH, SE_TT_DEPTH_MARGIN, TB_DEPTH_BONUS, TT_CUTOFF_MAX_HALFMOVE,
};
use super::see::see_ge;
use super::split::SplitMove;
use super::tablebase::{self, is_decisive, TB_WIN_BOUND};
use super::tt::{score_from_tt, score_to_tt, Bound, TtEntry, MATE, NO_EVAL};
use super::worker::Worker;
use super::{fifty_moves_drawn, INFINITY, MAX_PLY};
use crate::eval::is_insufficient_material;
use crate::movegen::MAX_MOVES;
use crate::position::{CheckInfo, Position};
use crate::types::{Bitboard, Move, Piece};

/// A node of the search: its place in the tree and its window (narrowed as the search goes).
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) ply: usize,
    pub(super) depth: i32,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    /// Expected to fail high: a later move's null-window child, or a cut node's re-search.
    pub(super) cut_node: bool,
    pub(super) in_check: bool,
    pub(super) key: u64,
    /// The move a singular-extension search leaves out here (`Move::NULL`: a normal node).
    pub(super) excluded: Move,
    /// The TT move's extension in plies (from the singular search; may be negative).
    pub(super) tt_move_extension: i32,
}

/// What the tables say of a node they cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TbVerdict {
    /// The node's score: a draw, or a win or loss whose bound cuts the window.
    Settled(i32),
    /// A PV node's win below beta: it scores at least this, and its moves may show more.
    AtLeast(i32),
    /// A PV node's loss above alpha: it scores at most this.
    AtMost(i32),
}

/// What the singular-extension search concluded about the TT move.
#[derive(Debug, PartialEq, Eq)]
enum Singular {
    /// Search it this many plies deeper (negative: shallower).
    Extend(i32),
    /// Even without it the node fails high: its score (multi-cut).
    Cut(i32),
}

/// A node's static evaluation and what follows from it.
#[derive(Clone, Copy)]
struct StaticEval {
    /// As evaluated (or cached in the TT); `NO_EVAL` in check.
    raw: i32,
    /// `raw` moved by the correction history (`NO_EVAL` in check).
    corrected: i32,
    /// `corrected` sharpened by the TT score when its bound points the right way: what
    /// pruning uses.
    sharpened: i32,
    /// Better than two plies ago, when the same side was to move.
    improving: bool,
}

/// A move of the move loop, with what its pruning and reduction read.
#[derive(Clone, Copy)]
struct Candidate {
    mv: Move,
    gives_check: bool,
    /// The quiet move's history score (0 for a noisy move).
    history: i32,
    /// A quiet move of a piece attacked by a cheaper one to a square the opponent does not
    /// attack: neither late nor futile.
    escape: bool,
}

/// The move loop's result so far.
pub(super) struct Best {
    pub(super) score: i32,
    /// The move that raised alpha last (`Move::NULL` if none did).
    pub(super) mv: Move,
    /// Moves searched (or handed to helpers), not counting pruned ones.
    pub(super) moves_searched: usize,
}

/// The moves searched at a node, quiet and noisy apart: the history updates after a cutoff
/// reward the best and punish the rest.
struct TriedMoves {
    quiets: [Move; MAX_MOVES],
    quiet_count: usize,
    captures: [Move; MAX_MOVES],
    capture_count: usize,
}

impl TriedMoves {
    fn new() -> TriedMoves {
        TriedMoves {
            quiets: [Move::NULL; MAX_MOVES],
            quiet_count: 0,
            captures: [Move::NULL; MAX_MOVES],
            capture_count: 0,
        }
    }

    fn push(&mut self, mv: Move, quiet: bool) {
        if quiet {
            self.quiets[self.quiet_count] = mv;
            self.quiet_count += 1;
        } else {
            self.captures[self.capture_count] = mv;
            self.capture_count += 1;
        }
    }

    fn quiets(&self) -> &[Move] {
        &self.quiets[..self.quiet_count]
    }

    fn captures(&self) -> &[Move] {
        &self.captures[..self.capture_count]
    }

    /// After a split, only the quiets up to the best one count as tried, as when searched in
    /// order.
    fn keep_quiets_up_to(&mut self, best: Move) {
        if let Some(index) = self.quiets().iter().position(|&mv| mv == best) {
            self.quiet_count = index + 1;
        }
    }
}

/// Whether the side to move has a piece besides pawns and king (null move and move-loop
/// pruning are off without one: zugzwang).
fn has_non_pawn_material(pos: &Position) -> bool {
    let us = pos.side_to_move();
    (pos.color(us) & !pos.pieces(us, Piece::Pawn) & !pos.pieces(us, Piece::King)).is_nonempty()
}

impl Worker<'_> {
    /// Searches the root to `depth` in the window (alpha, beta).
    pub fn search_root(&mut self, pos: &Position, alpha: i32, beta: i32, depth: i32) -> i32 {
        if let Some(live) = self.live.as_mut() {
            live.depth = depth;
        }
        self.seldepth = 0;
        self.root_move_nodes.clear();
        self.root_best = None;
        self.evaluator.reset(pos, 0);
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

    /// Makes `mv` at `node` and searches it: the first move with the full window, a later one
    /// by `search_later_move` with the reduction `r`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_move<const PV: bool>(
        &mut self,
        pos: &Position,
        info: &CheckInfo,
        node: &Node,
        mv: Move,
        new_depth: i32,
        r: i32,
        first: bool,
    ) -> i32 {
        let mut child = pos.clone();
        child.make_move_with(mv, info);
        self.tt.prefetch(child.key());
        self.evaluator.push(node.ply, pos, &child);
        self.stack[node.ply].played = Some(PieceTo::of(pos, mv));
        self.keys.push(node.key);
        let score = if first {
            -self.negamax::<PV>(&child, -node.beta, -node.alpha, new_depth, node.ply + 1, false)
        } else {
            self.search_later_move::<PV>(&child, node.alpha, node.beta, new_depth, r, node.ply, node.cut_node)
        };
        self.keys.pop();
        score
    }

    fn negamax<const PV: bool>(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            // The move into this node may have repeated a position or ended the fifty moves;
            // quiescence cannot tell (its own moves push no keys), so it is settled here.
            if ply > 0 && self.is_draw_by_rule(pos) {
                return 0;
            }
            return self.quiescence::<PV>(pos, alpha, beta, ply);
        }
        if !self.enter_node(ply) {
            return 0;
        }
        let excluded = self.stack[ply].excluded;
        let mut node = Node {
            ply,
            depth,
            alpha,
            beta,
            cut_node,
            in_check: pos.is_check(),
            key: pos.key(),
            excluded,
            tt_move_extension: 0,
        };
        if ply > 0 {
            if let Some(score) = self.settled_before_search(pos, &mut node) {
                return score;
            }
        }
        // A singular search (excluded move) asks about the other moves: nothing the TT or the
        // tables know of the whole node answers it.
        let tt_entry = self.tt.probe(node.key);
        // A PV node's tablebase bound that does not cut: the score stays within it.
        let (mut tb_floor, mut tb_ceiling) = (None, None);
        if excluded.is_null() {
            if let Some(score) = tt_entry.and_then(|entry| tt_cutoff::<PV>(pos, &node, entry)) {
                return score;
            }
            if ply > 0 {
                match self.tablebase_verdict::<PV>(pos, &node) {
                    Some(TbVerdict::Settled(score)) => return score,
                    Some(TbVerdict::AtLeast(score)) => {
                        node.alpha = node.alpha.max(score);
                        tb_floor = Some(score);
                    }
                    Some(TbVerdict::AtMost(score)) => tb_ceiling = Some(score),
                    None => {}
                }
            }
        }
        let eval = self.static_eval(pos, &node, tt_entry);
        self.stack[ply + 1].killers = [Move::NULL; 2];
        if !PV && !node.in_check && excluded.is_null() {
            if let Some(score) = self.prune_before_moves(pos, &node, &eval) {
                return score;
            }
        }

        let tt_move = tt_entry.map_or(Move::NULL, |entry| entry.mv);
        // Internal iterative reduction: without a TT move this node is probably not important.
        if node.depth >= IIR_MIN_DEPTH && tt_move.is_null() && (PV || cut_node) {
            node.depth -= 1;
        }
        if let Some(entry) = tt_entry.filter(|_| excluded.is_null()) {
            match self.singular_extension(pos, &node, entry) {
                Singular::Extend(plies) => node.tt_move_extension = plies,
                Singular::Cut(score) => return score,
            }
        }
        let original_alpha = node.alpha;
        let mut tried = TriedMoves::new();
        let context = self.quiet_context(pos, ply);
        let Some(mut best) = self.search_moves::<PV>(pos, &mut node, &eval, &context, tt_move, &mut tried) else {
            return 0;
        };
        if best.moves_searched == 0 {
            // No legal move but the excluded one: the excluded move is singular. Otherwise
            // mate or stalemate.
            return if !excluded.is_null() {
                node.alpha
            } else if node.in_check {
                -MATE + ply as i32
            } else {
                0
            };
        }
        if let Some(floor) = tb_floor {
            best.score = best.score.max(floor);
        }
        if let Some(ceiling) = tb_ceiling {
            best.score = best.score.min(ceiling);
        }
        if node.alpha >= node.beta && !best.mv.is_null() {
            self.update_histories(pos, &node, &context, best.mv, &tried);
        }
        if !excluded.is_null() {
            return best.score;
        }
        let bound = Bound::of(best.score, original_alpha, node.beta);
        self.update_correction(pos, &node, &eval, &best, bound);
        // A MultiPV line after the first searched the root without the lines above: its move
        // and score are not the root's, and would lead the next iteration's move order.
        if ply > 0 || self.root_excluded.is_empty() {
            self.tt.store(node.key, best.mv, score_to_tt(best.score, ply), eval.raw, node.depth, bound);
        }
        best.score
    }

    /// Teaches the correction history the node's result where it says something about the
    /// static evaluation: not in check, no capture or promotion as the best move, no mate or
    /// tablebase score, and a bound on the side of the corrected evaluation that it moves.
    fn update_correction(&mut self, pos: &Position, node: &Node, eval: &StaticEval, best: &Best, bound: Bound) {
        if node.in_check || best.mv.is_noisy() || best.score.abs() >= TB_WIN_BOUND {
            return;
        }
        if bound.sharpens(best.score, eval.corrected) {
            self.histories.correction.update(pos, node.depth, best.score - eval.raw);
        }
    }

    /// Below the root: a draw by rule or the ply horizon settles the node at once; otherwise
    /// the window shrinks to the mates still possible from here (mate distance pruning), which
    /// may settle it too.
    fn settled_before_search(&mut self, pos: &Position, node: &mut Node) -> Option<i32> {
        if self.is_draw_by_rule(pos) || is_insufficient_material(pos) {
            return Some(0);
        }
        if node.ply >= MAX_PLY - 1 {
            return Some(self.evaluator.horizon(pos, node.ply, node.in_check));
        }
        node.alpha = node.alpha.max(-MATE + node.ply as i32);
        node.beta = node.beta.min(MATE - node.ply as i32 - 1);
        (node.alpha >= node.beta).then_some(node.alpha)
    }

    /// A draw by repetition (inside the search once, before the root twice) or by the fifty-move
    /// rule, unless the fiftieth move mates (asked only at the fiftieth move: this runs at every
    /// node, quiescence's first included).
    fn is_draw_by_rule(&self, pos: &Position) -> bool {
        self.is_repetition(pos) || fifty_moves_drawn(pos)
    }

    /// Syzygy: a node the tables cover (see `tablebase::probes_node`) is settled by its WDL when
    /// the result's bound allows it (a win is a lower bound, a loss an upper one, a draw exact);
    /// the result goes to the TT deeper than any search would. At a PV node a bound that does
    /// not cut still bounds the node's score (as Stockfish keeps it), so a line into a won
    /// ending shows the win rather than the evaluation of the moves below it.
    fn tablebase_verdict<const PV: bool>(&mut self, pos: &Position, node: &Node) -> Option<TbVerdict> {
        let tb = self.tablebases.as_ref()?;
        if !tablebase::probes_node(tb, pos, node.depth) {
            return None;
        }
        let wdl = tb.tables.probe_wdl(pos)?;
        self.tb_hits += 1;
        let score = tablebase::wdl_score(wdl, tb.rule50, node.ply);
        let bound = if score >= TB_WIN_BOUND {
            Bound::Lower
        } else if score <= -TB_WIN_BOUND {
            Bound::Upper
        } else {
            Bound::Exact
        };
        let settled = match bound {
            Bound::Exact => true,
            Bound::Lower => score >= node.beta,
            Bound::Upper => score <= node.alpha,
        };
        if settled {
            let depth = (node.depth + TB_DEPTH_BONUS).min(MAX_PLY as i32 - 1);
            self.tt.store(node.key, Move::NULL, score_to_tt(score, node.ply), NO_EVAL, depth, bound);
            return Some(TbVerdict::Settled(score));
        }
        match bound {
            Bound::Lower if PV => Some(TbVerdict::AtLeast(score)),
            Bound::Upper if PV => Some(TbVerdict::AtMost(score)),
            _ => None,
        }
    }

    /// Singular extensions: when the TT entry says its move fails high (or is exact) deep
    /// enough, search the node without it, at half depth, just below the TT score. If every
    /// other move fails below, the TT move is singular and is extended a ply. If even without
    /// it the node fails high over beta, it returns at once (multi-cut); if only the TT score
    /// is over beta, or the node is a cut node, the TT move is searched a ply shallower.
    fn singular_extension(&mut self, pos: &Position, node: &Node, entry: TtEntry) -> Singular {
        let ply = node.ply;
        let tt_score = score_from_tt(entry.score, ply);
        let applies = ply > 0
            && node.depth >= SE_MIN_DEPTH
            && !entry.mv.is_null()
            && entry.depth >= node.depth - SE_TT_DEPTH_MARGIN
            && matches!(entry.bound, Bound::Lower | Bound::Exact)
            && tt_score.abs() < TB_WIN_BOUND;
        if !applies {
            return Singular::Extend(0);
        }
        let singular_beta = tt_score - SE_MARGIN_PER_PLY * node.depth;
        let singular_depth = (node.depth - 1) / 2;
        self.stack[ply].excluded = entry.mv;
        let score = self.negamax::<false>(pos, singular_beta - 1, singular_beta, singular_depth, ply, node.cut_node);
        self.stack[ply].excluded = Move::NULL;
        if self.stopped {
            return Singular::Extend(0);
        }
        if score < singular_beta {
            Singular::Extend(1)
        } else if singular_beta >= node.beta {
            Singular::Cut(singular_beta)
        } else if tt_score >= node.beta || node.cut_node {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// The static evaluation, sharpened by the TT score, and whether it is improving; records
    /// it on the search stack for the plies below.
    fn static_eval(&mut self, pos: &Position, node: &Node, tt_entry: Option<TtEntry>) -> StaticEval {
        let ply = node.ply;
        let raw = self.evaluator.raw(pos, ply, tt_entry, node.in_check);
        let corrected = if node.in_check { NO_EVAL } else { self.histories.correction.correct(pos, raw) };
        let mut sharpened = corrected;
        if let (Some(entry), false) = (tt_entry, node.in_check) {
            let score = score_from_tt(entry.score, ply);
            if entry.bound.sharpens(score, corrected) && !is_decisive(score) {
                sharpened = score;
            }
        }
        self.stack[ply].static_eval = corrected;
        let improving = !node.in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NO_EVAL
            && corrected > self.stack[ply - 2].static_eval;
        StaticEval { raw, corrected, sharpened, improving }
    }

    /// Pruning before any move is searched, at non-PV nodes not in check: reverse futility,
    /// razoring and the null move. Returns the node's score if one of them settles it.
    fn prune_before_moves(&mut self, pos: &Position, node: &Node, eval: &StaticEval) -> Option<i32> {
        let Node { ply, depth, alpha, beta, cut_node, .. } = *node;
        let value = eval.sharpened;
        // Reverse futility pruning: far above beta at low depth, assume it holds. Not when beta
        // is a mate or tablebase score (`is_decisive`): an ordinary eval is far above "being
        // mated in n" and would settle the node without looking for the mate.
        if depth <= RFP_MAX_DEPTH
            && !is_decisive(value)
            && !is_decisive(beta)
            && value - RFP_MARGIN.get() * (depth - i32::from(eval.improving)) >= beta
        {
            return Some(value);
        }
        // Razoring: far below alpha near the leaves, see whether captures can save it. Not once
        // alpha is a mate or tablebase score: every node is far below it then, and the quiet
        // moves that deliver a shorter mate would never be searched.
        if depth <= RAZOR_MAX_DEPTH && !is_decisive(alpha) && value + RAZOR_MARGIN.get() * depth <= alpha {
            let score = self.quiescence::<false>(pos, alpha, alpha + 1, ply);
            if score <= alpha {
                return Some(score);
            }
        }
        // Null move pruning: if passing still fails high, a real move will too. Not in pawn
        // endings, where passing may be the only thing that does not lose (zugzwang).
        if depth >= NMP_MIN_DEPTH
            && value >= beta
            && has_non_pawn_material(pos)
            && !(ply >= 1 && self.stack[ply - 1].null_move)
            && !is_decisive(beta)
        {
            let r = NMP_BASE_REDUCTION
                + depth / NMP_DEPTH_DIVISOR
                + ((value - beta) / NMP_EVAL_DIVISOR.get()).min(NMP_EVAL_MAX_REDUCTION);
            let mut child = pos.clone();
            child.make_null_move();
            self.tt.prefetch(child.key());
            self.evaluator.push(ply, pos, &child);
            self.stack[ply].played = None;
            self.stack[ply].null_move = true;
            self.keys.push(node.key);
            let score = -self.negamax::<false>(&child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
            self.keys.pop();
            self.stack[ply].null_move = false;
            if self.stopped {
                return Some(0);
            }
            if score >= beta {
                // A mate or tablebase win found after passing is not proven for the real moves.
                return Some(if score >= TB_WIN_BOUND { beta } else { score });
            }
        }
        None
    }

    /// The move loop: each move pruned, or searched (reduced when late), best first. Once the
    /// first move is searched without a cutoff, the rest may go to idle helpers (young
    /// brothers wait). `None` if the search stopped.
    fn search_moves<const PV: bool>(
        &mut self,
        pos: &Position,
        node: &mut Node,
        eval: &StaticEval,
        context: &QuietContext,
        tt_move: Move,
        tried: &mut TriedMoves,
    ) -> Option<Best> {
        let ply = node.ply;
        let root = ply == 0;
        let counter = self.histories.counter_move(context.previous[0]);
        let buffers = self.pickers[ply].take().unwrap_or_default();
        let mut picker = MovePicker::new(pos, tt_move, self.stack[ply].killers, counter, buffers);
        let info = pos.check_info();
        let may_prune = !root && has_non_pawn_material(pos);
        // Escapes of a piece attacked by a cheaper one are spared late-move and futility
        // pruning at PV nodes only: there a lost piece changes the reported score, and PV nodes
        // are few enough that searching every escape costs little.
        let late_context = if PV { *context } else { QuietContext { threatened: Bitboard::EMPTY, ..*context } };
        let mut best = Best { score: -INFINITY, mv: Move::NULL, moves_searched: 0 };
        // The moves left for the helpers once this node splits.
        let mut split_jobs: Option<Vec<SplitMove>> = None;

        while let Some(mv) = picker.next(pos, self.histories, context) {
            if (root && self.skipped_at_root(mv)) || mv == node.excluded {
                continue;
            }
            let quiet = !mv.is_noisy();
            if quiet && may_prune && best.score > -TB_WIN_BOUND && late_moves_exhausted(node, eval, best.moves_searched)
            {
                picker.keep_only_checks_and_escapes(pos, &info, &late_context);
            }
            let candidate = Candidate {
                mv,
                gives_check: pos.gives_check(mv, &info),
                history: if quiet { self.histories.quiet_score(pos, mv, context) } else { 0 },
                escape: quiet && late_context.is_escape(mv),
            };
            // Once a move has been found that is not being mated or a tablebase loss (whose
            // upper bound would be stored as proven); checking moves are kept
            // (they are few, and they find the mates).
            if may_prune
                && best.score > -TB_WIN_BOUND
                && !candidate.gives_check
                && self.prunes_move(pos, node, eval, &candidate, best.moves_searched)
            {
                continue;
            }
            best.moves_searched += 1;
            tried.push(mv, quiet);

            // The TT move's singular-search verdict is the only extension: checks are not
            // extended (with it, extending every check as well doubled the tree).
            let extension = if mv == tt_move { node.tt_move_extension } else { 0 };
            let new_depth = node.depth - 1 + extension;
            let r =
                self.late_move_reduction::<PV>(pos, node, eval, &candidate, best.moves_searched, counter, new_depth);
            if let Some(jobs) = split_jobs.as_mut() {
                jobs.push(SplitMove { mv, new_depth, reduction: r, number: best.moves_searched });
                continue;
            }
            if root {
                self.show_current_move(mv, best.moves_searched);
                self.root_move = mv;
            }

            let nodes_before = self.nodes;
            let score = self.search_move::<PV>(pos, &info, node, mv, new_depth, r, best.moves_searched == 1);
            if root {
                self.root_move_nodes.push((mv, self.nodes - nodes_before));
            }
            if self.stopped {
                self.pickers[ply] = Some(picker.into_buffers());
                return None;
            }
            if self.raise::<PV>(node, &mut best, mv, score) {
                break;
            }
            // Young brothers wait: once the first move is searched, the rest may go to the
            // helpers, as soon as one is idle.
            if split_jobs.is_none() && self.may_split(node.depth) {
                split_jobs = Some(Vec::new());
            }
        }
        self.pickers[ply] = Some(picker.into_buffers());

        if let (Some(jobs), Some(hub)) = (split_jobs.filter(|jobs| !jobs.is_empty()), self.hub) {
            self.search_split::<PV>(hub, pos, node, &mut best, jobs)?;
            tried.keep_quiets_up_to(best.mv);
        }
        Some(best)
    }

    /// Root moves left out: not in `go searchmoves`, or given a MultiPV line already.
    fn skipped_at_root(&self, mv: Move) -> bool {
        (!self.root_filter.is_empty() && !self.root_filter.contains(&mv)) || self.root_excluded.contains(&mv)
    }

    /// The reduction of `candidate`, the `number`th move searched at `node`, to be searched
    /// `new_depth` deep: late-move reduction for quiet moves and losing captures searched late
    /// enough and deep enough (leaving at least one ply), 0 otherwise.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn late_move_reduction<const PV: bool>(
        &self,
        pos: &Position,
        node: &Node,
        eval: &StaticEval,
        candidate: &Candidate,
        number: usize,
        counter: Move,
        new_depth: i32,
    ) -> i32 {
        let mv = candidate.mv;
        if node.depth < LMR_MIN_DEPTH
            || number <= 1 + usize::from(node.ply == 0)
            || (mv.is_noisy() && see_ge(pos, mv, 0))
        {
            return 0;
        }
        let killers = self.stack[node.ply].killers;
        let late = LateMove {
            depth: node.depth,
            number,
            pv_node: PV,
            cut_node: node.cut_node,
            improving: eval.improving,
            gives_check: candidate.gives_check,
            history: candidate.history,
            refutation: mv == killers[0] || mv == killers[1] || mv == counter,
        };
        late.reduction().clamp(0, new_depth - 1)
    }

    /// Move-loop pruning of a move that gives no check: late-move pruning by move count,
    /// futility pruning of quiet moves, and SEE pruning, all near the leaves.
    fn prunes_move(
        &self,
        pos: &Position,
        node: &Node,
        eval: &StaticEval,
        candidate: &Candidate,
        moves_searched: usize,
    ) -> bool {
        let (mv, history) = (candidate.mv, candidate.history);
        let depth = node.depth;
        if depth > MOVE_PRUNING_MAX_DEPTH {
            return false;
        }
        if mv.is_noisy() {
            return !see_ge(pos, mv, -SEE_CAPTURE_MARGIN.get() * depth);
        }
        // An escape of a piece attacked by a cheaper one: only SEE may prune it (pruning every
        // escape as late or futile leaves the piece lost).
        if candidate.escape {
            return !see_ge(pos, mv, -SEE_QUIET_MARGIN.get() * depth);
        }
        // Counted move by move (not by skipping the quiet stage): a later quiet check or escape
        // must still be searched (the picker then hands out only those).
        if late_moves_exhausted(node, eval, moves_searched) {
            return true;
        }
        // Futility: a quiet move cannot lift a hopeless static eval to alpha (not once alpha is
        // a mate or tablebase score: then it would prune every quiet move).
        if !node.in_check
            && !is_decisive(node.alpha)
            && eval.sharpened + FUTILITY_BASE.get() + FUTILITY_PER_PLY.get() * depth <= node.alpha
            && history < FUTILITY_HISTORY_LIMIT.get()
        {
            return true;
        }
        !see_ge(pos, mv, -SEE_QUIET_MARGIN.get() * depth)
    }

    /// Takes a searched move's score into `best`, raising alpha (and the PV) when it beats it.
    /// Returns whether it fails high.
    fn raise<const PV: bool>(&mut self, node: &mut Node, best: &mut Best, mv: Move, score: i32) -> bool {
        if score > best.score {
            best.score = score;
            if score > node.alpha {
                best.mv = mv;
                if PV {
                    self.update_pv(node.ply, mv);
                }
                if node.ply == 0 {
                    self.root_best = Some((mv, score, self.principal_variation().to_vec()));
                }
                node.alpha = score;
                return node.alpha >= node.beta;
            }
        }
        false
    }

    /// After a fail high: rewards the best move in the history tables (and as a killer, if
    /// quiet) and punishes the moves tried before it.
    fn update_histories(
        &mut self,
        pos: &Position,
        node: &Node,
        context: &QuietContext,
        best: Move,
        tried: &TriedMoves,
    ) {
        let depth = node.depth;
        if best.is_noisy() {
            self.histories.update_captures(pos, best, tried.captures(), depth);
            return;
        }
        self.histories.update_quiets(pos, best, tried.quiets(), depth, context);
        self.histories.update_captures(pos, Move::NULL, tried.captures(), depth);
        let killers = &mut self.stack[node.ply].killers;
        if killers[0] != best {
            killers[1] = killers[0];
            killers[0] = best;
        }
    }
}

/// The TT's score, if it settles a non-PV node: searched at least as deep, with a bound that
/// decides the window, and not so near the fifty-move rule that the draw could change it.
fn tt_cutoff<const PV: bool>(pos: &Position, node: &Node, entry: TtEntry) -> Option<i32> {
    let score = score_from_tt(entry.score, node.ply);
    let usable = !PV
        && entry.depth >= node.depth
        && entry.bound.settles(score, node.alpha, node.beta)
        && pos.halfmove_clock() < TT_CUTOFF_MAX_HALFMOVE;
    usable.then_some(score)
}

/// Late-move pruning: whether `moves_searched` moves have used up the quiet moves a node of this
/// depth searches (LMP_BASE + depth^2, halved when not improving); every later quiet move that
/// gives no check is pruned.
fn late_moves_exhausted(node: &Node, eval: &StaticEval, moves_searched: usize) -> bool {
    let depth = node.depth;
    let limit = ((LMP_BASE.get() + depth * depth) / if eval.improving { 1 } else { 2 }) as usize;
    depth <= MOVE_PRUNING_MAX_DEPTH && moves_searched >= limit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tt::TranspositionTable;
    use crate::search::worker::with_worker;

    /// The singular search's verdict on `tt_move` at a node of depth `SE_MIN_DEPTH`, one ply
    /// below the root, with the window (beta - 1, beta) and a TT entry claiming `tt_score` as a
    /// lower bound; also whether the node's own key is still absent from the table afterwards
    /// (a search under exclusion must not store it).
    fn singular_verdict(fen: &str, tt_move: &str, tt_score: i32, beta: i32) -> (Singular, bool) {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
        let mv = crate::uci::parse_move(&pos, tt_move, false).unwrap_or_else(|| unreachable!("{tt_move} is legal"));
        let tt = TranspositionTable::new(1);
        let verdict = with_worker(&pos, &tt, |worker| singular_search(worker, &pos, mv, tt_score, beta));
        (verdict, tt.probe(pos.key()).is_none())
    }

    /// The singular search of `singular_verdict` on `worker`.
    fn singular_search(worker: &mut Worker, pos: &Position, mv: Move, tt_score: i32, beta: i32) -> Singular {
        let ply = 1;
        worker.evaluator.reset(pos, ply);
        let depth = SE_MIN_DEPTH;
        let node = Node {
            ply,
            depth,
            alpha: beta - 1,
            beta,
            cut_node: false,
            in_check: pos.is_check(),
            key: pos.key(),
            excluded: Move::NULL,
            tt_move_extension: 0,
        };
        let entry = TtEntry { mv, score: score_to_tt(tt_score, ply), eval: NO_EVAL, depth, bound: Bound::Lower };
        let verdict = worker.singular_extension(pos, &node, entry);
        assert!(worker.stack[ply].excluded.is_null(), "the exclusion is lifted afterwards");
        verdict
    }

    #[test]
    fn the_only_good_move_is_singular_and_a_second_one_is_not() {
        // Only exd5 wins the queen: every other move stays a queen down.
        let lone = "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(singular_verdict(lone, "e4d5", 0, 1), (Singular::Extend(1), true));
        // cxd5 wins it as well: exd5 is not singular. Against a beta below the margin's window,
        // the other moves alone fail high (multi-cut); above it, the verdict is neutral.
        let two = "4k3/8/8/3q4/2P1P3/8/8/4K3 w - - 0 1";
        let margin = SE_MARGIN_PER_PLY * SE_MIN_DEPTH;
        assert_eq!(singular_verdict(two, "e4d5", 100, 50), (Singular::Cut(100 - margin), true));
        assert_eq!(singular_verdict(two, "e4d5", 100, 200), (Singular::Extend(0), true));
    }
}
