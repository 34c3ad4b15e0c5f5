//! Options and helpers shared by the subcommands.

use clap::Args;
use topitop_game::{Budget, Rules, Ruleset};

/// Which rules to play: `--rules`, `--variant`, `--budget`.
#[derive(Args, Clone, Debug)]
pub struct RulesArgs {
    /// Ruleset: v1 (GamesmanClassic's current module) or v0 (the older rules).
    #[arg(long, default_value = "v1", value_name = "v0|v1")]
    pub rules: String,
    /// GamesmanClassic option number 0-7 (v1 only): bit 0 no move loses,
    /// bit 1 two-tower tying rule, bit 2 misère.
    #[arg(long, default_value_t = 0, value_name = "N", allow_negative_numbers = true)]
    pub variant: i64,
    /// Piece budget as blue buckets/red buckets/smalls/larges.
    #[arg(long, default_value = "2/2/4/4", value_name = "B/R/S/L")]
    pub budget: String,
}

impl RulesArgs {
    /// The rules these options select.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        let ruleset = Ruleset::parse(&self.rules, self.variant)?;
        let budget: Budget = self.budget.parse()?;
        Ok(Rules::with_budget(ruleset, budget))
    }
}

/// True when `e` is a write to a closed pipe (e.g. `topitop ... | head`),
/// which is not a failure.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The message of `e` with its causes, each once: errors that already
/// include their cause's text in their own (e.g. a file error naming the
/// file and what is wrong with it) are not followed by that text again.
pub fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.is_empty() {
            text = part;
        } else if !text.ends_with(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
    }
    text
}

/// Sizes the worker pool: `threads` workers, or one per core.
///
/// # Errors
/// A count [`check_threads`] refuses.
pub fn init_threads(threads: Option<usize>) -> anyhow::Result<()> {
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(check_threads(n)?)
            .build_global()?;
    }
    Ok(())
}

/// The most worker threads a command accepts: far beyond any machine's
/// useful parallelism for this work, far below what starves the system.
pub const MAX_THREADS: usize = 256;

/// `n` if it is a sensible `--threads` value (1 to [`MAX_THREADS`]).
///
/// # Errors
/// Zero, or more than [`MAX_THREADS`].
pub fn check_threads(n: usize) -> anyhow::Result<usize> {
    anyhow::ensure!(n > 0, "--threads must be at least 1");
    anyhow::ensure!(
        n <= MAX_THREADS,
        "--threads {n} is more than the {MAX_THREADS} this command allows (this machine has {} cores)",
        std::thread::available_parallelism().map_or(1, |c| c.get())
    );
    Ok(n)
}

/// Where a database is: `--db FILE`, or the default file for the rules
/// under `--dir`.
#[derive(Args, Clone, Debug)]
pub struct DbArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Directory holding databases named by their rules (as `solve` writes them).
    #[arg(long, default_value = "data", value_name = "DIR")]
    pub dir: std::path::PathBuf,
    /// The database file (overrides --dir and the rules options).
    #[arg(long, value_name = "FILE")]
    pub db: Option<std::path::PathBuf>,
}

impl DbArgs {
    /// The database file these options name.
    pub fn path(&self) -> anyhow::Result<std::path::PathBuf> {
        match &self.db {
            Some(p) => Ok(p.clone()),
            None => Ok(topitop_db::path_in(&self.dir, self.rules.rules()?)),
        }
    }

    /// Opens the database, with a hint to run `solve` when it is missing.
    pub fn open(&self) -> anyhow::Result<topitop_db::Database> {
        open_db(&self.path()?)
    }
}

/// Opens the database at `path`, with a hint to run `solve` when it is missing.
pub fn open_db(path: &std::path::Path) -> anyhow::Result<topitop_db::Database> {
    if path.is_dir() {
        anyhow::bail!(
            "{} is a directory: --db names a database file (use --dir DIR with the rules options to find one in a directory)",
            path.display()
        );
    }
    if !path.exists() {
        anyhow::bail!(
            "{}: no such database; create it with `topitop solve` (same rules options) or name one with --db",
            path.display()
        );
    }
    Ok(topitop_db::Database::open(path)?)
}
