//! The net file: `SPRNNUE1`, the hidden size (u32), then little-endian `i16`s: the feature
//! weights (`INPUTS` rows of `HIDDEN`), the feature biases (`HIDDEN`), the output weights (side to
//! move's `HIDDEN`, then the other side's), and the output bias as an `i32`. A build reads nets of
//! its own `HIDDEN`, the embedded net's (`src/nnue/mod.rs`); the trainer writes any width.

use super::{Network, HIDDEN, INPUTS};
use std::fmt;

/// The first bytes of every net file.
pub const NET_MAGIC: &[u8; 8] = b"SPRNNUE1";

/// The size of a net file with `hidden` neurons per perspective.
pub const fn net_bytes(hidden: usize) -> usize {
    NET_MAGIC.len() + 4 + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

/// The size of a net file with this build's `HIDDEN`.
pub const NET_BYTES: usize = net_bytes(HIDDEN);

/// The hidden size in a net file's header, read at compile time for the embedded net (a file
/// without the header stops the build).
pub(super) const fn hidden_of(bytes: &[u8]) -> usize {
    let mut i = 0;
    while i < NET_MAGIC.len() {
        assert!(bytes.len() > 12 && bytes[i] == NET_MAGIC[i], "not a Springer net (no SPRNNUE1 header)");
        i += 1;
    }
    u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize
}

/// A net file with `hidden` neurons: the `i16` words in file order (feature weights row by row,
/// feature biases, output weights) and the output bias.
pub fn encode_net(hidden: usize, words: impl IntoIterator<Item = i16>, output_bias: i32) -> Vec<u8> {
    let mut out = Vec::with_capacity(net_bytes(hidden));
    out.extend_from_slice(NET_MAGIC);
    out.extend_from_slice(&(hidden as u32).to_le_bytes());
    for v in words {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&output_bias.to_le_bytes());
    debug_assert_eq!(out.len(), net_bytes(hidden));
    out
}

/// Why a net file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with `NET_MAGIC`.
    NotANet,
    /// The file is for another hidden size.
    WrongHidden(u32),
    /// The file is shorter or longer than `NET_BYTES`.
    WrongSize(usize),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotANet => write!(f, "not a Springer net (no SPRNNUE1 header)"),
            NetError::WrongHidden(h) => write!(f, "the net has {h} hidden neurons; this build reads {HIDDEN}"),
            NetError::WrongSize(n) => write!(f, "the net file has {n} bytes; a {HIDDEN}-neuron net has {NET_BYTES}"),
        }
    }
}

impl std::error::Error for NetError {}

impl Network {
    /// Reads a net file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if !bytes.starts_with(NET_MAGIC) {
            return Err(NetError::NotANet);
        }
        if bytes.len() < NET_MAGIC.len() + 4 {
            return Err(NetError::WrongSize(bytes.len()));
        }
        let hidden = u32::from_le_bytes(bytes[8..12].try_into().unwrap_or_default());
        if hidden as usize != HIDDEN {
            return Err(NetError::WrongHidden(hidden));
        }
        if bytes.len() != NET_BYTES {
            return Err(NetError::WrongSize(bytes.len()));
        }
        let mut words = bytes[12..NET_BYTES - 4].chunks_exact(2).map(|w| i16::from_le_bytes([w[0], w[1]]));
        let mut net = Network::zeroed();
        let mut fill = |row: &mut [i16; HIDDEN]| row.iter_mut().for_each(|v| *v = words.next().unwrap_or_default());
        net.feature_weights.iter_mut().for_each(&mut fill);
        fill(&mut net.feature_bias);
        net.output_weights.iter_mut().for_each(&mut fill);
        net.output_bias = i32::from_le_bytes(bytes[NET_BYTES - 4..].try_into().unwrap_or_default());
        Ok(net)
    }

    /// The net file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let rows = self.feature_weights.iter().chain([&self.feature_bias]).chain(&self.output_weights);
        encode_net(HIDDEN, rows.flatten().copied(), self.output_bias)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_bad_files() {
        let mut net = Network::zeroed();
        net.feature_weights[700][3] = -17;
        net.feature_bias[5] = 9;
        net.output_weights[1][HIDDEN - 1] = 33;
        net.output_bias = -123456;
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), NET_BYTES);
        assert_eq!(Network::from_bytes(&bytes).map(|n| n.to_bytes()), Ok(bytes.clone()));
        assert_eq!(Network::from_bytes(&bytes[..1000]).err(), Some(NetError::WrongSize(1000)));
        assert_eq!(Network::from_bytes(b"hello").err(), Some(NetError::NotANet));
        let mut wrong = bytes.clone();
        let other = if HIDDEN == 64 { 128u32 } else { 64 };
        wrong[8..12].copy_from_slice(&other.to_le_bytes());
        assert_eq!(Network::from_bytes(&wrong).err(), Some(NetError::WrongHidden(other)));
    }
}
