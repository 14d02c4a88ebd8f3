//! `position` commands with random move sequences: every legal prefix is applied, the first bad
//! move is reported, and the position reached stays consistent; the engine can then search it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use springer::movegen::{generate_legal, MoveList};
use springer::uci::{apply_position, Command};

fuzz_target!(|data: &[u8]| {
    // First byte picks free text or moves chosen from the legal ones by the following bytes.
    let Some((&mode, rest)) = data.split_first() else { return };
    if mode % 2 == 0 {
        let text = String::from_utf8_lossy(rest);
        if let Ok(Some(Command::Position { fen, moves })) = Command::parse(&text) {
            if let Ok(applied) = apply_position(fen.as_deref(), &moves, mode % 4 == 0) {
                assert!(applied.position.is_consistent());
            }
        }
        return;
    }
    let mut pos = springer::position::Position::startpos();
    let mut texts = Vec::new();
    for &byte in rest {
        let mut list = MoveList::new();
        generate_legal(&pos, &mut list);
        if list.is_empty() {
            break;
        }
        // Bytes above 250 insert a junk move to check that the prefix before it is kept.
        if byte > 250 {
            texts.push("z9z9".to_string());
            break;
        }
        let mv = list[byte as usize % list.len()];
        texts.push(mv.to_string());
        pos.make_move(mv);
    }
    if let Ok(applied) = apply_position(None, &texts, false) {
        assert!(applied.position.is_consistent());
        let complete = !texts.last().is_some_and(|t| t == "z9z9");
        assert_eq!(complete, applied.error.is_none());
        if complete {
            assert_eq!(applied.position.key(), pos.key());
        }
    }
});
