//! `topitop toppo odds`: the exact chances of a line against the display.

use std::io::Write;

use games_toppo::card::DeckSpec;
use games_toppo::odds::{given, unconditional};
use games_toppo::{parse_cards, Odds};

/// Arguments of `toppo odds`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Cards in the display and the line: 3, 4 or 5 (default: all three).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(3..=5))]
    pub line: Option<u8>,
    /// Given this display (its length sets the line's), e.g.
    /// red-circle,blue-plus,green-square: colours red, yellow, white,
    /// green, blue; symbols waves, circle, square, ih, plus.
    #[arg(long, value_name = "CARDS")]
    pub display: Option<String>,
    /// Copies of each of the 25 kinds in the set, 1 to 255 (the rules do
    /// not print it; 6 makes the 150 cards of a set).
    #[arg(long, default_value_t = 6, value_name = "N", value_parser = clap::value_parser!(u8).range(1..))]
    pub copies: u8,
    /// Print JSON: one object (`line`, `top`, `top_as_dealt`, `match`, and
    /// `display` when given) for one line length, else an array of three.
    #[arg(long)]
    pub json: bool,
}

/// Runs `toppo odds`.
///
/// # Errors
/// A bad display or line.
pub fn run(args: Args) -> anyhow::Result<()> {
    anyhow::ensure!(args.copies > 0, "--copies must be at least 1");
    let deck = DeckSpec::uniform(args.copies, 1);
    let rows: Vec<(Option<String>, Odds)> = match &args.display {
        Some(text) => {
            let d = parse_cards(text).map_err(anyhow::Error::msg)?;
            if let Some(l) = args.line {
                anyhow::ensure!(
                    usize::from(l) == d.len(),
                    "--line {l} but the display has {} cards",
                    d.len()
                );
            }
            let names = d.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
            vec![(Some(names), given(&deck, &d).map_err(anyhow::Error::msg)?)]
        }
        None => {
            let lines: Vec<usize> = args.line.map_or(vec![3, 4, 5], |l| vec![usize::from(l)]);
            lines
                .into_iter()
                .map(|l| Ok((None, unconditional(&deck, l).map_err(anyhow::Error::msg)?)))
                .collect::<anyhow::Result<_>>()?
        }
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        let objects: Vec<serde_json::Value> = rows
            .iter()
            .map(|(d, o)| {
                let mut v = serde_json::to_value(o).unwrap_or_default();
                if let Some(d) = d {
                    v["display"] = d.as_str().into();
                }
                v
            })
            .collect();
        let text = if objects.len() == 1 {
            serde_json::to_string_pretty(&objects[0])?
        } else {
            serde_json::to_string_pretty(&objects)?
        };
        writeln!(out, "{text}")?;
        return Ok(());
    }
    match &rows[0].0 {
        Some(d) => writeln!(
            out,
            "a line drawn from the other {} cards against {d}:",
            deck.len() - rows[0].1.line
        )?,
        None => writeln!(out, "a display and a line drawn from {} cards:", deck.len())?,
    }
    writeln!(
        out,
        "{:<5} {:>10} {:>14} {:>10}",
        "line", "top", "top as dealt", "match"
    )?;
    for (_, o) in &rows {
        writeln!(
            out,
            "{:<5} {:>9.4}% {:>13.4}% {:>9.4}%",
            o.line,
            100.0 * o.top,
            100.0 * o.top_as_dealt,
            100.0 * o.matched
        )?;
    }
    Ok(())
}
