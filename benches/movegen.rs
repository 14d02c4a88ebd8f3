//! Move generation, copy-make and perft on the standard positions.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use springer::movegen::{count_legal, generate_legal, MoveList};
use springer::perft::{perft, perft_full};
use springer::position::{Position, START_FEN};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

fn position(fen: &str) -> Position {
    Position::from_fen(fen).expect("valid fen")
}

fn generation(c: &mut Criterion) {
    let pos = position(KIWIPETE);
    c.bench_function("generate_legal_kiwipete", |b| {
        b.iter(|| {
            let mut list = MoveList::new();
            generate_legal(black_box(&pos), &mut list);
            list.len()
        })
    });
    c.bench_function("count_legal_kiwipete", |b| b.iter(|| count_legal(black_box(&pos))));
}

fn make_move(c: &mut Criterion) {
    let pos = position(KIWIPETE);
    let mut list = MoveList::new();
    generate_legal(&pos, &mut list);
    let info = pos.check_info();
    c.bench_function("copy_make_all_kiwipete_moves", |b| {
        b.iter(|| {
            let mut keys = 0u64;
            for &mv in list.iter() {
                let mut child = black_box(&pos).clone();
                child.make_move_with(mv, &info);
                keys ^= child.key();
            }
            keys
        })
    });
}

fn perft_runs(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    for (name, fen, depth) in
        [("startpos_4", START_FEN, 4), ("kiwipete_3", KIWIPETE, 3), ("position3_5", POSITION_3, 5)]
    {
        let pos = position(fen);
        group.bench_function(name, |b| b.iter(|| perft(black_box(&pos), depth)));
    }
    let pos = position(KIWIPETE);
    group.bench_function("kiwipete_3_every_leaf_made", |b| b.iter(|| perft_full(black_box(&pos), 3)));
    group.finish();
}

criterion_group!(benches, generation, make_move, perft_runs);
criterion_main!(benches);
