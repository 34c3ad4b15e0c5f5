//! Serving a game that no database holds, from its search: a board too
//! large to solve (8×8 Topolo), answered with estimates marked as such.

use std::time::Duration;

use topitop_interface::{BoardArt, Game};

use crate::response::{autogui_position, respond_estimated, PositionResponse};
use crate::variant::{PositionError, ServedVariant};

/// How long the search takes for one answer: well inside GamesmanUni's and
/// the page's patience.
pub const SEARCH_BUDGET: Duration = Duration::from_millis(1500);

/// A served variant answered by the game's search.
pub struct EstimatedVariant<G> {
    game: G,
    id: String,
    name: String,
    theme: serde_json::Value,
}

impl<G: Game> EstimatedVariant<G> {
    /// Serves `game` from its search.
    ///
    /// # Errors
    /// A game without a search, or AutoGUI data that is not JSON.
    pub fn new(game: G) -> Result<EstimatedVariant<G>, String> {
        if !game.can_estimate() {
            return Err(format!(
                "{} {} has no search to answer from",
                game.name(),
                game.variant()
            ));
        }
        let theme = match game.image_autogui_data() {
            None => serde_json::Value::Null,
            Some(text) => serde_json::from_str(&text)
                .map_err(|e| format!("{}'s AutoGUI data is not JSON: {e}", game.name()))?,
        };
        Ok(EstimatedVariant {
            id: game.variant(),
            name: format!("{} (estimates)", game.variant_title()),
            game,
            theme,
        })
    }
}

impl<G: Game> ServedVariant for EstimatedVariant<G> {
    fn id(&self) -> &str {
        &self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn start(&self) -> String {
        self.game.format_position(&self.game.start())
    }

    fn autogui_start(&self) -> String {
        autogui_position(&self.game, &self.game.start())
    }

    fn image_autogui_data(&self) -> serde_json::Value {
        self.theme.clone()
    }

    fn instructions(&self, _locale: &str) -> String {
        self.game.instructions()
    }

    fn position(&self, p: &str) -> Result<PositionResponse, PositionError> {
        let pos = self.game.parse_position(p).map_err(PositionError::Invalid)?;
        respond_estimated(&self.game, &pos, SEARCH_BUDGET)
            .ok_or_else(|| PositionError::Database(format!("{} has no search", self.game.name())))
    }

    fn player_names(&self) -> [&'static str; 2] {
        self.game.player_names()
    }

    fn turn(&self, p: &str) -> Option<&'static str> {
        let pos = self.game.parse_position(p).ok()?;
        Some(self.game.player_names()[self.game.player_to_move(&pos)])
    }

    fn reachable(&self, p: &str) -> Option<bool> {
        let pos = self.game.parse_position(p).ok()?;
        Some(self.game.reachable(&pos))
    }

    fn answers_slowly(&self) -> bool {
        true
    }

    fn board_art(&self) -> BoardArt {
        self.game.board_art()
    }
}
