//! What `topitop serve` serves of Topitop: the database of every variant
//! of GamesmanUni's table in the directory, kept fresh as files change.

use topitop_cli::cmd::serve::Args;
use topitop_cli::registry::{Found, Served};
use topitop_rules::Budget;
use topitop_solved::uni::reload::{self, Watcher};
use topitop_solved::{served_game, Catalog};

/// Topitop's variants in the directory `args` name; a damaged file is
/// logged and left out.
///
/// # Errors
/// A malformed `--budget`, or a directory that cannot be read.
pub fn found(args: &Args) -> anyhow::Result<Found> {
    let budget: Budget = args.budget.parse()?;
    let catalog = Catalog::scan(&args.dir, budget)?;
    for d in &catalog.damaged {
        tracing::error!(variant = d.spec.id, error = %d.error, "database damaged; variant left out");
    }
    if catalog.variants.is_empty() {
        // Catalog::open's error says what was looked for and how to make it.
        let why = match Catalog::open(&args.dir, budget) {
            Err(e) => e.to_string(),
            Ok(_) => format!("no database to serve in {}", args.dir.display()),
        };
        return Ok(if catalog.damaged.is_empty() {
            Found::Missing(why)
        } else {
            Found::Damaged(why)
        });
    }
    for v in &catalog.variants {
        tracing::info!(variant = v.spec.id, db = %v.db.path().display(), "serving");
    }
    let watcher = Watcher::new(&catalog);
    Ok(Found::Served(Served {
        databases: catalog.variants.len(),
        game: served_game(&catalog.variants),
        reload: Some(Box::new(move |app, every| {
            Box::pin(reload::watch(app, watcher, every))
        })),
    }))
}
