//! Options and helpers shared by the subcommands.

use clap::Args;
use topitop_game::{Budget, Rules, Ruleset};

/// Which rules to play: `--rules`, `--variant`, `--budget`. Each is
/// optional so that a command given a database file can tell the options
/// a user set from the defaults, and refuse options the file contradicts.
#[derive(Args, Clone, Debug)]
pub struct RulesArgs {
    /// Ruleset: v1 (GamesmanClassic's current module) or v0 (the older
    /// rules) [default: v1].
    #[arg(long, value_name = "v0|v1")]
    pub rules: Option<String>,
    /// Topitop: the GamesmanClassic option number 0-7 (v1 only): bit 0 no
    /// move loses, bit 1 two-tower tying rule, bit 2 misère [default: 0].
    /// Topolo: full or size-only [default: full].
    #[arg(long, value_name = "N|NAME", allow_negative_numbers = true)]
    pub variant: Option<String>,
    /// Piece budget as blue buckets/red buckets/smalls/larges [default: 2/2/4/4].
    #[arg(long, value_name = "B/R/S/L")]
    pub budget: Option<String>,
    /// The game: topitop, or topolo (docs/topolo.md) [default: topitop].
    #[arg(long, value_name = "NAME")]
    pub game: Option<String>,
    /// Topolo's board as RxC, 2 to 8 rows and columns [default: 8x8].
    #[arg(long, value_name = "RxC")]
    pub board: Option<String>,
}

impl RulesArgs {
    /// The game these options name: `topitop` unless `--game` says other.
    pub fn game(&self) -> &str {
        self.game.as_deref().unwrap_or("topitop")
    }

    /// Topitop's variant number.
    fn variant_number(&self) -> anyhow::Result<i64> {
        self.variant.as_deref().map_or(Ok(0), |v| {
            v.parse().map_err(|_| {
                anyhow::anyhow!("--variant {v:?}: Topitop's variants are the numbers 0 to 7 (names are Topolo's: use --game topolo)")
            })
        })
    }

    /// The rules these options select.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        if self.game() != "topitop" {
            anyhow::bail!(
                "this command's Topitop options do not apply to --game {}",
                self.game()
            );
        }
        anyhow::ensure!(
            self.board.is_none(),
            "--board is Topolo's (with --game topolo); Topitop's board is 3x3, its pieces set by --budget"
        );
        let ruleset = Ruleset::parse(self.rules.as_deref().unwrap_or("v1"), self.variant_number()?)?;
        Ok(Rules::with_budget(ruleset, self.budget()?))
    }

    /// The budget these options select.
    pub fn budget(&self) -> anyhow::Result<Budget> {
        Ok(self.budget.as_deref().unwrap_or("2/2/4/4").parse()?)
    }

    /// The options given on the command line, as they were written.
    fn given(&self) -> Vec<String> {
        let mut given = Vec::new();
        if let Some(r) = &self.rules {
            given.push(format!("--rules {r}"));
        }
        if let Some(v) = &self.variant {
            given.push(format!("--variant {v}"));
        }
        if let Some(b) = &self.budget {
            given.push(format!("--budget {b}"));
        }
        given
    }

    /// Refuses rules options that contradict the database `db` was opened
    /// with: a file answers for its own rules only, and answering silently
    /// for others would be a wrong answer.
    ///
    /// # Errors
    /// An option was given whose value differs from the file's rules.
    pub fn check_against(&self, db: &topitop_game_solved::Database) -> anyhow::Result<()> {
        let file = db.rules();
        let given = self.given();
        if given.is_empty() {
            return Ok(());
        }
        let ruleset_given = self.rules.is_some() || self.variant.is_some();
        let wanted = Rules::with_budget(
            if ruleset_given {
                Ruleset::parse(self.rules.as_deref().unwrap_or("v1"), self.variant_number()?)?
            } else {
                file.ruleset()
            },
            if self.budget.is_some() {
                self.budget()?
            } else {
                file.budget()
            },
        );
        anyhow::ensure!(
            wanted == file,
            "{} solves rules {} budget {}, but {} asks for rules {} budget {}; \
             give --db alone (a file answers for its own rules), or name the database of those rules",
            db.path().display(),
            file.ruleset(),
            file.budget(),
            given.join(" "),
            wanted.ruleset(),
            wanted.budget()
        );
        Ok(())
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
            None => Ok(topitop_game_solved::path_in(&self.dir, self.rules.rules()?)),
        }
    }

    /// Opens the database, with a hint to run `solve` when it is missing;
    /// refuses rules options that contradict the file named by `--db`.
    pub fn open(&self) -> anyhow::Result<topitop_game_solved::Database> {
        let path = self.path()?;
        if path.is_dir() && self.db.is_some() {
            anyhow::bail!(
                "{} is a directory: --db names a database file (use --dir DIR with the rules options to find one in a directory)",
                path.display()
            );
        }
        let db = open_db(&path)?;
        self.rules.check_against(&db)?;
        Ok(db)
    }
}

/// Opens the database at `path`, with a hint to run `solve` when it is
/// missing. Only a regular file is read: a folder, a FIFO or a device is
/// refused at once, and a symbolic-link loop says so.
pub fn open_db(path: &std::path::Path) -> anyhow::Result<topitop_game_solved::Database> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => anyhow::bail!(
            "{}: no such database; create it with `topitop solve` (same rules options) or name one with --db",
            path.display()
        ),
        Err(e) => anyhow::bail!("{}: {e}", path.display()),
        Ok(m) if m.is_dir() => anyhow::bail!("{} is a directory, not a database file", path.display()),
        Ok(_) => Ok(topitop_game_solved::Database::open(path)?),
    }
}
