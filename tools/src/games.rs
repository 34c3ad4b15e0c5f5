//! The games the command knows beyond Topitop, whose commands are its own:
//! each is registered by one line of [`with_game`], and every generic
//! command (in [`crate::generic`]) works on it through the game interface.

use topitop_interface::Tiered;

use crate::common::RulesArgs;

/// Every game's name, as `--game` takes it.
pub const NAMES: &[&str] = &["topitop", "topolo"];

/// A command that runs on any registered game.
pub trait OnGame {
    /// Runs on `game`.
    ///
    /// # Errors
    /// Those of the command.
    fn run<G: Tiered + 'static>(self, game: G) -> anyhow::Result<()>;
}

/// Runs `cmd` on the game `args` name (not Topitop, whose commands are its
/// own).
///
/// # Errors
/// An unknown game, options the game refuses, or the command's errors.
pub fn with_game(args: &RulesArgs, cmd: impl OnGame) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.rules.is_none() && args.budget.is_none(),
        "--rules and --budget are Topitop's options; --game {} takes --board and --variant",
        args.game()
    );
    match args.game() {
        "topolo" => cmd.run(topitop_topolo::Topolo::from_options(
            args.board.as_deref(),
            args.variant.as_deref(),
        )?),
        #[cfg(feature = "toy")]
        "tictactoe" => cmd.run(topitop_toy::TicTacToe),
        other => anyhow::bail!("unknown game {other:?}: the games are {}", NAMES.join(", ")),
    }
}
