//! GamesmanUni's variants of Topitop and their database files, as the
//! server's shared catalog ([`topitop_serve::catalog`]) finds, reads and
//! reloads them: which file is which variant, and how one is read (Topitop's
//! own format, its rules checked against the file's name). Each is served
//! as every game is ([`GameVariant`]), through the shared reader.

use std::path::Path;
use std::sync::Arc;

use games_topitop_rules::{Budget, Rules, RulesError, Ruleset};
use topitop_game_api::Game;
use topitop_serve::catalog::{Shelf, Slot};
use topitop_serve::served::GameVariant;
use topitop_serve::ServedVariant;

use crate::Database;

/// GamesmanUni's id of the game.
pub const GAME_ID: &str = "topitop";
/// The game's display name.
pub const GAME_NAME: &str = "Topitop";

/// One GamesmanUni variant: its URL id, display name and rules.
#[derive(Clone, Copy, Debug)]
pub struct VariantSpec {
    /// The id in URLs (`/topitop/<id>/`).
    pub id: &'static str,
    /// The name GamesmanUni shows.
    pub name: &'static str,
    /// `v0` or `v1`.
    pub ruleset: &'static str,
    /// GamesmanClassic's option number (0 for v0).
    pub option: i64,
}

/// Every variant the server knows, in the order GamesmanUni lists them:
/// GamesmanClassic's 8 options by number, then the 2006 rules. `regular` is
/// option 0, the id GamesmanUni's deep links use.
pub const VARIANTS: [VariantSpec; 9] = [
    spec("regular", "Standard Topitop", "v1", 0),
    spec("no-move-loses", "No Move Loses", "v1", 1),
    spec("tying-rule", "Tying Rule", "v1", 2),
    spec("no-move-loses-tying-rule", "No Move Loses, Tying Rule", "v1", 3),
    spec("misere", "Misère", "v1", 4),
    spec("misere-no-move-loses", "Misère, No Move Loses", "v1", 5),
    spec("misere-tying-rule", "Misère, Tying Rule", "v1", 6),
    spec(
        "misere-no-move-loses-tying-rule",
        "Misère, No Move Loses, Tying Rule",
        "v1",
        7,
    ),
    spec("v0", "Original Rules (2006)", "v0", 0),
];

const fn spec(id: &'static str, name: &'static str, ruleset: &'static str, option: i64) -> VariantSpec {
    VariantSpec {
        id,
        name,
        ruleset,
        option,
    }
}

impl VariantSpec {
    /// The rules of this variant with `budget`.
    ///
    /// # Errors
    /// None for the entries of [`VARIANTS`]; an error only for a bad table.
    pub fn rules(&self, budget: Budget) -> Result<Rules, RulesError> {
        Ok(Rules::with_budget(
            Ruleset::parse(self.ruleset, self.option)?,
            budget,
        ))
    }
}

/// Topitop's database files, one for each variant of [`VARIANTS`] with
/// the budget served, as `topitop solve --out DIR` names them, listed in
/// [`VARIANTS`] order; files of other budgets are left alone.
pub struct Files {
    /// The piece budget served.
    pub budget: Budget,
}

impl Files {
    /// The variant of [`VARIANTS`] (and its place) whose file's name
    /// gives `variant`, with the budget served.
    fn spec(&self, variant: &str) -> Option<(usize, VariantSpec, Rules)> {
        VARIANTS.iter().enumerate().find_map(|(i, spec)| {
            let rules = spec.rules(self.budget).ok()?;
            (Game::variant(&rules) == variant).then_some((i, *spec, rules))
        })
    }
}

impl Shelf for Files {
    fn game(&self) -> &str {
        GAME_ID
    }

    fn title(&self) -> String {
        GAME_NAME.into()
    }

    fn slot(&self, variant: &str) -> Result<Option<Slot>, String> {
        Ok(self.spec(variant).map(|(order, spec, _)| Slot {
            id: spec.id.into(),
            order,
        }))
    }

    fn open(&self, variant: &str, path: &Path, whole: bool) -> Result<Arc<dyn ServedVariant>, String> {
        let (_, spec, rules) = self.spec(variant).ok_or_else(|| {
            format!(
                "{variant:?} is no Topitop variant served with budget {}",
                self.budget
            )
        })?;
        let db = Database::open(path).map_err(|e| format!("cannot serve variant {}: {e}", spec.id))?;
        if db.rules() != rules {
            return Err(format!(
                "holds the rules {} with budget {}, but its name says {} with budget {}",
                db.rules().ruleset(),
                db.rules().budget(),
                rules.ruleset(),
                self.budget
            ));
        }
        if whole {
            db.verify_blocks(|_, _| {})
                .map_err(|e| format!("cannot serve variant {}: {e}", spec.id))?;
        }
        Ok(Arc::new(GameVariant::new(rules, db)?.named(spec.id, spec.name)))
    }

    fn missing(&self, dir: &Path) -> String {
        let looked: Vec<String> = VARIANTS
            .iter()
            .filter_map(|spec| spec.rules(self.budget).ok())
            .map(crate::file_name)
            .collect();
        let budget_option = if self.budget.is_standard() {
            String::new()
        } else {
            format!(" --budget {}", self.budget)
        };
        format!(
            "no database to serve in {dir}: looked for {looked}; create one with \
             `topitop solve --out {dir}{budget_option}` (add `--variant N` or `--rules v0` for the others)",
            dir = dir.display(),
            looked = looked.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use games_topitop_rules::{parse_position, StateIndex, Value, Variant};
    use hyper::StatusCode;
    use serde_json::Value as Json;
    use topitop_serve::catalog::{Catalog, Change};
    use topitop_serve::response::DRAW_REMOTENESS;
    use topitop_serve::{App, PositionResponse, Reply};

    use super::*;
    use topitop_serve::{respond_game, GameOver};

    #[test]
    fn variant_table_covers_every_ruleset_once() {
        let seen: std::collections::HashSet<Ruleset> = VARIANTS
            .iter()
            .map(|v| v.rules(Budget::STANDARD).unwrap().ruleset())
            .collect();
        assert_eq!(seen.len(), 9);
        let ids: std::collections::HashSet<&str> = VARIANTS.iter().map(|v| v.id).collect();
        assert_eq!(ids.len(), 9);
        assert_eq!(VARIANTS[0].id, "regular");
        assert_eq!(
            VARIANTS[0].rules(Budget::STANDARD).unwrap().ruleset(),
            Ruleset::V1(games_topitop_rules::Variant::DEFAULT)
        );
        assert_eq!(
            VARIANTS[8].rules(Budget::STANDARD).unwrap().ruleset(),
            Ruleset::V0
        );
        for (i, v) in VARIANTS.iter().take(8).enumerate() {
            let variant = v.rules(Budget::STANDARD).unwrap().ruleset().variant();
            assert_eq!(usize::from(variant.number()), i);
            assert_eq!(v.id.contains("misere"), variant.misere(), "{}", v.id);
            assert_eq!(v.id.contains("tying-rule"), variant.tying_rule(), "{}", v.id);
            assert_eq!(
                v.id.contains("no-move-loses"),
                variant.no_move_loses(),
                "{}",
                v.id
            );
        }
    }

    const BUDGET: &str = "1/1/2/2";

    /// Solves the tiny-budget game of each of `rulesets` into `dir`.
    fn solved(dir: &Path, rulesets: &[Ruleset]) -> Vec<PathBuf> {
        let budget: Budget = BUDGET.parse().unwrap();
        rulesets
            .iter()
            .map(|&ruleset| {
                let rules = Rules::with_budget(ruleset, budget);
                let solution = crate::solve(rules, crate::SolveOptions::default(), |_| {});
                let path = crate::path_in(dir, rules);
                crate::write(&path, &solution, &crate::WriteOptions::default(), |_, _| {}).unwrap();
                path
            })
            .collect()
    }

    fn path_of(dir: &Path, ruleset: Ruleset) -> PathBuf {
        crate::path_in(dir, Rules::with_budget(ruleset, BUDGET.parse().unwrap()))
    }

    /// The catalog of `dir`'s tiny-budget files, and an app serving it.
    fn served(dir: &Path) -> (Arc<App>, Catalog) {
        let files = Files {
            budget: BUDGET.parse().unwrap(),
        };
        let catalog = Catalog::open(Arc::new(files), dir);
        (Arc::new(App::new(vec![catalog.served()])), catalog)
    }

    /// Checks that `app` answers positions of `regular` as `db` says.
    fn answers_as(app: &App, db: &Database) {
        for p in ["1_---------", "2_S--------", "1_S--L-----"] {
            let reply = app.get("/topitop/regular/positions/", Some(&format!("p={p}")));
            assert_eq!(reply.status, hyper::StatusCode::OK, "{p}");
            let pos = parse_position(p, db.rules().budget()).unwrap();
            let want = respond_game(&db.rules(), db, &pos, GameOver::DrawIsTie).unwrap();
            let want = serde_json::to_vec(&want).unwrap();
            assert_eq!(reply.body, want, "{p}");
        }
    }

    const STANDARD: Ruleset = Ruleset::V1(Variant::DEFAULT);

    fn misere() -> Ruleset {
        Ruleset::V1(Variant::new(4).unwrap())
    }

    #[test]
    fn a_damaged_database_is_set_aside_and_the_others_served() {
        let dir = tempfile::tempdir().unwrap();
        solved(dir.path(), &[STANDARD, misere()]);
        let misere_path = path_of(dir.path(), misere());
        let bytes = std::fs::read(&misere_path).unwrap();
        std::fs::write(&misere_path, &bytes[..bytes.len() / 2]).unwrap();
        // v0's name on the standard game's file: the wrong rules.
        std::fs::copy(path_of(dir.path(), STANDARD), path_of(dir.path(), Ruleset::V0)).unwrap();
        // Another budget's file is not this server's.
        std::fs::write(dir.path().join("topitop_v1_2.db"), b"not read").unwrap();
        let (app, catalog) = served(dir.path());
        assert_eq!(app.variant_ids(GAME_ID), ["regular"]);
        let damaged = catalog.damaged();
        assert_eq!(damaged.len(), 2, "{damaged:?}");
        assert!(damaged[0].contains("topitop_v0_0"), "{damaged:?}");
        assert!(damaged[0].contains("holds the rules v1/0"), "{damaged:?}");
        assert!(
            damaged[1].contains("topitop_v1_4") && damaged[1].contains("misere"),
            "{damaged:?}"
        );
    }

    #[test]
    fn with_no_database_the_message_names_the_files_and_the_command() {
        let empty = tempfile::tempdir().unwrap();
        let (_, catalog) = served(empty.path());
        assert_eq!(catalog.databases(), 0);
        let e = catalog.missing();
        assert!(e.starts_with("no database to serve in"), "{e}");
        assert!(
            e.contains("topitop_v1_0_1-1-2-2.db") && e.contains("--budget 1/1/2/2"),
            "{e}"
        );
    }

    #[test]
    fn a_database_renamed_over_is_reloaded() {
        let dir = tempfile::tempdir().unwrap();
        let regular = solved(dir.path(), &[STANDARD]).remove(0);
        let db = Database::open(&regular).unwrap();
        let (app, mut catalog) = served(dir.path());
        assert_eq!(catalog.check(&app), [], "nothing changed");
        let tmp = dir.path().join("new.tmp");
        std::fs::copy(&regular, &tmp).unwrap();
        std::fs::rename(&tmp, &regular).unwrap();
        assert_eq!(catalog.check(&app), [Change::Reloaded("regular".into())]);
        answers_as(&app, &db);
        assert_eq!(catalog.check(&app), []);
        // Other rules renamed over: refused, the database in memory kept.
        let other = solved(dir.path(), &[misere()]).remove(0);
        std::fs::rename(&other, &tmp).unwrap();
        std::fs::rename(&tmp, &regular).unwrap();
        assert_eq!(catalog.check(&app), [Change::Refused("regular".into())]);
        answers_as(&app, &db);
        // Gone: still served from memory.
        std::fs::remove_file(&regular).unwrap();
        assert_eq!(catalog.check(&app), [Change::Removed("regular".into())]);
        answers_as(&app, &db);
    }

    #[test]
    fn a_database_overwritten_in_place_is_reloaded_once_whole() {
        let dir = tempfile::tempdir().unwrap();
        let regular = solved(dir.path(), &[STANDARD]).remove(0);
        let good = std::fs::read(&regular).unwrap();
        let db = Database::open(&regular).unwrap();
        let (app, mut catalog) = served(dir.path());
        // Truncated to nothing, as `cp` begins: refused, still answering.
        std::fs::File::create(&regular).unwrap();
        assert_eq!(catalog.check(&app), [Change::Refused("regular".into())]);
        answers_as(&app, &db);
        // Half written: refused.
        std::fs::write(&regular, &good[..good.len() / 2]).unwrap();
        assert_eq!(catalog.check(&app), [Change::Refused("regular".into())]);
        answers_as(&app, &db);
        // Whole, with a damaged block: refused (blocks are all checked).
        let mut bad = good.clone();
        let len = bad.len();
        bad[len / 3] ^= 0x5a;
        std::fs::write(&regular, &bad).unwrap();
        assert_eq!(catalog.check(&app), [Change::Refused("regular".into())]);
        answers_as(&app, &db);
        // Whole and valid: reloaded.
        std::fs::write(&regular, &good).unwrap();
        assert_eq!(catalog.check(&app), [Change::Reloaded("regular".into())]);
        answers_as(&app, &db);
    }

    #[test]
    fn a_damaged_variant_repaired_is_added_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let paths = solved(dir.path(), &[STANDARD, misere(), Ruleset::V0]);
        let misere = std::fs::read(&paths[1]).unwrap();
        std::fs::write(&paths[1], b"damaged").unwrap();
        let (app, mut catalog) = served(dir.path());
        assert_eq!(app.variant_ids(GAME_ID), ["regular", "v0"]);
        assert_eq!(catalog.check(&app), []);
        std::fs::write(&paths[1], &misere).unwrap();
        assert_eq!(catalog.check(&app), [Change::Added("misere".into())]);
        assert_eq!(app.variant_ids(GAME_ID), ["regular", "misere", "v0"]);
        let reply = app.get("/topitop/misere/positions/", Some("p=1_---------"));
        assert_eq!(reply.status, hyper::StatusCode::OK);
    }

    /// An app serving the tiny-budget databases of option 0 and v0, solved
    /// and written into `dir`.
    fn app(dir: &Path) -> Arc<App> {
        solved(dir, &[STANDARD, Ruleset::V0]);
        served(dir).0
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
            let want =
                serde_json::to_value(respond_game(&rules, &db, &pos, GameOver::AsStored).unwrap()).unwrap();
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
    #[test]
    fn a_v0_game_over_without_a_winner_is_a_tie_for_gamesman_uni_only() {
        // Only Blue has buckets: Red is often stuck, which v0 calls a draw.
        let budget: Budget = "2/0/1/2".parse().unwrap();
        let rules = Rules::with_budget(Ruleset::V0, budget);
        let dir = tempfile::tempdir().unwrap();
        let path = crate::path_in(dir.path(), rules);
        let solution = crate::solve(rules, crate::SolveOptions::default(), |_| {});
        crate::write(&path, &solution, &crate::WriteOptions::default(), |_, _| {}).unwrap();
        let db = Database::open(&path).unwrap();
        let states = StateIndex::new(budget);
        let stuck = states
            .walk(0, states.len())
            .find(|&p| rules.primitive(p) == Some(Value::Draw) && db.get(p).is_ok())
            .expect("a stuck position");
        let stored = respond_game(&rules, &db, &stuck, GameOver::AsStored).unwrap();
        assert_eq!(
            (stored.position_value, stored.remoteness),
            ("draw", DRAW_REMOTENESS)
        );
        let uni = respond_game(&rules, &db, &stuck, GameOver::DrawIsTie).unwrap();
        assert_eq!((uni.position_value, uni.remoteness), ("tie", 0));
        assert!(uni.moves.is_empty() && stored.moves.is_empty());
        let mut parents = Vec::new();
        rules.parents(stuck, &mut parents);
        let parent = parents
            .into_iter()
            .find(|&p| db.get(p).is_ok() && rules.primitive(p).is_none())
            .expect("a parent in play");
        let stored = respond_game(&rules, &db, &parent, GameOver::AsStored).unwrap();
        let uni = respond_game(&rules, &db, &parent, GameOver::DrawIsTie).unwrap();
        // The parent keeps its own value; only the move that ends the game
        // changes its name.
        assert_eq!(
            (uni.position_value, uni.remoteness),
            (stored.position_value, stored.remoteness)
        );
        let into = |r: &PositionResponse| {
            let m = r.moves.iter().find(|m| m.position == stuck.to_string()).unwrap();
            (m.position_value, m.remoteness, m.move_value, m.delta_remoteness)
        };
        assert_eq!(into(&stored), ("draw", DRAW_REMOTENESS, "draw", 0));
        assert_eq!(into(&uni), ("tie", 0, "tie", 0));
        // Ties rank before draws and losses.
        let order = ["win", "tie", "draw", "lose", "unsolved"];
        let rank = |v: &str| order.iter().position(|&o| o == v);
        assert!(uni
            .moves
            .windows(2)
            .all(|w| rank(w[0].move_value) <= rank(w[1].move_value)));
    }
}
