//! The shared board geometry.

use topitop_game_api::board::{BadSize, Shape};

#[test]
fn neighbours_stay_on_the_board_and_mirrors_undo_themselves() {
    for r in 2..=8 {
        for c in 2..=8 {
            let s = Shape::new(r, c).unwrap();
            assert_eq!((0..r).fold(0, |m, k| m | s.row(k)), s.all());
            for b in 0..s.cells() {
                let (row, col) = s.coords(b);
                assert_eq!(s.cell_at(row, col), Some(b));
                let inside = |&(dr, dc): &(i32, i32)| s.cell_at(row + dr, col + dc).is_some();
                let orthogonal = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                    .iter()
                    .filter(|d| inside(d))
                    .count();
                assert_eq!(
                    s.orthogonal_neighbours(1 << b).count_ones() as usize,
                    orthogonal,
                    "{s} {b}"
                );
                let king = (-1..=1)
                    .flat_map(|dr| (-1..=1).map(move |dc| (dr, dc)))
                    .filter(|&d| d != (0, 0) && inside(&d))
                    .count();
                assert_eq!(s.king_neighbours(b).count_ones() as usize, king, "{s} {b}");
                assert_eq!(s.mirror_cols(s.mirror_cols(1 << b)), 1 << b);
                assert_eq!(s.mirror_rows(s.mirror_rows(1 << b)), 1 << b);
                assert_eq!(
                    s.mirror_cols(1 << b),
                    1 << s.cell_at(row, i32::from(c) - 1 - col).unwrap()
                );
            }
        }
    }
}

#[test]
fn sizes_parse_and_refuse() {
    assert_eq!("3x4".parse::<Shape>(), Shape::new(3, 4));
    assert_eq!("8x8".parse::<Shape>(), Ok(Shape::STANDARD));
    for bad in ["1x4", "9x2", "3", "axb", "3x4x5", "8×8", "3X4", "03x4"] {
        assert_eq!(bad.parse::<Shape>(), Err(BadSize(bad.into())), "{bad}");
    }
    let s = Shape::STANDARD;
    assert_eq!(s.distance(0, 63), 7);
    assert_eq!(s.within(s.cell_at(3, 3).unwrap(), 2).count_ones(), 25);
    assert_eq!(s.step(0, (1, 1), 2), s.cell_at(2, 2));
    assert_eq!(s.step(0, (-1, 0), 1), None);
}
