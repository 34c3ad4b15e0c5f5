//! Exporting to GamesmanClassic's tier files: golden bytes from a real
//! GamesmanClassic solve, and round trips through the tier-file reader.
//!
//! `data/gamesman_classic/mtopitop_<option>_tierdb/` holds tier files (and
//! their `.idx`) that GamesmanClassic's own tier solver wrote (its C module,
//! commit b9dd2320, built with `./configure --disable-graphics`; `mtopitop
//! --solve` and `mtopitop --option 7 --solve`, stopped after their first
//! tiers). Option 0: the tiers of four castles (1.6 KB), of three castles
//! and a blue tower, and of two castles and two blue towers (terminal: all
//! primitive). Option 7 (no move loses, tying rule, misère): four castles,
//! and two blue towers, a red tower, a castle and a red bucket, where the
//! tying rule decides; that file spans two gzip members.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use games_topitop_rules::{gchash, Budget, Position, Rules, Ruleset, Slide, Tier, Variant};
use games_topitop_solved::store::gamesman_classic::{
    encode_tier, export, find_tier_files, read_tier_file, slot_record, solved_tiers, tier_stream,
    ExportError, ExportOptions, GcRecord, GZIP_LEVEL, MEMBER_BYTES,
};
use games_topitop_solved::{solve, SolveOptions};
use games_topitop_table::Solution;
use rayon::prelude::*;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gamesman_classic")
}

/// The golden files of `option`: (tier, file bytes, idx text).
fn golden(option: u64) -> Vec<(u64, Vec<u8>, String)> {
    let files: Vec<_> = find_tier_files(&golden_dir())
        .unwrap()
        .into_iter()
        .filter(|f| f.option == option)
        .collect();
    assert!(!files.is_empty(), "no golden files for option {option}");
    files
        .into_iter()
        .map(|f| {
            let name = f.path.file_name().unwrap().to_string_lossy().into_owned();
            let idx = f
                .path
                .parent()
                .unwrap()
                .join("lookup")
                .join(format!("{name}.idx"));
            (
                f.tier,
                std::fs::read(&f.path).unwrap(),
                std::fs::read_to_string(idx).unwrap(),
            )
        })
        .collect()
}

/// The uncompressed stream of a tier file (all its gzip members).
fn decompress(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// Asserts equal bytes, reporting the first difference instead of both
/// buffers.
fn assert_same_bytes(got: &[u8], want: &[u8], what: &str) {
    if let Some(i) = got.iter().zip(want).position(|(a, b)| a != b) {
        panic!(
            "{what}: first difference at byte {i}: {:#04x} instead of {:#04x}",
            got[i], want[i]
        );
    }
    assert_eq!(got.len(), want.len(), "{what}: length");
}

#[test]
fn compression_reproduces_gamesman_classics_files() {
    for option in [0, 7] {
        for (tier, bytes, idx) in golden(option) {
            let stream = decompress(&bytes);
            let encoded = encode_tier(&stream, GZIP_LEVEL);
            assert_same_bytes(&encoded.bytes, &bytes, &format!("option {option} tier {tier}"));
            assert_eq!(encoded.idx(), idx, "option {option} tier {tier}");
        }
    }
    // The option 7 file spans two members; the first holds 2^20 bytes.
    let (_, bytes, idx) = golden(7).into_iter().find(|g| g.0 == 4_296_146_960).unwrap();
    assert_eq!(idx.lines().count(), 2);
    assert!(decompress(&bytes).len() > MEMBER_BYTES);
}

/// The standard game solved with option `option` (once per test binary).
fn standard(option: u8) -> &'static Solution {
    static SOLVED: [OnceLock<Solution>; 8] = [const { OnceLock::new() }; 8];
    SOLVED[option as usize].get_or_init(|| {
        let rules = Rules::new(Ruleset::V1(Variant::new(i64::from(option)).unwrap()));
        solve(rules, SolveOptions::default(), |_| {})
    })
}

#[test]
fn golden_tiers_are_exported_byte_for_byte() {
    for option in [0, 7] {
        let solution = standard(option);
        for (tier, bytes, idx) in golden(u64::from(option)) {
            let tier = Tier::from_number(tier, Budget::STANDARD).unwrap();
            let stream = tier_stream(solution, tier).unwrap();
            let what = format!("option {option} tier {}", tier.number());
            assert_same_bytes(
                &stream.bytes,
                &decompress(&bytes),
                &format!("{what}, uncompressed"),
            );
            let encoded = encode_tier(&stream.bytes, GZIP_LEVEL);
            assert_same_bytes(&encoded.bytes, &bytes, &what);
            assert_eq!(encoded.idx(), idx, "{what}");
            // The one-ply oracle of the round-trip tests agrees with
            // GamesmanClassic on every slot, those outside our index too.
            for (tp, bits) in stream.bytes[10..].chunks(2).enumerate() {
                let pos = gchash::unhash(tier.number(), tp as u64, Budget::STANDARD).unwrap();
                let gc = GcRecord::from_bits(u16::from_be_bytes([bits[0], bits[1]]));
                let rules = solution.rules();
                assert_eq!(
                    slot_record(rules, pos, |p| solution.get(p)).unwrap(),
                    gc,
                    "{what}: {pos}"
                );
            }
        }
    }
}

/// Checks every slot of every tier file that `export` wrote in `dir` for
/// `solution` against [`slot_record`]: undecided where `isLegal` rejects
/// the slot, the stored record of an indexed position, and a one-ply
/// evaluation from the stored children for the slots outside our index.
/// Returns (slots compared, slots holding a value).
fn check_export(dir: &Path, solution: &Solution) -> (u64, u64) {
    let rules = solution.rules();
    let budget = rules.budget();
    let option = u64::from(rules.ruleset().variant().number());
    let files = find_tier_files(dir).unwrap();
    let tiers: Vec<u64> = files.iter().map(|f| f.tier).collect();
    let want: Vec<u64> = solved_tiers(budget).iter().map(|t| t.number()).collect();
    assert_eq!(tiers, want, "tier files");
    files
        .par_iter()
        .map(|f| {
            assert_eq!(f.option, option);
            let tier = Tier::from_number(f.tier, budget).unwrap();
            let records = read_tier_file(&f.path, tier.size()).unwrap();
            let mut solved = 0;
            let mut board = Position::START;
            for (tp, &bits) in records.iter().enumerate() {
                // Unhash once per board: its 41 slots differ only in d.
                let d = (tp % 41) as u8;
                if d == 0 {
                    board = gchash::unhash(f.tier, tp as u64, budget).unwrap();
                }
                let pos = board.with_forbidden(Slide::from_id(d));
                let expected = slot_record(rules, pos, |p| solution.get(p)).unwrap();
                assert_eq!(
                    GcRecord::from_bits(bits),
                    expected,
                    "option {option}, tier {}, slot {tp} ({pos})",
                    f.tier
                );
                assert_eq!(bits, expected.bits(), "{pos}: only value and remoteness bits");
                solved += u64::from(bits != 0);
            }
            // The lookup file lists every member but the closing empty one.
            let name = f.path.file_name().unwrap().to_string_lossy().into_owned();
            let idx = f.path.parent().unwrap().join("lookup").join(name + ".idx");
            let idx = std::fs::read_to_string(idx).unwrap();
            let members: u64 = idx.lines().map(|l| l.parse::<u64>().unwrap()).sum();
            let len = std::fs::metadata(&f.path).unwrap().len();
            assert_eq!(members + 20, len, "{}", f.path.display());
            let stream_len = 10 + 2 * tier.size() as usize;
            assert_eq!(idx.lines().count(), stream_len.div_ceil(MEMBER_BYTES));
            (records.len() as u64, solved)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

#[test]
fn every_slot_of_every_option_reads_back_as_gamesman_classic_solves_it() {
    for option in 0..8 {
        let solution = common::solved(option, "1/1/2/2", true);
        let dir = tempfile::tempdir().unwrap();
        let summary = export(solution, dir.path(), ExportOptions::FAST, |_, _| {}).unwrap();
        let (compared, solved) = check_export(dir.path(), solution);
        assert_eq!(compared, summary.slots);
        assert_eq!(solved, summary.solved);
        assert!(solved > 0 && solved < compared);
        assert_eq!(summary.tiers, solved_tiers(solution.rules().budget()).len());
        // Only the folder is left, no temporary one.
        let entries: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(entries, [format!("mtopitop_{option}_tierdb")]);
    }
}

#[test]
fn a_solve_without_symmetry_exports_the_same_files() {
    let budget = "2/1/2/2";
    let sym = common::solved(2, budget, true);
    let full = common::solved(2, budget, false);
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    export(sym, a.path(), ExportOptions::EXACT, |_, _| {}).unwrap();
    export(full, b.path(), ExportOptions::EXACT, |_, _| {}).unwrap();
    let (fa, fb) = (
        find_tier_files(a.path()).unwrap(),
        find_tier_files(b.path()).unwrap(),
    );
    assert_eq!(fa.len(), fb.len());
    for (x, y) in fa.iter().zip(&fb) {
        assert_eq!(
            std::fs::read(&x.path).unwrap(),
            std::fs::read(&y.path).unwrap(),
            "tier {}",
            x.tier
        );
    }
}

#[test]
fn the_exact_and_fast_levels_differ_only_in_compression() {
    let solution = common::solved(0, "2/1/2/2", true);
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    export(solution, a.path(), ExportOptions::EXACT, |_, _| {}).unwrap();
    export(solution, b.path(), ExportOptions::FAST, |_, _| {}).unwrap();
    let (fa, fb) = (
        find_tier_files(a.path()).unwrap(),
        find_tier_files(b.path()).unwrap(),
    );
    let mut differ = 0;
    for (x, y) in fa.iter().zip(&fb) {
        let (bx, by) = (std::fs::read(&x.path).unwrap(), std::fs::read(&y.path).unwrap());
        differ += usize::from(bx != by);
        assert_eq!(decompress(&bx), decompress(&by), "tier {}", x.tier);
    }
    assert!(differ > 0, "the levels should compress differently");
}

#[test]
fn a_second_export_replaces_the_folder() {
    let solution = common::solved(5, "1/1/2/2", true);
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("mtopitop_5_tierdb");
    std::fs::create_dir_all(folder.join("lookup")).unwrap();
    std::fs::write(folder.join("stale.dat.gz"), b"old").unwrap();
    let progress = std::sync::Mutex::new(Vec::new());
    let summary = export(solution, dir.path(), ExportOptions::FAST, |done, total| {
        progress.lock().unwrap().push((done, total))
    })
    .unwrap();
    assert_eq!(summary.folder, folder);
    assert!(!folder.join("stale.dat.gz").exists());
    let progress = progress.into_inner().unwrap();
    assert_eq!(progress.len(), summary.tiers);
    assert!(progress.iter().any(|&(d, t)| d == t && t == summary.slots));
    check_export(dir.path(), solution);
}

#[test]
fn v0_has_no_gamesman_classic_layout() {
    let budget: Budget = "2/1/2/2".parse().unwrap();
    let solution = solve(
        Rules::with_budget(Ruleset::V0, budget),
        SolveOptions::default(),
        |_| {},
    );
    let dir = tempfile::tempdir().unwrap();
    let err = export(&solution, dir.path(), ExportOptions::FAST, |_, _| {}).unwrap_err();
    assert!(matches!(err, ExportError::NoLayout), "{err}");
    assert!(err.to_string().contains("v0"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let tier = solved_tiers(budget)[1];
    assert!(matches!(tier_stream(&solution, tier), Err(ExportError::NoLayout)));
}

#[test]
fn a_failed_export_leaves_nothing_behind() {
    let solution = common::solved(0, "2/1/2/2", true);
    let dir = tempfile::tempdir().unwrap();
    // The data directory is a file: nothing can be created in it.
    let blocked = dir.path().join("data");
    std::fs::write(&blocked, b"not a directory").unwrap();
    let err = export(solution, &blocked, ExportOptions::FAST, |_, _| {}).unwrap_err();
    assert!(matches!(err, ExportError::Io { .. }), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}
