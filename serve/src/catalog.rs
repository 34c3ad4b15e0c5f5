//! A game's database files in one directory, served and kept fresh, the
//! same for every game: the files named `<game>_<variant>.db` (as `solve
//! --out DIR` names them) are read by the game's [`Shelf`] into served
//! variants, and looked at again every few seconds ([`Catalog::check`]).
//!
//! Only a file's stamp (device, inode, length, times) is looked at; a file
//! whose stamp changed is read and checked in full, every block included,
//! and served from then on if it is a valid database of the variant its
//! name says. An invalid one (half copied, truncated, another variant's, a
//! damaged block, a FIFO) is logged and the variant in memory kept, and is
//! read again when it changes again, so a copy in progress is served once
//! complete. A file that disappears leaves its variant served from memory;
//! a new file, or a damaged one repaired, is added in its place in the
//! game's list. Nothing a file does can stop the server: every reader
//! checks what it reads.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crate::routes::App;
use crate::variant::{ServedGame, ServedVariant};

/// Where a database file stands among its game's variants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The variant's id in URLs.
    pub id: String,
    /// Its place in the game's list; files of one place are listed by
    /// name.
    pub order: usize,
}

/// What serving a game's database files needs of the game: which files
/// are its variants, and how to read one.
pub trait Shelf: Send + Sync {
    /// The game's id in URLs, which also starts its files' names
    /// (`<game>_<variant>.db`).
    fn game(&self) -> &str;
    /// The game's name GamesmanUni shows.
    fn title(&self) -> String;
    /// The variant a file named `<game>_<variant>.db` holds, by its name;
    /// `None` for a file of the game that this server does not serve (of
    /// another piece budget, say), left alone without a word.
    ///
    /// # Errors
    /// A name that is no variant of the game: why, logged once.
    fn slot(&self, variant: &str) -> Result<Option<Slot>, String>;
    /// Reads the database at `path`, whose name says it holds `variant`,
    /// and serves it. `whole`: every block is checked now (a file that
    /// changed while served); otherwise blocks are checked as they are
    /// first read, so that the server starts fast.
    ///
    /// # Errors
    /// The file cannot be read, is not a valid database, or holds another
    /// variant: why, for the log.
    fn open(&self, variant: &str, path: &Path, whole: bool) -> Result<Arc<dyn ServedVariant>, String>;
    /// Variants answered without a database (a board too large to solve,
    /// answered by search): listed after the databases', unless a
    /// database serves the same id.
    fn unsolved(&self) -> Vec<Arc<dyn ServedVariant>> {
        Vec::new()
    }
    /// Why nothing of the game is served from `dir`, with the command that
    /// makes a database.
    fn missing(&self, dir: &Path) -> String {
        format!(
            "no database of {game} to serve in {dir}; create one with `topitop solve --game {game} --out {dir}`",
            game = self.game(),
            dir = dir.display()
        )
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

/// What a check did to one variant, by its id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A new version of a served database is served.
    Reloaded(String),
    /// A variant not served before is served.
    Added(String),
    /// The file changed but is not a valid database: the previous one is
    /// still served (or, for a variant not served, still nothing).
    Refused(String),
    /// The file is gone; the database in memory is still served.
    Removed(String),
}

/// One file of the game, as last looked at.
struct File {
    slot: Slot,
    /// Taken just before the file was last read: a file still being
    /// written is read again at the next check.
    stamp: Option<FileStamp>,
    served: Option<Arc<dyn ServedVariant>>,
}

/// A game's database files in a directory, as served.
pub struct Catalog {
    shelf: Arc<dyn Shelf>,
    dir: PathBuf,
    /// The game's files that name a variant served here, by file name.
    files: BTreeMap<String, File>,
    /// The game's files that do not.
    ignored: BTreeSet<String>,
    unsolved: Vec<Arc<dyn ServedVariant>>,
    /// Each file that could not be served at start, and why.
    damaged: Vec<String>,
}

impl Catalog {
    /// Reads every database of `shelf`'s game in `dir`, logging each file
    /// served and each left out; a directory that cannot be read holds
    /// none (yet).
    pub fn open(shelf: Arc<dyn Shelf>, dir: &Path) -> Catalog {
        let mut catalog = Catalog {
            unsolved: shelf.unsolved(),
            shelf,
            dir: dir.to_path_buf(),
            files: BTreeMap::new(),
            ignored: BTreeSet::new(),
            damaged: Vec::new(),
        };
        for name in catalog.listed() {
            let Some(slot) = catalog.slot(&name) else {
                continue;
            };
            let path = dir.join(&name);
            let stamp = FileStamp::of(&path).ok();
            let variant = catalog.label(&slot.id);
            let served = match catalog
                .shelf
                .open(variant_of(&catalog.prefix(), &name), &path, false)
            {
                Ok(v) => {
                    tracing::info!(%variant, db = %path.display(), "serving");
                    Arc::clone(&v).prepare();
                    Some(v)
                }
                Err(e) => {
                    tracing::error!(%variant, db = %path.display(), error = %e, "database damaged; variant left out");
                    catalog.damaged.push(format!("{}: {e}", path.display()));
                    None
                }
            };
            catalog.files.insert(name, File { slot, stamp, served });
        }
        for v in &catalog.unsolved {
            if !catalog
                .files
                .values()
                .any(|f| f.served.is_some() && f.slot.id == v.id())
            {
                tracing::info!(variant = %catalog.label(v.id()), "serving estimates by search");
            }
        }
        catalog
    }

    /// The game's id in URLs.
    pub fn game(&self) -> &str {
        self.shelf.game()
    }

    /// How many variants a database answers.
    pub fn databases(&self) -> usize {
        self.files.values().filter(|f| f.served.is_some()).count()
    }

    /// Each file that could not be served at start, and why.
    pub fn damaged(&self) -> &[String] {
        &self.damaged
    }

    /// Why nothing of the game is served, with how to make a database.
    pub fn missing(&self) -> String {
        self.shelf.missing(&self.dir)
    }

    /// The game with the variants served now: the databases' in the
    /// game's order, then those answered by search that no database
    /// answers.
    pub fn served(&self) -> ServedGame {
        let mut files: Vec<(&String, &File)> =
            self.files.iter().filter(|(_, f)| f.served.is_some()).collect();
        files.sort_by_key(|(name, f)| (f.slot.order, *name));
        let mut variants: Vec<Arc<dyn ServedVariant>> = Vec::new();
        for v in files
            .into_iter()
            .filter_map(|(_, f)| f.served.clone())
            .chain(self.unsolved.iter().cloned())
        {
            // Two files of one variant (two spellings): the first is served.
            if !variants.iter().any(|w| w.id() == v.id()) {
                variants.push(v);
            }
        }
        ServedGame {
            id: self.shelf.game().into(),
            name: self.shelf.title(),
            variants,
        }
    }

    /// Looks at every file of the game once, serves in `app` each valid
    /// new version and each new variant, and logs and returns what
    /// changed. Blocking: reads and checks whole files.
    pub fn check(&mut self, app: &App) -> Vec<Change> {
        let mut names: BTreeSet<String> = self.listed().into_iter().collect();
        names.extend(self.files.keys().cloned());
        let mut changes = Vec::new();
        for name in names {
            if !self.files.contains_key(&name) {
                let Some(slot) = self.slot(&name) else {
                    continue;
                };
                let new = File {
                    slot,
                    stamp: None,
                    served: None,
                };
                self.files.insert(name.clone(), new);
            }
            let Some(id) = self.files.get(&name).map(|f| f.slot.id.clone()) else {
                continue;
            };
            let (variant, prefix) = (self.label(&id), self.prefix());
            let path = self.dir.join(&name);
            let stamp = FileStamp::of(&path).ok();
            let Some(file) = self.files.get_mut(&name) else {
                continue;
            };
            if stamp == file.stamp {
                continue;
            }
            file.stamp = stamp;
            let db = path.display();
            if stamp.is_none() {
                if file.served.is_some() {
                    tracing::warn!(%variant, %db, "database file gone; still serving the copy in memory");
                    changes.push(Change::Removed(id));
                }
                continue;
            }
            match self.shelf.open(variant_of(&prefix, &name), &path, true) {
                Ok(v) => {
                    Arc::clone(&v).prepare();
                    if file.served.replace(v).is_some() {
                        tracing::info!(%variant, %db, "database file replaced: reloaded");
                        changes.push(Change::Reloaded(id));
                    } else {
                        tracing::info!(%variant, %db, "database found: now serving");
                        changes.push(Change::Added(id));
                    }
                }
                Err(e) => {
                    if file.served.is_some() {
                        tracing::warn!(%variant, %db, error = %e, "database file changed but cannot be served; still serving the previous one");
                    } else {
                        tracing::error!(%variant, %db, error = %e, "database damaged; variant left out");
                    }
                    changes.push(Change::Refused(id));
                }
            }
        }
        if changes
            .iter()
            .any(|c| matches!(c, Change::Reloaded(_) | Change::Added(_)))
        {
            let game = self.served();
            app.replace(&game.id, &game.name, game.variants);
        }
        changes
    }

    /// `<game>_`, which starts the names of the game's files.
    fn prefix(&self) -> String {
        format!("{}_", self.shelf.game())
    }

    /// The names in the directory of the game's files, not yet set aside.
    fn listed(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let prefix = self.prefix();
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.starts_with(&prefix) && n.ends_with(".db") && !self.ignored.contains(n))
            .collect();
        names.sort();
        names
    }

    /// The slot of the file `name`; a file that names no variant served
    /// here is set aside, with a warning if it names none at all.
    fn slot(&mut self, name: &str) -> Option<Slot> {
        match self.shelf.slot(variant_of(&self.prefix(), name)) {
            Ok(Some(slot)) => Some(slot),
            Ok(None) => {
                self.ignored.insert(name.into());
                None
            }
            Err(e) => {
                let db = self.dir.join(name);
                tracing::warn!(db = %db.display(), error = %e, "not a database name of {}; left out", self.shelf.game());
                self.ignored.insert(name.into());
                None
            }
        }
    }

    /// `game/id`, as the log names a variant.
    fn label(&self, id: &str) -> String {
        format!("{}/{}", self.shelf.game(), id)
    }
}

/// The variant string of the file `name`, `<prefix><variant>.db`.
fn variant_of<'a>(prefix: &str, name: &'a str) -> &'a str {
    name.strip_prefix(prefix)
        .and_then(|n| n.strip_suffix(".db"))
        .unwrap_or(name)
}

/// Checks `catalog`'s files every `every`, for ever, serving what changed
/// in `app` (run it as a task; the checks run on blocking threads).
pub async fn watch(app: Arc<App>, mut catalog: Catalog, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        tick.tick().await;
        let app = app.clone();
        match tokio::task::spawn_blocking(move || {
            catalog.check(&app);
            catalog
        })
        .await
        {
            Ok(c) => catalog = c,
            Err(e) => {
                tracing::error!(error = %e, "database check failed; no more checks");
                return;
            }
        }
    }
}
