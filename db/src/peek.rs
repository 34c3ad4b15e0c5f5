//! What a database file says it holds, read from its header alone: so
//! that a command given `--db FILE` can take the game and its variant
//! from the file rather than from options the user never gave.

use std::io::Read;
use std::path::Path;

use crate::blocks::open_with_header;
use crate::error::DbError;
use crate::packed::PackedHeader;
use crate::tiered::TieredHeader;

/// The most header bytes a peek reads (each format's decoder refuses
/// what does not fit its own limit).
const MAX_HEADER: u64 = 256 << 20;

/// The game and variant the header of the file at `path` names, for the
/// formats of this crate (tiered records and packed values); `None` for a
/// file of another format (a game's own, like Topitop's).
///
/// # Errors
/// The file cannot be read, or it has one of these formats' magic numbers
/// but a header that does not decode; the error names the file.
pub fn game_and_variant(path: &Path) -> Result<Option<(String, String)>, DbError> {
    let magic = magic(path)?;
    if magic == crate::packed::MAGIC {
        let (_, _, head) = open_with_header(path, crate::packed::MAGIC, MAX_HEADER)?;
        let h = PackedHeader::decode(&head).map_err(|e| e.in_file(path))?;
        Ok(Some((h.game, h.variant)))
    } else if magic == crate::tiered::MAGIC {
        let (_, _, head) = open_with_header(path, crate::tiered::MAGIC, MAX_HEADER)?;
        let h = TieredHeader::decode(&head).map_err(|e| e.in_file(path))?;
        Ok(Some((h.game, h.variant)))
    } else {
        Ok(None)
    }
}

/// The first eight bytes of the regular file at `path` (fewer if it is
/// shorter): the magic number that tells the formats apart.
///
/// # Errors
/// The file cannot be opened or read; the error names it.
pub fn magic(path: &Path) -> Result<Vec<u8>, DbError> {
    let mut magic = Vec::with_capacity(8);
    topitop_files::open_regular(path)
        .and_then(|f| f.take(8).read_to_end(&mut magic))
        .map_err(|source| DbError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    Ok(magic)
}
