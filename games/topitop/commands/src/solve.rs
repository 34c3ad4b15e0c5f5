//! `topitop solve`: Topitop's own solver behind the shared solve, one
//! ruleset or, with `--all`, every ruleset of a budget together.

use std::path::Path;

use games_topitop_rules::{Budget, Rules, Ruleset, Tier, Variant};
use games_topitop_solved::{estimate_disk, estimate_memory, solve_together, SolveOptions};
use games_topitop_table::{Checkpoint, Record, Solution};
use topitop_cli::cmd::solve::{on_off, run_solver, Args, Kept, Needs, Solved, Solver, Target};
use topitop_cli::progress::{CountBar, TierBars, TierDone};
use topitop_db::tier_checkpoint::Part;
use topitop_game_api::Game;

use crate::options::RulesOptions;

/// Runs `solve`.
///
/// # Errors
/// Options that contradict each other, and those of the shared solve.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules: Vec<Rules> = if args.rules.options.has(crate::options::ALL) {
        anyhow::ensure!(
            !args.rules.options.has("rules") && !args.rules.options.has("variant"),
            "--all cannot be used with --rules or --variant: it solves every ruleset of the budget"
        );
        let budget: Budget = args.rules.budget()?;
        Variant::all()
            .map(Ruleset::V1)
            .chain([Ruleset::V0])
            .map(|r| Rules::with_budget(r, budget))
            .collect()
    } else {
        vec![args.rules.rules()?]
    };
    let symmetric = !args.rules.options.has(topitop_cli::cmd::solve::NO_SYMMETRY.name);
    run_solver(
        &mut Topitop {
            rules,
            symmetric,
            solutions: Vec::new(),
        },
        &args,
    )
}

/// Topitop's tier solver on its rulesets, all of one budget, solved
/// together.
struct Topitop {
    rules: Vec<Rules>,
    symmetric: bool,
    /// One a ruleset, once solved; each goes once its database is written.
    solutions: Vec<Option<Solution>>,
}

impl Solver for Topitop {
    fn title(&self) -> String {
        let several = self.rules.len();
        format!(
            "topitop budget {}{}",
            self.rules[0].budget(),
            if several > 1 {
                format!(" ({several} rulesets together)")
            } else {
                String::new()
            }
        )
    }

    fn targets(&self, out: &Path) -> Vec<Target> {
        self.rules
            .iter()
            .map(|&rules| Target {
                path: games_topitop_solved::path_in(out, rules),
                made_from: format!(
                    "game topitop; rules {}; budget {}; symmetry {}; program topitop {}",
                    rules.ruleset(),
                    rules.budget(),
                    on_off(self.symmetric),
                    topitop_cli::VERSION
                ),
            })
            .collect()
    }

    fn needs(&mut self) -> anyhow::Result<Needs> {
        let (budget, n) = (self.rules[0].budget(), self.rules.len());
        let states = games_topitop_rules::StateIndex::new(budget).len();
        Ok(Needs {
            memory: estimate_memory(budget, self.symmetric, rayon::current_num_threads(), n),
            disk: estimate_disk(budget, self.symmetric, n),
            what: format!(
                "{states} states ({})",
                if self.symmetric {
                    "one of each symmetry class solved"
                } else {
                    "all solved"
                }
            ),
        })
    }

    fn solve(&mut self, kept: &mut [Kept]) -> anyhow::Result<()> {
        let labels: Vec<String> = self.rules.iter().map(|r| r.ruleset().to_string()).collect();
        let mut bars = TierBars::new(&labels);
        let mut levels: Vec<Levels> = kept.iter_mut().map(Levels).collect();
        let mut checkpoints: Vec<&mut dyn Checkpoint> =
            levels.iter_mut().map(|l| l as &mut dyn Checkpoint).collect();
        let options = SolveOptions {
            symmetric: self.symmetric,
        };
        let solutions = solve_together(&self.rules, options, &mut checkpoints, |k, p| {
            bars.update(
                k,
                TierDone {
                    tiers_done: p.tiers_done,
                    tiers_total: p.tiers_total,
                    solved: p.solved,
                    positions_done: p.positions_done,
                    positions_total: p.positions_total,
                },
            )
        })
        .map_err(|e| anyhow::anyhow!("cannot keep a checkpoint: {e}"))?;
        bars.finish();
        self.solutions = solutions.into_iter().map(Some).collect();
        Ok(())
    }

    fn write(&mut self, k: usize, path: &Path, level: Option<i32>, _: &mut Kept) -> anyhow::Result<Solved> {
        let solution = self
            .solutions
            .get_mut(k)
            .and_then(Option::take)
            .ok_or_else(|| anyhow::anyhow!("nothing solved to write"))?;
        let rules = solution.rules();
        let bar = CountBar::new(&format!("writing {}", rules.ruleset()), "blocks");
        let written = games_topitop_solved::write(
            path,
            &solution,
            &match level {
                Some(level) => games_topitop_solved::WriteOptions {
                    level,
                    ..games_topitop_solved::WriteOptions::default()
                },
                None => games_topitop_solved::WriteOptions::default(),
            },
            |d, t| bar.set(d, t),
        )?;
        bar.finish();
        // The counts are of positions of play, as `stats` and `export`
        // count them; the other stored states are named apart.
        let header = &written.header;
        let unplayable = solution.unplayable_counts();
        let start = rules.start();
        let start_rec = solution
            .get(start)
            .ok_or_else(|| anyhow::anyhow!("the start {start} is not in the index"))?;
        Ok(Solved {
            what: format!(
                "game topitop variant {} symmetry {}",
                rules.variant(),
                on_off(header.symmetric)
            ),
            counts: std::array::from_fn(|k| header.counts[k] - unplayable[k]),
            symmetric: header.symmetric,
            size: format!(
                "{} records in {} blocks",
                header.records, header.blocks
            ),
            lines: vec![
                format!("rules {} budget {}", rules.ruleset(), rules.budget()),
                format!(
                    "also solved {} states play cannot reach (GamesmanClassic's hash has them; query refuses them)",
                    unplayable.iter().sum::<u64>()
                ),
            ],
            start: format!("{start}: {start_rec}"),
            max_remoteness: header.max_remoteness,
            bytes: written.bytes,
        })
    }
}

/// The shared checkpoint store as Topitop's solver keeps it: a level of
/// tiers a file, each tier named by its number.
struct Levels<'a>(&'a mut Kept);

/// The name a tier is kept under: its number in 9 hex digits, so that the
/// files list in solving order.
fn tier_name(tier: Tier) -> String {
    format!("{:09x}", tier.number())
}

impl Checkpoint for Levels<'_> {
    fn load(&mut self, tier: Tier, records: &mut [Record]) -> bool {
        let name = tier_name(tier);
        self.0
            .load_with(|f| f.load(&name, records.len() as u64))
            .map(|saved| records.copy_from_slice(&saved))
            .is_some()
    }

    fn due(&self) -> bool {
        self.0.due()
    }

    fn save(&mut self, finished: &[(Tier, &[Record])]) -> std::io::Result<()> {
        let names: Vec<String> = finished.iter().map(|&(t, _)| tier_name(t)).collect();
        let parts: Vec<(&str, Part)> = names
            .iter()
            .zip(finished)
            .map(|(n, &(_, r))| (n.as_str(), Part::Records(r)))
            .collect();
        self.0.save_with(|f| f.save_level(&parts))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}
