//! Noticing replaced databases: every few seconds, the file of each variant
//! is looked at (its stamp: device, inode, length, times); a file that
//! changed is read and checked in full, and served from then on if it is a
//! valid database of its variant's rules. An invalid one (half copied,
//! truncated, other rules, a damaged block) is logged and the database in
//! memory is kept; a file that disappears leaves its variant served from
//! memory. Nothing a file does can stop the server: the databases are in
//! memory, never mapped.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use topitop_rules::Budget;
use topitop_serve::App;

use crate::uni::catalog::{find_verified, Catalog, FileStamp, Found, Served, GAME_ID, GAME_NAME, VARIANTS};
use crate::uni::served::served_game;

/// What a check did to one variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A new version of a served database is served.
    Reloaded(&'static str),
    /// A variant not served before is served.
    Added(&'static str),
    /// The file changed but is not a valid database: the previous one is
    /// still served (or, for a variant not served, still nothing).
    Refused(&'static str),
    /// The file is gone; the database in memory is still served.
    Removed(&'static str),
}

/// The files of a catalog, as last looked at.
pub struct Watcher {
    dir: PathBuf,
    budget: Budget,
    /// The stamp last seen of each variant's file, in [`VARIANTS`] order.
    seen: Vec<Option<FileStamp>>,
    /// The variants served, in [`VARIANTS`] order.
    served: Vec<Served>,
}

impl Watcher {
    /// Watches the files of `catalog`, as they were when it was read.
    pub fn new(catalog: &Catalog) -> Watcher {
        let seen = VARIANTS
            .iter()
            .map(|spec| {
                let served = catalog.variants.iter().find(|s| s.spec.id == spec.id);
                let damaged = catalog.damaged.iter().find(|d| d.spec.id == spec.id);
                served.map(|s| s.stamp).or(damaged.and_then(|d| d.stamp))
            })
            .collect();
        Watcher {
            dir: catalog.dir.clone(),
            budget: catalog.budget,
            seen,
            served: catalog.variants.clone(),
        }
    }

    /// The variants served, in [`VARIANTS`] order.
    pub fn served(&self) -> &[Served] {
        &self.served
    }

    /// Looks at every variant's file once and serves in `app` each valid
    /// new version; logs and returns what changed. Blocking: reads and
    /// checks whole files.
    pub fn check(&mut self, app: &App) -> Vec<Change> {
        let mut changes = Vec::new();
        let mut served = self.served.clone();
        for (i, spec) in VARIANTS.iter().enumerate() {
            let path = crate::path_in(
                &self.dir,
                match spec.rules(self.budget) {
                    Ok(rules) => rules,
                    Err(_) => continue,
                },
            );
            let stamp = FileStamp::of(&path).ok();
            if stamp == self.seen[i] {
                continue;
            }
            self.seen[i] = stamp;
            let current = served.iter().position(|s| s.spec.id == spec.id);
            if stamp.is_none() {
                if current.is_some() {
                    tracing::warn!(variant = spec.id, db = %path.display(), "database file gone; still serving the copy in memory");
                    changes.push(Change::Removed(spec.id));
                }
                continue;
            }
            match find_verified(&self.dir, self.budget, *spec) {
                Ok(Found::Served(new)) => {
                    // The stamp taken just before reading: a file still
                    // being written is read again at the next check.
                    self.seen[i] = Some(new.stamp);
                    changes.push(install(&mut served, current, new));
                }
                Ok(Found::Damaged(d)) => {
                    self.seen[i] = d.stamp;
                    if current.is_some() {
                        tracing::warn!(variant = spec.id, error = %d.error, "database file changed but cannot be served; still serving the previous one");
                    } else {
                        tracing::error!(variant = spec.id, error = %d.error, "database damaged; variant left out");
                    }
                    changes.push(Change::Refused(spec.id));
                }
                Ok(Found::Absent(_)) => self.seen[i] = None,
                Err(e) => tracing::error!(variant = spec.id, error = %e, "database check failed"),
            }
        }
        if changes
            .iter()
            .any(|c| matches!(c, Change::Reloaded(_) | Change::Added(_)))
        {
            app.replace(GAME_ID, GAME_NAME, served_game(&served).variants);
            self.served = served;
        }
        changes
    }
}

/// Puts `new` in `served` (replacing `current`, or in variant order).
fn install(served: &mut Vec<Served>, current: Option<usize>, new: Served) -> Change {
    let id = new.spec.id;
    let db = new.db.path().display().to_string();
    if let Some(k) = current {
        served[k] = new;
        tracing::info!(variant = id, %db, "database file replaced: reloaded");
        Change::Reloaded(id)
    } else {
        let order = |id: &str| VARIANTS.iter().position(|v| v.id == id);
        let at = served
            .iter()
            .position(|s| order(s.spec.id) > order(id))
            .unwrap_or(served.len());
        served.insert(at, new);
        tracing::info!(variant = id, %db, "database found: now serving");
        Change::Added(id)
    }
}

/// Checks the files of `app` every `every`, for ever (run it as a task;
/// the checks run on blocking threads).
pub async fn watch(app: Arc<App>, mut watcher: Watcher, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        tick.tick().await;
        let app = app.clone();
        match tokio::task::spawn_blocking(move || {
            watcher.check(&app);
            watcher
        })
        .await
        {
            Ok(w) => watcher = w,
            Err(e) => {
                tracing::error!(error = %e, "database check failed; no more checks");
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::{solve, SolveOptions};
    use crate::{write, Database, WriteOptions};
    use topitop_rules::{parse_position, Rules, Ruleset, Variant};

    use super::*;
    use crate::uni::response::respond;

    const BUDGET: &str = "1/1/2/2";

    /// Solves each of `rulesets` with the tiny budget into `dir`.
    fn solved(dir: &Path, rulesets: &[Ruleset]) -> Vec<PathBuf> {
        let budget: Budget = BUDGET.parse().unwrap();
        rulesets
            .iter()
            .map(|&r| {
                let rules = Rules::with_budget(r, budget);
                let path = crate::path_in(dir, rules);
                let solution = solve(rules, SolveOptions::default(), |_| {});
                write(&path, &solution, &WriteOptions::default(), |_, _| {}).unwrap();
                path
            })
            .collect()
    }

    fn served(dir: &Path) -> (Arc<App>, Watcher) {
        let catalog = Catalog::open(dir, BUDGET.parse().unwrap()).unwrap();
        let watcher = Watcher::new(&catalog);
        (Arc::new(App::new(vec![served_game(&catalog.variants)])), watcher)
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

    #[test]
    fn a_database_renamed_over_is_reloaded() {
        let dir = tempfile::tempdir().unwrap();
        let regular = solved(dir.path(), &[Ruleset::V1(Variant::DEFAULT)]).remove(0);
        let db = Database::open(&regular).unwrap();
        let (app, mut watcher) = served(dir.path());
        assert_eq!(watcher.check(&app), [], "nothing changed");
        let old = watcher.served()[0].db.clone();
        let tmp = dir.path().join("new.tmp");
        std::fs::copy(&regular, &tmp).unwrap();
        std::fs::rename(&tmp, &regular).unwrap();
        assert_eq!(watcher.check(&app), [Change::Reloaded("regular")]);
        assert!(!Arc::ptr_eq(&old, &watcher.served()[0].db), "a new database");
        answers_as(&app, &db);
        assert_eq!(watcher.check(&app), []);
        // Other rules renamed over: refused, the database in memory kept.
        let misere = solved(dir.path(), &[Ruleset::V1(Variant::new(4).unwrap())]).remove(0);
        std::fs::rename(&misere, &tmp).unwrap();
        std::fs::rename(&tmp, &regular).unwrap();
        let kept = watcher.served()[0].db.clone();
        assert_eq!(watcher.check(&app), [Change::Refused("regular")]);
        assert!(Arc::ptr_eq(&kept, &watcher.served()[0].db));
        answers_as(&app, &db);
        // Gone: still served from memory.
        std::fs::remove_file(&regular).unwrap();
        assert_eq!(watcher.check(&app), [Change::Removed("regular")]);
        answers_as(&app, &db);
    }

    #[test]
    fn a_database_overwritten_in_place_is_reloaded_once_whole() {
        let dir = tempfile::tempdir().unwrap();
        let regular = solved(dir.path(), &[Ruleset::V1(Variant::DEFAULT)]).remove(0);
        let good = std::fs::read(&regular).unwrap();
        let db = Database::open(&regular).unwrap();
        let (app, mut watcher) = served(dir.path());
        // Truncated to nothing, as `cp` begins: refused, still answering.
        std::fs::File::create(&regular).unwrap();
        assert_eq!(watcher.check(&app), [Change::Refused("regular")]);
        answers_as(&app, &db);
        // Half written: refused.
        std::fs::write(&regular, &good[..good.len() / 2]).unwrap();
        assert_eq!(watcher.check(&app), [Change::Refused("regular")]);
        answers_as(&app, &db);
        // Whole, with a damaged block: refused (blocks are all checked).
        let mut bad = good.clone();
        let len = bad.len();
        bad[len / 3] ^= 0x5a;
        std::fs::write(&regular, &bad).unwrap();
        assert_eq!(watcher.check(&app), [Change::Refused("regular")]);
        answers_as(&app, &db);
        // Whole and valid: reloaded.
        std::fs::write(&regular, &good).unwrap();
        assert_eq!(watcher.check(&app), [Change::Reloaded("regular")]);
        answers_as(&app, &db);
    }

    #[test]
    fn a_damaged_variant_repaired_is_added_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let paths = solved(
            dir.path(),
            &[
                Ruleset::V1(Variant::DEFAULT),
                Ruleset::V1(Variant::new(4).unwrap()),
                Ruleset::V0,
            ],
        );
        let misere = std::fs::read(&paths[1]).unwrap();
        std::fs::write(&paths[1], b"damaged").unwrap();
        let (app, mut watcher) = served(dir.path());
        assert_eq!(app.variant_ids(GAME_ID), ["regular", "v0"]);
        assert_eq!(watcher.check(&app), []);
        std::fs::write(&paths[1], &misere).unwrap();
        assert_eq!(watcher.check(&app), [Change::Added("misere")]);
        assert_eq!(app.variant_ids(GAME_ID), ["regular", "misere", "v0"]);
        let reply = app.get("/topitop/misere/positions/", Some("p=1_---------"));
        assert_eq!(reply.status, hyper::StatusCode::OK);
    }
}
