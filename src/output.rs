//! The program's standard output. `println!` panics when stdout is a closed pipe
//! (`springer perft 6 --divide | head -1`, a GUI that went away); [`say!`](crate::say) ends the
//! program quietly instead, and reports any other write failure as an error.

use std::io::{self, Write};

/// Writes one line to stdout, like `println!`, under a single lock (so lines from search threads
/// never interleave); see [`closed`] for what a failed write does.
#[macro_export]
macro_rules! say {
    () => {
        $crate::output::line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))
    };
}

/// The body of [`say!`](crate::say).
pub fn line(args: std::fmt::Arguments) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        closed(e)
    }
}

/// Writes `text` to stdout without a newline and flushes it (a prompt before reading input);
/// a failed write does what [`closed`] says.
pub fn prompt(text: &str) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        closed(e)
    }
}

/// Ends the program after a failed write to stdout: silently with exit code 0 when the reader
/// closed the pipe (it has read all it wanted), with a message and exit code 2 otherwise.
pub fn closed(e: io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0)
    }
    eprintln!("error: cannot write to stdout: {e}");
    std::process::exit(2)
}
