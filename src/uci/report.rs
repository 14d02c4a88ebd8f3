//! What the engine prints about a search: the `info` lines of its reports and live status, the
//! `bestmove` line, and the win/draw/loss model behind `UCI_ShowWDL` (`tools/fit_wdl.py` fits
//! it; docs/tuning.md has the fits).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::say;
use crate::search::live::LiveInfo;
use crate::search::strength::Evaluation;
use crate::search::{mate_in_moves, Report, ScoreBound};
use crate::types::Move;
use std::time::Duration;

/// Prints the `bestmove` line, with its `ponder` move when there is one.
pub fn print_bestmove(best: Move, ponder: Move, chess960: bool) {
    if ponder.is_null() {
        say!("bestmove {}", best.to_uci(chess960));
    } else {
        say!("bestmove {} ponder {}", best.to_uci(chess960), ponder.to_uci(chess960));
    }
}

/// A win/draw/loss model: W = 1 / (1 + e^-((s - centre) / width)) for a score of s, L the same
/// for -s, D the rest.
#[derive(Clone, Copy, Debug)]
pub struct WdlModel {
    pub centre: f64,
    pub width: f64,
}

/// The hand-crafted evaluation's model: fitted by maximum likelihood on 200,000 positions of
/// the tuning games (results against Stockfish's score, W = sigma((x - 183) / 111) in its units)
/// and carried over to Springer's scale (0.69 of Stockfish's, from the tuner's fitted K).
pub const HAND_CRAFTED_WDL: WdlModel = WdlModel { centre: 265.0, width: 161.0 };

/// The embedded network's model (net-ft41a): net-ft16's direct fit (`tools/fit_wdl.py` on 72,463
/// of its move scores at 8s+0.08s) scaled by each later net's fit against its predecessor's on
/// the games of the gate that admitted it (net-ft28, net-ft31, net-ft36, then net-ft41a;
/// docs/tuning.md).
pub const NETWORK_WDL: WdlModel = WdlModel { centre: 290.0, width: 132.0 };

/// The model for the evaluation that searches use now.
pub fn current_wdl_model() -> WdlModel {
    match Evaluation::current() {
        Evaluation::Network => NETWORK_WDL,
        Evaluation::HandCrafted => HAND_CRAFTED_WDL,
    }
}

/// Win, draw and loss chances in permille for a score (side to move's view) under `model`.
/// Mate scores are certain results.
pub fn win_draw_loss(score: i32, model: WdlModel) -> (u32, u32, u32) {
    if let Some(moves) = mate_in_moves(score) {
        return if moves > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let chance = |x: f64| 1000.0 / (1.0 + (-(x - model.centre) / model.width).exp());
    let win = chance(f64::from(score)).round() as u32;
    let loss = chance(-f64::from(score)).round() as u32;
    (win, 1000u32.saturating_sub(win + loss), loss)
}

/// Nodes per second, as info lines show it (a search younger than a millisecond counts as one).
fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(0.001)) as u64
}

/// The `info` line of a live report: the root move being searched, or where a long iteration
/// stands.
pub fn live_line(info: &LiveInfo, chess960: bool) -> String {
    match *info {
        LiveInfo::CurrentMove { depth, mv, number } => {
            format!("info depth {depth} currmove {} currmovenumber {number}", mv.to_uci(chess960))
        }
        LiveInfo::Status { depth, seldepth, nodes, elapsed, hashfull, tbhits } => {
            let tbhits = if tbhits > 0 { format!(" tbhits {tbhits}") } else { String::new() };
            format!(
                "info depth {depth} seldepth {} nodes {nodes} nps {} hashfull {hashfull}{tbhits} time {}",
                seldepth.max(depth.max(0) as usize),
                nodes_per_second(nodes, elapsed),
                elapsed.as_millis()
            )
        }
    }
}

/// The `info` line of a search report.
pub fn info_line(report: &Report, chess960: bool, show_wdl: bool) -> String {
    let score = match mate_in_moves(report.score) {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {}", report.score),
    };
    let bound = match report.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let wdl = if show_wdl {
        let (w, d, l) = win_draw_loss(report.score, current_wdl_model());
        format!(" wdl {w} {d} {l}")
    } else {
        String::new()
    };
    let millis = report.elapsed.as_millis();
    let tbhits = if report.tbhits > 0 { format!(" tbhits {}", report.tbhits) } else { String::new() };
    let nps = nodes_per_second(report.nodes, report.elapsed);
    let pv: Vec<String> = report.pv.iter().map(|mv| mv.to_uci(chess960).to_string()).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {nps} hashfull {}{tbhits} time {millis} pv {}",
        report.depth,
        report.seldepth.max(report.depth as usize),
        report.multipv,
        report.nodes,
        report.hashfull,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_model_is_symmetric_and_sums_to_1000() {
        for model in [HAND_CRAFTED_WDL, NETWORK_WDL] {
            for score in [-3000, -265, -50, 0, 50, 265, 3000] {
                let (w, d, l) = win_draw_loss(score, model);
                assert_eq!(w + d + l, 1000, "{score}");
                assert_eq!(win_draw_loss(-score, model), (l, d, w));
            }
            assert_eq!(win_draw_loss(0, model).0, win_draw_loss(0, model).2);
            assert_eq!(win_draw_loss(model.centre as i32, model).0, 500);
            assert_eq!(win_draw_loss(32_000 - 3, model), (1000, 0, 0));
        }
    }

    #[test]
    fn live_lines_name_the_move_and_the_status() {
        let mv = Move::new(crate::types::Square::E1, crate::types::Square::H1, crate::types::MoveKind::CASTLE);
        let current = LiveInfo::CurrentMove { depth: 21, mv, number: 3 };
        assert_eq!(live_line(&current, false), "info depth 21 currmove e1g1 currmovenumber 3");
        assert_eq!(live_line(&current, true), "info depth 21 currmove e1h1 currmovenumber 3");
        let status = LiveInfo::Status {
            depth: 21,
            seldepth: 30,
            nodes: 3_000_000,
            elapsed: Duration::from_millis(2000),
            hashfull: 877,
            tbhits: 0,
        };
        assert_eq!(
            live_line(&status, false),
            "info depth 21 seldepth 30 nodes 3000000 nps 1500000 hashfull 877 time 2000"
        );
        let status =
            LiveInfo::Status { depth: 21, seldepth: 2, nodes: 10, elapsed: Duration::ZERO, hashfull: 0, tbhits: 5 };
        assert_eq!(
            live_line(&status, false),
            "info depth 21 seldepth 21 nodes 10 nps 10000 hashfull 0 tbhits 5 time 0"
        );
    }
}
