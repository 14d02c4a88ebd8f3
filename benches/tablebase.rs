//! Syzygy probe cost, warm (every table already loaded): WDL and DTZ over the 20,520 fixture
//! positions (`tests/fixtures/syzygy-probes.txt`), with the tables in `../shared/syzygy` (or the
//! committed subset). Reported per 1,000 positions: divide by 1,000 for the cost of one probe.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use springer::position::Position;
use springer::tb::Tablebases;
use std::path::Path;

fn tables_and_positions() -> (Tablebases, Vec<Position>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/syzygy");
    let dir = if shared.exists() { shared } else { root.join("tests/fixtures/syzygy") };
    let (tables, _) = Tablebases::open(dir.to_str().expect("utf-8 path"));
    let tables = tables.expect("tables");
    let text = std::fs::read_to_string(root.join("tests/fixtures/syzygy-probes.txt")).expect("fixtures");
    let positions: Vec<Position> = text
        .lines()
        .filter_map(|line| Position::from_fen(&line.split_whitespace().take(6).collect::<Vec<_>>().join(" ")).ok())
        .filter(|pos| tables.probe_wdl(pos).is_some() && tables.probe_dtz(pos).is_some())
        .collect();
    // Spread the sample over every table: every 20th position.
    let sample = positions.into_iter().step_by(20).take(1000).collect();
    (tables, sample)
}

fn probes(c: &mut Criterion) {
    let (tables, positions) = tables_and_positions();
    c.bench_function("syzygy_wdl_1000_positions", |b| {
        b.iter(|| positions.iter().filter_map(|pos| tables.probe_wdl(black_box(pos))).count())
    });
    c.bench_function("syzygy_dtz_1000_positions", |b| {
        b.iter(|| positions.iter().filter_map(|pos| tables.probe_dtz(black_box(pos))).count())
    });
}

criterion_group!(benches, probes);
criterion_main!(benches);
