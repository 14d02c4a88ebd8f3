//! `springer net-loss`: the training loss of several nets on the same positions, each after the
//! first with its paired difference to the first and that difference's 95 % interval. Run on
//! games none of the nets was trained on, it tells which candidate predicts new positions best
//! (a proxy for strength, not a replacement for the SPRT).

use super::{load, start_net, Entry, FloatNet, TrainError};
use crate::nnue::HIDDEN;
use rayon::prelude::*;
use std::path::PathBuf;

/// One net's result: its mean loss, and (for every net after the first) the paired difference to
/// the first net's loss with the half-width of its 95 % interval.
#[derive(Clone, Debug, PartialEq)]
pub struct NetLoss {
    pub net: PathBuf,
    pub loss: f64,
    pub versus_first: Option<(f64, f64)>,
}

/// The z value of a two-sided 95 % interval.
const Z95: f64 = 1.96;

/// The mean loss of each net of `nets` over every trainable position of `data` (none held out),
/// with `wdl` the result's share of the target, on `threads` threads.
pub fn net_losses(
    data: &[PathBuf],
    nets: &[PathBuf],
    wdl: f32,
    threads: usize,
) -> Result<(usize, Vec<NetLoss>), TrainError> {
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| TrainError::Threads(e.to_string()))?;
    let entries = load(data, false).map_err(TrainError::Load)?;
    if entries.is_empty() {
        return Err(TrainError::NoData);
    }
    let floats = nets.iter().map(start_net).collect::<Result<Vec<_>, _>>()?;
    let sums = pool.install(|| loss_sums(&entries, &floats, wdl));
    let n = entries.len() as f64;
    let results = nets
        .iter()
        .zip(&sums)
        .enumerate()
        .map(|(i, (net, sum))| {
            let versus_first = (i > 0).then(|| {
                let mean = sum.difference / n;
                let variance = (sum.squared_difference / n - mean * mean).max(0.0);
                (mean, Z95 * (variance / n).sqrt())
            });
            NetLoss { net: net.clone(), loss: sum.loss / n, versus_first }
        })
        .collect();
    Ok((entries.len(), results))
}

/// One net's running sums: its loss, and its loss minus the first net's, plain and squared.
#[derive(Clone, Copy, Default)]
struct LossSums {
    loss: f64,
    difference: f64,
    squared_difference: f64,
}

/// `LossSums` of each net over `entries`, split over the current rayon pool.
fn loss_sums(entries: &[Entry], nets: &[FloatNet<HIDDEN>], wdl: f32) -> Vec<LossSums> {
    let add = |mut sums: Vec<LossSums>, entry: &Entry| {
        let mut first = 0.0;
        for (i, (sum, net)) in sums.iter_mut().zip(nets).enumerate() {
            let loss = net.loss(entry, wdl);
            if i == 0 {
                first = loss;
            }
            sum.loss += loss;
            sum.difference += loss - first;
            sum.squared_difference += (loss - first) * (loss - first);
        }
        sums
    };
    let merge = |a: Vec<LossSums>, b: Vec<LossSums>| {
        a.iter()
            .zip(&b)
            .map(|(x, y)| LossSums {
                loss: x.loss + y.loss,
                difference: x.difference + y.difference,
                squared_difference: x.squared_difference + y.squared_difference,
            })
            .collect()
    };
    let zero = || vec![LossSums::default(); nets.len()];
    entries.par_iter().fold(zero, add).reduce(zero, merge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::Network;
    use crate::position::Position;

    /// The embedded net, and a random one, scored on the bench positions with made-up labels.
    fn nets_and_entries() -> (Vec<FloatNet<HIDDEN>>, Vec<Entry>) {
        let embedded = FloatNet::from_network(&Network::embedded());
        let random = FloatNet::<HIDDEN>::random(&mut 7, embedded.buckets(), embedded.inputs);
        let entries = crate::bench::positions()
            .enumerate()
            .map(|(i, fen)| {
                let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
                Entry::new(&pos, (i as i16 - 25) * 40, (i % 3) as u8)
            })
            .collect();
        (vec![embedded, random], entries)
    }

    /// Each net's loss is the mean of what training sums for it, and its difference to the first
    /// is the difference of the two means (the first's own difference is zero).
    #[test]
    fn losses_agree_with_training_and_differences_pair_up() {
        let (nets, entries) = nets_and_entries();
        let order: Vec<u32> = (0..entries.len() as u32).collect();
        let sums = loss_sums(&entries, &nets, 0.25);
        for (net, sum) in nets.iter().zip(&sums) {
            let (_, trained) = net.gradient(&entries, &order, 0.25);
            assert!((sum.loss - trained).abs() < 1e-9 * trained.max(1.0), "{} vs {trained}", sum.loss);
        }
        assert_eq!((sums[0].difference, sums[0].squared_difference), (0.0, 0.0));
        assert!((sums[1].difference - (sums[1].loss - sums[0].loss)).abs() < 1e-9);
        assert!(sums[1].squared_difference > 0.0);
    }
}
