//! The analysis page under `/ui/`: an HTML page, its script and style
//! (embedded in the binary, so it works offline), and the two answers it
//! needs beyond GamesmanUni's routes: a variant's drawings and player
//! names (`/ui/board/<game>/<variant>`), and a position object with the
//! player to move (`/ui/position/<game>/<variant>?p=`).

use bytes::Bytes;
use serde_json::json;

use crate::variant::ServedVariant;

/// The first path segment of the page's routes; no game may take it as
/// its id.
pub const PREFIX: &str = "ui";

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/page.js");
const RULES: &str = include_str!("page/rules.js");
const STUDY: &str = include_str!("page/study.js");
const TREE: &str = include_str!("page/tree.js");
const STYLE: &str = include_str!("page/page.css");
const ICON: &str = include_str!("page/icon.svg");

/// A file of the page: `""` the page itself, its scripts `page.js`,
/// `rules.js` (the rules panel), `study.js` (the study tools) and `tree.js`
/// (the game as a tree of variations, the address, the record), `page.css`,
/// `icon.svg` (also the server's `/favicon.ico`, which browsers ask for
/// whatever the page says).
pub fn asset(name: &str) -> Option<(&'static str, Bytes)> {
    match name {
        "" => Some(("text/html; charset=utf-8", Bytes::from_static(INDEX.as_bytes()))),
        "page.js" => Some((
            "text/javascript; charset=utf-8",
            Bytes::from_static(SCRIPT.as_bytes()),
        )),
        "rules.js" => Some((
            "text/javascript; charset=utf-8",
            Bytes::from_static(RULES.as_bytes()),
        )),
        "study.js" => Some((
            "text/javascript; charset=utf-8",
            Bytes::from_static(STUDY.as_bytes()),
        )),
        "tree.js" => Some((
            "text/javascript; charset=utf-8",
            Bytes::from_static(TREE.as_bytes()),
        )),
        "page.css" => Some(("text/css; charset=utf-8", Bytes::from_static(STYLE.as_bytes()))),
        "icon.svg" => Some(("image/svg+xml", Bytes::from_static(ICON.as_bytes()))),
        _ => None,
    }
}

/// `/ui/board/...`: the variant's player names, its background and its
/// pieces as SVG (empty when the game draws none: the page then uses
/// plain discs, or a text board without AutoGUI data).
pub fn board(v: &dyn ServedVariant) -> serde_json::Value {
    let art = v.board_art();
    let pieces: serde_json::Map<String, serde_json::Value> = art
        .pieces
        .into_iter()
        .map(|(c, svg)| (c.to_string(), svg.into()))
        .collect();
    json!({
        "players": v.player_names(),
        "background": art.background,
        "pieces": pieces,
        "centers": art.centers,
    })
}
