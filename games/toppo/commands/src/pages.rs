//! Toppo against bots in the browser, under `/ui/toppo/` of `topitop
//! serve`: the page (embedded, offline) and its game, kept by the server.
//!
//! A game is a [`Table`] with the person in seat 0 and bots in the others.
//! The server keeps no clock of its own: every request carries `t`, the
//! page's milliseconds since the game began, the bots are played up to
//! then, and the person's action (if any) is applied at `t`. The page asks
//! for the state ten times a second, so the bots play in real time.
//!
//! Routes: `new?bots=1..3&line=3..5&speed=0.1..5&seed=S&starter=P` (a new
//! game; speed 1 is bots reacting in [`BOT_REACT_MS`], as a person does;
//! `starter` the seat that starts), `state?id=I&t=MS`, and
//! `act?id=I&t=MS&action=reveal|top|match|renew|toppo` (with `order=2,0,1`
//! for a top: for each display place, the line card put on it; `line=J&
//! place=P` for a match). Each answers the game's state as JSON.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use bytes::Bytes;
use games_toppo::sim::{Bot, Table};
use games_toppo::{Action, Event, Rules, Timed};
use serde_json::json;
use topitop_serve::extra::Pages;
use topitop_serve::routes::{Reply, JSON};
use topitop_serve::StatusCode;

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/toppo.js");
const STYLE: &str = include_str!("page/toppo.css");

/// Games kept at once. When all places are taken a new game takes the
/// place of one left alone for [`ABANDONED`], else it is refused: a client
/// asking for games must not end those being played.
const MAX_GAMES: usize = 64;
/// A game no request has touched for this long is dropped.
const IDLE: Duration = Duration::from_secs(3600);
/// A game untouched this long may give its place to a new one: an open
/// page asks for the state ten times a second, and a browser slows a tab
/// in the background to once a minute at most.
const ABANDONED: Duration = Duration::from_secs(120);
/// The latest a request's time may be: a day.
const MAX_T: u64 = 86_400_000;

/// The names of the seats.
const NAMES: [&str; 4] = ["You", "Bot 1", "Bot 2", "Bot 3"];

/// The first bot's mean reaction at speed 1, in milliseconds: the time to
/// take in a full line of cards and act on it, no faster than a person
/// (docs/toppo.md#how-fast-the-bots-are). Each further bot takes
/// a quarter second more.
pub const BOT_REACT_MS: f64 = 1500.0;
/// How much slower each bot after the first reacts.
const BOT_STEP_MS: f64 = 250.0;
/// A bot's time to turn a card up at speed 1: mean and deviation.
const BOT_REVEAL_MS: (f64, f64) = (400.0, 80.0);
/// How soon after another player changed the game (a top, a match, a
/// penalty that interrupts, a new display) a person's action is taken as
/// made before they could see the change: an action that would then be
/// penalised is refused instead, and the page says why. A person answers
/// what they see no sooner than a reaction time (about a quarter second),
/// and the page shows a change up to a tenth of a second late (it asks
/// ten times a second).
pub const GRACE_MS: u64 = 500;

struct Session {
    table: Table,
    /// What happened, in words: (number, time, kind, text).
    log: Vec<(usize, u64, &'static str, String)>,
    touched: Instant,
    /// The latest time played to.
    t: u64,
    /// When another player last changed the game, and the change in words
    /// (see [`GRACE_MS`]).
    changed: Option<(u64, String)>,
}

/// Toppo's pages and the games being played on them.
pub struct ToppoPages {
    games: Mutex<HashMap<u64, Session>>,
    next: AtomicU64,
    /// Mixed into each game's number, so that no client can name (and
    /// play in) another's game by counting.
    ids: std::collections::hash_map::RandomState,
    /// [`ABANDONED`], shorter in tests.
    abandoned: Duration,
}

impl Default for ToppoPages {
    fn default() -> ToppoPages {
        ToppoPages {
            games: Mutex::default(),
            next: AtomicU64::new(0),
            ids: std::collections::hash_map::RandomState::new(),
            abandoned: ABANDONED,
        }
    }
}

fn param(query: Option<&str>, key: &str) -> Option<String> {
    query?.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        (k == key).then(|| v.replace("%2C", ",").replace("%2c", ","))
    })
}

fn bad(message: impl Into<String>) -> Reply {
    Reply::error(StatusCode::BAD_REQUEST, message)
}

fn number<T: std::str::FromStr>(query: Option<&str>, key: &str) -> Result<Option<T>, Reply> {
    match param(query, key) {
        None => Ok(None),
        Some(v) => v
            .parse()
            .map(Some)
            .map_err(|_| bad(format!("{key}={v}: not a number"))),
    }
}

/// Every set-up the page's form offers, bots 1 to 3 and lines of 3 to 5
/// cards, with whether the rules allow it and, if not, why: the form
/// disables what `new` would refuse.
fn setups() -> serde_json::Value {
    let mut out = Vec::new();
    for bots in 1..=3usize {
        for line in 3..=5usize {
            let why = Rules::standard(bots + 1, line).err().map(|e| e.to_string());
            out.push(serde_json::json!({ "bots": bots, "line": line, "ok": why.is_none(), "why": why }));
        }
    }
    serde_json::Value::Array(out)
}

/// An event in words, for the page to say.
fn say(e: &Event) -> Option<(&'static str, String)> {
    let name = |p: usize| NAMES.get(p).copied().unwrap_or("a player");
    Some(match e {
        Event::Top { player } => (
            "top",
            format!("{} shouted top and topped the display", name(*player)),
        ),
        Event::Match { player, card } => ("match", format!("{} matched {card}", name(*player))),
        Event::Penalty {
            player,
            reason,
            cards,
        } => (
            "penalty",
            format!("Penalty for {}: {reason} (+{cards} cards)", name(*player)),
        ),
        Event::Replaced => (
            "replaced",
            "A minute without a top: the display is replaced".into(),
        ),
        Event::Recycled { cards } => (
            "recycled",
            format!("The stack ran out: {cards} covered display cards make a new one"),
        ),
        Event::Toppo { player } => (
            "toppo",
            format!("{} called toppo: the game is over", name(*player)),
        ),
        // Only a person's refused action is worth saying.
        Event::Ignored { player: 0, reason } => ("ignored", format!("Not now: {reason}")),
        Event::Ignored { .. } => return None,
    })
}

/// Whether `e`, another player's doing or the table's, changes what the
/// person's next action is judged on: the display, or whether play has
/// started.
fn changes_for_you(e: &Event) -> bool {
    match e {
        Event::Top { player } | Event::Match { player, .. } | Event::Penalty { player, .. } => *player != 0,
        Event::Replaced | Event::Recycled { .. } => true,
        Event::Toppo { .. } | Event::Ignored { .. } => false,
    }
}

impl Session {
    fn note(&mut self, at: u64, events: Vec<Event>) {
        for e in events {
            if changes_for_you(&e) {
                self.changed = say(&e).map(|(_, text)| (at, text));
            }
            if let Some((kind, text)) = say(&e) {
                let n = self.log.len();
                self.log.push((n, at, kind, text));
            }
        }
    }

    /// Plays the bots up to `t` (never back in time).
    fn advance(&mut self, t: u64) {
        let t = t.max(self.t);
        let events = self.table.run_until(t, None);
        self.note(t, events);
        self.t = t;
    }

    fn state(&self, id: u64) -> serde_json::Value {
        let g = self.table.game();
        let players: Vec<serde_json::Value> = g
            .hands()
            .iter()
            .enumerate()
            .map(|(k, h)| {
                json!({
                    "name": NAMES.get(k).copied().unwrap_or("?"),
                    "cards": h.cards(),
                    "deck": h.deck.len(),
                    "line": h.line.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    "matched": h.matched,
                })
            })
            .collect();
        json!({
            "id": id.to_string(),
            "t": self.t,
            "line": g.rules().line,
            "display": g.display().iter().map(ToString::to_string).collect::<Vec<_>>(),
            "stack": g.stack(),
            "starter": g.starter(),
            "started": g.started(),
            "toppoBelow": g.rules().toppo_below,
            "players": players,
            "over": g.is_over(),
            "points": g.points(),
            "events": self.log.iter().map(|(n, at, kind, text)| json!({"n": n, "at": at, "kind": kind, "text": text})).collect::<Vec<_>>(),
        })
    }
}

impl ToppoPages {
    fn new_game(&self, query: Option<&str>) -> Result<Reply, Reply> {
        let bots: usize = number(query, "bots")?.unwrap_or(1);
        let line: usize = number(query, "line")?.unwrap_or(3);
        let speed: f64 = number(query, "speed")?.unwrap_or(1.0);
        let starter: usize = number(query, "starter")?.unwrap_or(0);
        if !(1..=3).contains(&bots) {
            return Err(bad("bots=1, 2 or 3"));
        }
        if starter > bots {
            return Err(bad(format!("starter={starter}: a seat from 0 (you) to {bots}")));
        }
        if !(0.1..=5.0).contains(&speed) {
            return Err(bad("speed from 0.1 (slow bots) to 5 (fast)"));
        }
        let rules = Rules::standard(bots + 1, line).map_err(bad)?;
        let seed: u64 = match number(query, "seed")? {
            Some(s) => s,
            None => topitop_game_api::rng::Rng::clock_seed(),
        };
        // Bots a little apart, the first the quickest.
        let seats = std::iter::once(None)
            .chain((0..bots).map(|k| {
                let mut b = Bot::with_reaction((BOT_REACT_MS + BOT_STEP_MS * k as f64) / speed);
                b.reveal_ms = (BOT_REVEAL_MS.0 / speed, BOT_REVEAL_MS.1 / speed);
                Some(b)
            }))
            .collect();
        let table = Table::new(&rules, seats, seed, starter).map_err(bad)?;
        let opening = if starter == 0 {
            "A new game: you start. Reveal your first card.".to_string()
        } else {
            format!(
                "A new game: {} starts. Wait for its first card, then reveal yours.",
                NAMES[starter]
            )
        };
        let id = {
            use std::hash::BuildHasher;
            self.ids.hash_one(self.next.fetch_add(1, Ordering::Relaxed))
        };
        let session = Session {
            table,
            log: vec![(0, 0, "start", opening)],
            touched: Instant::now(),
            t: 0,
            changed: None,
        };
        let state = session.state(id);
        let mut games = self
            .games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        games.retain(|_, s| s.touched.elapsed() < IDLE);
        if games.len() >= MAX_GAMES {
            let oldest = games
                .iter()
                .min_by_key(|(_, s)| s.touched)
                .filter(|(_, s)| s.touched.elapsed() >= self.abandoned)
                .map(|(k, _)| *k);
            match oldest {
                Some(k) => {
                    games.remove(&k);
                }
                None => {
                    return Err(Reply::error(
                        StatusCode::SERVICE_UNAVAILABLE,
                        format!(
                            "all {MAX_GAMES} games this server keeps are being played; try again in {} minutes, when one left alone gives its place",
                            self.abandoned.as_secs().div_ceil(60).max(1)
                        ),
                    ))
                }
            }
        }
        games.insert(id, session);
        Ok(json_reply(&state))
    }

    fn with_game(&self, query: Option<&str>, act: bool) -> Result<Reply, Reply> {
        let id: u64 = number(query, "id")?.ok_or_else(|| bad("id= the game's id"))?;
        let t: u64 = number(query, "t")?.ok_or_else(|| bad("t= milliseconds since the game began"))?;
        if t > MAX_T {
            return Err(bad("t is more than a day"));
        }
        let mut games = self
            .games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let s = games
            .get_mut(&id)
            .ok_or_else(|| Reply::error(StatusCode::NOT_FOUND, format!("no game {id}: start a new one")))?;
        s.touched = Instant::now();
        s.advance(t);
        if act && !s.table.game().is_over() {
            let action = match param(query, "action").as_deref() {
                Some("reveal") => Action::Reveal,
                Some("renew") => Action::Renew,
                Some("toppo") => Action::Toppo,
                Some("top") => {
                    let order = param(query, "order").unwrap_or_default();
                    let order: Vec<usize> = order
                        .split(',')
                        .filter(|x| !x.is_empty())
                        .map(|x| {
                            x.parse()
                                .map_err(|_| bad(format!("order: {x:?} is not a number")))
                        })
                        .collect::<Result<_, _>>()?;
                    Action::Top { order }
                }
                Some("match") => Action::Match {
                    line: number(query, "line")?.ok_or_else(|| bad("line= the card of your line"))?,
                    place: number(query, "place")?.ok_or_else(|| bad("place= the display card"))?,
                },
                other => {
                    return Err(bad(format!(
                        "action={}: reveal, top, match, renew or toppo",
                        other.unwrap_or("")
                    )))
                }
            };
            let at = s.t;
            let timed = Timed {
                at,
                player: 0,
                action,
            };
            // Soon after another player's change, tried on a copy first:
            // an action that would be penalised then is one the person
            // could not have held back, and is refused instead.
            let soon = s
                .changed
                .as_ref()
                .map(|(when, what)| (at.saturating_sub(*when), what.clone()))
                .filter(|(since, _)| *since < GRACE_MS);
            match soon {
                Some((since, what)) => {
                    let mut tried = s.table.clone();
                    let events = tried.act(&timed);
                    if events
                        .iter()
                        .any(|e| matches!(e, Event::Penalty { player: 0, .. }))
                    {
                        let text = format!(
                            "No penalty: {what} {since} ms before, too soon for anyone to see; look again"
                        );
                        let n = s.log.len();
                        s.log.push((n, at, "ignored", text));
                    } else {
                        s.table = tried;
                        s.note(at, events);
                    }
                }
                None => {
                    let events = s.table.act(&timed);
                    s.note(at, events);
                }
            }
        }
        Ok(json_reply(&s.state(id)))
    }
}

fn json_reply(v: &serde_json::Value) -> Reply {
    Reply {
        status: StatusCode::OK,
        body: Bytes::from(v.to_string()),
        content_type: JSON,
    }
}

fn asset(content_type: &'static str, text: &'static str) -> Reply {
    Reply {
        status: StatusCode::OK,
        body: Bytes::from_static(text.as_bytes()),
        content_type,
    }
}

impl Pages for ToppoPages {
    fn name(&self) -> &'static str {
        "toppo"
    }

    fn title(&self) -> &'static str {
        "Toppo: play against bots"
    }

    fn get(&self, rest: &[&str], query: Option<&str>) -> Reply {
        let r = match rest {
            [] => Ok(asset("text/html; charset=utf-8", INDEX)),
            ["toppo.js"] => Ok(asset("text/javascript; charset=utf-8", SCRIPT)),
            ["toppo.css"] => Ok(asset("text/css; charset=utf-8", STYLE)),
            ["new"] => self.new_game(query),
            ["setups"] => Ok(json_reply(&setups())),
            ["state"] => self.with_game(query, false),
            ["act"] => self.with_game(query, true),
            _ => Err(Reply::error(
                StatusCode::NOT_FOUND,
                "not a Toppo route: /ui/toppo/, new, state, act",
            )),
        };
        r.unwrap_or_else(|e| e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(p: &ToppoPages, path: &[&str], query: &str) -> (StatusCode, serde_json::Value) {
        let r = p.get(path, Some(query));
        (r.status, serde_json::from_slice(&r.body).unwrap_or_default())
    }

    /// The log's texts since `from`.
    fn said(v: &serde_json::Value, from: usize) -> Vec<String> {
        v["events"].as_array().unwrap()[from..]
            .iter()
            .map(|e| e["text"].as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn an_action_too_soon_after_a_bot_s_top_is_not_penalised_one_later_is() {
        let p = ToppoPages::default();
        // A slow bot that starts: it reacts in 15 s, so play stays stopped
        // long after its top.
        let (status, g) = get(&p, &["new"], "bots=1&line=3&speed=0.1&seed=5&starter=1");
        assert_eq!(status, StatusCode::OK, "{g}");
        assert!(said(&g, 0)[0].contains("Bot 1 starts"), "{g}");
        let id = g["id"].as_str().unwrap().to_string();
        let mut t = 0;
        let top_at = loop {
            t += 250;
            assert!(t < 3_600_000, "no top by the bot in an hour of play");
            let (_, v) = get(&p, &["state"], &format!("id={id}&t={t}"));
            if said(&v, 0).iter().any(|e| e.starts_with("Bot 1 shouted top")) {
                break t;
            }
        };
        let (_, v) = get(&p, &["act"], &format!("id={id}&t={}&action=reveal", top_at + 100));
        let n = v["events"].as_array().unwrap().len();
        let last = said(&v, n - 1);
        assert!(last[0].starts_with("No penalty: Bot 1 shouted top"), "{last:?}");
        assert!(!said(&v, 0).iter().any(|e| e.starts_with("Penalty for You")));
        // Later, the bot's top was there to be seen: starting before it is
        // a penalty, as the rules say.
        let (_, v) = get(
            &p,
            &["act"],
            &format!("id={id}&t={}&action=reveal", top_at + GRACE_MS + 100),
        );
        assert!(
            said(&v, n)
                .iter()
                .any(|e| e.starts_with("Penalty for You: started before the starter")),
            "{:?}",
            said(&v, n)
        );
    }

    #[test]
    fn the_starter_is_a_seat_of_the_game() {
        let p = ToppoPages::default();
        let (status, body) = get(&p, &["new"], "bots=1&starter=2");
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body["error"].as_str().unwrap().contains("starter=2"), "{body}");
    }

    #[test]
    fn the_setups_offered_are_those_new_accepts() {
        let p = ToppoPages::default();
        let (s, list) = get(&p, &["setups"], "");
        assert_eq!(s, StatusCode::OK);
        let list = list.as_array().unwrap();
        assert_eq!(list.len(), 9);
        assert!(
            list.iter().any(|x| x["ok"] == false),
            "some set-up is refused: {list:?}"
        );
        for x in list {
            let q = format!("bots={}&line={}&seed=1", x["bots"], x["line"]);
            let (status, body) = get(&p, &["new"], &q);
            assert_eq!(status == StatusCode::OK, x["ok"] == true, "{q}: {body}");
            if x["ok"] == false {
                assert_eq!(body["error"], x["why"], "{q}");
            }
        }
    }

    #[test]
    fn new_games_never_end_games_being_played() {
        // 64 `new` requests from one client ended every game of the others.
        let p = ToppoPages::default();
        let (_, first) = get(&p, &["new"], "seed=1");
        let id = first["id"].as_str().unwrap().to_string();
        for k in 1..MAX_GAMES {
            let (s, _) = get(&p, &["new"], &format!("seed={k}"));
            assert_eq!(s, StatusCode::OK);
        }
        let (s, body) = get(&p, &["new"], "seed=99");
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert!(body["error"].as_str().unwrap().contains("try again"), "{body}");
        let (s, _) = get(&p, &["state"], &format!("id={id}&t=10"));
        assert_eq!(s, StatusCode::OK, "the first game is still there");
        // Games left alone give their places, the one left longest first.
        let p = ToppoPages {
            abandoned: Duration::ZERO,
            ..ToppoPages::default()
        };
        let (_, first) = get(&p, &["new"], "seed=1");
        let id = first["id"].as_str().unwrap().to_string();
        for k in 1..=MAX_GAMES {
            let (s, _) = get(&p, &["new"], &format!("seed={k}"));
            assert_eq!(s, StatusCode::OK);
        }
        let (s, _) = get(&p, &["state"], &format!("id={id}&t=10"));
        assert_eq!(s, StatusCode::NOT_FOUND);
        // Numbers are not counted out: the next game's cannot be guessed.
        let ids: Vec<u64> = (0..3)
            .map(|_| {
                get(&p, &["new"], "seed=1").1["id"]
                    .as_str()
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        assert!(
            ids[1].abs_diff(ids[0]) > 1000 && ids[2].abs_diff(ids[1]) > 1000,
            "{ids:?}"
        );
    }

    #[test]
    fn a_game_is_played_through_the_routes() {
        let p = ToppoPages::default();
        let (s, g) = get(&p, &["new"], "bots=1&line=3&speed=1&seed=5");
        assert_eq!(s, StatusCode::OK);
        let id = g["id"].as_str().unwrap().to_string();
        assert_eq!(g["display"].as_array().unwrap().len(), 3);
        assert_eq!(g["players"][0]["cards"], 33);
        // You start: three reveals make your line.
        for t in [100, 200, 300] {
            let (_, g) = get(&p, &["act"], &format!("id={id}&t={t}&action=reveal"));
            assert!(
                g["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|e| e["kind"] != "penalty"),
                "{g}"
            );
        }
        let (_, g) = get(&p, &["state"], &format!("id={id}&t=300"));
        assert_eq!(g["players"][0]["line"].as_array().unwrap().len(), 3, "{g}");
        // A top shouted with no order is wrong: a penalty, said out loud.
        let (_, g) = get(&p, &["act"], &format!("id={id}&t=400&action=top&order="));
        let said = g["events"].as_array().unwrap().last().unwrap()["text"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(said.starts_with("Penalty for You"), "{said}");
        assert_eq!(g["players"][0]["cards"], 33 + 5);
        // Bad requests are refused with a reason.
        for (path, q, status) in [
            (&["new"][..], "bots=9", StatusCode::BAD_REQUEST),
            (&["new"][..], "line=5&bots=1", StatusCode::BAD_REQUEST),
            (&["state"][..], "id=999&t=1", StatusCode::NOT_FOUND),
            (
                &["act"][..],
                &format!("id={id}&t=500&action=fly") as &str,
                StatusCode::BAD_REQUEST,
            ),
            (
                &["act"][..],
                &format!("id={id}&t=x") as &str,
                StatusCode::BAD_REQUEST,
            ),
        ] {
            let (s, body) = get(&p, path, q);
            assert_eq!(s, status, "{path:?} {q}: {body}");
            assert!(body["error"].is_string());
        }
        // The bots play on as time passes.
        let (_, g) = get(&p, &["state"], &format!("id={id}&t=20000"));
        assert!(
            g["players"][1]["line"].as_array().unwrap().len() + g["events"].as_array().unwrap().len() > 1,
            "{g}"
        );
    }
}
