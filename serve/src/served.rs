//! Serving a game behind the game interface: a variant is the game (built
//! from the variant its database records) and what answers its positions:
//! its database, read through the shared [`Reader`] (the shared format of
//! every tiered game, or a game's own), or, for a board too large to solve
//! (8×8 Topolo), the game's search, whose estimates are marked as such.
//! Every answer comes from the interface and that source alone.

use std::marker::PhantomData;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use topitop_db::reach::Reached;
use topitop_db::{Reader, SolvedDb};
use topitop_game_api::{BoardArt, Game, Presentation, Registered, Search, Tiered};

use crate::catalog::{Shelf, Slot};
use crate::draw_levels::{self, DrawLevels};
use crate::response::{
    autogui_position, respond_estimated, respond_game, DrawLevel, GameOver, PositionResponse,
};
use crate::variant::{database_facts, Notes, PositionError, ServedVariant};

/// How long the search takes for one answer by default: well inside
/// GamesmanUni's and the page's patience.
pub const SEARCH_BUDGET: Duration = Duration::from_millis(1500);

/// What answers a variant's positions.
enum Answers<R> {
    /// Its database, and the file it was read from.
    Db(Box<R>, std::path::PathBuf),
    /// The game's search, given this long an answer.
    Search(Duration),
}

/// A served variant of a game, answered from a database of the game
/// (`R`, by default the shared format) or by its search.
pub struct GameVariant<G: Game + Presentation + Search, R = SolvedDb> {
    game: G,
    answers: Answers<R>,
    id: String,
    name: String,
    theme: serde_json::Value,
    /// The positions play reaches, found by a search at the first request
    /// that asks, for a game that does not answer it itself (none: too
    /// many to keep).
    reached: std::sync::OnceLock<Option<Reached<G::Position>>>,
    /// The draws' levels, worked out in the background once served (none:
    /// no draws, too many, or answered by search).
    draws: std::sync::OnceLock<Option<DrawLevels<G::Position>>>,
}

impl<G: Game + Presentation + Search, R: Reader<G> + Send> GameVariant<G, R> {
    /// Serves `game` from `db`, a database of that game and variant (the
    /// caller has checked), under the id [`Game::variant`] and the name
    /// [`Presentation::variant_title`].
    ///
    /// # Errors
    /// AutoGUI data that is not JSON (a game's bug, said rather than
    /// served).
    pub fn new(game: G, db: R) -> Result<GameVariant<G, R>, String> {
        let name = game.variant_title();
        let path = db.facts().path;
        GameVariant::answered_by(game, Answers::Db(Box::new(db), path), name)
    }

    /// The variant under the id `id` in URLs and the name `name`
    /// GamesmanUni shows, where the game's own words for its variant are
    /// not GamesmanUni's.
    #[must_use]
    pub fn named(mut self, id: &str, name: &str) -> Self {
        self.id = id.into();
        self.name = name.into();
        self
    }

    /// Serves `game`, which no database holds, from its search, given
    /// `budget` an answer.
    ///
    /// # Errors
    /// A game without a search, or AutoGUI data that is not JSON.
    pub fn estimated(game: G, budget: Duration) -> Result<GameVariant<G, R>, String> {
        if !game.can_estimate() {
            return Err(format!(
                "{} {} has no search to answer from",
                game.name(),
                game.variant()
            ));
        }
        let name = format!("{} (estimates)", game.variant_title());
        GameVariant::answered_by(game, Answers::Search(budget), name)
    }

    fn answered_by(game: G, answers: Answers<R>, name: String) -> Result<GameVariant<G, R>, String> {
        let theme = match game.image_autogui_data() {
            None => serde_json::Value::Null,
            Some(text) => serde_json::from_str(&text)
                .map_err(|e| format!("{}'s AutoGUI data is not JSON: {e}", game.name()))?,
        };
        Ok(GameVariant {
            id: game.variant(),
            name,
            game,
            answers,
            theme,
            reached: std::sync::OnceLock::new(),
            draws: std::sync::OnceLock::new(),
        })
    }

    /// The draw levels of a database with draws, worked out once (the
    /// caller waits for them).
    fn draw_levels(&self) -> Option<&DrawLevels<G::Position>> {
        let Answers::Db(db, _) = &self.answers else {
            return None;
        };
        self.draws
            .get_or_init(|| {
                let draws = db.facts().counts[topitop_game_api::Value::Draw as usize];
                if draws == 0 {
                    return None;
                }
                let started = std::time::Instant::now();
                match draw_levels::analyse(&self.game, db.as_ref()) {
                    Ok(levels) => {
                        tracing::info!(
                            "draw levels of {} {}: {} of {draws} draws pure, in {} ms",
                            self.game.name(),
                            self.id,
                            levels.len(),
                            started.elapsed().as_millis()
                        );
                        Some(levels)
                    }
                    Err(why) => {
                        tracing::warn!(
                            "{} {} is served without draw levels: {why}",
                            self.game.name(),
                            self.id
                        );
                        None
                    }
                }
            })
            .as_ref()
    }

    /// The draw level of `pos`, a draw, when it has one and the levels are
    /// worked out (never waiting for them).
    fn draw_level(&self, pos: &G::Position) -> Option<DrawLevel> {
        let levels = self.draws.get()?.as_ref()?;
        let (draw_level, draw_remoteness) = levels.get(&self.game.canonical(pos))?;
        Some(DrawLevel {
            draw_level,
            draw_remoteness,
        })
    }
}

/// A pure draw's level in words, for the page.
fn draw_words(d: DrawLevel) -> String {
    let (l, r) = (d.draw_level, d.draw_remoteness);
    let aim = if l == 0 {
        "a position with a move that throws the draw away".to_string()
    } else {
        format!(
            "a position with a move that hands over a level-{} draw-win",
            l - 1
        )
    };
    if r % 2 == 1 {
        format!("level {l}, a draw-win in {r}: the player to move can force the other to {aim} (GamesmanUni's L{l}R{r})")
    } else if r == 0 {
        format!("level {l}, on its fringe: the player to move faces {aim} (GamesmanUni's L{l}R0)")
    } else {
        format!("level {l}, a draw-lose in {r}: the other player can force the one to move to {aim} (GamesmanUni's L{l}R{r})")
    }
}

/// The database files of a registered game behind the game interface:
/// `<game>_<variant>.db`, the variant as [`Game::variant`] writes it,
/// listed in file-name order; beside them the game's own board, answered
/// by its search, when the game can search it (8×8 Topolo).
///
/// [`Game::variant`]: topitop_game_api::Game::variant
pub struct TieredShelf<G> {
    /// How long the search takes for one answer, for a board no database
    /// holds.
    search: Duration,
    game: PhantomData<fn() -> G>,
}

impl<G> TieredShelf<G> {
    /// The shelf of a game whose unsolved board's search takes `search`
    /// an answer.
    pub fn new(search: Duration) -> Self {
        TieredShelf {
            search,
            game: PhantomData,
        }
    }
}

impl<G> Default for TieredShelf<G> {
    fn default() -> Self {
        TieredShelf::new(SEARCH_BUDGET)
    }
}

impl<G: Registered + Tiered> Shelf for TieredShelf<G> {
    fn game(&self) -> &str {
        G::NAME
    }

    fn title(&self) -> String {
        G::from_options(&topitop_game_api::Options::new()).map_or_else(|_| G::NAME.into(), |g| g.title())
    }

    fn slot(&self, variant: &str) -> Result<Option<Slot>, String> {
        let id = G::from_variant(variant)?.variant();
        Ok(Some(Slot { id, order: 0 }))
    }

    fn open(&self, variant: &str, path: &Path, whole: bool) -> Result<Arc<dyn ServedVariant>, String> {
        let game = G::from_variant(variant)?;
        let db = SolvedDb::open(path).map_err(|e| e.to_string())?;
        db.holds(&game).map_err(|e| e.to_string())?;
        if whole {
            db.verify_blocks(|_, _| {}).map_err(|e| e.to_string())?;
        }
        Ok(Arc::new(GameVariant::new(game, db)?))
    }

    fn unsolved(&self) -> Vec<Arc<dyn ServedVariant>> {
        let Ok(game) = G::from_options(&topitop_game_api::Options::new()) else {
            return Vec::new();
        };
        if !game.can_estimate() {
            return Vec::new();
        }
        match GameVariant::<G>::estimated(game, self.search) {
            Ok(v) => vec![Arc::new(v)],
            Err(e) => {
                tracing::error!(error = %e, "no estimates served");
                Vec::new()
            }
        }
    }
}

impl<G: Game + Presentation + Search + 'static, R: Reader<G> + Send + 'static> ServedVariant
    for GameVariant<G, R>
{
    fn prepare(self: Arc<Self>) {
        if matches!(self.answers, Answers::Db(..)) {
            let spawned = std::thread::Builder::new()
                .name("draw-levels".into())
                .spawn(move || {
                    // One variant at a time: a folder of nine databases
                    // must not take nine times the memory and both cores.
                    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
                    let _turn = ONE_AT_A_TIME
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    self.draw_levels();
                });
            if let Err(e) = spawned {
                tracing::warn!("no thread for draw levels: {e}");
            }
        }
    }

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
        self.position_until(p, &AtomicBool::new(false))
    }

    fn position_until(&self, p: &str, stop: &AtomicBool) -> Result<PositionResponse, PositionError> {
        let pos = self
            .game
            .parse_position(p)
            .map_err(|e| PositionError::Invalid(e.to_string()))?;
        match &self.answers {
            // GamesmanUni has no terminal draw: a game over without a
            // winner is served as the tie it is (docs/serve.md).
            Answers::Db(db, _) => {
                let mut r = respond_game(&self.game, db.as_ref(), &pos, GameOver::DrawIsTie)
                    .map_err(|e| PositionError::from_db(e, p, &self.name))?;
                // Only draws have levels, once worked out: a position, and
                // each move to one (a won position may have them too).
                if self.draws.get().is_some_and(Option::is_some) {
                    if r.position_value == "draw" {
                        r.draw = self.draw_level(&pos);
                    }
                    if r.moves.iter().any(|m| m.position_value == "draw") {
                        for mv in self.game.moves(&pos) {
                            let name = self.game.format_move(mv);
                            if let Some(m) = r
                                .moves
                                .iter_mut()
                                .find(|m| m.mv == name && m.position_value == "draw")
                            {
                                m.draw = self.draw_level(&self.game.play(&pos, mv));
                            }
                        }
                    }
                }
                Ok(r)
            }
            Answers::Search(budget) => respond_estimated(&self.game, &pos, *budget, stop)
                .ok_or_else(|| PositionError::Database(format!("{} has no search", self.game.name()))),
        }
    }

    fn answers_slowly(&self) -> bool {
        matches!(self.answers, Answers::Search(_))
    }

    fn player_names(&self) -> [&'static str; 2] {
        self.game.player_names()
    }

    fn turn(&self, p: &str) -> Option<&'static str> {
        let pos = self.game.parse_position(p).ok()?;
        Some(self.game.player_names()[self.game.player_to_move(&pos)?])
    }

    fn reachable(&self, p: &str) -> Option<bool> {
        let pos = self.game.parse_position(p).ok()?;
        let search = self.game.reachability() == topitop_game_api::Reachability::Search;
        if search && matches!(self.answers, Answers::Db(..)) {
            let reached = self.reached.get_or_init(|| {
                topitop_db::reach::search(&self.game)
                    .inspect_err(|why| tracing::warn!("{why}"))
                    .ok()
            });
            if let Some(reached) = reached {
                return Some(reached.contains(&pos));
            }
        }
        Some(self.game.reachable(&pos))
    }

    fn board_art(&self) -> BoardArt {
        self.game.board_art()
    }

    fn notes(&self, p: &str) -> Notes {
        let Ok(pos) = self.game.parse_position(p) else {
            return Notes::default();
        };
        let mut facts = self.game.facts(&pos);
        if let Answers::Db(db, path) = &self.answers {
            if let Some(at) = db.place(&self.game, &pos) {
                facts.extend(database_facts(at, path, p));
            }
            if let Some(d) = self.draw_level(&pos) {
                facts.push(("Draw level".into(), draw_words(d)));
            }
        }
        Notes {
            ending: self.game.ending(&pos),
            facts,
        }
    }
}
