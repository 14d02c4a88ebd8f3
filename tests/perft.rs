//! Every perft suite position to the depths CI affords (leaf counts up to a few million), with
//! every leaf made at a shallower depth, split perft equal to serial perft, and on failure the
//! divide of the failing position.

use springer::perft::{divide, parse_suite, perft, perft_full, perft_parallel, PerftCase};
use springer::position::{Position, Variant};
use springer::threads::WorkerPool;

/// Depths whose expected count is at most this are checked here (nearly all of them in release,
/// where the suites take seconds); the few deeper ones run through `springer perft-suite`.
/// Debug builds check every make against a from-scratch key, so they stop far earlier.
const MAX_NODES: u64 = if cfg!(debug_assertions) { 200_000 } else { 200_000_000 };
/// Every-leaf perft (each leaf made, most of them in one copy of their parent and taken back) is
/// checked at each case's deepest depth whose count is at most this.
const FULL_MAX_NODES: u64 = if cfg!(debug_assertions) { 20_000 } else { 2_000_000 };

/// Every case of every suite is labelled (`# label: what it catches`), so a failure names it.
#[test]
fn every_suite_case_has_a_label() {
    for name in ["standard.epd", "tricky.epd", "chess960.epd"] {
        for case in suite(name) {
            assert!(case.label.is_some(), "{name} line {} has no label", case.line);
        }
    }
}

fn suite(name: &str) -> Vec<PerftCase> {
    let path = format!("{}/perft-suites/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_suite(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn check_suite(name: &str, variant: Variant) {
    let cases = suite(name);
    assert!(!cases.is_empty());
    let pool = WorkerPool::new(2).expect("two worker threads");
    let mut failures = Vec::new();
    for case in &cases {
        let label = case.label.as_deref().unwrap_or("unlabelled");
        let parsed = Position::parse_fen(&case.fen, variant)
            .unwrap_or_else(|e| panic!("{name} line {} ({label}): {e}", case.line));
        assert!(parsed.dropped.is_empty(), "{name} line {} ({label}): {:?}", case.line, parsed.dropped);
        let pos = parsed.position;
        for &(depth, expected) in case.expected.iter().filter(|&&(_, n)| n <= MAX_NODES) {
            let got = perft_parallel(&pos, depth, &pool);
            if got != expected {
                let detail: Vec<String> =
                    divide(&pos, depth, &pool).iter().map(|(mv, n)| format!("{}: {n}", mv.to_uci(true))).collect();
                failures.push(format!(
                    "{name} line {} ({label}) depth {depth}: expected {expected}, got {got}\n  {}\n  divide: {}",
                    case.line,
                    case.fen,
                    detail.join(", ")
                ));
                break;
            }
        }
        if let Some(&(depth, expected)) = case.expected.iter().rfind(|&&(_, n)| n <= FULL_MAX_NODES) {
            let got = on_a_large_stack(|| perft_full(&pos, depth));
            if got != expected {
                failures.push(format!(
                    "{name} line {} ({label}) depth {depth}, every leaf made: expected {expected}, got {got}\n  {}",
                    case.line, case.fen
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Runs `count` on a thread with a 64 MB stack: a debug build's generator frames are large
/// enough for a deep every-leaf perft to overflow a test thread's 2 MB.
fn on_a_large_stack(count: impl FnOnce() -> u64 + Send) -> u64 {
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new().stack_size(64 << 20).spawn_scoped(scope, count);
        thread.expect("a counting thread").join().expect("the count finishes")
    })
}

#[test]
fn standard_suite_matches() {
    check_suite("standard.epd", Variant::Standard);
}

#[test]
fn tricky_suite_matches() {
    check_suite("tricky.epd", Variant::Standard);
}

#[test]
fn chess960_suite_matches() {
    check_suite("chess960.epd", Variant::Chess960);
}

#[test]
fn split_and_full_perft_equal_serial_perft() {
    let pool = WorkerPool::new(2).expect("two worker threads");
    for case in suite("standard.epd").iter().take(8) {
        let pos = Position::from_fen(&case.fen).expect("suite FENs are valid");
        let serial = perft(&pos, 4);
        assert_eq!(perft_parallel(&pos, 4, &pool), serial, "{}", case.fen);
        assert_eq!(perft_full(&pos, 3), perft(&pos, 3), "{}", case.fen);
        assert_eq!(divide(&pos, 4, &pool).iter().map(|(_, n)| n).sum::<u64>(), serial, "{}", case.fen);
    }
}

/// Distributed perft through the binary: split, count every unit, merge to the plain count; a
/// deleted unit and a duplicated one make the merge fail and name the unit.
#[test]
fn perft_split_unit_merge_through_the_binary() {
    let bin = env!("CARGO_BIN_EXE_springer");
    let dir = std::env::temp_dir().join(format!("springer-perft-split-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let units = dir.join("units.txt");
    let run = |args: &[&str]| std::process::Command::new(bin).args(args).output().expect("run springer");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let units_path = units.to_str().expect("utf-8 path");
    let split = run(&["perft-split", "4", "--plies", "2", "--fen", kiwipete, "--out", units_path]);
    assert!(split.status.success(), "{split:?}");
    let said = String::from_utf8_lossy(&split.stdout).to_string();
    let count: usize = said.split_whitespace().next().and_then(|n| n.parse().ok()).expect("the unit count");
    let rest = format!("10-{}", count - 1);
    let counted = run(&["perft-unit", units_path, "0-9", &rest, "--hash", "4"]);
    assert!(counted.status.success());
    let results = String::from_utf8(counted.stdout).expect("utf-8");
    let results_path = dir.join("results.txt");
    std::fs::write(&results_path, &results).expect("write results");
    let merged = run(&["perft-merge", units_path, results_path.to_str().expect("utf-8")]);
    assert!(String::from_utf8_lossy(&merged.stdout).ends_with(": 4085603\n"), "{merged:?}");
    let lines: Vec<&str> = results.lines().collect();
    for (broken, message) in [
        (lines[1..].join("\n"), "unit 0 is missing"),
        (format!("{}\n{}", results, lines[5]), "unit 5 came back 2 times"),
    ] {
        std::fs::write(&results_path, broken).expect("write results");
        let merged = run(&["perft-merge", units_path, results_path.to_str().expect("utf-8")]);
        assert_eq!(merged.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&merged.stderr).contains(message), "{merged:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
