//! `topitop solve --game NAME`: the framework's loop-free tier solver, and
//! the game's database.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use topitop_db::tiered::{write_tiered, TieredMeta};
use topitop_interface::{Record, Tiered};
use topitop_solver::loop_free::solve_loop_free;
use topitop_solver::usage::cpu_time;

use crate::games::OnGame;
use crate::progress::CountBar;

/// `solve` on a game behind the interface.
pub struct Solve {
    /// The output directory.
    pub out: PathBuf,
    /// One position per symmetry class.
    pub symmetric: bool,
    /// zstd level.
    pub level: i32,
}

impl OnGame for Solve {
    fn run<G: Tiered + 'static>(self, game: G) -> anyhow::Result<()> {
        anyhow::ensure!(
            !game.tiers().is_empty(),
            "{} {} is too large to solve strongly here (its positions cannot be indexed); play and query it without a database",
            game.name(),
            game.variant()
        );
        crate::cmd::solve::create_out_dir(&self.out)?;
        let path = super::db_path(&game, &self.out);
        anyhow::ensure!(
            !path.is_dir(),
            "{} is a directory: solve writes its database there; remove it or choose another --out",
            path.display()
        );
        let slots: u64 = game.tiers().iter().map(|&t| game.tier_size(t)).sum();
        // The compressed database takes well under half a byte an index
        // (1.9 MB for the 65 M indices of 3x4): a bound, not an estimate.
        topitop_files::ensure_space(&self.out, slots / 2 + (1 << 20), "this solve")?;
        let start = Instant::now();
        let cpu_start = cpu_time();
        let bar = CountBar::new(&format!("solving {} {}", game.name(), game.variant()), "tiers");
        let solution = solve_loop_free(&game, self.symmetric, |d, t| bar.set(d as u64, t as u64))?;
        bar.finish();
        let secs = start.elapsed().as_secs_f64();
        let cpu = cpu_start
            .zip(cpu_time())
            .map(|(a, b)| b.saturating_sub(a).as_secs_f64());
        let tiers: Vec<(String, &[Record])> = solution
            .tiers()
            .into_iter()
            .map(|t| (game.tier_name(t), solution.tier(t).unwrap_or(&[])))
            .collect();
        let program = format!("topitop {}", env!("TOPITOP_VERSION"));
        let (header, bytes) = write_tiered(
            &path,
            &TieredMeta {
                game: game.name(),
                variant: &game.variant(),
                program: &program,
                symmetric: self.symmetric,
                level: self.level,
            },
            &tiers,
        )?;
        let mut out = std::io::stdout().lock();
        let c = header.counts;
        let solved: u64 = c.iter().sum();
        writeln!(
            out,
            "game {} variant {} symmetry {}",
            game.name(),
            game.variant(),
            if self.symmetric { "on" } else { "off" }
        )?;
        writeln!(
            out,
            "solved {solved} positions{} in {secs:.1} s{} ({slots} indices in {} tiers)",
            if self.symmetric {
                " (one per symmetry class)"
            } else {
                ""
            },
            cpu.map_or(String::new(), |c| format!(", {c:.1} CPU-s")),
            tiers.len()
        )?;
        writeln!(
            out,
            "by value: {} win, {} lose, {} tie, {} draw",
            c[0], c[1], c[2], c[3]
        )?;
        let start_rec = solution.get(&game, &game.start());
        writeln!(
            out,
            "start position {}: {start_rec}",
            game.format_position(&game.start())
        )?;
        writeln!(out, "largest remoteness: {}", header.max_remoteness)?;
        writeln!(out, "wrote {} ({:.1} MB)", path.display(), bytes as f64 / 1e6)?;
        Ok(())
    }
}
