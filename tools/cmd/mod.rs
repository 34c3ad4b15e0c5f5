//! One module per subcommand, each with its own `Args`.

pub mod perft;
pub mod show;
pub mod solve;
pub mod verify;
