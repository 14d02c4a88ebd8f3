//! FEN through the public API: every suite FEN parses and prints back unchanged, and random
//! byte strings (not only mutations of valid FENs) never panic the parser.

use springer::perft::parse_suite;
use springer::position::{Position, Variant};

#[test]
fn every_suite_fen_round_trips() {
    let mut count = 0;
    for (name, variant) in
        [("standard.epd", Variant::Standard), ("tricky.epd", Variant::Standard), ("chess960.epd", Variant::Chess960)]
    {
        let path = format!("{}/perft-suites/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("suite file");
        for case in parse_suite(&text).expect("suite parses") {
            let parsed =
                Position::parse_fen(&case.fen, variant).unwrap_or_else(|e| panic!("{name} line {}: {e}", case.line));
            assert!(parsed.dropped.is_empty(), "{name} line {}", case.line);
            assert_eq!(parsed.position.to_fen(), case.fen, "{name} line {}", case.line);
            count += 1;
        }
    }
    assert!(count >= 200);
}

#[test]
fn random_bytes_never_panic() {
    let mut state = 0x5eed_u64;
    let mut accepted = 0;
    for _ in 0..100_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = (state % 80) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|i| {
                let r = state.rotate_left(i as u32 * 7) as u8;
                b"pnbrqkPNBRQK12345678/ wb-KQkqa3e6"[r as usize % 33]
            })
            .collect();
        if Position::from_fen(&String::from_utf8_lossy(&bytes)).is_ok() {
            accepted += 1;
        }
    }
    // Random strings almost never form a legal position; the point is that none panicked.
    assert!(accepted < 100_000);
}
