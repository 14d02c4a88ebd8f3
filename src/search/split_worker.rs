//! The worker's side of the parallel search: a node that splits hands its later moves to a split
//! point and serves them with its helpers; an idle worker helps at the split points it finds.
//! The split points themselves (`split.rs`) know nothing of the worker that searches them.

use super::alphabeta::{Best, Node};
use super::split::{SplitHub, SplitMove, SplitNode, SplitOutcome, SplitPoint, MAX_SPLIT_NESTING, SPLIT_MIN_DEPTH};
use super::stack::Ply;
use super::worker::Worker;
use crate::position::Position;
use crate::types::Move;
use std::sync::Arc;

impl<'a> Worker<'a> {
    /// Searches the node's later moves `jobs` with the helpers and takes the split point's
    /// outcome into `best`. `None` if the search stopped.
    pub(super) fn search_split<const PV: bool>(
        &mut self,
        hub: &SplitHub,
        pos: &Position,
        node: &mut Node,
        best: &mut Best,
        jobs: Vec<SplitMove>,
    ) -> Option<()> {
        let ply = node.ply;
        let split_node = SplitNode {
            pos: pos.clone(),
            ply,
            depth: node.depth,
            alpha: node.alpha,
            beta: node.beta,
            cut_node: node.cut_node,
            path_keys: self.keys[self.root_len..].to_vec(),
            stack: self.stack[..=ply].to_vec(),
            root_move: if ply == 0 { Move::NULL } else { self.root_move },
        };
        let outcome = self.split(hub, split_node, jobs);
        // The split point records only finished searches, so a root move in its outcome that
        // beats alpha has proven itself better than the owner's moves even when the search
        // stopped meanwhile: it is what a stopped iteration plays, as in the serial search.
        // A fail high brings the move alone; a full-window search its whole line.
        let beats_alpha = outcome.score > node.alpha && !outcome.best.is_null();
        let line = beats_alpha.then(|| if outcome.line.is_empty() { vec![outcome.best] } else { outcome.line });
        if let (0, Some(line)) = (ply, &line) {
            self.root_best = Some((outcome.best, outcome.score, line.clone()));
        }
        if self.stopped {
            return None;
        }
        if outcome.score > best.score {
            best.score = outcome.score;
            if let Some(line) = line {
                best.mv = outcome.best;
                if PV {
                    self.pv[ply][ply..ply + line.len()].copy_from_slice(&line);
                    self.pv_len[ply] = ply + line.len();
                }
                node.alpha = outcome.score;
            }
        }
        Some(())
    }

    /// Makes this worker one of a parallel search's, splitting nodes and helping at split
    /// points through `hub`.
    pub fn join(&mut self, hub: &'a SplitHub) {
        self.hub = Some(hub);
    }

    /// Whether a node of `depth` whose first move is searched splits: deep enough, while a
    /// thread is idle, and not nested too far.
    pub(super) fn may_split(&self, depth: i32) -> bool {
        depth >= SPLIT_MIN_DEPTH && self.chain.len() < MAX_SPLIT_NESTING && self.hub.is_some_and(|hub| hub.has_idle())
    }

    /// Searches the later moves `jobs` of `node` together with the helpers: opens a split
    /// point, takes moves from it like any helper, helps at split points below it until its
    /// helpers are done, and returns the best score and move found.
    fn split(&mut self, hub: &SplitHub, node: SplitNode, jobs: Vec<SplitMove>) -> SplitOutcome {
        let keys = self.keys.len();
        let point = Arc::new(SplitPoint::new(node, self.chain.clone(), jobs));
        hub.open(Arc::clone(&point));
        let outer = std::mem::replace(&mut self.chain, point.chain());
        self.serve(&point);
        while let Some(below) = hub.wait_for_work(Some(&point), || !point.has_helpers()) {
            // Below a root split point the owner's help is inside no root move of its own
            // (below any other node, inside the root move it is searching, already counted).
            self.help_and_count(&below, point.node.ply == 0);
        }
        hub.close(&point);
        self.chain = outer;
        self.keys.truncate(keys);
        self.adopt_stack(&point.node.stack);
        self.update_stop();
        point.outcome()
    }

    /// Takes `path`, a split node's search stack from the root to the node, as this worker's
    /// stack. The plies below the node keep what an earlier path left there, which the search
    /// overwrites before reading, all but the singular search's exclusion: a node reads its own
    /// ply's exclusion on entry, so a stale one made every later node at that ply a search
    /// under exclusion (no TT cutoff or store, no pruning, a move left out). It is lifted here.
    pub(super) fn adopt_stack(&mut self, path: &[Ply]) {
        let below = path.len();
        self.stack[..below].copy_from_slice(path);
        for ply in &mut self.stack[below..] {
            ply.excluded = Move::NULL;
        }
    }

    /// Keeps `stopped` only while a reason holds: `stop`, the clock or the node limit, or a
    /// fail high at a split point this worker is below. (A stop because of a helper's unfinished
    /// move is caught here too.)
    pub(super) fn update_stop(&mut self) {
        self.stopped = (self.may_stop && self.search_must_stop()) || self.chain.iter().any(|point| point.aborted());
    }

    /// A helper's part in an iteration: waits for split points on `hub` and searches moves
    /// from them until the iteration ends or the search must stop.
    pub fn help(&mut self, hub: &SplitHub) {
        self.root_move_nodes.clear();
        while let Some(point) = hub.wait_for_work(None, || hub.finished()) {
            // At the root, `serve` counts each move taken; deeper, the help counts toward the
            // root move the split point lies under.
            self.help_and_count(&point, point.node.ply > 0);
            if self.stopped {
                break;
            }
        }
    }

    /// `help_at`, counting the nodes it took toward the root move `point` lies under if `count`.
    fn help_and_count(&mut self, point: &Arc<SplitPoint>, count: bool) {
        let nodes_before = self.nodes;
        self.help_at(point);
        if count {
            self.root_move_nodes.push((point.node.root_move, self.nodes - nodes_before));
        }
    }

    /// Searches moves of `point` (entered by `wait_for_work`) from its node until none is left.
    fn help_at(&mut self, point: &Arc<SplitPoint>) {
        let ply = point.node.ply;
        self.evaluator.reset(&point.node.pos, ply);
        self.keys.truncate(self.root_len);
        self.keys.extend_from_slice(&point.node.path_keys);
        self.adopt_stack(&point.node.stack);
        self.stack[ply + 1].killers = [Move::NULL; 2];
        let outer = std::mem::replace(&mut self.chain, point.chain());
        let outer_root_move = std::mem::replace(&mut self.root_move, point.node.root_move);
        self.serve(point);
        self.root_move = outer_root_move;
        self.chain = outer;
        point.leave();
        self.update_stop();
    }

    /// Takes moves from `point` until none is left, the split point aborts or the search
    /// stops, recording each finished move's score (after a full-window search, for a move that
    /// beats alpha at a PV split point).
    fn serve(&mut self, point: &SplitPoint) {
        let split = &point.node;
        let info = split.pos.check_info();
        let mut node = Node {
            ply: split.ply,
            depth: split.depth,
            alpha: split.alpha,
            beta: split.beta,
            cut_node: split.cut_node,
            in_check: split.pos.is_check(),
            key: split.pos.key(),
            excluded: Move::NULL,
            tt_move_extension: 0,
        };
        while !self.stopped {
            let Some(job) = point.take() else { break };
            node.alpha = point.alpha();
            if split.ply == 0 {
                self.show_current_move(job.mv, job.number);
                self.root_move = job.mv;
            }
            let nodes_before = self.nodes;
            let mut score =
                self.search_move::<false>(&split.pos, &info, &node, job.mv, job.new_depth, job.reduction, false);
            // At a PV split point, a move that beats alpha with the null window is searched again
            // at once with the full window (at alpha as it stands now), as the serial search
            // does: its exact score raises alpha before the moves still to be taken.
            let exact = !self.stopped && score > node.alpha && score < node.beta;
            if exact {
                node.alpha = point.alpha();
                score = self.search_move::<true>(&split.pos, &info, &node, job.mv, job.new_depth, 0, true);
            }
            if self.stopped {
                break;
            }
            if split.ply == 0 {
                self.root_move_nodes.push((job.mv, self.nodes - nodes_before));
            }
            if exact {
                let line = self.line_through(split.ply, job.mv);
                point.record_exact(job.mv, score, line);
            } else {
                point.record(job.mv, score);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::Histories;
    use crate::search::time::{Limits, TimeManager};
    use crate::search::tt::TranspositionTable;
    use crate::search::worker::with_worker;
    use crate::search::{SearchControl, INFINITY};
    use std::time::Instant;

    /// Searches the root moves `jobs` of `fen` at a split point opened by a lone worker (which
    /// then takes every job itself) at `depth`, after a first root move `first` that scored
    /// `first_score`, with a fresh table and histories and at most `node_limit` nodes. Returns
    /// whether the split finished, the root's best move and the worker's stopped iteration's move
    /// (`root_best`), and the nodes searched.
    fn split_at_root(
        fen: &str,
        first: &str,
        first_score: i32,
        jobs: &[&str],
        depth: i32,
        node_limit: Option<u64>,
    ) -> (bool, Move, Option<Move>, u64) {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
        let parse = |text: &str| crate::uci::parse_move(&pos, text, false).unwrap_or_else(|| unreachable!("{text}"));
        let (tt, control, hub) = (TranspositionTable::new(8), SearchControl::new(false), SplitHub::default());
        let time = TimeManager::new(&Limits::default(), pos.side_to_move(), 0, 0, Instant::now());
        let mut histories = Histories::default();
        let mut worker = Worker::new(&tt, &control, time, node_limit, &[], &mut histories, Vec::new());
        worker.join(&hub);
        worker.may_stop = true;
        worker.evaluator.reset(&pos, 0);
        let first = parse(first);
        worker.root_best = Some((first, first_score, vec![first]));
        let mut node = Node {
            ply: 0,
            depth,
            alpha: first_score,
            beta: INFINITY,
            cut_node: false,
            in_check: pos.is_check(),
            key: pos.key(),
            excluded: Move::NULL,
            tt_move_extension: 0,
        };
        let mut best = Best { score: first_score, mv: first, moves_searched: 1 };
        let jobs = jobs
            .iter()
            .enumerate()
            .map(|(i, text)| SplitMove { mv: parse(text), new_depth: depth - 1, reduction: 0, number: i + 2 })
            .collect();
        let finished = worker.search_split::<true>(&hub, &pos, &mut node, &mut best, jobs).is_some();
        (finished, best.mv, worker.root_best.as_ref().map(|line| line.0), worker.nodes)
    }

    #[test]
    fn a_root_move_a_split_point_proved_better_is_kept_when_the_search_stops() {
        // The first root move, a2a3, is given a score of -100: e2e4, searched first at the
        // split point, beats it.
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (depth, first_score) = (8, -100);
        let (finished, best, _, e4_nodes) = split_at_root(fen, "a2a3", first_score, &["e2e4"], depth, None);
        assert!(finished);
        assert_eq!(best.to_string(), "e2e4");
        // The same split with later moves, stopped by a node limit inside them (the stop is
        // polled every 1,024 nodes): e2e4's search had finished, so it is kept.
        let jobs = ["e2e4", "d2d4", "g1f3", "c2c4"];
        let (finished, _, kept, nodes) = split_at_root(fen, "a2a3", first_score, &jobs, depth, Some(e4_nodes + 1));
        assert!(!finished, "the later moves took only {} nodes", nodes - e4_nodes);
        assert_eq!(kept.map(|mv| mv.to_string()), Some("e2e4".to_string()));
    }

    #[test]
    fn a_split_path_lifts_stale_exclusions_below_it() {
        let pos = Position::startpos();
        let tt = TranspositionTable::new(1);
        let e2e4 = crate::uci::parse_move(&pos, "e2e4", false).unwrap_or_else(|| unreachable!("legal"));
        let d2d4 = crate::uci::parse_move(&pos, "d2d4", false).unwrap_or_else(|| unreachable!("legal"));
        with_worker(&pos, &tt, |worker| {
            // An earlier split path left an exclusion at ply 5.
            worker.stack[5].excluded = e2e4;
            // The new split node at ply 2 lies below a singular search at ply 1 (its owner's path).
            let mut path = vec![Ply::default(); 3];
            path[1].excluded = d2d4;
            worker.adopt_stack(&path);
            assert_eq!(worker.stack[1].excluded, d2d4, "the path's own exclusion is kept");
            assert!(worker.stack[3..].iter().all(|ply| ply.excluded.is_null()), "no exclusion below the split node");
        });
    }
}
