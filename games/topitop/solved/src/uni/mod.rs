//! Topitop served to GamesmanUni through `topitop-serve`'s
//! [`ServedVariant`](topitop_serve::ServedVariant), from Topitop's own
//! database format (its fast path): [`catalog`] tells the server's shared
//! catalog which file is which variant and reads one, [`response`] builds Topitop's position objects (shared
//! with the command's `query` and `play`), [`theme`] and [`instructions`]
//! hold the fixed content, [`words`] what the page says beside the board, and [`served`] puts them behind the server's
//! interface.

pub mod art;
pub mod catalog;
pub mod instructions;
pub mod response;
pub mod served;
pub mod theme;
mod words;
