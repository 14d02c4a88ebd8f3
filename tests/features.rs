//! The GUI features through the real binary: every UCI option is declared, MultiPV gives that
//! many ordered lines, WDL sums to 1000, reduced strength stays legal, a tiny Polyglot book is
//! played from, Chess960 castling is written king-takes-rook, Chess960 perft through UCI
//! matches the suite, pondering answers `ponderhit` and `stop` with one legal bestmove, and a
//! long iteration shows its current root move and status lines.

mod common;

use common::{legal, Engine};
use springer::book::{encode_move, polyglot_key};
use springer::movegen::{generate_legal, MoveList};
use springer::perft::parse_suite;
use springer::position::Position;
use std::time::{Duration, Instant};

fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|&w| w == key)?;
    words.next()
}

/// A number field of an info line.
fn number(line: &str, key: &str) -> Option<u64> {
    field(line, key)?.parse().ok()
}

#[test]
fn a_long_iteration_shows_its_current_move_and_status_lines() {
    let mut e = Engine::start();
    let legal = legal(springer::position::START_FEN, false);
    e.send("position startpos");
    e.send("go infinite");
    // Read until a root move has been shown and a status line has come inside an iteration:
    // a line with nodes, speed and table use at a depth whose own PV line has not come yet.
    let (mut current_moves, mut inside_iteration) = (0, 0);
    let mut completed_depth = 0;
    let mut last_nodes = 0;
    let deadline = Instant::now() + Duration::from_secs(120);
    while current_moves == 0 || inside_iteration == 0 {
        assert!(Instant::now() < deadline, "{current_moves} currmove lines, {inside_iteration} status lines");
        let lines = e.until("info", Duration::from_secs(60));
        let line = lines.last().map(String::as_str).unwrap_or_default();
        let depth = number(line, "depth").unwrap_or_else(|| panic!("no depth: {line}"));
        if let Some(mv) = field(line, "currmove") {
            assert!(legal.contains(&mv.to_string()), "{line}");
            let n = number(line, "currmovenumber").unwrap_or(0);
            assert!((1..=legal.len() as u64).contains(&n), "{line}");
            current_moves += 1;
            continue;
        }
        let nodes = number(line, "nodes").unwrap_or_else(|| panic!("no nodes: {line}"));
        assert!(nodes >= last_nodes, "{line}: nodes went down from {last_nodes}");
        last_nodes = nodes;
        assert!(number(line, "nps").is_some() && number(line, "time").is_some(), "{line}");
        assert!(number(line, "hashfull").is_some_and(|h| h <= 1000), "{line}");
        if line.contains(" pv ") {
            // An aspiration failure (a bound) is a report inside its iteration, not its end.
            if !line.contains("lowerbound") && !line.contains("upperbound") {
                completed_depth = depth;
            }
        } else {
            assert!(!line.contains("score"), "{line}");
            assert!(depth > completed_depth, "a status line belongs to the iteration running: {line}");
            inside_iteration += 1;
        }
    }
    e.send("stop");
    let lines = e.until("bestmove", Duration::from_secs(10));
    let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or_default().to_string();
    assert!(legal.contains(&best), "{best}");
}

#[test]
fn every_option_is_declared_with_its_type() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", Duration::from_secs(5));
    for (name, kind) in [
        ("Hash", "spin"),
        ("Threads", "spin"),
        ("Move Overhead", "spin"),
        ("Clear Hash", "button"),
        ("Ponder", "check"),
        ("MultiPV", "spin"),
        ("UCI_Chess960", "check"),
        ("UCI_ShowWDL", "check"),
        ("UCI_LimitStrength", "check"),
        ("UCI_Elo", "spin"),
        ("OwnBook", "check"),
        ("BookFile", "string"),
        ("UseNNUE", "check"),
        ("EvalFile", "string"),
        ("SyzygyPath", "string"),
        ("SyzygyProbeDepth", "spin"),
        ("Syzygy50MoveRule", "check"),
        ("SyzygyProbeLimit", "spin"),
    ] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {name} type {kind}"))), "{name}");
    }
}

#[test]
fn multipv_gives_ordered_distinct_lines_with_wdl() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 4");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("position startpos moves e2e4");
    e.send("go depth 8");
    let lines = e.until("bestmove", Duration::from_secs(30));
    let last: Vec<&String> = lines.iter().filter(|l| field(l, "depth") == Some("8")).collect();
    assert_eq!(last.len(), 4, "{lines:?}");
    let mut firsts = Vec::new();
    let mut previous_score = i32::MAX;
    for (k, line) in last.iter().enumerate() {
        assert_eq!(field(line, "multipv"), Some((k + 1).to_string().as_str()));
        let score: i32 = field(line, "cp").and_then(|s| s.parse().ok()).expect("cp score");
        assert!(score <= previous_score, "lines out of order: {last:?}");
        previous_score = score;
        firsts.push(field(line, "pv").expect("pv").to_string());
        let mut words = line.split_whitespace().skip_while(|&w| w != "wdl").skip(1);
        let wdl: u32 = words.by_ref().take(3).filter_map(|w| w.parse::<u32>().ok()).sum();
        assert_eq!(wdl, 1000, "{line}");
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 4);
    let best = lines.last().and_then(|l| field(l, "bestmove")).expect("bestmove");
    assert_eq!(Some(best), field(last[0], "pv"));
}

#[test]
fn reduced_strength_plays_legal_moves() {
    let mut e = Engine::start();
    e.send("setoption name UCI_LimitStrength value true");
    for elo in ["1320", "2000", "3000"] {
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        for fen in
            ["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"]
        {
            e.send(&format!("position fen {fen}"));
            e.send("go movetime 100");
            let lines = e.until("bestmove", Duration::from_secs(10));
            let best = lines.last().and_then(|l| field(l, "bestmove")).expect("bestmove").to_string();
            assert!(legal(fen, false).contains(&best), "{elo} {fen}: {best}");
        }
    }
}

#[test]
fn a_tiny_book_is_played_and_bad_books_are_reported() {
    let start = Position::startpos();
    let mut list = MoveList::new();
    generate_legal(&start, &mut list);
    let c4 = list.iter().copied().find(|m| m.to_string() == "c2c4").expect("c2c4");
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&polyglot_key(&start).to_be_bytes());
    bytes.extend_from_slice(&encode_move(c4).to_be_bytes());
    bytes.extend_from_slice(&1u16.to_be_bytes());
    bytes.extend_from_slice(&0u32.to_be_bytes());
    let path = std::env::temp_dir().join(format!("springer-test-book-{}.bin", std::process::id()));
    std::fs::write(&path, &bytes).expect("write book");
    let mut e = Engine::start();
    e.send(&format!("setoption name BookFile value {}", path.display()));
    e.until("info string book", Duration::from_secs(5));
    e.send("setoption name OwnBook value true");
    e.send("position startpos");
    e.send("go wtime 10000 btime 10000");
    let lines = e.until("bestmove", Duration::from_secs(5));
    assert_eq!(lines.last().map(String::as_str), Some("bestmove c2c4"));
    // Out of book: a normal search.
    e.send("position startpos moves c2c4");
    e.send("go depth 3");
    let lines = e.until("bestmove", Duration::from_secs(5));
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    std::fs::write(&path, [0u8; 10]).expect("write bad book");
    e.send(&format!("setoption name BookFile value {}", path.display()));
    let lines = e.until("info string", Duration::from_secs(5));
    assert!(lines.last().is_some_and(|l| l.contains("not a Polyglot book")), "{lines:?}");
    e.send("setoption name BookFile value /nonexistent/springer.bin");
    let lines = e.until("info string", Duration::from_secs(5));
    assert!(lines.last().is_some_and(|l| l.contains("cannot read the book")), "{lines:?}");
    let _ = std::fs::remove_file(&path);
}

/// The NNUE score `eval` prints for the side to move.
fn net_score(e: &mut Engine) -> i32 {
    e.send("eval");
    let lines = e.until("NNUE evaluation", Duration::from_secs(5));
    let line = lines.last().expect("an NNUE line");
    let words: Vec<&str> = line.split_whitespace().collect();
    words[words.len() - 5].parse().unwrap_or_else(|_| panic!("{line}"))
}

#[test]
fn the_net_evaluates_and_bad_net_files_are_reported() {
    let mut e = Engine::start();
    e.send("position fen 6k1/5pp1/7p/8/8/8/5PPP/3R2K1 w - - 0 1");
    let embedded = net_score(&mut e);
    assert!(embedded > 150, "a rook up scores {embedded}");
    // A net whose every weight is zero scores 0; loading it changes `eval`.
    let mut zero = b"SPRNNUE1".to_vec();
    zero.extend_from_slice(&(springer::nnue::HIDDEN as u32).to_le_bytes());
    let layout =
        springer::nnue::Layout { hidden: springer::nnue::HIDDEN, buckets: 1, inputs: springer::nnue::Inputs::PLAIN };
    zero.resize(springer::nnue::net_bytes(layout), 0);
    let path = std::env::temp_dir().join(format!("springer-test-net-{}.nnue", std::process::id()));
    std::fs::write(&path, &zero).expect("write net");
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    let lines = e.until("info string", Duration::from_secs(5));
    assert!(lines.last().is_some_and(|l| l.contains("loaded")), "{lines:?}");
    assert_eq!(net_score(&mut e), 0);
    // Truncated, foreign and missing files are reported and the current net stays.
    for (bytes, message) in [(&zero[..1000], "bytes"), (&b"not a net at all"[..], "not a Springer net")] {
        std::fs::write(&path, bytes).expect("write bad net");
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = e.until("info string", Duration::from_secs(5));
        assert!(lines.last().is_some_and(|l| l.contains("error") && l.contains(message)), "{lines:?}");
        assert_eq!(net_score(&mut e), 0);
    }
    e.send("setoption name EvalFile value /nonexistent/springer.nnue");
    let lines = e.until("info string", Duration::from_secs(5));
    assert!(lines.last().is_some_and(|l| l.starts_with("info string error: EvalFile")), "{lines:?}");
    e.send("setoption name EvalFile value <embedded>");
    e.until("info string", Duration::from_secs(5));
    assert_eq!(net_score(&mut e), embedded);
    // Searching with the net gives a legal move and a winning score.
    e.send("setoption name UseNNUE value true");
    e.send("go depth 6");
    let lines = e.until("bestmove", Duration::from_secs(20));
    let score: i32 = lines.iter().rev().find_map(|l| field(l, "cp")).and_then(|s| s.parse().ok()).expect("a cp score");
    assert!(score > 150, "{lines:?}");
    let _ = std::fs::remove_file(&path);
}

/// Five labelled positions in the gen-0 text format (`FEN | score | bestmove | result`), every
/// one trainable: the training tests' data.
const TRAINING_POSITIONS: &str = "6k1/5pp1/7p/8/8/8/5PPP/3R2K1 w - - 0 30 | 450 | d1d7 | 1.0\n\
     r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 5 | 30 | f1b5 | 0.5\n\
     4k3/8/8/3n4/8/8/1P6/4K2R b - - 0 40 | -120 | d5c3 | 0.0\n\
     8/5k2/8/8/8/2K5/8/8 w - - 0 60 | 0 | c3d4 | 0.5\n\
     2kr4/ppp5/8/8/8/8/5PPP/6K1 b - - 0 25 | -300 | d8d2 | 0.0\n";

/// A temporary directory for the test `name`, holding `TRAINING_POSITIONS` as a text
/// file: the directory and the file.
fn training_dir(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("springer-test-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let data = dir.join("positions.txt");
    std::fs::write(&data, TRAINING_POSITIONS).expect("write positions");
    (dir, data)
}

/// `springer train DATA --epochs EPOCHS EXTRA...`, run to its end.
fn train(data: &std::path::Path, epochs: u32, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["train".to_string(), data.display().to_string(), "--epochs".into(), epochs.to_string()];
    args.extend(extra.iter().map(|a| a.to_string()));
    std::process::Command::new(env!("CARGO_BIN_EXE_springer")).args(&args).output().expect("run springer")
}

/// `springer train --king-mirror` writes a net the engine loads, and that net scores a position
/// and its left-right mirror alike, as the embedded (king-mirrored) net does; a plain net
/// (net-p8, embedded before it) does not. `--init` fine-tunes it, keeping its shape.
#[test]
fn a_king_mirrored_net_is_trained_loaded_and_symmetric() {
    let (dir, data) = training_dir("king-mirror");
    let run = |extra: &[&str]| train(&data, 2, extra);
    let net = dir.join("king-mirror.nnue");
    let out = run(&["--king-mirror", "--buckets", "8", "--out", &net.display().to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read(&net).expect("the net").starts_with(springer::nnue::MIRRORED_NET_MAGIC));
    // Its mirrored copies would be duplicates: the combination is refused.
    let refused = run(&["--king-mirror", "--mirror", "--out", &dir.join("x.nnue").display().to_string()]);
    assert_eq!(refused.status.code(), Some(2));
    // Fine-tuning it (`--init`) keeps its shape: the same header, mirrored with 8 buckets.
    let tuned = dir.join("tuned.nnue");
    let out = run(&["--init", &net.display().to_string(), "--out", &tuned.display().to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("start net: validation loss"));
    let header = |path: &std::path::Path| std::fs::read(path).expect("a net")[..20].to_vec();
    assert_eq!(header(&tuned), header(&net));
    // A file that is not a net, or a shape asked for beside it, is refused.
    let x = dir.join("x.nnue").display().to_string();
    for extra in [
        vec!["--init", data.to_str().unwrap_or_default()],
        vec!["--init", net.to_str().unwrap_or_default(), "--buckets", "4"],
    ] {
        let refused = run(&[extra.as_slice(), &["--out", &x]].concat());
        assert_eq!(refused.status.code(), Some(2), "{extra:?}");
        assert!(String::from_utf8_lossy(&refused.stderr).contains("error"), "{extra:?}");
    }

    let mut e = Engine::start();
    let scores = |e: &mut Engine| {
        ["6k1/5pp1/7p/8/8/8/5PPP/3R2K1 w - - 0 1", "1k6/1pp5/p7/8/8/8/PPP5/1K2R3 w - - 0 1"].map(|fen| {
            e.send(&format!("position fen {fen}"));
            net_score(e)
        })
    };
    let load = |e: &mut Engine, path: &std::path::Path| {
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = e.until("info string", Duration::from_secs(5));
        assert!(lines.last().is_some_and(|l| l.contains("loaded")), "{lines:?}");
        scores(e)
    };
    let [embedded, embedded_flipped] = scores(&mut e);
    assert_eq!(embedded, embedded_flipped, "the embedded net is king-mirrored");
    // net-p8, the embedded net before net-q8m: a plain (not king-mirrored) net of the same width.
    let plain = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/net-p8.nnue");
    let [unmirrored, unmirrored_flipped] = load(&mut e, &plain);
    assert_ne!(unmirrored, unmirrored_flipped, "a plain net tells the two apart");
    let [mirrored, mirrored_flipped] = load(&mut e, &net);
    assert_eq!(mirrored, mirrored_flipped);
    // Searching with it (king moves across the d/e line recompute the accumulator) gives a move.
    e.send("position fen 8/5k2/8/8/8/2K5/4P3/8 w - - 0 1");
    e.send("go depth 8");
    let lines = e.until("bestmove", Duration::from_secs(20));
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")), "{lines:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `springer net-loss` scores nets on the same positions: a net against itself differs by
/// exactly zero, net-p8 (the embedded net's predecessor) differs, and a file that is not a net is
/// refused with exit code 2.
#[test]
fn net_loss_compares_nets_on_the_same_positions() {
    let (dir, data) = training_dir("net-loss");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let embedded = root.join("nets/default.nnue").display().to_string();
    let plain = root.join("tests/fixtures/net-p8.nnue").display().to_string();
    let run = |nets: &[&str]| {
        let mut args = vec!["net-loss".to_string(), data.display().to_string()];
        for net in nets {
            args.extend(["--net".to_string(), net.to_string()]);
        }
        std::process::Command::new(env!("CARGO_BIN_EXE_springer")).args(&args).output().expect("run springer")
    };
    let out = run(&[&embedded, &embedded, &plain]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert_eq!(lines[0], "positions 5");
    assert!(lines[2].ends_with("versus the first +0.000000 +- 0.000000"), "{stdout}");
    assert!(lines[3].contains("versus the first") && !lines[3].contains("+0.000000 +-"), "{stdout}");
    let refused = run(&[&embedded, &data.display().to_string()]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("error"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chess960_castling_is_king_takes_rook_both_ways() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    // Long castling with the b1 rook: written e1b1 (the king's square, then the rook's).
    let fen = "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go perft 1");
    let lines = e.until("Nodes searched", Duration::from_secs(5));
    assert!(lines.iter().any(|l| l.starts_with("e1b1:")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("e1c1:")), "{lines:?}");
    // The engine reads king-takes-rook castling in a position command.
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1");
    e.send("d");
    let lines = e.until("Key:", Duration::from_secs(5));
    assert!(lines.iter().any(|l| l.contains("R4RK1 b")), "{lines:?}");
}

#[test]
fn chess960_perft_through_uci_matches_the_suite() {
    let path = format!("{}/perft-suites/chess960.epd", env!("CARGO_MANIFEST_DIR"));
    let cases = parse_suite(&std::fs::read_to_string(path).expect("suite")).expect("parses");
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    e.send("setoption name Threads value 2");
    for case in &cases {
        let (depth, expected) = case.expected.iter().copied().filter(|&(_, n)| n <= 2_000_000).max().expect("a depth");
        e.send(&format!("position fen {}", case.fen));
        e.send(&format!("go perft {depth}"));
        let lines = e.until("Nodes searched", Duration::from_secs(30));
        let got: u64 =
            lines.last().and_then(|l| l.split_whitespace().last()).and_then(|n| n.parse().ok()).expect("count");
        assert_eq!(got, expected, "line {}: {}", case.line, case.fen);
    }
}

#[test]
fn ponderhit_and_stop_end_a_ponder_search_with_one_legal_bestmove() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 2000 btime 2000 winc 20 binc 20");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(2));
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "no bestmove while pondering");
    let hit = Instant::now();
    e.send("ponderhit");
    let lines = e.until("bestmove", Duration::from_secs(3));
    assert!(hit.elapsed() < Duration::from_millis(1500), "ponderhit then {:?}", hit.elapsed());
    let best = lines.last().and_then(|l| field(l, "bestmove")).expect("bestmove").to_string();
    assert!(legal("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", false).contains(&best));
    // A ponder search that is stopped instead.
    e.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let lines = e.until("bestmove", Duration::from_secs(2));
    let best = lines.last().and_then(|l| field(l, "bestmove")).expect("bestmove").to_string();
    assert!(legal("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", false).contains(&best));
    e.send("isready");
    let after = e.until("readyok", Duration::from_secs(2));
    assert!(!after.iter().any(|l| l.starts_with("bestmove")), "{after:?}");
}

/// The committed test tables (a subset of the 3-4 piece set; `../shared/syzygy` has them all).
fn fixture_tables() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/syzygy").to_string()
}

#[test]
fn syzygy_tables_settle_wins_draws_and_losses_through_uci() {
    let mut e = Engine::start();
    e.send("setoption name SyzygyPath value /nonexistent/tables");
    let lines = e.until("info string error: SyzygyPath", Duration::from_secs(5));
    assert!(lines.iter().any(|l| l.contains("cannot read Syzygy directory /nonexistent/tables")), "{lines:?}");
    e.send(&format!("setoption name SyzygyPath value {}", fixture_tables()));
    let lines = e.until("info string Syzygy", Duration::from_secs(5));
    assert!(lines.last().is_some_and(|l| l.contains("up to 4 pieces")), "{lines:?}");
    // (FEN, expected: 1 won, 0 drawn, -1 lost for the side to move, a best move's result kept).
    for (fen, expected) in [
        ("8/8/8/8/8/2k5/8/KR6 w - - 0 1", 1),    // KRvK, won
        ("8/8/8/8/8/2k5/8/KR6 b - - 0 1", -1),   // KRvK, lost
        ("8/8/8/3k4/8/3K4/3P4/8 w - - 0 1", 0),  // KPvK, drawn (the king cannot get in front)
        ("8/8/3k4/8/8/3K4/3P4/8 w - - 0 1", 1),  // KPvK, won: opposition
        ("3rk3/8/8/8/8/8/8/R3K3 w - - 0 1", 0),  // KRvKR, drawn (no castling rights)
        ("8/8/8/8/2k5/8/1p6/3K4 w - - 0 1", 0),  // KvKP, drawn: the king reaches b1
        ("8/8/8/8/8/2k5/1p6/3K4 w - - 0 1", -1), // KvKP, lost: the pawn queens
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go movetime 300");
        let lines = e.until("bestmove", Duration::from_secs(10));
        let last = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("an info line");
        let score: i32 = field(last, "cp").and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            // A proven mate shows as `mate N`.
            let n: i32 = field(last, "mate").and_then(|s| s.parse().ok()).expect("cp or mate");
            n.signum() * 30_000
        });
        let found = if score >= 20_000 {
            1
        } else if score <= -20_000 {
            -1
        } else {
            0
        };
        assert_eq!(found, expected, "{fen}: {last}");
        assert!(field(last, "tbhits").is_some_and(|n| n != "0"), "{fen}: {last}");
        let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).expect("bestmove");
        assert!(legal(fen, false).contains(&best.to_string()), "{fen}: {best}");
    }
}

/// With the six-piece test tables beside the project (`../shared/syzygy-6`), `SyzygyPath` reports
/// six pieces and a KNNNNvK win is shown as one; skipped (passing) without them.
#[test]
fn syzygy_path_reports_six_piece_tables() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let six = root.join("../shared/syzygy-6");
    if !six.join("KNNNNvK.rtbw").exists() {
        eprintln!("skipped: no {} (the six-piece test tables)", six.join("KNNNNvK.rtbw").display());
        return;
    }
    let mut e = Engine::start();
    let sep = springer::tb::PATH_SEPARATOR;
    e.send(&format!(
        "setoption name SyzygyPath value {}{sep}{}",
        six.display(),
        root.join("../shared/syzygy").display()
    ));
    let lines = e.until("info string Syzygy", Duration::from_secs(5));
    assert!(lines.last().is_some_and(|l| l.ends_with("up to 6 pieces")), "{lines:?}");
    // python-chess: White to move wins (DTZ 17).
    e.send("position fen 8/8/8/2k5/8/8/1NN5/K1NN4 w - - 0 1");
    e.send("go movetime 300");
    let lines = e.until("bestmove", Duration::from_secs(10));
    let last = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("an info line");
    let winning = field(last, "cp").and_then(|s| s.parse::<i32>().ok()).is_some_and(|cp| cp >= 20_000)
        || field(last, "mate").and_then(|s| s.parse::<i32>().ok()).is_some_and(|n| n > 0);
    assert!(winning, "{last}");
    assert!(field(last, "tbhits").is_some_and(|n| n != "0"), "{last}");
}

/// Runs the binary with `args`: its exit code, stdout and stderr.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_springer")).args(args).output().expect("run springer");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn probe_prints_wdl_dtz_and_a_best_move() {
    let tables = fixture_tables();
    // python-chess: KRvK with White to move here is a win with DTZ 27.
    let (code, out, _) = run(&["probe", "--fen", "8/8/8/8/8/2k5/8/KR6 w - - 0 1", "--syzygy", &tables]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("wdl win\ndtz 27\nbestmove "), "{out}");
    let (code, _, err) = run(&["probe", "--fen", "8/8/8/8/8/2k5/8/KR6 w - - 0 1", "--syzygy", "/nonexistent"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no Syzygy tables found"), "{err}");
    let (code, _, err) = run(&["probe", "--fen", "not a fen", "--syzygy", &tables]);
    assert_eq!(code, Some(2));
    assert!(err.contains("bad FEN"), "{err}");
    // Five pieces: no such table among the fixtures.
    let (code, _, err) = run(&["probe", "--fen", "8/8/8/8/8/2k5/8/KRRB4 b - - 0 1", "--syzygy", &tables]);
    assert_eq!(code, Some(1));
    assert!(err.contains("no usable table"), "{err}");
}

/// A table found corrupt while the moves are ranked fails the probe (it printed `bestmove
/// (none)` and exited 0); a checkmated side still gets `bestmove (none)` and 0.
#[test]
fn probe_fails_on_a_table_found_corrupt_and_names_it() {
    let dir = std::env::temp_dir().join(format!("springer-probe-corrupt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    for entry in std::fs::read_dir(fixture_tables()).expect("the fixture tables") {
        let path = entry.expect("an entry").path();
        let mut bytes = std::fs::read(&path).expect("a table");
        if path.file_name().is_some_and(|name| name == "KRvKR.rtbw") {
            // Half the file, at a length a table may have (16 more than a multiple of 64), so
            // that opening the directory accepts it and only the probe finds it short.
            bytes.truncate(bytes.len() / 2 / 64 * 64 + 16);
        }
        std::fs::write(dir.join(path.file_name().expect("a name")), bytes).expect("a copy");
    }
    let tables = dir.display().to_string();
    let (code, out, err) = run(&["probe", "--fen", "2r5/8/8/3k4/8/8/8/K1R5 w - - 0 1", "--syzygy", &tables]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains("KRvKR.rtbw unusable"), "{err}");
    let (code, out, _) = run(&["probe", "--fen", "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", "--syzygy", &fixture_tables()]);
    assert_eq!(code, Some(0));
    assert!(out.ends_with("bestmove (none)\n"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn speedtest_reports_its_nps_as_text_and_json_and_refuses_bad_arguments() {
    let (code, out, err) = run(&["speedtest", "--threads", "2", "--hash", "8", "--seconds", "1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.starts_with("speedtest: threads 2, hash 8 MB, 1 s"), "{err}");
    assert!(out.contains("Threads: 2\nHash (MB): 8\n"), "{out}");
    let nps = out.lines().find_map(|l| l.strip_prefix("Nodes/second: ")).and_then(|n| n.parse::<u64>().ok());
    let per_thread =
        out.lines().find_map(|l| l.strip_prefix("Nodes/second per thread: ")).and_then(|n| n.parse::<u64>().ok());
    assert!(nps.is_some_and(|n| n > 0) && per_thread == nps.map(|n| n / 2), "{out}");

    let (code, out, err) = run(&["speedtest", "--threads", "1", "--hash", "4", "--seconds", "1", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let json = out.trim();
    assert!(json.starts_with('{') && json.ends_with('}') && out.lines().count() == 1, "{out}");
    for key in ["\"cpu\":\"", "\"threads\":1,", "\"hash_mb\":4,", "\"nodes\":", "\"nps\":", "\"nps_per_thread\":"] {
        assert!(json.contains(key), "{key} in {json}");
    }

    for bad in [&["speedtest", "--threads", "0"][..], &["speedtest", "--seconds", "0"], &["speedtest", "--hash", "x"]] {
        let (code, _, err) = run(bad);
        assert_eq!(code, Some(2), "{bad:?}: {err}");
    }
}

#[test]
fn datagen_writes_a_chunk_and_refuses_a_hard_limit_below_the_soft_one_and_rescore_reads_it() {
    let dir = std::env::temp_dir().join(format!("springer-test-datagen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.display().to_string();
    let (code, _, err) = run(&["datagen", "--out", &out, "--games", "2", "--nodes", "200", "--hard-nodes", "100"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("error: the hard node limit (100) is below the soft one (200)"), "{err}");
    assert!(!dir.exists(), "nothing written");
    let (code, stdout, err) =
        run(&["datagen", "--out", &out, "--games", "2", "--games-per-chunk", "2", "--nodes", "200"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(stdout.starts_with("datagen: 2 games, "), "{stdout}");
    assert!(dir.join("chunk-000000.bin").exists(), "{stdout}");
    // `rescore` searches those games' positions again into a new directory, under the same
    // chunk names; a directory without chunks is refused.
    let rescored = dir.join("rescored");
    let (code, stdout, err) = run(&["rescore", &out, "--out", rescored.to_str().unwrap_or_default(), "--nodes", "200"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(stdout.starts_with("rescore: 1 chunks (0 already there), "), "{stdout}");
    assert!(rescored.join("chunk-000000.bin").exists(), "{stdout}");
    let (code, _, err) = run(&["rescore", rescored.join("none").to_str().unwrap_or_default(), "--out", &out]);
    assert_eq!(code, Some(2));
    assert!(err.contains("error: cannot read"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `springer train --init NET --hidden W` widens a net: the file has the new width in its header
/// and a wider net's size, and a width narrower than the net's is refused with a clear error.
/// `--test` reports the loss on other games with every epoch.
#[test]
fn a_net_is_widened_and_never_narrowed() {
    let (dir, data) = training_dir("widen");
    let run = |extra: &[&str]| train(&data, 1, extra);
    let embedded = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/default.nnue");
    let init = embedded.to_str().unwrap_or_default();
    let (hidden, wider, narrower) = (springer::nnue::HIDDEN, 2 * springer::nnue::HIDDEN, springer::nnue::HIDDEN / 2);
    let wide = dir.join("wide.nnue");
    let test = data.to_str().unwrap_or_default();
    let out = run(&[
        "--init",
        init,
        "--hidden",
        &wider.to_string(),
        "--test",
        test,
        "--out",
        wide.to_str().unwrap_or_default(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // `--test` adds the loss on games held out whole to the start line and every epoch's.
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("test: 5 positions"), "{log}");
    assert_eq!(log.lines().filter(|l| l.contains("validation loss") && l.contains("test loss")).count(), 2, "{log}");
    let bytes = std::fs::read(&wide).expect("the widened net");
    let plain = std::fs::read(&embedded).expect("the embedded net");
    let width = |b: &[u8]| u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize;
    assert_eq!((width(&plain), width(&bytes)), (hidden, wider));
    assert_eq!(bytes[..8], plain[..8], "the same kind of net");
    assert!(bytes.len() > plain.len() + 2 * springer::nnue::INPUTS * (wider - hidden) - 1);
    let narrow =
        run(&["--init", init, "--hidden", &narrower.to_string(), "--out", &dir.join("x.nnue").display().to_string()]);
    assert_eq!(narrow.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&narrow.stderr).contains("only widened"),
        "{}",
        String::from_utf8_lossy(&narrow.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `springer train --init NET --king-buckets` splits a net into four king buckets: the file is a
/// `SPRNNUE3` net with both flags and four times the input rows, the engine loads it and searches
/// with it (king moves between buckets recompute the accumulator), and splitting it again is
/// refused. From scratch, `--king-buckets` gives the same header.
#[test]
fn a_net_is_split_into_king_buckets_loaded_and_searched() {
    let (dir, data) = training_dir("king-buckets");
    let run = |extra: &[&str]| train(&data, 1, extra);
    let embedded = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/default.nnue");
    let split = dir.join("split.nnue");
    let out = run(&[
        "--init",
        embedded.to_str().unwrap_or_default(),
        "--king-buckets",
        "--out",
        split.to_str().unwrap_or_default(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&split).expect("the split net");
    let plain = std::fs::read(&embedded).expect("the embedded net");
    assert!(bytes.starts_with(springer::nnue::MIRRORED_NET_MAGIC));
    assert_eq!(u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]), 3, "mirrored and king-bucketed");
    let feature_layer = 2 * springer::nnue::INPUTS * springer::nnue::HIDDEN;
    assert_eq!(bytes.len(), plain.len() + 64 + 3 * feature_layer, "the map and three more sets of rows");
    let again = run(&[
        "--init",
        split.to_str().unwrap_or_default(),
        "--king-buckets",
        "--out",
        &dir.join("x.nnue").display().to_string(),
    ]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("without king buckets"));
    let scratch = dir.join("scratch.nnue");
    let out =
        run(&["--king-mirror", "--king-buckets", "--buckets", "8", "--out", scratch.to_str().unwrap_or_default()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&scratch).expect("the net")[..84], bytes[..84], "the same header and map");

    let mut e = Engine::start();
    e.send(&format!("setoption name EvalFile value {}", split.display()));
    let lines = e.until("info string", Duration::from_secs(5));
    assert!(lines.last().is_some_and(|l| l.contains("loaded")), "{lines:?}");
    // A king walking up the board passes through three of the buckets.
    e.send("position fen 8/5k2/8/8/8/8/4P3/4K3 w - - 0 1");
    let score = net_score(&mut e);
    assert!(score.abs() < 2000, "{score}");
    e.send("go depth 10");
    let lines = e.until("bestmove", Duration::from_secs(20));
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")), "{lines:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
