//! Syzygy tablebases in the search: the root moves ranked by DTZ (so a won position is converted
//! within the fifty-move rule and a drawn one is never lost), and WDL probes below the root that
//! settle nodes reached by a capture or pawn move.

use crate::position::{CastlingRights, Position};
use crate::tb::{Tablebases, Wdl};
use crate::types::Move;

use super::tt::MATE_BOUND;
use super::{fifty_moves_drawn, MAX_PLY};

/// A tablebase win at the root; `TB_WIN - ply` below it. Below every mate score, above every
/// evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 1 - MAX_PLY as i32;
/// Scores at or beyond this (in absolute value) are tablebase results or mates.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
// Tablebase scores lie between every evaluation (at most `NET_SCORE_LIMIT`, 20,000) and every
// mate score.
const _: () = assert!(TB_WIN_BOUND > crate::nnue::NET_SCORE_LIMIT && TB_WIN < MATE_BOUND);

/// Whether `score` is a proven result, a tablebase win or loss or a mate: the pruning margins,
/// which reason about evaluations, leave such scores and windows alone.
#[inline]
pub const fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_WIN_BOUND
}

/// The root ranking's scale: DTZ ranks sit below it, so wins within the fifty-move rule rank
/// above every cursed win.
const MAX_DTZ: i32 = 1 << 18;

/// What the search needs to probe: the tables and the `Syzygy*` options.
#[derive(Clone, Debug)]
pub struct TbSettings {
    pub tables: Tablebases,
    /// `SyzygyProbeDepth`: probe below the root only from this depth (at the largest piece count).
    pub probe_depth: i32,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses are draws.
    pub rule50: bool,
    /// `SyzygyProbeLimit`: probe positions of at most this many pieces.
    pub probe_limit: usize,
}

impl TbSettings {
    /// The most pieces probed: the option, and the largest table found.
    pub fn cardinality(&self) -> usize {
        self.probe_limit.min(self.tables.max_pieces())
    }
}

/// The root moves worth searching after the tables ranked them, with the score each one shows.
#[derive(Debug)]
pub struct RootRanking {
    /// The moves of the best rank, in the order given.
    pub best: Vec<Move>,
    /// Every ranked move's tablebase score.
    pub scores: Vec<(Move, i32)>,
    /// Whether the search should still probe WDL below the root (only when the DTZ tables were
    /// missing and the root is won: DTZ already decided the rest).
    pub probe_below: bool,
}

impl RootRanking {
    /// The tablebase score of `mv`, if it was ranked.
    pub fn score_of(&self, mv: Move) -> Option<i32> {
        self.scores.iter().find(|(m, _)| *m == mv).map(|&(_, s)| s)
    }
}

/// How many times `key` occurred among the last `window` keys of `history`.
fn occurrences(history: &[u64], key: u64, window: usize) -> usize {
    history.iter().rev().take(window).filter(|&&k| k == key).count()
}

/// Ranks `moves` of `root` by the tables, or `None` if the root is not in them (too many
/// pieces, castling rights, a table missing). `history`: the keys of the positions before the root.
pub fn rank_root_moves(tb: &TbSettings, root: &Position, moves: &[Move], history: &[u64]) -> Option<RootRanking> {
    let pieces = root.occupied().count() as usize;
    if moves.is_empty() || pieces > tb.cardinality() || root.castling_rights() != CastlingRights::NONE {
        return None;
    }
    let (ranked, dtz_used) = match rank_by_dtz(tb, root, moves, history) {
        Some(ranked) => (ranked, true),
        None => (rank_by_wdl(tb, root, moves, history)?, false),
    };
    let top = ranked.iter().map(|&(_, rank, _)| rank).max()?;
    let best: Vec<Move> = ranked.iter().filter(|&&(_, rank, _)| rank == top).map(|&(mv, _, _)| mv).collect();
    let scores: Vec<(Move, i32)> = ranked.iter().map(|&(mv, _, score)| (mv, score)).collect();
    let top_score = ranked.iter().find(|&&(_, rank, _)| rank == top).map_or(0, |&(_, _, s)| s);
    Some(RootRanking { best, scores, probe_below: !dtz_used && top_score > 0 })
}

/// `(move, rank, score)` by DTZ: wins that stay within the fifty-move rule first, the shortest
/// DTZ best (so every move makes progress: left to choose among all winning moves, the search
/// wandered into repetitions in KBNvK), then cursed wins, draws, and losses, the longest best.
fn rank_by_dtz(tb: &TbSettings, root: &Position, moves: &[Move], history: &[u64]) -> Option<Vec<(Move, i32, i32)>> {
    let clock = root.halfmove_clock() as i32;
    let window = root.halfmove_clock() as usize;
    let repeated = occurrences(history, root.key(), window) > 0;
    let bound = if tb.rule50 { MAX_DTZ / 2 - 100 } else { 1 };
    let mut ranked = Vec::with_capacity(moves.len());
    for &mv in moves {
        let child = root.after(mv);
        // A third occurrence, or the hundredth half-move without a mate: drawn whatever the
        // tables say.
        let third_occurrence = child.halfmove_clock() != 0 && occurrences(history, child.key(), window + 1) >= 2;
        let dtz = if third_occurrence || fifty_moves_drawn(&child) { 0 } else { tb.tables.root_dtz(root, mv)? };
        let rank = if dtz > 0 {
            if dtz + clock <= 99 && !repeated {
                MAX_DTZ - dtz
            } else {
                MAX_DTZ / 2 - (dtz + clock)
            }
        } else if dtz < 0 {
            if -dtz * 2 + clock < 100 {
                -MAX_DTZ - dtz
            } else {
                -MAX_DTZ / 2 + (-dtz + clock)
            }
        } else {
            0
        };
        // A cursed win shows a few centipawns, growing as the real win comes nearer.
        let score = if rank >= bound {
            TB_WIN
        } else if rank > 0 {
            (rank - (MAX_DTZ / 2 - 200)).max(3) / 2
        } else if rank == 0 {
            0
        } else if rank > -bound {
            (rank + (MAX_DTZ / 2 - 200)).min(-3) / 2
        } else {
            -TB_WIN
        };
        ranked.push((mv, rank, score));
    }
    Some(ranked)
}

/// `(move, rank, score)` by WDL alone, when a DTZ table is missing.
fn rank_by_wdl(tb: &TbSettings, root: &Position, moves: &[Move], history: &[u64]) -> Option<Vec<(Move, i32, i32)>> {
    let window = root.halfmove_clock() as usize;
    let mut ranked = Vec::with_capacity(moves.len());
    for &mv in moves {
        let child = root.after(mv);
        let wdl = if child.halfmove_clock() != 0 && occurrences(history, child.key(), window + 1) >= 2 {
            Wdl::Draw
        } else {
            tb.tables.probe_wdl(&child)?.negate()
        };
        let rank = match wdl {
            Wdl::Loss => -MAX_DTZ,
            Wdl::BlessedLoss => -MAX_DTZ + 101,
            Wdl::Draw => 0,
            Wdl::CursedWin => MAX_DTZ - 101,
            Wdl::Win => MAX_DTZ,
        };
        ranked.push((mv, rank, wdl_score(wdl, tb.rule50, 0)));
    }
    Some(ranked)
}

/// The score of a WDL result `ply` plies from the root: a win or loss beyond every evaluation,
/// a cursed win or blessed loss a draw nudged by 2 cp (a real win or loss without the 50-move rule).
pub fn wdl_score(wdl: Wdl, rule50: bool, ply: usize) -> i32 {
    let v = wdl.to_i32();
    let draw_band = i32::from(rule50);
    if v < -draw_band {
        -TB_WIN + ply as i32
    } else if v > draw_band {
        TB_WIN - ply as i32
    } else {
        2 * v * draw_band
    }
}

/// Whether `pos` (not the root) may be probed: few enough pieces, no castling rights, just after
/// a capture or pawn move (so the fifty-move counter cannot change the result), and deep enough.
pub fn probes_node(tb: &TbSettings, pos: &Position, depth: i32) -> bool {
    let pieces = pos.occupied().count() as usize;
    let cardinality = tb.cardinality();
    pieces <= cardinality
        && pos.halfmove_clock() == 0
        && pos.castling_rights() == CastlingRights::NONE
        && (pieces < cardinality || depth >= tb.probe_depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The available tables hold no cursed win (none among 20,520 fixture positions and 20,000
    /// random 5-piece ones), so `Syzygy50MoveRule` is checked on the score mapping itself.
    #[test]
    fn the_fifty_move_rule_option_decides_what_cursed_results_are_worth() {
        assert_eq!(wdl_score(Wdl::Win, true, 3), TB_WIN - 3);
        assert_eq!(wdl_score(Wdl::Loss, true, 3), -TB_WIN + 3);
        assert_eq!(wdl_score(Wdl::CursedWin, true, 3), 2);
        assert_eq!(wdl_score(Wdl::BlessedLoss, true, 3), -2);
        assert_eq!(wdl_score(Wdl::CursedWin, false, 3), TB_WIN - 3);
        assert_eq!(wdl_score(Wdl::BlessedLoss, false, 3), -TB_WIN + 3);
        assert_eq!(wdl_score(Wdl::Draw, false, 3), 0);
    }
}
