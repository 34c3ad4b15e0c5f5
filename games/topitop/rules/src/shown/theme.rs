//! GamesmanUni's `imageAutoGUIData` for Topitop: the "beach" theme that
//! Uni's bundled Topitop images are drawn for, with its 124 centres computed
//! from the board geometry.

use crate::geometry::{neighbour_pairs, CELLS};
use serde_json::{json, Value};

/// Number of centres: 54 entity slots, 2 forbidden-slide digits, 40 arrow
/// ends, 27 placement buttons and the pass button.
pub const CENTERS: usize = 124;

/// A point of the 3 × 4 board space.
type Point = [f64; 2];

/// Centre of cell `c` (0–8, row by row).
fn cell_centre(c: usize) -> Point {
    [(c % 3) as f64 + 0.5, (c / 3) as f64 + 0.5]
}

/// Rounds away the binary noise of sums like 0.5 − 0.57.
fn tidy([x, y]: Point) -> Point {
    let r = |v: f64| (v * 1e4).round() / 1e4;
    [r(x), r(y)]
}

/// The end of the slide arrow between cells `from` and `to` that sits in
/// `from`: pulled toward `to` by 0.27 along a row or column, by 0.3 on each
/// axis along a diagonal.
fn arrow_end(from: usize, to: usize) -> Point {
    let [fx, fy] = cell_centre(from);
    let [tx, ty] = cell_centre(to);
    let (dx, dy) = (tx - fx, ty - fy);
    let pull = if dx != 0.0 && dy != 0.0 { 0.3 } else { 0.27 };
    // Not f64::signum, which is 1 for 0.
    let sign = |d: f64| if d == 0.0 { 0.0 } else { d.signum() };
    [fx + pull * sign(dx), fy + pull * sign(dy)]
}

/// The 124 centres, indexed as the AutoGUI position and move strings use
/// them.
pub fn centers() -> Vec<Point> {
    let mut out = Vec::with_capacity(CENTERS);
    for c in 0..CELLS {
        let [x, y] = cell_centre(c);
        // Bucket on a castle, bucket on a small, bucket on the ground, small
        // on a large, small on the ground, large.
        for dy in [-0.57, -0.2, 0.0, -0.37, 0.0, 0.0] {
            out.push([x, y + dy]);
        }
    }
    // The forbidden-slide digits are off the board: hidden.
    out.extend([[-99.0, -99.0]; 2]);
    for (low, high) in neighbour_pairs() {
        out.push(arrow_end(low, high));
        out.push(arrow_end(high, low));
    }
    let buttons: [(f64, f64); 3] = [(0.0, -0.14), (-0.1559, 0.13), (0.1559, 0.13)];
    for (dx, dy) in buttons {
        for c in 0..CELLS {
            let [x, y] = cell_centre(c);
            out.push([x + dx, y + dy]);
        }
    }
    out.push([1.5, 3.3]);
    out.into_iter().map(tidy).collect()
}

/// The whole `imageAutoGUIData` object.
pub fn image_autogui_data() -> Value {
    let image = |path: String, scale: f64| json!({ "image": path, "scale": scale });
    let mut chars = serde_json::Map::new();
    for c in ["B", "R", "S", "L"] {
        chars.insert(c.into(), image(format!("topitop/{c}.svg"), 1.0));
    }
    // Placement buttons: blue bucket, red bucket, small, large.
    for c in ["t", "u", "v", "w"] {
        chars.insert(c.into(), image(format!("topitop/{c}.svg"), 0.3));
    }
    chars.insert("P".into(), image("othello/P.svg".into(), 0.5));
    json!({
        "defaultTheme": "beach",
        "themes": {
            "beach": {
                "space": [3, 4],
                "centers": centers(),
                "background": "topitop/grid.svg",
                "charImages": chars,
                "arrowWidth": 0.03,
                // Keyed by the last character of a move string: the pass,
                // the three placements (bucket y, small w, large x), slides.
                "sounds": {
                    "v": "general/remove.mp3",
                    "w": "general/place.mp3",
                    "x": "general/place.mp3",
                    "y": "general/place.mp3",
                    "z": "general/slide.mp3",
                },
                "animationType": "simpleSlides",
                "defaultAnimationWindow": [0, 54],
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centres_match_the_reference_layout() {
        let c = centers();
        assert_eq!(c.len(), CENTERS);
        // Cell 1 (index 0): bucket on castle, small on large, large.
        assert_eq!(c[0], [0.5, -0.07]);
        assert_eq!(c[3], [0.5, 0.13]);
        assert_eq!(c[5], [0.5, 0.5]);
        // Cell 9's bucket on a small.
        assert_eq!(c[6 * 8 + 1], [2.5, 2.3]);
        assert_eq!(c[54], [-99.0, -99.0]);
        assert_eq!(c[55], [-99.0, -99.0]);
        // Pair 1-2 (k = 0), orthogonal.
        assert_eq!(c[56], [0.77, 0.5]);
        assert_eq!(c[57], [1.23, 0.5]);
        // Pair 1-5 (k = 2), diagonal: 0.3 on each axis.
        assert_eq!(c[60], [0.8, 0.8]);
        assert_eq!(c[61], [1.2, 1.2]);
        // Pair 2-4 (k = 4), the anti-diagonal; 5-9 (k = 15); 8-9 (k = 19).
        assert_eq!(c[64], [1.2, 0.8]);
        assert_eq!(c[65], [0.8, 1.2]);
        assert_eq!(c[86], [1.8, 1.8]);
        assert_eq!(c[87], [2.2, 2.2]);
        assert_eq!(c[94], [1.77, 2.5]);
        assert_eq!(c[95], [2.23, 2.5]);
        // Buttons: bucket, small, large on cell 5; the pass.
        assert_eq!(c[100], [1.5, 1.36]);
        assert_eq!(c[109], [1.3441, 1.63]);
        assert_eq!(c[118], [1.6559, 1.63]);
        assert_eq!(c[123], [1.5, 3.3]);
    }

    #[test]
    fn every_autogui_string_points_at_a_centre_with_an_image_or_sound() {
        use crate::{autogui_move, autogui_position, parse_position, Budget, Rules};
        let data = image_autogui_data();
        let theme = &data["themes"][data["defaultTheme"].as_str().unwrap()];
        let images = theme["charImages"].as_object().unwrap();
        let sounds = theme["sounds"].as_object().unwrap();
        let pos = parse_position("1_LOBLRXLCS", Budget::STANDARD).unwrap();
        let autogui = autogui_position(pos);
        assert_eq!(autogui.len(), 2 + 56);
        for c in autogui[2..56].chars().filter(|&c| c != '-') {
            assert!(images.contains_key(&c.to_string()), "{c}");
        }
        let rules = Rules::new(crate::Ruleset::V1(crate::Variant::DEFAULT));
        for p in [
            rules.start(),
            pos,
            parse_position("1_LS-L-SLLS45", Budget::STANDARD).unwrap(),
        ] {
            for m in rules.gamesman_moves(p).iter() {
                let s = autogui_move(*m);
                let parts: Vec<&str> = s.split('_').collect();
                assert!(sounds.contains_key(parts[3]), "{s}");
                if parts[0] == "A" {
                    assert!(images.contains_key(parts[1]), "{s}");
                }
                let at: usize = parts[if parts[0] == "A" { 2 } else { 1 }].parse().unwrap();
                assert!((56..CENTERS).contains(&at), "{s}");
            }
        }
    }
}
