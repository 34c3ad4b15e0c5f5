//! What every database format here shares: the XXH3-64 checksum and the
//! 24-byte entry that places one zstd block in a file.

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

/// The little-endian u16 at `at`.
pub fn le_u16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
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
