//! GamesmanUni's routes over the served games: each request path and
//! query maps to a status and a JSON body. No I/O here beyond database
//! reads, and no game named: every variant is a [`ServedVariant`].
//!
//! The served variants can be replaced while the server runs
//! ([`App::replace`], which [`crate::catalog`] calls as files change): each request takes the
//! current set once and answers from it alone, so a replacement never
//! shows half.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, PoisonError, RwLock};

use bytes::Bytes;
use hyper::StatusCode;
use serde::Serialize;
use serde_json::json;

use crate::page;
use crate::variant::{PositionError, ServedGame, ServedVariant};

/// An answer: its status, body and content type (JSON but for the
/// browser page's files).
#[derive(Clone, Debug)]
pub struct Reply {
    /// The HTTP status.
    pub status: StatusCode,
    /// The body.
    pub body: Bytes,
    /// Its media type.
    pub content_type: &'static str,
}

impl Reply {
    /// A 200 answer of JSON `body`.
    pub fn ok(body: Bytes) -> Reply {
        Reply {
            status: StatusCode::OK,
            body,
            content_type: JSON,
        }
    }

    /// `{"error": message}` with `status`, as GamesmanUni recognises a failure.
    pub fn error(status: StatusCode, message: impl Into<String>) -> Reply {
        Reply {
            status,
            body: to_json(&json!({ "error": message.into() })),
            content_type: JSON,
        }
    }
}

/// The media type of every answer but the page's files.
pub const JSON: &str = "application/json";

fn to_json(v: &impl Serialize) -> Bytes {
    // A position object with its moves is 2-8 kB: one allocation mostly.
    let mut out = Vec::with_capacity(8 << 10);
    // Serialising our own maps and structs of strings and numbers cannot fail.
    match serde_json::to_writer(&mut out, v) {
        Ok(()) => Bytes::from(out),
        Err(_) => Bytes::from_static(b"{\"error\":\"serialisation\"}"),
    }
}

/// A served variant with its fixed answer prepared.
#[derive(Clone)]
struct Variant {
    served: Arc<dyn ServedVariant>,
    /// Route 3, the variant object.
    object: Bytes,
}

impl Variant {
    fn new(served: Arc<dyn ServedVariant>) -> Variant {
        let object = to_json(&json!({
            "id": served.id(),
            "name": served.name(),
            "gui": "v3",
            "startPosition": served.start(),
            "autoguiStartPosition": served.autogui_start(),
            "imageAutoGUIData": served.image_autogui_data(),
        }));
        Variant { served, object }
    }
}

/// A game with its served variants and fixed answers.
#[derive(Clone)]
struct Game {
    id: String,
    name: String,
    /// Route 2, the game object.
    object: Bytes,
    variants: Vec<Variant>,
}

impl Game {
    fn new(id: String, name: String, variants: Vec<Variant>) -> Game {
        let listed: Vec<_> = variants
            .iter()
            .map(|v| json!({ "id": v.served.id(), "name": v.served.name(), "gui": "v3" }))
            .collect();
        let object = to_json(&json!({
            "id": id,
            "name": name,
            "variants": listed,
            "allowCustomVariantCreation": false,
            "supportsWinBy": false,
        }));
        Game {
            id,
            name,
            object,
            variants,
        }
    }

    fn variant(&self, id: &str) -> Result<&Variant, Reply> {
        self.variants.iter().find(|v| v.served.id() == id).ok_or_else(|| {
            let ids: Vec<&str> = self.variants.iter().map(|v| v.served.id()).collect();
            Reply::error(
                StatusCode::NOT_FOUND,
                format!(
                    "Invalid Variant: {} has no variant {id:?} on this server; it serves {}",
                    self.id,
                    ids.join(", ")
                ),
            )
        })
    }
}

/// Every game and the answers that depend on them: a game without a
/// served variant is kept (a database may appear) but not listed.
struct Snapshot {
    /// Route 1, the games list.
    list: Bytes,
    games: Vec<Game>,
}

impl Snapshot {
    fn new(games: Vec<Game>) -> Snapshot {
        let listed: Vec<_> = games
            .iter()
            .filter(|g| !g.variants.is_empty())
            .map(|g| json!({ "id": g.id, "name": g.name, "type": "twoPlayer", "gui": "v3" }))
            .collect();
        Snapshot {
            list: to_json(&listed),
            games,
        }
    }

    fn game(&self, id: &str) -> Result<&Game, Reply> {
        let listed = || self.games.iter().filter(|g| !g.variants.is_empty());
        listed().find(|g| g.id == id).ok_or_else(|| {
            let ids: Vec<String> = listed().map(|g| format!("{:?}", g.id)).collect();
            let has = if ids.is_empty() {
                "no game at all (no database in its folder)".to_string()
            } else {
                ids.join(", ")
            };
            Reply::error(
                StatusCode::NOT_FOUND,
                format!("Invalid Game: no game {id:?} here; this server has {has}"),
            )
        })
    }
}

/// The application: the served games and their variants.
pub struct App {
    current: RwLock<Arc<Snapshot>>,
    /// Tools' pages under `/ui/<name>/`.
    pages: Vec<Arc<dyn crate::extra::Pages>>,
}

impl App {
    /// Prepares the answers for `games`, in the order they are listed.
    pub fn new(games: Vec<ServedGame>) -> App {
        let games = games
            .into_iter()
            .map(|g| Game::new(g.id, g.name, g.variants.into_iter().map(Variant::new).collect()))
            .collect();
        App {
            current: RwLock::new(Arc::new(Snapshot::new(games))),
            pages: Vec::new(),
        }
    }

    /// Also answers `pages`' routes, each under `/ui/<its name>/`.
    #[must_use]
    pub fn with_pages(mut self, pages: Vec<Arc<dyn crate::extra::Pages>>) -> App {
        self.pages = pages;
        self
    }

    /// The games served now. A request holds its snapshot to the end.
    fn snapshot(&self) -> Arc<Snapshot> {
        // The lock only guards a pointer swap: a poisoned one is still whole.
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Serves `variants` of the game `game` from now on in place of its
    /// current ones (a game not served before is added last). Requests
    /// already answering keep the databases they started with.
    pub fn replace(&self, game: &str, name: &str, variants: Vec<Arc<dyn ServedVariant>>) {
        let variants: Vec<Variant> = variants.into_iter().map(Variant::new).collect();
        let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
        let mut games = current.games.clone();
        match games.iter_mut().find(|g| g.id == game) {
            Some(g) => *g = Game::new(g.id.clone(), g.name.clone(), variants),
            None => games.push(Game::new(game.into(), name.into(), variants)),
        }
        *current = Arc::new(Snapshot::new(games));
    }

    /// Ids of the served variants of `game`, in order.
    pub fn variant_ids(&self, game: &str) -> Vec<String> {
        self.snapshot()
            .games
            .iter()
            .filter(|g| g.id == game)
            .flat_map(|g| g.variants.iter().map(|v| v.served.id().to_string()))
            .collect()
    }

    /// Every served variant as `game/variant`, in order.
    pub fn served(&self) -> Vec<String> {
        self.snapshot()
            .games
            .iter()
            .flat_map(|g| {
                g.variants
                    .iter()
                    .map(move |v| format!("{}/{}", g.id, v.served.id()))
            })
            .collect()
    }

    /// True when the answer to `GET path` may take long: a position of
    /// a variant answered by search.
    pub fn answers_slowly(&self, path: &str) -> bool {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let (game, variant) = match segments[..] {
            [game, variant, "positions"] => (game, variant),
            [page::PREFIX, "position", game, variant] => (game, variant),
            _ => return false,
        };
        let snapshot = self.snapshot();
        snapshot
            .game(game)
            .and_then(|g| g.variant(variant).map(|v| v.served.answers_slowly()))
            .unwrap_or(false)
    }

    /// The answer to `GET path?query`.
    pub fn get(&self, path: &str, query: Option<&str>) -> Reply {
        self.get_until(path, query, &AtomicBool::new(false))
    }

    /// [`App::get`], giving up a search once `stop` is set (the answer is
    /// then for nobody).
    pub fn get_until(&self, path: &str, query: Option<&str>, stop: &AtomicBool) -> Reply {
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
        let snapshot = self.snapshot();
        if segments == ["favicon.ico"] {
            return page_route(&snapshot, path, &["icon.svg"], query, stop);
        }
        if segments.first() == Some(&page::PREFIX) {
            if let Some(p) = segments
                .get(1)
                .and_then(|n| self.pages.iter().find(|p| p.name() == *n))
            {
                return p.get(&segments[2..], query);
            }
            if segments[1..] == ["tools"] {
                let list: Vec<serde_json::Value> = self
                    .pages
                    .iter()
                    .map(|p| json!({"name": p.name(), "title": p.title(), "url": format!("/{}/{}/", page::PREFIX, p.name())}))
                    .collect();
                return Reply::ok(to_json(&list));
            }
            return page_route(&snapshot, path, &segments[1..], query, stop);
        }
        let [game, ref rest @ ..] = segments[..] else {
            return Reply::ok(snapshot.list.clone());
        };
        let game = match snapshot.game(game) {
            Ok(g) => g,
            Err(reply) => return reply,
        };
        let [variant, ref rest @ ..] = rest[..] else {
            return Reply::ok(game.object.clone());
        };
        let v = match game.variant(variant) {
            Ok(v) => v,
            Err(reply) => return reply,
        };
        match rest {
            [] => Reply::ok(v.object.clone()),
            ["positions"] => position(v.served.as_ref(), param(query, "p"), stop),
            ["instructions"] => {
                let locale = param(query, "locale").unwrap_or_else(|| "en-US".into());
                let md = v.served.instructions(&locale);
                Reply::ok(to_json(&json!({ "instructions": md })))
            }
            _ => not_found(path),
        }
    }
}

/// The browser page's routes, under `/ui/`.
fn page_route(
    snapshot: &Snapshot,
    path: &str,
    rest: &[&str],
    query: Option<&str>,
    stop: &AtomicBool,
) -> Reply {
    let variant = |game: &str, variant: &str| -> Result<Arc<dyn ServedVariant>, Reply> {
        Ok(snapshot.game(game)?.variant(variant)?.served.clone())
    };
    match rest {
        ["board", game, id] => match variant(game, id) {
            Ok(v) => Reply::ok(to_json(&page::board(v.as_ref()))),
            Err(reply) => reply,
        },
        ["position", game, id] => match variant(game, id) {
            Ok(v) => match position_object(v.as_ref(), param(query, "p"), stop) {
                Ok((p, object)) => {
                    /// GamesmanUni's position object, the player to move and
                    /// whether games come to the position.
                    #[derive(Serialize)]
                    struct WithTurn<'a> {
                        #[serde(flatten)]
                        object: &'a crate::response::PositionResponse,
                        turn: Option<&'static str>,
                        reachable: Option<bool>,
                        #[serde(flatten)]
                        notes: crate::variant::Notes,
                    }
                    Reply::ok(to_json(&WithTurn {
                        object: &object,
                        turn: v.turn(&p),
                        reachable: v.reachable(&p),
                        notes: v.notes(&p),
                    }))
                }
                Err(reply) => reply,
            },
            Err(reply) => reply,
        },
        [] | [_] => match page::asset(rest.first().copied().unwrap_or("")) {
            Some((content_type, body)) => Reply {
                status: StatusCode::OK,
                body,
                content_type,
            },
            None => not_found(path),
        },
        _ => not_found(path),
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
fn position(v: &dyn ServedVariant, p: Option<String>, stop: &AtomicBool) -> Reply {
    match position_object(v, p, stop) {
        Ok((_, r)) => Reply::ok(to_json(&r)),
        Err(reply) => reply,
    }
}

/// The position string `p` and its position object, or the error answer:
/// what route 4 and the page's position route share.
fn position_object(
    v: &dyn ServedVariant,
    p: Option<String>,
    stop: &AtomicBool,
) -> Result<(String, crate::response::PositionResponse), Reply> {
    let Some(p) = p else {
        return Err(Reply::error(
            StatusCode::BAD_REQUEST,
            format!(
                "Invalid Position: missing query parameter p (e.g. ?p={})",
                v.start()
            ),
        ));
    };
    match v.position_until(&p, stop) {
        Ok(r) => Ok((p, r)),
        Err(PositionError::Invalid(why)) => Err(Reply::error(
            StatusCode::BAD_REQUEST,
            format!("Invalid Position: {why}"),
        )),
        Err(PositionError::Database(e)) => {
            // The details name server files: they go to the log only.
            tracing::error!(position = %p, error = %e, "database read failed");
            Err(Reply::error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "database error: the records of this position cannot be read (details in the server log)",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value as Json;

    use super::*;
    use crate::response::PositionResponse;

    /// A variant answering one position, `s`; `broken` stands for a
    /// damaged database.
    struct Fake(&'static str);

    impl ServedVariant for Fake {
        fn id(&self) -> &str {
            self.0
        }
        fn name(&self) -> &str {
            "Fake"
        }
        fn start(&self) -> String {
            "s".into()
        }
        fn autogui_start(&self) -> String {
            "1_s".into()
        }
        fn image_autogui_data(&self) -> serde_json::Value {
            serde_json::Value::Null
        }
        fn instructions(&self, locale: &str) -> String {
            format!("rules in {locale}")
        }
        fn position(&self, p: &str) -> Result<PositionResponse, PositionError> {
            match p {
                "s" => Ok(PositionResponse {
                    position: "s".into(),
                    autogui_position: "1_s".into(),
                    position_value: "win",
                    remoteness: 1,
                    moves: Vec::new(),
                    estimated: None,
                    draw: None,
                }),
                "broken" => Err(PositionError::Database("disk".into())),
                _ => Err(PositionError::Invalid(format!("{p:?} is no position"))),
            }
        }
        fn turn(&self, p: &str) -> Option<&'static str> {
            (p == "s").then_some("first player")
        }
        fn reachable(&self, p: &str) -> Option<bool> {
            (p == "s").then_some(false)
        }
    }

    fn game(id: &str, variants: &[&'static str]) -> ServedGame {
        ServedGame {
            id: id.into(),
            name: id.to_uppercase(),
            variants: variants
                .iter()
                .map(|&v| Arc::new(Fake(v)) as Arc<dyn ServedVariant>)
                .collect(),
        }
    }

    fn get(app: &App, path: &str, query: Option<&str>) -> (StatusCode, Json) {
        let reply = app.get(path, query);
        (reply.status, serde_json::from_slice(&reply.body).unwrap())
    }

    fn error_of(app: &App, path: &str, query: Option<&str>, status: StatusCode) -> String {
        let (got, body) = get(app, path, query);
        assert_eq!(got, status, "{path}?{query:?}: {body}");
        body["error"].as_str().unwrap().to_string()
    }

    #[test]
    fn every_route_answers_from_its_variant() {
        let app = App::new(vec![
            game("one", &[]),
            game("two", &["a", "b"]),
            game("three", &["c"]),
        ]);
        let (_, list) = get(&app, "/", None);
        assert_eq!(
            list,
            serde_json::json!([
                {"id": "two", "name": "TWO", "type": "twoPlayer", "gui": "v3"},
                {"id": "three", "name": "THREE", "type": "twoPlayer", "gui": "v3"},
            ]),
            "a game without a variant is not listed"
        );
        for path in ["/two", "/two/"] {
            let (status, g) = get(&app, path, None);
            assert_eq!(status, StatusCode::OK);
            assert_eq!(g["variants"][1]["id"], "b");
            assert_eq!(g["supportsWinBy"], false);
        }
        let (_, v) = get(&app, "/two/b/", None);
        assert_eq!(v["startPosition"], "s");
        assert_eq!(v["autoguiStartPosition"], "1_s");
        assert_eq!(v["imageAutoGUIData"], Json::Null);
        let (_, p) = get(&app, "/three/c/positions/", Some("p=s"));
        assert_eq!(p["positionValue"], "win");
        let (_, text) = get(&app, "/two/a/instructions", Some("locale=fr"));
        assert_eq!(text["instructions"], "rules in fr");
        let (_, text) = get(&app, "/two/a/instructions", None);
        assert_eq!(text["instructions"], "rules in en-US");
    }

    #[test]
    fn the_page_and_its_answers_are_under_ui() {
        let app = App::new(vec![game("two", &["a", "b"])]);
        for (path, kind) in [
            ("/ui/", "text/html"),
            ("/ui", "text/html"),
            ("/ui/page.js", "text/javascript"),
            ("/ui/rules.js", "text/javascript"),
            ("/ui/study.js", "text/javascript"),
            ("/ui/tree.js", "text/javascript"),
            ("/ui/page.css", "text/css"),
            ("/ui/icon.svg", "image/svg+xml"),
            ("/favicon.ico", "image/svg+xml"),
        ] {
            let reply = app.get(path, None);
            assert_eq!(reply.status, StatusCode::OK, "{path}");
            assert!(
                reply.content_type.starts_with(kind),
                "{path}: {}",
                reply.content_type
            );
            assert!(!reply.body.is_empty());
        }
        let page = app.get("/ui/", None);
        let html = std::str::from_utf8(&page.body).unwrap();
        // Offline: every file the page loads is the server's own.
        assert!(html.contains("/ui/page.js") && !html.contains("http"), "{html}");
        let (_, board) = get(&app, "/ui/board/two/b", None);
        assert_eq!(
            board["players"],
            serde_json::json!(["first player", "second player"])
        );
        assert_eq!(board["pieces"], serde_json::json!({}));
        // The position object, byte for byte GamesmanUni's, with the turn.
        let (status, p) = get(&app, "/ui/position/two/a", Some("p=s"));
        assert_eq!(status, StatusCode::OK);
        let (_, uni) = get(&app, "/two/a/positions", Some("p=s"));
        let mut with_turn = uni.clone();
        with_turn["turn"] = "first player".into();
        with_turn["reachable"] = false.into();
        // A game that says nothing of a position has no ending and no facts.
        with_turn["ending"] = serde_json::Value::Null;
        with_turn["facts"] = serde_json::json!([]);
        assert_eq!(p, with_turn);
        let e = error_of(&app, "/ui/position/two/a", Some("p=t"), StatusCode::BAD_REQUEST);
        assert!(e.contains("no position"), "{e}");
        error_of(&app, "/ui/board/two/zz", None, StatusCode::NOT_FOUND);
        error_of(&app, "/ui/nothing", None, StatusCode::NOT_FOUND);
        assert_eq!(app.get("/two/a/positions", Some("p=s")).content_type, JSON);
    }

    #[test]
    fn bad_requests_get_error_objects() {
        let app = App::new(vec![game("one", &[]), game("two", &["a", "b"])]);
        let e = error_of(&app, "/one/", None, StatusCode::NOT_FOUND);
        assert_eq!(e, "Invalid Game: no game \"one\" here; this server has \"two\"");
        // A server with no game at all says so, not "this server has ".
        let empty = App::new(vec![game("one", &[])]);
        let e = error_of(&empty, "/one/", None, StatusCode::NOT_FOUND);
        assert!(
            e.ends_with("this server has no game at all (no database in its folder)"),
            "{e}"
        );
        let e = error_of(&app, "/two/c/", None, StatusCode::NOT_FOUND);
        assert_eq!(
            e,
            "Invalid Variant: two has no variant \"c\" on this server; it serves a, b"
        );
        let e = error_of(&app, "/two/a/nothing/", None, StatusCode::NOT_FOUND);
        assert!(e.contains("no route"), "{e}");
        error_of(&app, "/two//", None, StatusCode::NOT_FOUND);
        let e = error_of(&app, "/two/a/positions/", None, StatusCode::BAD_REQUEST);
        assert_eq!(e, "Invalid Position: missing query parameter p (e.g. ?p=s)");
        let e = error_of(&app, "/two/a/positions/", Some("p=t"), StatusCode::BAD_REQUEST);
        assert_eq!(e, "Invalid Position: \"t\" is no position");
        let e = error_of(
            &app,
            "/two/a/positions/",
            Some("p=broken"),
            StatusCode::INTERNAL_SERVER_ERROR,
        );
        assert!(!e.contains("disk"), "the details stay in the log: {e}");
    }

    #[test]
    fn replaced_variants_are_served_from_the_next_request() {
        let app = App::new(vec![game("one", &[]), game("two", &["a", "b"])]);
        let before = app.snapshot();
        app.replace("two", "TWO", vec![Arc::new(Fake("b"))]);
        assert_eq!(app.variant_ids("two"), ["b"]);
        error_of(&app, "/two/a/", None, StatusCode::NOT_FOUND);
        // A request that began before still has everything it started with.
        assert!(before.game("two").unwrap().variant("a").is_ok());
        // A game gains its first variant: listed from then on, in its place.
        app.replace("one", "ONE", vec![Arc::new(Fake("z"))]);
        let (_, list) = get(&app, "/", None);
        assert_eq!(list[0]["id"], "one");
        assert_eq!(app.served(), ["one/z", "two/b"]);
        app.replace("new", "NEW", vec![Arc::new(Fake("n"))]);
        assert_eq!(app.served(), ["one/z", "two/b", "new/n"]);
    }
}
