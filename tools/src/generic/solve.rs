//! `topitop solve --game NAME`: the framework's loop-free tier solver, and
//! the game's database.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use topitop_db::tier_checkpoint::TierCheckpoints;
use topitop_db::tiered::{write_tiered, TieredMeta};
use topitop_interface::{Record, Tiered};
use topitop_solver::loop_free::{solve_loop_free_kept, TierStore};
use topitop_solver::usage::cpu_time;

use crate::cmd::solve::SolveLock;
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
    /// No tier is kept in a checkpoint before this much of the solve has
    /// passed: a short solve leaves none behind.
    pub grace: Duration,
}

/// The checkpoints of a solve, kept from the end of its grace on.
struct Kept {
    files: TierCheckpoints,
    from: Instant,
}

impl TierStore for Kept {
    fn load(&mut self, name: &str, size: u64) -> Option<Vec<Record>> {
        let records = self.files.load(name, size);
        for w in self.files.warnings() {
            eprintln!("topitop: warning: {w}");
        }
        records
    }

    fn save(&mut self, name: &str, records: &[Record]) -> std::io::Result<()> {
        if Instant::now() < self.from {
            return Ok(());
        }
        self.files.save(name, records)
    }
}

/// What a solve of `game` is made from, as its checkpoints record it:
/// anything that changes a record.
fn made_from<G: Tiered>(game: &G, symmetric: bool) -> String {
    format!(
        "game {}; variant {}; symmetry {}; program topitop {}",
        game.name(),
        game.variant(),
        if symmetric { "on" } else { "off" },
        env!("TOPITOP_VERSION")
    )
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
        // (1.9 MB for the 65 M indices of 3x4), and so do the checkpoints,
        // which are there with it until it is written: a bound, not an
        // estimate.
        topitop_files::ensure_space(
            &self.out,
            slots + (2 << 20),
            "this solve (checkpoints, then the database)",
        )?;
        let lock = SolveLock::take(&path)?;
        topitop_db::remove_stale_temps(&path)?;
        let start = Instant::now();
        let mut kept = Kept {
            files: TierCheckpoints::open(path.with_extension("ckpt"), &made_from(&game, self.symmetric))?,
            from: start + self.grace,
        };
        let cpu_start = cpu_time();
        let bar = CountBar::new(&format!("solving {} {}", game.name(), game.variant()), "tiers");
        let (solution, resumed) = solve_loop_free_kept(&game, self.symmetric, &mut kept, |d, t| {
            bar.set(d as u64, t as u64)
        })?;
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
        // The database is in place: what it was made from goes before
        // anything is printed, so a closed standard output leaves nothing.
        kept.files.remove().map_err(|e| {
            anyhow::anyhow!(
                "cannot remove the checkpoints after writing {}: {e}",
                path.display()
            )
        })?;
        lock.release();
        let mut out = std::io::stdout().lock();
        if resumed > 0 {
            writeln!(out, "resumed {resumed} finished tiers from checkpoints")?;
        }
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
