//! Topolo drawn by GamesmanUni's image AutoGUI, with images GamesmanUni
//! already bundles (a backend can name no others): its red and black
//! pieces, in three sizes, for the pieces on the board, and for the move
//! buttons an image that has the `MoveButtonSVG` element GamesmanUni draws
//! a button from (its pieces have none, and a button drawn from one is
//! 0×0). An empty cell is `-`, which GamesmanUni draws as nothing.
//!
//! The centres are the board's cells first (cell `b` is centre `b`), then
//! three buttons a cell, small, mid and large left to right across the
//! cell's middle (centre `N + 3b + k`). Row 1, Red's side, is at the
//! bottom, as [`Presentation::show`](topitop_game_api::Presentation::show) draws it.

use serde_json::json;
use topitop_game_api::BoardArt;

use crate::piece::{Color, Size};
use crate::position::Position;
use crate::rules::{Move, Topolo};

/// The entity character of a cell: `-` empty (no image), `S`, `M`, `L`
/// for Red's pieces, `s`, `m`, `l` for Black's.
fn entity(cell: Option<(Color, Size)>) -> char {
    match cell {
        None => '-',
        Some((Color::Red, z)) => z.letter(),
        Some((Color::Black, z)) => z.letter().to_ascii_lowercase(),
    }
}

/// The button's character: `a`, `b`, `c` for Red's small, mid and large,
/// `x`, `y`, `z` for Black's (GamesmanUni draws them alike, by size; the
/// browser page draws each as its piece).
fn button(color: Color, size: Size) -> char {
    let k = size_rank(size);
    match color {
        Color::Red => ['a', 'b', 'c'][k],
        Color::Black => ['x', 'y', 'z'][k],
    }
}

/// The image of every move button: a ring with a plus, all drawn in the
/// move's value colour, from GamesmanUni's Chung Toi placements. No image
/// GamesmanUni bundles with `MoveButtonSVG` is a red or a black disc, so
/// the button shows where and what size, and the header whose turn.
const BUTTON_IMAGE: &str = "chungtoi/p.svg";

/// 0, 1, 2 for small, mid, large.
fn size_rank(size: Size) -> usize {
    size.height() as usize - 1
}

impl Topolo {
    /// The entity string of `pos`: a character a cell, in cell order.
    pub fn autogui_entities(&self, pos: &Position) -> String {
        (0..u32::from(self.shape().cells()))
            .map(|b| entity(pos.at(b)))
            .collect()
    }

    /// The button of `mv` played by the player to move in `pos`:
    /// `A_<image>_<centre>_p` (`p` plays the placing sound).
    pub fn autogui_button(&self, pos: &Position, mv: Move) -> String {
        let centre = usize::from(self.shape().cells()) + 3 * mv.bit as usize + size_rank(mv.size);
        format!("A_{}_{centre}_p", button(self.to_move(pos), mv.size))
    }

    /// GamesmanUni's `imageAutoGUIData` for this board, as JSON.
    pub fn autogui_theme(&self) -> serde_json::Value {
        let s = self.shape();
        let (rows, cols) = (u32::from(s.rows()), u32::from(s.cols()));
        let cell = |b: u32| {
            let (r, c) = (b / cols, b % cols);
            (f64::from(c) + 0.5, f64::from(rows - 1 - r) + 0.5)
        };
        let mut centers: Vec<[f64; 2]> = (0..u32::from(s.cells())).map(|b| cell(b).into()).collect();
        // An empty cell draws nothing, so its buttons can use its middle;
        // 0.3 apart, the largest (0.3 wide) stays clear of its neighbour.
        for b in 0..u32::from(s.cells()) {
            let (x, y) = cell(b);
            for dx in [-0.3, 0.0, 0.3] {
                centers.push([x + dx, y]);
            }
        }
        let image = |path: String, scale: f64| json!({ "image": path, "scale": scale });
        let mut images = serde_json::Map::new();
        for (color, file) in [(Color::Red, "redpiece"), (Color::Black, "blackpiece")] {
            for (k, &size) in Size::ALL.iter().enumerate() {
                let grown = [0.5, 0.7, 0.9][k];
                images.insert(
                    entity(Some((color, size))).to_string(),
                    image(format!("general/{file}.svg"), grown),
                );
                images.insert(
                    button(color, size).to_string(),
                    image(BUTTON_IMAGE.into(), [0.18, 0.24, 0.3][k]),
                );
            }
        }
        let mut theme = json!({
            "space": [cols, rows],
            "centers": centers,
            "charImages": images,
            "sounds": { "p": "general/place.mp3" },
            "animationType": "entityFade",
        });
        // The board's lines, where GamesmanUni bundles a grid of its size.
        if let Some(grid) = topitop_game_api::bundled_grid(cols, rows) {
            theme["background"] = grid.into();
        }
        json!({ "defaultTheme": "pieces", "themes": { "pieces": theme } })
    }
}

/// A piece of `fill` and height `h` (1 to 3), as seen from above: a disc
/// with a ring for each level above the first, and the height written on
/// it, so that sizes read at a glance and without colour.
fn piece_art(fill: &str, ink: &str, h: u32) -> String {
    let mut s = format!(r##"<circle r="0.48" fill="{fill}" stroke="#1d232b" stroke-width="0.04"/>"##);
    for k in 1..h {
        let r = 0.48 - 0.13 * f64::from(k);
        s.push_str(&format!(
            r##"<circle r="{r:.2}" fill="none" stroke="{ink}" stroke-opacity="0.55" stroke-width="0.035"/>"##
        ));
    }
    s.push_str(&format!(
        r##"<text y="0.11" text-anchor="middle" font-size="0.32" font-weight="700" font-family="sans-serif" fill="{ink}">{h}</text>"##
    ));
    s
}

impl Topolo {
    /// The drawings of the browser page: the board with its two classes of
    /// rows shaded apart (one class fills before the other), and each
    /// piece and placement button.
    pub fn board_art(&self) -> BoardArt {
        let s = self.shape();
        let (rows, cols) = (u32::from(s.rows()), u32::from(s.cols()));
        let mut back = format!(r##"<rect width="{cols}" height="{rows}" fill="#efe6d2"/>"##);
        for r in 0..rows {
            // Row 1 (odd) is drawn at the bottom, nearest Red.
            let y = rows - 1 - r;
            let fill = if r % 2 == 0 { "#f7f0e1" } else { "#e6dac0" };
            back.push_str(&format!(
                r##"<rect x="0" y="{y}" width="{cols}" height="1" fill="{fill}"/><text x="0.04" y="{}" font-size="0.14" fill="#8d7a55" font-family="sans-serif">row {}</text>"##,
                f64::from(y) + 0.16,
                r + 1
            ));
        }
        // Each cell's number, as moves name it (S4: a small piece on 4).
        for b in 0..rows * cols {
            let (r, c) = (b / cols, b % cols);
            back.push_str(&format!(
                r##"<text x="{}" y="{}" text-anchor="end" font-size="0.14" fill="#8d7a55" font-family="sans-serif">{}</text>"##,
                f64::from(c) + 0.96,
                f64::from(rows - 1 - r) + 0.16,
                b + 1
            ));
        }
        for c in 1..cols {
            back.push_str(&format!(
                r##"<line x1="{c}" y1="0" x2="{c}" y2="{rows}" stroke="#b8a47c" stroke-width="0.02"/>"##
            ));
        }
        for r in 1..rows {
            back.push_str(&format!(
                r##"<line x1="0" y1="{r}" x2="{cols}" y2="{r}" stroke="#b8a47c" stroke-width="0.02"/>"##
            ));
        }
        let mut pieces = Vec::new();
        for (color, fill, ink) in [
            (Color::Red, "#d63a3a", "#ffffff"),
            (Color::Black, "#2b2b2b", "#ffffff"),
        ] {
            for size in Size::ALL {
                let art = piece_art(fill, ink, size.height());
                pieces.push((entity(Some((color, size))), art.clone()));
                pieces.push((button(color, size), art));
            }
        }
        BoardArt {
            background: Some(back),
            pieces,
            centers: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    // Its pieces (`general/redpiece.svg`, ...) are none of these.
    use topitop_game_api::MOVE_BUTTON_IMAGES;

    #[test]
    fn a_square_board_has_gamesmanuni_s_grid_of_its_size_and_an_oblong_none() {
        use crate::{Shape, Variant};
        for (r, c, grid) in [
            (3, 3, Some("ttt/3x3grid.svg")),
            (8, 8, Some("nqueens/grid8.svg")),
            (3, 4, None),
            (2, 2, None),
        ] {
            let theme = Topolo::new(Shape::new(r, c).unwrap(), Variant::Full).autogui_theme();
            let background = theme["themes"]["pieces"]
                .get("background")
                .and_then(|b| b.as_str());
            assert_eq!(background, grid, "{r}x{c}");
        }
    }

    #[test]
    fn every_button_is_a_centre_with_an_image_and_unique() {
        let game = Topolo::from_options(Some("3x4"), None).unwrap();
        let theme = game.autogui_theme();
        let t = &theme["themes"]["pieces"];
        let centres = t["centers"].as_array().unwrap().len();
        assert_eq!(centres, 4 * 12);
        let mut pos = Position::EMPTY;
        assert_eq!(game.autogui_entities(&pos), "-".repeat(12), "nothing drawn");
        while !game.is_over(&pos) {
            let moves = game.moves(&pos);
            let buttons: Vec<String> = moves.iter().map(|&m| game.autogui_button(&pos, m)).collect();
            let mut unique = buttons.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), buttons.len(), "keys of GamesmanUni's move map");
            for b in &buttons {
                let parts: Vec<&str> = b.split('_').collect();
                assert_eq!(parts[0], "A");
                let image = t["charImages"][parts[1]]["image"].as_str().unwrap();
                assert!(MOVE_BUTTON_IMAGES.contains(&image), "{b}: {image}");
                assert!(parts[2].parse::<usize>().unwrap() < centres, "{b}");
                assert!(t["sounds"].get(parts[3]).is_some(), "{b}");
            }
            let entities = game.autogui_entities(&pos);
            assert_eq!(entities.len(), 12);
            for c in entities.chars().filter(|&c| c != '-') {
                let image = t["charImages"][c.to_string()]["image"].as_str().unwrap();
                assert!(!MOVE_BUTTON_IMAGES.contains(&image), "{c}: a piece, not a button");
            }
            pos = game.play(&pos, moves[moves.len() / 2]);
        }
        assert!(!game.autogui_entities(&pos).contains('-'), "a full board");
        let only = Topolo::new(game.shape(), Variant::SizeOnly);
        assert_eq!(only.autogui_theme(), theme, "the same board either way");
    }

    #[test]
    fn a_cells_buttons_grow_with_size_and_never_overlap() {
        let game = Topolo::from_options(Some("3x3"), None).unwrap();
        let theme = game.autogui_theme();
        let t = &theme["themes"]["pieces"];
        let at = |k: usize| {
            let c = &t["centers"][k];
            (c[0].as_f64().unwrap(), c[1].as_f64().unwrap())
        };
        for color in [Color::Red, Color::Black] {
            let scale = |size: Size| {
                t["charImages"][button(color, size).to_string()]["scale"]
                    .as_f64()
                    .unwrap()
            };
            for b in 0..9 {
                let (cx, cy) = at(b);
                let mut right = cx - 0.5;
                for (k, &size) in Size::ALL.iter().enumerate() {
                    let (x, y) = at(9 + 3 * b + k);
                    let half = scale(size) / 2.0;
                    assert!(x - half >= right - 1e-9, "cell {b}: button {k} overlaps");
                    assert!((y - cy).abs() + half <= 0.5, "cell {b}: out of its cell");
                    right = x + half;
                }
                assert!(right <= cx + 0.5, "cell {b}: out of its cell");
                assert!(scale(Size::ALL[0]) < scale(Size::ALL[2]));
            }
        }
    }
}
