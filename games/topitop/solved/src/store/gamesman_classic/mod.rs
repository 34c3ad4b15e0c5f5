//! GamesmanClassic's own Topitop tier database (`src/core/tierdb.c`):
//! reading its files, and writing them exactly as its tier solver does.
//!
//! # The files
//!
//! A solve of option *o* writes, under GamesmanClassic's `data/` directory,
//! the folder `mtopitop_<o>_tierdb/` with one file per tier it solves,
//! `mtopitop_<o>_<tier>_tierdb.dat.gz` (tier number in decimal), and for
//! each a lookup index `lookup/mtopitop_<o>_<tier>_tierdb.dat.gz.idx`.
//!
//! A tier file's uncompressed stream is a big-endian u16 version (1), the
//! tier size as two big-endian u32 halves (low half first: `htonl` of each
//! half of a little-endian u64), then one big-endian u16 record per tier
//! position 0..size: bits 0–1 the value (0 undecided, 1 win, 2 lose, 3 tie),
//! bits 8–15 the remoteness; a draw is a tie at remoteness 255. Slots that
//! upstream's `isLegal` rejects are never solved and stay 0.
//!
//! The solver writes the stream with zlib's `gzwrite` (`gzopen(…, "wb")`:
//! level 6, default strategy) and closes and reopens the file in append mode
//! after every 2²⁰ uncompressed bytes (the first member includes the 10
//! header bytes) and after the last record. The file is therefore a chain
//! of gzip members of 2²⁰ bytes each (the last shorter), every header with
//! modification time 0, no name and OS byte 3 (Unix), followed by one empty
//! 20-byte member: the final `gzclose` of the last reopening still finishes
//! a deflate stream. Each line of the `.idx` file is the compressed size of
//! one member (decimal, `\n`-terminated), the empty member excepted;
//! `--interact` finds a record by summing them.
//!
//! [`export`] writes such a folder from a [`Solution`](games_topitop_table::Solution):
//! [`tier_stream`] computes every slot of a tier, [`encode_tier`] compresses
//! it. At level 6 ([`ExportOptions::EXACT`]) and with zlib itself (flate2's
//! `zlib` backend: the system's libz, or the copy libz-sys builds, whose
//! output is the same) the files are byte-identical to GamesmanClassic's;
//! any other level gives the same uncompressed streams, which is all
//! GamesmanClassic reads.

mod export;
mod reader;
mod record;
mod slots;

pub use export::{encode_tier, export, EncodedTier, ExportError, ExportOptions, ExportSummary, FAST_LEVEL};
pub use reader::{find_tier_files, read_tier_file, TierFile};
pub use record::GcRecord;
pub use slots::{option_of, slot_record, solved_tiers, tier_stream, TierStream};

/// The version in every tier file's first two bytes.
pub const FILE_VERSION: u16 = 1;

/// Bytes before the first record: the version and the tier size.
pub const HEADER_BYTES: usize = 10;

/// Uncompressed bytes per gzip member (GamesmanClassic's `FILESIZE`).
pub const MEMBER_BYTES: usize = 1 << 20;

/// The zlib level of `gzopen(…, "wb")` (`Z_DEFAULT_COMPRESSION`).
pub const GZIP_LEVEL: u32 = 6;

/// The OS byte zlib writes in gzip headers on Unix (`OS_CODE`).
pub const GZIP_OS_UNIX: u8 = 3;

/// `mtopitop_<option>_tierdb`: the folder of one option's tier files.
pub fn folder_name(option: u8) -> String {
    format!("mtopitop_{option}_tierdb")
}

/// `mtopitop_<option>_<tier>_tierdb.dat.gz`: one tier's file.
pub fn file_name(option: u8, tier: u64) -> String {
    format!("mtopitop_{option}_{tier}_tierdb.dat.gz")
}

/// `lookup/<file name>.idx`, relative to the option's folder: one tier's
/// lookup index.
pub fn idx_path(option: u8, tier: u64) -> std::path::PathBuf {
    std::path::Path::new("lookup").join(format!("{}.idx", file_name(option, tier)))
}
