//! The network's invariants on a pseudo-random net (every weight non-zero somewhere, so a wrong
//! feature or a missed update changes the output).

use super::*;
use crate::movegen::{generate_legal, MoveList};
use crate::position::Variant;

/// King-mirrored inputs without king buckets.
const MIRRORED: Inputs = Inputs { king_mirror: true, king_buckets: KingBuckets::NONE };

/// Every arrangement of the inputs a test covers: plain, king-mirrored, king-bucketed (both the
/// mirrored way and not).
const ARRANGEMENTS: [Inputs; 4] = [
    Inputs::PLAIN,
    MIRRORED,
    Inputs { king_mirror: true, king_buckets: KingBuckets::FOUR },
    Inputs { king_mirror: false, king_buckets: KingBuckets::FOUR },
];

/// A pseudo-random net with 8 output buckets, its inputs arranged as `inputs` says.
fn pseudo_random_net(seed: u64, inputs: Inputs) -> Network {
    let mut state = seed;
    let mut next = |range: i64| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) as i64 % (2 * range + 1) - range) as i16
    };
    let mut net = Network::zeroed_with(inputs, 8);
    net.feature_weights.iter_mut().flatten().for_each(|w| *w = next(200));
    net.feature_bias.iter_mut().for_each(|w| *w = next(100) + 100);
    for layer in &mut net.output_layers {
        layer.weights.iter_mut().flatten().for_each(|w| *w = next(250));
        layer.bias = i32::from(next(1000));
    }
    net
}

const STARTS: [(&str, Variant); 4] = [
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", Variant::Standard),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", Variant::Standard),
    ("n1r2bkr/p1pppppp/1p6/8/8/1P6/P1PPPPPP/N1R2BKR w HChc - 0 1", Variant::Chess960),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", Variant::Standard),
];

/// Plays `games` random games of up to `plies` plies from each start, calling `check` with the
/// position before and after every move (and after a null move now and then).
fn random_games(games: u64, plies: usize, mut check: impl FnMut(&Position, &Position)) {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for (fen, variant) in STARTS {
        for _ in 0..games {
            let mut pos = Position::parse_fen(fen, variant).unwrap().position;
            for _ in 0..plies {
                let mut list = MoveList::new();
                generate_legal(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let mut next = pos.clone();
                if state.is_multiple_of(17) && !pos.is_check() {
                    next.make_null_move();
                } else {
                    next.make_move(list[(state % list.len() as u64) as usize]);
                }
                check(&pos, &next);
                pos = next;
            }
        }
    }
}

#[test]
fn incremental_updates_equal_a_full_refresh() {
    for inputs in ARRANGEMENTS {
        let net = pseudo_random_net(1, inputs);
        let (mut moves, mut recomputed) = (0, 0);
        let mut acc = None;
        random_games(250, 60, |before, after| {
            let parent = match acc.take() {
                Some((key, acc)) if key == before.key() => acc,
                _ => Accumulator::refreshed(&net, before),
            };
            let delta = Delta::between(&net, before, after);
            let mover = before.side_to_move();
            let crossed = before.king_square(mover).file().index() / 4 != after.king_square(mover).file().index() / 4;
            let rank = |pos: &Position| {
                let rank = pos.king_square(mover).rank().index();
                (if mover == Color::Black { 7 - rank } else { rank }).min(2)
            };
            let side = |pos: &Position| (pos.king_square(mover).file().index() as i32 * 2 - 7).abs() / 4;
            let rebucketed = rank(before) != rank(after) || (rank(after) == 0 && side(before) != side(after));
            // Only a king-mirrored net's king crossing the d/e line, and a king-bucketed net's
            // king changing bucket, must be recomputed.
            let changed = (inputs.king_mirror && crossed) || (inputs.king_buckets != KingBuckets::NONE && rebucketed);
            assert_eq!(delta.is_updatable(), !changed, "{} after {}", after.to_fen(), before.to_fen());
            let mut updated = Accumulator::ZERO;
            if delta.is_updatable() {
                parent.update_into(&net, &delta, &mut updated);
                let refreshed = Accumulator::refreshed(&net, after);
                assert_eq!(updated, refreshed, "{} after {}", after.to_fen(), before.to_fen());
                moves += 1;
            } else {
                updated = Accumulator::refreshed(&net, after);
                recomputed += 1;
            }
            acc = Some((after.key(), updated));
        });
        assert!(moves > 40_000, "only {moves} moves checked");
        assert_eq!(recomputed > 500, inputs != Inputs::PLAIN, "{recomputed} recomputed");
    }
}

#[test]
fn the_refresh_cache_equals_a_full_refresh() {
    for inputs in ARRANGEMENTS {
        let net = pseudo_random_net(4, inputs);
        // One cache across every game, as a search thread's across its searches: an entry is
        // often many moves (or a whole game) away from the next position it serves.
        let mut cache = RefreshCache::new();
        let mut checked = 0;
        random_games(40, 60, |_, after| {
            assert_eq!(cache.refreshed(&net, after), Accumulator::refreshed(&net, after), "{}", after.to_fen());
            checked += 1;
        });
        assert!(checked > 5_000, "only {checked} positions");
    }
}

#[test]
fn every_kernel_computes_the_same_integers() {
    use super::kernels::{run_with, Kernel};
    let kernels = Kernel::available();
    #[cfg(all(target_arch = "x86_64", feature = "runtime-dispatch"))]
    if std::arch::is_x86_feature_detected!("avx2") {
        assert!(kernels.contains(&Kernel::Avx2), "AVX2 is here but not offered: {kernels:?}");
    }
    for inputs in ARRANGEMENTS {
        let net = pseudo_random_net(3, inputs);
        let mut caches: Vec<RefreshCache> = kernels.iter().map(|_| RefreshCache::new()).collect();
        let mut checked = 0;
        random_games(20, 60, |before, after| {
            let delta = Delta::between(&net, before, after);
            let parent = Accumulator::refreshed(&net, before);
            let expected = Accumulator::refreshed(&net, after);
            for (&kernel, cache) in kernels.iter().zip(&mut caches) {
                // SAFETY: `kernel` is one of `Kernel::available()`.
                let fresh = unsafe { run_with(kernel, || Accumulator::refreshed_loops(&net, after)) };
                assert_eq!(fresh, expected, "{kernel:?} refresh of {}", after.to_fen());
                // SAFETY: as above.
                let cached = unsafe { run_with(kernel, || cache.refreshed_loops(&net, after)) };
                assert_eq!(cached, expected, "{kernel:?} cached refresh of {}", after.to_fen());
                if delta.is_updatable() {
                    let mut updated = Accumulator::ZERO;
                    // SAFETY: as above.
                    unsafe { run_with(kernel, || parent.update_loops(&net, &delta, &mut updated)) };
                    assert_eq!(updated, expected, "{kernel:?} update to {}", after.to_fen());
                }
                // SAFETY: as above.
                let output = unsafe { run_with(kernel, || net.output_loops(&expected, after)) };
                assert_eq!(output, net.evaluate(after), "{kernel:?} output of {}", after.to_fen());
            }
            checked += 1;
        });
        assert!(checked > 3_000, "only {checked} positions");
    }
}

#[test]
fn the_lazy_stack_equals_a_full_refresh() {
    for inputs in ARRANGEMENTS {
        let net = pseudo_random_net(2, inputs);
        let mut stack = AccumulatorStack::new(80);
        let mut ply = 0;
        let mut evaluated = 0;
        random_games(50, 60, |before, after| {
            if before.fullmove_number() == 1 && ply > 0 {
                // A new game: its start is unknown to the stack.
                ply = 0;
                stack.forget();
            }
            stack.push(&net, ply + 1, before, after);
            ply += 1;
            // Evaluate only every third position, so deltas pile up between evaluations.
            if ply.is_multiple_of(3) {
                assert_eq!(stack.evaluate(&net, after, ply), net.evaluate(after), "{}", after.to_fen());
                evaluated += 1;
            }
        });
        assert!(evaluated > 2_000);
    }
}

#[test]
fn colour_mirrored_positions_score_the_same() {
    for inputs in ARRANGEMENTS {
        let net = pseudo_random_net(3, inputs);
        let mut checked = 0;
        random_games(40, 60, |_, after| {
            assert_eq!(net.evaluate(after), net.evaluate(&after.mirrored()), "{}", after.to_fen());
            checked += 1;
        });
        assert!(checked > 5_000);
    }
}

/// `pos` mirrored left to right, without castling rights or an en-passant square (the net sees
/// neither).
fn flipped_left_right(pos: &Position) -> Position {
    let fen = pos.to_fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = fields[0].split('/').map(|rank| rank.chars().rev().collect()).collect();
    let flipped = format!("{} {} - - 0 1", board.join("/"), fields[1]);
    Position::from_fen(&flipped).unwrap_or_else(|e| panic!("{flipped}: {e}"))
}

#[test]
fn a_king_mirrored_net_scores_left_right_mirrored_positions_the_same() {
    let (plain, mirrored) = (pseudo_random_net(5, Inputs::PLAIN), pseudo_random_net(5, MIRRORED));
    let (mut checked, mut plain_differs) = (0, 0);
    random_games(20, 60, |_, after| {
        let flipped = flipped_left_right(after);
        assert_eq!(mirrored.evaluate(after), mirrored.evaluate(&flipped), "{}", after.to_fen());
        plain_differs += usize::from(plain.evaluate(after) != plain.evaluate(&flipped));
        checked += 1;
    });
    assert!(checked > 3_000);
    // The same weights without king mirroring see a different board: the symmetry is the
    // mirroring's, not the test's.
    assert!(plain_differs > checked / 2, "{plain_differs} of {checked}");
}

#[test]
fn output_buckets_split_the_piece_counts_evenly() {
    let buckets_of = |buckets: usize| (2..=32).map(|pieces| output_bucket(pieces, buckets)).collect::<Vec<_>>();
    assert!(buckets_of(1).iter().all(|&b| b == 0));
    // Eight buckets of four piece counts each (2-5, 6-9, ...), the last one 30-32.
    let eight = buckets_of(8);
    for (i, &bucket) in eight.iter().enumerate() {
        assert_eq!(bucket, (i / 4).min(7), "{} pieces", i + 2);
    }
    assert_eq!(buckets_of(2), [vec![0; 16], vec![1; 15]].concat());
    // Every bucket count uses each of its buckets, in order, for at least one piece count.
    for buckets in 1..=MAX_BUCKETS {
        let all = buckets_of(buckets);
        assert!(all.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1), "{buckets}: {all:?}");
        assert_eq!((all[0], all[30]), (0, buckets - 1), "{buckets}: {all:?}");
    }
}

#[test]
fn a_bucketed_net_scores_each_position_with_its_piece_counts_layer() {
    let net = pseudo_random_net(4, Inputs::PLAIN);
    let single = |bucket: usize| {
        let mut one = net.clone();
        one.output_layers = vec![net.output_layers[bucket].clone()];
        one
    };
    let singles: Vec<Network> = (0..net.buckets()).map(single).collect();
    let mut used = vec![0; net.buckets()];
    random_games(20, 80, |_, after| {
        let bucket = output_bucket(after.occupied().count() as usize, net.buckets());
        assert_eq!(net.evaluate(after), singles[bucket].evaluate(after), "{}", after.to_fen());
        used[bucket] += 1;
    });
    assert!(used.iter().filter(|&&n| n > 0).count() >= 3, "buckets used: {used:?}");
}

#[test]
fn a_king_bucketed_net_reads_the_rows_of_each_kings_bucket() {
    let split = Inputs { king_mirror: true, king_buckets: KingBuckets::FOUR };
    let one = pseudo_random_net(6, MIRRORED);
    // The same rows in every bucket: the same scores as the net with one set.
    let mut copies = Network::zeroed_with(split, one.buckets());
    for (bucket_rows, rows) in copies.feature_weights.chunks_mut(INPUTS).zip(std::iter::repeat(&one.feature_weights)) {
        bucket_rows.copy_from_slice(rows);
    }
    copies.feature_bias = one.feature_bias;
    copies.output_layers = one.output_layers.clone();
    let mut views = std::collections::HashSet::new();
    random_games(20, 60, |_, after| {
        assert_eq!(copies.evaluate(after), one.evaluate(after), "{}", after.to_fen());
        for perspective in Color::ALL {
            views.insert((perspective.index(), copies.view(after, perspective)));
        }
    });
    // Every bucket and both sides of the board were seen from both perspectives.
    assert_eq!(views.len(), 2 * 2 * KingBuckets::FOUR.count(), "{views:?}");
    // The rows of the king's bucket decide: zero the rows of every other bucket and a king in
    // bucket 0 still scores as before, while one in another bucket loses its pieces' rows.
    let mut first_only = copies.clone();
    first_only.feature_weights[INPUTS..].iter_mut().flatten().for_each(|w| *w = 0);
    let start = Position::startpos();
    let in_bucket_0 = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first_only.view(&in_bucket_0, Color::White).bucket, 0);
    assert_eq!(first_only.evaluate(&in_bucket_0), one.evaluate(&in_bucket_0));
    assert_eq!(first_only.view(&start, Color::White).bucket, 1);
    assert_ne!(first_only.evaluate(&start), one.evaluate(&start));
}
