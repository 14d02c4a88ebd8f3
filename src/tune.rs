//! Texel tuning of the evaluation parameters. Each labelled position (FEN, game result and
//! optionally a reference engine's score) is resolved to the quiet leaf of its quiescence
//! search and traced: the evaluation is linear in the parameters, so a position becomes a
//! sparse vector of term counts plus its phase and endgame scale. The target is a blend of the
//! result and the reference score turned into an expected score; the scale K of the logistic
//! model is fitted first, then full-batch Adam minimises the mean squared error, with a light
//! pull toward the starting values so rarely seen parameters stay sensible.

use crate::eval::terms::{NUM_PARAMS, TERMS};
use crate::eval::{evaluate_with, Score, Trace, FULL_SCALE, MAX_PHASE};
use crate::position::Position;
use crate::search::history::Histories;
use crate::search::quiet_leaf;
use crate::search::tt::TranspositionTable;
use crate::types::Color;
use rayon::prelude::*;
use std::fmt::Write;

/// One traced position.
struct Sample {
    /// (parameter, White's count minus Black's count), non-zero only.
    terms: Vec<(u16, i16)>,
    /// Weight of the middlegame half of each parameter: phase / MAX_PHASE.
    mg_weight: f32,
    /// Weight of the endgame half: (MAX_PHASE - phase) / MAX_PHASE * scale / FULL_SCALE.
    eg_weight: f32,
    /// The game result from White's point of view: 1, 0.5 or 0.
    result: f32,
}

/// Collects term counts for one position.
struct Collector {
    counts: Vec<i32>,
    phase: i32,
    scale: i32,
}

impl Trace for Collector {
    fn term(&mut self, param: usize, color: Color, count: i32) {
        self.counts[param] += count * color.sign();
    }

    fn blend(&mut self, phase: i32, scale: i32) {
        self.phase = phase;
        self.scale = scale;
    }
}

/// A labelled-position line could not be read.
#[derive(Debug)]
pub struct DataError(pub String);

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DataError {}

/// Centipawns of the reference engine's score per logit of expected score: Stockfish 15.1
/// scales its scores so that +100 cp is about a 50% win chance with few losses, an expected
/// score near 0.74, which is 1 / (1 + e^(-100/95)).
const REFERENCE_CP_PER_LOGIT: f32 = 95.0;

/// The position and its target: the result blended with the reference score (if present) as
/// `result_weight * result + (1 - result_weight) * expected(score)`.
fn parse_line(line: &str, result_weight: f32) -> Option<(Position, f32)> {
    let mut fields = line.split(';');
    let fen = fields.next()?;
    let result: f32 = match fields.next()?.trim() {
        "1.0" | "1" | "1-0" => 1.0,
        "0.5" | "1/2-1/2" => 0.5,
        "0.0" | "0" | "0-1" => 0.0,
        _ => return None,
    };
    let target = match fields.next() {
        Some(score) => {
            let cp: f32 = score.trim().parse().ok()?;
            let expected = 1.0 / (1.0 + (-cp / REFERENCE_CP_PER_LOGIT).exp());
            result_weight * result + (1.0 - result_weight) * expected
        }
        None => result,
    };
    Some((Position::from_fen(fen.trim()).ok()?, target))
}

fn trace(pos: &Position, result: f32) -> Sample {
    let mut collector = Collector { counts: vec![0; NUM_PARAMS], phase: 0, scale: FULL_SCALE };
    evaluate_with(pos, &mut collector);
    let terms = collector
        .counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != 0)
        .map(|(i, &c)| (i as u16, c.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16))
        .collect();
    let mg_weight = collector.phase as f32 / MAX_PHASE as f32;
    let eg_weight =
        (MAX_PHASE - collector.phase) as f32 / MAX_PHASE as f32 * collector.scale as f32 / FULL_SCALE as f32;
    Sample { terms, mg_weight, eg_weight, result }
}

/// Reads `FEN;RESULT` lines (at most `limit`), resolves each to its quiet leaf and traces it.
fn load(text: &str, limit: usize, result_weight: f32) -> Result<Vec<Sample>, DataError> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).take(limit).collect();
    let bad = lines.par_iter().filter(|l| parse_line(l, result_weight).is_none()).count();
    if bad * 100 > lines.len().max(1) {
        return Err(DataError(format!("{bad} of {} lines are not 'FEN;RESULT'", lines.len())));
    }
    Ok(lines
        .par_chunks(4096)
        .flat_map_iter(|chunk| {
            let tt = TranspositionTable::new(4);
            let mut histories = Histories::default();
            chunk
                .iter()
                .filter_map(|line| parse_line(line, result_weight))
                .map(|(pos, result)| trace(&quiet_leaf(&pos, &tt, &mut histories), result))
                .collect::<Vec<_>>()
        })
        .collect())
}

fn predict(sample: &Sample, params: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &sample.terms {
        mg += f64::from(c) * params[i as usize][0];
        eg += f64::from(c) * params[i as usize][1];
    }
    mg * f64::from(sample.mg_weight) + eg * f64::from(sample.eg_weight)
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval / 400.0).exp())
}

fn mean_error(samples: &[Sample], params: &[[f64; 2]], k: f64) -> f64 {
    let total: f64 = samples.par_iter().map(|s| (f64::from(s.result) - sigmoid(k, predict(s, params))).powi(2)).sum();
    total / samples.len().max(1) as f64
}

/// The K that best fits the current parameters (golden-section search on [0.1, 10]).
fn fit_k(samples: &[Sample], params: &[[f64; 2]]) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 10.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if mean_error(samples, params, a) < mean_error(samples, params, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn gradient(samples: &[Sample], params: &[[f64; 2]], k: f64) -> Vec<[f64; 2]> {
    samples
        .par_chunks(8192)
        .map(|chunk| {
            let mut grad = vec![[0.0f64; 2]; NUM_PARAMS];
            for s in chunk {
                let p = sigmoid(k, predict(s, params));
                // d/dE of (r - p)^2 with p = sigmoid(k E / 400).
                let d = -2.0 * (f64::from(s.result) - p) * p * (1.0 - p) * k / 400.0;
                let (dmg, deg) = (d * f64::from(s.mg_weight), d * f64::from(s.eg_weight));
                for &(i, c) in &s.terms {
                    grad[i as usize][0] += dmg * f64::from(c);
                    grad[i as usize][1] += deg * f64::from(c);
                }
            }
            grad
        })
        .reduce(
            || vec![[0.0; 2]; NUM_PARAMS],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x[0] += y[0];
                    x[1] += y[1];
                }
                a
            },
        )
}

/// Tuning settings.
pub struct TuneConfig {
    /// Positions to read at most.
    pub positions: usize,
    /// Adam epochs (full passes).
    pub epochs: usize,
    /// Adam step size, in centipawns.
    pub learning_rate: f64,
    /// Weight of the game result in the target (the rest is the reference score).
    pub result_weight: f32,
    /// Strength of the pull toward the starting values (per centipawn of difference).
    pub regularization: f64,
}

/// Tunes from the labelled positions in `text`, starting at `start`, reporting progress to
/// `log`; returns the tuned parameters.
pub fn tune(
    text: &str,
    start: &[Score],
    config: &TuneConfig,
    log: &mut dyn FnMut(&str),
) -> Result<Vec<Score>, DataError> {
    let samples = load(text, config.positions, config.result_weight)?;
    if samples.is_empty() {
        return Err(DataError("no positions to tune on".to_string()));
    }
    log(&format!("{} positions traced", samples.len()));
    let mut params: Vec<[f64; 2]> = start.iter().map(|s| [f64::from(s.mg), f64::from(s.eg)]).collect();
    let initial = params.clone();
    let k = fit_k(&samples, &params);
    log(&format!("K = {k:.4}, error {:.6}", mean_error(&samples, &params, k)));
    let n = samples.len() as f64;
    let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0f64; 2]; NUM_PARAMS];
    let mut v = vec![[0.0f64; 2]; NUM_PARAMS];
    for epoch in 1..=config.epochs {
        let grad = gradient(&samples, &params, k);
        for i in 0..NUM_PARAMS {
            for j in 0..2 {
                let g = grad[i][j] / n + config.regularization * (params[i][j] - initial[i][j]);
                m[i][j] = beta1 * m[i][j] + (1.0 - beta1) * g;
                v[i][j] = beta2 * v[i][j] + (1.0 - beta2) * g * g;
                let m_hat = m[i][j] / (1.0 - beta1.powi(epoch as i32));
                let v_hat = v[i][j] / (1.0 - beta2.powi(epoch as i32));
                params[i][j] -= config.learning_rate * m_hat / (v_hat.sqrt() + epsilon);
            }
        }
        if epoch % 50 == 0 || epoch == config.epochs {
            log(&format!("epoch {epoch}: error {:.6}", mean_error(&samples, &params, k)));
        }
    }
    Ok(params.iter().map(|p| Score::new(p[0].round() as i32, p[1].round() as i32)).collect())
}

/// The Rust source of `src/eval/params.rs` for `params`.
pub fn render_params(params: &[Score], provenance: &str) -> String {
    let mut out = String::new();
    out.push_str("//! Evaluation parameters, (middlegame, endgame) in centipawns, laid out as `terms.rs` says.\n");
    for line in provenance.lines() {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str("\nuse super::Score;\n\nconst fn s(mg: i32, eg: i32) -> Score {\n    Score::new(mg, eg)\n}\n\n#[rustfmt::skip]\npub static PARAMS: [Score; super::terms::NUM_PARAMS] = [\n");
    for &(name, start, len) in TERMS {
        let _ = writeln!(out, "    // {name}");
        for row in params[start..start + len].chunks(8) {
            let cells: Vec<String> = row.iter().map(|p| format!("s({}, {}),", p.mg, p.eg)).collect();
            let _ = writeln!(out, "    {}", cells.join(" "));
        }
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traced_terms_reproduce_the_evaluation() {
        // The tuner's linear model must give the engine's own evaluation (up to rounding).
        let params: Vec<[f64; 2]> =
            crate::eval::current_params().iter().map(|s| [f64::from(s.mg), f64::from(s.eg)]).collect();
        for fen in [
            crate::position::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            let sample = trace(&pos, 0.5);
            let white = crate::eval::evaluate(&pos) * pos.side_to_move().sign();
            assert!(
                (predict(&sample, &params) - f64::from(white)).abs() <= 2.0,
                "{fen}: {} vs {white}",
                predict(&sample, &params)
            );
        }
    }

    #[test]
    fn rendered_params_have_every_term() {
        let text = render_params(crate::eval::current_params(), "test");
        for &(name, _, _) in TERMS {
            assert!(text.contains(&format!("// {name}\n")));
        }
        assert_eq!(text.matches("s(").count() - 1, NUM_PARAMS); // the helper's own `s(` once
    }
}
