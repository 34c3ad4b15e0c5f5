//! What the routes need of a served variant, whatever its game: its names,
//! its start, its board for GamesmanUni's AutoGUI, its rules text and the
//! position object of any position. Every game is served through this
//! alone, as a [`crate::served::GameVariant`].

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use topitop_db::{DbError, Place};
use topitop_game_api::BoardArt;

use crate::response::PositionResponse;

/// Why a position cannot be answered.
#[derive(Debug)]
pub enum PositionError {
    /// Not a position of the variant (status 400): why, for the client.
    Invalid(String),
    /// The database cannot be read (status 500): the details, for the log
    /// only (they name server files).
    Database(String),
}

impl PositionError {
    /// The error of a database read for the position string `p` of the
    /// variant named `variant`: a position the database does not hold is
    /// the client's error, anything else the server's.
    pub fn from_db(err: DbError, p: &str, variant: &str) -> PositionError {
        match err {
            DbError::NotIndexable(_) => {
                PositionError::Invalid(format!("{p:?} is not a position of {variant}"))
            }
            e => PositionError::Database(e.to_string()),
        }
    }
}

/// What the browser page shows of a position beyond its values.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Notes {
    /// Why the game is over, when it is.
    pub ending: Option<String>,
    /// (label, text) pairs: pieces left, supply, a forbidden move.
    pub facts: Vec<(String, String)>,
}

/// The facts that say where a database keeps a position, for a
/// researcher: its tier's name, its rank among the tier's positions
/// (`at`), and the `query` command that reads it from the file at `db`,
/// the path the server opened (relative to where it runs when its folder
/// was given so), with the position string `p`, each quoted for a shell:
/// pasted where the server runs, it works. Every served game lists them
/// alike.
pub fn database_facts(at: Place, db: &std::path::Path, p: &str) -> Vec<(String, String)> {
    let Place { tier, rank, size } = at;
    vec![
        ("Tier".into(), tier),
        ("Rank in its tier".into(), format!("{rank} of {size} (from 0)")),
        (
            "In query".into(),
            format!(
                "topitop query --db {} {}",
                shell_quote(&db.display().to_string()),
                shell_quote(p)
            ),
        ),
    ]
}

/// `text` as one word for a POSIX shell.
pub fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/=:,".contains(c))
    {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// One variant of a game, with its database.
pub trait ServedVariant: Send + Sync {
    /// The id in URLs (`/<game>/<id>/`).
    fn id(&self) -> &str;
    /// The name GamesmanUni shows.
    fn name(&self) -> &str;
    /// The start position's string.
    fn start(&self) -> String;
    /// The start position's AutoGUI string.
    fn autogui_start(&self) -> String;
    /// GamesmanUni's `imageAutoGUIData` (`null`: a text board).
    fn image_autogui_data(&self) -> serde_json::Value;
    /// The rules as Markdown for `locale` (may be empty).
    fn instructions(&self, locale: &str) -> String;
    /// The position object of the position string `p`.
    ///
    /// # Errors
    /// `p` is not a position of the variant, or the database cannot be
    /// read.
    fn position(&self, p: &str) -> Result<PositionResponse, PositionError>;
    /// The players' names, first player first, for the browser page.
    fn player_names(&self) -> [&'static str; 2] {
        ["first player", "second player"]
    }
    /// The name of the player to move in the position string `p`, if it
    /// is a position of the variant.
    fn turn(&self, p: &str) -> Option<&'static str>;
    /// Whether some game from the start comes to the position string `p`,
    /// if it is a position of the variant.
    fn reachable(&self, p: &str) -> Option<bool>;
    /// Optional: what the page shows beside the position string `p`: why
    /// the game ended there and the facts a player reads off the board
    /// ([`topitop_game_api::Presentation::facts`]). By default nothing.
    fn notes(&self, _p: &str) -> Notes {
        Notes::default()
    }
    /// Optional: work done once the variant is served, off the request
    /// threads (a database's draw levels, [`crate::draw_levels`]); until
    /// it is done, answers go without what it adds. By default nothing.
    fn prepare(self: std::sync::Arc<Self>) {}
    /// Optional: true when answering a position takes long (a search,
    /// not a lookup): the server answers it off its I/O threads, a few at
    /// a time, and gives it up when its client has gone
    /// ([`ServedVariant::position_until`]).
    fn answers_slowly(&self) -> bool {
        false
    }
    /// Optional: [`ServedVariant::position`], given up as soon as `stop`
    /// is set (the answer is then for nobody, and may be anything). A
    /// variant that answers slowly implements it; by default the answer
    /// is a lookup, quick enough to finish.
    ///
    /// # Errors
    /// As [`ServedVariant::position`].
    fn position_until(&self, p: &str, _stop: &AtomicBool) -> Result<PositionResponse, PositionError> {
        self.position(p)
    }
    /// The drawings of the pieces and board for the browser page (by
    /// default none: plain discs).
    fn board_art(&self) -> BoardArt {
        BoardArt::default()
    }
}

/// A game and the variants of it served.
#[derive(Clone)]
pub struct ServedGame {
    /// The id in URLs and in the games list.
    pub id: String,
    /// The name GamesmanUni shows.
    pub name: String,
    /// The variants served, in the order they are listed.
    pub variants: Vec<Arc<dyn ServedVariant>>,
}

#[cfg(test)]
mod tests {
    use super::{database_facts, Place};

    #[test]
    fn the_query_line_names_the_file_where_the_server_found_it() {
        // The line once named the file alone, so that pasting it where the
        // server runs (`serve --dir data`) found no such file.
        let at = Place {
            tier: "t".into(),
            rank: 3,
            size: 10,
        };
        let facts = database_facts(
            at,
            std::path::Path::new("data/my dbs/topolo_3x3.db"),
            ".../.../... r",
        );
        assert_eq!(
            facts[2].1,
            "topitop query --db 'data/my dbs/topolo_3x3.db' '.../.../... r'"
        );
    }
}
