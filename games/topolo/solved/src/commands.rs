//! Topolo's commands: the shared ones of every game behind the game
//! interface, but `solve`, which runs [`crate::solve`] and writes a
//! database of values, and `verify`, which checks one with
//! [`crate::verify`].

use std::io::Write;

use games_topolo::layout::Layout;
use games_topolo::Topolo;
use topitop_cli::cmd;
use topitop_cli::cmd::solve::{run_solver, Kept, Needs, Solved, Solver, Target};
use topitop_cli::progress::CountBar;
use topitop_cli::registry::{tiered, Commands, VerifyFn};
use topitop_db::packed::{write_packed_streamed, write_packed_with, PackedDb, PackedHeader};
use topitop_game_api::{Game, Registered};

use crate::plan::{estimate, Plan, Store};
use crate::units;
use topitop_cli::distributed::{Memory, Unit, Units};

/// Topolo's commands, for the binary's list of games: the generic ones
/// but its own solver, and its own check of the files that solver writes.
/// Its solver solves one position per symmetry class only, so none of
/// the generic solver's flags are offered.
pub fn commands() -> Box<dyn Commands> {
    tiered::<Topolo>()
        .options(<Topolo as Registered>::OPTIONS.to_vec())
        .solver(|game, args| {
            run_solver(
                &mut TopoloSolver {
                    game,
                    plan: None,
                    solved: None,
                    units: Vec::new(),
                    made: None,
                    gathered: None,
                },
                &args,
            )
        })
        .verifier(VerifyFn {
            // A database of records (an older solve, or the generic
            // solver's) is checked the generic way. The peek opens
            // regular files only: a FIFO would block it for ever; the
            // generic check refuses it.
            holds: |path| topitop_db::peek::magic(path).is_ok_and(|m| m == topitop_db::packed::MAGIC),
            run: verify,
        })
        .boxed()
}

impl Store for Kept {
    fn load(&mut self, name: &str, len: u64) -> Option<Vec<u8>> {
        self.load_with(|files| files.load_bytes(name, len))
    }
    fn save(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        self.save_with(|files| files.save_bytes(name, bytes))
    }
}

/// Classes of positions solved a CPU-second, as measured on 4x4
/// (docs/topolo.md): for the estimates of boards too large to solve.
const RATE: f64 = 78e6;

/// Topolo's own solver behind the shared solve.
struct TopoloSolver {
    game: Topolo,
    /// Made by [`Solver::needs`], once the board is known to fit.
    plan: Option<Plan>,
    solved: Option<crate::solve::Solved>,
    /// The units of a distributed solve, once split.
    units: Vec<crate::units::Unit>,
    /// The template a worker made last, for its next unit.
    made: crate::units::Made,
    /// What process 0 of a distributed solve holds to write the database.
    gathered: Option<units::Gathered>,
}

impl TopoloSolver {
    fn plan(&self) -> anyhow::Result<&Plan> {
        self.plan
            .as_ref()
            .ok_or_else(|| anyhow::anyhow!("topolo's plan is made before solving"))
    }

    /// The plan, made now if [`Solver::needs`] has not made it (the
    /// workers of a distributed solve do not ask, and a solve that goes on
    /// past a refusal from the estimate alone has none yet).
    fn made_plan(&mut self) -> anyhow::Result<&Plan> {
        if self.plan.is_none() {
            self.needs()?;
        }
        if self.plan.is_none() {
            let layout = Layout::of(self.game)
                .ok_or_else(|| anyhow::anyhow!("topolo {} cannot be indexed", Game::variant(&self.game)))?;
            eprintln!(
                "counting the indices of topolo {} exactly before the solve",
                Game::variant(&self.game)
            );
            self.plan = Some(Plan::new(layout));
        }
        self.plan()
    }
}

/// Topolo's solve in units, for a distributed solve: step 1's small games
/// ([`crate::units`]); process 0 then does steps 2 and 3.
impl Units for TopoloSolver {
    fn units(&mut self, part_size: u64) -> anyhow::Result<Vec<Unit>> {
        let plan = self.made_plan()?;
        let list = units::units(plan, part_size);
        let sizes = list.iter().map(|u| units::values_of(plan, u)).collect::<Vec<_>>();
        self.units = list;
        Ok(sizes
            .into_iter()
            .map(|size| Unit {
                reads: Vec::new(),
                size,
            })
            .collect())
    }

    fn memory(&mut self, part_size: u64) -> Memory {
        let threads = rayon::current_num_threads();
        if self.made_plan().is_err() {
            return Memory { lead: 0, worker: 0 };
        }
        let Some(plan) = self.plan.as_ref() else {
            return Memory { lead: 0, worker: 0 };
        };
        let n = plan.indices();
        // A worker holds a template and a unit's values; process 0 the
        // values of the open tiers and of those step 2 reads, then a
        // template's units at a time as it writes the database.
        let template = plan.memory(threads) - n / 4 - n / 5;
        let (small, largest_template) = units::gathered_values(plan);
        // A unit holds at most `part_size` values, and no more than the
        // largest unit there is: a part size beyond the board's (2^64 - 1
        // among them) asks for no more memory than whole templates.
        let largest_unit = self
            .units
            .iter()
            .map(|u| units::values_of(plan, u))
            .max()
            .unwrap_or(part_size);
        Memory {
            lead: small + largest_template / 4 + (64 << 20),
            worker: template + part_size.min(largest_unit) / 4,
        }
    }

    fn kept_whole(&mut self, u: usize, kept: &mut [Kept]) -> bool {
        let (Ok(plan), [kept]) = (self.plan(), kept) else {
            return false;
        };
        let unit = &self.units[u];
        kept.has_whole(&units::name(plan, unit), units::kept_len(plan, unit))
            && kept.has_whole(&units::side_name(plan, unit), units::side_len(plan, unit))
    }

    fn solve_unit(&mut self, u: usize, kept: &mut [Kept]) -> anyhow::Result<()> {
        let [kept] = kept else {
            anyhow::bail!("one database, so one checkpoint store");
        };
        let plan = self
            .plan
            .as_ref()
            .ok_or_else(|| anyhow::anyhow!("topolo's plan is made before solving"))?;
        let unit = &self.units[u];
        let bytes = units::solve(plan, unit, &mut self.made);
        // The side part last: with it kept, the unit is whole.
        for (name, bytes) in [
            (units::name(plan, unit), bytes.clone()),
            (units::side_name(plan, unit), units::side(plan, unit, &bytes)),
        ] {
            kept.keep_bytes_now(&name, &bytes)
                .map_err(|e| anyhow::anyhow!("cannot keep {name}: {e}"))?;
        }
        Ok(())
    }

    fn gather(&mut self, kept: &mut [Kept]) -> anyhow::Result<()> {
        let [kept] = kept else {
            anyhow::bail!("one database, so one checkpoint store");
        };
        self.made = None;
        let plan = self.plan()?;
        let gathered = units::gather(plan, &self.units, &mut |u| {
            kept.reread_bytes(&units::side_name(plan, u), units::side_len(plan, u))
        })?;
        self.gathered = Some(gathered);
        Ok(())
    }
}

impl Solver for TopoloSolver {
    fn title(&self) -> String {
        format!("topolo {}", Game::variant(&self.game))
    }

    fn targets(&self, out: &std::path::Path) -> Vec<Target> {
        vec![Target {
            path: cmd::db_path(&self.game, out),
            made_from: format!(
                "game topolo; variant {}; solver topolo-solved; program topitop {}",
                Game::variant(&self.game),
                topitop_cli::VERSION
            ),
        }]
    }

    fn needs(&mut self) -> anyhow::Result<Needs> {
        let variant = Game::variant(&self.game);
        // From counts alone, before anything large is made.
        let threads = rayon::current_num_threads();
        let (estimated, need) = estimate(&Layout::unshared(self.game), threads);
        let Some(layout) = Layout::of(self.game) else {
            anyhow::bail!(
                "topolo {variant} is too large to solve strongly here: about {estimated:.1e} symmetry classes of positions, which would need about {:.1e} GB of memory, a database of about {:.1e} GB and about {:.1e} CPU-hours at this program's rate on 4x4 ({:.0} M classes a CPU-second); positions are indexed up to {} cells. Play and query it without a database",
                need / 1e9,
                estimated / 5e9,
                estimated / RATE / 3600.0,
                RATE / 1e6,
                games_topolo::layout::MAX_INDEXED_CELLS
            );
        };
        // Far beyond the machine by the estimate: say so now, from the
        // estimate, rather than count a board's indices for minutes in
        // silence first (5x5). Twice over, as the estimate is approximate;
        // `--ignore-memory-estimate` goes on and counts them in `solve`.
        let beyond = topitop_cli::common::available_memory().is_some_and(|a| need > 2.0 * a as f64);
        if self.plan.is_none() && beyond {
            return Ok(Needs {
                memory: need as u64,
                disk: (estimated / 5.0 + estimated / 4.0) as u64 + (2 << 20),
                what: format!(
                    "about {estimated:.1e} indices by an estimate from counts, about {:.1e} GB of values and a database of about as much",
                    estimated / 5e9
                ),
            });
        }
        // The board can be indexed: its plan gives the exact count of
        // indices and the memory from it, where the estimate above only
        // approximates the symmetry classes.
        // A distributed solve's units may have made it already.
        let plan = self.plan.take().unwrap_or_else(|| Plan::new(layout));
        let indices = plan.indices();
        let needs = Needs {
            memory: plan.memory(threads),
            // The database, and the checkpoints beside it until it is
            // written (two bits a value).
            disk: indices / 5 + indices / 4 + (2 << 20),
            what: format!(
                "{indices} indices, about {:.1} GB of values and a database of about as much",
                indices as f64 / 5e9
            ),
        };
        self.plan = Some(plan);
        Ok(needs)
    }

    fn solve(&mut self, kept: &mut [Kept]) -> anyhow::Result<()> {
        let [kept] = kept else {
            anyhow::bail!("one database, so one checkpoint store");
        };
        let title = self.title();
        let plan = self.made_plan()?;
        let bar = CountBar::new(&format!("solving {title}"), "full first classes");
        let solved = crate::solve::solve(plan, kept, &|d, t| bar.set(d, t))?;
        self.solved = Some(solved);
        bar.finish();
        Ok(())
    }

    fn write(
        &mut self,
        _: usize,
        path: &std::path::Path,
        level: Option<i32>,
        kept: &mut Kept,
    ) -> anyhow::Result<Solved> {
        let level = level.unwrap_or(topitop_db::packed::DEFAULT_LEVEL);
        let named = |mut header: PackedHeader| {
            header.game = "topolo".into();
            header.variant = Game::variant(&self.game);
            header.program = format!("topitop {}", topitop_cli::VERSION);
            header
        };
        let (header, start) = if let Some(g) = self.gathered.take() {
            // A distributed solve's: written a template at a time from its
            // units, never holding every value.
            let plan = self.plan()?;
            let header = write_packed_streamed(path, named(g.header.clone()), level, |sink| {
                units::write_values(
                    plan,
                    &self.units,
                    &g,
                    &mut |u| kept.reread_bytes(&units::name(plan, u), units::kept_len(plan, u)),
                    sink,
                )
            })?;
            (header, crate::solve::trit_value(g.start))
        } else {
            let solved = self
                .solved
                .take()
                .ok_or_else(|| anyhow::anyhow!("nothing solved to write"))?;
            (
                write_packed_with(path, named(solved.header), &solved.data, level)?,
                solved.start,
            )
        };
        let plan = self.plan()?;
        let game = &self.game;
        Ok(Solved {
            what: format!("game topolo variant {} symmetry on", header.variant),
            counts: header.counts(),
            symmetric: true,
            size: format!("{} indices in {} tiers", plan.indices(), plan.tiers().len()),
            lines: vec![format!(
                "reachable positions: {}",
                header.tiers.iter().map(|t| t.positions).sum::<u64>()
            )],
            start: format!(
                "{}: {} {}",
                game.format_position(&game.start()),
                start.name(),
                game.shape().cells()
            ),
            max_remoteness: header.max_remoteness,
            bytes: header.encoded_len() + header.stored_len(),
        })
    }

    fn units(&mut self) -> Option<&mut dyn Units> {
        Some(self)
    }
}

fn verify(game: Topolo, path: &std::path::Path, args: cmd::verify::Args) -> anyhow::Result<()> {
    topitop_cli::common::init_threads(args.threads)?;
    let db = PackedDb::open(path)?;
    db.holds(&game)?;
    let h = db.header();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {} {}, {} tiers, written by {}",
        path.display(),
        h.game,
        h.variant,
        h.tiers.len(),
        h.program
    )?;
    writeln!(out, "format: {}", db.format().describe(path))?;
    let bar = CountBar::new("checksums", "blocks");
    db.verify_blocks(|d, t| bar.set(d as u64, t as u64))?;
    bar.finish();
    writeln!(out, "checksums: header and every block intact")?;
    if args.checksums_only {
        return Ok(());
    }
    let Some(layout) = Layout::of(game) else {
        anyhow::bail!("topolo {} cannot be indexed", Game::variant(&game));
    };
    let plan = Plan::new(layout);
    let bar = CountBar::new("checking", "full first classes");
    let found = crate::verify::verify(&plan, &db, args.show, &|d, t| bar.set(d, t))?;
    bar.finish();
    writeln!(
        out,
        "checked {} positions: {} violations",
        found.positions, found.violations
    )?;
    for e in &found.examples {
        writeln!(out, "  {e}")?;
    }
    for e in &found.count_errors {
        writeln!(out, "  counts of {e}")?;
    }
    out.flush()?;
    anyhow::ensure!(
        found.violations == 0,
        "{} values break the Bellman conditions",
        found.violations
    );
    anyhow::ensure!(
        found.count_errors.is_empty(),
        "{} tiers' counts in the header differ from a recount",
        found.count_errors.len()
    );
    Ok(())
}
