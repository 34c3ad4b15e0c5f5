//! Topitop's reading of the shared options: the rules they select, and
//! the database they name.

use topitop_cli::common::{DbArgs, RulesArgs};
use topitop_rules::{Budget, Rules, Ruleset};

/// The rules the shared options select, as Topitop reads them.
pub trait RulesOptions {
    /// The rules these options select.
    ///
    /// # Errors
    /// An option Topitop does not take, or a value it refuses.
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
    fn check_against(&self, db: &topitop_solved::Database) -> anyhow::Result<()>;
}

/// Topitop's variant number.
fn variant_number(args: &RulesArgs) -> anyhow::Result<i64> {
    args.variant.as_deref().map_or(Ok(0), |v| {
        v.parse().map_err(|_| {
            anyhow::anyhow!("--variant {v:?}: Topitop's variants are the numbers 0 to 7 (names are other games': use --game NAME)")
        })
    })
}

/// The options given on the command line, as they were written.
fn given(args: &RulesArgs) -> Vec<String> {
    let mut given = Vec::new();
    if let Some(r) = &args.rules {
        given.push(format!("--rules {r}"));
    }
    if let Some(v) = &args.variant {
        given.push(format!("--variant {v}"));
    }
    if let Some(b) = &args.budget {
        given.push(format!("--budget {b}"));
    }
    given
}

impl RulesOptions for RulesArgs {
    fn rules(&self) -> anyhow::Result<Rules> {
        anyhow::ensure!(
            self.board.is_none(),
            "--board is not an option of Topitop, whose board is 3x3 and its pieces set by --budget"
        );
        let ruleset = Ruleset::parse(self.rules.as_deref().unwrap_or("v1"), variant_number(self)?)?;
        Ok(Rules::with_budget(ruleset, self.budget()?))
    }

    fn budget(&self) -> anyhow::Result<Budget> {
        Ok(self.budget.as_deref().unwrap_or("2/2/4/4").parse()?)
    }

    fn check_against(&self, db: &topitop_solved::Database) -> anyhow::Result<()> {
        let file = db.rules();
        let given = given(self);
        if given.is_empty() {
            return Ok(());
        }
        let ruleset_given = self.rules.is_some() || self.variant.is_some();
        let wanted = Rules::with_budget(
            if ruleset_given {
                Ruleset::parse(self.rules.as_deref().unwrap_or("v1"), variant_number(self)?)?
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

/// The database the shared options name, as Topitop finds it.
pub trait DbOptions {
    /// The database file these options name.
    ///
    /// # Errors
    /// Rules options Topitop refuses.
    fn path(&self) -> anyhow::Result<std::path::PathBuf>;
    /// Opens the database, with a hint to run `solve` when it is missing;
    /// refuses rules options that contradict the file named by `--db`.
    ///
    /// # Errors
    /// A missing, damaged or contradicted file.
    fn open(&self) -> anyhow::Result<topitop_solved::Database>;
}

impl DbOptions for DbArgs {
    fn path(&self) -> anyhow::Result<std::path::PathBuf> {
        match &self.db {
            Some(p) => Ok(p.clone()),
            None => Ok(topitop_solved::path_in(&self.dir, self.rules.rules()?)),
        }
    }

    fn open(&self) -> anyhow::Result<topitop_solved::Database> {
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

/// Opens the Topitop database at `path`, with a hint to run `solve` when
/// it is missing. Only a regular file is read: a folder, a FIFO or a device is
/// refused at once, and a symbolic-link loop says so.
pub fn open_db(path: &std::path::Path) -> anyhow::Result<topitop_solved::Database> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => anyhow::bail!(
            "{}: no such database; create it with `topitop solve` (same rules options) or name one with --db",
            path.display()
        ),
        Err(e) => anyhow::bail!("{}: {e}", path.display()),
        Ok(m) if m.is_dir() => anyhow::bail!("{} is a directory, not a database file", path.display()),
        Ok(_) => Ok(topitop_solved::Database::open(path)?),
    }
}
