//! `topitop play --game NAME`: a text game against the perfect player or
//! another person, with move-value hints and undo.

use std::io::Write;

use topitop_db::Reader;
use topitop_game_api::rng::Rng;
use topitop_game_api::{Presentation, Search, Value};
use topitop_serve::PositionResponse;

use super::Source;
use crate::common::DbArgs;
use crate::common::{hint_lines, result_words};
use crate::lines::next_line;

/// Two people play `game` without values or hints, when no computer
/// plays, no hints are asked for and there is no database (nor a search)
/// to answer: a board nobody has solved (8×8 Topple) is still played.
/// False: the game needs its database, or a search.
///
/// # Errors
/// A bad `--computer` or `--from`, or a closed standard input or output.
pub fn without_values<G: Presentation + Search>(game: &G, args: &Args) -> anyhow::Result<bool> {
    let path = super::db_path(game, &args.db.dir);
    if computer(game, args)?.is_none()
        && !args.hints
        && args.db.db.is_none()
        && !game.can_estimate()
        && !path.exists()
    {
        eprintln!(
            "no database {}: two people play without values or hints",
            path.display()
        );
        play_unsolved(game, start(game, args)?)?;
        return Ok(true);
    }
    Ok(false)
}

/// Runs `play` on `game`, answered from `source`.
///
/// # Errors
/// A bad option, a damaged database, or a closed standard input or
/// output.
pub fn run<G: Presentation + Search, R: Reader<G>>(
    game: G,
    source: Source<R>,
    args: Args,
) -> anyhow::Result<()> {
    let greeting = greeting(&game, "hint, hints, undo, quit");
    play(&game, &args, &greeting, |pos| source.respond(&game, pos))
}

/// What `play` says first: the game, how moves are typed, and the
/// commands `also` taken.
fn greeting<G: Presentation>(game: &G, also: &str) -> String {
    let help = game.move_help().map(|h| format!("\n{h}")).unwrap_or_default();
    format!(
        "{}, {}: moves as `show` lists them; also: {also}{help}",
        game.title(),
        game.variant_title()
    )
}

/// The side `--computer` names: a player's index, or `None` for two
/// people.
fn computer<G: Presentation>(game: &G, args: &Args) -> anyhow::Result<Option<usize>> {
    let names = game.player_names();
    Ok(
        match args.computer.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("second") => Some(1),
            Some("first") => Some(0),
            Some("none") => None,
            Some(name) => Some(
                names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(name))
                    .ok_or_else(|| {
                        // A game that keeps the default names says them once.
                        let mut words = names.to_vec();
                        for w in ["first", "second"] {
                            if !words.iter().any(|n| n.eq_ignore_ascii_case(w)) {
                                words.push(w);
                            }
                        }
                        anyhow::anyhow!("--computer {name}: use {} or none", words.join(", "))
                    })?,
            ),
        },
    )
}

/// The position `--from` names, or the start.
fn start<G: Presentation>(game: &G, args: &Args) -> anyhow::Result<G::Position> {
    match &args.from {
        Some(p) => game.parse_position(p).map_err(crate::common::bad_position),
        None => Ok(game.start()),
    }
}

/// The game loop of `play`, for any game and any source of answers: says
/// `greeting` (how moves are written, what else may be typed), then shows
/// each position with its value, plays the computer's side with the best
/// move `respond` lists, and reads the person's moves and commands.
///
/// # Errors
/// A bad option, a failing `respond`, or a closed standard input or
/// output.
pub fn play<G: Presentation>(
    game: &G,
    args: &Args,
    greeting: &str,
    respond: impl Fn(&G::Position) -> anyhow::Result<PositionResponse>,
) -> anyhow::Result<()> {
    let names = game.player_names();
    let computer = computer(game, args)?;
    let mut pos = start(game, args)?;
    let mut history = Vec::new();
    // The computer's random moves below level 10, from --seed or the clock.
    let mut dice = Rng::new(args.seed.unwrap_or_else(Rng::clock_seed));
    let mut hints = args.hints;
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    writeln!(out, "{greeting}")?;
    loop {
        let r = respond(&pos)?;
        let mover = mover(game, &pos, history.len());
        writeln!(out)?;
        write!(out, "{}", crate::common::board_text(&game.show(&pos)))?;
        let estimated = r.estimated.is_some();
        writeln!(
            out,
            "{} ({} to move): {}",
            r.position,
            names[mover],
            standing(names, mover, &r)
        )?;
        if r.moves.is_empty() {
            writeln!(out, "Game over: {}.", game_over(game, &pos, mover))?;
            return Ok(());
        }
        if computer == Some(mover) {
            let (child, said) = computer_move(game, args, (&pos, mover), &r, &mut dice)?;
            writeln!(out, "{said}")?;
            history.push(pos);
            pos = child;
            continue;
        }
        if hints {
            write_hints(&mut out, &r, names[mover], estimated)?;
        }
        let Some(text) = prompt(&mut input, &mut out, names[mover])? else {
            return Ok(());
        };
        match text.as_str() {
            // A blank line, or one that was not text (said already).
            "" => {}
            "quit" | "q" => return Ok(()),
            "hints" => hints = !hints,
            "hint" => writeln!(out, "best: {} ({})", r.moves[0].mv, r.moves[0].move_value)?,
            "undo" | "u" => match undo(game, &mut history, computer) {
                Some(p) => pos = p,
                None => writeln!(out, "nothing to undo")?,
            },
            text => typed_move(game, &mut pos, &mut history, text, &mut out)?,
        }
    }
}

/// The value of the position `r` answers for, for `names[mover]`: solved,
/// or a search's estimate, said as one.
fn standing(names: [&str; 2], mover: usize, r: &PositionResponse) -> String {
    let estimated = r.estimated.is_some();
    match r.moves.first().and_then(|m| m.estimate) {
        Some(score) if estimated => format!(
            "estimated {:.0}% for {} (a search, not solved)",
            100.0 * score,
            names[mover]
        ),
        None if estimated => NO_ESTIMATE.to_string(),
        _ => result_words(names, mover, r.position_value, r.remoteness),
    }
}

/// The computer's move in `pos`, where player `mover` moves, whose moves
/// `r` lists best first: the best, or below level 10 now and then one at
/// random. Returns the position after it and the line that says it.
fn computer_move<G: Presentation>(
    game: &G,
    args: &Args,
    (pos, mover): (&G::Position, usize),
    r: &PositionResponse,
    dice: &mut Rng,
) -> anyhow::Result<(G::Position, String)> {
    let names = game.player_names();
    let random = dice.below(10) >= u64::from(args.level);
    let chosen = if random {
        &r.moves[dice.index(r.moves.len())]
    } else {
        &r.moves[0]
    };
    let how = if random {
        format!(" (a move at random: level {})", args.level)
    } else {
        String::new()
    };
    let mv = game.parse_move(pos, &chosen.mv).map_err(anyhow::Error::msg)?;
    let child = game.play(pos, mv);
    let then = match chosen.estimate {
        Some(score) => format!("estimated {:.0}% for {}", 100.0 * score, names[mover]),
        None if r.estimated.is_some() => NO_ESTIMATE.to_string(),
        // Every move passes the turn.
        None => result_words(names, 1 - mover, chosen.position_value, chosen.remoteness),
    };
    let said = format!(
        "Computer plays {} for {}{how}: then {then}",
        chosen.mv, names[mover]
    );
    Ok((child, said))
}

/// The hints for `mover`: every move with its value, or a search's
/// shares best first (its own order is by the games played through each
/// move).
fn write_hints(
    out: &mut impl Write,
    r: &PositionResponse,
    mover: &str,
    estimated: bool,
) -> std::io::Result<()> {
    let mut moves = r.moves.clone();
    let what = if estimated {
        moves.sort_by(|a, b| b.estimate.unwrap_or(-1.0).total_cmp(&a.estimate.unwrap_or(-1.0)));
        format!("estimated share for {mover}, from a search; not solved")
    } else {
        // One way to count (docs/reference.md): the moves left after the
        // move, as `query` and GamesmanUni count them.
        format!("value for {mover}, and the moves left after it")
    };
    writeln!(out, "  hints ({what}):")?;
    for line in hint_lines(&moves) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The position before the person's last move, undoing the computer's
/// moves after it too; `None` with nothing to undo.
fn undo<G: Presentation>(
    game: &G,
    history: &mut Vec<G::Position>,
    computer: Option<usize>,
) -> Option<G::Position> {
    let mut undone = None;
    while let Some(p) = history.pop() {
        undone = Some(p);
        if computer != Some(mover(game, &p, history.len())) {
            break;
        }
    }
    undone
}

/// Plays the move `text` from `pos`, kept in `history` for undo, or
/// says why the game refuses it.
fn typed_move<G: Presentation>(
    game: &G,
    pos: &mut G::Position,
    history: &mut Vec<G::Position>,
    text: &str,
    out: &mut impl Write,
) -> std::io::Result<()> {
    match game.parse_move(pos, text) {
        Ok(mv) => {
            history.push(*pos);
            *pos = game.play(pos, mv);
            Ok(())
        }
        Err(e) => writeln!(out, "{e}"),
    }
}

/// Who moves in `pos`, reached `ply` plies from where play began: the
/// game says, or for an impartial game the plies say (the first player
/// moves first).
fn mover<G: Presentation>(game: &G, pos: &G::Position, ply: usize) -> usize {
    game.player_to_move(pos).unwrap_or(ply % 2)
}

/// How the game ended in `pos`, a primitive position where player
/// `mover` is to move.
fn game_over<G: Presentation>(game: &G, pos: &G::Position, mover: usize) -> String {
    let names = game.player_names();
    match game.primitive(pos) {
        Some(Value::Win) => format!("{} wins", names[mover]),
        Some(Value::Lose) => format!("{} wins", names[1 - mover]),
        Some(Value::Tie) => "a tie".to_string(),
        _ => "drawn".to_string(),
    }
}

/// Asks `player` for a move: the line typed, trimmed (empty after a line
/// that is not text, which is said), or `None` at the end of the input.
fn prompt(
    input: &mut impl std::io::BufRead,
    out: &mut impl Write,
    player: &str,
) -> anyhow::Result<Option<String>> {
    write!(out, "{player} move> ")?;
    out.flush()?;
    let Some(line) = next_line(input)? else {
        return Ok(None);
    };
    Ok(Some(match line.text() {
        Ok(t) => t.trim().to_string(),
        Err(e) => {
            writeln!(out, "{e}")?;
            String::new()
        }
    }))
}

/// Two people play `game` from `pos`, with no database: the board, the
/// moves, undo and quit.
fn play_unsolved<G: Presentation>(game: &G, mut pos: G::Position) -> anyhow::Result<()> {
    let names = game.player_names();
    let mut history = Vec::new();
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", greeting(game, "moves, undo, quit"))?;
    loop {
        let mover = mover(game, &pos, history.len());
        writeln!(out)?;
        write!(out, "{}", crate::common::board_text(&game.show(&pos)))?;
        if game.primitive(&pos).is_some() {
            writeln!(out, "Game over: {}.", game_over(game, &pos, mover))?;
            return Ok(());
        }
        let Some(text) = prompt(&mut input, &mut out, names[mover])? else {
            return Ok(());
        };
        match text.as_str() {
            // A blank line, or one that was not text (said already).
            "" => {}
            "quit" | "q" => return Ok(()),
            "moves" => {
                let all: Vec<String> = game
                    .moves(&pos)
                    .into_iter()
                    .map(|m| game.format_move(m))
                    .collect();
                writeln!(out, "{}", all.join(" "))?;
            }
            "undo" | "u" => match history.pop() {
                Some(p) => pos = p,
                None => writeln!(out, "nothing to undo")?,
            },
            text => typed_move(game, &mut pos, &mut history, text, &mut out)?,
        }
    }
}

/// Arguments of `play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Where the database is.
    #[command(flatten)]
    pub db: DbArgs,
    /// Which side the computer takes: one of the game's player names (as
    /// `show` names them), first, second or none [default: the second
    /// player].
    #[arg(long, value_name = "SIDE")]
    pub computer: Option<String>,
    /// How well the computer plays, 0 to 10: at 10 a best move every time;
    /// at level L a best move L times in 10 and otherwise any legal move at
    /// random (0: always at random).
    #[arg(long, default_value_t = 10, value_name = "L", value_parser = clap::value_parser!(u8).range(0..=10))]
    pub level: u8,
    /// The seed of the computer's random moves below level 10 (by default
    /// from the clock), to replay a game.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Show every move's value before each human move.
    #[arg(long)]
    pub hints: bool,
    /// Start from this position instead of the initial one.
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    pub from: Option<String>,
    /// For a board no database holds, played by the game's search (8×8
    /// Topolo): milliseconds the search takes a move.
    /// 10 to 60000.
    #[arg(long, default_value_t = super::SEARCH_MS, value_name = "MS", value_parser = super::search_ms)]
    pub search_ms: u64,
}

/// What a search that tried no move in its time says: no result, rather
/// than an even one.
const NO_ESTIMATE: &str = "no estimate (the search played no game in its time)";
