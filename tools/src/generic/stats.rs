//! `topitop stats --game NAME`: counts by value, the longest game, and the
//! positions play reaches, with and without symmetry.

use std::io::Write;

use rayon::prelude::*;
use serde::Serialize;
use topitop_interface::Tiered;

use super::open;
use crate::common::DbArgs;
use crate::games::OnGame;

/// `stats` on a game behind the interface.
pub struct Stats {
    /// Where the database is.
    pub db: DbArgs,
    /// Print JSON.
    pub json: bool,
}

/// What `stats` reports.
#[derive(Serialize)]
struct Report {
    file: String,
    game: String,
    variant: String,
    file_bytes: u64,
    symmetric: bool,
    /// Solved positions by value (one per symmetry class with symmetry).
    win: u64,
    lose: u64,
    tie: u64,
    draw: u64,
    largest_remoteness: u16,
    /// Indices of all tiers.
    indices: u64,
    /// Positions play reaches from the start.
    positions: u64,
    /// Their symmetry classes.
    classes: u64,
}

impl OnGame for Stats {
    fn run<G: Tiered + 'static>(self, game: G) -> anyhow::Result<()> {
        let db = open(&game, &self.db)?;
        let h = db.header();
        // Every index that names a position of play is one play reaches
        // (the game's index promises it; Topolo's tests check it).
        let (positions, classes) = game
            .tiers()
            .par_iter()
            .map(|&t| {
                (0..game.tier_size(t))
                    .filter_map(|i| game.position(t, i))
                    .fold((0u64, 0u64), |(a, c), p| {
                        (a + 1, c + u64::from(game.canonical(&p) == p))
                    })
            })
            .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1));
        let r = Report {
            file: db.path().display().to_string(),
            game: h.game.clone(),
            variant: h.variant.clone(),
            file_bytes: db.file_len(),
            symmetric: h.symmetric,
            win: h.counts[0],
            lose: h.counts[1],
            tie: h.counts[2],
            draw: h.counts[3],
            largest_remoteness: h.max_remoteness,
            indices: h.tiers.iter().map(|t| t.size).sum(),
            positions,
            classes,
        };
        let mut out = std::io::stdout().lock();
        if self.json {
            writeln!(out, "{}", serde_json::to_string_pretty(&r)?)?;
            return Ok(());
        }
        writeln!(out, "{}: {} {}", r.file, r.game, r.variant)?;
        writeln!(
            out,
            "file size            {} bytes ({} indices in {} tiers)",
            r.file_bytes,
            r.indices,
            h.tiers.len()
        )?;
        writeln!(
            out,
            "solved               {} win, {} lose, {} tie, {} draw{}",
            r.win,
            r.lose,
            r.tie,
            r.draw,
            if r.symmetric {
                " (one per symmetry class)"
            } else {
                ""
            }
        )?;
        writeln!(out, "largest remoteness   {}", r.largest_remoteness)?;
        writeln!(
            out,
            "reachable positions  {} ({} symmetry classes)",
            r.positions, r.classes
        )?;
        Ok(())
    }
}
