//! Time management: from the UCI limits, a soft limit (do not start another iteration past it)
//! and a hard limit (stop the search at once) that never reaches past the clock minus the move
//! overhead. Node and depth limits live beside them in `Limits`.

use crate::types::{Color, Move};
use std::time::{Duration, Instant};

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Milliseconds left on White's and Black's clocks.
    pub time_ms: [Option<u64>; 2],
    /// Increment per move in milliseconds for White and Black.
    pub increment_ms: [u64; 2],
    /// Moves until the next time control.
    pub moves_to_go: Option<u32>,
    /// Search exactly this long.
    pub movetime_ms: Option<u64>,
    /// Stop after this depth.
    pub depth: Option<i32>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<i32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Searching on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Consider only these root moves.
    pub search_moves: Vec<Move>,
    /// How many best lines to find (MultiPV); 0 and 1 both mean one.
    pub multipv: usize,
}

impl Limits {
    /// A search to a fixed depth.
    pub fn depth(depth: i32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }
}

/// Soft and hard deadlines for one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Deadlines for `side` under `limits`, keeping `overhead_ms` for the GUI's latency.
    /// Without a clock or `movetime` there are none.
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64, start: Instant) -> TimeManager {
        let (soft, hard) = if let Some(movetime) = limits.movetime_ms {
            let budget = movetime.saturating_sub(overhead_ms).max(1);
            (budget, budget)
        } else if let Some(time) = limits.time_ms[side] {
            let usable = time.saturating_sub(overhead_ms).max(1);
            let increment = limits.increment_ms[side];
            let moves_left = u64::from(limits.moves_to_go.map_or(32, |m| m.clamp(1, 50)));
            let soft = usable / moves_left + increment * 3 / 4;
            // Never more than half of what is left (all but a sliver when the control ends now).
            let cap = if moves_left == 1 { usable * 3 / 4 } else { usable / 2 };
            let hard = (soft * 5).min(cap).max(1);
            (soft.min(hard), hard)
        } else {
            return TimeManager { start, soft: None, hard: None };
        };
        TimeManager { start, soft: Some(Duration::from_millis(soft)), hard: Some(Duration::from_millis(hard)) }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard deadline has passed.
    #[inline]
    pub fn hard_limit_reached(&self) -> bool {
        self.hard.is_some_and(|hard| self.start.elapsed() >= hard)
    }

    /// Whether another iteration should start, with the soft limit scaled by `factor` (above 1
    /// when the best move is unstable, below when it is settled).
    pub fn may_start_iteration(&self, factor: f64) -> bool {
        match self.soft {
            // The next iteration takes about as long as all before it: stop past half the budget.
            Some(soft) => self.start.elapsed().as_secs_f64() < soft.as_secs_f64() * factor * 0.55,
            None => true,
        }
    }

    /// Whether the search has no deadline (infinite, depth, nodes or ponder searches).
    pub fn is_unlimited(&self) -> bool {
        self.hard.is_none()
    }

    /// Restarts the clock with the same budget: on `ponderhit` the search becomes a normal
    /// timed search from that moment.
    pub fn restart_after_ponderhit(&mut self) {
        self.start = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(time: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits { time_ms: [Some(time), Some(time)], increment_ms: [inc, inc], moves_to_go: mtg, ..Limits::default() }
    }

    #[test]
    fn hard_limit_stays_inside_the_clock() {
        for (time, inc, mtg) in [
            (8000, 80, None),
            (1000, 10, None),
            (50, 0, None),
            (3, 0, None),
            (60_000, 0, Some(1)),
            (100, 1000, Some(1)),
        ] {
            let tm = TimeManager::new(&limits(time, inc, mtg), Color::White, 25, Instant::now());
            let hard = tm.hard.map_or(0, |d| d.as_millis() as u64);
            assert!(hard + 25 <= time.max(26), "time {time} inc {inc}: hard {hard}");
            assert!(tm.soft <= tm.hard);
        }
    }

    #[test]
    fn movetime_and_no_clock() {
        let fixed = Limits { movetime_ms: Some(500), ..Limits::default() };
        let tm = TimeManager::new(&fixed, Color::Black, 20, Instant::now());
        assert_eq!(tm.hard, Some(Duration::from_millis(480)));
        assert!(TimeManager::new(&Limits::depth(5), Color::White, 20, Instant::now()).is_unlimited());
    }
}
