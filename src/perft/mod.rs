//! Perft (leaf counts of the legal move tree): bulk counting at the last ply, every-leaf-made
//! counting (what search pays for), divide, and a parallel perft that splits the first two
//! plies over a `WorkerPool`.

use crate::movegen::{count_legal, generate, generate_legal, pawn_origin, AllMoves, MoveList, MoveSink};
use crate::position::{CheckInfo, Position};
use crate::threads::WorkerPool;
use crate::types::{Bitboard, Move, MoveKind, Piece, Square};
use rayon::prelude::*;

pub mod hashed;
pub mod split;

pub use hashed::{perft_hashed, perft_hashed_parallel, PerftTable};

/// The legal moves of `pos`.
fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list
}

/// The number of leaves `depth` plies below `pos`, counting the last ply by popcount.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    count_leaves::<true>(pos, depth)
}

/// Like `perft`, but makes every leaf move instead of counting the last ply (what a search
/// pays per node).
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    count_leaves::<false>(pos, depth)
}

#[inline(always)]
fn count_leaves<const BULK: bool>(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 if BULK => count_legal(pos),
        1 => count_children::<BULK, true>(pos, 0),
        _ => count_children::<BULK, false>(pos, depth - 1),
    }
}

/// Counts the leaves `depth` plies below each child of `pos`; `LEAF` says the children are the
/// leaves themselves (`depth` 0), so that no leaf tests the depth.
#[inline(always)]
fn count_children<const BULK: bool, const LEAF: bool>(pos: &Position, depth: u32) -> u64 {
    let mut visitor =
        ChildVisitor::<BULK, LEAF> { parent: pos, info: pos.check_info(), depth, nodes: 0, scratch: pos.clone() };
    generate::<AllMoves, _>(pos, &mut visitor);
    visitor.nodes
}

/// Makes each move as the generator hands it over and counts below it: no move list.
struct ChildVisitor<'a, const BULK: bool, const LEAF: bool> {
    parent: &'a Position,
    info: CheckInfo,
    depth: u32,
    nodes: u64,
    /// A copy of the parent in which the plain quiet moves are made and counted below: one copy
    /// per node instead of one per such child.
    scratch: Position,
}

impl<const BULK: bool, const LEAF: bool> ChildVisitor<'_, BULK, LEAF> {
    /// Makes `mv`, a move of `piece`, and counts below it.
    #[inline(always)]
    fn visit(&mut self, mv: Move, piece: Piece) {
        let mut child = self.parent.clone();
        child.make_move_unkeyed(mv, piece, &self.info);
        self.nodes += Self::leaves_below(&child, self.depth);
    }

    /// The leaves `depth` plies below `child`: 1 for a leaf, which is kept (`black_box`), so
    /// its make is never optimised away.
    #[inline(always)]
    fn leaves_below(child: &Position, depth: u32) -> u64 {
        if LEAF {
            std::hint::black_box(child);
            1
        } else {
            count_leaves::<BULK>(child, depth)
        }
    }

    /// `visit` for the plain quiet moves of `piece` from `origin(to)` to each square of
    /// `targets` (see `Position::make_plain_quiet_from`), pawns' double pushes (`DOUBLE`)
    /// included: made one after another in the scratch copy, which is made the parent again
    /// after the last.
    #[inline(always)]
    fn visit_plain_quiets<const DOUBLE: bool>(
        &mut self,
        targets: Bitboard,
        piece: Piece,
        origin: impl Fn(Square) -> Square,
    ) {
        if targets.is_empty() {
            return;
        }
        for to in targets {
            let from = origin(to);
            let en_passant = if DOUBLE { Some(to.forward(!self.parent.side_to_move().is_white())) } else { None };
            self.scratch.make_plain_quiet_from(self.parent, from, to, piece, en_passant, &self.info);
            self.nodes += Self::leaves_below(&self.scratch, self.depth);
        }
        self.scratch.restore_plain_quiet(piece, self.parent);
    }
}

/// The batches carry what the generator knows: the origin's piece is looked up once per piece,
/// and pawn batches are pawns, so no single move looks up its own piece.
impl<const BULK: bool, const LEAF: bool> MoveSink for ChildVisitor<'_, BULK, LEAF> {
    const UNCHECKED_COPY: bool = true;

    #[inline(always)]
    fn push(&mut self, mv: Move) {
        // The generator hands over single moves only for castling and en passant.
        debug_assert!(mv.is_castle() || mv.is_en_passant(), "{mv:?}");
        let piece = if mv.is_castle() { Piece::King } else { Piece::Pawn };
        self.visit(mv, piece);
    }

    #[inline(always)]
    fn piece_moves(&mut self, from: Square, quiets: Bitboard, captures: Bitboard) {
        let Some(piece) = self.parent.piece_on(from) else {
            return;
        };
        // A king or rook move changes castling rights only while the mover holds one.
        let plain = matches!(piece, Piece::Knight | Piece::Bishop | Piece::Queen)
            || !self.parent.castling_rights().has_any(self.parent.side_to_move());
        if plain {
            self.visit_plain_quiets::<false>(quiets, piece, |_| from);
        } else {
            for to in quiets {
                self.visit(Move::new(from, to, MoveKind::QUIET), piece);
            }
        }
        for to in captures {
            self.visit(Move::new(from, to, MoveKind::CAPTURE), piece);
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, shift: i8, kind: MoveKind) {
        if kind == MoveKind::QUIET {
            self.visit_plain_quiets::<false>(targets, Piece::Pawn, |to| pawn_origin(to, shift));
        } else if kind == MoveKind::DOUBLE_PUSH {
            self.visit_plain_quiets::<true>(targets, Piece::Pawn, |to| pawn_origin(to, shift));
        } else {
            for to in targets {
                self.visit(Move::new(pawn_origin(to, shift), to, kind), Piece::Pawn);
            }
        }
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, shift: i8, capture: bool) {
        for to in targets {
            let from = pawn_origin(to, shift);
            for promoted in Piece::PROMOTIONS {
                self.visit(Move::new(from, to, MoveKind::promotion(promoted, capture)), Piece::Pawn);
            }
        }
    }
}

/// Each legal move with the perft count below it (`depth - 1` plies), in generation order.
pub fn divide(pos: &Position, depth: u32, pool: &WorkerPool) -> Vec<(Move, u64)> {
    let list = legal_moves(pos);
    pool.install(|| list.par_iter().map(|&mv| (mv, perft_split(&pos.after(mv), depth.saturating_sub(1)))).collect())
}

/// `perft` on the pool's threads: the first two plies are split into tasks (so a few heavy root
/// moves do not leave threads idle), the rest is counted serially in each task.
pub fn perft_parallel(pos: &Position, depth: u32, pool: &WorkerPool) -> u64 {
    if pool.threads() <= 1 {
        return perft(pos, depth);
    }
    pool.install(|| perft_split(pos, depth))
}

fn perft_split(pos: &Position, depth: u32) -> u64 {
    if depth < 4 {
        return perft(pos, depth);
    }
    split_two_plies(pos, depth, perft)
}

/// `count` summed over every position two plies below `pos` (`depth - 2` plies left), one task
/// per move pair on the current rayon pool.
fn split_two_plies(pos: &Position, depth: u32, count: impl Fn(&Position, u32) -> u64 + Sync) -> u64 {
    legal_moves(pos)
        .par_iter()
        .map(|&mv| {
            let child = pos.after(mv);
            legal_moves(&child).par_iter().map(|&reply| count(&child.after(reply), depth - 2)).sum::<u64>()
        })
        .sum()
}

/// One line of a perft suite: a position and its expected counts by depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The FEN of the position.
    pub fen: String,
    /// `(depth, expected leaf count)`, in the order listed.
    pub expected: Vec<(u32, u64)>,
    /// The label from the comment line just above, if any (`# label: what it tests`).
    pub label: Option<String>,
    /// The 1-based line number in the suite file.
    pub line: usize,
}

/// A suite line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for SuiteError {}

/// Parses an EPD perft suite: `FEN ;D1 20 ;D2 400 ...` per line; `#` lines and blank lines are
/// skipped (a `# label: ...` comment names the case below it). FENs are checked by the caller.
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, SuiteError> {
    let mut cases = Vec::new();
    let mut label = None;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(comment) = trimmed.strip_prefix('#') {
            label =
                comment.split(':').next().map(|l| l.trim().to_string()).filter(|l| !l.is_empty() && !l.contains(' '));
            continue;
        }
        let mut parts = trimmed.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_string();
        let mut expected = Vec::new();
        for part in parts {
            let fields: Vec<&str> = part.split_whitespace().collect();
            let parsed = match fields.as_slice() {
                [depth, count] => {
                    depth.strip_prefix('D').and_then(|d| d.parse::<u32>().ok()).zip(count.parse::<u64>().ok())
                }
                _ => None,
            };
            match parsed {
                Some(pair) => expected.push(pair),
                None => {
                    return Err(SuiteError { line, reason: format!("expected ';Dn count', found ';{}'", part.trim()) })
                }
            }
        }
        if expected.is_empty() {
            return Err(SuiteError { line, reason: "no ';Dn count' entries after the FEN".to_string() });
        }
        cases.push(PerftCase { fen, expected, label: label.take(), line });
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_perft_equals_serial_perft() {
        let pool = WorkerPool::new(2).unwrap_or_else(|e| unreachable!("{e}"));
        let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(perft(&pos, 3), 97_862);
        assert_eq!(perft_full(&pos, 3), 97_862);
        assert_eq!(perft_parallel(&pos, 4, &pool), perft(&pos, 4));
        assert_eq!(divide(&pos, 3, &pool).iter().map(|(_, n)| n).sum::<u64>(), 97_862);
    }

    #[test]
    fn suite_lines_parse_with_labels() {
        let text = "# a comment line\n\n# kiwi: castling\nfen one ;D1 48 ;D2 2039\nfen two ;D1 20\n";
        let cases = parse_suite(text).unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].label.as_deref(), Some("kiwi"));
        assert_eq!(cases[0].expected, vec![(1, 48), (2, 2039)]);
        assert_eq!((cases[1].label.as_deref(), cases[1].line), (None, 5));
        assert!(parse_suite("fen ;D1 x").is_err());
        assert!(parse_suite("fen only").is_err());
    }
}
