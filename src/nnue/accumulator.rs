//! The hidden layer of both perspectives, and the change a move makes to it.

use super::kernels;
use super::{active_features, perspective_feature, white_feature, Network, FILE_FLIP, HIDDEN, INPUTS};
use crate::position::Position;
use crate::types::{Color, Piece};

/// Both perspectives' hidden layers (before the activation), indexed by `Color`.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub(super) values: [[i16; HIDDEN]; 2],
}

/// The pieces a move adds and removes (as White-perspective features). A move adds at most two
/// (castling: king and rook) and removes at most two (a capture: the mover's old square and the
/// captured piece; castling: king and rook). It also says what each perspective sees afterwards
/// (`KingView`), for king-mirrored and king-bucketed nets.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Delta {
    added: [u16; 2],
    removed: [u16; 2],
    added_len: u8,
    removed_len: u8,
    /// By perspective (`Color`), what it sees after the move as `KingView::index` (bucket * 2 +
    /// mirror): always 0 for a net without king views. Plain bytes, as are the fields below: a
    /// `bool` here gives `Delta` a niche that the search's `Pending(Delta)` then packs its tag
    /// into, and the copies of the odd-aligned result cost 3 % of bench's time.
    views: [u8; 2],
    /// 1 when a king's move changed what its perspective sees (across the d/e line, into another
    /// king bucket): the delta is unusable and that accumulator must be recomputed.
    view_changed: u8,
}

impl Delta {
    /// No change (a null move), with default views (a plain net's deltas never have others).
    pub const NONE: Delta =
        Delta { added: [0; 2], removed: [0; 2], added_len: 0, removed_len: 0, views: [0; 2], view_changed: 0 };

    /// What changed from `before` to `after`, one legal move (or a null move) apart, read from the
    /// piece bitboards: castling (Chess960 included), en passant and promotions need no cases.
    /// The kings are read only for a `net` with king views (a plain net's delta costs nothing
    /// more).
    #[inline]
    pub fn between(net: &Network, before: &Position, after: &Position) -> Delta {
        let mut delta = Delta::NONE;
        if net.has_king_views() {
            let views = Color::ALL.map(|color| net.view(after, color));
            delta.views = views.map(|view| view.index() as u8);
            // Only the side that moved can have moved its king.
            let mover = before.side_to_move();
            delta.view_changed = u8::from(net.view(before, mover) != views[mover]);
        }
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

    /// Whether the net this delta was made for can apply it to the parent's accumulator:
    /// always, except after a king's move changed what its side sees (that side's inputs all
    /// changed: recompute).
    #[inline(always)]
    pub fn is_updatable(&self) -> bool {
        self.view_changed == 0
    }

    /// What to XOR into `perspective`'s features: `FILE_FLIP` when the delta's net mirrors that
    /// perspective after the move (the branch-free form of `input_index`'s `mirror`), else 0.
    #[inline(always)]
    fn file_flip(&self, perspective: Color) -> u16 {
        u16::from(self.views[perspective] & 1) * FILE_FLIP
    }

    /// The first row of `perspective`'s king bucket after the move.
    #[inline(always)]
    fn bucket_start(&self, perspective: Color) -> usize {
        usize::from(self.views[perspective] >> 1) * INPUTS
    }
}

impl Accumulator {
    /// All zero: a placeholder until a slot is computed.
    pub(super) const ZERO: Accumulator = Accumulator { values: [[0; HIDDEN]; 2] };

    /// The accumulator of `pos` computed from scratch.
    #[inline]
    pub fn refreshed(net: &Network, pos: &Position) -> Accumulator {
        kernels::run(
            #[inline(always)]
            || Accumulator::refreshed_loops(net, pos),
        )
    }

    /// `refreshed`'s loops, compiled for each kernel.
    #[inline(always)]
    pub(super) fn refreshed_loops(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator { values: [net.feature_bias; 2] };
        let views = Color::ALL.map(|perspective| net.view(pos, perspective));
        for feature in active_features(pos) {
            for perspective in Color::ALL {
                let row = &net.feature_weights[views[perspective].row(feature, perspective)];
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

    /// Writes this accumulator changed by `delta` into `out`, each perspective in one pass over
    /// its rows for the usual moves (a quiet move, a capture, castling), so nothing is copied
    /// first and no value is stored twice. Only for an updatable delta made for `net`.
    #[inline]
    pub fn update_into(&self, net: &Network, delta: &Delta, out: &mut Accumulator) {
        debug_assert!(delta.is_updatable(), "a king changed what its side sees: recompute instead");
        kernels::run(
            #[inline(always)]
            || self.update_loops(net, delta, out),
        )
    }

    /// `update_into`'s loops, compiled for each kernel.
    #[inline(always)]
    pub(super) fn update_loops(&self, net: &Network, delta: &Delta, out: &mut Accumulator) {
        for perspective in Color::ALL {
            let source = &self.values[perspective];
            let target = &mut out.values[perspective];
            let (flip, start) = (delta.file_flip(perspective), delta.bucket_start(perspective));
            let row = |feature: u16| &net.feature_weights[start + perspective_feature(feature ^ flip, perspective)];
            match (delta.added(), delta.removed()) {
                // A quiet move or a promotion.
                (&[a], &[r]) => {
                    let (a, r) = (row(a), row(r));
                    for (i, v) in target.iter_mut().enumerate() {
                        *v = source[i].wrapping_add(a[i]).wrapping_sub(r[i]);
                    }
                }
                // A capture (en passant included).
                (&[a], &[r1, r2]) => {
                    let (a, r1, r2) = (row(a), row(r1), row(r2));
                    for (i, v) in target.iter_mut().enumerate() {
                        *v = source[i].wrapping_add(a[i]).wrapping_sub(r1[i]).wrapping_sub(r2[i]);
                    }
                }
                // Castling.
                (&[a1, a2], &[r1, r2]) => {
                    let (a1, a2, r1, r2) = (row(a1), row(a2), row(r1), row(r2));
                    for (i, v) in target.iter_mut().enumerate() {
                        *v = source[i].wrapping_add(a1[i]).wrapping_add(a2[i]).wrapping_sub(r1[i]).wrapping_sub(r2[i]);
                    }
                }
                (added, removed) => {
                    *target = *source;
                    for &add in added {
                        add_row(target, row(add));
                    }
                    for &remove in removed {
                        sub_row(target, row(remove));
                    }
                }
            }
        }
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
pub(super) fn add_row(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (v, &w) in values.iter_mut().zip(row) {
        *v = v.wrapping_add(w);
    }
}

#[inline(always)]
pub(super) fn sub_row(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (v, &w) in values.iter_mut().zip(row) {
        *v = v.wrapping_sub(w);
    }
}
