//! The UCI options: their declarations for `uci`, and `setoption` values checked against them
//! (names match case-insensitively; spin values out of range are clamped and reported; values
//! that do not parse are refused).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

/// The largest transposition table, in MB.
pub const MAX_HASH_MB: usize = 65_536;
/// The most search threads accepted.
pub const MAX_THREADS: usize = 1024;
/// The most MultiPV lines.
pub const MAX_MULTIPV: usize = 256;

use crate::search::strength::{MAX_ELO, MIN_ELO};

/// The engine's option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Milliseconds kept back per move for GUI and network latency.
    pub move_overhead_ms: u64,
    /// Whether the GUI may send `go ponder` (informational for the engine).
    pub ponder: bool,
    /// Chess960 castling notation (king takes rook) in and out.
    pub chess960: bool,
    /// How many best lines to report.
    pub multipv: usize,
    /// Whether info lines carry `wdl W D L`.
    pub show_wdl: bool,
    /// Whether to play at `elo` strength.
    pub limit_strength: bool,
    /// The strength when limited.
    pub elo: i32,
    /// Whether to play from the opening book.
    pub own_book: bool,
    /// The Polyglot book's path (empty: none).
    pub book_file: String,
    /// Whether to evaluate with the network (false: the hand-crafted evaluation).
    pub use_nnue: bool,
    /// The net file in use (empty: the net built into the binary).
    pub eval_file: String,
    /// Syzygy directories, separated by `:` (`;` on Windows); empty: no tables.
    pub syzygy_path: String,
    /// Probe below the root only from this depth (at the largest piece count).
    pub syzygy_probe_depth: i32,
    /// Whether cursed wins and blessed losses count as draws.
    pub syzygy_50_move_rule: bool,
    /// Probe positions of at most this many pieces.
    pub syzygy_probe_limit: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            move_overhead_ms: 30,
            ponder: false,
            chess960: false,
            multipv: 1,
            show_wdl: false,
            limit_strength: false,
            elo: MAX_ELO,
            own_book: false,
            book_file: String::new(),
            use_nnue: true,
            eval_file: String::new(),
            syzygy_path: String::new(),
            syzygy_probe_depth: 1,
            syzygy_50_move_rule: true,
            syzygy_probe_limit: 7,
        }
    }
}

/// A change `setoption` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Hash(usize),
    Threads(usize),
    MoveOverhead(u64),
    ClearHash,
    Ponder(bool),
    Chess960(bool),
    MultiPv(usize),
    ShowWdl(bool),
    LimitStrength(bool),
    Elo(i32),
    OwnBook(bool),
    BookFile(String),
    UseNnue(bool),
    EvalFile(String),
    SyzygyPath(String),
    SyzygyProbeDepth(i32),
    Syzygy50MoveRule(bool),
    SyzygyProbeLimit(usize),
    /// A search margin of a tuning build: its index in `TUNABLES`, and the value.
    #[cfg(feature = "tune")]
    Tunable(usize, i32),
}

/// Declarations of every option, as `uci` prints them.
pub fn declarations() -> Vec<String> {
    let d = Options::default();
    #[allow(unused_mut)]
    let mut declared = vec![
        format!("option name Hash type spin default {} min 1 max {MAX_HASH_MB}", d.hash_mb),
        format!("option name Threads type spin default {} min 1 max {MAX_THREADS}", d.threads),
        format!("option name Move Overhead type spin default {} min 0 max 5000", d.move_overhead_ms),
        "option name Clear Hash type button".to_string(),
        format!("option name Ponder type check default {}", d.ponder),
        format!("option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}", d.multipv),
        format!("option name UCI_Chess960 type check default {}", d.chess960),
        format!("option name UCI_ShowWDL type check default {}", d.show_wdl),
        format!("option name UCI_LimitStrength type check default {}", d.limit_strength),
        format!("option name UCI_Elo type spin default {} min {MIN_ELO} max {MAX_ELO}", d.elo),
        format!("option name OwnBook type check default {}", d.own_book),
        "option name BookFile type string default <empty>".to_string(),
        format!("option name UseNNUE type check default {}", d.use_nnue),
        "option name EvalFile type string default <embedded>".to_string(),
        "option name SyzygyPath type string default <empty>".to_string(),
        format!("option name SyzygyProbeDepth type spin default {} min 1 max 100", d.syzygy_probe_depth),
        format!("option name Syzygy50MoveRule type check default {}", d.syzygy_50_move_rule),
        format!("option name SyzygyProbeLimit type spin default {} min 0 max 7", d.syzygy_probe_limit),
    ];
    #[cfg(feature = "tune")]
    declared.extend(
        crate::search::pruning::TUNABLES
            .iter()
            .map(|t| format!("option name {} type spin default {} min {} max {}", t.name, t.default, t.min, t.max)),
    );
    declared
}

/// A spin value: a number, clamped into `min..=max` with a warning when outside.
fn spin(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<(i64, Option<String>), String> {
    let text = value.ok_or_else(|| format!("option {name} needs a value"))?;
    let number = super::command::parse_whole(text).ok_or_else(|| {
        format!("option {name}: '{}' is not a whole number; unchanged", text.chars().take(40).collect::<String>())
    })?;
    let clamped = number.clamp(min, max);
    let warning =
        (clamped != number).then(|| format!("option {name}: {number} is outside {min}..{max}; set to {clamped}"));
    Ok((clamped, warning))
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!("option {name} expects 'true' or 'false'; unchanged")),
    }
}

/// The change `setoption name <name> value <value>` asks for, with a warning if the value was
/// adjusted; an error message if it cannot be applied.
pub fn parse(name: &str, value: Option<&str>) -> Result<(Change, Option<String>), String> {
    match name.trim().to_ascii_lowercase().as_str() {
        "hash" => spin("Hash", value, 1, MAX_HASH_MB as i64).map(|(v, w)| (Change::Hash(v as usize), w)),
        "threads" => spin("Threads", value, 1, MAX_THREADS as i64).map(|(v, w)| (Change::Threads(v as usize), w)),
        "move overhead" => spin("Move Overhead", value, 0, 5000).map(|(v, w)| (Change::MoveOverhead(v as u64), w)),
        "clear hash" => Ok((Change::ClearHash, None)),
        "ponder" => check("Ponder", value).map(|v| (Change::Ponder(v), None)),
        "uci_chess960" => check("UCI_Chess960", value).map(|v| (Change::Chess960(v), None)),
        "multipv" => spin("MultiPV", value, 1, MAX_MULTIPV as i64).map(|(v, w)| (Change::MultiPv(v as usize), w)),
        "uci_showwdl" => check("UCI_ShowWDL", value).map(|v| (Change::ShowWdl(v), None)),
        "uci_limitstrength" => check("UCI_LimitStrength", value).map(|v| (Change::LimitStrength(v), None)),
        "uci_elo" => {
            spin("UCI_Elo", value, i64::from(MIN_ELO), i64::from(MAX_ELO)).map(|(v, w)| (Change::Elo(v as i32), w))
        }
        "ownbook" => check("OwnBook", value).map(|v| (Change::OwnBook(v), None)),
        "bookfile" => {
            let path = value.map(str::trim).unwrap_or_default();
            let path = if path == "<empty>" { "" } else { path };
            Ok((Change::BookFile(path.to_string()), None))
        }
        "usennue" => check("UseNNUE", value).map(|v| (Change::UseNnue(v), None)),
        "evalfile" => {
            let path = value.map(str::trim).unwrap_or_default();
            let path = if path == "<embedded>" || path == "<empty>" { "" } else { path };
            Ok((Change::EvalFile(path.to_string()), None))
        }
        "syzygypath" => {
            let path = value.map(str::trim).unwrap_or_default();
            let path = if path == "<empty>" { "" } else { path };
            Ok((Change::SyzygyPath(path.to_string()), None))
        }
        "syzygyprobedepth" => {
            spin("SyzygyProbeDepth", value, 1, 100).map(|(v, w)| (Change::SyzygyProbeDepth(v as i32), w))
        }
        "syzygy50moverule" => check("Syzygy50MoveRule", value).map(|v| (Change::Syzygy50MoveRule(v), None)),
        "syzygyprobelimit" => {
            spin("SyzygyProbeLimit", value, 0, 7).map(|(v, w)| (Change::SyzygyProbeLimit(v as usize), w))
        }
        other => tunable(other, value)
            .unwrap_or_else(|| Err(format!("no such option '{}'", name.chars().take(40).collect::<String>()))),
    }
}

/// The change to a search margin of a tuning build, if `name` (lower case) is one.
#[cfg(feature = "tune")]
fn tunable(name: &str, value: Option<&str>) -> Option<Result<(Change, Option<String>), String>> {
    let tunables = crate::search::pruning::TUNABLES;
    let index = tunables.iter().position(|t| t.name.eq_ignore_ascii_case(name))?;
    let t = tunables[index];
    Some(spin(t.name, value, i64::from(t.min), i64::from(t.max)).map(|(v, w)| (Change::Tunable(index, v as i32), w)))
}

/// A normal build has no tunable options.
#[cfg(not(feature = "tune"))]
fn tunable(_name: &str, _value: Option<&str>) -> Option<Result<(Change, Option<String>), String>> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "tune")]
    #[test]
    fn a_tuning_build_declares_and_sets_every_margin() {
        use crate::search::pruning::TUNABLES;
        let declared = declarations();
        for (index, t) in TUNABLES.iter().enumerate() {
            let line = format!("option name {} type spin default {} min {} max {}", t.name, t.default, t.min, t.max);
            assert!(declared.contains(&line), "{line}");
            let lower = t.name.to_ascii_lowercase();
            assert_eq!(parse(&lower, Some(&t.max.to_string())), Ok((Change::Tunable(index, t.max), None)));
            let (change, warning) =
                parse(t.name, Some(&(i64::from(t.max) + 1).to_string())).unwrap_or_else(|e| unreachable!("{e}"));
            assert_eq!((change, warning.is_some()), (Change::Tunable(index, t.max), true));
            assert!(parse(t.name, Some("wide")).is_err());
        }
    }

    #[test]
    fn spins_clamp_and_report() {
        assert_eq!(parse("Hash", Some("64")), Ok((Change::Hash(64), None)));
        assert_eq!(parse("hash", Some("0")).map(|(c, w)| (c, w.is_some())), Ok((Change::Hash(1), true)));
        assert_eq!(parse("Threads", Some("100000")).map(|(c, _)| c), Ok(Change::Threads(MAX_THREADS)));
        assert!(parse("Hash", Some("lots")).is_err());
        assert!(parse("Hash", None).is_err());
    }

    #[test]
    fn checks_buttons_and_unknown_names() {
        assert_eq!(parse("UCI_Chess960", Some("true")), Ok((Change::Chess960(true), None)));
        assert!(parse("Ponder", Some("maybe")).is_err());
        assert_eq!(parse("Clear Hash", None), Ok((Change::ClearHash, None)));
        assert!(parse("Colour", Some("blue")).is_err());
        let tunables = if cfg!(feature = "tune") { crate::search::pruning::TUNABLES.len() } else { 0 };
        assert_eq!(declarations().len(), 18 + tunables);
        assert_eq!(parse("EvalFile", Some("<embedded>")), Ok((Change::EvalFile(String::new()), None)));
        assert_eq!(parse("MultiPV", Some("300")).map(|(c, _)| c), Ok(Change::MultiPv(MAX_MULTIPV)));
        assert_eq!(parse("UCI_Elo", Some("10")).map(|(c, _)| c), Ok(Change::Elo(MIN_ELO)));
        assert_eq!(parse("BookFile", Some("<empty>")), Ok((Change::BookFile(String::new()), None)));
        assert_eq!(parse("SyzygyPath", Some("<empty>")), Ok((Change::SyzygyPath(String::new()), None)));
        assert_eq!(parse("SyzygyProbeLimit", Some("9")).map(|(c, _)| c), Ok(Change::SyzygyProbeLimit(7)));
        assert!(parse("Syzygy50MoveRule", Some("yes")).is_err());
    }
}
