//! The network in floating point, as trained: forward pass, gradient and quantisation.

use super::data::Entry;
use super::next_random;
use crate::nnue::{encode_net, output_bucket, Inputs, Network, HIDDEN, INPUTS, QA, QB, SCALE};
use crate::types::Color;
use rayon::prelude::*;

/// The float network with `H` hidden neurons per perspective (the engine's `HIDDEN` unless
/// `--hidden` asks for another width) and one output layer per bucket (`--buckets`);
/// `quantised_bytes` turns it into a net file.
#[derive(Clone, Debug)]
pub struct FloatNet<const H: usize = HIDDEN> {
    /// `INPUTS` rows of `H` per king bucket.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// Per bucket: the side to move's `H` weights, then the other side's.
    pub w2: Vec<f32>,
    /// Per bucket: the output bias.
    pub b2: Vec<f32>,
    /// King mirroring and king buckets.
    pub inputs: Inputs,
}

/// Gradients of the loss summed over a batch, shaped like `FloatNet<H>`.
pub struct Gradient<const H: usize> {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
}

impl<const H: usize> Gradient<H> {
    fn zero(rows: usize, buckets: usize) -> Gradient<H> {
        Gradient { w1: vec![0.0; rows * H], b1: vec![0.0; H], w2: vec![0.0; buckets * 2 * H], b2: vec![0.0; buckets] }
    }

    fn add(mut self, other: Gradient<H>) -> Gradient<H> {
        let sum = |a: &mut Vec<f32>, b: &[f32]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        sum(&mut self.w1, &other.w1);
        sum(&mut self.b1, &other.b1);
        sum(&mut self.w2, &other.w2);
        sum(&mut self.b2, &other.b2);
        self
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A random input weight is within +-this: 1 / sqrt(32), as about 32 features are active at once.
fn input_weight_bound() -> f32 {
    1.0 / (32.0f32).sqrt()
}

/// `n` weights drawn uniformly from +-`bound`.
fn uniform(rng: &mut u64, n: usize, bound: f32) -> Vec<f32> {
    (0..n).map(|_| ((next_random(rng) >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * bound).collect()
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl<const H: usize> FloatNet<H> {
    /// Weights stay within this, so the quantised output weights fit `i16` sums (see nnue).
    pub const WEIGHT_LIMIT: f32 = 1.98;

    /// Small random weights (uniform, scaled by each layer's fan-in), zero biases, `buckets`
    /// output layers, the inputs arranged as `inputs` says.
    pub fn random(rng: &mut u64, buckets: usize, inputs: Inputs) -> FloatNet<H> {
        let w1 = uniform(rng, INPUTS * inputs.king_buckets.count() * H, input_weight_bound());
        let w2 = uniform(rng, buckets * 2 * H, 1.0 / (2.0 * H as f32).sqrt());
        FloatNet { w1, b1: vec![0.0; H], w2, b2: vec![0.0; buckets], inputs }
    }

    /// This net `W` neurons wide (`W > H`): its own neurons first, unchanged, then `W - H` new
    /// ones with small random input weights (as a random net's), zero biases and zero output
    /// weights. It scores every position as before; training then grows the new neurons into
    /// use (`springer train --init NET --hidden W`).
    pub fn widened<const W: usize>(&self, rng: &mut u64) -> FloatNet<W> {
        assert!(W > H, "a net is only widened, from {H} to {W} neurons");
        let new = W - H;
        let w1 = self
            .w1
            .chunks(H)
            .flat_map(|row| row.iter().copied().chain(uniform(rng, new, input_weight_bound())))
            .collect();
        let pad =
            |weights: &[f32]| weights.chunks(H).flat_map(|part| part.iter().copied().chain(vec![0.0; new])).collect();
        FloatNet { w1, b1: pad(&self.b1), w2: pad(&self.w2), b2: self.b2.clone(), inputs: self.inputs }
    }

    /// This net with `king_buckets` in place of its single set of input rows, each bucket's rows
    /// a copy of them: it scores every position as before, and training then lets the buckets
    /// part (`springer train --init NET --king-buckets`).
    pub fn with_king_buckets(&self, king_buckets: crate::nnue::KingBuckets) -> FloatNet<H> {
        assert_eq!(self.inputs.king_buckets.count(), 1, "only a net without king buckets is split into them");
        let w1 = self.w1.repeat(king_buckets.count());
        FloatNet { w1, inputs: Inputs { king_buckets, ..self.inputs }, ..self.clone() }
    }

    /// The number of input rows: `INPUTS` per king bucket.
    fn rows(&self) -> usize {
        self.w1.len() / H
    }

    /// The number of output layers.
    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// The output layer `entry` uses (one per piece count range, as in the engine).
    fn bucket(&self, entry: &Entry) -> usize {
        output_bucket(entry.features().len(), self.buckets())
    }

    /// Where the weights of `bucket`'s output layer for perspective `i` (0: side to move)
    /// start in `w2`.
    fn output_start(bucket: usize, i: usize) -> usize {
        (bucket * 2 + i) * H
    }

    /// The weights of `bucket`'s output layer for perspective `i` (0: side to move).
    fn output_weights(&self, bucket: usize, i: usize) -> &[f32] {
        let start = Self::output_start(bucket, i);
        &self.w2[start..start + H]
    }

    /// The first weight of `feature`'s row in `w1` for `perspective` of `entry`.
    fn row(&self, entry: &Entry, feature: u16, perspective: Color) -> usize {
        let view = self.inputs.king_view(entry.kings[perspective], perspective);
        view.row(feature, perspective) * H
    }

    fn hidden(&self, entry: &Entry, perspective: Color) -> [f32; H] {
        let mut acc = [0.0f32; H];
        acc.copy_from_slice(&self.b1);
        for &feature in entry.features() {
            let row = self.row(entry, feature, perspective);
            acc.iter_mut().zip(&self.w1[row..row + H]).for_each(|(a, w)| *a += w);
        }
        acc
    }

    fn perspectives(entry: &Entry) -> [Color; 2] {
        if entry.white_to_move {
            [Color::White, Color::Black]
        } else {
            [Color::Black, Color::White]
        }
    }

    /// The raw output (times `SCALE` = centipawns for the side to move).
    pub fn output(&self, entry: &Entry) -> f32 {
        let bucket = self.bucket(entry);
        let accs = Self::perspectives(entry).map(|p| self.hidden(entry, p));
        self.output_of(bucket, &accs)
    }

    /// The raw output of `bucket`'s layer on the two perspectives' hidden layers.
    fn output_of(&self, bucket: usize, accs: &[[f32; H]; 2]) -> f32 {
        let mut out = self.b2[bucket];
        for (i, acc) in accs.iter().enumerate() {
            out += acc.iter().zip(self.output_weights(bucket, i)).map(|(a, w)| screlu(*a) * w).sum::<f32>();
        }
        out
    }

    /// The squared error of `entry`'s prediction against its target: the loss that `gradient`
    /// sums, without the gradient.
    pub fn loss(&self, entry: &Entry, wdl: f32) -> f64 {
        let error = sigmoid(self.output(entry)) - Self::target(entry, wdl);
        f64::from(error * error)
    }

    /// The training target of `entry`.
    fn target(entry: &Entry, wdl: f32) -> f32 {
        let score = sigmoid(f32::from(entry.score) / SCALE as f32);
        (1.0 - wdl) * score + wdl * f32::from(entry.result_halves) / 2.0
    }

    /// The loss summed over `batch` (indices into `entries`) and its gradient, split over the
    /// current rayon pool.
    pub fn gradient(&self, entries: &[Entry], batch: &[u32], wdl: f32) -> (Gradient<H>, f64) {
        let per_thread = batch.len().div_ceil(rayon::current_num_threads()).max(1);
        batch
            .par_chunks(per_thread)
            .map(|part| {
                let mut grad = Gradient::zero(self.rows(), self.buckets());
                let mut loss = 0.0f64;
                for &i in part {
                    loss += self.backpropagate(&entries[i as usize], wdl, &mut grad);
                }
                (grad, loss)
            })
            .reduce(|| (Gradient::zero(self.rows(), self.buckets()), 0.0), |(a, la), (b, lb)| (a.add(b), la + lb))
    }

    /// Adds `entry`'s gradient to `grad`; returns its loss.
    fn backpropagate(&self, entry: &Entry, wdl: f32, grad: &mut Gradient<H>) -> f64 {
        let perspectives = Self::perspectives(entry);
        let accs = perspectives.map(|p| self.hidden(entry, p));
        let bucket = self.bucket(entry);
        let predicted = sigmoid(self.output_of(bucket, &accs));
        let error = predicted - Self::target(entry, wdl);
        let d_out = 2.0 * error * predicted * (1.0 - predicted);
        grad.b2[bucket] += d_out;
        for (i, (acc, perspective)) in accs.iter().zip(perspectives).enumerate() {
            let weights = self.output_weights(bucket, i);
            let start = Self::output_start(bucket, i);
            let mut d_hidden = [0.0f32; H];
            for j in 0..H {
                grad.w2[start + j] += d_out * screlu(acc[j]);
                let active = acc[j] > 0.0 && acc[j] < 1.0;
                d_hidden[j] = if active { d_out * weights[j] * 2.0 * acc[j] } else { 0.0 };
            }
            grad.b1.iter_mut().zip(&d_hidden).for_each(|(g, d)| *g += d);
            for &feature in entry.features() {
                let row = self.row(entry, feature, perspective);
                grad.w1[row..row + H].iter_mut().zip(&d_hidden).for_each(|(g, d)| *g += d);
            }
        }
        f64::from(error * error)
    }

    /// The quantised net file (scales and format in src/nnue): a build whose embedded net has
    /// `H` neurons reads it.
    pub fn quantised_bytes(&self) -> Vec<u8> {
        let q = |v: &f32, scale: i32| (v * scale as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let feature_layer = self.w1.iter().chain(&self.b1).map(|w| q(w, QA));
        let output_layer = self.w2.iter().map(|w| q(w, QB));
        let biases: Vec<i32> = self.b2.iter().map(|b| (b * (QA * QB) as f32).round() as i32).collect();
        encode_net(H, self.inputs, feature_layer.chain(output_layer), &biases)
    }
}

impl FloatNet<HIDDEN> {
    /// The float net behind a quantised one, each weight divided by its scale: what
    /// `springer train --init` starts from. `quantised_bytes` gives the net's file back.
    pub fn from_network(net: &Network) -> FloatNet<HIDDEN> {
        let scaled = |v: i16, scale: i32| f32::from(v) / scale as f32;
        let output_weights = net.output_layers.iter().flat_map(|layer| layer.weights.iter().flatten());
        FloatNet {
            w1: net.feature_weights.iter().flatten().map(|&w| scaled(w, QA)).collect(),
            b1: net.feature_bias.iter().map(|&b| scaled(b, QA)).collect(),
            w2: output_weights.map(|&w| scaled(w, QB)).collect(),
            b2: net.output_layers.iter().map(|layer| layer.bias as f32 / (QA * QB) as f32).collect(),
            inputs: net.inputs(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::{KingBuckets, NetError};
    use crate::position::Position;

    /// `--init` starts from exactly the net it was given: the embedded net read back into floats
    /// quantises to the same file, and scores as the engine does.
    #[test]
    fn a_quantised_net_round_trips_through_floats() {
        let net = Network::embedded();
        let float = FloatNet::from_network(&net);
        assert_eq!((float.buckets(), float.inputs), (net.buckets(), net.inputs()));
        assert_eq!(float.quantised_bytes(), net.to_bytes());
        for fen in crate::bench::positions().take(10) {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            let entry = Entry::new(&pos, 0, 1);
            let float_cp = float.output(&entry) * SCALE as f32;
            let engine_cp = net.evaluate(&pos) as f32;
            assert!((float_cp - engine_cp).abs() < 2.0, "{fen}: float {float_cp} engine {engine_cp}");
        }
    }

    /// The quantised net scores positions within a few centipawns of the float net it came from
    /// (for a random net; the rounding errors of the neurons add up like a random walk, so the
    /// bounds grow with the square root of the width: measured 3.3 / 9.6 cp at 128 neurons, 4.5 /
    /// 17.3 cp at 256, for one bucket; 3.3-4.1 / 10.7-13.8 cp at 128 for the other three
    /// arrangements, the king-bucketed net the largest).
    #[test]
    fn quantised_output_is_close_to_float() {
        for (buckets, inputs) in [(1, Inputs::PLAIN), (8, Inputs::PLAIN), (8, MIRRORED), (8, KING_BUCKETED)] {
            let mut rng = 7u64;
            let mut float = FloatNet::<HIDDEN>::random(&mut rng, buckets, inputs);
            float.b1.iter_mut().for_each(|b| *b = 0.3);
            let net = Network::from_bytes(&float.quantised_bytes()).unwrap_or_else(|e| unreachable!("{e}"));
            assert_eq!((net.buckets(), net.inputs()), (buckets, inputs));
            let mut total = 0.0;
            let mut worst = 0.0f32;
            for fen in crate::bench::positions() {
                let pos = Position::from_fen(fen).unwrap();
                let entry = Entry::new(&pos, 0, 1);
                let float_cp = float.output(&entry) * SCALE as f32;
                let error = (float_cp - net.evaluate(&pos) as f32).abs();
                total += error;
                worst = worst.max(error);
            }
            let mean = total / crate::bench::positions().count() as f32;
            eprintln!("quantisation error, {buckets} buckets, {} king buckets, mirrored {}: mean {mean:.2} cp, worst {worst:.2} cp", inputs.king_buckets.count(), inputs.king_mirror);
            let width_factor = (HIDDEN as f32 / 128.0).sqrt();
            assert!(mean <= 5.0 * width_factor && worst <= 16.0 * width_factor, "mean {mean} cp, worst {worst} cp");
        }
    }

    /// King-mirrored inputs without king buckets.
    const MIRRORED: Inputs = Inputs { king_mirror: true, king_buckets: KingBuckets::NONE };
    /// King-mirrored inputs with the four king buckets.
    const KING_BUCKETED: Inputs = Inputs { king_mirror: true, king_buckets: KingBuckets::FOUR };

    /// A width other than the build's.
    const OTHER_WIDTH: usize = if HIDDEN == 256 { 128 } else { 256 };

    /// The trainer writes other widths: the file has that width's size and header, and this
    /// build refuses it by name.
    #[test]
    fn another_width_is_written_and_refused_by_this_build() {
        let mut rng = 5u64;
        let bytes = FloatNet::<OTHER_WIDTH>::random(&mut rng, 1, Inputs::PLAIN).quantised_bytes();
        let layout = crate::nnue::Layout { hidden: OTHER_WIDTH, buckets: 1, inputs: Inputs::PLAIN };
        assert_eq!(bytes.len(), crate::nnue::net_bytes(layout));
        assert_eq!(u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, OTHER_WIDTH);
        assert_eq!(Network::from_bytes(&bytes).err(), Some(NetError::WrongHidden(OTHER_WIDTH)));
    }

    /// A numerical check of `backpropagate` on one weight of each layer (of the bucket the
    /// position uses).
    fn check_gradient<const H: usize>(buckets: usize, inputs: Inputs) {
        let mut rng = 3u64;
        let mut net = FloatNet::<H>::random(&mut rng, buckets, inputs);
        net.b1.iter_mut().for_each(|b| *b = 0.4);
        let pos = Position::from_fen("r3k2r/pp3ppp/2n5/3pP3/8/2N5/PP3PPP/R3K2R w KQkq d6 0 12").unwrap();
        let entry = Entry::new(&pos, 150, 2);
        let loss = |n: &FloatNet<H>| {
            let e = sigmoid(n.output(&entry)) - FloatNet::<H>::target(&entry, 0.3);
            e * e
        };
        let mut grad = Gradient::zero(net.rows(), buckets);
        net.backpropagate(&entry, 0.3, &mut grad);
        let feature = net.row(&entry, entry.features()[3], Color::White) + 5;
        let bucket = net.bucket(&entry);
        let output = FloatNet::<H>::output_start(bucket, 1) + 9;
        for (which, analytic) in [("w1", grad.w1[feature]), ("w2", grad.w2[output]), ("b2", grad.b2[bucket])] {
            let h = 1e-3;
            let mut up = net.clone();
            let mut down = net.clone();
            match which {
                "w1" => (up.w1[feature] += h, down.w1[feature] -= h),
                "w2" => (up.w2[output] += h, down.w2[output] -= h),
                _ => (up.b2[bucket] += h, down.b2[bucket] -= h),
            };
            let numeric = (loss(&up) - loss(&down)) / (2.0 * h);
            assert!((numeric - analytic).abs() < 1e-4 + 0.02 * analytic.abs(), "{H} {which}: {numeric} vs {analytic}");
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        check_gradient::<HIDDEN>(1, Inputs::PLAIN);
        check_gradient::<HIDDEN>(8, Inputs::PLAIN);
        check_gradient::<HIDDEN>(8, MIRRORED);
        check_gradient::<HIDDEN>(8, KING_BUCKETED);
        check_gradient::<OTHER_WIDTH>(1, Inputs::PLAIN);
    }

    /// `--init NET --hidden W` starts from the same scores: the new neurons read the board but
    /// are not read, and once their output weights move the scores do.
    #[test]
    fn a_widened_net_scores_as_before() {
        let net = FloatNet::from_network(&Network::embedded());
        let mut rng = 11u64;
        let mut wide = net.widened::<{ 2 * HIDDEN }>(&mut rng);
        assert_eq!((wide.rows(), wide.buckets(), wide.inputs), (net.rows(), net.buckets(), net.inputs));
        assert_eq!(&wide.w1[..HIDDEN], &net.w1[..HIDDEN]);
        assert!(
            wide.w1[HIDDEN..2 * HIDDEN].iter().all(|w| w.abs() <= input_weight_bound())
                && wide.w1[2 * HIDDEN - 1] != 0.0
        );
        let entries: Vec<Entry> = crate::bench::positions()
            .map(|fen| Entry::new(&Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}")), 0, 1))
            .collect();
        for entry in &entries {
            let (before, after) = (net.output(entry), wide.output(entry));
            assert!((before - after).abs() < 1e-5, "{before} vs {after}");
        }
        wide.w2.iter_mut().skip(HIDDEN).step_by(2 * HIDDEN).for_each(|w| *w = 0.5);
        assert!(entries.iter().any(|entry| (wide.output(entry) - net.output(entry)).abs() > 1e-3));
    }

    /// `--init NET --king-buckets` starts from the same scores: each bucket's rows are a copy
    /// of the net's, and the position's own bucket (not the first) is what the split net reads.
    #[test]
    fn a_net_split_into_king_buckets_scores_as_before() {
        let net = FloatNet::from_network(&Network::embedded());
        let mut split = net.with_king_buckets(KingBuckets::FOUR);
        assert_eq!(split.rows(), INPUTS * KingBuckets::FOUR.count());
        let entries: Vec<Entry> = crate::bench::positions()
            .map(|fen| Entry::new(&Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}")), 0, 1))
            .collect();
        for entry in &entries {
            assert_eq!(split.output(entry), net.output(entry));
        }
        // Zero every bucket but the first: exactly the positions with a king elsewhere change.
        split.w1[INPUTS * HIDDEN..].iter_mut().for_each(|w| *w = 0.0);
        let mut changed = 0;
        for entry in &entries {
            let in_first = Color::ALL.into_iter().all(|c| split.inputs.king_view(entry.kings[c], c).bucket == 0);
            assert_eq!(split.output(entry) == net.output(entry), in_first);
            changed += usize::from(!in_first);
        }
        assert!(changed > 0 && changed < entries.len(), "{changed} of {} changed", entries.len());
    }
}
