//! The net file: `SPRNNUE1`, the hidden size (u32), then little-endian `i16`s: the feature
//! weights (`INPUTS` rows of `HIDDEN`), the feature biases (`HIDDEN`), the output weights (side to
//! move's `HIDDEN`, then the other side's), and the output bias as an `i32`.

use super::{Network, HIDDEN, INPUTS};
use std::fmt;

/// The first bytes of every net file.
pub const NET_MAGIC: &[u8; 8] = b"SPRNNUE1";

/// The size of a net file with this build's `HIDDEN`.
pub const NET_BYTES: usize = NET_MAGIC.len() + 4 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

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
        let mut out = Vec::with_capacity(NET_BYTES);
        out.extend_from_slice(NET_MAGIC);
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let rows = self.feature_weights.iter().chain([&self.feature_bias]).chain(&self.output_weights);
        for row in rows {
            for v in row {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
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
        net.output_weights[1][127] = 33;
        net.output_bias = -123456;
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), NET_BYTES);
        assert_eq!(Network::from_bytes(&bytes).map(|n| n.to_bytes()), Ok(bytes.clone()));
        assert_eq!(Network::from_bytes(&bytes[..1000]).err(), Some(NetError::WrongSize(1000)));
        assert_eq!(Network::from_bytes(b"hello").err(), Some(NetError::NotANet));
        let mut wrong = bytes.clone();
        wrong[8] = 64;
        assert_eq!(Network::from_bytes(&wrong).err(), Some(NetError::WrongHidden(64)));
    }
}
