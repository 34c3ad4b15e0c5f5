//! The games the command knows beyond Topitop, whose commands are its own:
//! each is registered by one line of [`register`], and every generic
//! command (in [`crate::generic`]) and the server work on it through the
//! game interface.

use topitop_interface::{Registered, Tiered};

use crate::common::RulesArgs;

/// What is done with each registered game.
pub trait Visit {
    /// Called once for each registered game type.
    fn visit<G: Registered>(&mut self);
}

/// The one place games are registered: one line a game.
pub fn register(v: &mut impl Visit) {
    v.visit::<topitop_topolo::Topolo>();
    #[cfg(feature = "toy")]
    v.visit::<topitop_toy::TicTacToe>();
}

/// Every game's name, as `--game` takes it: Topitop's, then the
/// registered games'.
pub fn names() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl Visit for Names {
        fn visit<G: Registered>(&mut self) {
            self.0.push(G::NAME);
        }
    }
    let mut n = Names(vec!["topitop"]);
    register(&mut n);
    n.0
}

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
pub fn with_game<C: OnGame>(args: &RulesArgs, cmd: C) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.rules.is_none() && args.budget.is_none(),
        "--rules and --budget are Topitop's options; --game {} takes --board and --variant",
        args.game()
    );
    struct Find<'a, C> {
        args: &'a RulesArgs,
        cmd: Option<C>,
        result: Option<anyhow::Result<()>>,
    }
    impl<C: OnGame> Visit for Find<'_, C> {
        fn visit<G: Registered>(&mut self) {
            if G::NAME != self.args.game() {
                return;
            }
            if let Some(cmd) = self.cmd.take() {
                let game = G::from_options(self.args.board.as_deref(), self.args.variant.as_deref());
                self.result = Some(game.map_err(anyhow::Error::msg).and_then(|g| cmd.run(g)));
            }
        }
    }
    let mut find = Find {
        args,
        cmd: Some(cmd),
        result: None,
    };
    register(&mut find);
    find.result.unwrap_or_else(|| {
        anyhow::bail!(
            "unknown game {:?}: the games are {}",
            args.game(),
            names().join(", ")
        )
    })
}
