//! The net file. `SPRNNUE1` (one output layer): the magic, the hidden size (u32), then
//! little-endian `i16`s: the feature weights (`INPUTS` rows of `HIDDEN`), the feature biases
//! (`HIDDEN`), the output weights (side to move's `HIDDEN`, then the other side's), and the output
//! bias as an `i32`. `SPRNNUE2` (output buckets): the magic, the hidden size and the bucket count
//! (u32 each), the same feature layer, each bucket's output weights in bucket order, then each
//! bucket's `i32` bias. `SPRNNUE3` (king-mirrored inputs, `Layout::king_mirror`): as `SPRNNUE2`
//! with a fourth `u32` of flags after the bucket count, bit 0 set (no other bit is defined). A
//! build reads nets of its own `HIDDEN`, the embedded net's (`src/nnue/mod.rs`), with any bucket
//! count up to `MAX_BUCKETS`, mirrored or not; the trainer writes any width.

use super::{Network, OutputLayer, HIDDEN, INPUTS};
use std::fmt;

/// The first bytes of a net with one output layer.
pub const NET_MAGIC: &[u8; 8] = b"SPRNNUE1";
/// The first bytes of a net with output buckets.
pub const BUCKETED_NET_MAGIC: &[u8; 8] = b"SPRNNUE2";
/// The first bytes of a net with king-mirrored inputs (and any number of output buckets).
pub const MIRRORED_NET_MAGIC: &[u8; 8] = b"SPRNNUE3";
/// The flag bit of king-mirrored inputs in a `SPRNNUE3` header.
const KING_MIRROR_FLAG: u32 = 1;

/// What a net file's header gives: the shape of the net.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Output layers (`output_bucket`).
    pub buckets: usize,
    /// Each perspective sees the board mirrored left to right when its own king stands on files
    /// e-h (`nnue::input_index`).
    pub king_mirror: bool,
}

/// The most output buckets a net may have (one per piece count from 2 to 32 would be 31).
pub const MAX_BUCKETS: usize = 16;

/// Whether a net of `buckets` output layers can be read (and so may be trained).
pub const fn readable_buckets(buckets: usize) -> bool {
    buckets >= 1 && buckets <= MAX_BUCKETS
}

/// The header's size: the magic, the hidden size, (bucketed and mirrored nets) the bucket count
/// and (mirrored nets) the flags.
const fn header_bytes(layout: Layout) -> usize {
    if layout.king_mirror {
        20
    } else if layout.buckets == 1 {
        12
    } else {
        16
    }
}

/// The size of a net file of `layout`.
pub const fn net_bytes(layout: Layout) -> usize {
    let (hidden, buckets) = (layout.hidden, layout.buckets);
    header_bytes(layout) + 2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
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
    // The header's length depends only on its kind (any bucket count above 1 reads as bucketed).
    let header = header_bytes(Layout { hidden: 0, buckets: if plain { 1 } else { 2 }, king_mirror: mirrored });
    if bytes.len() < header {
        return Err(too_short);
    }
    let hidden = u32_at(bytes, 8) as usize;
    if plain {
        return Ok(Layout { hidden, buckets: 1, king_mirror: false });
    }
    let buckets = u32_at(bytes, 12) as usize;
    if mirrored {
        let flags = u32_at(bytes, 16);
        if flags != KING_MIRROR_FLAG {
            return Err(NetError::UnknownFlags(flags));
        }
    }
    Ok(Layout { hidden, buckets, king_mirror: mirrored })
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

/// A net file of `hidden` neurons, king-mirrored inputs or not, and one output layer per entry
/// of `output_biases`: the `i16` words in file order (feature weights row by row, feature
/// biases, each bucket's output weights) and the output biases.
pub fn encode_net(
    hidden: usize,
    king_mirror: bool,
    words: impl IntoIterator<Item = i16>,
    output_biases: &[i32],
) -> Vec<u8> {
    let layout = Layout { hidden, buckets: output_biases.len(), king_mirror };
    let mut out = Vec::with_capacity(net_bytes(layout));
    let magic = match (king_mirror, layout.buckets) {
        (true, _) => MIRRORED_NET_MAGIC,
        (false, 1) => NET_MAGIC,
        (false, _) => BUCKETED_NET_MAGIC,
    };
    out.extend_from_slice(magic);
    out.extend_from_slice(&(hidden as u32).to_le_bytes());
    if king_mirror || layout.buckets != 1 {
        out.extend_from_slice(&(layout.buckets as u32).to_le_bytes());
    }
    if king_mirror {
        out.extend_from_slice(&KING_MIRROR_FLAG.to_le_bytes());
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
    /// A `SPRNNUE3` header with flags other than king mirroring.
    UnknownFlags(u32),
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
            NetError::UnknownFlags(flags) => write!(f, "the net's header has flags {flags:#x}; only 0x1 is defined"),
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
        let mut net = Network::zeroed(buckets);
        net.king_mirror = layout.king_mirror;
        let mut fill = |row: &mut [i16; HIDDEN]| row.iter_mut().for_each(|v| *v = words.next().unwrap_or_default());
        net.feature_weights.iter_mut().for_each(&mut fill);
        fill(&mut net.feature_bias);
        net.output_layers.iter_mut().for_each(|layer| layer.weights.iter_mut().for_each(&mut fill));
        for (layer, bias) in net.output_layers.iter_mut().zip(bytes[biases_at..].chunks_exact(4)) {
            layer.bias = i32::from_le_bytes([bias[0], bias[1], bias[2], bias[3]]);
        }
        Ok(net)
    }

    /// The net file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let output_weights = self.output_layers.iter().flat_map(|layer: &OutputLayer| &layer.weights);
        let rows = self.feature_weights.iter().chain([&self.feature_bias]).chain(output_weights);
        let biases: Vec<i32> = self.output_layers.iter().map(|layer| layer.bias).collect();
        encode_net(HIDDEN, self.king_mirror, rows.flatten().copied(), &biases)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_bad_files() {
        for (buckets, king_mirror) in [(1, false), (8, false), (1, true), (8, true)] {
            let mut net = Network::zeroed(buckets);
            net.king_mirror = king_mirror;
            net.feature_weights[700][3] = -17;
            net.feature_bias[5] = 9;
            net.output_layers[buckets - 1].weights[1][HIDDEN - 1] = 33;
            net.output_layers[0].bias = -123456;
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), net_bytes(Layout { hidden: HIDDEN, buckets, king_mirror }));
            let magic = match (king_mirror, buckets) {
                (true, _) => MIRRORED_NET_MAGIC,
                (false, 1) => NET_MAGIC,
                (false, _) => BUCKETED_NET_MAGIC,
            };
            assert!(bytes.starts_with(magic));
            let read = Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!((read.king_mirror, read.buckets()), (king_mirror, buckets));
            assert_eq!(read.to_bytes(), bytes);
            assert_eq!(Network::from_bytes(&bytes[..1000]).err(), Some(NetError::WrongSize(1000, bytes.len())));
            let mut wrong = bytes.clone();
            let other = if HIDDEN == 64 { 128 } else { 64 };
            wrong[8..12].copy_from_slice(&(other as u32).to_le_bytes());
            assert_eq!(Network::from_bytes(&wrong).err(), Some(NetError::WrongHidden(other)));
            if king_mirror {
                let mut flags = bytes.clone();
                flags[16] = 3;
                assert_eq!(Network::from_bytes(&flags).err(), Some(NetError::UnknownFlags(3)));
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
}
