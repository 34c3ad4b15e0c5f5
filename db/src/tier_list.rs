//! What a database's header must agree with once the game it is opened
//! for is known: the game and variant it names, and its tier list, name
//! by name, size by size, in the order the format's writer stores them.
//! A reader finds a tier's records by its name, so a header whose names
//! were relabelled (another board's, or two tiers of one size swapped)
//! would answer from the wrong records: it is refused instead.

use std::path::Path;

use topitop_game_api::Tiered;

use crate::error::DbError;

/// Checks that the header of the file at `path`, naming game `found_game`
/// and variant `found_variant`, is one of `game`'s variant.
///
/// # Errors
/// [`DbError::OtherGame`], naming both.
pub(crate) fn check_names<G: Tiered>(
    path: &Path,
    game: &G,
    found_game: &str,
    found_variant: &str,
) -> Result<(), DbError> {
    if found_game == game.name() && found_variant == game.variant() {
        return Ok(());
    }
    Err(DbError::OtherGame {
        path: path.to_path_buf(),
        found: format!("{found_game} {found_variant}"),
        expected: format!("{} {}", game.name(), game.variant()),
    })
}

/// Checks that the header's tiers, `stored` (name and number of indices,
/// in the file's order), are `game`'s tiers `order` in that order, each
/// of the game's size.
///
/// # Errors
/// A [`DbError::Corrupt`] naming the first tier that differs (not yet
/// naming the file).
pub(crate) fn check_tiers<'a, G: Tiered>(
    game: &G,
    order: &[G::Tier],
    stored: impl ExactSizeIterator<Item = (&'a str, u64)>,
) -> Result<(), DbError> {
    let whose = format!("{} {}", game.name(), game.variant());
    // A board too large to index has no tiers, and so no database: a file
    // that claims to hold one (with no tiers, it would pass every check
    // below and answer nothing) was not written by a solve.
    if order.is_empty() {
        return Err(DbError::corrupt(
            "header",
            format!(
                "no database of {whose} can exist: its positions cannot be indexed (too large to solve); \
                 this file was not written by a solve"
            ),
        ));
    }
    let refuse = |detail: String| {
        Err(DbError::corrupt(
            "header",
            format!("{detail}: the file is damaged or relabelled; solve {whose} again"),
        ))
    };
    if stored.len() != order.len() {
        return refuse(format!(
            "it lists {} tiers, but {whose} has {}",
            stored.len(),
            order.len()
        ));
    }
    for (k, ((name, size), &tier)) in stored.zip(order).enumerate() {
        let (want, want_size) = (game.tier_name(tier), game.tier_size(tier));
        if name != want || size != want_size {
            return refuse(format!(
                "its tier {k} is {name} of {size} indices, but {whose}'s tier {k} is {want} of {want_size}"
            ));
        }
    }
    Ok(())
}
