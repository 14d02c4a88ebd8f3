//! Every tuned constant of the search in one place (so a tuner can reach them and a reader can
//! find them): pruning and reduction margins, depth limits and divisors, the time manager's
//! shares and factors, the tablebase store depth; and the late-move reduction. Margins are in
//! centipawns, depths in plies, time as shares of the clock. The convention: an integer
//! constant that game tuning may move is a `Tunable` (in `tunables!`, read with `.get()`,
//! reached by `tools/spsa.py` as a UCI option in a `tune` build); the rest are plain `const`s,
//! among them the time constants (f64: to tune one, make it a `Tunable` in thousandths first).

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

/// A margin or divisor the game-based tuner (`tools/spsa.py`) can reach. In a normal build it
/// is a constant (`get` returns the default, which the compiler folds in); a build with the
/// `tune` feature declares it as a UCI spin option of the same name and reads it atomically.
pub struct Tunable {
    /// The UCI option's name.
    pub name: &'static str,
    pub default: i32,
    /// The range the option accepts (and the tuner explores).
    pub min: i32,
    pub max: i32,
    #[cfg(feature = "tune")]
    value: AtomicI32,
}

impl Tunable {
    const fn new(name: &'static str, default: i32, min: i32, max: i32) -> Tunable {
        Tunable {
            name,
            default,
            min,
            max,
            #[cfg(feature = "tune")]
            value: AtomicI32::new(default),
        }
    }

    /// The value in use.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        #[cfg(feature = "tune")]
        return self.value.load(Ordering::Relaxed);
        #[cfg(not(feature = "tune"))]
        self.default
    }

    /// Sets the value (clamped into its range) for every search thread.
    #[cfg(feature = "tune")]
    pub fn set(&self, value: i32) {
        self.value.store(value.clamp(self.min, self.max), Ordering::Relaxed);
    }
}

/// Declares each tunable as a static and lists them all in `TUNABLES`.
macro_rules! tunables {
    ($($(#[doc = $doc:literal])* $ident:ident: $name:literal = $default:literal in $min:literal..=$max:literal;)*) => {
        $($(#[doc = $doc])* pub static $ident: Tunable = Tunable::new($name, $default, $min, $max);)*
        /// Every tunable, in declaration order.
        pub static TUNABLES: &[&Tunable] = &[$(&$ident),*];
    };
}

/// Reverse futility pruning at depth <= this (margin: `RFP_MARGIN`).
pub const RFP_MAX_DEPTH: i32 = 8;
/// Razoring at depth <= this (margin: `RAZOR_MARGIN`).
pub const RAZOR_MAX_DEPTH: i32 = 3;

/// Null move pruning from this depth on.
pub const NMP_MIN_DEPTH: i32 = 3;
/// The null move's reduction: this many plies...
pub const NMP_BASE_REDUCTION: i32 = 3;
/// ...plus one per this many plies of depth...
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// ...plus one per `NMP_EVAL_DIVISOR` centipawns the eval stands above beta, but at most this
/// many for the eval.
pub const NMP_EVAL_MAX_REDUCTION: i32 = 3;

/// Internal iterative reduction: a PV or cut node of this depth or more without a TT move
/// searches a ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late-move, futility and SEE pruning of the move loop apply at depth <= this.
pub const MOVE_PRUNING_MAX_DEPTH: i32 = 8;

/// Singular extensions from this depth on...
pub const SE_MIN_DEPTH: i32 = 8;
/// ...when the TT move's entry is at most this many plies shallower than the node.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// The other moves must fail below the TT score less this much per ply for the TT move to be
/// singular.
pub const SE_MARGIN_PER_PLY: i32 = 2;

/// Late-move reductions from this depth on.
pub const LMR_MIN_DEPTH: i32 = 3;

/// The TT's score is not trusted for a cutoff from this halfmove clock on (the fifty-move rule
/// may turn it into a draw below).
pub const TT_CUTOFF_MAX_HALFMOVE: u16 = 90;

/// Aspiration windows from this depth on (width: `ASPIRATION_DELTA`).
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// How much deeper than the node a tablebase result is stored in the TT: it is exact at any depth.
pub const TB_DEPTH_BONUS: i32 = 6;

// Time management (`time.rs`): the plan, the optimum and the maximum, and the optimum's scaling
// after each iteration (docs/time-management.md).

/// Sudden death: the clock is planned as if this many moves were left (the increment counts for
/// each of them).
pub const MOVES_HORIZON: u64 = 50;
/// The move overhead reserved for the moves of the horizon never takes more than this share
/// of the plan away (on a 0.5 s clock, 30 ms for each of 50 moves would leave nothing).
pub const PLAN_MIN_SHARE: f64 = 0.7;
/// The share of that plan spent on a move at game ply p: BASE + PLY_COEF * (p + 3)^PLY_EXP, so
/// more in the middlegame than in the opening...
pub const OPTIMUM_BASE: f64 = 0.020;
/// ...its growth with the ply...
pub const OPTIMUM_PLY_COEF: f64 = 0.0045;
/// ...and the exponent of that growth.
pub const OPTIMUM_PLY_EXP: f64 = 0.45;
/// The optimum never exceeds this share of the clock...
pub const OPTIMUM_MAX_SHARE: f64 = 0.2;
/// ...and the maximum is at most this many optimums...
pub const MAXIMUM_PER_OPTIMUM: f64 = 5.0;
/// ...and at most this share of the clock (the rest is the reserve for the moves after it).
pub const MAXIMUM_SHARE: f64 = 0.4;
/// With `movestogo 1` the maximum may take this share of the clock.
pub const MAXIMUM_SHARE_LAST_MOVE: f64 = 0.9;
/// Best-move stability and node share count from this depth on (shallower ones mean little).
pub const SCALING_MIN_DEPTH: i32 = 6;
/// The optimum's factor for best-move stability, by completed iterations in a row with the same
/// best move (0: it just changed; the last entry for as many or more).
pub const STABILITY_SCALE: [f64; 5] = [1.35, 1.15, 1.0, 0.9, 0.8];
/// The optimum's factor for the best move's share of the root nodes: this less the share...
pub const NODE_SHARE_PIVOT: f64 = 1.55;
/// ...kept within this range.
pub const NODE_SHARE_SCALE: (f64, f64) = (0.6, 1.5);
/// The optimum's factor for a falling score: 1 + the drop in centipawns divided by this...
pub const SCORE_DROP_PER_UNIT: f64 = 200.0;
/// ...kept within this range.
pub const SCORE_DROP_SCALE: (f64, f64) = (0.85, 1.5);
/// The optimum's factor after a root fail low in the iteration.
pub const FAIL_LOW_SCALE: f64 = 1.25;
/// The product of the factors stays within this range.
pub const TIME_SCALE: (f64, f64) = (0.35, 3.0);

tunables! {
    /// Reverse futility pruning: a static eval this far above beta per ply of depth (less one
    /// ply when improving) is assumed to hold.
    RFP_MARGIN: "RfpMargin" = 75 in 20..=200;
    /// Razoring: a static eval this far below alpha per ply asks quiescence.
    RAZOR_MARGIN: "RazorMargin" = 250 in 80..=500;
    /// The null move is reduced one ply more per this many centipawns the eval stands above beta.
    NMP_EVAL_DIVISOR: "NmpEvalDivisor" = 200 in 50..=500;
    /// Late-move pruning: quiet moves after (LMP_BASE + depth^2), halved when not improving, are
    /// skipped.
    LMP_BASE: "LmpBase" = 3 in 0..=12;
    /// Futility pruning of quiet moves: eval + FUTILITY_BASE + FUTILITY_PER_PLY * depth <= alpha...
    FUTILITY_BASE: "FutilityBase" = 100 in 0..=300;
    /// ...the futility margin per ply...
    FUTILITY_PER_PLY: "FutilityPerPly" = 90 in 30..=250;
    /// ...unless the move's history is at least this.
    FUTILITY_HISTORY_LIMIT: "FutilityHistoryLimit" = 4096 in 0..=16384;
    /// SEE pruning: a quiet move losing more than this per ply is skipped.
    SEE_QUIET_MARGIN: "SeeQuietMargin" = 50 in 10..=150;
    /// SEE pruning: a capture losing more than this per ply is skipped.
    SEE_CAPTURE_MARGIN: "SeeCaptureMargin" = 90 in 20..=250;
    /// The reduction table: LMR_BASE / 100 + ln(depth) * ln(moves) / (LMR_DIVISOR / 100)...
    LMR_BASE: "LmrBase" = 80 in 0..=200;
    /// ...the table's divisor, in hundredths.
    LMR_DIVISOR: "LmrDivisor" = 220 in 120..=400;
    /// One ply less reduction per this much history.
    LMR_HISTORY_DIVISOR: "LmrHistoryDivisor" = 6000 in 2000..=16000;
    /// Quiescence delta pruning: a capture that cannot lift eval + gain + this to alpha is skipped.
    DELTA_MARGIN: "DeltaMargin" = 200 in 50..=500;
    /// Aspiration windows start this wide on each side of the last score and widen by half on
    /// each failure.
    ASPIRATION_DELTA: "AspirationDelta" = 18 in 5..=60;
}

/// The late-move reduction of move number `moves` at `depth` (both from 1), before adjustments.
fn table_reduction(depth: usize, moves: usize) -> i32 {
    let base = f64::from(LMR_BASE.get()) / 100.0;
    let divisor = f64::from(LMR_DIVISOR.get()) / 100.0;
    (base + (depth as f64).ln() * (moves as f64).ln() / divisor) as i32
}

/// `table_reduction` for depths and move numbers up to 63, computed once. A tuning build
/// computes each reduction afresh instead, as its parameters change between games.
fn reduction(depth: usize, moves: usize) -> i32 {
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    if cfg!(feature = "tune") {
        return table_reduction(depth.max(1), moves.max(1));
    }
    let table = TABLE.get_or_init(|| {
        let mut table = [[0; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                *r = table_reduction(depth, moves);
            }
        }
        table
    });
    table[depth][moves]
}

/// What the late-move reduction of one move depends on.
pub struct LateMove {
    pub depth: i32,
    /// The move's number at its node, counting from 1.
    pub number: usize,
    pub pv_node: bool,
    pub cut_node: bool,
    pub improving: bool,
    pub gives_check: bool,
    /// The quiet move's history score (0 for captures).
    pub history: i32,
    /// A killer or the counter move.
    pub refutation: bool,
}

impl LateMove {
    /// The reduction in plies: the table value, more at non-PV and expected cut nodes, less
    /// when improving, for checks, for killers and counter moves and for well-scored quiets.
    pub fn reduction(&self) -> i32 {
        let mut r = reduction((self.depth as usize).min(63), self.number.min(63));
        r += i32::from(!self.pv_node) + i32::from(self.cut_node);
        r -= i32::from(self.improving) + i32::from(self.gives_check) + i32::from(self.refutation);
        r - self.history / LMR_HISTORY_DIVISOR.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tunables_have_unique_names_and_defaults_in_range() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert_eq!(t.get(), t.default, "{}", t.name);
            assert!(TUNABLES[..i].iter().all(|u| !u.name.eq_ignore_ascii_case(t.name)), "{}", t.name);
        }
        assert_eq!(TUNABLES.len(), 14);
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        assert_eq!(reduction(1, 1), 0);
        assert_eq!(reduction(63, 63), table_reduction(63, 63));
        for depth in 1..63 {
            for moves in 1..63 {
                assert!(reduction(depth + 1, moves) >= reduction(depth, moves));
                assert!(reduction(depth, moves + 1) >= reduction(depth, moves));
            }
        }
        // 0.8 + ln(10) * ln(20) / 2.2 = 3.94
        assert_eq!(reduction(10, 20), 3);
    }
}
