//! What the server serves: the GamesmanUni variants of Topitop, each backed
//! by its database, found by name in one directory. A variant whose file is
//! damaged is left out; the others are served.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use topitop_db::DbError;
use topitop_rules::{Budget, Rules, RulesError, Ruleset};

use crate::Database;

/// GamesmanUni's id of the game.
pub const GAME_ID: &str = "topitop";
/// The game's display name.
pub const GAME_NAME: &str = "Topitop";

/// One GamesmanUni variant: its URL id, display name and rules.
#[derive(Clone, Copy, Debug)]
pub struct VariantSpec {
    /// The id in URLs (`/topitop/<id>/`).
    pub id: &'static str,
    /// The name GamesmanUni shows.
    pub name: &'static str,
    /// `v0` or `v1`.
    pub ruleset: &'static str,
    /// GamesmanClassic's option number (0 for v0).
    pub option: i64,
}

/// Every variant the server knows, in the order GamesmanUni lists them:
/// GamesmanClassic's 8 options by number, then the 2006 rules. `regular` is
/// option 0, the id GamesmanUni's deep links use.
pub const VARIANTS: [VariantSpec; 9] = [
    spec("regular", "Standard Topitop", "v1", 0),
    spec("no-move-loses", "No Move Loses", "v1", 1),
    spec("tying-rule", "Tying Rule", "v1", 2),
    spec("no-move-loses-tying-rule", "No Move Loses, Tying Rule", "v1", 3),
    spec("misere", "Misère", "v1", 4),
    spec("misere-no-move-loses", "Misère, No Move Loses", "v1", 5),
    spec("misere-tying-rule", "Misère, Tying Rule", "v1", 6),
    spec(
        "misere-no-move-loses-tying-rule",
        "Misère, No Move Loses, Tying Rule",
        "v1",
        7,
    ),
    spec("v0", "Original Rules (2006)", "v0", 0),
];

const fn spec(id: &'static str, name: &'static str, ruleset: &'static str, option: i64) -> VariantSpec {
    VariantSpec {
        id,
        name,
        ruleset,
        option,
    }
}

impl VariantSpec {
    /// The rules of this variant with `budget`.
    ///
    /// # Errors
    /// None for the entries of [`VARIANTS`]; an error only for a bad table.
    pub fn rules(&self, budget: Budget) -> Result<Rules, RulesError> {
        Ok(Rules::with_budget(
            Ruleset::parse(self.ruleset, self.option)?,
            budget,
        ))
    }
}

/// One version of a file, as far as its metadata tells: a file replaced
/// (renamed over, or rewritten in place) gets another stamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileStamp {
    len: u64,
    modified: Option<SystemTime>,
    /// Device, inode and status-change time (seconds, nanoseconds).
    #[cfg(unix)]
    node: (u64, u64, i64, i64),
}

impl FileStamp {
    /// The stamp of the file at `path` now.
    ///
    /// # Errors
    /// The file cannot be looked at (e.g. it is gone).
    pub fn of(path: &Path) -> std::io::Result<FileStamp> {
        let meta = std::fs::metadata(path)?;
        #[cfg(unix)]
        let node = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino(), meta.ctime(), meta.ctime_nsec())
        };
        Ok(FileStamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            node,
        })
    }
}

/// A variant being served: its description, rules and database (in
/// memory, shared by the requests using it).
#[derive(Clone)]
pub struct Served {
    /// Id, name and rules options.
    pub spec: VariantSpec,
    /// The rules, with the server's budget.
    pub rules: Rules,
    /// The database of those rules.
    pub db: Arc<Database>,
    /// The file's stamp just before it was read.
    pub stamp: FileStamp,
}

/// A variant whose file is there but cannot be served.
pub struct Damaged {
    /// Id, name and rules options.
    pub spec: VariantSpec,
    /// The file.
    pub path: PathBuf,
    /// The file's stamp just before it was read, if it could be taken.
    pub stamp: Option<FileStamp>,
    /// Why it cannot be served.
    pub error: CatalogError,
}

/// What the directory holds for one variant.
pub enum Found {
    /// No file.
    Absent(PathBuf),
    /// A valid database of the variant's rules.
    Served(Served),
    /// A file that is not one.
    Damaged(Damaged),
}

/// Why the server cannot start on a directory, or cannot serve one file.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// Not one database of the variant table is there.
    #[error(
        "no database to serve in {dir}: looked for {looked}; create one with \
         `topitop solve --out {dir}{budget_option}` (add `--variant N` or `--rules v0` for the others)"
    )]
    NoDatabase {
        /// The directory.
        dir: String,
        /// The file names looked for, comma-separated.
        looked: String,
        /// ` --budget B/R/S/L` for a budget other than the standard one.
        budget_option: String,
    },
    /// Databases are there, but every one is damaged.
    #[error("no healthy database to serve in {dir}: {damaged}")]
    NoHealthyDatabase {
        /// The directory.
        dir: String,
        /// Each damaged file and why, `; `-separated.
        damaged: String,
    },
    /// A database is there but cannot be opened.
    #[error("cannot serve variant {variant}: {source}")]
    Open {
        /// The variant's id.
        variant: &'static str,
        /// Why.
        source: DbError,
    },
    /// A file holds other rules than its name says.
    #[error("{path}: holds the rules {found} with budget {found_budget}, but its name says {named} with budget {named_budget}")]
    WrongRules {
        /// The file.
        path: String,
        /// The rules it holds.
        found: Ruleset,
        /// The budget it holds.
        found_budget: Budget,
        /// The rules its name says.
        named: Ruleset,
        /// The budget its name says.
        named_budget: Budget,
    },
    /// The variant table names impossible rules (a programming error).
    #[error(transparent)]
    Rules(#[from] RulesError),
}

/// The variants whose databases exist, in [`VARIANTS`] order.
pub struct Catalog {
    /// The directory of the databases.
    pub dir: PathBuf,
    /// The piece budget served.
    pub budget: Budget,
    /// The served variants; never empty.
    pub variants: Vec<Served>,
    /// The variants whose file is damaged, left out.
    pub damaged: Vec<Damaged>,
}

/// Reads the database of `spec` with `budget` from `dir`, if its file is
/// there, and checks its header, block table and rules (its blocks are
/// checked when first read; [`find_verified`] checks them all).
///
/// # Errors
/// Only for a bad variant table; a bad file is [`Found::Damaged`].
pub fn find(dir: &Path, budget: Budget, spec: VariantSpec) -> Result<Found, RulesError> {
    let rules = spec.rules(budget)?;
    let path = crate::path_in(dir, rules);
    let stamp = match FileStamp::of(&path) {
        Ok(stamp) => stamp,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Absent(path)),
        Err(e) => {
            let error = CatalogError::Open {
                variant: spec.id,
                source: DbError::Io {
                    path: path.clone(),
                    source: e,
                },
            };
            return Ok(Found::Damaged(Damaged {
                spec,
                path,
                stamp: None,
                error,
            }));
        }
    };
    let damaged = |error| {
        Found::Damaged(Damaged {
            spec,
            path: path.clone(),
            stamp: Some(stamp),
            error,
        })
    };
    let db = match Database::open(&path) {
        Ok(db) => db,
        Err(source) => {
            return Ok(damaged(CatalogError::Open {
                variant: spec.id,
                source,
            }))
        }
    };
    if db.rules() != rules {
        return Ok(damaged(CatalogError::WrongRules {
            path: path.display().to_string(),
            found: db.rules().ruleset(),
            found_budget: db.rules().budget(),
            named: rules.ruleset(),
            named_budget: budget,
        }));
    }
    Ok(Found::Served(Served {
        spec,
        rules,
        db: Arc::new(db),
        stamp,
    }))
}

/// [`find`], with every block of the database checked too.
///
/// # Errors
/// As [`find`].
pub fn find_verified(dir: &Path, budget: Budget, spec: VariantSpec) -> Result<Found, RulesError> {
    Ok(match find(dir, budget, spec)? {
        Found::Served(s) => match s.db.verify_blocks(|_, _| {}) {
            Ok(()) => Found::Served(s),
            Err(source) => Found::Damaged(Damaged {
                spec,
                path: s.db.path().to_path_buf(),
                stamp: Some(s.stamp),
                error: CatalogError::Open {
                    variant: spec.id,
                    source,
                },
            }),
        },
        other => other,
    })
}

impl Catalog {
    /// What `dir` holds for every variant of [`VARIANTS`] with `budget`:
    /// as [`Catalog::open`], but no database at all is not an error (other
    /// games may be served).
    ///
    /// # Errors
    /// Only for a bad variant table.
    pub fn scan(dir: &Path, budget: Budget) -> Result<Catalog, RulesError> {
        let mut variants = Vec::new();
        let mut damaged = Vec::new();
        for spec in VARIANTS {
            match find(dir, budget, spec)? {
                Found::Absent(_) => {}
                Found::Served(s) => variants.push(s),
                Found::Damaged(d) => damaged.push(d),
            }
        }
        Ok(Catalog {
            dir: dir.to_path_buf(),
            budget,
            variants,
            damaged,
        })
    }

    /// Reads, from `dir`, the database of every variant of [`VARIANTS`]
    /// with `budget` (the file names `topitop solve --out DIR` writes),
    /// skipping the variants whose file is absent and setting aside, in
    /// [`Catalog::damaged`], those whose file is not a valid database of the
    /// rules its name says.
    ///
    /// # Errors
    /// No database at all (with the commands that make them), or only
    /// damaged ones (each named with its fault).
    pub fn open(dir: &Path, budget: Budget) -> Result<Catalog, CatalogError> {
        let catalog = Catalog::scan(dir, budget)?;
        let (variants, damaged) = (&catalog.variants, &catalog.damaged);
        if variants.is_empty() && !damaged.is_empty() {
            return Err(CatalogError::NoHealthyDatabase {
                dir: dir.display().to_string(),
                damaged: damaged
                    .iter()
                    .map(|d| d.error.to_string())
                    .collect::<Vec<_>>()
                    .join("; "),
            });
        }
        if variants.is_empty() {
            return Err(CatalogError::NoDatabase {
                dir: dir.display().to_string(),
                looked: VARIANTS
                    .iter()
                    .filter_map(|spec| spec.rules(budget).ok())
                    .filter_map(|rules| {
                        crate::path_in(dir, rules)
                            .file_name()
                            .map(|n| n.to_string_lossy().into_owned())
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                budget_option: if budget.is_standard() {
                    String::new()
                } else {
                    format!(" --budget {budget}")
                },
            });
        }
        Ok(catalog)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_table_covers_every_ruleset_once() {
        let seen: std::collections::HashSet<Ruleset> = VARIANTS
            .iter()
            .map(|v| v.rules(Budget::STANDARD).unwrap().ruleset())
            .collect();
        assert_eq!(seen.len(), 9);
        let ids: std::collections::HashSet<&str> = VARIANTS.iter().map(|v| v.id).collect();
        assert_eq!(ids.len(), 9);
        assert_eq!(VARIANTS[0].id, "regular");
        assert_eq!(
            VARIANTS[0].rules(Budget::STANDARD).unwrap().ruleset(),
            Ruleset::V1(topitop_rules::Variant::DEFAULT)
        );
        assert_eq!(
            VARIANTS[8].rules(Budget::STANDARD).unwrap().ruleset(),
            Ruleset::V0
        );
        for (i, v) in VARIANTS.iter().take(8).enumerate() {
            let variant = v.rules(Budget::STANDARD).unwrap().ruleset().variant();
            assert_eq!(usize::from(variant.number()), i);
            assert_eq!(v.id.contains("misere"), variant.misere(), "{}", v.id);
            assert_eq!(v.id.contains("tying-rule"), variant.tying_rule(), "{}", v.id);
            assert_eq!(
                v.id.contains("no-move-loses"),
                variant.no_move_loses(),
                "{}",
                v.id
            );
        }
    }

    /// Solves the tiny-budget game of each of `rulesets` into `dir`.
    fn solved(dir: &Path, rulesets: &[Ruleset]) -> Budget {
        let budget: Budget = "1/1/2/2".parse().unwrap();
        for &ruleset in rulesets {
            let rules = Rules::with_budget(ruleset, budget);
            let solution = crate::solve(rules, crate::SolveOptions::default(), |_| {});
            let path = crate::path_in(dir, rules);
            crate::write(&path, &solution, &crate::WriteOptions::default(), |_, _| {}).unwrap();
        }
        budget
    }

    fn path_of(dir: &Path, budget: Budget, ruleset: Ruleset) -> PathBuf {
        crate::path_in(dir, Rules::with_budget(ruleset, budget))
    }

    #[test]
    fn a_damaged_database_is_set_aside_and_the_others_served() {
        let dir = tempfile::tempdir().unwrap();
        let (standard, misere) = (
            Ruleset::V1(topitop_rules::Variant::DEFAULT),
            VARIANTS[4].rules(Budget::STANDARD).unwrap().ruleset(),
        );
        let budget = solved(dir.path(), &[standard, misere]);
        let misere_path = path_of(dir.path(), budget, misere);
        let bytes = std::fs::read(&misere_path).unwrap();
        std::fs::write(&misere_path, &bytes[..bytes.len() / 2]).unwrap();
        // v0's name on the standard game's file: the wrong rules.
        std::fs::copy(
            path_of(dir.path(), budget, standard),
            path_of(dir.path(), budget, Ruleset::V0),
        )
        .unwrap();
        let catalog = Catalog::open(dir.path(), budget).unwrap();
        let ids: Vec<&str> = catalog.variants.iter().map(|v| v.spec.id).collect();
        assert_eq!(ids, ["regular"]);
        let damaged: Vec<(&str, String)> = catalog
            .damaged
            .iter()
            .map(|d| (d.spec.id, d.error.to_string()))
            .collect();
        assert_eq!(damaged.len(), 2, "{damaged:?}");
        assert_eq!(damaged[0].0, "misere");
        assert!(damaged[0].1.contains("topitop_v1_4"), "{damaged:?}");
        assert_eq!(damaged[1].0, "v0");
        assert!(damaged[1].1.contains("holds the rules v1/0"), "{damaged:?}");
    }

    #[test]
    fn only_damaged_databases_are_an_error_naming_each() {
        let dir = tempfile::tempdir().unwrap();
        let budget: Budget = "1/1/2/2".parse().unwrap();
        for ruleset in [Ruleset::V1(topitop_rules::Variant::DEFAULT), Ruleset::V0] {
            std::fs::write(path_of(dir.path(), budget, ruleset), b"not a database").unwrap();
        }
        let e = Catalog::open(dir.path(), budget)
            .err()
            .expect("refused")
            .to_string();
        assert!(e.starts_with("no healthy database to serve in"), "{e}");
        assert!(e.contains("topitop_v1_0") && e.contains("topitop_v0_0"), "{e}");
        let empty = tempfile::tempdir().unwrap();
        let e = Catalog::open(empty.path(), budget)
            .err()
            .expect("refused")
            .to_string();
        assert!(e.starts_with("no database to serve in"), "{e}");
    }

    #[test]
    fn a_stamp_changes_with_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"one").unwrap();
        let first = FileStamp::of(&path).unwrap();
        assert_eq!(FileStamp::of(&path).unwrap(), first);
        // In place, same length.
        std::fs::write(&path, b"two").unwrap();
        let second = FileStamp::of(&path).unwrap();
        assert_ne!(second, first);
        // Renamed over.
        std::fs::write(dir.path().join("g"), b"two").unwrap();
        std::fs::rename(dir.path().join("g"), &path).unwrap();
        assert_ne!(FileStamp::of(&path).unwrap(), second);
    }
}
