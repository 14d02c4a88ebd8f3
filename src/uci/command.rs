//! UCI text to `Command`. Unknown leading tokens are skipped as the protocol asks; values that
//! do not parse become warnings the engine reports while it carries on with the rest.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::search::time::Limits;
use std::fmt;

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name N [value V]`.
    SetOption { name: String, value: Option<String> },
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen F [moves ...]` (`fen: None` is the start position).
    Position { fen: Option<String>, moves: Vec<String> },
    /// `go ...`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `register ...`: this engine needs no registration, so it is ignored.
    Register,
    /// `d`: show the board, FEN, key and masks.
    Display,
    /// `eval`: the static evaluation by term.
    Eval,
    /// `bench [depth [threads]]`.
    Bench { depth: Option<i32>, threads: Option<usize> },
    /// `go perft N`.
    Perft { depth: u32 },
}

/// A parsed `go`: the limits, the root moves as text (checked against the position later) and
/// what could not be read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The limits (`search_moves` is filled in by the engine from `search_moves_text`).
    pub limits: Limits,
    /// The `searchmoves` as given.
    pub search_moves_text: Vec<String>,
    /// Problems found while reading the command, one message each.
    pub warnings: Vec<String>,
}

/// A line that is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// No known command in the line.
    Unknown(String),
    /// A known command whose arguments cannot be used.
    Malformed { command: &'static str, reason: String },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(text) => write!(f, "unknown command '{text}'"),
            CommandError::Malformed { command, reason } => write!(f, "{command}: {reason}"),
        }
    }
}

impl std::error::Error for CommandError {}

/// A whole number (an optional sign, then digits), saturated at `i64`'s bounds: a GUI's
/// absurdly long clock is still a clock. `None` for anything else.
pub(crate) fn parse_whole(text: &str) -> Option<i64> {
    let text = text.trim();
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse::<i64>().unwrap_or(if text.starts_with('-') { i64::MIN } else { i64::MAX }))
}

/// Shortens user text for messages.
fn clip(text: &str) -> String {
    let mut clipped: String = text.chars().take(60).collect();
    if clipped.len() < text.len() {
        clipped.push_str("...");
    }
    clipped
}

impl Command {
    /// Parses one line; `Ok(None)` for a blank line.
    pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() {
            return Ok(None);
        }
        // The protocol: skip unknown tokens and parse the rest of the line.
        let Some(start) = tokens.iter().position(|t| is_command(t)) else {
            return Err(CommandError::Unknown(clip(line.trim())));
        };
        let args = &tokens[start + 1..];
        let command = match tokens[start] {
            "uci" => Command::Uci,
            "debug" => Command::Debug(args.first() == Some(&"on")),
            "isready" => Command::IsReady,
            "ucinewgame" => Command::UciNewGame,
            "setoption" => parse_setoption(args)?,
            "position" => parse_position(args)?,
            "go" => parse_go(args)?,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "register" => Command::Register,
            "d" => Command::Display,
            "eval" => Command::Eval,
            "bench" => parse_bench(args)?,
            other => return Err(CommandError::Unknown(clip(other))),
        };
        Ok(Some(command))
    }
}

fn is_command(token: &str) -> bool {
    matches!(
        token,
        "uci"
            | "debug"
            | "isready"
            | "setoption"
            | "ucinewgame"
            | "position"
            | "go"
            | "stop"
            | "ponderhit"
            | "quit"
            | "register"
            | "d"
            | "eval"
            | "bench"
    )
}

fn parse_bench(args: &[&str]) -> Result<Command, CommandError> {
    let number = |index: usize, max: i64, what: &str| -> Result<Option<i64>, CommandError> {
        match args.get(index) {
            None => Ok(None),
            Some(text) => match text.parse::<i64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(Some(n)),
                _ => Err(CommandError::Malformed {
                    command: "bench",
                    reason: format!("{what} must be a number from 1 to {max}, got '{}'", clip(text)),
                }),
            },
        }
    };
    let depth = number(0, 64, "depth")?.map(|d| d as i32);
    let threads = number(1, 1024, "threads")?.map(|t| t as usize);
    Ok(Command::Bench { depth, threads })
}

fn parse_setoption(args: &[&str]) -> Result<Command, CommandError> {
    if args.first() != Some(&"name") {
        return Err(CommandError::Malformed {
            command: "setoption",
            reason: "expected 'setoption name <id> [value <x>]'".to_string(),
        });
    }
    let rest = &args[1..];
    let value_at = rest.iter().position(|&t| t == "value");
    let (name_tokens, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name_tokens.is_empty() {
        return Err(CommandError::Malformed { command: "setoption", reason: "the option name is missing".to_string() });
    }
    Ok(Command::SetOption { name: name_tokens.join(" "), value })
}

fn parse_position(args: &[&str]) -> Result<Command, CommandError> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], args[i + 1..].iter().map(|m| m.to_string()).collect()),
        None => (args, Vec::new()),
    };
    let fen = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => None,
        Some(&"fen") if setup.len() > 1 => Some(setup[1..].join(" ")),
        _ => {
            return Err(CommandError::Malformed {
                command: "position",
                reason: "expected 'position startpos|fen <FEN> [moves ...]'".to_string(),
            })
        }
    };
    Ok(Command::Position { fen, moves })
}

fn parse_go(args: &[&str]) -> Result<Command, CommandError> {
    if args.first() == Some(&"perft") {
        return match args.get(1).map(|t| t.parse::<u32>()) {
            Some(Ok(depth)) if (1..=20).contains(&depth) => Ok(Command::Perft { depth }),
            _ => Err(CommandError::Malformed {
                command: "go perft",
                reason: "expected a depth from 1 to 20".to_string(),
            }),
        };
    }
    let mut go = Go::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        match key {
            "infinite" => go.limits.infinite = true,
            "ponder" => go.limits.ponder = true,
            "searchmoves" => {
                while i < args.len() && !is_go_keyword(args[i]) {
                    go.search_moves_text.push(args[i].to_string());
                    i += 1;
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "movetime" | "mate" => {
                let Some(text) = args.get(i).filter(|t| !is_go_keyword(t)) else {
                    go.warnings.push(format!("go {key}: the value is missing; ignored"));
                    continue;
                };
                i += 1;
                match parse_whole(text) {
                    Some(value) => apply_go_value(&mut go, key, value),
                    None => go.warnings.push(format!("go {key}: '{}' is not a whole number; ignored", clip(text))),
                }
            }
            other => go.warnings.push(format!("go: unknown token '{}' ignored", clip(other))),
        }
    }
    Ok(Command::Go(go))
}

fn is_go_keyword(token: &str) -> bool {
    matches!(
        token,
        "searchmoves"
            | "ponder"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
    )
}

/// The largest time the engine takes at face value (about 24 days); more is clamped.
const MAX_TIME_MS: i64 = 1 << 31;

fn apply_go_value(go: &mut Go, key: &str, value: i64) {
    let limits = &mut go.limits;
    let clamped = value.clamp(0, MAX_TIME_MS);
    if value < 0 {
        // Some GUIs send a negative clock once it has run out: move at once.
        go.warnings.push(format!("go {key}: negative value {value} taken as 0"));
    } else if value > MAX_TIME_MS {
        go.warnings.push(format!("go {key}: {value} is beyond any clock; taken as {MAX_TIME_MS}"));
    }
    let ms = clamped as u64;
    match key {
        "wtime" => limits.time_ms[0] = Some(ms),
        "btime" => limits.time_ms[1] = Some(ms),
        "winc" => limits.increment_ms[0] = ms,
        "binc" => limits.increment_ms[1] = ms,
        "movestogo" => limits.moves_to_go = (clamped > 0).then_some(clamped.min(1000) as u32),
        "depth" => limits.depth = Some(clamped.clamp(1, 120) as i32),
        "nodes" => limits.nodes = Some(ms.max(1)),
        "movetime" => limits.movetime_ms = Some(ms),
        _ => limits.mate = Some(clamped.clamp(1, 100) as i32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        match Command::parse(line) {
            Ok(Some(cmd)) => cmd,
            other => unreachable!("{line}: {other:?}"),
        }
    }

    #[test]
    fn whole_numbers_saturate_and_anything_else_is_refused() {
        assert_eq!(parse_whole("99999999999999999999"), Some(i64::MAX));
        assert_eq!(parse_whole("-99999999999999999999"), Some(i64::MIN));
        assert_eq!(parse_whole(" +5 "), Some(5));
        for bad in ["", "-", "12a", "1.5", "0x10", "--3"] {
            assert_eq!(parse_whole(bad), None, "{bad}");
        }
        assert_eq!(parse("register later"), Command::Register);
    }

    #[test]
    fn basic_commands() {
        assert_eq!(parse("uci"), Command::Uci);
        assert_eq!(parse("  isready  "), Command::IsReady);
        assert_eq!(parse("joho debug on"), Command::Debug(true));
        assert_eq!(Command::parse(""), Ok(None));
        assert!(matches!(Command::parse("hello world"), Err(CommandError::Unknown(_))));
    }

    #[test]
    fn position_forms() {
        assert_eq!(parse("position startpos"), Command::Position { fen: None, moves: vec![] });
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Command::Position { fen: None, moves: vec!["e2e4".into(), "e7e5".into()] }
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2"),
            Command::Position { fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()), moves: vec!["a1a2".into()] }
        );
        assert!(Command::parse("position").is_err());
        assert!(Command::parse("position fen").is_err());
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Command::SetOption { name: "Move Overhead".into(), value: Some("100".into()) }
        );
        assert_eq!(parse("setoption name Clear Hash"), Command::SetOption { name: "Clear Hash".into(), value: None });
        assert!(Command::parse("setoption value 3").is_err());
    }

    #[test]
    fn go_reads_every_limit_and_reports_bad_values() {
        let Command::Go(go) = parse("go wtime 1000 btime -5 winc 10 binc x movestogo 20 depth 7 nodes 99 movetime 50 mate 3 infinite ponder searchmoves e2e4 d2d4") else {
            unreachable!()
        };
        assert_eq!(go.limits.time_ms, [Some(1000), Some(0)]);
        assert_eq!(go.limits.increment_ms, [10, 0]);
        assert_eq!((go.limits.moves_to_go, go.limits.depth, go.limits.nodes), (Some(20), Some(7), Some(99)));
        assert_eq!((go.limits.movetime_ms, go.limits.mate), (Some(50), Some(3)));
        assert!(go.limits.infinite && go.limits.ponder);
        assert_eq!(go.search_moves_text, vec!["e2e4".to_string(), "d2d4".to_string()]);
        assert_eq!(go.warnings.len(), 2, "{:?}", go.warnings);
        let Command::Go(missing) = parse("go wtime") else { unreachable!() };
        assert_eq!(missing.warnings.len(), 1);
        assert_eq!(parse("go perft 3"), Command::Perft { depth: 3 });
        assert!(Command::parse("go perft x").is_err());
    }
}
