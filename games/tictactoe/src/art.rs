//! The board drawn: for GamesmanUni with images it bundles (its
//! tic-tac-toe grid, X and O; a move button needs an image holding a
//! `MoveButtonSVG` element, which `general/basichitbox.svg` does), and
//! for the browser page of `topitop serve` with drawings of its own.
//!
//! Centre `k` is cell `k` (0 top left to 8 bottom right), each cell a unit
//! square of a 3×3 space; the buttons sit on the cells they fill.

use topitop_game_api::BoardArt;

/// GamesmanUni's `imageAutoGUIData`: the grid, the marks at full cell
/// size, a button per empty cell (`a` X's move, `b` O's) and the placing
/// sound.
pub const AUTOGUI: &str = r#"{"defaultTheme":"regular","themes":{"regular":{"space":[3,3],"centers":[[0.5,0.5],[1.5,0.5],[2.5,0.5],[0.5,1.5],[1.5,1.5],[2.5,1.5],[0.5,2.5],[1.5,2.5],[2.5,2.5]],"background":"ttt/3x3grid.svg","charImages":{"x":{"image":"ttt/x.svg","scale":1},"o":{"image":"ttt/o.svg","scale":1},"a":{"image":"general/basichitbox.svg","scale":1},"b":{"image":"general/basichitbox.svg","scale":1}},"sounds":{"x":"general/place.mp3"},"animationType":"entityFade"}}}"#;

/// An X in a unit box centred on the origin.
const X: &str = r##"<path d="M-0.3,-0.3L0.3,0.3M0.3,-0.3L-0.3,0.3" stroke="#c0392b" stroke-width="0.1" stroke-linecap="round"/>"##;

/// An O in a unit box centred on the origin.
const O: &str = r##"<circle r="0.3" fill="none" stroke="#2457a6" stroke-width="0.1"/>"##;

/// The page's drawings: the grid with each cell's number in its corner
/// (the move that fills it), the marks, and each player's move button as
/// a faint mark of theirs.
pub fn board_art() -> BoardArt {
    let mut back = String::from(r##"<rect width="3" height="3" fill="#f6f1e4"/>"##);
    for k in 1..3 {
        back.push_str(&format!(
            r##"<line x1="{k}" y1="0.08" x2="{k}" y2="2.92" stroke="#3b3b3b" stroke-width="0.05" stroke-linecap="round"/><line x1="0.08" y1="{k}" x2="2.92" y2="{k}" stroke="#3b3b3b" stroke-width="0.05" stroke-linecap="round"/>"##
        ));
    }
    for cell in 0..9 {
        back.push_str(&format!(
            r##"<text x="{}" y="{}" font-size="0.16" fill="#8d7a55" font-family="sans-serif">{}</text>"##,
            f64::from(cell % 3) + 0.08,
            f64::from(cell / 3) + 0.2,
            cell + 1
        ));
    }
    let faint = |art: &str| format!(r#"<g opacity="0.35">{art}</g>"#);
    BoardArt {
        background: Some(back),
        pieces: vec![('x', X.into()), ('o', O.into()), ('a', faint(X)), ('b', faint(O))],
        centers: None,
    }
}
