//! Topple's entry in the `topitop` command: the framework's generic
//! commands and tier solver, instantiated for [`Topple`].
//!
//! A crate of its own rather than a line in the binary: the generic code
//! is compiled where its type is named, so here it is built once, fully
//! optimised in one codegen unit (Topple's solve runs in it), in parallel
//! with the other games, and is not rebuilt when another game changes.
//! The binary that registers it then holds little more than `main`.

use games_topple::Topple;
use topitop_cli::registry::{tiered, Commands};

/// Topple's commands, for the registry of the `topitop` binary.
pub fn commands() -> Box<dyn Commands> {
    tiered::<Topple>().boxed()
}
