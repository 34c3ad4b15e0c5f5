//! The databases of the registered games that `serve` finds in its
//! directory: `<game>_<variant>.db`, as `solve` names them, each opened as
//! the game its name and header say.

use std::path::Path;
use std::sync::Arc;

use topitop_interface::Registered;
use topitop_serve::tiered;
use topitop_serve::{ServedGame, ServedVariant};

use crate::games::{register, Visit};

/// Every registered game with a database in `dir`, in registration order,
/// its variants in file-name order. A file that cannot be served is
/// logged and left out.
pub fn discover(dir: &Path) -> Vec<ServedGame> {
    let mut names: Vec<String> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .filter_map(|e| e.file_name().into_string().ok())
            .collect(),
        Err(_) => Vec::new(),
    };
    names.sort();
    let mut found = Discover {
        dir,
        names,
        games: Vec::new(),
    };
    register(&mut found);
    found.games
}

struct Discover<'a> {
    dir: &'a Path,
    names: Vec<String>,
    games: Vec<ServedGame>,
}

impl Visit for Discover<'_> {
    fn visit<G: Registered>(&mut self) {
        let prefix = format!("{}_", G::NAME);
        let mut variants: Vec<Arc<dyn ServedVariant>> = Vec::new();
        let mut title = None;
        for name in &self.names {
            let Some(variant) = name.strip_prefix(&prefix).and_then(|n| n.strip_suffix(".db")) else {
                continue;
            };
            let path = self.dir.join(name);
            let game = match G::from_variant(variant) {
                Ok(g) => g,
                Err(e) => {
                    tracing::warn!(db = %path.display(), error = %e, "not a database name of {}; left out", G::NAME);
                    continue;
                }
            };
            title.get_or_insert_with(|| game.title());
            match tiered::open(game, &path) {
                Ok(v) => {
                    tracing::info!(variant = %format!("{}/{}", G::NAME, v.id()), db = %path.display(), "serving");
                    variants.push(v);
                }
                Err(e) => {
                    tracing::error!(db = %path.display(), error = %e, "database damaged; variant left out")
                }
            }
        }
        if !variants.is_empty() {
            self.games.push(ServedGame {
                id: G::NAME.into(),
                name: title.unwrap_or_else(|| G::NAME.into()),
                variants,
            });
        }
    }
}
