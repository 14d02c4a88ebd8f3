//! Time management: from the UCI limits, the game ply and the move overhead, an optimum time
//! (stop deepening past it, scaled by best-move stability, the best move's node share, a falling
//! score and root fail lows) and a maximum (stop at once) that never reaches past the clock minus
//! the move overhead. Node and depth limits live beside them in `Limits`. The shares and factors
//! are named in `pruning.rs`, with every other tuned constant of the search.

use super::pruning::{
    FAIL_LOW_SCALE, MAXIMUM_PER_OPTIMUM, MAXIMUM_SHARE, MAXIMUM_SHARE_LAST_MOVE, MOVES_HORIZON, NODE_SHARE_PIVOT,
    NODE_SHARE_SCALE, OPTIMUM_BASE, OPTIMUM_MAX_SHARE, OPTIMUM_PLY_COEF, OPTIMUM_PLY_EXP, PLAN_MIN_SHARE,
    SCALING_MIN_DEPTH, SCORE_DROP_PER_UNIT, SCORE_DROP_SCALE, STABILITY_SCALE, TIME_SCALE,
};
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
    /// Stop after this many nodes, even inside an iteration (UCI's `go nodes`).
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes are searched: the iteration under way
    /// finishes (unless `nodes` stops it first), so its score is a complete one.
    pub soft_nodes: Option<u64>,
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

/// What the iterations so far say about the position, for scaling the optimum time.
#[derive(Clone, Copy, Debug)]
pub struct IterationStats {
    /// The depth just completed.
    pub depth: i32,
    /// Completed iterations in a row whose best move was the same as this one's (0: it changed).
    pub stable_iterations: u32,
    /// The best move's share of the nodes searched at the root in the last iteration (0..=1).
    pub best_move_node_share: f64,
    /// How far the score fell from the average of the previous iterations (negative: rose).
    pub score_drop: i32,
    /// The last iteration failed low at the root before it finished.
    pub failed_low: bool,
}

impl IterationStats {
    /// The factor on the optimum time: above 1 when the best move is unstable, takes few of
    /// the nodes, the score falls or the root failed low; below 1 when all is settled.
    pub fn time_scale(&self) -> f64 {
        let deep = self.depth >= SCALING_MIN_DEPTH;
        let clamp = |x: f64, (lo, hi): (f64, f64)| x.clamp(lo, hi);
        let last = STABILITY_SCALE.len() - 1;
        let stability = if deep { STABILITY_SCALE[(self.stable_iterations as usize).min(last)] } else { 1.0 };
        let node_share = if deep { clamp(NODE_SHARE_PIVOT - self.best_move_node_share, NODE_SHARE_SCALE) } else { 1.0 };
        let falling = clamp(1.0 + f64::from(self.score_drop) / SCORE_DROP_PER_UNIT, SCORE_DROP_SCALE);
        let fail_low = if self.failed_low { FAIL_LOW_SCALE } else { 1.0 };
        clamp(stability * node_share * falling * fail_low, TIME_SCALE)
    }
}

/// Optimum and maximum time for one search, from the start of the search (or `ponderhit`).
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Deepening stops once this much time, scaled by `IterationStats::time_scale`, has passed.
    optimum: Option<Duration>,
    /// The search stops at once here; never past the clock minus the move overhead.
    maximum: Option<Duration>,
    /// `movetime`: search until the maximum, whatever the iterations say.
    fixed: bool,
}

impl TimeManager {
    /// Times for `side` at game ply `game_ply` under `limits`, keeping `overhead_ms` for the
    /// GUI's latency. Without a clock or `movetime` there are none.
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64, game_ply: u32, start: Instant) -> TimeManager {
        if let Some(movetime) = limits.movetime_ms {
            let budget = Some(Duration::from_millis(movetime.saturating_sub(overhead_ms).max(1)));
            return TimeManager { start, optimum: budget, maximum: budget, fixed: true };
        }
        let Some(time) = limits.time_ms[side] else {
            return TimeManager { start, optimum: None, maximum: None, fixed: false };
        };
        let usable = time.saturating_sub(overhead_ms).max(1) as f64;
        let increment = limits.increment_ms[side] as f64;
        let moves_to_go = limits.moves_to_go.map(|m| u64::from(m.clamp(1, 50)));
        let horizon = moves_to_go.unwrap_or(MOVES_HORIZON);
        // What the clock gives over the horizon, less the overhead of each of those moves; on a
        // short clock that reserve would eat the plan, so it takes at most a share of it.
        let gross = usable + increment * (horizon - 1) as f64;
        let reserve = (overhead_ms * (1 + horizon)) as f64;
        let plan = (gross - reserve).max(gross * PLAN_MIN_SHARE).max(1.0);
        let optimum = match moves_to_go {
            Some(moves) => plan / moves as f64,
            None => {
                let share = OPTIMUM_BASE + OPTIMUM_PLY_COEF * (f64::from(game_ply) + 3.0).powf(OPTIMUM_PLY_EXP);
                plan * share
            }
        };
        let last_move = moves_to_go == Some(1);
        let optimum = optimum.min(usable * if last_move { MAXIMUM_SHARE_LAST_MOVE } else { OPTIMUM_MAX_SHARE });
        let cap = usable * if last_move { MAXIMUM_SHARE_LAST_MOVE } else { MAXIMUM_SHARE };
        let maximum = (optimum * MAXIMUM_PER_OPTIMUM).min(cap).max(1.0);
        let millis = |ms: f64| Some(Duration::from_millis(ms as u64));
        TimeManager { start, optimum: millis(optimum.min(maximum).max(1.0)), maximum: millis(maximum), fixed: false }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the maximum time has passed.
    #[inline]
    pub fn hard_limit_reached(&self) -> bool {
        self.maximum.is_some_and(|maximum| self.start.elapsed() >= maximum)
    }

    /// Whether to stop deepening after an iteration: past the optimum time scaled by what the
    /// iterations say (under `movetime`, only the maximum stops the search).
    pub fn should_stop_deepening(&self, stats: &IterationStats) -> bool {
        match self.optimum {
            Some(optimum) if !self.fixed => {
                self.start.elapsed().as_secs_f64() >= optimum.as_secs_f64() * stats.time_scale()
            }
            _ => false,
        }
    }

    /// Whether the search has no deadline (infinite, depth, nodes or ponder searches).
    pub fn is_unlimited(&self) -> bool {
        self.maximum.is_none()
    }

    /// Restarts the clock at `ponderhit` with the same budget: the search becomes a normal
    /// timed search from that moment.
    pub fn restart_after_ponderhit(&mut self, at: Instant) {
        self.start = at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(time: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits { time_ms: [Some(time), Some(time)], increment_ms: [inc, inc], moves_to_go: mtg, ..Limits::default() }
    }

    #[test]
    fn maximum_stays_inside_the_clock() {
        for (time, inc, mtg) in [
            (8000, 80, None),
            (1000, 10, None),
            (50, 0, None),
            (3, 0, None),
            (60_000, 0, Some(1)),
            (100, 1000, Some(1)),
            (4000, 0, Some(40)),
            (90, 0, Some(3)),
            (500, 0, None),
        ] {
            for ply in [0, 20, 80, 300] {
                let tm = TimeManager::new(&limits(time, inc, mtg), Color::White, 25, ply, Instant::now());
                let maximum = tm.maximum.map_or(0, |d| d.as_millis() as u64);
                assert!(maximum + 25 <= time.max(26), "time {time} inc {inc} mtg {mtg:?}: maximum {maximum}");
                assert!(tm.optimum <= tm.maximum);
            }
        }
    }

    #[test]
    fn short_clocks_still_get_a_real_search() {
        // 0.5 s and 1 s + 0.01 s with the default 30 ms overhead: the first move gets at least
        // 1.5 % of the clock (the overhead reserve once left it 1 ms).
        for (time, inc) in [(500, 0), (1000, 10), (250, 0)] {
            let tm = TimeManager::new(&limits(time, inc, None), Color::White, 30, 0, Instant::now());
            let optimum = tm.optimum.map_or(0, |d| d.as_millis() as u64);
            assert!(optimum * 1000 >= time * 15, "{time}+{inc}: optimum {optimum} ms");
        }
    }

    #[test]
    fn a_repeating_control_is_never_overspent() {
        // 40 moves in 4 s, repeating: each move at its maximum still leaves time for the rest.
        let mut clock = 4000u64;
        for moves_left in (1..=40u32).rev() {
            let tm = TimeManager::new(&limits(clock, 0, Some(moves_left)), Color::White, 30, 80, Instant::now());
            let spent = tm.maximum.map_or(0, |d| d.as_millis() as u64) + 30;
            assert!(spent < clock, "{moves_left} moves left, {clock} ms: {spent}");
            clock -= tm.optimum.map_or(0, |d| d.as_millis() as u64) + 30;
        }
    }

    #[test]
    fn the_middlegame_gets_more_than_the_opening_and_doubt_more_than_certainty() {
        let at = |ply| TimeManager::new(&limits(60_000, 0, None), Color::White, 0, ply, Instant::now()).optimum;
        assert!(at(0) < at(40));
        let stats = |stable_iterations, share, drop, failed_low| IterationStats {
            depth: 12,
            stable_iterations,
            best_move_node_share: share,
            score_drop: drop,
            failed_low,
        };
        let settled = stats(6, 0.9, -20, false).time_scale();
        let unsure = stats(0, 0.3, 60, true).time_scale();
        assert!(settled < 1.0 && unsure > 1.5, "{settled} {unsure}");
        // Shallow iterations do not count stability and node share.
        assert_eq!(IterationStats { depth: 3, ..stats(0, 0.1, 0, false) }.time_scale(), 1.0);
    }

    #[test]
    fn movetime_and_no_clock() {
        let fixed = Limits { movetime_ms: Some(500), ..Limits::default() };
        let tm = TimeManager::new(&fixed, Color::Black, 20, 0, Instant::now());
        assert_eq!(tm.maximum, Some(Duration::from_millis(480)));
        let stats = IterationStats {
            depth: 20,
            stable_iterations: 9,
            best_move_node_share: 1.0,
            score_drop: 0,
            failed_low: false,
        };
        assert!(!tm.should_stop_deepening(&stats), "movetime searches until the maximum");
        assert!(TimeManager::new(&Limits::depth(5), Color::White, 20, 0, Instant::now()).is_unlimited());
    }
}
