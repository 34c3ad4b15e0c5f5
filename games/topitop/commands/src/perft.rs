//! `topitop perft`: move-sequence and distinct-position counts by depth.

use std::io::Write;

use topitop_rules::perft::perft;

use topitop_cli::cmd::perft::Args;

use crate::options::RulesOptions;

/// Runs `perft`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let levels = perft(rules, rules.start(), args.depth);
    let mut out = std::io::stdout().lock();
    if args.json {
        let rows: Vec<_> = levels
            .iter()
            .map(|l| serde_json::json!({"depth": l.depth, "paths": l.paths, "positions": l.positions}))
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
    } else {
        writeln!(out, "# rules {} budget {}", rules.ruleset(), rules.budget())?;
        writeln!(out, "{:>5} {:>16} {:>14}", "depth", "paths", "positions")?;
        for l in &levels {
            writeln!(out, "{:>5} {:>16} {:>14}", l.depth, l.paths, l.positions)?;
        }
    }
    Ok(())
}
