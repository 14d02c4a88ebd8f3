//! The UCI dialogue through the real binary: handshake, legal best moves in checks, stalemate
//! and one-move positions, mates found, `stop` during `go infinite`, `isready` and `setoption`
//! during a search, bad input answered with `info string`, clamped options reported, end of
//! input as `quit`.

mod common;

use common::{legal, Engine};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

impl Engine {
    fn bestmove(&mut self, position: &str, go: &str) -> (String, Vec<String>) {
        self.send(position);
        self.send(go);
        let lines = self.until("bestmove", Duration::from_secs(30));
        let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or_default().to_string();
        (best, lines)
    }
}

#[test]
fn handshake_lists_options_and_answers_isready() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", Duration::from_secs(5));
    let name = format!("id name Springer {}", env!("CARGO_PKG_VERSION"));
    assert!(lines.contains(&name), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    for option in ["Hash", "Threads", "Move Overhead", "Clear Hash"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {option} type"))), "{option}");
    }
    e.send("isready");
    e.until("readyok", Duration::from_secs(5));
}

#[test]
fn best_moves_are_legal_in_checks_and_forced_positions() {
    let mut e = Engine::start();
    for fen in [
        "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",  // in check from the queen
        "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1", // double check: king moves only
        "7k/8/8/8/8/8/r7/1r5K w - - 0 1",   // checkmated: bestmove 0000
        "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1",   // stalemated: bestmove 0000
        "8/8/8/8/8/5k2/6q1/7K w - - 0 1",   // checkmated (the queen is protected)
    ] {
        let legal = legal(fen, false);
        for go in ["go depth 1", "go depth 6", "go movetime 50"] {
            let (best, _) = e.bestmove(&format!("position fen {fen}"), go);
            if legal.is_empty() {
                assert_eq!(best, "0000", "{fen}");
            } else {
                assert!(legal.contains(&best), "{fen} {go}: {best} not in {legal:?}");
            }
        }
    }
}

#[test]
fn one_legal_move_stalemate_and_checkmate() {
    let mut e = Engine::start();
    // Black's only move is Kb8.
    let single = "k7/8/1K6/8/8/8/8/1R6 b - - 0 1";
    assert_eq!(legal(single, false), vec!["a8b8".to_string()]);
    for go in ["go depth 1", "go movetime 10", "go wtime 10 btime 10"] {
        let (best, _) = e.bestmove(&format!("position fen {single}"), go);
        assert_eq!(best, "a8b8", "{go}");
    }
    let (stalemate, _) = e.bestmove("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "go depth 5");
    assert_eq!(stalemate, "0000");
    let (mated, lines) = e.bestmove("position fen R6k/8/6K1/8/8/8/8/8 b - - 0 1", "go movetime 100");
    assert_eq!(mated, "0000", "{lines:?}");
}

#[test]
fn mates_are_found_with_the_right_distance() {
    let mut e = Engine::start();
    // Distances verified with Stockfish 15.1 at depth 20+.
    for (fen, moves, solution) in [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, Some("a1a8")),
        ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1", 1, Some("f3f7")),
        ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 2, None),
        ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2, Some("g2g1")),
        ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3, None),
        ("2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3, None),
        ("7k/8/8/8/4K3/8/8/1Q6 w - - 0 1", 4, None),
    ] {
        let (best, lines) = e.bestmove(&format!("position fen {fen}"), &format!("go mate {moves}"));
        let last_info = lines.iter().rev().find(|l| l.contains(" score ")).cloned().unwrap_or_default();
        assert!(last_info.contains(&format!("score mate {moves} ")), "{fen}: {last_info}");
        if let Some(solution) = solution {
            assert_eq!(best, solution, "{fen}");
        }
        assert!(legal(fen, false).contains(&best));
    }
    // The side being mated sees a negative mate score: Kb8 is forced, then Rh1-h8 mates.
    let (_, lines) = e.bestmove("position fen k7/8/1K6/8/8/8/8/1R6 b - - 0 1", "go depth 20");
    let last_info = lines.iter().rev().find(|l| l.contains(" score ")).cloned().unwrap_or_default();
    assert!(last_info.contains("score mate -2 "), "{last_info}");
}

#[test]
fn stop_ends_infinite_search_and_isready_answers_during_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(2));
    assert!(asked.elapsed() < Duration::from_millis(500), "readyok took {:?}", asked.elapsed());
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "no bestmove before stop: {lines:?}");
    let stopped = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove", Duration::from_secs(2));
    assert!(stopped.elapsed() < Duration::from_millis(500), "stop took {:?}", stopped.elapsed());
    let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or_default().to_string();
    assert!(legal(springer::position::START_FEN, false).contains(&best));
    // Exactly one bestmove: nothing more arrives.
    e.send("isready");
    let after = e.until("readyok", Duration::from_secs(2));
    assert!(!after.iter().any(|l| l.starts_with("bestmove")), "{after:?}");
}

#[test]
fn infinite_search_of_a_quick_mate_waits_for_stop() {
    let mut e = Engine::start();
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(2));
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
    assert!(lines.iter().filter(|l| l.starts_with("info")).count() < 60, "too many info lines: {}", lines.len());
    e.send("stop");
    let lines = e.until("bestmove", Duration::from_secs(2));
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove a1a8")));
}

#[test]
fn setoption_during_a_search_waits_until_it_ends() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    let changes = ["Hash value 32", "Threads value 2", "Clear Hash", "MultiPV value 2"];
    for change in changes {
        e.send(&format!("setoption name {change}"));
    }
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(10));
    let deferred: Vec<&String> =
        lines.iter().filter(|l| l.ends_with("received during a search: deferred until it ends")).collect();
    assert_eq!(deferred.len(), changes.len(), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "the search goes on: {lines:?}");
    e.send("stop");
    let lines = e.until("bestmove", Duration::from_secs(10));
    let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or_default().to_string();
    assert!(legal(springer::position::START_FEN, false).contains(&best), "{best}");
    // The first command after the bestmove applies the changes, in the order they came.
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(30));
    let applied: Vec<&str> = lines.iter().filter_map(|l| l.strip_suffix(" applied after the search")).collect();
    let expected = ["Hash", "Threads", "Clear Hash", "MultiPV"].map(|name| format!("info string setoption {name}"));
    assert_eq!(applied, expected, "{lines:?}");
    // In force: two lines a depth (MultiPV 2) on two threads, a legal move, nothing deferred.
    let (best, lines) = e.bestmove("position startpos moves e2e4", "go depth 8");
    assert!(legal("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", false).contains(&best));
    assert!(lines.iter().any(|l| l.starts_with("info depth 8 ") && l.contains(" multipv 2 ")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("deferred")), "{lines:?}");
}

#[test]
fn clamped_option_values_are_reported() {
    let mut e = Engine::start();
    for (option, value, set_to) in [
        ("Hash", "0", "1"),
        ("Threads", "0", "1"),
        ("MultiPV", "300", "256"),
        ("MultiPV", "0", "1"),
        ("UCI_Elo", "10", "1320"),
    ] {
        e.send(&format!("setoption name {option} value {value}"));
        let lines = e.until("info string warning", Duration::from_secs(5));
        let warning = lines.last().map(String::as_str).unwrap_or_default();
        assert!(warning.contains(&format!("option {option}: {value} is outside")), "{warning}");
        assert!(warning.ends_with(&format!("set to {set_to}")), "{warning}");
        e.send("isready");
        e.until("readyok", Duration::from_secs(5));
    }
}

#[test]
fn tiny_clock_still_gives_a_legal_move() {
    let mut e = Engine::start();
    let started = Instant::now();
    let (best, _) = e.bestmove("position startpos moves e2e4 e7e5 g1f3", "go wtime 1 btime 1");
    assert!(legal("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", false).contains(&best));
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[test]
fn bad_input_gets_info_string_and_the_engine_goes_on() {
    let mut e = Engine::start();
    for bad in [
        "xyzzy",
        "position fen 8/8/8 w - -",
        "position startpos moves e2e5",
        "setoption name Hash value lots",
        "setoption name Nonexistent value 1",
        "go depth x",
    ] {
        e.send(bad);
        if bad.starts_with("go") {
            // Without a usable limit the search runs until `stop`. (The refused position above
            // is named first.)
            let lines = e.until("info string warning: go depth", Duration::from_secs(2));
            assert!(lines.iter().any(|l| l.contains("'x'")));
            e.send("stop");
            let lines = e.until("bestmove", Duration::from_secs(2));
            assert!(lines.last().is_some_and(|l| l.starts_with("bestmove")), "{bad}: {lines:?}");
            continue;
        }
        let lines = e.until("info string", Duration::from_secs(2));
        assert!(lines.last().is_some_and(|l| l.contains("error")), "{bad}: {lines:?}");
        e.send("isready");
        e.until("readyok", Duration::from_secs(2));
    }
}

#[test]
fn end_of_input_counts_as_quit() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_springer"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("start springer");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, "position startpos\ngo infinite").expect("write");
    drop(stdin); // end of input, with a search running
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            assert!(status.success());
            break;
        }
        assert!(Instant::now() < deadline, "the engine did not exit at end of input");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn standard_fens_are_strict_through_uci() {
    let mut e = Engine::start();
    // Rooks off their corners: White's rights are dropped with a warning; no castling move comes out.
    e.send("position fen r3k2r/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1");
    e.send("d");
    let lines = e.until("Fen:", Duration::from_secs(5));
    assert!(lines.iter().any(|l| l.starts_with("info string warning: castling right 'K' dropped")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info string warning: castling right 'Q' dropped")), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("Fen: r3k2r/8/8/8/8/8/8/1R2K1R1 w kq - 0 1"));
    e.send("go depth 4");
    let best = e.until("bestmove", Duration::from_secs(30));
    let mv = best.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or_default().to_string();
    assert!(legal("r3k2r/8/8/8/8/8/8/1R2K1R1 w kq - 0 1", false).contains(&mv), "{mv}");
    assert!(mv != "e1g1" && mv != "e1c1");
    // Kings on adjacent squares: refused, the previous position kept.
    e.send("position fen 8/8/8/3kK3/8/8/8/8 w - - 0 1");
    e.send("d");
    let lines = e.until("Fen:", Duration::from_secs(5));
    assert!(
        lines.iter().any(|l| l.contains("error: illegal position: the kings stand on adjacent squares")),
        "{lines:?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("Fen: r3k2r/8/8/8/8/8/8/1R2K1R1 w kq - 0 1"));
    // Two digits in a row: refused.
    e.send("position fen rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(5));
    assert!(
        lines.iter().any(|l| l.contains("error: FEN placement, rank 4: two empty-square counts in a row")),
        "{lines:?}"
    );
    // In Chess960 the same castling field is a legal setup and keeps every right.
    e.send("setoption name UCI_Chess960 value true");
    e.send("position fen r3k2r/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1");
    e.send("d");
    let lines = e.until("Fen:", Duration::from_secs(5));
    assert!(!lines.iter().any(|l| l.starts_with("info string")), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("Fen: r3k2r/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1"));
}

#[test]
fn standard_fens_are_strict_on_the_command_line() {
    let springer = env!("CARGO_BIN_EXE_springer");
    let run = |args: &[&str]| std::process::Command::new(springer).args(args).output().expect("run springer");
    // Adjacent kings and doubled digits: exit code 2 with one message.
    for fen in ["8/8/8/3kK3/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"] {
        let out = run(&["perft", "1", "--fen", fen]);
        assert_eq!(out.status.code(), Some(2), "{fen}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "{fen}");
    }
    // Castling rights standard chess cannot have: dropped with a warning, so no castling move
    // is counted; with --chess960 both castlings count.
    let fen = "r3k2r/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1";
    let standard = run(&["perft", "1", "--fen", fen]);
    assert_eq!(standard.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&standard.stderr).contains("castling right 'K' dropped"));
    let chess960 = run(&["perft", "1", "--fen", fen, "--chess960"]);
    assert!(String::from_utf8_lossy(&chess960.stderr).is_empty());
    let nodes = |out: &std::process::Output| {
        String::from_utf8_lossy(&out.stdout).lines().find_map(|l| l.strip_prefix("Nodes: ").map(str::to_string))
    };
    let (standard_nodes, chess960_nodes) = (nodes(&standard), nodes(&chess960));
    assert_eq!(
        standard_nodes.as_deref(),
        Some(legal("r3k2r/8/8/8/8/8/8/1R2K1R1 w kq - 0 1", false).len().to_string().as_str())
    );
    assert_eq!(chess960_nodes.as_deref(), Some(legal(fen, true).len().to_string().as_str()));
    assert_ne!(standard_nodes, chess960_nodes);
}

#[test]
fn version_names_the_release_and_what_the_build_targets() {
    let run =
        |arg: &str| std::process::Command::new(env!("CARGO_BIN_EXE_springer")).arg(arg).output().expect("run springer");
    let short = run("-V");
    assert_eq!(short.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&short.stdout).trim(), format!("springer {}", env!("CARGO_PKG_VERSION")));
    let long = run("--version");
    let text = String::from_utf8_lossy(&long.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.first().copied(), Some(format!("springer {}", env!("CARGO_PKG_VERSION")).as_str()), "{text}");
    assert!(lines.iter().any(|l| l.starts_with("target: ") && l.contains("compiled with: ")), "{text}");
    assert!(lines.iter().any(|l| *l == "sliders: pext" || *l == "sliders: magic"), "{text}");
    assert!(lines.iter().any(|l| l.starts_with("network kernel: ")), "{text}");
}

/// The last exact `multipv 1` line before `bestmove` must start with the move played: match
/// runners (fastchess) and GUIs show that line as the engine's thought. These two node-limited
/// searches end in an unfinished iteration whose new best move beat the last complete one's.
#[test]
fn the_last_line_shown_starts_with_the_best_move() {
    let cases = [
        ("r1b1kb2/pp1nnpp1/2p5/q2pp2r/3P4/P1N1PP2/1PP1N2P/R1BQKB1R w KQq - 0 6", 15_000),
        ("2bqr1k1/r4pbp/1p1p2p1/p1pP4/PnP5/R1B1NN1P/1P3PP1/3QR1K1 b - - 5 21", 7_000),
    ];
    let mut e = Engine::start();
    for (fen, nodes) in cases {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        e.send(&format!("go nodes {nodes}"));
        let lines = e.until("bestmove", Duration::from_secs(30));
        let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or_default();
        let shown = lines
            .iter()
            .filter(|l| l.starts_with("info depth") && l.contains(" score ") && !l.contains("bound"))
            .filter_map(|l| l.split(" pv ").nth(1).and_then(|pv| pv.split_whitespace().next()))
            .next_back();
        assert_eq!(shown, Some(best), "{fen}, {nodes} nodes: {lines:?}");
    }
}

/// A GUI's slips at `position` and `go`: a refused move is named again at `go` with the position
/// searched instead; a clock for the other side only, or one beyond any number, still gives a
/// timed search; `register` is ignored quietly.
#[test]
fn gui_slips_are_named_and_still_end_in_a_timed_move() {
    let mut e = Engine::start();
    let (best, lines) = e.bestmove("position startpos moves e2e4 e7e5 e1e3", "go depth 2");
    let warned =
        |lines: &[String], text: &str| lines.iter().any(|l| l.starts_with("info string warning") && l.contains(text));
    assert!(warned(&lines, "e1e3") && warned(&lines, "/4P3/"), "{lines:?}");
    assert!(legal("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", false).contains(&best));
    let (_, lines) = e.bestmove("position startpos moves e2e4", "go depth 2");
    assert!(!warned(&lines, "last position"), "a good position clears the warning: {lines:?}");

    // Black to move with White's clock only: Black's counts as run out (before, the search had
    // no end and `bestmove` never came).
    let (best, lines) = e.bestmove("position startpos moves e2e4", "go wtime 60000 winc 1000");
    assert!(warned(&lines, "no btime"), "{lines:?}");
    assert!(legal("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", false).contains(&best), "{lines:?}");
    // A number past i64 is a clock beyond any other, not a missing one.
    let (_, lines) = e.bestmove("position startpos", "go wtime 1000 btime 99999999999999999999");
    assert!(warned(&lines, "go btime") && warned(&lines, "beyond any clock"), "{lines:?}");

    e.send("register later");
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(5));
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
}

/// `searchmoves` naming a move twice searches it once (before, MultiPV gave it a second line
/// with an empty principal variation); a position with no legal move gets a score line.
#[test]
fn repeated_searchmoves_count_once_and_mate_and_stalemate_have_a_score() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    let castle = "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let (best, lines) = e.bestmove(castle, "go depth 3 searchmoves e1g1 e1h1 e1g1");
    assert_eq!(best, "e1g1");
    let pv_lines: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth") && l.contains(" pv ")).collect();
    assert!(!pv_lines.is_empty());
    for line in pv_lines {
        assert!(line.contains(" multipv 1 ") && line.contains(" pv e1g1"), "{line}");
    }
    let (best, lines) = e.bestmove("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go depth 3");
    assert_eq!(best, "0000");
    assert!(lines.contains(&"info depth 0 score mate 0".to_string()), "{lines:?}");
    let (best, lines) = e.bestmove("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "go depth 3");
    assert_eq!(best, "0000");
    assert!(lines.contains(&"info depth 0 score cp 0".to_string()), "{lines:?}");
}
