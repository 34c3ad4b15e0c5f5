//! GamesmanUni's variants of Topitop and their database files, as the
//! server's shared catalog ([`topitop_serve::catalog`]) finds, reads and
//! reloads them: which file is which variant, and how one is read (Topitop's
//! own format, its rules checked against the file's name).

use std::path::Path;
use std::sync::Arc;

use games_topitop_rules::{Budget, Rules, RulesError, Ruleset};
use topitop_game_api::Game;
use topitop_serve::catalog::{Shelf, Slot};
use topitop_serve::ServedVariant;

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

/// A variant being served: its description, rules and database (in
/// memory).
pub struct Served {
    /// Id, name and rules options.
    pub spec: VariantSpec,
    /// The rules, with the server's budget.
    pub rules: Rules,
    /// The database of those rules.
    pub db: Database,
}

/// Topitop's database files, one for each variant of [`VARIANTS`] with
/// the budget served, as `topitop solve --out DIR` names them, listed in
/// [`VARIANTS`] order; files of other budgets are left alone.
pub struct Files {
    /// The piece budget served.
    pub budget: Budget,
}

impl Files {
    /// The variant of [`VARIANTS`] (and its place) whose file's name
    /// gives `variant`, with the budget served.
    fn spec(&self, variant: &str) -> Option<(usize, VariantSpec, Rules)> {
        VARIANTS.iter().enumerate().find_map(|(i, spec)| {
            let rules = spec.rules(self.budget).ok()?;
            (Game::variant(&rules) == variant).then_some((i, *spec, rules))
        })
    }
}

impl Shelf for Files {
    fn game(&self) -> &str {
        GAME_ID
    }

    fn title(&self) -> String {
        GAME_NAME.into()
    }

    fn slot(&self, variant: &str) -> Result<Option<Slot>, String> {
        Ok(self.spec(variant).map(|(order, spec, _)| Slot {
            id: spec.id.into(),
            order,
        }))
    }

    fn open(&self, variant: &str, path: &Path, whole: bool) -> Result<Arc<dyn ServedVariant>, String> {
        let (_, spec, rules) = self.spec(variant).ok_or_else(|| {
            format!(
                "{variant:?} is no Topitop variant served with budget {}",
                self.budget
            )
        })?;
        let db = Database::open(path).map_err(|e| format!("cannot serve variant {}: {e}", spec.id))?;
        if db.rules() != rules {
            return Err(format!(
                "holds the rules {} with budget {}, but its name says {} with budget {}",
                db.rules().ruleset(),
                db.rules().budget(),
                rules.ruleset(),
                self.budget
            ));
        }
        if whole {
            db.verify_blocks(|_, _| {})
                .map_err(|e| format!("cannot serve variant {}: {e}", spec.id))?;
        }
        Ok(Arc::new(Served { spec, rules, db }))
    }

    fn missing(&self, dir: &Path) -> String {
        let looked: Vec<String> = VARIANTS
            .iter()
            .filter_map(|spec| spec.rules(self.budget).ok())
            .map(crate::file_name)
            .collect();
        let budget_option = if self.budget.is_standard() {
            String::new()
        } else {
            format!(" --budget {}", self.budget)
        };
        format!(
            "no database to serve in {dir}: looked for {looked}; create one with \
             `topitop solve --out {dir}{budget_option}` (add `--variant N` or `--rules v0` for the others)",
            dir = dir.display(),
            looked = looked.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use games_topitop_rules::{parse_position, Variant};
    use topitop_serve::catalog::{Catalog, Change};
    use topitop_serve::App;

    use super::*;
    use crate::uni::response::respond;

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
            Ruleset::V1(games_topitop_rules::Variant::DEFAULT)
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

    const BUDGET: &str = "1/1/2/2";

    /// Solves the tiny-budget game of each of `rulesets` into `dir`.
    fn solved(dir: &Path, rulesets: &[Ruleset]) -> Vec<PathBuf> {
        let budget: Budget = BUDGET.parse().unwrap();
        rulesets
            .iter()
            .map(|&ruleset| {
                let rules = Rules::with_budget(ruleset, budget);
                let solution = crate::solve(rules, crate::SolveOptions::default(), |_| {});
                let path = crate::path_in(dir, rules);
                crate::write(&path, &solution, &crate::WriteOptions::default(), |_, _| {}).unwrap();
                path
            })
            .collect()
    }

    fn path_of(dir: &Path, ruleset: Ruleset) -> PathBuf {
        crate::path_in(dir, Rules::with_budget(ruleset, BUDGET.parse().unwrap()))
    }

    /// The catalog of `dir`'s tiny-budget files, and an app serving it.
    fn served(dir: &Path) -> (Arc<App>, Catalog) {
        let files = Files {
            budget: BUDGET.parse().unwrap(),
        };
        let catalog = Catalog::open(Arc::new(files), dir);
        (Arc::new(App::new(vec![catalog.served()])), catalog)
    }

    /// Checks that `app` answers positions of `regular` as `db` says.
    fn answers_as(app: &App, db: &Database) {
        for p in ["1_---------", "2_S--------", "1_S--L-----"] {
            let reply = app.get("/topitop/regular/positions/", Some(&format!("p={p}")));
            assert_eq!(reply.status, hyper::StatusCode::OK, "{p}");
            let pos = parse_position(p, db.rules().budget()).unwrap();
            let want = serde_json::to_vec(&respond(db, db.rules(), pos).unwrap()).unwrap();
            assert_eq!(reply.body, want, "{p}");
        }
    }

    const STANDARD: Ruleset = Ruleset::V1(Variant::DEFAULT);

    fn misere() -> Ruleset {
        Ruleset::V1(Variant::new(4).unwrap())
    }

    #[test]
    fn a_damaged_database_is_set_aside_and_the_others_served() {
        let dir = tempfile::tempdir().unwrap();
        solved(dir.path(), &[STANDARD, misere()]);
        let misere_path = path_of(dir.path(), misere());
        let bytes = std::fs::read(&misere_path).unwrap();
        std::fs::write(&misere_path, &bytes[..bytes.len() / 2]).unwrap();
        // v0's name on the standard game's file: the wrong rules.
        std::fs::copy(path_of(dir.path(), STANDARD), path_of(dir.path(), Ruleset::V0)).unwrap();
        // Another budget's file is not this server's.
        std::fs::write(dir.path().join("topitop_v1_2.db"), b"not read").unwrap();
        let (app, catalog) = served(dir.path());
        assert_eq!(app.variant_ids(GAME_ID), ["regular"]);
        let damaged = catalog.damaged();
        assert_eq!(damaged.len(), 2, "{damaged:?}");
        assert!(damaged[0].contains("topitop_v0_0"), "{damaged:?}");
        assert!(damaged[0].contains("holds the rules v1/0"), "{damaged:?}");
        assert!(
            damaged[1].contains("topitop_v1_4") && damaged[1].contains("misere"),
            "{damaged:?}"
        );
    }

    #[test]
    fn with_no_database_the_message_names_the_files_and_the_command() {
        let empty = tempfile::tempdir().unwrap();
        let (_, catalog) = served(empty.path());
        assert_eq!(catalog.databases(), 0);
        let e = catalog.missing();
        assert!(e.starts_with("no database to serve in"), "{e}");
        assert!(
            e.contains("topitop_v1_0_1-1-2-2.db") && e.contains("--budget 1/1/2/2"),
            "{e}"
        );
    }

    #[test]
    fn a_database_renamed_over_is_reloaded() {
        let dir = tempfile::tempdir().unwrap();
        let regular = solved(dir.path(), &[STANDARD]).remove(0);
        let db = Database::open(&regular).unwrap();
        let (app, mut catalog) = served(dir.path());
        assert_eq!(catalog.check(&app), [], "nothing changed");
        let tmp = dir.path().join("new.tmp");
        std::fs::copy(&regular, &tmp).unwrap();
        std::fs::rename(&tmp, &regular).unwrap();
        assert_eq!(catalog.check(&app), [Change::Reloaded("regular".into())]);
        answers_as(&app, &db);
        assert_eq!(catalog.check(&app), []);
        // Other rules renamed over: refused, the database in memory kept.
        let other = solved(dir.path(), &[misere()]).remove(0);
        std::fs::rename(&other, &tmp).unwrap();
        std::fs::rename(&tmp, &regular).unwrap();
        assert_eq!(catalog.check(&app), [Change::Refused("regular".into())]);
        answers_as(&app, &db);
        // Gone: still served from memory.
        std::fs::remove_file(&regular).unwrap();
        assert_eq!(catalog.check(&app), [Change::Removed("regular".into())]);
        answers_as(&app, &db);
    }

    #[test]
    fn a_database_overwritten_in_place_is_reloaded_once_whole() {
        let dir = tempfile::tempdir().unwrap();
        let regular = solved(dir.path(), &[STANDARD]).remove(0);
        let good = std::fs::read(&regular).unwrap();
        let db = Database::open(&regular).unwrap();
        let (app, mut catalog) = served(dir.path());
        // Truncated to nothing, as `cp` begins: refused, still answering.
        std::fs::File::create(&regular).unwrap();
        assert_eq!(catalog.check(&app), [Change::Refused("regular".into())]);
        answers_as(&app, &db);
        // Half written: refused.
        std::fs::write(&regular, &good[..good.len() / 2]).unwrap();
        assert_eq!(catalog.check(&app), [Change::Refused("regular".into())]);
        answers_as(&app, &db);
        // Whole, with a damaged block: refused (blocks are all checked).
        let mut bad = good.clone();
        let len = bad.len();
        bad[len / 3] ^= 0x5a;
        std::fs::write(&regular, &bad).unwrap();
        assert_eq!(catalog.check(&app), [Change::Refused("regular".into())]);
        answers_as(&app, &db);
        // Whole and valid: reloaded.
        std::fs::write(&regular, &good).unwrap();
        assert_eq!(catalog.check(&app), [Change::Reloaded("regular".into())]);
        answers_as(&app, &db);
    }

    #[test]
    fn a_damaged_variant_repaired_is_added_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let paths = solved(dir.path(), &[STANDARD, misere(), Ruleset::V0]);
        let misere = std::fs::read(&paths[1]).unwrap();
        std::fs::write(&paths[1], b"damaged").unwrap();
        let (app, mut catalog) = served(dir.path());
        assert_eq!(app.variant_ids(GAME_ID), ["regular", "v0"]);
        assert_eq!(catalog.check(&app), []);
        std::fs::write(&paths[1], &misere).unwrap();
        assert_eq!(catalog.check(&app), [Change::Added("misere".into())]);
        assert_eq!(app.variant_ids(GAME_ID), ["regular", "misere", "v0"]);
        let reply = app.get("/topitop/misere/positions/", Some("p=1_---------"));
        assert_eq!(reply.status, hyper::StatusCode::OK);
    }
}
