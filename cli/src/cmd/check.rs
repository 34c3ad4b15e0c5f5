//! `topitop check --game NAME`: the game put through the game interface's
//! conformance check ([`topitop_game_api::conformance`]) before a long
//! solve relies on it: random games from the start, every position and
//! move checked against each promise of the contract.

use std::io::Write;

use topitop_game_api::conformance::{Report, Settings};

use crate::options::GameArgs;

/// Arguments of `check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Random games to play from the start.
    #[arg(long, default_value_t = Settings::default().games,
          value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub games: u32,
    /// Where a game that has not ended is cut off (a loopy game may go on
    /// for ever by chance).
    #[arg(long, value_name = "PLIES", default_value_t = Settings::default().max_plies,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_plies: u32,
    /// Random indices unranked in each tier.
    #[arg(long, value_name = "N", default_value_t = Settings::default().samples_per_tier,
          value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub samples: u32,
    /// The seed of the games; by default one from the clock, printed, so
    /// that a failure is seen again with `--seed`.
    #[arg(long)]
    pub seed: Option<u64>,
    /// The game and its options.
    #[command(flatten)]
    pub rules: GameArgs,
}

impl Args {
    /// The settings these arguments ask for.
    pub fn settings(&self) -> Settings {
        Settings {
            games: self.games,
            max_plies: self.max_plies,
            samples_per_tier: self.samples,
            seed: self.seed.unwrap_or_else(topitop_game_api::rng::Rng::clock_seed),
        }
    }
}

/// Runs the check `checker` makes for `title` (the game and variant) and
/// prints its report.
///
/// # Errors
/// Any check failed (the report says which, with examples), or standard
/// output failing.
pub fn run(title: &str, args: &Args, checker: impl FnOnce(Settings) -> Report) -> anyhow::Result<()> {
    let settings = args.settings();
    let mut out = std::io::stdout().lock();
    writeln!(out, "# {title}: conformance check, seed {}", settings.seed)?;
    out.flush()?;
    let report = checker(settings);
    write!(out, "{report}")?;
    out.flush()?;
    anyhow::ensure!(
        report.passed(),
        "{title} breaks the game interface's contract in {} of {} checks (above, with examples); \
         see game-api's conformance module for what each check means, and run again with --seed {} \
         to meet the same positions",
        report.failures(),
        report.checks.values().map(|t| t.made).sum::<u64>(),
        settings.seed
    );
    writeln!(out, "every check passed")?;
    Ok(())
}
