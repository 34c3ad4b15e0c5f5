//! `topitop show --game NAME POSITION`: the position and every move, as
//! text or as JSON of one shape for every game.

use std::io::Write;

use serde::Serialize;
use serde_json::{Map, Value as Json};
use topitop_game_api::Presentation;

use crate::options::GameArgs;

/// One fact a game knows of a position or move beyond the game interface
/// (Topitop's GamesmanClassic hash, say): an extra field of `show --json`
/// and an extra line of its text.
pub struct Detail {
    /// The JSON key, snake_case; `None` for a line of text only.
    pub key: Option<&'static str>,
    /// The label of its line of text.
    pub label: &'static str,
    /// Its line of text; empty for a fact of the JSON alone.
    pub text: String,
    /// Its JSON value.
    pub json: Json,
}

/// What a game adds to `show` beyond the game interface; `()` adds
/// nothing.
pub trait Details<G: Presentation> {
    /// Facts of `pos`.
    fn position(&self, game: &G, pos: &G::Position) -> Vec<Detail> {
        let _ = (game, pos);
        Vec::new()
    }
    /// Facts of the move `mv` of `pos`.
    fn of_move(&self, game: &G, pos: &G::Position, mv: G::Move) -> Vec<Detail> {
        let _ = (game, pos, mv);
        Vec::new()
    }
}

impl<G: Presentation> Details<G> for () {}

/// What `show --json` prints for every game; a game's [`Details`] come
/// after the common fields.
#[derive(Serialize)]
struct Report {
    game: &'static str,
    variant: String,
    position: String,
    /// None for an impartial game: its positions do not say.
    turn: Option<&'static str>,
    primitive: Option<&'static str>,
    /// Why the game is over, in the game's words ([`Presentation::ending`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    ending: Option<String>,
    canonical: String,
    autogui_position: Option<String>,
    #[serde(flatten)]
    details: Map<String, Json>,
    moves: Vec<MoveReport>,
}

/// One move of [`Report`].
#[derive(Serialize)]
struct MoveReport {
    #[serde(rename = "move")]
    mv: String,
    position: String,
    autogui_move: Option<String>,
    #[serde(flatten)]
    details: Map<String, Json>,
}

/// The JSON fields of `details`.
fn fields(details: &[Detail]) -> Map<String, Json> {
    details
        .iter()
        .filter_map(|d| Some((d.key?.to_string(), d.json.clone())))
        .collect()
}

/// Runs `show` on `game`.
///
/// # Errors
/// A position the game refuses, or a closed standard output.
pub fn run<G: Presentation>(game: G, args: Args) -> anyhow::Result<()> {
    run_with(game, args, &())
}

/// Runs `show` on `game` with the facts `details` adds.
///
/// # Errors
/// A position the game refuses, or a closed standard output.
pub fn run_with<G: Presentation>(game: G, args: Args, details: &dyn Details<G>) -> anyhow::Result<()> {
    let pos = game
        .parse_position(&args.position)
        .map_err(crate::common::bad_position)?;
    let extra = details.position(&game, &pos);
    let moves: Vec<(G::Move, Vec<Detail>)> = game
        .moves(&pos)
        .into_iter()
        .map(|mv| (mv, details.of_move(&game, &pos, mv)))
        .collect();
    let r = Report {
        game: game.name(),
        variant: game.variant(),
        position: game.format_position(&pos),
        turn: game.player_to_move(&pos).map(|p| game.player_names()[p]),
        primitive: game.primitive(&pos).map(|v| v.name()),
        ending: game.ending(&pos),
        canonical: game.format_position(&game.canonical(&pos)),
        autogui_position: game.autogui_position(&pos),
        details: fields(&extra),
        moves: moves
            .iter()
            .map(|(mv, d)| MoveReport {
                mv: game.format_move(*mv),
                position: game.format_position(&game.play(&pos, *mv)),
                autogui_move: game.autogui_move(&pos, *mv),
                details: fields(d),
            })
            .collect(),
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&r)?)?;
        return Ok(());
    }
    writeln!(out, "Position   {}   ({} {})", r.position, r.game, r.variant)?;
    writeln!(out)?;
    write!(out, "{}", crate::common::board_text(&game.show(&pos)))?;
    writeln!(out)?;
    if let Some(turn) = r.turn {
        writeln!(out, "Turn       {turn}")?;
    }
    writeln!(out, "Primitive  {}", r.primitive.unwrap_or("no (game goes on)"))?;
    if let Some(why) = &r.ending {
        writeln!(out, "Ending     {why}")?;
    }
    writeln!(out, "Canonical  {}", r.canonical)?;
    if let Some(a) = &r.autogui_position {
        writeln!(out, "AutoGUI    {a}")?;
    }
    // A fact with no text is for JSON alone (the drawing shows it).
    for d in extra.iter().filter(|d| !d.text.is_empty()) {
        writeln!(out, "{:<10} {}", d.label, d.text)?;
    }
    writeln!(out)?;
    writeln!(out, "Moves ({}):", r.moves.len())?;
    let width = r.moves.iter().map(|m| m.position.len()).max().unwrap_or(0);
    for (m, (_, d)) in r.moves.iter().zip(&moves) {
        write!(out, "  {:<5} -> {:<width$}", m.mv, m.position)?;
        for d in d {
            write!(out, "  {} {}", d.label, d.text)?;
        }
        if let Some(a) = &m.autogui_move {
            write!(out, "  AutoGUI {a}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// Arguments of `show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game's position string, as `query` and `export` print it (e.g.
    /// Topitop's `1_LS-L-SLLS45`, Topolo's `.../.../...`).
    // A position may start with `-` (tic-tac-toe's empty board); the
    // command's own options are still read as options.
    #[arg(value_name = "POSITION", allow_hyphen_values = true)]
    pub position: String,
    /// The game and its options.
    #[command(flatten)]
    pub rules: GameArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}
