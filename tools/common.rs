//! Options and helpers shared by the subcommands.

use clap::Args;
use topitop_game::{Budget, Rules, Ruleset};

/// Which rules to play: `--rules`, `--variant`, `--budget`.
#[derive(Args, Clone, Debug)]
pub struct RulesArgs {
    /// Ruleset: v1 (GamesmanClassic's current module) or v0 (the older rules).
    #[arg(long, default_value = "v1", value_name = "v0|v1")]
    pub rules: String,
    /// GamesmanClassic option number 0-7 (v1 only): bit 0 no move loses,
    /// bit 1 two-tower tying rule, bit 2 misère.
    #[arg(long, default_value_t = 0, value_name = "N", allow_negative_numbers = true)]
    pub variant: i64,
    /// Piece budget as blue buckets/red buckets/smalls/larges.
    #[arg(long, default_value = "2/2/4/4", value_name = "B/R/S/L")]
    pub budget: String,
}

impl RulesArgs {
    /// The rules these options select.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        let ruleset = Ruleset::parse(&self.rules, self.variant)?;
        let budget: Budget = self.budget.parse()?;
        Ok(Rules::with_budget(ruleset, budget))
    }
}

/// True when `e` is a write to a closed pipe (e.g. `topitop ... | head`),
/// which is not a failure.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Sizes the worker pool: `threads` workers, or one per core.
pub fn init_threads(threads: Option<usize>) -> anyhow::Result<()> {
    if let Some(n) = threads {
        anyhow::ensure!(n > 0, "--threads must be at least 1");
        rayon::ThreadPoolBuilder::new().num_threads(n).build_global()?;
    }
    Ok(())
}
