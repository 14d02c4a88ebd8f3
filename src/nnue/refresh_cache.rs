//! The accumulator cache (a "Finny table"): where the search must compute an accumulator
//! without a parent to update (the root, a split point a helper joins, a king whose move
//! changed what its side sees), it starts from the last accumulator computed for the same
//! perspective and king view (`KingView`: bucket and side) instead of from the biases, and adds or subtracts only the pieces
//! that differ. Two positions of one search differ by a few pieces, where a computation from
//! scratch adds a row for every piece on the board.

use super::accumulator::{add_row, sub_row};
use super::kernels;
use super::{white_feature, Accumulator, Network, HIDDEN, MAX_KING_BUCKETS};
use crate::position::Position;
use crate::types::{Bitboard, Color, Piece};

/// One perspective's hidden values for one king view, and the pieces they count.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Entry {
    values: [i16; HIDDEN],
    /// By colour, then piece: empty (and `values` unset) until first used, as `new` leaves them.
    pieces: [[Bitboard; 6]; 2],
    /// Whether `values` holds the biases plus `pieces`' rows.
    filled: bool,
}

/// The cache of one search thread, for one network: entries are valid only for the net whose
/// rows they summed, so a cache must not be shared between nets (each `AccumulatorStack` has
/// its own, and a stack serves one net).
pub struct RefreshCache {
    /// By perspective, then king view (`KingView::index`: always 0 for a plain net).
    entries: Box<[[Entry; VIEWS]; 2]>,
}

/// The king views a net may have: each king bucket, mirrored or not.
const VIEWS: usize = 2 * MAX_KING_BUCKETS;

impl RefreshCache {
    /// An empty cache: each entry is filled from the biases the first time it is used.
    pub fn new() -> RefreshCache {
        let empty = Entry { values: [0; HIDDEN], pieces: [[Bitboard::EMPTY; 6]; 2], filled: false };
        RefreshCache { entries: Box::new([[empty; VIEWS]; 2]) }
    }

    /// The accumulator of `pos` (equal to `Accumulator::refreshed(net, pos)`), each perspective
    /// brought from its cached entry to `pos`'s pieces, which the entry then holds.
    #[inline]
    pub fn refreshed(&mut self, net: &Network, pos: &Position) -> Accumulator {
        kernels::run(
            #[inline(always)]
            || self.refreshed_loops(net, pos),
        )
    }

    /// `refreshed`'s loops, compiled for each kernel.
    #[inline(always)]
    pub(super) fn refreshed_loops(&mut self, net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::ZERO;
        for perspective in Color::ALL {
            let view = net.view(pos, perspective);
            let entry = &mut self.entries[perspective][view.index()];
            if !entry.filled {
                entry.values = net.feature_bias;
                entry.filled = true;
            }
            for color in Color::ALL {
                for piece in Piece::ALL {
                    let row = |sq| &net.feature_weights[view.row(white_feature(color, piece, sq), perspective)];
                    let cached = &mut entry.pieces[color][piece.index()];
                    let now = pos.pieces(color, piece);
                    for sq in now & !*cached {
                        add_row(&mut entry.values, row(sq));
                    }
                    for sq in *cached & !now {
                        sub_row(&mut entry.values, row(sq));
                    }
                    *cached = now;
                }
            }
            acc.values[perspective] = entry.values;
        }
        acc
    }
}

impl Default for RefreshCache {
    fn default() -> RefreshCache {
        RefreshCache::new()
    }
}
