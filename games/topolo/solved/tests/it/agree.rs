//! Topolo's own solver against the framework's generic loop-free solver,
//! index by index, and its counts against the index and the reference
//! counts of positions.

use games_topolo::layout::Layout;
use games_topolo::{Shape, Topolo, Variant};
use games_topolo_solved::plan::{KeepNothing, Plan};
use games_topolo_solved::solve::{solve, trit_value};
use topitop_db::packed::{digit, PER_BYTE};
use topitop_game_api::{Game, Record, Tiered};
use topitop_solver::loop_free::solve_loop_free;

fn check(r: u8, c: u8, variant: Variant) -> u64 {
    let g = Topolo::new(Shape::new(r, c).unwrap(), variant);
    let plan = Plan::new(Layout::of(g).unwrap());
    let solved = solve(&plan, &mut KeepNothing, &|_, _| {}).unwrap();
    let generic = solve_loop_free(&g, true, |_, _| {}).unwrap();
    let mut at = 0usize;
    let mut positions = 0;
    for (k, &t) in plan.tiers().iter().enumerate() {
        let stored = &solved.header.tiers[k];
        assert_eq!(stored.name, g.tier_name(t));
        assert_eq!(stored.size, g.tier_size(t));
        let records = generic.tier(t).unwrap().unwrap();
        let mut counts = [0u64; 3];
        let mut images = 0u64;
        for (i, rec) in records.iter().enumerate() {
            let byte = solved.data[at + i / PER_BYTE as usize];
            let v = trit_value(digit(byte, i as u64 % PER_BYTE).unwrap());
            match g.position(t, i as u64) {
                Some(p) => {
                    let want = Record::new(v, g.fixed_remoteness(t).unwrap());
                    assert_eq!(*rec, want, "{r}x{c} {variant:?} {}", g.format_position(&p));
                    counts[v.index()] += 1;
                    images += Game::images(&g, &p).len() as u64;
                }
                None => assert_eq!(*rec, Record::UNSOLVED),
            }
        }
        assert_eq!(stored.counts, counts, "{r}x{c} {variant:?} tier {}", stored.name);
        assert_eq!(
            stored.positions, images,
            "{r}x{c} {variant:?} tier {}",
            stored.name
        );
        positions += images;
        at += stored.bytes() as usize;
    }
    assert_eq!(at, solved.data.len());
    let start = generic.get(&g, &g.start());
    assert_eq!(Some(solved.start), start.value());
    positions
}

#[test]
fn the_fast_solve_agrees_with_the_generic_one_everywhere() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        for variant in [Variant::Full, Variant::SizeOnly] {
            let n = check(r, c, variant);
            if (r, c, variant) == (3, 3, Variant::Full) {
                assert_eq!(n, 217_417);
            }
        }
    }
}

#[test]
fn the_check_finds_a_wrong_value_and_a_wrong_count() {
    let g = Topolo::new(Shape::new(3, 3).unwrap(), Variant::Full);
    let plan = Plan::new(Layout::of(g).unwrap());
    let solved = solve(&plan, &mut KeepNothing, &|_, _| {}).unwrap();
    let dir = std::env::temp_dir().join(format!("topolo-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.db");
    let write = |data: &[u8], header: &topitop_db::packed::PackedHeader| {
        let mut h = header.clone();
        h.game = "topolo".into();
        h.variant = "3x3".into();
        topitop_db::packed::write_packed(&path, h, data).unwrap();
        topitop_db::packed::PackedDb::open(&path).unwrap()
    };
    let db = write(&solved.data, &solved.header);
    let found = games_topolo_solved::verify::verify(&plan, &db, 5, &|_, _| {}).unwrap();
    assert_eq!((found.violations, found.count_errors.len()), (0, 0), "{found:?}");
    assert_eq!(found.positions, 54_510);
    // One value changed (checksums made anew, so only the check can tell).
    let mut data = solved.data.clone();
    let at = data.len() / 2;
    data[at] = if data[at].is_multiple_of(3) {
        data[at] + 1
    } else {
        data[at] - 1
    };
    let db = write(&data, &solved.header);
    let found = games_topolo_solved::verify::verify(&plan, &db, 5, &|_, _| {}).unwrap();
    assert!(found.violations > 0, "{found:?}");
    assert!(!found.examples.is_empty());
    // A count changed in the header.
    let mut header = solved.header.clone();
    header.tiers[10].counts[0] += 1;
    let db = write(&solved.data, &header);
    let found = games_topolo_solved::verify::verify(&plan, &db, 5, &|_, _| {}).unwrap();
    assert_eq!(found.count_errors.len(), 1, "{found:?}");
    std::fs::remove_dir_all(&dir).ok();
}
