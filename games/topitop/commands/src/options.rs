//! Topitop's options: what it declares to the command line, the rules
//! they select, and the database they name.

use games_topitop_rules::{Budget, Rules};
use topitop_cli::common::DbArgs;
use topitop_cli::options::GameArgs;
use topitop_game_api::{GameOption, Registered};

/// `--rules`.
const RULES: &str = "rules";
/// `--variant`.
const VARIANT: &str = "variant";
/// `--budget`.
const BUDGET: &str = "budget";
/// The pieces of the real game, `--budget`'s default.
const STANDARD_BUDGET: &str = "2/2/4/4";
/// `solve --all`.
pub const ALL: &str = "all";
/// `export --tier`.
pub const TIER: &str = "tier";
/// `export --exact`.
const EXACT: &str = "exact";
/// `crosscheck --gamesman-classic DIR`.
const GAMESMAN_CLASSIC: &str = "gamesman-classic";
/// `crosscheck A B --report FILE.html`.
const REPORT: &str = "report";

/// Every option Topitop takes, for the command line's help and checks:
/// the rules' own ([`Registered::OPTIONS`]) and its commands'.
pub fn declared() -> Vec<GameOption> {
    let mut options = <Rules as Registered>::OPTIONS.to_vec();
    options.extend([
        GameOption::flag(
            ALL,
            "solve every ruleset of the budget together, the 8 v1 variants and v0, one database \
             each; their moves are the same, so each tier's moves are worked out once for all nine",
            &["solve"],
        ),
        topitop_cli::cmd::solve::NO_SYMMETRY,
        GameOption::value(TIER, "N", "only this tier (GamesmanClassic tier number)", None).only(&["export"]),
        GameOption::flag(
            EXACT,
            "with --format gamesman-classic: compress at GamesmanClassic's own zlib level, for \
             files byte-identical to its solve's (about 3 times slower; the default level gives \
             the same uncompressed files)",
            &["export"],
        ),
        GameOption::value(
            BUDGET,
            "B/R/S/L",
            "the piece budget of the databases to serve (small budgets for tests)",
            Some(STANDARD_BUDGET),
        )
        .only(&["serve"]),
        GameOption::value(
            GAMESMAN_CLASSIC,
            "DIR",
            "compare our database (--db, or the rules options) with the GamesmanClassic tier \
             files in DIR (its data directory or one `mtopitop_<option>_tierdb` folder)",
            None,
        )
        .only(&["crosscheck"]),
        GameOption::value(
            REPORT,
            "FILE.html",
            "A B: also write a self-contained HTML report (tables and charts)",
            None,
        )
        .only(&["crosscheck"]),
    ]);
    options
}

/// `serve --budget`: the budget of the databases served.
///
/// # Errors
/// A malformed budget.
pub fn served_budget(args: &topitop_cli::options::AllGames) -> anyhow::Result<Budget> {
    Ok(args.options.get(BUDGET).unwrap_or(STANDARD_BUDGET).parse()?)
}

/// `crosscheck --gamesman-classic DIR`, if given.
pub fn gamesman_classic(args: &GameArgs) -> Option<std::path::PathBuf> {
    args.options.get(GAMESMAN_CLASSIC).map(Into::into)
}

/// `crosscheck --report FILE.html`, if given.
pub fn report(args: &GameArgs) -> Option<std::path::PathBuf> {
    args.options.get(REPORT).map(Into::into)
}

/// `export --tier N`, if given.
///
/// # Errors
/// A value that is not a tier number.
pub fn tier(args: &GameArgs) -> anyhow::Result<Option<u64>> {
    args.options
        .get(TIER)
        .map(|t| {
            t.parse()
                .map_err(|_| anyhow::anyhow!("--tier {t:?}: a tier is a GamesmanClassic tier number, e.g. 0"))
        })
        .transpose()
}

/// True when `export --exact` was given.
pub fn exact(args: &GameArgs) -> bool {
    args.options.has(EXACT)
}

/// The rules the shared options select, as Topitop reads them.
pub trait RulesOptions {
    /// The rules these options select.
    ///
    /// # Errors
    /// A value Topitop refuses.
    fn rules(&self) -> anyhow::Result<Rules>;
    /// The budget these options select.
    ///
    /// # Errors
    /// A malformed budget.
    fn budget(&self) -> anyhow::Result<Budget>;
    /// Refuses rules options that contradict the database `db` was opened
    /// with: a file answers for its own rules only, and answering silently
    /// for others would be a wrong answer.
    ///
    /// # Errors
    /// An option was given whose value differs from the file's rules.
    fn check_against(&self, db: &games_topitop_solved::Database) -> anyhow::Result<()>;
}

/// The options given on the command line, as they were written.
fn given(args: &GameArgs) -> Vec<String> {
    [RULES, VARIANT, BUDGET]
        .into_iter()
        .filter_map(|name| Some(format!("--{name} {}", args.options.get(name)?)))
        .collect()
}

impl RulesOptions for GameArgs {
    fn rules(&self) -> anyhow::Result<Rules> {
        Rules::from_options(&self.options).map_err(anyhow::Error::msg)
    }

    fn budget(&self) -> anyhow::Result<Budget> {
        Ok(self.rules()?.budget())
    }

    fn check_against(&self, db: &games_topitop_solved::Database) -> anyhow::Result<()> {
        let file = db.rules();
        let given = given(self);
        if given.is_empty() {
            return Ok(());
        }
        // What the options select, those not given taken from the file.
        let mut options = self.options.clone();
        if !options.has(RULES) && !options.has(VARIANT) {
            let ruleset = file.ruleset();
            let number = ruleset.variant().number().to_string();
            options = options.with(RULES, ruleset.name()).with(VARIANT, &number);
        }
        if !options.has(BUDGET) {
            options = options.with(BUDGET, &file.budget().to_string());
        }
        let wanted = Rules::from_options(&options).map_err(anyhow::Error::msg)?;
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

/// The database the shared options name, as Topitop finds it.
pub trait DbOptions {
    /// The database file these options name.
    ///
    /// # Errors
    /// Rules options whose values Topitop refuses.
    fn path(&self) -> anyhow::Result<std::path::PathBuf>;
    /// Opens the database, with a hint to run `solve` when it is missing;
    /// refuses rules options that contradict the file named by `--db`.
    ///
    /// # Errors
    /// A missing, damaged or contradicted file.
    fn open(&self) -> anyhow::Result<games_topitop_solved::Database>;
}

impl DbOptions for DbArgs {
    fn path(&self) -> anyhow::Result<std::path::PathBuf> {
        match &self.db {
            Some(p) => Ok(p.clone()),
            None => Ok(games_topitop_solved::path_in(&self.dir, self.rules.rules()?)),
        }
    }

    fn open(&self) -> anyhow::Result<games_topitop_solved::Database> {
        let path = self.path()?;
        if path.is_dir() && self.db.is_some() {
            anyhow::bail!(
                "{} is a directory: --db names a database file (use --dir DIR with the rules options to find one in a directory)",
                path.display()
            );
        }
        if self.db.is_some() && !path.exists() && !path.is_symlink() {
            anyhow::bail!(
                "{}: no such file (given with --db); check the path, or create it with `topitop solve --out DIR` (same rules options)",
                path.display()
            );
        }
        let db = open_db(&path)?;
        self.rules.check_against(&db)?;
        Ok(db)
    }
}

/// Opens the Topitop database at `path`, with a hint to run `solve` when
/// it is missing. Only a regular file is read: a folder, a FIFO or a device is
/// refused at once, and a symbolic-link loop says so.
pub fn open_db(path: &std::path::Path) -> anyhow::Result<games_topitop_solved::Database> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => anyhow::bail!(
            "{}: no such database; create it with `topitop solve` (same rules options) or name one with --db",
            path.display()
        ),
        Err(e) => anyhow::bail!("{}: {e}", path.display()),
        Ok(m) if m.is_dir() => anyhow::bail!("{} is a directory, not a database file", path.display()),
        Ok(_) => Ok(games_topitop_solved::Database::open(path)?),
    }
}
