//! The Connect Four and Kalah commands through the real binary: solved values, the terminal
//! game played to its end, and bad input answered with exit code 2.

use std::io::Write;
use std::process::{Command, Stdio};

/// Starts `springer args` with stdin, stdout and stderr piped.
fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_springer"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start springer")
}

/// Runs `springer args` with `input` on stdin: (exit code, stdout, stderr).
fn run(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().expect("stdin");
    // The program may finish before reading everything: a closed pipe is not a failure here.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().expect("run springer");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn connect4_solve_matches_the_public_scores_and_rejects_bad_lines() {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/connect4-sample.txt");
    let (code, out, _) = run(&["connect4", "solve", fixture], "");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("positions 200 mismatches 0 bad lines 0"), "{out}");
    // Weakly, on two threads with a 16 MB table: the same signs.
    let (code, out, _) = run(&["connect4", "solve", "--weak", "--threads", "2", "--hash", "16", fixture], "");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("positions 200 mismatches 0 bad lines 0"), "{out}");
    // A wrong expected score is a mismatch: exit code 1.
    let (code, out, _) = run(&["connect4", "solve"], "2252576253462244111563365343671351441 3\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("MISMATCH"), "{out}");
    // A column out of range and a full column: an error line each, exit code 2.
    let (code, out, _) = run(&["connect4", "solve"], "448\n4444444\n");
    assert_eq!(code, Some(2));
    assert_eq!(out.lines().filter(|l| l.starts_with("error: ")).count(), 2, "{out}");
    // Bad options: exit code 2 and a message.
    for args in [&["connect4", "solve", "--threads", "0"][..], &["connect4", "solve", "--hash", "x"]] {
        let (code, _, err) = run(args, "");
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
}

#[test]
fn kalah_solve_reproduces_a_published_value_and_rejects_bad_input() {
    // Irving, Donkers and Uiterwijk: Kalah(4,3), empty-capture, first player wins by 8 (with a
    // 1 MB table too).
    let (code, out, _) = run(&["kalah", "solve", "--houses", "4", "--seeds", "3", "--rules", "empty-capture"], "");
    assert_eq!(code, Some(0));
    // The bounds after each MTD(f) pass come first; the last pass closes them on the value.
    let value_line = |out: &str| out.lines().find(|l| l.starts_with("value ")).map(str::to_string);
    assert_eq!(value_line(&out).as_deref(), Some("value +8"), "{out}");
    assert!(
        out.lines().rfind(|l| l.starts_with("bounds ")).is_some_and(|l| l.starts_with("bounds +8 to +8 ")),
        "{out}"
    );
    let (code, out, _) =
        run(&["kalah", "solve", "--houses", "4", "--seeds", "3", "--rules", "empty-capture", "--hash", "1"], "");
    assert_eq!(code, Some(0));
    assert_eq!(value_line(&out).as_deref(), Some("value +8"), "{out}");
    for args in [
        &["kalah", "solve", "--rules", "bogus"][..],
        &["kalah", "solve", "--houses", "4", "--position", "1,2,x"],
        &["kalah", "solve", "--hash", "0"],
        &["kalah", "solve", "--threads", "0"],
        &["kalah", "play", "--level", "9"],
        &["kalah", "play", "--first", "nobody"],
    ] {
        let (code, _, err) = run(args, "");
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.starts_with("error"), "{args:?}: {err}");
    }
}

#[test]
fn kalah_perft_counts_from_the_start_and_from_a_position() {
    let (code, out, _) = run(&["kalah", "perft", "5", "--rules", "seed"], "");
    assert_eq!(code, Some(0));
    let counts: Vec<&str> = out.lines().map(|l| l.split(' ').take(3).collect::<Vec<_>>()[2]).collect();
    assert_eq!(counts, ["6", "35", "185", "942", "4712"], "{out}");
    // Kalah(4,1) from the side to move's view: only house 3 holds a seed, and it ends in the
    // store, so the same side moves again with nothing left: one sequence, and the game is over.
    let (code, out, _) = run(&["kalah", "perft", "2", "--houses", "4", "--position", "0,0,0,1,0,1,0,0,0,0"], "");
    assert_eq!(code, Some(0));
    assert!(out.starts_with("perft 1 1 (") && out.contains("perft 2 0 ("), "{out}");
    for args in [
        &["kalah", "perft", "3", "--rules", "bogus"][..],
        &["kalah", "perft", "3", "--position", "1,2,3"],
        &["kalah", "perft", "0"],
    ] {
        let (code, _, err) = run(args, "");
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.starts_with("error"), "{args:?}: {err}");
    }
}

#[test]
fn kalah_play_asks_again_on_bad_input_and_plays_to_the_end() {
    // Bad answers first, then every house in turn until the game ends.
    let mut input = String::from("0\n9\nabc\n");
    for i in 0..400 {
        input.push_str(&format!("{}\n", i % 4 + 1));
    }
    let (code, out, _) = run(&["kalah", "play", "--level", "2", "--houses", "4", "--seeds", "3"], &input);
    assert_eq!(code, Some(0), "{out}");
    for bad in ["'0'", "'9'", "'abc'"] {
        assert!(out.contains(&format!("{bad} is not a house with seeds")), "{out}");
    }
    assert!(out.contains("Springer sows house"), "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("Stores: you ") && ["You win.", "Springer wins.", "A draw."].iter().any(|v| last.ends_with(v)),
        "{last}"
    );
}

#[test]
fn connect4_play_asks_again_on_bad_input_and_plays_to_the_end() {
    // Bad answers first, then the columns in turn (a full one is asked again) until the end.
    let mut input = String::from("0\n8\nx\n");
    for i in 0..200 {
        input.push_str(&format!("{}\n", i % 7 + 1));
    }
    let (code, out, _) = run(&["connect4", "play", "--level", "2"], &input);
    assert_eq!(code, Some(0), "{out}");
    for bad in ["'0'", "'8'", "'x'"] {
        assert!(out.contains(&format!("{bad} is not a column with room")), "{out}");
    }
    assert!(out.contains("Springer drops into column"), "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert!(["You win.", "Springer wins.", "A draw."].contains(&last), "{last}");
    let (code, _, err) = run(&["connect4", "play", "--level", "9"], "");
    assert_eq!(code, Some(2), "{err}");
}

/// A reader that closes the pipe early (`springer connect4 solve | head -1`) ends the program
/// quietly: exit code 0 and no panic, though the answer to the second line finds the pipe closed.
#[test]
fn a_closed_output_pipe_ends_the_program_quietly() {
    use std::io::{BufRead, BufReader};
    let mut child = spawn(&["connect4", "solve"]);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    writeln!(stdin, "4444443").expect("write the first line");
    let mut first = String::new();
    stdout.read_line(&mut first).expect("read the first answer");
    assert!(first.starts_with("4444443 "), "{first}");
    drop(stdout);
    writeln!(stdin, "44444433").expect("write the second line");
    drop(stdin);
    let output = child.wait_with_output().expect("wait for springer");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
