//! GamesmanUni's routes over the catalog: each request path and query maps
//! to a status and a JSON body. No I/O here beyond database reads.

use bytes::Bytes;
use hyper::StatusCode;
use serde::Serialize;
use serde_json::json;
use topitop_db::DbError;
use topitop_game::{autogui_position, parse_position};

use crate::catalog::{Catalog, Served, GAME_ID, GAME_NAME};
use crate::instructions::instructions;
use crate::response::respond;
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

/// The application: the catalog and the answers that never change.
pub struct App {
    /// Route 1, the games list.
    games: Bytes,
    /// Route 2, the game object.
    game: Bytes,
    variants: Vec<Variant>,
}

impl App {
    /// Prepares the fixed answers of `catalog`.
    pub fn new(catalog: Catalog) -> App {
        let games = to_json(&json!([
            { "id": GAME_ID, "name": GAME_NAME, "type": "twoPlayer", "gui": "v3" }
        ]));
        let listed: Vec<_> = catalog
            .variants
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
        let theme = image_autogui_data();
        let variants = catalog
            .variants
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
        App {
            games,
            game,
            variants,
        }
    }

    /// Ids of the served variants, in order.
    pub fn variant_ids(&self) -> Vec<&'static str> {
        self.variants.iter().map(|v| v.served.spec.id).collect()
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
            [_] => Reply::ok(self.game.clone()),
            [_, variant, ref rest @ ..] => match self.variant(variant) {
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

    fn variant(&self, id: &str) -> Result<&Variant, Reply> {
        self.variants
            .iter()
            .find(|v| v.served.spec.id == id)
            .ok_or_else(|| {
                Reply::error(
                    StatusCode::NOT_FOUND,
                    format!(
                        "Invalid Variant: {GAME_ID} has no variant {id:?} on this server; it serves {}",
                        self.variant_ids().join(", ")
                    ),
                )
            })
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
    match respond(&v.db, v.rules, pos) {
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
