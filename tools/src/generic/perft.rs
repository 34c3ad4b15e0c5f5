//! `topitop perft --game NAME DEPTH`: move sequences and distinct
//! positions at each depth from the start.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use topitop_interface::Tiered;

use crate::games::OnGame;

/// `perft` on a game behind the interface.
pub struct Perft {
    /// The deepest depth counted.
    pub depth: u32,
    /// Print JSON.
    pub json: bool,
}

impl OnGame for Perft {
    fn run<G: Tiered + 'static>(self, game: G) -> anyhow::Result<()> {
        // The positions of each depth with the number of sequences reaching them.
        let mut level: HashMap<G::Position, u64> = HashMap::from([(game.start(), 1)]);
        let mut rows = vec![(0u32, 1u64, 1usize)];
        for d in 1..=self.depth {
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
        if self.json {
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
}
