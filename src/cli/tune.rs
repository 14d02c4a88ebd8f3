//! `tune`: Texel tuning of the hand-crafted evaluation; writes a new `src/eval/params.rs`.

use super::bad_input;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// `springer tune`'s arguments.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// The labelled positions.
    data: PathBuf,
    /// Use at most this many positions.
    #[arg(long, default_value_t = usize::MAX)]
    positions: usize,
    /// Adam epochs.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Adam step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    learning_rate: f64,
    /// Weight of the game result in the target when a reference score is given (third field).
    #[arg(long, default_value_t = 0.5)]
    result_weight: f32,
    /// Pull toward the starting values.
    #[arg(long, default_value_t = 1e-8)]
    regularization: f64,
    /// Where to write the parameters.
    #[arg(long, default_value = "params.rs")]
    out: PathBuf,
}

/// `springer tune`: progress on stderr, the parameters (with the command that made them) to `--out`.
pub fn run(args: &TuneArgs) -> ExitCode {
    let TuneArgs { ref data, positions, epochs, learning_rate, result_weight, regularization, ref out } = *args;
    let config = springer::tune::TuneConfig { positions, epochs, learning_rate, result_weight, regularization };
    let text = match std::fs::read_to_string(data) {
        Ok(text) => text,
        Err(e) => return bad_input(format!("cannot read {}: {e}", data.display())),
    };
    let start = Instant::now();
    let tuned = match springer::tune::tune(&text, springer::eval::current_params(), &config, &mut |line| {
        eprintln!("[{:>6.1}s] {line}", start.elapsed().as_secs_f64())
    }) {
        Ok(tuned) => tuned,
        Err(e) => return bad_input(format!("{}: {e}", data.display())),
    };
    let provenance = format!(
        "Texel-tuned by `springer tune {} --positions {} --epochs {} --learning-rate {} --result-weight {} --regularization {}`.",
        data.display(),
        config.positions,
        config.epochs,
        config.learning_rate,
        config.result_weight,
        config.regularization
    );
    match std::fs::write(out, springer::tune::render_params(&tuned, &provenance)) {
        Ok(()) => {
            eprintln!("wrote {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => bad_input(format!("cannot write {}: {e}", out.display())),
    }
}
