//! What a GUI shows while one iteration runs long: the root move the main thread is searching
//! (after the first seconds) and a status line (nodes, speed, table use) when no line has been
//! shown for a while. Only the main thread reports, and it reads the clock only where it already
//! polls the stop conditions, so reporting never changes what is searched.

use crate::types::Move;
use std::time::Duration;

/// Root moves are shown (`currmove`) from this far into a search on.
pub const CURRENT_MOVE_AFTER: Duration = Duration::from_secs(3);
/// A status line is shown when nothing has been shown for this long.
pub const STATUS_EVERY: Duration = Duration::from_secs(1);

/// One live report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveInfo {
    /// The main thread starts searching root move `mv`, the `number`th of the iteration at `depth`.
    CurrentMove { depth: i32, mv: Move, number: usize },
    /// Where the iteration at `depth` stands.
    Status {
        /// The iteration's depth.
        depth: i32,
        /// The deepest ply the main thread reached in it.
        seldepth: usize,
        /// Nodes searched by every thread (as last added to the shared count).
        nodes: u64,
        /// Time since the search started.
        elapsed: Duration,
        /// Table usage in permille.
        hashfull: usize,
        /// Tablebase hits (root moves included).
        tbhits: u64,
    },
}

/// Where live reports go: the engine's printer.
pub type LiveSink<'a> = &'a (dyn Fn(&LiveInfo) + Sync);

/// The main thread's live reporting: the sink and when it last showed something.
pub struct LiveReporter<'a> {
    sink: LiveSink<'a>,
    /// When the last line with a node count was shown (a search report or a status line).
    last_shown: Duration,
    /// The depth of the iteration running now.
    pub depth: i32,
    /// Tablebase hits of ranking the root moves, before any worker started.
    pub root_tb_hits: u64,
}

impl<'a> LiveReporter<'a> {
    /// A reporter printing through `sink`.
    pub fn new(sink: LiveSink<'a>, root_tb_hits: u64) -> LiveReporter<'a> {
        LiveReporter { sink, last_shown: Duration::ZERO, depth: 0, root_tb_hits }
    }

    /// Records that a line with a node count was shown at `elapsed` (the search driver's reports).
    pub fn shown_at(&mut self, elapsed: Duration) {
        self.last_shown = self.last_shown.max(elapsed);
    }

    /// Whether a status line is due at `elapsed`.
    #[inline]
    pub fn status_due(&self, elapsed: Duration) -> bool {
        elapsed >= self.last_shown + STATUS_EVERY
    }

    /// Shows a status line made at `elapsed`.
    pub fn show_status(&mut self, info: LiveInfo, elapsed: Duration) {
        (self.sink)(&info);
        self.last_shown = elapsed;
    }

    /// Shows root move `mv`, the `number`th of the iteration, if the search has run long enough.
    pub fn show_current_move(&self, elapsed: Duration, mv: Move, number: usize) {
        if elapsed >= CURRENT_MOVE_AFTER {
            (self.sink)(&LiveInfo::CurrentMove { depth: self.depth, mv, number });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn status_waits_for_a_quiet_second_and_moves_for_the_first_seconds() {
        let seen = Mutex::new(Vec::new());
        let sink = |info: &LiveInfo| seen.lock().unwrap_or_else(|e| e.into_inner()).push(*info);
        let mut live = LiveReporter::new(&sink, 0);
        live.depth = 7;
        assert!(!live.status_due(Duration::from_millis(900)));
        live.shown_at(Duration::from_millis(900));
        assert!(!live.status_due(Duration::from_millis(1800)));
        assert!(live.status_due(Duration::from_millis(1900)));
        let status = LiveInfo::Status {
            depth: 7,
            seldepth: 9,
            nodes: 10,
            elapsed: Duration::from_millis(1900),
            hashfull: 1,
            tbhits: 0,
        };
        live.show_status(status, Duration::from_millis(1900));
        assert!(!live.status_due(Duration::from_millis(2800)));
        live.show_current_move(CURRENT_MOVE_AFTER - Duration::from_millis(1), Move::NULL, 1);
        live.show_current_move(CURRENT_MOVE_AFTER, Move::NULL, 2);
        let seen = seen.into_inner().unwrap_or_else(|e| e.into_inner());
        assert_eq!(seen, vec![status, LiveInfo::CurrentMove { depth: 7, mv: Move::NULL, number: 2 }]);
    }
}
