//! Topitop's variants served through [`ServedVariant`]: its own database
//! format and response (its fast path), read by [`crate::uni::catalog`].

use games_topitop_rules::{autogui_position, parse_position, Player};
use topitop_game_api::BoardArt;
use topitop_serve::variant::database_facts;
use topitop_serve::PositionResponse;
use topitop_serve::{Notes, PositionError, ServedVariant};

use crate::uni::catalog::Served;
use crate::uni::instructions::instructions;
use crate::uni::response::{respond_as, GameOver};
use crate::uni::theme::image_autogui_data;
use crate::uni::words;

impl ServedVariant for Served {
    fn id(&self) -> &str {
        self.spec.id
    }

    fn name(&self) -> &str {
        self.spec.name
    }

    fn start(&self) -> String {
        self.rules.start().to_string()
    }

    fn autogui_start(&self) -> String {
        autogui_position(self.rules.start())
    }

    fn image_autogui_data(&self) -> serde_json::Value {
        image_autogui_data()
    }

    fn instructions(&self, locale: &str) -> String {
        instructions(self.rules.ruleset(), locale)
    }

    fn position(&self, p: &str) -> Result<PositionResponse, PositionError> {
        let pos =
            parse_position(p, self.rules.budget()).map_err(|e| PositionError::Invalid(e.to_string()))?;
        // GamesmanUni has no terminal draw: a game over without a winner is
        // served as the tie it is (see docs/serve.md).
        respond_as(&self.db, self.rules, pos, GameOver::DrawIsTie)
            .map_err(|e| PositionError::from_db(e, p, self.spec.name))
    }

    fn player_names(&self) -> [&'static str; 2] {
        [Player::Blue.name(), Player::Red.name()]
    }

    fn turn(&self, p: &str) -> Option<&'static str> {
        Some(parse_position(p, self.rules.budget()).ok()?.turn().name())
    }

    fn reachable(&self, p: &str) -> Option<bool> {
        let pos = parse_position(p, self.rules.budget()).ok()?;
        Some(self.rules.is_reachable(pos))
    }

    fn board_art(&self) -> BoardArt {
        crate::uni::art::board_art()
    }

    fn notes(&self, p: &str) -> Notes {
        let Ok(pos) = parse_position(p, self.rules.budget()) else {
            return Notes::default();
        };
        let mut facts = words::facts(self.rules, pos);
        // Where the database keeps it, as every served game says it.
        let index = self.db.index();
        let tier = games_topitop_rules::Tier::of(pos.board());
        if let (Ok(i), Some(range)) = (index.index(pos), index.tier_range(tier)) {
            facts.extend(database_facts(
                tier.describe(self.rules.budget()),
                i - range.offset,
                2 * range.half,
                self.db.path(),
                p,
            ));
        }
        Notes {
            ending: words::ending(self.rules, pos),
            facts,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{solve, SolveOptions};
    use crate::{write, WriteOptions};
    use games_topitop_rules::{Budget, Rules, Ruleset};
    use serde_json::Value as Json;

    use hyper::StatusCode;
    use topitop_serve::{App, Reply};

    use std::sync::Arc;

    use topitop_serve::catalog::Catalog;

    use super::*;
    use crate::uni::catalog::{Files, GAME_ID, GAME_NAME, VARIANTS};
    use crate::uni::response::respond;

    const BUDGET: &str = "1/1/2/2";

    /// An app serving the tiny-budget databases of option 0 and v0, solved
    /// and written into `dir`.
    fn app(dir: &std::path::Path) -> App {
        let budget: Budget = BUDGET.parse().unwrap();
        for ruleset in [Ruleset::V1(games_topitop_rules::Variant::DEFAULT), Ruleset::V0] {
            let rules = Rules::with_budget(ruleset, budget);
            let solution = solve(rules, SolveOptions::default(), |_| {});
            let path = crate::path_in(dir, rules);
            write(&path, &solution, &WriteOptions::default(), |_, _| {}).unwrap();
        }
        App::new(vec![Catalog::open(Arc::new(Files { budget }), dir).served()])
    }

    fn json(reply: &Reply) -> Json {
        serde_json::from_slice(&reply.body).unwrap()
    }

    /// Status and JSON body of `GET path?query`.
    fn get(app: &App, path: &str, query: Option<&str>) -> (StatusCode, Json) {
        let reply = app.get(path, query);
        (reply.status, json(&reply))
    }

    fn error_of(app: &App, path: &str, query: Option<&str>, status: StatusCode) -> String {
        let (got, body) = get(app, path, query);
        assert_eq!(got, status, "{path}?{query:?}: {body}");
        body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error text: {body}"))
            .to_string()
    }

    #[test]
    fn fixed_routes() {
        let dir = tempfile::tempdir().unwrap();
        let app = app(dir.path());
        let (status, games) = get(&app, "/", None);
        assert_eq!(status, StatusCode::OK);
        assert_eq!(games[0]["id"], GAME_ID);
        assert_eq!(games.as_array().unwrap().len(), 1);
        // Both spellings of a route, with and without the trailing slash.
        for path in ["/topitop", "/topitop/"] {
            let (status, game) = get(&app, path, None);
            assert_eq!(status, StatusCode::OK);
            let ids: Vec<&str> = game["variants"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v["id"].as_str().unwrap())
                .collect();
            assert_eq!(ids, [VARIANTS[0].id, VARIANTS[8].id], "only the variants on disk");
        }
        let (status, variant) = get(&app, "/topitop/regular/", None);
        assert_eq!(status, StatusCode::OK);
        assert_eq!(variant["startPosition"], "1_---------");
        assert_eq!(variant["imageAutoGUIData"]["defaultTheme"], "beach");
        let (status, text) = get(&app, "/topitop/v0/instructions/", Some("locale=fr"));
        assert_eq!(status, StatusCode::OK);
        assert!(text["instructions"].as_str().unwrap().contains("Topitop"));
    }

    #[test]
    fn a_position_is_the_response_object_of_its_database() {
        let dir = tempfile::tempdir().unwrap();
        let app = app(dir.path());
        let budget: Budget = BUDGET.parse().unwrap();
        let rules = Rules::with_budget(Ruleset::V1(games_topitop_rules::Variant::DEFAULT), budget);
        let db = crate::Database::open(crate::path_in(dir.path(), rules)).unwrap();
        for (p, query) in [
            ("1_---------", "p=1_---------"),
            ("2_S--------", "p=2_S--------"),
            // Encoded or not, GamesmanUni's positions are read alike.
            ("1_S--L-----", "p=1%5FS--L-----"),
        ] {
            let (status, body) = get(&app, "/topitop/regular/positions/", Some(query));
            assert_eq!(status, StatusCode::OK, "{body}");
            let pos = parse_position(p, budget).unwrap();
            let want = serde_json::to_value(respond(&db, rules, pos).unwrap()).unwrap();
            assert_eq!(body, want, "{p}");
            assert_eq!(
                body["moves"].as_array().unwrap().len(),
                rules.legal_moves(pos).len()
            );
        }
    }

    #[test]
    fn bad_requests_get_error_objects() {
        let dir = tempfile::tempdir().unwrap();
        let app = app(dir.path());
        let e = error_of(&app, "/chess/", None, StatusCode::NOT_FOUND);
        assert!(e.contains("Invalid Game"), "{e}");
        let e = error_of(&app, "/topitop/misere/", None, StatusCode::NOT_FOUND);
        assert!(e.contains("Invalid Variant") && e.contains("regular, v0"), "{e}");
        let e = error_of(&app, "/topitop/regular/nothing/", None, StatusCode::NOT_FOUND);
        assert!(e.contains("no route"), "{e}");
        error_of(&app, "/topitop//", None, StatusCode::NOT_FOUND);
        let e = error_of(&app, "/topitop/regular/positions/", None, StatusCode::BAD_REQUEST);
        assert!(e.contains("missing query parameter p"), "{e}");
        for bad in ["p=1_ZZZ", "p=", "p=3_---------", "p=1_RR-------"] {
            let e = error_of(
                &app,
                "/topitop/regular/positions/",
                Some(bad),
                StatusCode::BAD_REQUEST,
            );
            assert!(e.starts_with("Invalid Position"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_replaced_variant_set_is_served_whole() {
        let dir = tempfile::tempdir().unwrap();
        let app = app(dir.path());
        let files = Files {
            budget: BUDGET.parse().unwrap(),
        };
        let mut served = Catalog::open(Arc::new(files), dir.path()).served().variants;
        let v0 = served.pop().unwrap();
        app.replace(GAME_ID, GAME_NAME, vec![v0]);
        let (_, game) = get(&app, "/topitop/", None);
        assert_eq!(game["variants"][0]["id"], "v0");
        assert_eq!(game["variants"].as_array().unwrap().len(), 1);
        error_of(&app, "/topitop/regular/", None, StatusCode::NOT_FOUND);
        app.replace(GAME_ID, GAME_NAME, served);
        assert_eq!(app.variant_ids(GAME_ID), ["regular"]);
    }
}
