//! Topolo's commands: the shared ones of every game behind the game
//! interface, but `solve`, which runs [`crate::solve`] and writes a
//! database of values, and `verify`, which checks one with
//! [`crate::verify`].

use std::io::Write;
use std::time::Instant;

use topitop_cli::cmd;
use topitop_cli::cmd::solve::Kept;
use topitop_cli::registry::{game, game_of_db, tiered, Commands, Found};
use topitop_db::packed::{write_packed, PackedDb};
use topitop_game_api::{Game, GameOption, Registered};
use topitop_solver::usage::cpu_time;
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
        solve(game::<Topolo>(&args.rules)?, args)
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
    fn serve(&self, args: &cmd::serve::Args) -> anyhow::Result<Found> {
        self.0.serve(args)
    }
}

/// What a solve is made from, as its checkpoints record it.
fn made_from(game: &Topolo) -> String {
    format!(
        "game topolo; variant {}; solver topolo-solved; program topitop {}",
        Game::variant(game),
        topitop_cli::VERSION
    )
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

fn solve(game: Topolo, args: cmd::solve::Args) -> anyhow::Result<()> {
    topitop_cli::common::init_threads(args.threads)?;
    let variant = Game::variant(&game);
    // From counts alone, before anything large is made.
    let threads = rayon::current_num_threads();
    let (estimated, need) = estimate(&Layout::unshared(game), threads);
    let Some(layout) = Layout::of(game) else {
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
    let need = plan.memory(threads);
    let available = topitop_cli::common::available_memory();
    if !args.ignore_memory_estimate {
        if let Some(avail) = available.filter(|&a| need > a) {
            anyhow::bail!(
                "solving topolo {variant} needs about {:.1} GB of memory ({indices} indices, about {:.1} GB of values), but only {:.1} GB is available; solve a smaller board, or pass --ignore-memory-estimate to try anyway",
                need as f64 / 1e9,
                indices as f64 / 5e9,
                avail as f64 / 1e9
            );
        }
    }
    if need >= 1 << 30 {
        eprintln!(
            "solving topolo {variant}: {indices} indices, about {:.1} GB of memory at the peak and a database of about {:.1} GB",
            need as f64 / 1e9,
            indices as f64 / 5e9
        );
    }
    topitop_cli::solve_lock::create_out_dir(&args.out)?;
    let path = cmd::db_path(&game, &args.out);
    anyhow::ensure!(
        !path.is_dir(),
        "{} is a directory: solve writes its database there; remove it or choose another --out",
        path.display()
    );
    // The database, and the checkpoints beside it until it is written
    // (two bits a value).
    topitop_files::ensure_space(
        &args.out,
        indices / 5 + indices / 4 + (2 << 20),
        "this solve (checkpoints, then the database)",
    )?;
    let lock = topitop_cli::solve_lock::SolveLock::take(&path)?;
    topitop_db::remove_stale_temps(&path)?;
    let start = Instant::now();
    let cpu_start = cpu_time();
    let mut kept = Kept::open(&path, &made_from(&game), args.checkpoint_after)?;
    let bar =
        topitop_cli::progress::CountBar::new(&format!("solving topolo {variant}"), "full first classes");
    let solved = crate::solve::solve(&plan, &mut kept, &|d, t| bar.set(d, t))?;
    bar.finish();
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_start
        .zip(cpu_time())
        .map(|(a, b)| b.saturating_sub(a).as_secs_f64());
    let mut header = solved.header;
    header.game = "topolo".into();
    header.variant = variant.clone();
    header.program = format!("topitop {}", topitop_cli::VERSION);
    let header = write_packed(&path, header, &solved.data)?;
    kept.finish(&path)?;
    lock.release();
    let bytes = header.encoded_len() + header.data_len();
    let c = header.counts();
    let positions: u64 = header.tiers.iter().map(|t| t.positions).sum();
    let mut out = std::io::stdout().lock();
    if solved.resumed > 0 {
        writeln!(out, "resumed {} finished parts from checkpoints", solved.resumed)?;
    }
    writeln!(out, "game topolo variant {variant} symmetry on")?;
    writeln!(
        out,
        "solved {} positions (one per symmetry class) in {secs:.1} s{} ({} indices in {} tiers)",
        c.iter().sum::<u64>(),
        cpu.map_or(String::new(), |c| format!(", {c:.1} CPU-s")),
        plan.indices(),
        plan.tiers().len()
    )?;
    writeln!(
        out,
        "by value: {} win, {} lose, {} tie, {} draw",
        c[0], c[1], c[2], c[3]
    )?;
    writeln!(out, "reachable positions: {positions}")?;
    let cells = u32::from(game.shape().cells());
    writeln!(
        out,
        "start position {}: {} {cells}",
        game.format_position(&game.start()),
        solved.start.name()
    )?;
    writeln!(out, "largest remoteness: {}", header.max_remoteness)?;
    writeln!(out, "wrote {} ({:.1} MB)", path.display(), bytes as f64 / 1e6)?;
    Ok(())
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
    let bar = topitop_cli::progress::CountBar::new("checksums", "blocks");
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
    let bar = topitop_cli::progress::CountBar::new("checking", "full first classes");
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
