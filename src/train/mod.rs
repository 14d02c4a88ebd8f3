//! `springer train`: fits the network (src/nnue) to Springer's own games on the CPU and writes a
//! quantised net file.
//!
//! Data: `springer datagen` directories (every `chunk-*.bin`) and text files of the gen-0 format
//! (`FEN | score | bestmove | result`, one position a line). The same filters apply to both:
//! not in check, a quiet best move, no mate score, and (datagen) from the eighth searched ply on
//! or (text) from move 5 on. The positions are shuffled once (seeded), 1 % is held out to report a
//! validation loss, and the rest is trained in mini-batches with Adam.
//!
//! Loss: the squared difference of `sigmoid(output)` and the target `(1 - wdl) *
//! sigmoid(score / SCALE) + wdl * result`, the result for the side to move (1, 0.5, 0).

mod compare;
mod data;
mod float_net;

pub use compare::{net_losses, NetLoss};
pub use data::{load, Entry, LoadError};
pub use float_net::FloatNet;

use crate::nnue::{readable_buckets, Inputs, KingBuckets, Network, HIDDEN, MAX_BUCKETS};
use crate::say;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// What `springer train` was asked for.
#[derive(Clone, Debug)]
pub struct Config {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    pub epochs: usize,
    pub batch: usize,
    /// Adam's step size at the first epoch; it decays exponentially to `lr * FINAL_LR_RATIO`.
    pub lr: f32,
    /// The game result's share of the target.
    pub wdl: f32,
    pub threads: usize,
    pub seed: u64,
    /// Add left-right mirrored copies of positions without castling rights.
    pub mirror: bool,
    /// King-mirrored inputs (`nnue::input_index`).
    pub king_mirror: bool,
    /// King buckets (`nnue::KingBuckets::FOUR`): from scratch, or splitting an `init` net
    /// without them.
    pub king_buckets: bool,
    /// Hidden neurons per perspective: one of `WIDTHS`.
    pub hidden: usize,
    /// Output layers, chosen by the number of pieces (`nnue::output_bucket`): 1 to
    /// `nnue::MAX_BUCKETS`.
    pub buckets: usize,
    /// A net file to start from instead of random weights (fine-tuning a net on new games):
    /// its width, buckets and mirroring then replace `hidden`, `buckets` and `king_mirror`
    /// (with `king_buckets`, its one set of input rows is copied into each king bucket).
    pub init: Option<PathBuf>,
    /// Games held out whole (datagen directories or text files, never trained on): their loss
    /// is printed with each epoch's, the check of a net that the held-out 1 % of the training
    /// games cannot give (positions of one game are alike, so that 1 % flatters overfitting).
    pub test: Vec<PathBuf>,
}

/// The widths the trainer can write (a build reads the width of its embedded net).
pub const WIDTHS: [usize; 4] = [64, 128, 256, 512];

/// The step size at the last epoch, as a share of the first's.
const FINAL_LR_RATIO: f32 = 0.05;
/// Mixed into `--seed` for the weights of the neurons that widening adds.
const WIDEN_SEED: u64 = 0x5749_4445_4e5f_4e45;
/// The share of positions held out for the validation loss.
const VALIDATION_SHARE: usize = 100;
/// Adam's decay rates and epsilon.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// Why training stopped early.
#[derive(Debug)]
pub enum TrainError {
    Load(LoadError),
    NoData,
    Write(PathBuf, std::io::Error),
    Threads(String),
    Width(usize),
    /// `--hidden` narrower than the `--init` net (only widening keeps what the net knows).
    Narrower(usize),
    Buckets(usize),
    /// A net file (`--init`, `net-loss --net`) could not be read.
    Init(PathBuf, String),
    /// `--mirror` beside a king-mirrored `--init` net.
    MirroredInit,
    /// `--king-buckets` beside an `--init` net that has king buckets already.
    KingBucketsInit,
}

impl std::fmt::Display for TrainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainError::Load(e) => write!(f, "{e}"),
            TrainError::NoData => write!(f, "no trainable positions in the data given"),
            TrainError::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
            TrainError::Threads(e) => write!(f, "cannot start the worker threads: {e}"),
            TrainError::Width(h) => write!(f, "--hidden {h} is not one of {WIDTHS:?}"),
            TrainError::Narrower(h) => {
                write!(f, "--hidden {h} is narrower than the --init net's {HIDDEN}: a net is only widened")
            }
            TrainError::Buckets(b) => write!(f, "--buckets {b} is not between 1 and {MAX_BUCKETS}"),
            TrainError::Init(path, e) => write!(f, "cannot read the net {}: {e}", path.display()),
            TrainError::MirroredInit => {
                write!(f, "--mirror cannot be used with a king-mirrored --init net (its copies would be duplicates)")
            }
            TrainError::KingBucketsInit => write!(f, "--king-buckets needs an --init net without king buckets"),
        }
    }
}

/// Adam's running moments for one parameter vector.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(len: usize) -> Moments {
        Moments { m: vec![0.0; len], v: vec![0.0; len] }
    }

    /// One Adam step of `params` along `grad`, then clipped to +-`limit`.
    fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32, t: i32, limit: f32) {
        let correct1 = 1.0 - BETA1.powi(t);
        let correct2 = 1.0 - BETA2.powi(t);
        for (((p, &g), m), v) in params.iter_mut().zip(grad).zip(&mut self.m).zip(&mut self.v) {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let step = lr * (*m / correct1) / ((*v / correct2).sqrt() + EPSILON);
            *p = (*p - step).clamp(-limit, limit);
        }
    }
}

/// Runs `springer train`: loads, trains, writes the quantised net; progress on stderr.
pub fn run(config: &Config) -> Result<(), TrainError> {
    if let Some(path) = &config.init {
        let mut start = start_net(path)?;
        if config.mirror && start.inputs.king_mirror {
            return Err(TrainError::MirroredInit);
        }
        if config.king_buckets {
            if start.inputs.king_buckets != KingBuckets::NONE {
                return Err(TrainError::KingBucketsInit);
            }
            start = start.with_king_buckets(KingBuckets::FOUR);
        }
        let config = Config {
            buckets: start.buckets(),
            king_mirror: start.inputs.king_mirror,
            king_buckets: start.inputs.king_buckets != KingBuckets::NONE,
            ..config.clone()
        };
        // Widening draws the new neurons from a generator of their own, so the shuffles (and
        // with them the held-out positions) are those of the same seed without widening.
        let mut rng = config.seed.max(1) ^ WIDEN_SEED;
        return match config.hidden {
            w if w == HIDDEN => run_with::<HIDDEN>(&config, Some(start)),
            w if !WIDTHS.contains(&w) => Err(TrainError::Width(w)),
            w if w < HIDDEN => Err(TrainError::Narrower(w)),
            128 => run_with::<128>(&config, Some(start.widened(&mut rng))),
            256 => run_with::<256>(&config, Some(start.widened(&mut rng))),
            512 => run_with::<512>(&config, Some(start.widened(&mut rng))),
            w => unreachable!("{w} is wider than the build's {HIDDEN} but not 128, 256 or 512"),
        };
    }
    if !readable_buckets(config.buckets) {
        return Err(TrainError::Buckets(config.buckets));
    }
    match config.hidden {
        64 => run_with::<64>(config, None),
        128 => run_with::<128>(config, None),
        256 => run_with::<256>(config, None),
        512 => run_with::<512>(config, None),
        other => Err(TrainError::Width(other)),
    }
}

/// The `--init` net at `path`, in floating point (a build reads nets of its own width only).
fn start_net(path: &PathBuf) -> Result<FloatNet<HIDDEN>, TrainError> {
    let bytes = std::fs::read(path).map_err(|e| TrainError::Init(path.clone(), e.to_string()))?;
    let net = Network::from_bytes(&bytes).map_err(|e| TrainError::Init(path.clone(), e.to_string()))?;
    Ok(FloatNet::from_network(&net))
}

/// `run` for a net of `H` hidden neurons per perspective, from `start` or from random weights.
fn run_with<const H: usize>(config: &Config, start: Option<FloatNet<H>>) -> Result<(), TrainError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .map_err(|e| TrainError::Threads(e.to_string()))?;
    let started = Instant::now();
    let mut entries = load(&config.data, config.mirror).map_err(TrainError::Load)?;
    if entries.len() < 2 {
        return Err(TrainError::NoData);
    }
    let mut rng = config.seed.max(1);
    shuffle(&mut entries, &mut rng);
    let held_out = (entries.len() / VALIDATION_SHARE).max(1);
    let (validation, training) = entries.split_at(held_out);
    eprintln!(
        "train: {} positions ({} held out) loaded in {:.1} s",
        entries.len(),
        validation.len(),
        started.elapsed().as_secs_f64()
    );

    let test = if config.test.is_empty() {
        Vec::new()
    } else {
        let test = load(&config.test, false).map_err(TrainError::Load)?;
        eprintln!("test: {} positions of games held out whole", test.len());
        test
    };
    let mean_loss = |net: &FloatNet<H>, entries: &[Entry]| {
        let order: Vec<u32> = (0..entries.len() as u32).collect();
        let (_, loss) = pool.install(|| net.gradient(entries, &order, config.wdl));
        loss / entries.len().max(1) as f64
    };
    // Each epoch's losses on the held-out 1 % and, with `--test`, on the games held out whole.
    let held_out_losses = |net: &FloatNet<H>| {
        let validation = format!("validation loss {:.6}", mean_loss(net, validation));
        if test.is_empty() {
            validation
        } else {
            format!("{validation}  test loss {:.6}", mean_loss(net, &test))
        }
    };
    let mut net = match start {
        Some(net) => {
            // The loss to beat: what the starting net scores on the held-out positions.
            eprintln!("start net: {}", held_out_losses(&net));
            net
        }
        None => {
            let king_buckets = if config.king_buckets { KingBuckets::FOUR } else { KingBuckets::NONE };
            FloatNet::<H>::random(&mut rng, config.buckets, Inputs { king_mirror: config.king_mirror, king_buckets })
        }
    };
    let mut moments = [
        Moments::new(net.w1.len()),
        Moments::new(net.b1.len()),
        Moments::new(net.w2.len()),
        Moments::new(net.b2.len()),
    ];
    let mut order: Vec<u32> = (0..training.len() as u32).collect();
    let mut t = 0;
    for epoch in 0..config.epochs {
        let epoch_start = Instant::now();
        let lr = config.lr * FINAL_LR_RATIO.powf(epoch as f32 / (config.epochs.max(2) - 1) as f32);
        shuffle(&mut order, &mut rng);
        let mut train_loss = 0.0;
        for batch in order.chunks(config.batch) {
            let (grad, loss) = pool.install(|| net.gradient(training, batch, config.wdl));
            train_loss += loss;
            t += 1;
            let scale = 1.0 / batch.len() as f32;
            let [m_w1, m_b1, m_w2, m_b2] = &mut moments;
            let limit = FloatNet::<H>::WEIGHT_LIMIT;
            m_w1.step(&mut net.w1, &scaled(&grad.w1, scale), lr, t, limit);
            m_b1.step(&mut net.b1, &scaled(&grad.b1, scale), lr, t, f32::MAX);
            m_w2.step(&mut net.w2, &scaled(&grad.w2, scale), lr, t, limit);
            m_b2.step(&mut net.b2, &scaled(&grad.b2, scale), lr, t, f32::MAX);
        }
        eprintln!(
            "epoch {:>3}  lr {:.6}  train loss {:.6}  {}  {:.1} s",
            epoch + 1,
            lr,
            train_loss / training.len() as f64,
            held_out_losses(&net),
            epoch_start.elapsed().as_secs_f64()
        );
    }
    let bytes = net.quantised_bytes();
    std::fs::File::create(&config.out)
        .and_then(|mut f| f.write_all(&bytes))
        .map_err(|e| TrainError::Write(config.out.clone(), e))?;
    say!(
        "wrote {} ({} bytes) after {} epochs in {:.0} s",
        config.out.display(),
        bytes.len(),
        config.epochs,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `values` times `scale` (on this thread: rayon's global pool would ignore `--threads`).
fn scaled(values: &[f32], scale: f32) -> Vec<f32> {
    values.iter().map(|v| v * scale).collect()
}

/// xorshift64*: the trainer's only randomness, from `--seed`.
pub(crate) fn next_random(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

fn shuffle<T>(items: &mut [T], rng: &mut u64) {
    for i in (1..items.len()).rev() {
        let j = (next_random(rng) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}
