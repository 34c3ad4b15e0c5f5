//! Topolo's commands: the shared ones of every game behind the game
//! interface, but `solve`, which runs [`crate::solve`] and writes a
//! database of values, and `verify`, which checks one with
//! [`crate::verify`].

use std::io::Write;

use topitop_cli::cmd;
use topitop_cli::cmd::solve::{run_solver, Kept, Needs, Solved, Solver, Target};
use topitop_cli::progress::CountBar;
use topitop_cli::registry::{game, game_of_db, tiered, Commands, Shelved};
use topitop_db::packed::{write_packed, PackedDb};
use topitop_game_api::{Game, GameOption, Registered};
use topitop_topolo::layout::Layout;
use topitop_topolo::Topolo;

use crate::plan::{estimate, Plan, Store};

/// Topolo's commands, for the binary's list of games.
pub fn commands() -> Box<dyn Commands> {
    Box::new(TopoloCommands(tiered::<Topolo>()))
}

struct TopoloCommands(Box<dyn Commands>);

impl Commands for TopoloCommands {
    fn name(&self) -> &'static str {
        "topolo"
    }
    /// Topolo's own: its solver solves one position per symmetry class
    /// only, so none of the generic solver's flags.
    fn options(&self) -> Vec<GameOption> {
        <Topolo as Registered>::OPTIONS.to_vec()
    }
    fn perft(&self, args: cmd::perft::Args) -> anyhow::Result<()> {
        self.0.perft(args)
    }
    fn show(&self, args: cmd::show::Args) -> anyhow::Result<()> {
        self.0.show(args)
    }
    fn solve(&self, args: cmd::solve::Args) -> anyhow::Result<()> {
        let game = game::<Topolo>(&args.rules)?;
        run_solver(
            &mut TopoloSolver {
                game,
                plan: None,
                solved: None,
            },
            &args,
        )
    }
    fn verify(&self, args: cmd::verify::Args) -> anyhow::Result<()> {
        let g: Topolo = game_of_db(&args.db)?;
        let path = args
            .db
            .db
            .clone()
            .unwrap_or_else(|| cmd::db_path(&g, &args.db.dir));
        // A database of records (an older solve, or the generic solver's)
        // is checked the generic way.
        if std::fs::File::open(&path)
            .and_then(|mut f| {
                let mut magic = [0u8; 8];
                std::io::Read::read_exact(&mut f, &mut magic).map(|()| magic)
            })
            .is_ok_and(|m| m == topitop_db::packed::MAGIC)
        {
            verify(g, &path, args)
        } else {
            self.0.verify(args)
        }
    }
    fn query(&self, args: cmd::query::Args) -> anyhow::Result<()> {
        self.0.query(args)
    }
    fn export(&self, args: cmd::export::Args) -> anyhow::Result<()> {
        self.0.export(args)
    }
    fn stats(&self, args: cmd::stats::Args) -> anyhow::Result<()> {
        self.0.stats(args)
    }
    fn play(&self, args: cmd::play::Args) -> anyhow::Result<()> {
        self.0.play(args)
    }
    fn canonical(&self, args: cmd::canonical::Args) -> anyhow::Result<()> {
        self.0.canonical(args)
    }
    fn serve(&self, args: &cmd::serve::Args) -> anyhow::Result<Shelved> {
        self.0.serve(args)
    }
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
}

impl TopoloSolver {
    fn plan(&self) -> anyhow::Result<&Plan> {
        self.plan
            .as_ref()
            .ok_or_else(|| anyhow::anyhow!("topolo's plan is made before solving"))
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
                topitop_topolo::layout::MAX_INDEXED_CELLS
            );
        };
        // The board can be indexed: its plan gives the exact count of
        // indices and the memory from it, where the estimate above only
        // approximates the symmetry classes.
        let plan = Plan::new(layout);
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
        let bar = CountBar::new(&format!("solving {}", self.title()), "full first classes");
        self.solved = Some(crate::solve::solve(self.plan()?, kept, &|d, t| bar.set(d, t))?);
        bar.finish();
        Ok(())
    }

    fn write(
        &mut self,
        _: usize,
        path: &std::path::Path,
        _level: i32,
        _: &mut Kept,
    ) -> anyhow::Result<Solved> {
        let solved = self
            .solved
            .take()
            .ok_or_else(|| anyhow::anyhow!("nothing solved to write"))?;
        let plan = self.plan()?;
        let mut header = solved.header;
        header.game = "topolo".into();
        header.variant = Game::variant(&self.game);
        header.program = format!("topitop {}", topitop_cli::VERSION);
        let header = write_packed(path, header, &solved.data)?;
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
                solved.start.name(),
                game.shape().cells()
            ),
            max_remoteness: header.max_remoteness,
            bytes: header.encoded_len() + header.data_len(),
        })
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
