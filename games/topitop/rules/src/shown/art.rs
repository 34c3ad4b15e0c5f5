//! Topitop's drawings for the browser page of `topitop serve`: the beach
//! board and its pieces, for the characters of the AutoGUI theme in
//! [`super::theme`] (GamesmanUni draws its own bundled images for
//! them instead). Each piece is drawn in a unit box around the origin,
//! the size of a cell.

use topitop_game_api::BoardArt;

/// A bucket of `fill`, its base at y = 0.2.
fn bucket(fill: &str) -> String {
    format!(
        r##"<path d="M-0.2,-0.16 L0.2,-0.16 L0.15,0.2 L-0.15,0.2 Z" fill="{fill}" stroke="#1d232b" stroke-width="0.025"/><path d="M-0.19,-0.15 Q0,-0.42 0.19,-0.15" fill="none" stroke="#1d232b" stroke-width="0.025"/><ellipse cx="0" cy="-0.16" rx="0.2" ry="0.04" fill="#ffffff" fill-opacity="0.35"/>"##
    )
}

const SMALL: &str = r##"<path d="M-0.3,0.2 C-0.18,-0.02 -0.08,-0.12 0,-0.12 C0.08,-0.12 0.18,-0.02 0.3,0.2 Z" fill="#e9c46a" stroke="#9c7a2c" stroke-width="0.025"/><path d="M-0.12,0.02 Q0,-0.05 0.1,0.03" fill="none" stroke="#c9a24a" stroke-width="0.02"/>"##;

const LARGE: &str = r##"<path d="M-0.46,0.42 C-0.3,0.05 -0.16,-0.16 0,-0.16 C0.16,-0.16 0.3,0.05 0.46,0.42 Z" fill="#d9ae52" stroke="#8a6420" stroke-width="0.025"/><path d="M-0.25,0.22 Q0,0.1 0.22,0.24" fill="none" stroke="#b88c35" stroke-width="0.02"/>"##;

/// A placement button: the piece inside a white disc.
fn button(inner: &str, scale: f64, dy: f64) -> String {
    format!(
        r##"<circle r="0.5" fill="#ffffff" stroke="#1d232b" stroke-width="0.05"/><g transform="scale({scale}) translate(0 {dy})">{inner}</g>"##
    )
}

/// The board: nine sand cells and, below them, the pass button's row.
fn background() -> String {
    let mut s = String::from(
        r##"<rect x="0" y="0" width="3" height="4" fill="#cfe8f3"/><rect x="0" y="0" width="3" height="3" fill="#f6e7c1"/>"##,
    );
    for i in 1..3 {
        s.push_str(&format!(
            r##"<line x1="{i}" y1="0" x2="{i}" y2="3" stroke="#c7a867" stroke-width="0.02"/><line x1="0" y1="{i}" x2="3" y2="{i}" stroke="#c7a867" stroke-width="0.02"/>"##
        ));
    }
    s.push_str(r##"<rect x="0.01" y="0.01" width="2.98" height="2.98" fill="none" stroke="#a8894a" stroke-width="0.03"/>"##);
    for c in 0..9 {
        let (x, y) = ((c % 3) as f64 + 0.07, (c / 3) as f64 + 0.17);
        s.push_str(&format!(
            r##"<text x="{x}" y="{y}" font-size="0.13" fill="#a8894a" font-family="sans-serif">{}</text>"##,
            c + 1
        ));
    }
    s
}

/// How much smaller than a cell the pieces are drawn, so that a crowned
/// castle (large, small and bucket) stands inside its cell.
const PIECE_SCALE: f64 = 0.65;

/// A piece's drawing at [`PIECE_SCALE`].
fn scaled(inner: &str) -> String {
    format!(r#"<g transform="scale({PIECE_SCALE})">{inner}</g>"#)
}

/// Where the page draws each of a cell's six entity slots, below its
/// centre: bucket on a castle, bucket on a small, bucket on the ground,
/// small on a large, small on the ground, large. Each piece stands on the
/// one under it (the theme's offsets suit GamesmanUni's images, whose
/// bucket on a castle reaches into the cell above).
const SLOT_DY: [f64; 6] = [-0.22, 0.13, 0.32, -0.03, 0.32, 0.18];

/// The theme's centres with the entity slots moved to [`SLOT_DY`].
fn page_centers() -> Vec<[f64; 2]> {
    let mut centers = super::theme::centers();
    for (slot, c) in centers.iter_mut().take(6 * 9).enumerate() {
        let cell = slot / 6;
        let (x, y) = ((cell % 3) as f64 + 0.5, (cell / 3) as f64 + 0.5);
        *c = [x, y + SLOT_DY[slot % 6]];
    }
    centers
}

/// The drawings of every character of the theme.
pub fn board_art() -> BoardArt {
    let blue = "#2f6fd6";
    let red = "#d8432f";
    let pass = r##"<circle r="0.45" fill="#ffffff" stroke="#1d232b" stroke-width="0.04"/><text y="0.12" text-anchor="middle" font-size="0.32" font-family="sans-serif" fill="#1d232b">pass</text>"##;
    BoardArt {
        background: Some(background()),
        pieces: vec![
            ('B', scaled(&bucket(blue))),
            ('R', scaled(&bucket(red))),
            ('S', scaled(SMALL)),
            ('L', scaled(LARGE)),
            ('t', button(&bucket(blue), 1.8, 0.0)),
            ('u', button(&bucket(red), 1.8, 0.0)),
            ('v', button(SMALL, 1.3, -0.04)),
            ('w', button(LARGE, 0.95, -0.12)),
            ('P', pass.into()),
        ],
        centers: Some(page_centers()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vertical extent of a piece drawn at slot `dy` below its cell's
    /// centre: its drawing's extent, scaled.
    fn extent(top: f64, bottom: f64, dy: f64) -> (f64, f64) {
        (dy + top * PIECE_SCALE, dy + bottom * PIECE_SCALE)
    }

    #[test]
    fn every_piece_stands_inside_its_cell_on_the_one_below() {
        // The drawings' extents: a bucket's handle peaks near -0.29, its
        // base at 0.2; a small from -0.12 to 0.2; a large from -0.16 to 0.42.
        let bucket = |dy| extent(-0.29, 0.2, dy);
        let small = |dy| extent(-0.12, 0.2, dy);
        let large = |dy| extent(-0.16, 0.42, dy);
        let [on_castle, on_small, on_ground, small_on_large, small_alone, large_alone] = SLOT_DY;
        let all = [
            bucket(on_castle),
            bucket(on_small),
            bucket(on_ground),
            small(small_on_large),
            small(small_alone),
            large(large_alone),
        ];
        for (top, bottom) in all {
            assert!(top > -0.5 && bottom < 0.5, "{top}..{bottom} leaves the cell");
        }
        // Each stacked piece's base is within a little of the top of the
        // one it stands on: not floating, not sunk into it.
        let rests = |upper: (f64, f64), lower: (f64, f64)| (upper.1 - lower.0).abs() < 0.05;
        assert!(rests(small(small_on_large), large(large_alone)));
        assert!(rests(bucket(on_castle), small(small_on_large)));
        assert!(rests(bucket(on_small), small(small_alone)));
        assert_eq!(page_centers().len(), super::super::theme::CENTERS);
    }
}
