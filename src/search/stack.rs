//! The search stack: what each ply of the current path remembers for the plies below it
//! (static eval for `improving`, killers, the move played for continuation history). Split
//! points copy it, so a helper continues the owner's path.

use super::history::PieceTo;
use crate::types::Move;

/// Per-ply search state.
#[derive(Clone, Copy, Default)]
pub struct Ply {
    /// The static evaluation (`NO_EVAL` in check).
    pub static_eval: i32,
    pub killers: [Move; 2],
    /// The move made from this ply, as (piece, to), for continuation history below it.
    pub played: Option<PieceTo>,
    /// Whether the move made from this ply is a null move.
    pub null_move: bool,
    /// The move a singular-extension search at this ply leaves out (`Move::NULL`: none).
    pub excluded: Move,
}
