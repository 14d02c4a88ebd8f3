//! Reduced strength (`UCI_LimitStrength` with `UCI_Elo`): a node budget that grows with the
//! Elo setting, and a choice among the best few root moves weighted by their scores, so weaker
//! settings play natural but imperfect moves (the engine never picks a move that throws away
//! more than a few times the temperature). The mapping is calibrated by matches against
//! Stockfish at the same settings (README).

use super::Line;
use crate::types::Move;

/// The weakest setting.
pub const MIN_ELO: i32 = 1320;
/// The strongest setting (and the default).
pub const MAX_ELO: i32 = 3000;

/// A strength setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: i32,
}

impl Strength {
    /// The setting for `elo` (clamped to `MIN_ELO..=MAX_ELO`).
    pub fn new(elo: i32) -> Strength {
        Strength { elo: elo.clamp(MIN_ELO, MAX_ELO) }
    }

    /// Nodes per move: doubling every 170 Elo from 400 at the bottom.
    pub fn node_limit(&self) -> u64 {
        (400.0 * 2f64.powf(f64::from(self.elo - MIN_ELO) / 170.0)) as u64
    }

    /// How many root lines to choose among.
    pub fn lines(&self) -> usize {
        4
    }

    /// The softmax temperature in centipawns: 0 (always the best move) from 2500 up.
    pub fn temperature(&self) -> f64 {
        (f64::from(2500 - self.elo) / 5.0).max(0.0)
    }

    /// Picks a move from `lines` (best first) with `random` (any u64): each line weighted by
    /// exp((score - best) / temperature), lines more than three temperatures worse excluded.
    pub fn choose(&self, lines: &[Line], random: u64) -> Option<Move> {
        let best = lines.first()?;
        let t = self.temperature();
        if t <= 0.0 {
            return best.pv.first().copied();
        }
        let weights: Vec<f64> = lines
            .iter()
            .map(|line| {
                let loss = f64::from(best.score - line.score);
                if loss > 3.0 * t || line.pv.is_empty() {
                    0.0
                } else {
                    (-loss / t).exp()
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut ticket = (random >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (line, weight) in lines.iter().zip(weights) {
            if ticket < weight {
                return line.pv.first().copied();
            }
            ticket -= weight;
        }
        best.pv.first().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{MoveKind, Square};

    fn line(score: i32, to: Square) -> Line {
        Line { score, pv: vec![Move::new(Square::E2, to, MoveKind::QUIET)] }
    }

    #[test]
    fn budget_grows_with_elo_and_full_strength_is_deterministic() {
        assert!(Strength::new(1320).node_limit() < Strength::new(2000).node_limit());
        assert_eq!(Strength::new(100), Strength::new(MIN_ELO));
        let lines = [line(50, Square::E4), line(40, Square::E3)];
        for r in [0, u64::MAX / 2, u64::MAX] {
            assert_eq!(Strength::new(3000).choose(&lines, r), Some(lines[0].pv[0]));
        }
    }

    #[test]
    fn weak_settings_vary_but_never_blunder_far() {
        let lines = [line(50, Square::E4), line(30, Square::E3), line(-2000, Square::D2)];
        let strength = Strength::new(1320);
        let picks: Vec<Move> =
            (0..200u64).filter_map(|i| strength.choose(&lines, i.wrapping_mul(0x9e37_79b9_7f4a_7c15))).collect();
        assert!(picks.contains(&lines[0].pv[0]) && picks.contains(&lines[1].pv[0]));
        assert!(!picks.contains(&lines[2].pv[0]));
    }
}
