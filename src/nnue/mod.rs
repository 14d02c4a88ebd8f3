//! The learned evaluation: an efficiently updatable network (NNUE), `(768 -> HIDDEN) x 2 -> 1`
//! with SCReLU and optionally several output layers chosen by the number of pieces on the board
//! (output buckets), trained on Springer's own games (`springer train`, src/train).
//!
//! Inputs are one-hot (colour relative to the perspective, piece, square) features, 768 per
//! perspective; Black's perspective sees the board flipped. In a king-mirrored net
//! (`Network::king_mirror`) each perspective also sees the board mirrored left to right while
//! its own king stands on files e-h, so the net learns each pattern once for both wings. A net
//! with king buckets (`KingBuckets`) has one set of 768 input rows per bucket of its own king's
//! square, so a piece can weigh differently beside a castled king and an exposed one. A king
//! move that changes what its side sees (across the d/e line, into another bucket) then
//! recomputes that accumulator. Each perspective's hidden layer is an accumulator of `i16`s
//! that a move changes by adding and subtracting a few weight rows (`Delta`). Where there is no
//! parent to update (the root, after a split, such a king move) the search starts from the
//! thread's `RefreshCache` of the last accumulator computed for the same perspective and king
//! view (`KingView`), so it adds only the pieces that differ. The output layer
//! squares the clipped accumulator values (SCReLU) and is computed in integer arithmetic; plain
//! loops that LLVM vectorises for the build's target (AVX2 or AVX-512 with the default
//! `target-cpu=native`, NEON on aarch64, SSE2 in `make portable`) or, in a `runtime-dispatch`
//! build, for the processor's widest vectors (`kernels`).
//!
//! Quantisation (the float net's weights times these): feature weights and biases by `QA`,
//! output weights by `QB`, the output bias by `QA * QB`. The float net's output times `SCALE`
//! is centipawns.

mod accumulator;
mod file;
pub mod kernels;
mod refresh_cache;
mod stack;
#[cfg(test)]
mod tests;

pub use accumulator::{Accumulator, Delta};
pub use file::{
    encode_net, net_bytes, readable_buckets, Layout, NetError, BUCKETED_NET_MAGIC, MAX_BUCKETS, MIRRORED_NET_MAGIC,
    NET_MAGIC,
};
pub use refresh_cache::RefreshCache;
pub use stack::AccumulatorStack;

use crate::position::Position;
use crate::types::{Color, Piece, Square};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, RwLock};

/// Hidden neurons per perspective: the embedded net's, read from its header when the binary is
/// built, so a wider net ships by replacing `nets/default.nnue` (or naming it in `make
/// EVALFILE=...`) alone.
pub const HIDDEN: usize = file::layout_of(EMBEDDED).hidden;
/// Input features per perspective: 2 colours x 6 pieces x 64 squares.
pub const INPUTS: usize = 768;
/// The scale of the feature weights and biases (and the SCReLU clip).
pub const QA: i32 = 255;
/// The scale of the output weights.
pub const QB: i32 = 128;
/// Centipawns per unit of the float net's output.
pub const SCALE: i32 = 400;

/// The network shipped in the binary (see `nets/README.md` for its data and training): the file
/// build.rs names, `nets/default.nnue` unless `SPRINGER_EVALFILE` (`make EVALFILE=...`) is set.
const EMBEDDED: &[u8] = include_bytes!(env!("SPRINGER_NET_FILE"));

const _: () = assert!(HIDDEN > 0 && HIDDEN.is_multiple_of(16), "the hidden size must be a multiple of 16");
const _: () = assert!(
    EMBEDDED.len() == net_bytes(file::layout_of(EMBEDDED)),
    "the embedded net (nets/default.nnue or EVALFILE) has the wrong size for its header"
);

/// The king buckets of a net: for each square of a perspective's own king, seen from that
/// perspective (flipped for Black, and mirrored to files a-d first in a king-mirrored net),
/// which of the net's sets of `INPUTS` rows that perspective reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingBuckets(pub [u8; 64]);

/// The most king buckets a net may have.
pub const MAX_KING_BUCKETS: usize = 8;

impl KingBuckets {
    /// One bucket: every square reads the same rows.
    pub const NONE: KingBuckets = KingBuckets([0; 64]);

    /// Four buckets, the same on both wings (so a king-mirrored net reads only files a-d): on
    /// the first rank the files by the corners (a-b, g-h), then the centre files (c-f); the
    /// second rank; ranks 3-8. Kings spend most of a game on the first two ranks, where a
    /// castled king and one still in the centre want different shelters.
    #[rustfmt::skip]
    pub const FOUR: KingBuckets = KingBuckets([
        0, 0, 1, 1, 1, 1, 0, 0,
        2, 2, 2, 2, 2, 2, 2, 2,
        3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3,
    ]);

    /// How many buckets: the largest entry plus one.
    pub const fn count(&self) -> usize {
        let mut largest = 0;
        let mut i = 0;
        while i < 64 {
            if self.0[i] > largest {
                largest = self.0[i];
            }
            i += 1;
        }
        largest as usize + 1
    }

    /// The bucket of a king on `square` of its own perspective's board.
    #[inline(always)]
    pub fn of(&self, square: usize) -> usize {
        usize::from(self.0[square])
    }
}

/// What one perspective sees: which king bucket's rows, and whether the board is mirrored left
/// to right. It changes only with that perspective's own king.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KingView {
    pub bucket: u8,
    pub mirror: bool,
}

impl KingView {
    /// A small number that names the view, for tables indexed by it: `bucket * 2 + mirror`.
    #[inline(always)]
    pub fn index(self) -> usize {
        usize::from(self.bucket) * 2 + usize::from(self.mirror)
    }
    /// The input row of a White-perspective feature for `perspective` seeing this view: its
    /// bucket's `INPUTS` rows, the board mirrored first when `mirror`.
    #[inline(always)]
    pub fn row(self, white: u16, perspective: Color) -> usize {
        usize::from(self.bucket) * INPUTS + input_index(white, perspective, self.mirror)
    }
}

/// How a net's inputs are arranged: king mirroring and king buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inputs {
    /// Each perspective sees the board mirrored left to right when its own king stands on files
    /// e-h (`input_index`).
    pub king_mirror: bool,
    pub king_buckets: KingBuckets,
}

impl Inputs {
    /// Neither king mirroring nor king buckets.
    pub const PLAIN: Inputs = Inputs { king_mirror: false, king_buckets: KingBuckets::NONE };

    /// What `perspective` sees with its own king on `king`.
    #[inline(always)]
    pub fn king_view(&self, king: Square, perspective: Color) -> KingView {
        let mirror = self.king_mirror && mirrors(king);
        let own = match perspective {
            Color::White => king as usize,
            Color::Black => king as usize ^ 56,
        };
        let square = if mirror { own ^ usize::from(FILE_FLIP) } else { own };
        KingView { bucket: self.king_buckets.of(square) as u8, mirror }
    }
}

/// The quantised network.
#[derive(Clone)]
pub struct Network {
    /// One row of `HIDDEN` weights per input feature, `INPUTS` rows per king bucket.
    pub(crate) feature_weights: Box<[[i16; HIDDEN]]>,
    pub(crate) feature_bias: [i16; HIDDEN],
    /// One output layer per bucket (`output_bucket`), at least one.
    pub(crate) output_layers: Vec<OutputLayer>,
    /// King mirroring and king buckets.
    inputs: Inputs,
    /// By perspective, then its king's square: what it sees (`Inputs::king_view`), one lookup
    /// per king in the search's hot path.
    king_views: [[KingView; 64]; 2],
    /// Whether `inputs` is anything but plain: what a perspective sees depends on its king.
    has_king_views: bool,
}

/// The output layer of one bucket.
#[derive(Clone)]
pub struct OutputLayer {
    /// `[0]` for the side to move's accumulator, `[1]` for the other side's.
    pub(crate) weights: [[i16; HIDDEN]; 2],
    pub(crate) bias: i32,
}

/// The output bucket of a position with `pieces` pieces on the board (kings included) in a net
/// of `buckets` output layers: the 31 piece counts from 2 to 32 split into `buckets` ranges as
/// even as can be, so 8 buckets are 2-5, 6-9, ..., 26-29 and 30-32 pieces.
#[inline(always)]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    pieces.saturating_sub(2).min(30) * buckets / 31
}

/// The feature of `color`'s `piece` on `square`, from White's perspective: `(colour * 6 + piece)
/// * 64 + square`. `perspective_feature` turns it into Black's.
#[inline(always)]
pub fn white_feature(color: Color, piece: Piece, square: Square) -> u16 {
    ((color.index() * 6 + piece.index()) * 64 + square as usize) as u16
}

/// A White-perspective feature seen from `perspective`: Black sees the colours swapped and the
/// board flipped.
#[inline(always)]
pub fn perspective_feature(white: u16, perspective: Color) -> usize {
    match perspective {
        Color::White => white as usize,
        Color::Black => {
            let flipped = (white ^ 56) as usize;
            if flipped >= INPUTS / 2 {
                flipped - INPUTS / 2
            } else {
                flipped + INPUTS / 2
            }
        }
    }
}

/// Whether a perspective whose king stands on `king` sees the board mirrored left to right in a
/// king-mirrored net: files e-h.
#[inline(always)]
pub fn mirrors(king: Square) -> bool {
    king.file().index() >= 4
}

/// XOR-ed into a feature, swaps its file a-h (a feature's file is its low 3 bits, which the flip
/// to Black's view leaves alone): the left-right mirror of king-mirrored nets.
pub(crate) const FILE_FLIP: u16 = 7;

/// The input row of a White-perspective feature for `perspective`, the board mirrored left to
/// right first when `mirror`.
#[inline(always)]
pub fn input_index(white: u16, perspective: Color, mirror: bool) -> usize {
    perspective_feature(if mirror { white ^ FILE_FLIP } else { white }, perspective)
}

/// Every piece of `pos` as a White-perspective feature.
pub fn active_features(pos: &Position) -> impl Iterator<Item = u16> + '_ {
    Color::ALL.into_iter().flat_map(move |color| {
        Piece::ALL
            .into_iter()
            .flat_map(move |piece| pos.pieces(color, piece).into_iter().map(move |sq| white_feature(color, piece, sq)))
    })
}

impl Network {
    /// A network of `buckets` output layers with every weight zero (its output is 0), no king
    /// mirroring and no king buckets: a base for tests and the file reader.
    pub fn zeroed(buckets: usize) -> Network {
        Network::zeroed_with(Inputs::PLAIN, buckets)
    }

    /// A network with every weight zero, its inputs arranged as `inputs` says.
    pub fn zeroed_with(inputs: Inputs, buckets: usize) -> Network {
        Network {
            feature_weights: vec![[0i16; HIDDEN]; INPUTS * inputs.king_buckets.count()].into_boxed_slice(),
            feature_bias: [0; HIDDEN],
            output_layers: vec![OutputLayer { weights: [[0; HIDDEN]; 2], bias: 0 }; buckets.max(1)],
            inputs,
            king_views: Color::ALL.map(|perspective| {
                std::array::from_fn(|square| inputs.king_view(Square::from_index(square as u8), perspective))
            }),
            has_king_views: inputs != Inputs::PLAIN,
        }
    }

    /// How the inputs are arranged.
    pub fn inputs(&self) -> Inputs {
        self.inputs
    }

    /// Whether what a perspective sees depends on its king: a king-mirrored or king-bucketed
    /// net. A plain net's deltas and refreshes skip the kings.
    #[inline(always)]
    pub fn has_king_views(&self) -> bool {
        self.has_king_views
    }

    /// What `perspective` sees with its own king on `king`.
    #[inline(always)]
    pub fn king_view(&self, king: Square, perspective: Color) -> KingView {
        self.king_views[perspective][king as usize]
    }

    /// What `perspective` sees in `pos`.
    #[inline(always)]
    pub fn view(&self, pos: &Position, perspective: Color) -> KingView {
        self.king_view(pos.king_square(perspective), perspective)
    }

    /// The number of output layers.
    pub fn buckets(&self) -> usize {
        self.output_layers.len()
    }

    /// The network shipped in the binary.
    pub fn embedded() -> Network {
        Network::from_bytes(EMBEDDED).expect("the embedded net is checked at compile time and by tests")
    }

    /// The evaluation of `pos` in centipawns for the side to move, from its accumulator `acc`
    /// (the position chooses the output bucket and the perspectives' order).
    #[inline]
    pub fn output(&self, acc: &Accumulator, pos: &Position) -> i32 {
        kernels::run(
            #[inline(always)]
            || self.output_loops(acc, pos),
        )
    }

    /// `output`'s loops, compiled for each kernel.
    #[inline(always)]
    pub(super) fn output_loops(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let layer = &self.output_layers[output_bucket(pos.occupied().count() as usize, self.buckets())];
        let side_to_move = pos.side_to_move();
        let ours = screlu_dot(acc.values(side_to_move), &layer.weights[0]);
        let theirs = screlu_dot(acc.values(!side_to_move), &layer.weights[1]);
        let sum = ours + theirs + i64::from(layer.bias);
        let limit = i64::from(NET_SCORE_LIMIT);
        (sum * i64::from(SCALE) / i64::from(QA * QB)).clamp(-limit, limit) as i32
    }

    /// The evaluation of `pos` from a fresh accumulator (what the search's incremental
    /// accumulators must always agree with).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&Accumulator::refreshed(self, pos), pos)
    }
}

/// The largest output weight a net may have: training clips them to +-1.98, so |w| <= 254, and
/// the loader refuses more (`screlu_dot`'s `i32` sums count on it).
pub(super) const MAX_OUTPUT_WEIGHT: i32 = 254;

/// Terms of `screlu_dot` summed in one `i32`: each is at most 255^2 * 254 = 16,516,350, so 128 of
/// them stay below 2^31.
const SCRELU_I32_TERMS: usize = 128;
const _: () = assert!(SCRELU_I32_TERMS as i64 * (QA * QA) as i64 * MAX_OUTPUT_WEIGHT as i64 <= i32::MAX as i64);

/// The most a net's score may say, either way: any net loaded, whatever its output bias, scores
/// below the tablebase and mate scores (the embedded net stays within about +-10,000).
pub const NET_SCORE_LIMIT: i32 = 20_000;

/// `sum(clamp(v, 0, QA)^2 * w) / QA` over one perspective, in `i32` sums of
/// `SCRELU_I32_TERMS` terms (each divided by `QA` before they are added), so any width is exact
/// for the vectorised `i32` arithmetic. At 128 neurons this is one sum.
#[inline(always)]
fn screlu_dot(values: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i64 {
    let mut total = 0i64;
    for (values, weights) in values.chunks(SCRELU_I32_TERMS).zip(weights.chunks(SCRELU_I32_TERMS)) {
        let mut sum = 0i32;
        for (&v, &w) in values.iter().zip(weights) {
            let clipped = i32::from(v).clamp(0, QA);
            sum += clipped * clipped * i32::from(w);
        }
        total += i64::from(sum / QA);
    }
    total
}

/// The network every new search uses: the embedded one until `EvalFile` loads another.
static CURRENT: LazyLock<RwLock<Arc<Network>>> = LazyLock::new(|| RwLock::new(Arc::new(Network::embedded())));

/// The network in use (searches take it once, at their start).
pub fn current() -> Arc<Network> {
    CURRENT.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Makes `net` the network of every later search.
pub fn set_current(net: Network) {
    *CURRENT.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(net);
}

/// Whether searches evaluate with the network (`UseNNUE`, on by default since net-d beat the
/// hand-crafted evaluation, docs/nnue.md) or the hand-crafted evaluation.
static ENABLED: AtomicBool = AtomicBool::new(true);

/// The network a new search evaluates with, `None` for the hand-crafted evaluation.
pub fn for_search() -> Option<Arc<Network>> {
    enabled().then(current)
}

/// Whether later searches evaluate with the network.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Chooses the network (true) or the hand-crafted evaluation for later searches.
pub fn set_enabled(enabled: bool) {
    ENABLED.store(enabled, Ordering::Relaxed);
}

/// Back to the embedded network.
pub fn reset_current() {
    set_current(Network::embedded());
}

#[cfg(test)]
mod unit_tests {
    use super::*;

    #[test]
    fn black_sees_the_mirrored_board() {
        let white = white_feature(Color::White, Piece::Knight, Square::G1);
        let black = white_feature(Color::Black, Piece::Knight, Square::G8);
        assert_eq!(perspective_feature(white, Color::Black), black as usize);
        assert_eq!(perspective_feature(black, Color::Black), white as usize);
        assert_eq!(perspective_feature(white, Color::White), white as usize);
    }

    #[test]
    fn embedded_net_loads() {
        let net = Network::embedded();
        let start = net.evaluate(&Position::startpos());
        assert!(start.abs() < 100, "start position scored {start}");
    }
}
