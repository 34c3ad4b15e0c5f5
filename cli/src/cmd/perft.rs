//! `topitop perft --game NAME DEPTH`: move sequences and distinct
//! positions at each depth from the start.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use topitop_interface::Tiered;

use crate::common::RulesArgs;

/// Runs `perft` on `game`.
///
/// # Errors
/// A closed standard output.
pub fn run<G: Tiered>(game: G, args: Args) -> anyhow::Result<()> {
    // The positions of each depth with the number of sequences reaching them.
    let mut level: HashMap<G::Position, u64> = HashMap::from([(game.start(), 1)]);
    let mut rows = vec![(0u32, 1u64, 1usize)];
    for d in 1..=args.depth {
        let mut next: HashMap<G::Position, u64> = HashMap::new();
        for (pos, &n) in &level {
            for mv in game.moves(pos) {
                *next.entry(game.play(pos, mv)).or_default() += n;
            }
        }
        if next.is_empty() {
            break;
        }
        rows.push((d, next.values().sum(), next.len()));
        level = next;
    }
    let classes: HashSet<G::Position> = level.keys().map(|p| game.canonical(p)).collect();
    let mut out = std::io::stdout().lock();
    if args.json {
        let rows: Vec<_> = rows
            .iter()
            .map(|&(d, s, p)| serde_json::json!({"depth": d, "sequences": s, "positions": p}))
            .collect();
        writeln!(
            out,
            "{}",
            serde_json::json!({"game": game.name(), "variant": game.variant(), "depth": rows})
        )?;
        return Ok(());
    }
    writeln!(out, "# {} {}", game.name(), game.variant())?;
    writeln!(out, "depth\tsequences\tpositions")?;
    for (d, s, p) in &rows {
        writeln!(out, "{d}\t{s}\t{p}")?;
    }
    writeln!(
        out,
        "# the last depth's positions fall in {} symmetry classes",
        classes.len()
    )?;
    Ok(())
}

/// Arguments of `perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Deepest ply to count.
    #[arg(value_name = "DEPTH")]
    pub depth: u32,
    /// The game and its options.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}
