//! What the server serves: the GamesmanUni variants of Topitop, each backed
//! by its database, found by name in one directory.

use std::path::{Path, PathBuf};

use topitop_db::{Database, DbError};
use topitop_game::{Budget, Rules, RulesError, Ruleset};

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

/// A variant being served: its description, rules and open database.
pub struct Served {
    /// Id, name and rules options.
    pub spec: VariantSpec,
    /// The rules, with the server's budget.
    pub rules: Rules,
    /// The database of those rules.
    pub db: Database,
}

/// Why the server cannot start on a directory.
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
    /// The served variants; never empty.
    pub variants: Vec<Served>,
}

impl Catalog {
    /// Opens, in `dir`, the database of every variant of [`VARIANTS`] with
    /// `budget` (the file names `topitop solve --out DIR` writes) and skips
    /// the variants whose file is absent.
    ///
    /// # Errors
    /// No database at all (with the commands that make them), or a file that
    /// is not a valid database of the rules its name says.
    pub fn open(dir: &Path, budget: Budget) -> Result<Catalog, CatalogError> {
        let mut variants = Vec::new();
        let mut looked: Vec<PathBuf> = Vec::new();
        for spec in VARIANTS {
            let rules = spec.rules(budget)?;
            let path = topitop_db::path_in(dir, rules);
            if !path.exists() {
                looked.push(path);
                continue;
            }
            let db = Database::open(&path).map_err(|source| CatalogError::Open {
                variant: spec.id,
                source,
            })?;
            if db.rules() != rules {
                return Err(CatalogError::WrongRules {
                    path: path.display().to_string(),
                    found: db.rules().ruleset(),
                    found_budget: db.rules().budget(),
                    named: rules.ruleset(),
                    named_budget: budget,
                });
            }
            variants.push(Served { spec, rules, db });
        }
        if variants.is_empty() {
            return Err(CatalogError::NoDatabase {
                dir: dir.display().to_string(),
                looked: looked
                    .iter()
                    .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .collect::<Vec<_>>()
                    .join(", "),
                budget_option: if budget.is_standard() {
                    String::new()
                } else {
                    format!(" --budget {budget}")
                },
            });
        }
        Ok(Catalog { variants })
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
            Ruleset::V1(topitop_game::Variant::DEFAULT)
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
}
