//! Every margin, depth limit and divisor of the search's pruning and reductions, named in one
//! place (so a tuner can reach them and a reader can find them), and the late-move reduction.
//! Margins are in centipawns, depths in plies.

use std::sync::OnceLock;

/// Reverse futility pruning: at depth <= this, a static eval this far above beta per ply...
pub const RFP_MAX_DEPTH: i32 = 8;
/// ...(less one ply when improving) is assumed to hold.
pub const RFP_MARGIN: i32 = 75;

/// Razoring: at depth <= this, a static eval this far below alpha per ply asks quiescence.
pub const RAZOR_MAX_DEPTH: i32 = 3;
/// The razoring margin per ply.
pub const RAZOR_MARGIN: i32 = 250;

/// Null move pruning from this depth on.
pub const NMP_MIN_DEPTH: i32 = 3;
/// The null move's reduction: this many plies...
pub const NMP_BASE_REDUCTION: i32 = 3;
/// ...plus one per this many plies of depth...
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// ...plus one per this many centipawns the eval stands above beta...
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// ...but at most this many for the eval.
pub const NMP_EVAL_MAX_REDUCTION: i32 = 3;

/// Internal iterative reduction: a PV or cut node of this depth or more without a TT move
/// searches a ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late-move, futility and SEE pruning of the move loop apply at depth <= this.
pub const MOVE_PRUNING_MAX_DEPTH: i32 = 8;
/// Late-move pruning: quiet moves after (LMP_BASE + depth^2), halved when not improving, are skipped.
pub const LMP_BASE: i32 = 3;
/// Futility pruning of quiet moves: eval + FUTILITY_BASE + FUTILITY_PER_PLY * depth <= alpha...
pub const FUTILITY_BASE: i32 = 100;
/// ...the futility margin per ply...
pub const FUTILITY_PER_PLY: i32 = 90;
/// ...unless the move's history is at least this.
pub const FUTILITY_HISTORY_LIMIT: i32 = 4096;
/// SEE pruning: a quiet move losing more than this per ply is skipped.
pub const SEE_QUIET_MARGIN: i32 = 50;
/// SEE pruning: a capture losing more than this per ply is skipped.
pub const SEE_CAPTURE_MARGIN: i32 = 90;

/// Late-move reductions from this depth on.
pub const LMR_MIN_DEPTH: i32 = 3;
/// The reduction table: LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR...
const LMR_BASE: f64 = 0.8;
/// ...the table's divisor.
const LMR_DIVISOR: f64 = 2.2;
/// One ply less reduction per this much history.
const LMR_HISTORY_DIVISOR: i32 = 6000;

/// The TT's score is not trusted for a cutoff from this halfmove clock on (the fifty-move rule
/// may turn it into a draw below).
pub const TT_CUTOFF_MAX_HALFMOVE: u16 = 90;

/// Quiescence delta pruning: a capture that cannot lift eval + gain + this to alpha is skipped.
pub const DELTA_MARGIN: i32 = 200;

/// Aspiration windows from this depth on...
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// ...start this wide on each side of the last score, and widen by half on each failure.
pub const ASPIRATION_DELTA: i32 = 18;

/// Late-move reductions by depth and move number.
fn reduction_table() -> &'static [[i32; 64]; 64] {
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [[0; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                *r = (LMR_BASE + (depth as f64).ln() * (moves as f64).ln() / LMR_DIVISOR) as i32;
            }
        }
        table
    })
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
        let mut r = reduction_table()[(self.depth as usize).min(63)][self.number.min(63)];
        r += i32::from(!self.pv_node) + i32::from(self.cut_node);
        r -= i32::from(self.improving) + i32::from(self.gives_check) + i32::from(self.refutation);
        r - self.history / LMR_HISTORY_DIVISOR
    }
}
