//! `topitop play`: a text game against the perfect player or another
//! person, with move-value hints and undo.

use std::io::Write;

use topitop_cli::cmd::play::Args;
use topitop_cli::common::{hint_lines, result_words};
use topitop_cli::lines::next_line;
use topitop_rules::explain::LEGEND;
use topitop_rules::{parse_position, play_unchecked, Budget, Move, Player, Position};
use topitop_solved::respond;

use crate::options::DbOptions;

const NAMES: [&str; 2] = ["Blue", "Red"];

fn mover(pos: Position) -> usize {
    usize::from(pos.turn() == Player::Red)
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Computer {
    /// The computer plays Blue (first).
    Blue,
    /// The computer plays Red (second).
    Red,
    /// Two people.
    None,
}

/// The board beside its cell numbers, and the pieces left to place.
fn board(out: &mut impl Write, pos: Position, budget: Budget) -> std::io::Result<()> {
    let b = pos.board().to_string();
    for (row, cells) in b.as_bytes().chunks(3).enumerate() {
        let numbers: String = (1..=3).map(|c| format!("{} ", row * 3 + c)).collect();
        let spaced: String = cells.iter().map(|&c| format!("{} ", c as char)).collect();
        writeln!(out, "    {numbers}   {spaced}")?;
    }
    let [blue, red, small, large] = pos.pieces_left(budget);
    writeln!(
        out,
        "    left to place: Blue {blue} bucket(s), Red {red} bucket(s), {small} small and {large} large pile(s) for either"
    )
}

/// Runs `play`, reading commands from standard input.
pub fn run(args: Args) -> anyhow::Result<()> {
    let computer = match args.computer.as_deref().unwrap_or("red") {
        "red" => Computer::Red,
        "blue" => Computer::Blue,
        "none" => Computer::None,
        other => anyhow::bail!("--computer {other}: Topitop's sides are red, blue and none"),
    };
    let db = args.db.open()?;
    let rules = db.rules();
    let mut pos = match &args.from {
        Some(p) => parse_position(p, rules.budget())?,
        None => rules.start(),
    };
    let mut history: Vec<Position> = Vec::new();
    let mut hints = args.hints;
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "Topitop, rules {} — moves like B5 (place a bucket on cell 5), S1, L1, 4-5 (slide from cell 4 to 5), None; also: hint, hints, undo, quit",
        rules.ruleset()
    )?;
    writeln!(out, "Board letters: {LEGEND}")?;
    loop {
        let r = respond(&db, rules, pos)?;
        writeln!(out)?;
        board(&mut out, pos, rules.budget())?;
        writeln!(
            out,
            "{} ({} to move): {}",
            pos,
            pos.turn().name(),
            result_words(NAMES, mover(pos), r.position_value, r.remoteness)
        )?;
        if r.moves.is_empty() {
            let winner = match rules.primitive(pos) {
                Some(topitop_rules::Value::Lose) => format!("{} wins", pos.turn().opponent().name()),
                Some(topitop_rules::Value::Win) => format!("{} wins", pos.turn().name()),
                _ => "the game is drawn".to_string(),
            };
            writeln!(out, "Game over: {winner}.")?;
            return Ok(());
        }
        let computer_moves = match computer {
            Computer::Blue => pos.turn() == Player::Blue,
            Computer::Red => pos.turn() == Player::Red,
            Computer::None => false,
        };
        if computer_moves {
            let best = &r.moves[0];
            let child = parse_position(&best.position, rules.budget())?;
            writeln!(
                out,
                "Computer plays {} for {}: then {}",
                best.mv,
                pos.turn().name(),
                result_words(NAMES, mover(child), best.position_value, best.remoteness)
            )?;
            history.push(pos);
            pos = child;
            continue;
        }
        if hints {
            writeln!(
                out,
                "  hints (value for {}, and in how many moves):",
                pos.turn().name()
            )?;
            for line in hint_lines(&r.moves) {
                writeln!(out, "{line}")?;
            }
        }
        write!(out, "{} move> ", pos.turn().name())?;
        out.flush()?;
        let Some(line) = next_line(&mut input)? else {
            return Ok(());
        };
        let text = match line.text() {
            Ok(t) => t.trim(),
            Err(e) => {
                writeln!(out, "{e}")?;
                continue;
            }
        };
        match text {
            "quit" | "q" => return Ok(()),
            "hints" => hints = !hints,
            "hint" => {
                let best = &r.moves[0];
                writeln!(out, "best: {} ({})", best.mv, best.move_value)?;
            }
            "undo" | "u" => {
                // Undo back to the last position where a human was to move.
                let mut undone = false;
                while let Some(p) = history.pop() {
                    pos = p;
                    undone = true;
                    let computer = match computer {
                        Computer::Blue => p.turn() == Player::Blue,
                        Computer::Red => p.turn() == Player::Red,
                        Computer::None => false,
                    };
                    if !computer {
                        break;
                    }
                }
                if !undone {
                    writeln!(out, "nothing to undo")?;
                }
            }
            text => match text.parse::<Move>() {
                Ok(m) if rules.legal_moves(pos).contains(m) => {
                    history.push(pos);
                    pos = play_unchecked(pos, m);
                }
                Ok(m) => writeln!(
                    out,
                    "{m} is not a legal move here: {}",
                    rules.why_illegal(pos, m).unwrap_or_default()
                )?,
                Err(e) => writeln!(out, "{e}")?,
            },
        }
    }
}
