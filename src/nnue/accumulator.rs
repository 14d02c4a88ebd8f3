//! The hidden layer of both perspectives, and the change a move makes to it.

use super::{active_features, perspective_feature, white_feature, Network, HIDDEN};
use crate::position::Position;
use crate::types::{Color, Piece};

/// Both perspectives' hidden layers (before the activation), indexed by `Color`.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Accumulator {
    values: [[i16; HIDDEN]; 2],
}

/// The pieces a move adds and removes (as White-perspective features). A move adds at most two
/// (castling: king and rook) and removes at most two (a capture: the mover's old square and the
/// captured piece; castling: king and rook).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Delta {
    added: [u16; 2],
    removed: [u16; 2],
    added_len: u8,
    removed_len: u8,
}

impl Delta {
    /// No change (a null move).
    pub const NONE: Delta = Delta { added: [0; 2], removed: [0; 2], added_len: 0, removed_len: 0 };

    /// What changed from `before` to `after`, one legal move (or a null move) apart, read from the
    /// piece bitboards: castling (Chess960 included), en passant and promotions need no cases.
    #[inline]
    pub fn between(before: &Position, after: &Position) -> Delta {
        let mut delta = Delta::NONE;
        for color in Color::ALL {
            // A side whose squares did not change has no piece that changed.
            if before.color(color) == after.color(color) {
                continue;
            }
            for piece in Piece::ALL {
                let old = before.pieces(color, piece);
                let new = after.pieces(color, piece);
                for sq in new & !old {
                    delta.added[usize::from(delta.added_len)] = white_feature(color, piece, sq);
                    delta.added_len += 1;
                }
                for sq in old & !new {
                    delta.removed[usize::from(delta.removed_len)] = white_feature(color, piece, sq);
                    delta.removed_len += 1;
                }
            }
        }
        delta
    }

    fn added(&self) -> &[u16] {
        &self.added[..usize::from(self.added_len)]
    }

    fn removed(&self) -> &[u16] {
        &self.removed[..usize::from(self.removed_len)]
    }
}

impl Accumulator {
    /// All zero: a placeholder until a slot is computed.
    pub(super) const ZERO: Accumulator = Accumulator { values: [[0; HIDDEN]; 2] };

    /// The accumulator of `pos` computed from scratch.
    pub fn refreshed(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator { values: [net.feature_bias; 2] };
        for feature in active_features(pos) {
            for perspective in Color::ALL {
                let row = &net.feature_weights[perspective_feature(feature, perspective)];
                add_row(&mut acc.values[perspective], row);
            }
        }
        acc
    }

    /// `perspective`'s hidden values.
    #[inline(always)]
    pub fn values(&self, perspective: Color) -> &[i16; HIDDEN] {
        &self.values[perspective]
    }

    /// This accumulator changed by `delta`.
    #[inline]
    pub fn updated(&self, net: &Network, delta: &Delta) -> Accumulator {
        let mut next = *self;
        for perspective in Color::ALL {
            let values = &mut next.values[perspective];
            match (delta.added(), delta.removed()) {
                ([add], [remove]) => {
                    let add = &net.feature_weights[perspective_feature(*add, perspective)];
                    let remove = &net.feature_weights[perspective_feature(*remove, perspective)];
                    for ((v, &a), &r) in values.iter_mut().zip(add).zip(remove) {
                        *v = v.wrapping_add(a).wrapping_sub(r);
                    }
                }
                (added, removed) => {
                    for &add in added {
                        add_row(values, &net.feature_weights[perspective_feature(add, perspective)]);
                    }
                    for &remove in removed {
                        sub_row(values, &net.feature_weights[perspective_feature(remove, perspective)]);
                    }
                }
            }
        }
        next
    }
}

impl PartialEq for Accumulator {
    fn eq(&self, other: &Accumulator) -> bool {
        self.values == other.values
    }
}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Accumulator {{ white: {:?}, black: {:?} }}", &self.values[0][..4], &self.values[1][..4])
    }
}

#[inline(always)]
fn add_row(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (v, &w) in values.iter_mut().zip(row) {
        *v = v.wrapping_add(w);
    }
}

#[inline(always)]
fn sub_row(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (v, &w) in values.iter_mut().zip(row) {
        *v = v.wrapping_sub(w);
    }
}
