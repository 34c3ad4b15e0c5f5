//! A Topolo database answers only for the board its tiers are, and only
//! from the bytes its checksums vouch for: a header relabelled under
//! recomputed checksums is refused when the game is known, and a file
//! overwritten in place under an open reader gives the answers it gave
//! before or an error naming it.

use std::path::Path;

use games_topolo::layout::Layout;
use games_topolo::{Shape, Topolo, Variant};
use games_topolo_solved::plan::{KeepNothing, Plan};
use games_topolo_solved::solve::{solve, Solved};
use topitop_db::packed::{digit, pack, write_packed, PackedHeader, PER_BYTE};
use topitop_db::SolvedDb;
use topitop_game_api::{Game, Record};

fn topolo(r: u8, c: u8, variant: Variant) -> Topolo {
    Topolo::new(Shape::new(r, c).unwrap(), variant)
}

fn solved(game: Topolo) -> Solved {
    let plan = Plan::new(Layout::of(game).unwrap());
    solve(&plan, &mut KeepNothing, &|_, _| {}).unwrap()
}

/// Writes `solved` to `path` as `game`'s database, after `edit` (whose
/// checksums the writer computes anew).
fn write(path: &Path, game: &Topolo, solved: &Solved, edit: impl FnOnce(&mut PackedHeader)) {
    write_data(path, game, solved, &solved.data, edit);
}

/// [`write`] with `data` in place of the solve's values.
fn write_data(
    path: &Path,
    game: &Topolo,
    solved: &Solved,
    data: &[u8],
    edit: impl FnOnce(&mut PackedHeader),
) {
    let mut h = solved.header.clone();
    h.game = "topolo".into();
    h.variant = Game::variant(game);
    edit(&mut h);
    write_packed(path, h, data).unwrap();
}

/// Every value of `data` another: win for lose, lose for tie, tie for win.
fn rotated(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    pack(
        data.iter()
            .flat_map(|&b| (0..PER_BYTE).map(move |k| (digit(b, k).unwrap() + 1) % 3)),
        &mut out,
    );
    out
}

fn refused(path: &Path, game: &Topolo) -> String {
    let e = SolvedDb::open(path)
        .unwrap()
        .holds(game)
        .expect_err("a forged header is refused")
        .to_string();
    assert!(e.contains(&path.display().to_string()), "{e}");
    e
}

#[test]
fn a_relabelled_header_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("topolo.db");
    let (g33, g34) = (topolo(3, 3, Variant::Full), topolo(3, 4, Variant::Full));
    let s = solved(g33);
    write(&path, &g33, &s, |_| {});
    SolvedDb::open(&path).unwrap().holds(&g33).unwrap();
    // 3x3's values under 3x4's name: 3x4's start would be answered from
    // whatever 3x3 tier shares its name.
    write(&path, &g34, &s, |_| {});
    let e = refused(&path, &g34);
    assert!(e.contains("it lists") && e.contains("topolo 3x4 has"), "{e}");
    // Two tiers of one size, their names swapped.
    let (a, b) = (0..s.header.tiers.len())
        .flat_map(|a| (a + 1..s.header.tiers.len()).map(move |b| (a, b)))
        .find(|&(a, b)| s.header.tiers[a].size == s.header.tiers[b].size)
        .expect("two tiers of one size");
    write(&path, &g33, &s, |h| {
        let name = h.tiers[a].name.clone();
        h.tiers[a].name = std::mem::replace(&mut h.tiers[b].name, name);
    });
    let e = refused(&path, &g33);
    assert!(
        e.contains(&format!("its tier {a} is {}", s.header.tiers[b].name)),
        "{e}"
    );
    // A largest remoteness the board cannot have.
    write(&path, &g33, &s, |h| h.max_remoteness -= 1);
    let e = refused(&path, &g33);
    assert!(e.contains("largest remoteness is 8"), "{e}");
}

#[test]
fn a_database_overwritten_in_place_never_changes_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    let (served, other) = (dir.path().join("served.db"), dir.path().join("other.db"));
    let g = topolo(3, 3, Variant::Full);
    let s = solved(g);
    write(&served, &g, &s, |_| {});
    // The same board with every value another: a file of the same length
    // whose every block differs.
    write_data(&other, &g, &s, &rotated(&s.data), |_| {});
    let db = SolvedDb::open(&served).unwrap();
    db.holds(&g).unwrap();
    // Positions of play at every depth: the start, then a few hundred
    // children of the layer before, down to full boards.
    let mut positions = vec![g.start()];
    let mut layer = vec![g.start()];
    while !layer.is_empty() {
        let next: Vec<_> = layer
            .iter()
            .flat_map(|p| g.moves(p).into_iter().map(|m| g.play(p, m)))
            .collect();
        layer = next.iter().step_by(next.len() / 300 + 1).copied().collect();
        positions.extend(&layer);
    }
    // A separate reader gives the truth for every position.
    let truth: Vec<Record> = {
        let fresh = SolvedDb::open(&served).unwrap();
        positions.iter().map(|p| fresh.lookup(&g, p).unwrap()).collect()
    };
    // The served reader has answered for the start (its block is held)
    // and nothing else before the copy.
    assert_eq!(db.lookup(&g, &positions[0]).unwrap(), truth[0]);
    // `cp other.db served.db`: the same inode, other bytes.
    std::fs::write(&served, std::fs::read(&other).unwrap()).unwrap();
    let mut errors = 0;
    for (p, want) in positions.iter().zip(&truth) {
        match db.lookup(&g, p) {
            Ok(r) => assert_eq!(r, *want, "{} changed silently", g.format_position(p)),
            Err(e) => {
                assert!(e.to_string().contains(&served.display().to_string()), "{e}");
                errors += 1;
            }
        }
    }
    assert!(errors > 0, "the new bytes were never read");
}
