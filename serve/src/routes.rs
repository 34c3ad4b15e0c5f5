//! GamesmanUni's routes over the catalog: each request path and query maps
//! to a status and a JSON body. No I/O here beyond database reads.
//!
//! The served variants can be replaced while the server runs (see
//! [`crate::reload`]): each request takes the current set once and answers
//! from it alone, so a replacement never shows half.

use std::sync::{Arc, PoisonError, RwLock};

use bytes::Bytes;
use hyper::StatusCode;
use serde::Serialize;
use serde_json::json;
use topitop_db::DbError;
use topitop_game::{autogui_position, parse_position};

use crate::catalog::{Catalog, Served, GAME_ID, GAME_NAME};
use crate::instructions::instructions;
use crate::response::{respond_as, GameOver};
use crate::theme::image_autogui_data;

/// A JSON answer: its status and body.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The HTTP status.
    pub status: StatusCode,
    /// The JSON body.
    pub body: Bytes,
}

impl Reply {
    fn ok(body: Bytes) -> Reply {
        Reply {
            status: StatusCode::OK,
            body,
        }
    }

    /// `{"error": message}` with `status`, as GamesmanUni recognises a failure.
    pub fn error(status: StatusCode, message: impl Into<String>) -> Reply {
        Reply {
            status,
            body: to_json(&json!({ "error": message.into() })),
        }
    }
}

fn to_json(v: &impl Serialize) -> Bytes {
    // A position object with its moves is 2-8 kB: one allocation mostly.
    let mut out = Vec::with_capacity(8 << 10);
    // Serialising our own maps and structs of strings and numbers cannot fail.
    match serde_json::to_writer(&mut out, v) {
        Ok(()) => Bytes::from(out),
        Err(_) => Bytes::from_static(b"{\"error\":\"serialisation\"}"),
    }
}

/// A served variant with its fixed answers prepared.
struct Variant {
    served: Served,
    /// Route 3, the variant object.
    object: Bytes,
}

/// The served variants and the answers that depend on them.
struct Snapshot {
    /// Route 2, the game object.
    game: Bytes,
    variants: Vec<Variant>,
}

impl Snapshot {
    fn new(served: Vec<Served>, theme: &serde_json::Value) -> Snapshot {
        let listed: Vec<_> = served
            .iter()
            .map(|v| json!({ "id": v.spec.id, "name": v.spec.name, "gui": "v3" }))
            .collect();
        let game = to_json(&json!({
            "id": GAME_ID,
            "name": GAME_NAME,
            "variants": listed,
            "allowCustomVariantCreation": false,
            "supportsWinBy": false,
        }));
        let variants = served
            .into_iter()
            .map(|served| {
                let start = served.rules.start();
                let object = to_json(&json!({
                    "id": served.spec.id,
                    "name": served.spec.name,
                    "gui": "v3",
                    "startPosition": start.to_string(),
                    "autoguiStartPosition": autogui_position(start),
                    "imageAutoGUIData": theme,
                }));
                Variant { served, object }
            })
            .collect();
        Snapshot { game, variants }
    }

    fn variant(&self, id: &str) -> Result<&Variant, Reply> {
        self.variants
            .iter()
            .find(|v| v.served.spec.id == id)
            .ok_or_else(|| {
                let ids: Vec<&str> = self.variants.iter().map(|v| v.served.spec.id).collect();
                Reply::error(
                    StatusCode::NOT_FOUND,
                    format!(
                        "Invalid Variant: {GAME_ID} has no variant {id:?} on this server; it serves {}",
                        ids.join(", ")
                    ),
                )
            })
    }
}

/// The application: the served variants and the answers that never change.
pub struct App {
    /// Route 1, the games list.
    games: Bytes,
    /// `imageAutoGUIData`, the same for every variant.
    theme: serde_json::Value,
    current: RwLock<Arc<Snapshot>>,
}

impl App {
    /// Prepares the answers for the variants of `catalog` (its damaged
    /// files are left out).
    pub fn new(catalog: Catalog) -> App {
        let games = to_json(&json!([
            { "id": GAME_ID, "name": GAME_NAME, "type": "twoPlayer", "gui": "v3" }
        ]));
        let theme = image_autogui_data();
        let snapshot = Snapshot::new(catalog.variants, &theme);
        App {
            games,
            theme,
            current: RwLock::new(Arc::new(snapshot)),
        }
    }

    /// The variants served now. A request holds its snapshot to the end.
    fn snapshot(&self) -> Arc<Snapshot> {
        // The lock only guards a pointer swap: a poisoned one is still whole.
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The variants served now, in [`crate::catalog::VARIANTS`] order.
    pub fn served(&self) -> Vec<Served> {
        self.snapshot()
            .variants
            .iter()
            .map(|v| v.served.clone())
            .collect()
    }

    /// Serves `served` from now on (in [`crate::catalog::VARIANTS`] order)
    /// in place of the current variants. Requests already answering keep
    /// the databases they started with.
    pub fn replace(&self, served: Vec<Served>) {
        let snapshot = Arc::new(Snapshot::new(served, &self.theme));
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = snapshot;
    }

    /// Ids of the served variants, in order.
    pub fn variant_ids(&self) -> Vec<&'static str> {
        self.snapshot()
            .variants
            .iter()
            .map(|v| v.served.spec.id)
            .collect()
    }

    /// The answer to `GET path?query`.
    pub fn get(&self, path: &str, query: Option<&str>) -> Reply {
        // One trailing slash is optional: GamesmanUni asks for `topitop/`,
        // people type `topitop`.
        let trimmed = path.strip_prefix('/').unwrap_or(path);
        let segments: Vec<&str> = if trimmed.is_empty() {
            Vec::new()
        } else {
            trimmed.strip_suffix('/').unwrap_or(trimmed).split('/').collect()
        };
        if segments.contains(&"") {
            return not_found(path);
        }
        match segments[..] {
            [] => Reply::ok(self.games.clone()),
            [game, ..] if game != GAME_ID => Reply::error(
                StatusCode::NOT_FOUND,
                format!("Invalid Game: no game {game:?} here; this server has {GAME_ID:?}"),
            ),
            [_] => Reply::ok(self.snapshot().game.clone()),
            [_, variant, ref rest @ ..] => match self.snapshot().variant(variant) {
                Err(reply) => reply,
                Ok(v) => match rest {
                    [] => Reply::ok(v.object.clone()),
                    ["positions"] => position(&v.served, param(query, "p")),
                    ["instructions"] => {
                        let locale = param(query, "locale").unwrap_or_else(|| "en-US".into());
                        let md = instructions(v.served.rules.ruleset(), &locale);
                        Reply::ok(to_json(&json!({ "instructions": md })))
                    }
                    _ => not_found(path),
                },
            },
        }
    }
}

/// The 404 answer for a path no route matches.
pub fn not_found(path: &str) -> Reply {
    Reply::error(
        StatusCode::NOT_FOUND,
        format!("no route {path:?}; try / for the games list"),
    )
}

/// The first value of `name` in a query string, percent-decoded (GamesmanUni
/// inserts positions without encoding them, others may encode).
fn param(query: Option<&str>, name: &str) -> Option<String> {
    form_urlencoded::parse(query?.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

/// Route 4: the position object of `p`, or why there is none.
fn position(v: &Served, p: Option<String>) -> Reply {
    let Some(p) = p else {
        return Reply::error(
            StatusCode::BAD_REQUEST,
            "Invalid Position: missing query parameter p (e.g. ?p=1_---------)",
        );
    };
    let pos = match parse_position(&p, v.rules.budget()) {
        Ok(pos) => pos,
        Err(e) => return Reply::error(StatusCode::BAD_REQUEST, format!("Invalid Position: {e}")),
    };
    // GamesmanUni has no terminal draw: a game over without a winner is
    // served as the tie it is (see the README).
    match respond_as(&v.db, v.rules, pos, GameOver::DrawIsTie) {
        Ok(r) => Reply::ok(to_json(&r)),
        Err(DbError::NotIndexable(_)) => Reply::error(
            StatusCode::BAD_REQUEST,
            format!("Invalid Position: {p:?} is not a position of {}", v.spec.name),
        ),
        Err(e) => {
            // The details name server files: they go to the log only.
            tracing::error!(position = %p, error = %e, "database read failed");
            Reply::error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "database error: the records of this position cannot be read (details in the server log)",
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value as Json;
    use topitop_db::{write, WriteOptions};
    use topitop_game::{Budget, Rules, Ruleset};
    use topitop_solver::{solve, SolveOptions};

    use super::*;
    use crate::catalog::VARIANTS;
    use crate::response::respond;

    const BUDGET: &str = "1/1/2/2";

    /// An app serving the tiny-budget databases of option 0 and v0, solved
    /// and written into `dir`.
    fn app(dir: &std::path::Path) -> App {
        let budget: Budget = BUDGET.parse().unwrap();
        for ruleset in [Ruleset::V1(topitop_game::Variant::DEFAULT), Ruleset::V0] {
            let rules = Rules::with_budget(ruleset, budget);
            let solution = solve(rules, SolveOptions::default(), |_| {});
            let path = topitop_db::path_in(dir, rules);
            write(&path, &solution, &WriteOptions::default(), |_, _| {}).unwrap();
        }
        App::new(Catalog::open(dir, budget).unwrap())
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
        let rules = Rules::with_budget(Ruleset::V1(topitop_game::Variant::DEFAULT), budget);
        let db = topitop_db::Database::open(topitop_db::path_in(dir.path(), rules)).unwrap();
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
    fn replaced_variants_are_served_from_the_next_request() {
        let dir = tempfile::tempdir().unwrap();
        let app = app(dir.path());
        let before = app.snapshot();
        let mut served = app.served();
        let v0 = served.pop().unwrap();
        app.replace(vec![v0]);
        let (_, game) = get(&app, "/topitop/", None);
        assert_eq!(game["variants"][0]["id"], "v0");
        assert_eq!(game["variants"].as_array().unwrap().len(), 1);
        error_of(&app, "/topitop/regular/", None, StatusCode::NOT_FOUND);
        // A request that began before still has everything it started with.
        assert!(before.variant("regular").is_ok());
        app.replace(served);
        assert_eq!(app.variant_ids(), ["regular"]);
    }
}
