//! The prober against python-chess: `tests/fixtures/syzygy-probes.txt` holds 20,520 random
//! positions (540 of each table in `../shared/syzygy`, en-passant positions included) with
//! python-chess's WDL and DTZ (`tools/syzygy_fixtures.py`). With `../shared/syzygy` present every
//! line is checked; without it, the lines of the small tables committed in
//! `tests/fixtures/syzygy/` (skipping those whose captures or promotions reach a table it lacks).
//! `tests/fixtures/syzygy6-probes.txt` does the same for the six-piece KNNNNvK and the five-piece
//! KNNNvK in `../shared/syzygy-6` (2,000 positions, half with the colours swapped), when present.

use super::*;
use crate::position::Position;

const FIXTURES: &str = include_str!("../../tests/fixtures/syzygy-probes.txt");
const SIX_PIECE_FIXTURES: &str = include_str!("../../tests/fixtures/syzygy6-probes.txt");

fn manifest_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// The full set beside the project if it is there, else the committed subset.
fn test_tables() -> (Tablebases, bool) {
    let shared = manifest_path("../shared/syzygy");
    let (dir, full) = if shared.join("KRBvKR.rtbw").exists() {
        (shared, true)
    } else {
        (manifest_path("tests/fixtures/syzygy"), false)
    };
    let (tables, problems) = Tablebases::open(dir.to_str().expect("utf-8 path"));
    assert!(problems.is_empty(), "{problems:?}");
    (tables.expect("test tables"), full)
}

#[test]
fn wdl_and_dtz_agree_with_python_chess() {
    let (tables, full) = test_tables();
    let (mut checked, mut skipped) = (0, 0);
    for line in FIXTURES.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = fields[..6].join(" ");
        let (wdl, dtz): (i32, i32) = (fields[6].parse().unwrap(), fields[7].parse().unwrap());
        let pos = Position::from_fen(&fen).unwrap();
        if tables.entry(&pos).is_none() {
            skipped += 1;
            continue;
        }
        let got_wdl = tables.probe_wdl(&pos).map(Wdl::to_i32);
        let got_dtz = tables.probe_dtz(&pos);
        if !full && (got_wdl.is_none() || got_dtz.is_none()) {
            // A capture or promotion leads to a table the subset lacks.
            skipped += 1;
            continue;
        }
        assert_eq!((got_wdl, got_dtz), (Some(wdl), Some(dtz)), "{fen}");
        checked += 1;
    }
    assert!(tables.take_warnings().is_empty());
    if full {
        assert_eq!((checked, skipped), (20_520, 0));
    } else {
        assert!(checked >= 5_000, "only {checked} fixture positions have a committed table");
    }
}

#[test]
fn six_piece_tables_agree_with_python_chess() {
    let six = manifest_path("../shared/syzygy-6");
    if !six.join("KNNNNvK.rtbw").exists() {
        eprintln!("skipped: no {} (the six-piece test tables)", six.join("KNNNNvK.rtbw").display());
        return;
    }
    let dirs = format!("{}{PATH_SEPARATOR}{}", six.display(), manifest_path("../shared/syzygy").display());
    let (tables, problems) = Tablebases::open(&dirs);
    assert!(problems.is_empty(), "{problems:?}");
    let tables = tables.expect("tables");
    assert_eq!(tables.max_pieces(), 6);
    assert!(tables.summary().ends_with("up to 6 pieces"), "{}", tables.summary());

    let mut checked = 0;
    for line in SIX_PIECE_FIXTURES.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = fields[..6].join(" ");
        let (wdl, dtz): (i32, i32) = (fields[6].parse().unwrap(), fields[7].parse().unwrap());
        let pos = Position::from_fen(&fen).unwrap();
        let got = (tables.probe_wdl(&pos).map(Wdl::to_i32), tables.probe_dtz(&pos));
        assert_eq!(got, (Some(wdl), Some(dtz)), "{fen}");
        checked += 1;
    }
    assert_eq!(checked, 2_000);
    assert!(tables.take_warnings().is_empty());

    // The header's grouping gives KNNNNvK's index range: the king pairs times C(62, 4) knights.
    let pos = Position::from_fen("k7/8/8/8/8/8/8/KNNNN3 w - - 0 1").unwrap();
    let entry = tables.entry(&pos).expect("KNNNNvK");
    for kind in [Kind::Wdl, Kind::Dtz] {
        let file = tables.file(entry, kind).expect("a parsed file");
        for sub in file.subs.iter().flatten() {
            assert_eq!(sub.groups.table_size(), 462 * 557_845, "{kind:?}");
        }
    }
}

#[test]
fn names_parse_and_bad_names_do_not() {
    assert_eq!(parse_name("KRBvKR").map(|c| (c[0][3], c[0][2], c[1][3])), Some((1, 1, 1)));
    for bad in ["KRvK.", "KRK", "RvKK", "KRvKRRRRRR", "KxvK", "krvk", "KKvK", "KvK"] {
        assert_eq!(parse_name(bad), None, "{bad}");
    }
}

#[test]
fn missing_and_empty_directories_are_reported() {
    let (tables, problems) = Tablebases::open("/nonexistent/syzygy");
    assert!(tables.is_none());
    assert!(problems[0].contains("cannot read Syzygy directory /nonexistent/syzygy"), "{problems:?}");

    let empty = std::env::temp_dir().join(format!("springer-tb-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let (tables, problems) = Tablebases::open(empty.to_str().unwrap());
    assert!(tables.is_none());
    assert!(problems[0].starts_with("no Syzygy tables in"), "{problems:?}");
    std::fs::remove_dir_all(&empty).unwrap();
}

/// A table with its files' bytes truncated or flipped: every probe must either work or report the
/// table unusable, never crash; run over many corruptions of two real tables (60 rounds, or
/// `SPRINGER_TB_FUZZ_ROUNDS`).
#[test]
fn corrupt_tables_never_crash() {
    let source = manifest_path("tests/fixtures/syzygy");
    let dir = std::env::temp_dir().join(format!("springer-tb-fuzz-{}", std::process::id()));
    let positions: Vec<Position> = FIXTURES
        .lines()
        .filter(|l| l.contains(" w ") || l.contains(" b "))
        .filter_map(|l| Position::from_fen(&l.split_whitespace().take(6).collect::<Vec<_>>().join(" ")).ok())
        .filter(|p| {
            let one_each = |piece| Color::ALL.iter().all(|&c| p.pieces(c, piece).count() == 1);
            p.occupied().count() == 4 && (one_each(Piece::Rook) || one_each(Piece::Pawn))
        })
        .collect();
    assert!(positions.len() >= 1000);
    let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
    let mut unusable = 0;
    let rounds = std::env::var("SPRINGER_TB_FUZZ_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(60);
    for round in 0..rounds {
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["KRvKR", "KPvKP"] {
            for ext in ["rtbw", "rtbz"] {
                let mut bytes = std::fs::read(source.join(format!("{name}.{ext}"))).unwrap();
                if round % 3 == 0 {
                    // Truncated to a length that still passes the size check.
                    let len = (next() as usize % bytes.len()) / 64 * 64 + 16;
                    bytes.truncate(len.min(bytes.len()));
                } else {
                    for _ in 0..1 + round % 20 {
                        let at = 5 + next() as usize % (bytes.len() - 5);
                        bytes[at] ^= 1 << (next() % 8);
                    }
                }
                std::fs::write(dir.join(format!("{name}.{ext}")), bytes).unwrap();
            }
        }
        let (tables, _) = Tablebases::open(dir.to_str().unwrap());
        if let Some(tables) = tables {
            for pos in &positions {
                let _ = tables.probe_wdl(pos);
                let _ = tables.probe_dtz(pos);
            }
            unusable += tables.take_warnings().len();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert!(unusable > 0, "no corruption was ever detected");
}
