//! The board's symmetries against the rules: along random games on square
//! and oblong boards, every image of a position has the images of its
//! moves, plays them to the images of its children and ends alike; and
//! the canonical position is one image per class, of least index.

use crate::support;

use games_topple::{Position, Shape, Topple};
use support::Rng;
use topitop_game_api::{Game, Tiered};

fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    v.sort();
    v
}

fn check_position(g: &Topple, p: &Position) {
    let text = g.format_position(p);
    let moves = Game::moves(g, p);
    let canonical = Game::canonical(g, p);
    let images = Game::images(g, p);
    assert!(images.contains(p) && images.contains(&canonical), "{text}");
    for s in g.symmetries() {
        let sp = s.position(p);
        let at = || format!("{text} under {s:?}");
        assert_eq!(g.check(&sp), Ok(()), "{}", at());
        assert_eq!(Game::primitive(g, &sp), Game::primitive(g, p), "{}", at());
        let mapped = sorted(moves.iter().map(|&m| s.play(m)).collect());
        assert_eq!(sorted(Game::moves(g, &sp)), mapped, "{}", at());
        for &m in &moves {
            assert_eq!(
                Game::play(g, &sp, s.play(m)),
                s.position(&Game::play(g, p, m)),
                "{}",
                at()
            );
        }
        assert_eq!(Game::canonical(g, &sp), canonical, "{}", at());
        assert!(images.contains(&sp), "{}", at());
    }
    for img in &images {
        assert_eq!(Game::canonical(g, img), canonical, "{text}");
    }
    if g.indexable() {
        let folded = g.fold_reserves(p);
        assert_eq!(g.tier_of(&canonical), g.tier_of(&folded), "{text}");
        assert!(g.index(&canonical) <= g.index(&folded), "{text}");
        assert_eq!(
            g.position(g.tier_of(&canonical), g.index(&canonical)),
            Some(canonical)
        );
    }
}

#[test]
fn images_play_alike_on_squares_and_oblongs() {
    let mut rng = Rng::new(37);
    let mut checked = 0;
    for (r, c, count) in [
        (2, 2, 8),
        (2, 3, 4),
        (3, 3, 8),
        (3, 4, 4),
        (4, 4, 8),
        (5, 5, 8),
        (4, 7, 4),
    ] {
        let shape = Shape::new(r, c).unwrap();
        let g = Topple::new(shape, 2 * shape.cells()).unwrap();
        assert_eq!(g.symmetries().len(), count, "{r}x{c}");
        for _ in 0..30 {
            let mut p = Game::start(&g);
            for _ in 0..200 {
                check_position(&g, &p);
                checked += 1;
                let moves = Game::moves(&g, &p);
                if moves.is_empty() {
                    break;
                }
                p = Game::play(&g, &p, moves[rng.below(moves.len() as u64) as usize]);
            }
        }
    }
    assert!(checked > 5_000, "{checked}");
}

#[test]
fn one_index_of_each_class_is_canonical() {
    // On 3x3 with 4 pieces every class of play is counted once among the
    // canonical indices, and the images of all of them are every position
    // of play.
    let g = Topple::from_options(Some("3x3"), Some("s4")).unwrap();
    let (mut canonical, mut all) = (0usize, std::collections::HashSet::new());
    for t in g.tiers() {
        for i in 0..g.tier_size(t) {
            let Some(p) = g.position(t, i) else { continue };
            all.insert(p);
            if Game::canonical(&g, &p) == p {
                canonical += 1;
            }
        }
    }
    let mut classes = std::collections::HashSet::new();
    for p in &all {
        classes.insert(Game::canonical(&g, p));
    }
    assert_eq!(classes.len(), canonical);
    assert!(canonical * 4 < all.len(), "{canonical} of {}", all.len());
}
