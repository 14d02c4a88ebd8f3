//! The network in floating point, as trained: forward pass, gradient and quantisation.

use super::data::Entry;
use super::next_random;
use crate::nnue::{perspective_feature, Network, HIDDEN, INPUTS, QA, QB, SCALE};
use crate::types::Color;
use rayon::prelude::*;

/// The float network; `quantised` turns it into the engine's.
#[derive(Clone, Debug)]
pub struct FloatNet {
    /// `INPUTS` rows of `HIDDEN`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// The side to move's `HIDDEN` weights, then the other side's.
    pub w2: Vec<f32>,
    pub b2: f32,
}

/// Gradients of the loss summed over a batch, shaped like `FloatNet`.
pub struct Gradient {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
}

impl Gradient {
    fn zero() -> Gradient {
        Gradient { w1: vec![0.0; INPUTS * HIDDEN], b1: vec![0.0; HIDDEN], w2: vec![0.0; 2 * HIDDEN], b2: 0.0 }
    }

    fn add(mut self, other: Gradient) -> Gradient {
        let sum = |a: &mut Vec<f32>, b: &[f32]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        sum(&mut self.w1, &other.w1);
        sum(&mut self.b1, &other.b1);
        sum(&mut self.w2, &other.w2);
        self.b2 += other.b2;
        self
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNet {
    /// Weights stay within this, so the quantised output weights fit `i16` sums (see nnue).
    pub const WEIGHT_LIMIT: f32 = 1.98;

    /// Small random weights (uniform, scaled by each layer's fan-in), zero biases.
    pub fn random(rng: &mut u64) -> FloatNet {
        let mut uniform = |n: usize, bound: f32| -> Vec<f32> {
            (0..n).map(|_| ((next_random(rng) >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * bound).collect()
        };
        let w1 = uniform(INPUTS * HIDDEN, 1.0 / (32.0f32).sqrt());
        let w2 = uniform(2 * HIDDEN, 1.0 / (2.0 * HIDDEN as f32).sqrt());
        FloatNet { w1, b1: vec![0.0; HIDDEN], w2, b2: 0.0 }
    }

    fn hidden(&self, entry: &Entry, perspective: Color) -> [f32; HIDDEN] {
        let mut acc = [0.0f32; HIDDEN];
        acc.copy_from_slice(&self.b1);
        for &feature in entry.features() {
            let row = perspective_feature(feature, perspective) * HIDDEN;
            acc.iter_mut().zip(&self.w1[row..row + HIDDEN]).for_each(|(a, w)| *a += w);
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
        let mut out = self.b2;
        for (i, perspective) in FloatNet::perspectives(entry).into_iter().enumerate() {
            let acc = self.hidden(entry, perspective);
            out += acc.iter().zip(&self.w2[i * HIDDEN..(i + 1) * HIDDEN]).map(|(a, w)| screlu(*a) * w).sum::<f32>();
        }
        out
    }

    /// The training target of `entry`.
    fn target(entry: &Entry, wdl: f32) -> f32 {
        let score = sigmoid(f32::from(entry.score) / SCALE as f32);
        (1.0 - wdl) * score + wdl * f32::from(entry.result_halves) / 2.0
    }

    /// The loss summed over `batch` (indices into `entries`) and its gradient, split over the
    /// current rayon pool.
    pub fn gradient(&self, entries: &[Entry], batch: &[u32], wdl: f32) -> (Gradient, f64) {
        let per_thread = batch.len().div_ceil(rayon::current_num_threads()).max(1);
        batch
            .par_chunks(per_thread)
            .map(|part| {
                let mut grad = Gradient::zero();
                let mut loss = 0.0f64;
                for &i in part {
                    loss += self.backpropagate(&entries[i as usize], wdl, &mut grad);
                }
                (grad, loss)
            })
            .reduce(|| (Gradient::zero(), 0.0), |(a, la), (b, lb)| (a.add(b), la + lb))
    }

    /// Adds `entry`'s gradient to `grad`; returns its loss.
    fn backpropagate(&self, entry: &Entry, wdl: f32, grad: &mut Gradient) -> f64 {
        let perspectives = FloatNet::perspectives(entry);
        let accs = perspectives.map(|p| self.hidden(entry, p));
        let mut out = self.b2;
        for (i, acc) in accs.iter().enumerate() {
            out += acc.iter().zip(&self.w2[i * HIDDEN..(i + 1) * HIDDEN]).map(|(a, w)| screlu(*a) * w).sum::<f32>();
        }
        let predicted = sigmoid(out);
        let error = predicted - FloatNet::target(entry, wdl);
        let d_out = 2.0 * error * predicted * (1.0 - predicted);
        grad.b2 += d_out;
        for (i, (acc, perspective)) in accs.iter().zip(perspectives).enumerate() {
            let weights = &self.w2[i * HIDDEN..(i + 1) * HIDDEN];
            let mut d_hidden = [0.0f32; HIDDEN];
            for j in 0..HIDDEN {
                grad.w2[i * HIDDEN + j] += d_out * screlu(acc[j]);
                let active = acc[j] > 0.0 && acc[j] < 1.0;
                d_hidden[j] = if active { d_out * weights[j] * 2.0 * acc[j] } else { 0.0 };
            }
            grad.b1.iter_mut().zip(&d_hidden).for_each(|(g, d)| *g += d);
            for &feature in entry.features() {
                let row = perspective_feature(feature, perspective) * HIDDEN;
                grad.w1[row..row + HIDDEN].iter_mut().zip(&d_hidden).for_each(|(g, d)| *g += d);
            }
        }
        f64::from(error * error)
    }

    /// The engine's integer network (scales in src/nnue).
    pub fn quantised(&self) -> Network {
        let q = |v: f32, scale: i32| (v * scale as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let mut net = Network::zeroed();
        for (row, weights) in net.feature_weights.iter_mut().zip(self.w1.chunks_exact(HIDDEN)) {
            row.iter_mut().zip(weights).for_each(|(r, w)| *r = q(*w, QA));
        }
        net.feature_bias.iter_mut().zip(&self.b1).for_each(|(r, w)| *r = q(*w, QA));
        for (side, weights) in net.output_weights.iter_mut().zip(self.w2.chunks_exact(HIDDEN)) {
            side.iter_mut().zip(weights).for_each(|(r, w)| *r = q(*w, QB));
        }
        net.output_bias = (self.b2 * (QA * QB) as f32).round() as i32;
        net
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// The quantised net scores positions within a few centipawns of the float net it came from.
    #[test]
    fn quantised_output_is_close_to_float() {
        let mut rng = 7u64;
        let mut float = FloatNet::random(&mut rng);
        float.b1.iter_mut().for_each(|b| *b = 0.3);
        let net = float.quantised();
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
        eprintln!("quantisation error: mean {mean:.2} cp, worst {worst:.2} cp");
        assert!(mean <= 4.0 && worst <= 12.0, "mean {mean} cp, worst {worst} cp");
    }

    /// A numerical check of `backpropagate` on one weight of each layer.
    #[test]
    fn gradient_matches_finite_differences() {
        let mut rng = 3u64;
        let mut net = FloatNet::random(&mut rng);
        net.b1.iter_mut().for_each(|b| *b = 0.4);
        let pos = Position::from_fen("r3k2r/pp3ppp/2n5/3pP3/8/2N5/PP3PPP/R3K2R w KQkq d6 0 12").unwrap();
        let entry = Entry::new(&pos, 150, 2);
        let loss = |n: &FloatNet| {
            let e = sigmoid(n.output(&entry)) - FloatNet::target(&entry, 0.3);
            e * e
        };
        let mut grad = Gradient::zero();
        net.backpropagate(&entry, 0.3, &mut grad);
        let feature = perspective_feature(entry.features()[3], Color::White) * HIDDEN + 5;
        for (which, analytic) in [("w1", grad.w1[feature]), ("w2", grad.w2[HIDDEN + 9]), ("b2", grad.b2)] {
            let h = 1e-3;
            let mut up = net.clone();
            let mut down = net.clone();
            match which {
                "w1" => (up.w1[feature] += h, down.w1[feature] -= h),
                "w2" => (up.w2[HIDDEN + 9] += h, down.w2[HIDDEN + 9] -= h),
                _ => (up.b2 += h, down.b2 -= h),
            };
            let numeric = (loss(&up) - loss(&down)) / (2.0 * h);
            assert!((numeric - analytic).abs() < 1e-4 + 0.02 * analytic.abs(), "{which}: {numeric} vs {analytic}");
        }
    }
}
