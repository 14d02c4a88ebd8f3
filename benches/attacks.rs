//! Slider attack lookups (PEXT or magic, whichever this build uses) over varied occupancies.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use springer::attacks;
use springer::types::{Bitboard, Square};

fn occupancies() -> Vec<Bitboard> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    (0..64)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            Bitboard(state & state.rotate_left(23))
        })
        .collect()
}

fn slider_lookups(c: &mut Criterion) {
    let occ = occupancies();
    c.bench_function("rook_and_bishop_64x64", |b| {
        b.iter(|| {
            let mut acc = Bitboard::EMPTY;
            for (sq, &o) in Square::ALL.iter().zip(occ.iter()) {
                acc ^= attacks::rook(*sq, black_box(o)) ^ attacks::bishop(*sq, black_box(o));
            }
            acc
        })
    });
}

criterion_group!(benches, slider_lookups);
criterion_main!(benches);
