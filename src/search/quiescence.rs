//! The quiescence search: captures and promotions (every evasion in check) below the
//! main search's horizon until the position is quiet, standing pat on the static evaluation
//! and skipping captures that cannot reach alpha (delta pruning).

use super::history::{PieceTo, QuietContext};
use super::movepick::MovePicker;
use super::pruning::DELTA_MARGIN;
use super::see::{captured_value, see_ge};
use super::tt::{score_from_tt, score_to_tt, Bound, MATE, NO_EVAL};
use super::worker::Worker;
use super::{INFINITY, MAX_PLY};
use crate::eval::is_insufficient_material;
use crate::position::Position;
use crate::types::Move;

impl Worker<'_> {
    /// The quiescence search of `pos` with a full window (its PV leads to a quiet position).
    pub fn quiescence_root(&mut self, pos: &Position) -> i32 {
        self.evaluator.reset(pos, 0);
        self.quiescence::<true>(pos, -INFINITY, INFINITY, 0)
    }

    /// Captures and promotions (every evasion in check) until the position is quiet, standing
    /// pat on the static evaluation.
    pub(super) fn quiescence<const PV: bool>(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if !self.enter_node(ply) {
            return 0;
        }
        if is_insufficient_material(pos) {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return self.evaluator.horizon(pos, ply, in_check);
        }

        let key = pos.key();
        let tt_entry = self.tt.probe(key);
        if let Some(entry) = tt_entry {
            let score = score_from_tt(entry.score, ply);
            if !PV && entry.bound.settles(score, alpha, beta) {
                return score;
            }
        }

        let raw_eval = self.evaluator.raw(pos, ply, tt_entry, in_check);
        let stand_pat = if in_check { NO_EVAL } else { self.histories.correction.correct(pos, raw_eval) };
        let mut best_score = if in_check { -MATE + ply as i32 } else { stand_pat };
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
        // Quiet moves are scored here only as evasions: out of check no context is needed.
        let context = if in_check { self.quiet_context(pos, ply) } else { QuietContext::default() };
        while let Some(mv) = picker.next(pos, self.histories, &context) {
            if !in_check && !mv.is_promotion() {
                // Delta pruning: even winning this piece for free cannot reach alpha.
                let gain = captured_value(pos, mv);
                if stand_pat + gain + DELTA_MARGIN.get() <= alpha && !see_ge(pos, mv, 1) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.make_move_with(mv, &info);
            self.tt.prefetch(child.key());
            self.evaluator.push(ply, pos, &child);
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
        let bound = Bound::of(best_score, original_alpha, beta);
        self.tt.store(key, best_move, score_to_tt(best_score, ply), raw_eval, 0, bound);
        best_score
    }
}
