//! Topple drawn by GamesmanUni's image AutoGUI, with images GamesmanUni
//! already bundles (a backend can name no others): its white, red and blue
//! pieces for stacks, its digits for heights, and for placements its hitbox
//! (a dot), which holds the `MoveButtonSVG` element GamesmanUni draws a
//! button from.
//!
//! The centres are the board's cells first (centre `b` is cell `b`, row 1
//! at the bottom), then each cell's height label at its lower right
//! (centre `N + b`), then each cell's eight topple arrow heads (centre
//! `2N + 8b + d`, `d` a [`Direction`] clockwise from north).
//!
//! The entity string is `2N` characters: each cell's stack (`-` empty, `g`
//! a stack without a pawn, `r`/`b` a stack under a Red/Blue pawn), then
//! each cell's height (`-` for none, a digit, `9` for 9 or more). `-` has
//! no image: GamesmanUni draws nothing there.

use serde_json::json;
use topitop_game_api::BoardArt;

use crate::board::{CellNames, Direction};
use crate::position::{Color, Position};
use crate::rules::{Move, Topple};

/// The stack character of `cell`.
fn stack_char(pos: &Position, cell: u8) -> char {
    match (pos.height(cell), pos.pawn(cell)) {
        (0, _) => '-',
        (_, None) => 'g',
        (_, Some(c)) => c.letter(),
    }
}

/// The height character of `cell`.
fn height_char(pos: &Position, cell: u8) -> char {
    match pos.height(cell) {
        0 => '-',
        h => char::from(b'0' + h.min(9)),
    }
}

impl Topple {
    /// The entity string of `pos`.
    pub fn autogui_entities(&self, pos: &Position) -> String {
        let n = self.shape().cells();
        let stacks = (0..n).map(|b| stack_char(pos, b));
        stacks.chain((0..n).map(|b| height_char(pos, b))).collect()
    }

    /// The button of `mv`: `A_t_<cell>_x` a placement (a hitbox on the
    /// cell), `M_<from>_<to>_y` a step (an arrow), `M_<cell>_<head>_z` a
    /// topple (a short arrow towards its direction).
    pub fn autogui_button(&self, mv: Move) -> String {
        let n = usize::from(self.shape().cells());
        match mv {
            Move::Place { cell } => format!("A_t_{cell}_x"),
            Move::Step { from, to } => format!("M_{from}_{to}_y"),
            Move::Topple { cell, dir } => {
                format!("M_{cell}_{}_z", 2 * n + 8 * usize::from(cell) + dir as usize)
            }
        }
    }

    /// GamesmanUni's `imageAutoGUIData` for this board, as JSON.
    pub fn autogui_theme(&self) -> serde_json::Value {
        let s = self.shape();
        let (rows, cols) = (s.rows(), s.cols());
        let centre = |b: u8| {
            let (r, c) = s.coords(b);
            (f64::from(c) + 0.5, f64::from(i32::from(rows) - 1 - r) + 0.5)
        };
        let mut centers: Vec<[f64; 2]> = (0..s.cells()).map(|b| centre(b).into()).collect();
        centers.extend((0..s.cells()).map(|b| {
            let (x, y) = centre(b);
            [x + 0.3, y + 0.3]
        }));
        for b in 0..s.cells() {
            let (x, y) = centre(b);
            for d in Direction::ALL {
                let (dr, dc) = d.delta();
                // Screen y grows downwards, rows upwards.
                centers.push([x + 0.42 * f64::from(dc), y - 0.42 * f64::from(dr)]);
            }
        }
        let image =
            |file: &str, scale: f64| json!({ "image": format!("general/{file}.svg"), "scale": scale });
        let mut images = serde_json::Map::new();
        images.insert("t".into(), image("basichitbox", 0.9));
        images.insert("g".into(), image("whitepiece", 0.7));
        images.insert("r".into(), image("redpiece", 0.7));
        images.insert("b".into(), image("bluepiece", 0.7));
        for d in 0..=9 {
            images.insert(d.to_string(), image(&d.to_string(), 0.3));
        }
        let mut theme = json!({
            "space": [cols, rows],
            "centers": centers,
            "charImages": images,
            "arrowWidth": 0.06,
            "entitiesOverArrows": false,
            "sounds": {
                "x": "general/place.mp3",
                "y": "general/slide.mp3",
                "z": "general/remove.mp3",
            },
            "animationType": "entityFade",
        });
        // The board's lines, where GamesmanUni bundles a grid of its size.
        if let Some(grid) = topitop_game_api::bundled_grid(u32::from(cols), u32::from(rows)) {
            theme["background"] = grid.into();
        }
        json!({ "defaultTheme": "stacks", "themes": { "stacks": theme } })
    }

    /// The drawings of the browser page: a chequered board, the stacks as
    /// discs (a pawn's disc carries its player's initial, readable without
    /// colour) and the heights as numbers.
    pub fn board_art(&self) -> BoardArt {
        let s = self.shape();
        let (rows, cols) = (s.rows(), s.cols());
        let mut back = format!(r##"<rect width="{cols}" height="{rows}" fill="#efe6d2"/>"##);
        for r in 0..rows {
            for c in 0..cols {
                if (r + c) % 2 == 1 {
                    back.push_str(&format!(
                        r##"<rect x="{c}" y="{r}" width="1" height="1" fill="#e2d4b4"/>"##
                    ));
                }
            }
        }
        // Each cell's name (a1 at the bottom left), as moves are written.
        for b in 0..s.cells() {
            let (r, c) = s.coords(b);
            back.push_str(&format!(
                r##"<text x="{}" y="{}" font-size="0.13" fill="#8d7a55" font-family="sans-serif">{}</text>"##,
                f64::from(c) + 0.04,
                f64::from(i32::from(rows) - 1 - r) + 0.14,
                s.name(b)
            ));
        }
        let blank = r##"<rect x="-0.5" y="-0.5" width="1" height="1" fill="none"/>"##.to_string();
        let disc = |fill: &str, mark: &str| {
            format!(
                r##"<circle r="0.48" fill="{fill}" stroke="#1d232b" stroke-width="0.04"/><text y="0.14" text-anchor="middle" font-size="0.4" font-weight="700" font-family="sans-serif" fill="#ffffff">{mark}</text>"##
            )
        };
        let mut pieces = vec![
            ('t', blank),
            ('g', disc("#9a9184", "")),
            (Color::Red.letter(), disc("#d63a3a", "R")),
            (Color::Blue.letter(), disc("#2f6fd6", "B")),
        ];
        for d in 0..=9u8 {
            let label = if d == 9 { "9+".to_string() } else { d.to_string() };
            pieces.push((
                char::from(b'0' + d),
                format!(
                    r##"<circle r="0.5" fill="#fffdf6" stroke="#1d232b" stroke-width="0.06"/><text y="0.3" text-anchor="middle" font-size="0.8" font-weight="700" font-family="sans-serif" fill="#1d232b">{label}</text>"##
                ),
            ));
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

    use topitop_game_api::MOVE_BUTTON_IMAGES;

    #[test]
    fn every_button_and_entity_has_an_image_and_buttons_are_unique() {
        let game = Topple::from_options(Some("3x4"), Some("s12")).unwrap();
        let theme = game.autogui_theme();
        let t = &theme["themes"]["stacks"];
        let centres = t["centers"].as_array().unwrap().len();
        assert_eq!(centres, 10 * 12);
        let mut pos = game.start();
        let mut rng = topitop_game_api::rng::Rng::new(7);
        for _ in 0..60 {
            let moves = game.moves(&pos);
            if moves.is_empty() {
                break;
            }
            let mut buttons: Vec<String> = moves.iter().map(|&m| game.autogui_button(m)).collect();
            for b in &buttons {
                let parts: Vec<&str> = b.split('_').collect();
                assert_eq!(parts.len(), 4, "{b}");
                for centre in &parts[1..3] {
                    if let Ok(k) = centre.parse::<usize>() {
                        assert!(k < centres, "{b}");
                    } else {
                        let image = t["charImages"][*centre]["image"].as_str().unwrap();
                        assert!(MOVE_BUTTON_IMAGES.contains(&image), "{b}: {image}");
                    }
                }
                assert!(t["sounds"].get(parts[3]).is_some(), "{b}");
            }
            buttons.sort();
            buttons.dedup();
            assert_eq!(buttons.len(), moves.len(), "keys of GamesmanUni's move map");
            let entities = game.autogui_entities(&pos);
            assert_eq!(entities.chars().count(), 24);
            for c in entities.chars().filter(|&c| c != '-') {
                let image = t["charImages"][c.to_string()]["image"].as_str().unwrap();
                assert!(!MOVE_BUTTON_IMAGES.contains(&image), "{c}: a stray dot");
            }
            let empty = (0..12).filter(|&b| pos.height(b) == 0).count();
            assert_eq!(entities.matches('-').count(), 2 * empty, "{entities}");
            pos = game.play(&pos, moves[rng.index(moves.len())]);
        }
        let art = game.board_art();
        for c in t["charImages"].as_object().unwrap().keys() {
            assert!(art.pieces.iter().any(|(ch, _)| ch.to_string() == *c), "{c}");
        }
    }
}
