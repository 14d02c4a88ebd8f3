//! The history tables: what the search learns about moves while it runs (butterfly,
//! capture, continuation and counter-move), kept per search thread between searches. Scores
//! saturate at ±`HISTORY_MAX` through gravity, so old lessons fade when contradicted.

use super::correction::CorrectionHistory;
use crate::position::Position;
use crate::types::{Bitboard, Color, Move, Piece};

/// History scores saturate at this magnitude.
pub const HISTORY_MAX: i32 = 16_384;

/// A piece of a colour, as an index 0..12 for history tables.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PieceIndex(u8);

impl PieceIndex {
    /// The index of `piece` of `color`.
    #[inline(always)]
    pub fn new(color: Color, piece: Piece) -> PieceIndex {
        PieceIndex(color as u8 * 6 + piece as u8)
    }

    fn index(self) -> usize {
        self.0 as usize
    }
}

/// A (piece, destination) pair: what continuation history is keyed by.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PieceTo {
    piece: PieceIndex,
    to: u8,
}

impl PieceTo {
    /// `mv` played by the piece it moves in `pos` (before the move).
    #[inline]
    pub fn of(pos: &Position, mv: Move) -> PieceTo {
        let piece = pos.piece_on(mv.from()).unwrap_or(Piece::Pawn);
        PieceTo { piece: PieceIndex::new(pos.side_to_move(), piece), to: mv.to() as u8 }
    }

    fn index(self) -> usize {
        self.piece.index() * 64 + self.to as usize
    }
}

/// What a quiet move's history score depends on besides the move itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct QuietContext {
    /// The moves one and two plies back (continuation history).
    pub previous: [Option<PieceTo>; 2],
    /// The squares the opponent attacks: a move out of or into an attack has its own butterfly
    /// entry, since the same from-to pair is an escape in one position and a blunder in another.
    pub threats: Bitboard,
    /// The side to move's pieces attacked by a cheaper enemy piece: their quiet moves to
    /// squares the opponent does not attack are escapes, which move-loop pruning leaves to SEE
    /// alone.
    pub threatened: Bitboard,
}

impl QuietContext {
    /// Whether quiet `mv` takes a piece attacked by a cheaper one to a square the opponent does
    /// not attack.
    #[inline]
    pub fn is_escape(&self, mv: Move) -> bool {
        self.threatened.contains(mv.from()) && !self.threats.contains(mv.to())
    }
}

/// Adds `bonus` to a history entry with gravity: entries approach ±`HISTORY_MAX` and decay
/// toward zero when contradicted.
#[inline]
fn apply_bonus(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let current = i32::from(*entry);
    *entry = (current + bonus - current * bonus.abs() / HISTORY_MAX) as i16;
}

/// The learned move-ordering statistics of one search thread.
pub struct Histories {
    /// Quiet moves by side, whether the opponent attacks the from and the to square, from and
    /// to.
    butterfly: Vec<i16>,
    /// Captures by moving piece, destination and captured kind.
    capture: Vec<i16>,
    /// Quiet moves by the previous move's (piece, to) and this move's (piece, to), for the
    /// move one and two plies back.
    continuation: Vec<i16>,
    /// The quiet move that last refuted each (piece, to).
    counter: Vec<Move>,
    /// How far search scores landed from the static evaluation (`correction.rs`).
    pub correction: CorrectionHistory,
}

impl Default for Histories {
    fn default() -> Histories {
        Histories {
            butterfly: vec![0; 2 * 2 * 2 * 64 * 64],
            capture: vec![0; 12 * 64 * 6],
            continuation: vec![0; 12 * 64 * 12 * 64],
            counter: vec![Move::NULL; 12 * 64],
            correction: CorrectionHistory::default(),
        }
    }
}

impl Histories {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = Histories::default();
    }

    fn butterfly_index(side: Color, mv: Move, threats: Bitboard) -> usize {
        let from_attacked = usize::from(threats.contains(mv.from()));
        let to_attacked = usize::from(threats.contains(mv.to()));
        ((side.index() * 2 + from_attacked) * 2 + to_attacked) * 4096 + mv.from().index() * 64 + mv.to().index()
    }

    fn capture_index(pos: &Position, mv: Move) -> usize {
        let captured = if mv.is_en_passant() { Piece::Pawn } else { pos.piece_on(mv.to()).unwrap_or(Piece::Pawn) };
        PieceTo::of(pos, mv).index() * 6 + captured.index()
    }

    fn continuation_index(previous: PieceTo, current: PieceTo) -> usize {
        previous.index() * 768 + current.index()
    }

    /// The quiet history score of `mv` in `context`.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, mv: Move, context: &QuietContext) -> i32 {
        let current = PieceTo::of(pos, mv);
        let mut score = i32::from(self.butterfly[Self::butterfly_index(pos.side_to_move(), mv, context.threats)]);
        for prev in context.previous.iter().flatten() {
            score += i32::from(self.continuation[Self::continuation_index(*prev, current)]);
        }
        score
    }

    /// The capture history score of `mv`.
    #[inline]
    pub fn capture_score(&self, pos: &Position, mv: Move) -> i32 {
        i32::from(self.capture[Self::capture_index(pos, mv)])
    }

    /// The counter move to the previous move, if one is known.
    pub fn counter_move(&self, previous: Option<PieceTo>) -> Move {
        previous.map_or(Move::NULL, |p| self.counter[p.index()])
    }

    /// Rewards the quiet move `best` that caused a cutoff and penalises the quiet moves tried
    /// before it.
    pub fn update_quiets(&mut self, pos: &Position, best: Move, tried: &[Move], depth: i32, context: &QuietContext) {
        let bonus = (depth * depth * 16 + depth * 32).min(2400);
        let side = pos.side_to_move();
        for &mv in tried {
            let delta = if mv == best { bonus } else { -bonus };
            apply_bonus(&mut self.butterfly[Self::butterfly_index(side, mv, context.threats)], delta);
            let current = PieceTo::of(pos, mv);
            for prev in context.previous.iter().flatten() {
                apply_bonus(&mut self.continuation[Self::continuation_index(*prev, current)], delta);
            }
        }
        if let Some(prev) = context.previous[0] {
            self.counter[prev.index()] = best;
        }
    }

    /// Rewards the capture `best` that caused a cutoff (if it was one) and penalises the
    /// captures tried before it.
    pub fn update_captures(&mut self, pos: &Position, best: Move, tried: &[Move], depth: i32) {
        let bonus = (depth * depth * 16 + depth * 32).min(2400);
        for &mv in tried {
            let delta = if mv == best { bonus } else { -bonus };
            apply_bonus(&mut self.capture[Self::capture_index(pos, mv)], delta);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    #[test]
    fn history_gravity_saturates() {
        let mut entry = 0i16;
        for _ in 0..1000 {
            apply_bonus(&mut entry, 2400);
        }
        assert!(i32::from(entry) <= HISTORY_MAX && i32::from(entry) > HISTORY_MAX - 200);
    }

    #[test]
    fn butterfly_history_keeps_escapes_apart_from_the_same_move_unthreatened() {
        use crate::types::MoveKind;
        let pos = Position::startpos();
        let mv = Move::new(Square::G1, Square::F3, MoveKind::QUIET);
        let other = Move::new(Square::B1, Square::C3, MoveKind::QUIET);
        let knight_attacked = QuietContext { threats: Bitboard::from(Square::G1), ..QuietContext::default() };
        let mut histories = Histories::default();
        histories.update_quiets(&pos, mv, &[other, mv], 8, &knight_attacked);
        assert!(histories.quiet_score(&pos, mv, &knight_attacked) > 0);
        // Out of the attack, from the same square: a different entry, and b1 was not attacked.
        assert_eq!(histories.quiet_score(&pos, mv, &QuietContext::default()), 0);
        assert!(histories.quiet_score(&pos, other, &knight_attacked) < 0);
    }
}
