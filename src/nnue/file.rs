//! The net file. `SPRNNUE1` (one output layer): the magic, the hidden size (u32), then
//! little-endian `i16`s: the feature weights (`INPUTS` rows of `HIDDEN`), the feature biases
//! (`HIDDEN`), the output weights (side to move's `HIDDEN`, then the other side's), and the output
//! bias as an `i32`. `SPRNNUE2` (output buckets): the magic, the hidden size and the bucket count
//! (u32 each), the same feature layer, each bucket's output weights in bucket order, then each
//! bucket's `i32` bias. `SPRNNUE3` (arranged inputs, `Inputs`): as `SPRNNUE2` with a fourth `u32`
//! of flags after the bucket count: bit 0 king mirroring; bit 1 king buckets, whose 64-byte map
//! (`KingBuckets`, by the king's square a1..h8) follows the flags, and whose feature layer has
//! `INPUTS` rows per king bucket, bucket by bucket. A build reads nets of its own `HIDDEN`, the
//! embedded net's (`src/nnue/mod.rs`), with any bucket count up to `MAX_BUCKETS` and up to
//! `MAX_KING_BUCKETS` king buckets; the trainer writes any width.

use super::{Inputs, KingBuckets, Network, OutputLayer, HIDDEN, INPUTS, MAX_KING_BUCKETS, MAX_OUTPUT_WEIGHT};
use std::fmt;

/// The first bytes of a net with one output layer.
pub const NET_MAGIC: &[u8; 8] = b"SPRNNUE1";
/// The first bytes of a net with output buckets.
pub const BUCKETED_NET_MAGIC: &[u8; 8] = b"SPRNNUE2";
/// The first bytes of a net with king-mirrored inputs or king buckets (and any number of output
/// buckets).
pub const MIRRORED_NET_MAGIC: &[u8; 8] = b"SPRNNUE3";
/// The flag bit of king-mirrored inputs in a `SPRNNUE3` header.
const KING_MIRROR_FLAG: u32 = 1;
/// The flag bit of king buckets in a `SPRNNUE3` header: their map follows the flags.
const KING_BUCKETS_FLAG: u32 = 2;
/// Where a `SPRNNUE3` header's flags start.
const FLAGS_AT: usize = 16;

/// What a net file's header gives: the shape of the net.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Output layers (`output_bucket`).
    pub buckets: usize,
    /// King mirroring and king buckets.
    pub inputs: Inputs,
}

/// The most output buckets a net may have (one per piece count from 2 to 32 would be 31).
pub const MAX_BUCKETS: usize = 16;

/// Whether a net of `buckets` output layers can be read (and so may be trained).
pub const fn readable_buckets(buckets: usize) -> bool {
    buckets >= 1 && buckets <= MAX_BUCKETS
}

/// Whether a net of `inputs` needs the `SPRNNUE3` header.
const fn has_flags(inputs: &Inputs) -> bool {
    inputs.king_mirror || has_king_buckets(inputs)
}

/// Whether `inputs` has more than one king bucket.
const fn has_king_buckets(inputs: &Inputs) -> bool {
    inputs.king_buckets.count() > 1
}

/// The header's size: the magic, the hidden size, (bucketed and `SPRNNUE3` nets) the bucket
/// count and (`SPRNNUE3`) the flags and the king buckets' map.
const fn header_bytes(layout: Layout) -> usize {
    if has_king_buckets(&layout.inputs) {
        FLAGS_AT + 4 + 64
    } else if layout.inputs.king_mirror {
        FLAGS_AT + 4
    } else if layout.buckets == 1 {
        12
    } else {
        16
    }
}

/// The size of a net file of `layout`.
pub const fn net_bytes(layout: Layout) -> usize {
    let (hidden, buckets) = (layout.hidden, layout.buckets);
    let rows = INPUTS * layout.inputs.king_buckets.count();
    header_bytes(layout) + 2 * (rows * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

/// Whether `bytes` starts with `magic`.
const fn starts_with(bytes: &[u8], magic: &[u8; 8]) -> bool {
    let mut i = 0;
    while i < magic.len() {
        if bytes[i] != magic[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A net file's header, or why it is not a net's.
const fn read_header(bytes: &[u8]) -> Result<Layout, NetError> {
    let too_short = NetError::WrongSize(bytes.len(), 0);
    if bytes.len() < NET_MAGIC.len() {
        return Err(too_short);
    }
    let (plain, bucketed, mirrored) =
        (starts_with(bytes, NET_MAGIC), starts_with(bytes, BUCKETED_NET_MAGIC), starts_with(bytes, MIRRORED_NET_MAGIC));
    if !(plain || bucketed || mirrored) {
        return Err(NetError::NotANet);
    }
    let header = if plain {
        12
    } else if bucketed {
        16
    } else {
        FLAGS_AT + 4
    };
    if bytes.len() < header {
        return Err(too_short);
    }
    let hidden = u32_at(bytes, 8) as usize;
    if plain {
        return Ok(Layout { hidden, buckets: 1, inputs: Inputs::PLAIN });
    }
    let buckets = u32_at(bytes, 12) as usize;
    if bucketed {
        // One output layer is `SPRNNUE1`, whose header is 4 bytes shorter.
        if buckets == 1 {
            return Err(NetError::OneBucketInBucketedHeader);
        }
        return Ok(Layout { hidden, buckets, inputs: Inputs::PLAIN });
    }
    let flags = u32_at(bytes, FLAGS_AT);
    if flags & !(KING_MIRROR_FLAG | KING_BUCKETS_FLAG) != 0 || flags == 0 {
        return Err(NetError::UnknownFlags(flags));
    }
    let mut king_buckets = KingBuckets::NONE;
    if flags & KING_BUCKETS_FLAG != 0 {
        let map_at = FLAGS_AT + 4;
        if bytes.len() < map_at + 64 {
            return Err(too_short);
        }
        let mut i = 0;
        while i < 64 {
            king_buckets.0[i] = bytes[map_at + i];
            i += 1;
        }
        let count = king_buckets.count();
        if count < 2 || count > MAX_KING_BUCKETS {
            return Err(NetError::WrongKingBuckets(count));
        }
    }
    Ok(Layout { hidden, buckets, inputs: Inputs { king_mirror: flags & KING_MIRROR_FLAG != 0, king_buckets } })
}

/// The little-endian `u32` at byte `at`.
const fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The layout in a net file's header, read at compile time for the embedded net (a file without
/// a valid header stops the build).
pub(super) const fn layout_of(bytes: &[u8]) -> Layout {
    match read_header(bytes) {
        Ok(layout) => layout,
        Err(_) => panic!("not a Springer net (no valid SPRNNUE1, SPRNNUE2 or SPRNNUE3 header)"),
    }
}

/// A net file of `hidden` neurons, its inputs arranged as `inputs` says, and one output layer
/// per entry of `output_biases`: the `i16` words in file order (feature weights row by row,
/// feature biases, each bucket's output weights) and the output biases.
pub fn encode_net(
    hidden: usize,
    inputs: Inputs,
    words: impl IntoIterator<Item = i16>,
    output_biases: &[i32],
) -> Vec<u8> {
    let layout = Layout { hidden, buckets: output_biases.len(), inputs };
    let mut out = Vec::with_capacity(net_bytes(layout));
    let flags = has_flags(&inputs);
    let magic = match (flags, layout.buckets) {
        (true, _) => MIRRORED_NET_MAGIC,
        (false, 1) => NET_MAGIC,
        (false, _) => BUCKETED_NET_MAGIC,
    };
    out.extend_from_slice(magic);
    out.extend_from_slice(&(hidden as u32).to_le_bytes());
    if flags || layout.buckets != 1 {
        out.extend_from_slice(&(layout.buckets as u32).to_le_bytes());
    }
    if flags {
        let mirror = if inputs.king_mirror { KING_MIRROR_FLAG } else { 0 };
        let king_buckets = if has_king_buckets(&inputs) { KING_BUCKETS_FLAG } else { 0 };
        out.extend_from_slice(&(mirror | king_buckets).to_le_bytes());
        if king_buckets != 0 {
            out.extend_from_slice(&inputs.king_buckets.0);
        }
    }
    for v in words {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for bias in output_biases {
        out.extend_from_slice(&bias.to_le_bytes());
    }
    debug_assert_eq!(out.len(), net_bytes(layout));
    out
}

/// Why a net file was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file starts with neither magic.
    NotANet,
    /// The file is for another hidden size.
    WrongHidden(usize),
    /// The bucket count is 0 or above `MAX_BUCKETS`.
    WrongBuckets(usize),
    /// The file has this many bytes, not the size its header gives (0: too short for a header).
    WrongSize(usize, usize),
    /// A `SPRNNUE3` header with no flag or an undefined one.
    UnknownFlags(u32),
    /// A king buckets' map with fewer than 2 or more than `MAX_KING_BUCKETS` buckets.
    WrongKingBuckets(usize),
    /// A `SPRNNUE2` header with one output bucket (that net is a `SPRNNUE1`).
    OneBucketInBucketedHeader,
    /// An output weight beyond +-`MAX_OUTPUT_WEIGHT`, which the evaluation's sums cannot hold.
    OutputWeightTooLarge(i16),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NetError::NotANet => write!(f, "not a Springer net (no SPRNNUE1, SPRNNUE2 or SPRNNUE3 header)"),
            NetError::WrongHidden(h) => write!(f, "the net has {h} hidden neurons; this build reads {HIDDEN}"),
            NetError::WrongBuckets(b) => write!(f, "the net has {b} output buckets; 1 to {MAX_BUCKETS} are readable"),
            NetError::WrongSize(n, 0) => write!(f, "the net file has {n} bytes, too few for a header"),
            NetError::WrongSize(n, expected) => {
                write!(f, "the net file has {n} bytes; its header asks for {expected}")
            }
            NetError::UnknownFlags(flags) => {
                write!(f, "the net's header has flags {flags:#x}; 0x1, 0x2 and 0x3 are defined")
            }
            NetError::WrongKingBuckets(count) => {
                write!(f, "the net has {count} king buckets; 2 to {MAX_KING_BUCKETS} are readable")
            }
            NetError::OneBucketInBucketedHeader => {
                write!(f, "the net's SPRNNUE2 header gives one output bucket; such a net is written as SPRNNUE1")
            }
            NetError::OutputWeightTooLarge(w) => {
                write!(f, "the net has an output weight of {w}; at most {MAX_OUTPUT_WEIGHT} either way is readable")
            }
        }
    }
}

impl std::error::Error for NetError {}

impl Network {
    /// Reads a net file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let layout = read_header(bytes)?;
        let buckets = layout.buckets;
        if layout.hidden != HIDDEN {
            return Err(NetError::WrongHidden(layout.hidden));
        }
        if !readable_buckets(buckets) {
            return Err(NetError::WrongBuckets(buckets));
        }
        let size = net_bytes(layout);
        if bytes.len() != size {
            return Err(NetError::WrongSize(bytes.len(), size));
        }
        let biases_at = size - 4 * buckets;
        let mut words =
            bytes[header_bytes(layout)..biases_at].chunks_exact(2).map(|w| i16::from_le_bytes([w[0], w[1]]));
        let mut net = Network::zeroed_with(layout.inputs, buckets);
        let mut fill = |row: &mut [i16; HIDDEN]| row.iter_mut().for_each(|v| *v = words.next().unwrap_or_default());
        net.feature_weights.iter_mut().for_each(&mut fill);
        fill(&mut net.feature_bias);
        net.output_layers.iter_mut().for_each(|layer| layer.weights.iter_mut().for_each(&mut fill));
        for (layer, bias) in net.output_layers.iter_mut().zip(bytes[biases_at..].chunks_exact(4)) {
            layer.bias = i32::from_le_bytes([bias[0], bias[1], bias[2], bias[3]]);
        }
        let output_weights = net.output_layers.iter().flat_map(|layer| layer.weights.iter().flatten());
        if let Some(&w) = output_weights.into_iter().find(|&&w| i32::from(w).abs() > MAX_OUTPUT_WEIGHT) {
            return Err(NetError::OutputWeightTooLarge(w));
        }
        Ok(net)
    }

    /// The net file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let output_weights = self.output_layers.iter().flat_map(|layer: &OutputLayer| &layer.weights);
        let rows = self.feature_weights.iter().chain([&self.feature_bias]).chain(output_weights);
        let biases: Vec<i32> = self.output_layers.iter().map(|layer| layer.bias).collect();
        encode_net(HIDDEN, self.inputs(), rows.flatten().copied(), &biases)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_bad_files() {
        let mirrored = Inputs { king_mirror: true, king_buckets: KingBuckets::NONE };
        let bucketed = Inputs { king_mirror: false, king_buckets: KingBuckets::FOUR };
        let both = Inputs { king_mirror: true, king_buckets: KingBuckets::FOUR };
        for (buckets, inputs) in
            [(1, Inputs::PLAIN), (8, Inputs::PLAIN), (1, mirrored), (8, mirrored), (1, bucketed), (8, both)]
        {
            let mut net = Network::zeroed_with(inputs, buckets);
            let last_row = net.feature_weights.len() - 1;
            net.feature_weights[700][3] = -17;
            net.feature_weights[last_row][1] = 21;
            net.feature_bias[5] = 9;
            net.output_layers[buckets - 1].weights[1][HIDDEN - 1] = 33;
            net.output_layers[0].bias = -123456;
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), net_bytes(Layout { hidden: HIDDEN, buckets, inputs }));
            let magic = match (inputs != Inputs::PLAIN, buckets) {
                (true, _) => MIRRORED_NET_MAGIC,
                (false, 1) => NET_MAGIC,
                (false, _) => BUCKETED_NET_MAGIC,
            };
            assert!(bytes.starts_with(magic));
            let read = Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!((read.inputs(), read.buckets()), (inputs, buckets));
            assert_eq!(read.feature_weights[last_row][1], 21);
            assert_eq!(read.to_bytes(), bytes);
            assert_eq!(Network::from_bytes(&bytes[..1000]).err(), Some(NetError::WrongSize(1000, bytes.len())));
            let mut wrong = bytes.clone();
            let other = if HIDDEN == 64 { 128 } else { 64 };
            wrong[8..12].copy_from_slice(&(other as u32).to_le_bytes());
            assert_eq!(Network::from_bytes(&wrong).err(), Some(NetError::WrongHidden(other)));
            if magic == MIRRORED_NET_MAGIC {
                for undefined in [0, 4, 7] {
                    let mut flags = bytes.clone();
                    flags[FLAGS_AT] = undefined;
                    assert_eq!(Network::from_bytes(&flags).err(), Some(NetError::UnknownFlags(undefined.into())));
                }
            }
            if inputs.king_buckets != KingBuckets::NONE {
                let mut too_many = bytes.clone();
                too_many[FLAGS_AT + 4 + 63] = MAX_KING_BUCKETS as u8;
                let count = MAX_KING_BUCKETS + 1;
                assert_eq!(Network::from_bytes(&too_many).err(), Some(NetError::WrongKingBuckets(count)));
            }
        }
        assert_eq!(Network::from_bytes(b"hello").err(), Some(NetError::WrongSize(5, 0)));
        assert_eq!(Network::from_bytes(b"not a net, not at all").err(), Some(NetError::NotANet));
        for buckets in [0, MAX_BUCKETS + 1] {
            let mut header = BUCKETED_NET_MAGIC.to_vec();
            header.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
            header.extend_from_slice(&(buckets as u32).to_le_bytes());
            assert_eq!(Network::from_bytes(&header).err(), Some(NetError::WrongBuckets(buckets)));
        }
    }

    /// A one-bucket net under the bucketed magic used to be read with the plain net's 12-byte
    /// header: the right size was refused and one 4 bytes short loaded with every weight shifted.
    #[test]
    fn a_bucketed_header_with_one_bucket_is_refused() {
        let plain = Network::zeroed_with(Inputs::PLAIN, 1).to_bytes();
        let mut relabelled = BUCKETED_NET_MAGIC.to_vec();
        relabelled.extend_from_slice(&plain[8..12]);
        relabelled.extend_from_slice(&1u32.to_le_bytes());
        relabelled.extend_from_slice(&plain[12..]);
        for bytes in [&relabelled[..], &relabelled[..relabelled.len() - 4]] {
            assert_eq!(Network::from_bytes(bytes).err(), Some(NetError::OneBucketInBucketedHeader));
        }
    }

    #[test]
    fn output_weights_beyond_the_sums_range_are_refused_and_scores_are_bounded() {
        let mut net = Network::zeroed_with(Inputs::PLAIN, 2);
        net.output_layers[1].weights[0][7] = -(MAX_OUTPUT_WEIGHT as i16);
        assert!(Network::from_bytes(&net.to_bytes()).is_ok());
        net.output_layers[1].weights[0][7] = -(MAX_OUTPUT_WEIGHT as i16) - 1;
        assert_eq!(Network::from_bytes(&net.to_bytes()).err(), Some(NetError::OutputWeightTooLarge(-255)));
        // An output bias far past any evaluation still scores within the limit.
        let mut net = Network::zeroed_with(Inputs::PLAIN, 1);
        net.output_layers[0].bias = i32::MAX;
        let pos = crate::position::Position::startpos();
        assert_eq!(net.evaluate(&pos), super::super::NET_SCORE_LIMIT);
        net.output_layers[0].bias = i32::MIN;
        assert_eq!(net.evaluate(&pos), -super::super::NET_SCORE_LIMIT);
    }
}
