//! Any byte string as a UCI line: the parser must not panic; options parse or refuse cleanly.
#![no_main]
use libfuzzer_sys::fuzz_target;
use springer::uci::{options, Command};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(Some(Command::SetOption { name, value })) = Command::parse(&text) {
        let _ = options::parse(&name, value.as_deref());
    }
});
