//! What the databases of every game share, and the formats of the games
//! behind the game interface: the tiered game databases ([`tiered`]),
//! their solve checkpoints ([`tier_checkpoint`]), tiers held
//! sparse in memory ([`sparse`]), the value databases of
//! games whose remoteness the position gives ([`packed`]), the checksum and block
//! entry every format uses ([`blocks`]), temporary outputs ([`temps`]) and
//! the errors ([`DbError`]). The formats are specified in `db/FORMAT.md`.
//! A game with its own format (Topitop's, in `games-topitop-solved`) builds
//! on [`blocks`], [`temps`] and [`DbError`].
#![forbid(unsafe_code)]

pub mod blocks;
pub mod convert;
pub mod error;
pub mod header;
pub mod packed;
pub mod peek;
pub mod quick_hash;
pub mod reach;
pub mod reader;
pub mod solved;
pub mod sparse;
pub mod temps;
pub mod tier_checkpoint;
mod tier_list;
pub mod tiered;
pub mod zstd_ctx;

pub use error::DbError;
pub use reader::{Facts, FormatVersion, Place, Reader};
pub use solved::SolvedDb;
pub use temps::{remove_stale_temps, write_atomically};
