//! Any byte string as a FEN: parsing must not panic, and a parsed position must print a FEN
//! that parses back to the same position, with consistent bitboards and key.
#![no_main]
use libfuzzer_sys::fuzz_target;
use springer::position::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = Position::from_fen(&text) {
        assert!(pos.is_consistent());
        assert_eq!(pos.key(), pos.compute_key());
        assert_eq!(Position::from_fen(&pos.to_fen()).as_ref(), Ok(&pos));
    }
});
