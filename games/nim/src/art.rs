//! The heaps drawn: a row a heap, a slot a stone (heap 1 on top), for
//! GamesmanUni with images it bundles (`general/brownpiece.svg` a stone,
//! `general/basichitbox.svg` a button) and for the browser page of
//! `topitop serve` with drawings of its own.
//!
//! Slot `k` numbers heap 1's three slots first, then heap 2's four, then
//! heap 3's five; each slot is a unit square of a 5×3 space.

use topitop_game_api::BoardArt;

use crate::HEAPS;

/// The slot of stone `j` (0 first) of heap `h`.
pub fn slot(h: usize, j: u8) -> usize {
    HEAPS[..h].iter().map(|&n| usize::from(n)).sum::<usize>() + usize::from(j)
}

fn centers() -> String {
    let mut c = Vec::new();
    for (h, &n) in HEAPS.iter().enumerate() {
        for j in 0..n {
            c.push(format!("[{}.5,{}.5]", j, h));
        }
    }
    c.join(",")
}

/// GamesmanUni's `imageAutoGUIData`: stones, and a button a move on the
/// lowest stone it takes.
pub fn autogui() -> String {
    format!(
        r#"{{"defaultTheme":"regular","themes":{{"regular":{{"space":[5,3],"centers":[{}],"charImages":{{"s":{{"image":"general/brownpiece.svg","scale":0.8}},"a":{{"image":"general/basichitbox.svg","scale":1}}}},"sounds":{{"x":"general/place.mp3"}},"animationType":"entityFade"}}}}}}"#,
        centers()
    )
}

/// A stone in a unit box centred on the origin.
const STONE: &str = r##"<circle r="0.35" fill="#8d6e4c" stroke="#5a4330" stroke-width="0.05"/>"##;

/// The page's drawings: a tray a heap, its number on the left, the stones,
/// and the move button as a faint ring.
pub fn board_art() -> BoardArt {
    let mut back = String::from(r##"<rect width="5" height="3" fill="#f6f1e4"/>"##);
    for (h, &n) in HEAPS.iter().enumerate() {
        back.push_str(&format!(
            r##"<rect x="0.05" y="{}.08" width="{}" height="0.84" rx="0.4" fill="none" stroke="#c8b68e" stroke-width="0.03"/>"##,
            h,
            f64::from(n) - 0.1
        ));
    }
    BoardArt {
        background: Some(back),
        pieces: vec![
            ('s', STONE.into()),
            (
                'a',
                r##"<circle r="0.4" fill="none" stroke="#3b3b3b" stroke-width="0.06" opacity="0.5"/>"##
                    .into(),
            ),
        ],
        centers: None,
    }
}
