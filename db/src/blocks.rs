//! What every database format here shares: the XXH3-64 checksum, the
//! 24-byte entry that places one zstd block in a file, and reading a
//! file's header before the rest.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::error::DbError;

/// Bytes of a [`BlockEntry`] in a file.
pub const ENTRY_LEN: usize = 24;

/// One block's place in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockEntry {
    /// Offset of the compressed bytes.
    pub offset: u64,
    /// Compressed length.
    pub compressed: u32,
    /// Decompressed length.
    pub raw: u32,
    /// XXH3-64 of the compressed bytes.
    pub checksum: u64,
}

/// XXH3-64, the checksum of every part of the file.
pub fn checksum(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// The little-endian u32 at `at`.
pub fn le_u32(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}
/// The little-endian u64 at `at`.
pub fn le_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

impl BlockEntry {
    /// Appends the entry's bytes.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.offset.to_le_bytes());
        out.extend_from_slice(&self.compressed.to_le_bytes());
        out.extend_from_slice(&self.raw.to_le_bytes());
        out.extend_from_slice(&self.checksum.to_le_bytes());
    }

    /// The entry at the start of `b` (at least [`ENTRY_LEN`] bytes).
    pub fn decode(b: &[u8]) -> BlockEntry {
        BlockEntry {
            offset: le_u64(b, 0),
            compressed: le_u32(b, 8),
            raw: le_u32(b, 12),
            checksum: le_u64(b, 16),
        }
    }
}

/// Opens the database at `path` (a regular file only) and reads its
/// header, and no more: 14 bytes, then, when they start with `magic`, the
/// header's body as its length field (bytes 10..14) gives, capped at
/// `max_header` and at the file. Returns the file (its offset just past
/// what was read), its length and the bytes read; a header too short or of
/// another format is for the format's decoder to refuse.
///
/// # Errors
/// The file cannot be opened or read; the error names it.
pub fn open_with_header(
    path: &Path,
    magic: [u8; 8],
    max_header: u64,
) -> Result<(File, u64, Vec<u8>), DbError> {
    let io = |source| DbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = topitop_files::open_regular(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut head = Vec::new();
    let mut reader = (&file).take(14);
    reader.read_to_end(&mut head).map_err(io)?;
    if head.len() == 14 && head[..8] == magic {
        let body = u64::from(le_u32(&head, 10));
        reader.set_limit(body.min(max_header).min(len) + 8);
        reader.read_to_end(&mut head).map_err(io)?;
    }
    Ok((file, len, head))
}
