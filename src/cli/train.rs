//! `train`: the network trainer (src/train) over datagen chunks and gen-0 text files.

use super::bad_input;
use std::path::PathBuf;
use std::process::ExitCode;

/// `springer train`'s arguments.
#[derive(clap::Args)]
pub struct TrainArgs {
    /// Datagen directories (every chunk-*.bin) and `FEN | score | bestmove | result` text files.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The net file to write.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    epochs: u64,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    batch: u64,
    /// Adam's step size at the first epoch (it decays to 5 % of it by the last).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// The game result's share of the target (the rest is the search score). 0 by default:
    /// blending in the results of these short games squeezed the net's scale (docs/nnue.md).
    #[arg(long, default_value_t = 0.0)]
    wdl: f32,
    /// Worker threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: u64,
    /// Seed of the shuffles and the initial weights.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also train on each position without castling rights mirrored left to right.
    #[arg(long, conflicts_with = "king_mirror")]
    mirror: bool,
    /// King-mirrored inputs: each side sees the board mirrored left to right while its king
    /// stands on files e-h (a `SPRNNUE3` net; every build reads it). Its mirrored copies
    /// would be duplicates, so `--mirror` is refused beside it.
    #[arg(long)]
    king_mirror: bool,
    /// Four king buckets: each side reads its own set of input rows by where its king stands
    /// (first rank a-b/g-h, first rank c-f, second rank, the rest; a `SPRNNUE3` net). Beside
    /// --init it splits that net's rows into the buckets, each a copy, so training starts
    /// from the same scores.
    #[arg(long)]
    king_buckets: bool,
    /// Hidden neurons per perspective: 64, 128, 256 or 512 (default: the embedded net's). A
    /// build reads nets of its embedded net's width only. Beside --init a wider width widens
    /// that net: its neurons are kept and the new ones start unread, so training starts from
    /// the same scores.
    #[arg(long, default_value_t = springer::nnue::HIDDEN as u64)]
    hidden: u64,
    /// Output layers, one per range of piece counts (8: 2-5, 6-9, ..., 30-32 pieces); 1 to
    /// 16. Every build reads nets of any bucket count.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=springer::nnue::MAX_BUCKETS as u64))]
    buckets: u64,
    /// Start from this net file instead of random weights (fine-tuning it on new games, best
    /// with a smaller --lr); its buckets and mirroring are kept, so --buckets and --king-mirror
    /// are refused beside it, and its width unless --hidden widens it.
    #[arg(long, conflicts_with_all = ["buckets", "king_mirror"])]
    init: Option<PathBuf>,
    /// Games held out whole (datagen directories or text files, none of them in DATA): their
    /// loss is printed after each epoch beside the held-out 1 % of DATA's positions, which
    /// come from the training games themselves and so flatter a net that learns them by heart.
    #[arg(long)]
    test: Vec<PathBuf>,
}

/// `springer train`: the loss per epoch on stderr, the quantised net to `--out`.
pub fn run(args: TrainArgs) -> ExitCode {
    let TrainArgs {
        data,
        out,
        epochs,
        batch,
        lr,
        wdl,
        threads,
        seed,
        mirror,
        king_mirror,
        king_buckets,
        hidden,
        buckets,
        init,
        test,
    } = args;
    if !(lr > 0.0 && lr.is_finite() && (0.0..=1.0).contains(&wdl)) {
        return bad_input("--lr must be positive and --wdl within 0..1");
    }
    let config = springer::train::Config {
        data,
        out,
        epochs: epochs as usize,
        batch: batch as usize,
        lr,
        wdl,
        threads: threads as usize,
        seed,
        mirror,
        king_mirror,
        king_buckets,
        hidden: hidden as usize,
        buckets: buckets as usize,
        init,
        test,
    };
    match springer::train::run(&config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => bad_input(e),
    }
}

/// `springer net-loss`'s arguments.
#[derive(clap::Args)]
pub struct NetLossArgs {
    /// Datagen directories (every chunk-*.bin) and `FEN | score | bestmove | result` text files:
    /// best, games none of the nets was trained on.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// A net file (repeatable); every later one is compared with the first.
    #[arg(long = "net", required = true)]
    nets: Vec<PathBuf>,
    /// The game result's share of the target, as in `train`.
    #[arg(long, default_value_t = 0.0)]
    wdl: f32,
    /// Worker threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: u64,
}

/// `springer net-loss`: one line per net, its mean loss and (after the first) the paired
/// difference to the first with its 95 % interval; lower is better.
pub fn run_net_loss(args: &NetLossArgs) -> ExitCode {
    if !(0.0..=1.0).contains(&args.wdl) {
        return bad_input("--wdl must be within 0..1");
    }
    match springer::train::net_losses(&args.data, &args.nets, args.wdl, args.threads as usize) {
        Ok((positions, losses)) => {
            println!("positions {positions}");
            for result in losses {
                print!("{}  loss {:.6}", result.net.display(), result.loss);
                if let Some((difference, interval)) = result.versus_first {
                    print!("  versus the first {difference:+.6} +- {interval:.6}");
                }
                println!();
            }
            ExitCode::SUCCESS
        }
        Err(e) => bad_input(e),
    }
}
