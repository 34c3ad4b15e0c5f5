//! Reading every stored position of a database on all cores, block by
//! block, with a progress bar: the loop `stats` and `crosscheck` share.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use topitop_db::Database;
use topitop_game::Position;
use topitop_table::Record;

use crate::progress::CountBar;

/// Folds the stored positions of `db` (one per symmetry class) in
/// parallel: `part` turns the positions of one block into a partial result
/// and `merge` combines two. A bar labelled `what` counts the blocks.
///
/// # Errors
/// The first error of a damaged block, or of `part`.
pub fn fold_blocks<T: Default + Send>(
    db: &Database,
    what: &str,
    part: impl Fn(Vec<(Position, Record)>) -> anyhow::Result<T> + Sync,
    merge: impl Fn(T, T) -> T + Sync,
) -> anyhow::Result<T> {
    let bar = CountBar::new(what, "blocks");
    let done = AtomicU64::new(0);
    let total = db.blocks() as u64;
    let result = (0..db.blocks())
        .into_par_iter()
        .map(|b| {
            let t = part(db.block_positions(b)?)?;
            bar.set(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            Ok(t)
        })
        .try_reduce(T::default, |a, b| Ok(merge(a, b)));
    bar.finish();
    result
}
