//! Syzygy probe cost over the 20,520 fixture positions (`tests/fixtures/syzygy-probes.txt`), with
//! the tables in `../shared/syzygy` (or the committed subset): warm (every table already opened and
//! probed) and first probes (a fresh `Tablebases` each time, so every table is opened on its first
//! probe; the files stay in the page cache). Reported per 1,000 positions.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use springer::position::Position;
use springer::tb::Tablebases;
use std::path::{Path, PathBuf};

fn table_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/syzygy");
    if shared.exists() {
        shared
    } else {
        root.join("tests/fixtures/syzygy")
    }
}

fn open() -> Tablebases {
    Tablebases::open(table_dir().to_str().expect("utf-8 path")).0.expect("tables")
}

fn positions(tables: &Tablebases) -> Vec<Position> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("tests/fixtures/syzygy-probes.txt")).expect("fixtures");
    let positions: Vec<Position> = text
        .lines()
        .filter_map(|line| Position::from_fen(&line.split_whitespace().take(6).collect::<Vec<_>>().join(" ")).ok())
        .filter(|pos| tables.probe_wdl(pos).is_some() && tables.probe_dtz(pos).is_some())
        .collect();
    // Spread the sample over every table: every 20th position.
    positions.into_iter().step_by(20).take(1000).collect()
}

fn probes(c: &mut Criterion) {
    let tables = open();
    let positions = positions(&tables);
    c.bench_function("syzygy_wdl_1000_positions", |b| {
        b.iter(|| positions.iter().filter_map(|pos| tables.probe_wdl(black_box(pos))).count())
    });
    c.bench_function("syzygy_dtz_1000_positions", |b| {
        b.iter(|| positions.iter().filter_map(|pos| tables.probe_dtz(black_box(pos))).count())
    });
    let mut first = c.benchmark_group("first_probes");
    first.sample_size(20);
    first.bench_function("syzygy_wdl_dtz_1000_positions_fresh_tables", |b| {
        b.iter_batched(
            open,
            |tables| {
                let found = positions.iter().filter_map(|pos| tables.probe_dtz(black_box(pos))).count();
                (found, tables) // dropped outside the timing
            },
            BatchSize::PerIteration,
        )
    });
    first.finish();
}

criterion_group!(benches, probes);
criterion_main!(benches);
