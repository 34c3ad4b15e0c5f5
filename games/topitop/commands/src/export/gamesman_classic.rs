//! `topitop export --format gamesman-classic -o DIR`: the tier files
//! GamesmanClassic's tier solver writes for the database's option, in its
//! data directory `DIR`.

use std::time::Instant;

use anyhow::Context;
use games_topitop_rules::Ruleset;
use games_topitop_solved::store::gamesman_classic::{export, option_of, ExportError, ExportOptions};
use topitop_cli::progress::CountBar;

use super::Args;
use crate::options::{DbOptions, RulesOptions};

/// Runs the export.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let Some(dir) = &args.out else {
        anyhow::bail!(
            "--format gamesman-classic needs -o DIR, GamesmanClassic's data directory \
             (the tier files go to DIR/mtopitop_<option>_tierdb/)"
        );
    };
    anyhow::ensure!(
        !args.db.rules.options.has(crate::options::TIER) && args.value.is_empty() && !args.summary,
        "--tier, --value and --summary do not apply to --format gamesman-classic \
         (it writes every tier GamesmanClassic solves)"
    );
    // Refuse v0 before looking for its database.
    if args.db.db.is_none() && args.db.rules.rules()?.ruleset() == Ruleset::V0 {
        return Err(ExportError::NoLayout.into());
    }
    // Before any work: the data directory may be made, its parents not.
    topitop_files::ensure_dir(dir)?;
    let start = Instant::now();
    let db = args.db.open()?;
    let rules = db.rules();
    let option = option_of(rules)?;
    // The tier folder is replaced whole: the database must not be in it.
    let folder = dir.join(games_topitop_solved::store::gamesman_classic::folder_name(option));
    if let (Ok(folder), Ok(input)) = (folder.canonicalize(), db.path().canonicalize()) {
        anyhow::ensure!(
            !input.starts_with(&folder),
            "{} is inside {}, which the export replaces whole: choose another -o",
            db.path().display(),
            folder.display()
        );
    }
    if !rules.budget().is_standard() {
        eprintln!(
            "note: GamesmanClassic plays only the standard budget; these are the files its module \
             would write with budget {}",
            rules.budget()
        );
    }
    let bar = CountBar::new("reading", "blocks");
    let solution = db
        .to_solution(|done, total| bar.set(done as u64, total as u64))
        .with_context(|| format!("reading {}", db.path().display()))?;
    bar.finish();
    drop(db);
    let bar = CountBar::new("exporting", "M slots");
    let options = if crate::options::exact(&args.db.rules) {
        ExportOptions::EXACT
    } else {
        ExportOptions::FAST
    };
    let summary = export(&solution, dir, options, |done, total| {
        bar.set(done / 1_000_000, total.div_ceil(1_000_000))
    })?;
    bar.finish();
    eprintln!(
        "wrote {} ({} tier files, {} slots, {} solved, {:.1} MB) in {:.1} s",
        summary.folder.display(),
        summary.tiers,
        summary.slots,
        summary.solved,
        summary.compressed_bytes as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
