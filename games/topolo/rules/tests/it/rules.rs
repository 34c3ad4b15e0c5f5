//! Topolo's rules checked from outside: the positions play reaches (counted
//! against the reference figures), the reachability test that position
//! strings go through, notation, symmetry and the end of the game.

use std::collections::HashSet;

use games_topolo::{Color, Move, Outcome, Position, Shape, Size, Topolo, Variant};

fn game(rows: u8, cols: u8) -> Topolo {
    Topolo::new(Shape::new(rows, cols).unwrap(), Variant::Full)
}

/// Every position play reaches from the empty board (the start included).
fn reachable(g: &Topolo) -> HashSet<Position> {
    let mut seen = HashSet::new();
    let mut frontier = vec![Position::EMPTY];
    seen.insert(Position::EMPTY);
    while let Some(p) = frontier.pop() {
        for m in g.moves(&p) {
            let c = g.play(&p, m);
            if seen.insert(c) {
                frontier.push(c);
            }
        }
    }
    seen
}

#[test]
fn three_by_three_reaches_the_reference_count_of_positions() {
    // other-games.md: 217,417 positions reachable on 3×3, no symmetry.
    assert_eq!(reachable(&game(3, 3)).len(), 217_417);
}

/// Every arrangement of the seven cell states on `g`'s board.
fn every_board(g: &Topolo, mut visit: impl FnMut(Position)) {
    let n = u32::from(g.shape().cells());
    let mut digits = vec![0u8; n as usize];
    loop {
        let mut p = Position::EMPTY;
        for (bit, &d) in digits.iter().enumerate() {
            if d > 0 {
                let color = if d <= 3 { Color::Red } else { Color::Black };
                let size = Size::ALL[usize::from((d - 1) % 3)];
                p = p.with(bit as u32, color, size);
            }
        }
        visit(p);
        let mut k = 0;
        loop {
            if k == digits.len() {
                return;
            }
            digits[k] += 1;
            if digits[k] < 7 {
                break;
            }
            digits[k] = 0;
            k += 1;
        }
    }
}

#[test]
fn the_reachability_test_accepts_exactly_what_play_reaches() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let g = game(r, c);
        let reached = reachable(&g);
        let mut accepted = 0usize;
        every_board(&g, |p| {
            let ok = g.check(&p).is_ok();
            assert_eq!(
                ok,
                reached.contains(&p),
                "{r}x{c} {}: {:?}",
                g.format(&p),
                g.check(&p)
            );
            accepted += usize::from(ok);
        });
        assert_eq!(accepted, reached.len(), "{r}x{c}");
    }
}

#[test]
fn every_reachable_position_round_trips_through_its_string() {
    let g = game(3, 3);
    for p in reachable(&g) {
        let text = g.format(&p);
        assert_eq!(g.parse(&text).unwrap(), p, "{text}");
    }
    assert_eq!(g.format(&Position::EMPTY), ".../.../...");
}

#[test]
fn bad_strings_say_what_is_wrong() {
    let g = game(3, 3);
    for (text, says) in [
        ("..../.../...", "row 1 has 4 cells"),
        ("../...", "2 rows"),
        (".../.x./...", "'x' in row 2"),
        ("s../.../...", "Red has 0 pieces and Black 1"),
        ("S../S../s..", "both row classes"),
        ("MM./ss./...", "Red has 2 M pieces"),
        // A whole board of another shape: the option that reads it.
        (
            "../..",
            "2 rows of 2 cells, where a 3x3 board has 3 of 3 (for a 2x2 board: --board 2x2)",
        ),
    ] {
        let e = g.parse(text).unwrap_err().to_string();
        assert!(e.contains(says), "{text}: {e}");
    }
    // The default board given a 3x3 position (`--board` forgotten).
    let e = game(8, 8).parse(".../.../...").unwrap_err().to_string();
    assert!(e.contains("(for a 3x3 board: --board 3x3)"), "{e}");
    for (text, says) in [
        ("X3", "size letter"),
        ("S0", "cells 1 to 9"),
        ("S10", "cells 1 to 9"),
        ("S", "size letter"),
    ] {
        let e = g.parse_move(text).unwrap_err().to_string();
        assert!(e.contains(says), "{text}: {e}");
    }
    // Legal strings, illegal moves.
    let p = g.parse("S../.../...").unwrap();
    let e = g
        .play_checked(&p, g.parse_move("s4").unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("odd rows are filled first"), "{e}");
    let e = g
        .play_checked(&p, g.parse_move("S1").unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("taken"), "{e}");
}

#[test]
fn pieces_follow_the_board_size() {
    let g = Topolo::new(Shape::STANDARD, Variant::Full);
    for color in [Color::Red, Color::Black] {
        assert_eq!(g.pieces(color), 32);
        assert_eq!(g.inventory(color, Size::Small), 16);
        assert_eq!(g.inventory(color, Size::Mid), 8);
        assert_eq!(g.inventory(color, Size::Large), 8);
    }
    let g = game(3, 3);
    assert_eq!((g.pieces(Color::Red), g.pieces(Color::Black)), (5, 4));
    assert_eq!(g.inventory(Color::Red, Size::Small), 3);
    assert_eq!(g.inventory(Color::Black, Size::Small), 2);
    let g = Topolo::new(Shape::new(3, 3).unwrap(), Variant::SizeOnly);
    assert_eq!(g.inventory(Color::Red, Size::Mid), 0);
    assert_eq!(g.moves(&Position::EMPTY).len(), 9);
}

#[test]
fn the_first_row_class_is_filled_before_the_other() {
    let g = game(4, 3);
    let mut p = Position::EMPTY;
    // Red's first piece in row 2: rows 2 and 4 are filled first.
    p = g
        .play_checked(
            &p,
            Move {
                size: Size::Small,
                bit: 4,
            },
        )
        .unwrap();
    for _ in 0..5 {
        let allowed = g.allowed(&p);
        assert_eq!(allowed & g.shape().row(0), 0);
        assert_eq!(allowed & g.shape().row(2), 0);
        p = g.play(&p, g.moves(&p)[0]);
    }
    assert_eq!(g.allowed(&p), g.shape().row(0) | g.shape().row(2));
}

#[test]
fn the_end_compares_group_lists_and_both_variants_agree_on_sizes() {
    let g = game(2, 4);
    // Row 1 filled first (Red two of its four), then row 2. Red: S S M on
    // cells 1, 2, 5 (size 3, height 4) and L on 7; Black: s s l on 3, 4, 8
    // (size 3, height 5) and m on 6. Equal sizes, Black higher: Red, to
    // move with eight pieces placed, loses.
    let p = g.parse("SSss/MmLl").unwrap();
    assert_eq!(g.to_move(&p), Color::Red);
    assert_eq!(g.outcome(&p), Some(Outcome::Lose));
    // Compared on the largest group's size alone, it is a tie.
    let size_only = Topolo::new(g.shape(), Variant::SizeOnly);
    assert_eq!(size_only.outcome(&p), Some(Outcome::Tie));
    // Mirror images in colour: a tie.
    let p = g.parse("SsSs/LmMl").unwrap();
    assert_eq!(g.outcome(&p), Some(Outcome::Tie));
    // A larger group wins whatever the heights: Red's S L M S on cells 1,
    // 4, 5, 8 (size 4) against Black's m l (size 2).
    let g = game(3, 3);
    let p = g.parse("SsS/LMm/sSl").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.to_move(&p), Color::Black);
    assert_eq!(g.outcome(&p), Some(Outcome::Lose));
    assert_eq!(g.outcome(&Position::EMPTY), None);
}

#[test]
fn reflections_map_play_to_play() {
    let g = game(3, 4);
    let h = game(4, 3);
    for g in [g, h] {
        let mut p = Position::EMPTY;
        let mut rng = topitop_game_api::rng::Rng::new(7);
        while !g.is_over(&p) {
            for image in g.images(&p) {
                assert!(g.check(&image).is_ok(), "{}", g.format(&image));
                assert_eq!(g.moves(&image).len(), g.moves(&p).len());
                assert_eq!(g.outcome(&image), g.outcome(&p));
            }
            // The canonical form is one of the images, and the same for all.
            let c = g.canonical(&p);
            assert!(g.images(&p).contains(&c), "{}", g.format(&p));
            assert!(g.images(&p).iter().all(|i| g.canonical(i) == c));
            let moves = g.moves(&p);
            p = g.play(&p, moves[rng.index(moves.len())]);
        }
        for image in g.images(&p) {
            assert_eq!(g.outcome(&image), g.outcome(&p));
        }
    }
}

#[test]
fn every_board_keeps_the_game_interfaces_contract() {
    use topitop_game_api::conformance::{check_registered, Settings};
    for (rows, cols) in [(2, 2), (2, 3), (3, 3), (3, 4), (8, 8)] {
        for variant in [Variant::Full, Variant::SizeOnly] {
            let g = Topolo::new(Shape::new(rows, cols).unwrap(), variant);
            let settings = Settings {
                games: 30,
                samples_per_tier: 8,
                ..Settings::default()
            };
            let report = check_registered(&g, settings);
            assert!(report.passed(), "{rows}x{cols} {variant:?}:\n{report}");
            // 8x8 cannot be indexed: its tiers are not checked.
            assert_eq!(report.checks.contains_key("rank"), rows < 8, "{report}");
        }
    }
}
