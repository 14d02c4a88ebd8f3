//! The staged move picker. Stages: the TT move, then captures and promotions generated and
//! ordered by victim value and capture history (losing ones by SEE put aside), killers and the
//! counter move, then quiet moves generated and ordered by history, then the losing captures.
//! A cutoff in an early stage skips the later generation.

use super::history::{Histories, QuietContext};
use super::see::{captured_value, see_ge, SEE_VALUES};
use crate::movegen::{generate, is_legal_move, AllMoves, MoveList, NoisyMoves, QuietMoves, MAX_MOVES};
use crate::position::{CheckInfo, Position};
use crate::types::{Move, Piece};

/// Added to a noisy evasion's score so that captures and promotions out of check come before
/// every quiet evasion (history scores stay below it).
const EVASION_NOISY_BONUS: i32 = 1 << 20;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenerateNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    GenerateQuiet,
    Quiet,
    BadNoisy,
    GenerateEvasions,
    Evasions,
    Done,
}

/// The move and score arrays of a picker, kept per ply and reused: zeroing them for every node
/// cost about 4% of search time.
pub struct PickerBuffers {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    bad_noisy: MoveList,
}

impl Default for PickerBuffers {
    fn default() -> PickerBuffers {
        PickerBuffers { moves: MoveList::new(), scores: [0; MAX_MOVES], bad_noisy: MoveList::new() }
    }
}

/// What the quiet moves are reduced to once late-move pruning has begun at a node.
#[derive(Clone, Copy)]
struct LateQuiets {
    /// The position's check info, to keep the quiet checks.
    info: CheckInfo,
    /// The node's context, to keep the escapes as well.
    context: QuietContext,
}

/// Hands out the moves of a position one at a time, best first, generating lazily.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    buf: Box<PickerBuffers>,
    next: usize,
    bad_next: usize,
    /// Quiescence: only captures and promotions (and no losing captures) unless in check.
    noisy_only: bool,
    /// Set once late-move pruning has begun at the node (with the position's check info and
    /// its escapes): of the quiet moves, only checks and escapes can still be searched, so the
    /// rest are dropped unsorted.
    late_quiets: Option<LateQuiets>,
}

impl MovePicker {
    /// A picker for the main search.
    pub fn new(
        pos: &Position,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        buf: Box<PickerBuffers>,
    ) -> MovePicker {
        MovePicker::build(pos, tt_move, killers, counter, false, buf)
    }

    /// A picker for the quiescence search: captures and promotions, or every evasion in check.
    pub fn quiescence(pos: &Position, tt_move: Move, buf: Box<PickerBuffers>) -> MovePicker {
        let tt_move = if pos.is_check() || tt_move.is_noisy() { tt_move } else { Move::NULL };
        MovePicker::build(pos, tt_move, [Move::NULL; 2], Move::NULL, true, buf)
    }

    fn build(
        pos: &Position,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        noisy_only: bool,
        mut buf: Box<PickerBuffers>,
    ) -> MovePicker {
        buf.moves.clear();
        buf.bad_noisy.clear();
        let tt_move = if !tt_move.is_null() && is_legal_move(pos, tt_move) { tt_move } else { Move::NULL };
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            counter,
            buf,
            next: 0,
            bad_next: 0,
            noisy_only,
            late_quiets: None,
        }
    }

    /// From now on hands out only those quiet moves that give check (`info`: this position's
    /// check info) or are escapes (`QuietContext::is_escape`): the search calls it once
    /// late-move pruning starts, after which every other quiet move would be pruned anyway.
    /// Saves sorting and handing out the moves it drops.
    pub fn keep_only_checks_and_escapes(&mut self, pos: &Position, info: &CheckInfo, context: &QuietContext) {
        if self.late_quiets.is_some() {
            return;
        }
        self.late_quiets = Some(LateQuiets { info: *info, context: *context });
        if self.stage == Stage::Quiet {
            self.drop_late_quiets(pos);
        }
    }

    /// Removes the quiet moves not yet handed out that neither give check nor escape, keeping
    /// the order of the rest (with their scores), if `keep_only_checks_and_escapes` was called.
    fn drop_late_quiets(&mut self, pos: &Position) {
        let Some(LateQuiets { info, context }) = self.late_quiets else {
            return;
        };
        let mut kept = self.next;
        for i in self.next..self.buf.moves.len() {
            let mv = self.buf.moves[i];
            if context.is_escape(mv) || pos.gives_check(mv, &info) {
                self.buf.moves[kept] = mv;
                self.buf.scores[kept] = self.buf.scores[i];
                kept += 1;
            }
        }
        self.buf.moves.truncate(kept);
    }

    /// The buffers, for the next picker at this ply.
    pub fn into_buffers(self) -> Box<PickerBuffers> {
        self.buf
    }

    /// The next move, or `None` when every move has been handed out.
    #[inline]
    pub fn next(&mut self, pos: &Position, histories: &Histories, context: &QuietContext) -> Option<Move> {
        // Most calls come in the middle of a sorted list, the good captures' or the quiets':
        // hand out its best move here, in the caller, and leave the stages (a much larger
        // function, with a costly entry) to the rest. A move this skips (one handed out
        // already, or a losing capture put aside) goes on to the stages, which pick the next
        // exactly as they would have.
        match self.stage {
            Stage::Quiet => {
                if let Some(mv) = self.pick_best() {
                    if !self.is_special(mv) {
                        return Some(mv);
                    }
                }
            }
            Stage::GoodNoisy => {
                if let Some(mv) = self.pick_best() {
                    if mv != self.tt_move && self.hands_out_noisy_now(pos, mv) {
                        return Some(mv);
                    }
                }
            }
            _ => {}
        }
        self.next_by_stage(pos, histories, context)
    }

    /// Whether `mv` is the TT move, a killer or the counter move, each handed out in a stage
    /// of its own before the quiet list.
    #[inline(always)]
    fn is_special(&self, mv: Move) -> bool {
        mv == self.tt_move || mv == self.killers[0] || mv == self.killers[1] || mv == self.counter
    }

    /// `next` through the stages.
    #[inline(never)]
    fn next_by_stage(&mut self, pos: &Position, histories: &Histories, context: &QuietContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = if pos.is_check() { Stage::GenerateEvasions } else { Stage::GenerateNoisy };
                    if !self.tt_move.is_null() {
                        return Some(self.tt_move);
                    }
                }
                Stage::GenerateNoisy => {
                    self.generate_noisy(pos, histories);
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.pick_best() {
                    Some(mv) if mv == self.tt_move => {}
                    Some(mv) => {
                        if self.hands_out_noisy_now(pos, mv) {
                            return Some(mv);
                        }
                    }
                    None => {
                        self.stage = if self.noisy_only { Stage::Done } else { Stage::Killer1 };
                    }
                },
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let candidate = match self.stage {
                        Stage::Killer1 => self.killers[0],
                        Stage::Killer2 => self.killers[1],
                        _ => self.counter,
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::GenerateQuiet,
                    };
                    if self.is_fresh_quiet(pos, candidate) && !self.is_earlier_special(candidate) {
                        return Some(candidate);
                    }
                }
                Stage::GenerateQuiet => {
                    self.generate_quiet(pos, histories, context);
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => match self.pick_best() {
                    Some(mv) if self.is_special(mv) => {}
                    Some(mv) => return Some(mv),
                    None => self.stage = Stage::BadNoisy,
                },
                Stage::BadNoisy => {
                    if self.bad_next < self.buf.bad_noisy.len() {
                        self.bad_next += 1;
                        return Some(self.buf.bad_noisy[self.bad_next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenerateEvasions => {
                    self.generate_evasions(pos, histories, context);
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.pick_best() {
                    Some(mv) if mv == self.tt_move => {}
                    Some(mv) => return Some(mv),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }

    /// Whether the noisy move `mv` goes out in the good-noisy stage. Quiescence skips
    /// underpromotions; a capture that loses material by SEE is put aside for the last stage
    /// (dropped in quiescence).
    #[inline(always)]
    fn hands_out_noisy_now(&mut self, pos: &Position, mv: Move) -> bool {
        if self.noisy_only && mv.promotion().is_some_and(|p| p != Piece::Queen) {
            return false;
        }
        if !see_ge(pos, mv, 0) {
            if !self.noisy_only {
                self.buf.bad_noisy.push(mv);
            }
            return false;
        }
        true
    }

    /// Generates the captures and promotions, scored by the victim's value and capture history.
    #[inline(always)]
    fn generate_noisy(&mut self, pos: &Position, histories: &Histories) {
        generate::<NoisyMoves, _>(pos, &mut self.buf.moves);
        for (i, &mv) in self.buf.moves.iter().enumerate() {
            self.buf.scores[i] = noisy_score(pos, mv, histories);
        }
        self.next = 0;
    }

    /// Replaces the noisy moves with the quiet ones (only the checks and escapes, once
    /// late-move pruning asked for that), scored by history.
    #[inline(always)]
    fn generate_quiet(&mut self, pos: &Position, histories: &Histories, context: &QuietContext) {
        self.buf.moves.clear();
        generate::<QuietMoves, _>(pos, &mut self.buf.moves);
        self.next = 0;
        self.drop_late_quiets(pos);
        for (i, &mv) in self.buf.moves.iter().enumerate() {
            self.buf.scores[i] = histories.quiet_score(pos, mv, context);
        }
    }

    /// Generates every evasion of a check, the noisy ones scored above every quiet one.
    #[inline(always)]
    fn generate_evasions(&mut self, pos: &Position, histories: &Histories, context: &QuietContext) {
        generate::<AllMoves, _>(pos, &mut self.buf.moves);
        for (i, &mv) in self.buf.moves.iter().enumerate() {
            self.buf.scores[i] = if mv.is_noisy() {
                EVASION_NOISY_BONUS + noisy_score(pos, mv, histories)
            } else {
                histories.quiet_score(pos, mv, context)
            };
        }
        self.next = 0;
    }

    /// Whether `mv` is a legal quiet move not already handed out as the TT move.
    fn is_fresh_quiet(&self, pos: &Position, mv: Move) -> bool {
        !mv.is_null() && mv != self.tt_move && !mv.is_noisy() && is_legal_move(pos, mv)
    }

    /// Whether `mv` was already handed out by an earlier killer or counter stage.
    fn is_earlier_special(&self, mv: Move) -> bool {
        match self.stage {
            Stage::Killer2 => false,
            Stage::Counter => mv == self.killers[0],
            _ => mv == self.killers[0] || mv == self.killers[1],
        }
    }

    /// Selection sort, one step: the best remaining move of the current list.
    fn pick_best(&mut self) -> Option<Move> {
        let len = self.buf.moves.len();
        if self.next >= len {
            return None;
        }
        // Two passes, each cheaper than the one of comparisons and conditional moves it
        // replaces: the maximum (which the compiler vectorises), then the first move that has
        // it, the same move the one-pass scan picked.
        let rest = &self.buf.scores[self.next..len];
        let top = rest.iter().copied().max().unwrap_or(i32::MIN);
        let best = self.next + rest.iter().position(|&score| score == top).unwrap_or(0);
        self.buf.moves.swap(self.next, best);
        self.buf.scores.swap(self.next, best);
        self.next += 1;
        Some(self.buf.moves[self.next - 1])
    }
}

/// Captures first by the value of the victim (most valuable victim first), then by capture
/// history; queen promotions rank like capturing a queen.
fn noisy_score(pos: &Position, mv: Move, histories: &Histories) -> i32 {
    let promotion = match mv.promotion() {
        Some(Piece::Queen) => SEE_VALUES[Piece::Queen],
        Some(_) => -SEE_VALUES[Piece::Queen],
        None => 0,
    };
    (captured_value(pos, mv) + promotion) * 16 + histories.capture_score(pos, mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::generate_legal;
    use crate::types::{Bitboard, Rank, Square};

    fn picked(fen: &str, tt_move: Move) -> Vec<Move> {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
        let histories = Histories::default();
        let mut picker = MovePicker::new(&pos, tt_move, [Move::NULL; 2], Move::NULL, Box::default());
        let mut out = Vec::new();
        while let Some(mv) = picker.next(&pos, &histories, &QuietContext::default()) {
            out.push(mv);
        }
        out
    }

    #[test]
    fn picker_hands_out_every_legal_move_once() {
        for fen in [
            crate::position::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            let mut legal = MoveList::new();
            generate_legal(&pos, &mut legal);
            for tt_move in [Move::NULL, legal[legal.len() / 2], Move::from_bits(0x1234)] {
                let mut got = picked(fen, tt_move);
                assert_eq!(got.len(), legal.len(), "{fen}");
                if !tt_move.is_null() && legal.contains(&tt_move) {
                    assert_eq!(got[0], tt_move);
                }
                got.sort_by_key(|m| m.bits());
                let mut want: Vec<Move> = legal.to_vec();
                want.sort_by_key(|m| m.bits());
                assert_eq!(got, want, "{fen}");
            }
        }
    }

    #[test]
    fn pick_best_hands_out_the_order_of_the_one_pass_selection_sort() {
        // The search's node counts (the bench signature) depend on the order among equal
        // scores too: the first move with the best score goes out, and the move it swaps with
        // takes its place. Checked against that scan on lists with many ties.
        let mut random = crate::testing::xorshift(0x5eed_1234);
        for _ in 0..200 {
            let len = (random() % 60) as usize;
            let mut picker = MovePicker {
                stage: Stage::Quiet,
                tt_move: Move::NULL,
                killers: [Move::NULL; 2],
                counter: Move::NULL,
                buf: Box::default(),
                next: 0,
                bad_next: 0,
                noisy_only: false,
                late_quiets: None,
            };
            let mut moves = Vec::new();
            let mut scores = Vec::new();
            for i in 0..len {
                let mv = Move::from_bits(i as u16 + 1);
                let score = (random() % 7) as i32 - 3;
                picker.buf.moves.push(mv);
                picker.buf.scores[i] = score;
                moves.push(mv);
                scores.push(score);
            }
            let mut want = Vec::new();
            for next in 0..len {
                let mut best = next;
                for i in next + 1..len {
                    if scores[i] > scores[best] {
                        best = i;
                    }
                }
                moves.swap(next, best);
                scores.swap(next, best);
                want.push(moves[next]);
            }
            let got: Vec<Move> = std::iter::from_fn(|| picker.pick_best()).collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn winning_captures_come_first_and_losing_ones_last() {
        // Nxb4 wins an undefended rook; Qxe6 gives the queen for a pawn defended by d7.
        let moves = picked("4k3/3p4/4p3/8/1r6/3N3Q/8/4K3 w - - 0 1", Move::NULL);
        assert_eq!(moves.first().map(|m| m.to_string()), Some("d3b4".to_string()));
        assert_eq!(moves.last().map(|m| m.to_string()), Some("h3e6".to_string()));
    }

    #[test]
    fn after_keep_only_checks_and_escapes_every_noisy_move_and_only_those_quiets_follow() {
        // The call comes at the first quiet move (before the quiet list exists) or after two
        // quiet moves (the list already partly handed out). Kiwipete has no quiet check for White,
        // the second position two (Ra8+, Rh8+). The piece on d2 (a bishop, then a knight) is
        // named a threatened piece and the third rank attacked: its quiet moves elsewhere are
        // escapes, kept as well.
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/3N4/R3K2R w KQ - 0 1",
        ];
        let context = QuietContext {
            threatened: Bitboard::from(Square::D2),
            threats: Bitboard::rank(Rank::Third),
            ..QuietContext::default()
        };
        let histories = Histories::default();
        for (fen, quiets_before) in fens.into_iter().flat_map(|fen| [(fen, 0), (fen, 2)]) {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            let info = pos.check_info();
            let all = picked(fen, Move::NULL);
            let quiet_checks = all.iter().filter(|m| !m.is_noisy() && pos.gives_check(**m, &info)).count();
            assert_eq!(quiet_checks, if fen.starts_with("4k3") { 2 } else { 0 }, "{fen}");
            let late_keeps = |mv: Move| mv.is_noisy() || pos.gives_check(mv, &info) || context.is_escape(mv);
            let mut picker = MovePicker::new(&pos, Move::NULL, [Move::NULL; 2], Move::NULL, Box::default());
            let (mut quiets_seen, mut out) = (0, Vec::new());
            while let Some(mv) = picker.next(&pos, &histories, &QuietContext::default()) {
                if !mv.is_noisy() {
                    if quiets_seen == quiets_before {
                        picker.keep_only_checks_and_escapes(&pos, &info, &context);
                    }
                    if quiets_seen > quiets_before {
                        assert!(late_keeps(mv), "{mv}");
                    }
                    quiets_seen += 1;
                }
                out.push(mv);
            }
            // Nothing else is lost: every noisy move, quiet check and escape still comes out.
            let wanted = all.iter().filter(|m| late_keeps(**m)).count();
            let kept = out.iter().filter(|m| late_keeps(**m)).count();
            assert_eq!(kept, wanted, "{fen} {quiets_before}");
            assert!(out.len() < all.len(), "{fen}");
        }
    }
}
