//! Syzygy probe cost over the 20,520 fixture positions (`tests/fixtures/syzygy-probes.txt`), with
//! the tables in `../shared/syzygy` (or the committed subset): warm (every table already opened and
//! probed) and first probes (a fresh `Tablebases` each time, so every table is opened on its first
//! probe; the files stay in the page cache). Reported per 1,000 positions. With `../shared/syzygy-6`
//! beside the project, the same over 200 KNNNNvK / KNNNvK positions (`syzygy6-probes.txt`).
//! With `SPRINGER_TB_DROP_CACHES=1` (root only), also cold first probes: the page cache dropped
//! before each round (opening, which reads each file's first bytes, is not timed).

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use springer::position::Position;
use springer::tb::Tablebases;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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

fn fens(fixtures: &str) -> Vec<Position> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("tests/fixtures").join(fixtures)).expect("fixtures");
    text.lines()
        .filter_map(|line| Position::from_fen(&line.split_whitespace().take(6).collect::<Vec<_>>().join(" ")).ok())
        .collect()
}

fn positions(tables: &Tablebases) -> Vec<Position> {
    let positions: Vec<Position> = fens("syzygy-probes.txt")
        .into_iter()
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

/// The tables beside the project with the six-piece ones, if `../shared/syzygy-6` is there.
fn six_piece_dirs() -> Option<String> {
    let six = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/syzygy-6");
    let sep = springer::tb::PATH_SEPARATOR;
    six.join("KNNNNvK.rtbz").exists().then(|| format!("{}{sep}{}", six.display(), table_dir().display()))
}

fn six_piece_probes(c: &mut Criterion) {
    let Some(dirs) = six_piece_dirs() else { return };
    let open = || Tablebases::open(&dirs).0.expect("tables");
    let positions: Vec<Position> = fens("syzygy6-probes.txt").into_iter().step_by(10).collect();
    let tables = open();
    c.bench_function("syzygy6_dtz_200_positions", |b| {
        b.iter(|| positions.iter().filter_map(|pos| tables.probe_dtz(black_box(pos))).count())
    });
    let mut first = c.benchmark_group("first_probes");
    first.sample_size(20);
    first.bench_function("syzygy6_dtz_200_positions_fresh_tables", |b| {
        b.iter_batched(
            open,
            |tables| (positions.iter().filter_map(|pos| tables.probe_dtz(black_box(pos))).count(), tables),
            BatchSize::PerIteration,
        )
    });
    first.finish();
}

/// Drops the page cache, then reads this program back in, so only the tables' pages are cold.
fn drop_page_cache() {
    std::process::Command::new("sync").status().expect("sync");
    std::fs::write("/proc/sys/vm/drop_caches", "1\n").expect("root, to drop the page cache");
    std::fs::read(std::env::current_exe().expect("this program")).expect("read this program");
}

fn cold_probes(c: &mut Criterion) {
    if std::env::var("SPRINGER_TB_DROP_CACHES").as_deref() != Ok("1") {
        return;
    }
    let mut sets = vec![("syzygy_dtz_100_positions", table_dir().display().to_string(), {
        let positions = positions(&open());
        positions.into_iter().step_by(10).collect::<Vec<_>>()
    })];
    if let Some(dirs) = six_piece_dirs() {
        sets.push(("syzygy6_dtz_20_positions", dirs, fens("syzygy6-probes.txt").into_iter().step_by(100).collect()));
    }
    let mut group = c.benchmark_group("cold_probes");
    group.sample_size(10).sampling_mode(criterion::SamplingMode::Flat).warm_up_time(Duration::from_millis(1));
    for (name, dirs, positions) in &sets {
        group.bench_function(*name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    drop_page_cache();
                    let tables = Tablebases::open(dirs).0.expect("tables");
                    let start = Instant::now();
                    black_box(positions.iter().filter_map(|pos| tables.probe_dtz(pos)).count());
                    total += start.elapsed();
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, probes, six_piece_probes, cold_probes);
criterion_main!(benches);
