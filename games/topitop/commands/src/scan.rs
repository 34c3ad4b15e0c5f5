//! Reading every stored position of a database on all cores, block by
//! block, with a progress bar: the loop `stats` and `crosscheck` share.

use std::sync::atomic::{AtomicU64, Ordering};

use games_topitop_rules::{Board, Position};
use games_topitop_solved::Database;
use games_topitop_table::Record;
use rayon::prelude::*;

use topitop_cli::progress::CountBar;

/// Folds the stored positions of `db` (one per symmetry class) in
/// parallel, one board's group at a time: `part` adds a board and its
/// stored positions with their records ([`Database::for_each_group`]) to a
/// partial result, and `merge` combines two. A bar labelled `what` counts
/// the blocks.
///
/// # Errors
/// The first error of a damaged block, or of `part`.
pub fn fold_groups<T: Default + Send>(
    db: &Database,
    what: &str,
    part: impl Fn(&mut T, Board, &[(Position, Record)]) -> anyhow::Result<()> + Sync,
    merge: impl Fn(T, T) -> T + Sync,
) -> anyhow::Result<T> {
    let bar = CountBar::new(what, "blocks");
    let done = AtomicU64::new(0);
    let total = db.blocks() as u64;
    let result = (0..db.blocks())
        .into_par_iter()
        .map(|b| {
            let mut t = T::default();
            db.for_each_group(b, |board, stored| part(&mut t, board, stored))?;
            bar.set(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            Ok(t)
        })
        .try_reduce(T::default, |a, b| Ok(merge(a, b)));
    bar.finish();
    result
}
