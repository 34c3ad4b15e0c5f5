//! The file header and block table (see FORMAT.md).

use games_topitop_rules::{Budget, Rules, Ruleset, Value, Variant};

pub use topitop_db::blocks::{checksum, BlockEntry, ENTRY_LEN};
use topitop_db::header::{checksummed, Fields, HeaderWriter};
use topitop_db::DbError;

/// The magic number that opens every database file.
pub const MAGIC: [u8; 8] = *b"TOPITOPD";
/// The format version this code writes: blocks hold heads and tails
/// alone, each board's group size coming from the rules.
pub const VERSION: u16 = 3;
/// Version 2: a block's heads and tails after its boards' group sizes;
/// still read.
pub const VERSION_STORED_SIZES: u16 = 2;
/// Version 1: a block's group sizes, then its records in group order (see
/// FORMAT.md); still read.
pub const VERSION_GROUP_ORDER: u16 = 1;
/// The versions this code reads.
pub const KNOWN: [u16; 3] = [VERSION_GROUP_ORDER, VERSION_STORED_SIZES, VERSION];
/// Bytes of a block-table entry from version 3: u32 compressed length,
/// u64 checksum.
pub const COMPACT_ENTRY_LEN: usize = 12;
/// Index scheme 1: groups of canonical boards in board-number order.
pub const SCHEME_CANONICAL_BOARDS: u8 = 1;
/// Bytes of the fixed part of the header.
pub const FIXED_LEN: usize = 128;
/// Bytes of one block-table entry.
/// Bytes of the solver-version field.
const SOLVER_LEN: usize = 24;

/// Everything the header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The format version: [`VERSION`], or one of the older [`KNOWN`]
    /// ones. It says how a block lays out its records.
    pub version: u16,
    /// The rules and budget solved.
    pub rules: Rules,
    /// The index scheme ([`SCHEME_CANONICAL_BOARDS`]).
    pub scheme: u8,
    /// Bytes per stored symbol (1 or 2).
    pub symbol_width: u8,
    /// Boards per block (the last block may hold fewer).
    pub block_boards: u32,
    /// Boards within the budget (all tiers).
    pub boards: u64,
    /// Records stored.
    pub records: u64,
    /// Number of blocks.
    pub blocks: u64,
    /// Offset of the block table.
    pub table_offset: u64,
    /// Positions by value solved: win, lose, tie, draw (one per symmetry
    /// class when the solve used symmetry).
    pub counts: [u64; 4],
    /// The largest remoteness of a win, lose or tie.
    pub max_remoteness: u16,
    /// True when the solve reduced by symmetry.
    pub symmetric: bool,
    /// The program that wrote the file, e.g. `topitop 0.1.0`.
    pub solver: String,
    /// Symbol → record bits.
    pub codebook: Vec<u16>,
}

impl Header {
    /// True when a block stores its boards' group sizes before their
    /// records (versions 1 and 2); from version 3 the reader works them
    /// out from the boards.
    pub fn stores_sizes(&self) -> bool {
        self.version < VERSION
    }

    /// Bytes of the encoded header, its checksum included.
    pub fn encoded_len(&self) -> usize {
        FIXED_LEN + 2 * self.codebook.len() + 8
    }

    /// The header bytes, ending in their checksum: the fixed layout of
    /// FORMAT.md, field by field.
    pub fn encode(&self) -> Vec<u8> {
        let mut b = HeaderWriter::new();
        b.bytes(&MAGIC).u16(self.version);
        b.u16((FIXED_LEN + 2 * self.codebook.len()) as u16);
        let ruleset = self.rules.ruleset();
        b.u8(if ruleset == Ruleset::V0 { 0 } else { 1 });
        b.u8(ruleset.variant().number());
        b.bytes(&self.rules.budget().counts());
        b.u8(self.scheme).u8(self.symbol_width).u32(self.block_boards);
        for x in [self.boards, self.records, self.blocks, self.table_offset] {
            b.u64(x);
        }
        b.bytes(&[0u8; 8]);
        for x in self.counts {
            b.u64(x);
        }
        b.u16(self.max_remoteness).u16(self.codebook.len() as u16);
        let mut solver = [0u8; SOLVER_LEN];
        let name = self.solver.as_bytes();
        let n = name.len().min(SOLVER_LEN);
        solver[..n].copy_from_slice(&name[..n]);
        b.bytes(&solver).u32(u32::from(self.symmetric));
        debug_assert_eq!(b.len(), FIXED_LEN);
        for &c in &self.codebook {
            b.u16(c);
        }
        b.checksummed()
    }

    /// Decodes and checks the header at the start of `file`.
    ///
    /// # Errors
    /// Bad magic, an unknown version, truncation, a checksum mismatch or a
    /// field out of range.
    pub fn decode(file: &[u8]) -> Result<Header, DbError> {
        let len = file.len() as u64;
        let need = |what, end: usize| {
            if file.len() < end {
                Err(DbError::Truncated {
                    what,
                    start: 0,
                    end: end as u64,
                    len,
                })
            } else {
                Ok(())
            }
        };
        need("the magic number", 8)?;
        if file[..8] != MAGIC {
            return Err(DbError::BadMagic);
        }
        need("the header", FIXED_LEN)?;
        let mut f = Fields::new(&file[8..FIXED_LEN]);
        let version = f.u16()?;
        if !KNOWN.contains(&version) {
            return Err(DbError::UnsupportedVersion {
                format: "topitop database format",
                found: version,
                known: &KNOWN,
            });
        }
        let body_len = usize::from(f.u16()?);
        let (ruleset, variant) = (f.u8()?, f.u8()?);
        let budget: [u8; 4] = f.array()?;
        let (scheme, symbol_width, block_boards) = (f.u8()?, f.u8()?, f.u32()?);
        let [boards, records, blocks, table_offset] = [f.u64()?, f.u64()?, f.u64()?, f.u64()?];
        f.take(8)?;
        let counts = [f.u64()?, f.u64()?, f.u64()?, f.u64()?];
        let (max_remoteness, book_len) = (f.u16()?, usize::from(f.u16()?));
        let solver: [u8; SOLVER_LEN] = f.array()?;
        let symmetric = f.u32()? != 0;
        f.finish()?;
        if body_len != FIXED_LEN + 2 * book_len {
            return Err(DbError::corrupt(
                "header",
                format!("length {body_len} does not match a codebook of {book_len} symbols"),
            ));
        }
        need("the header", body_len + 8)?;
        checksummed(file, body_len)?;
        let bad = |detail: String| DbError::corrupt("header", detail);
        let variant = Variant::new(i64::from(variant)).map_err(|e| bad(e.to_string()))?;
        let ruleset = match ruleset {
            0 if variant.number() == 0 => Ruleset::V0,
            1 => Ruleset::V1(variant),
            r => return Err(bad(format!("unknown ruleset {r} (variant {})", variant.number()))),
        };
        let [blue, red, small, large] = budget;
        let budget = Budget::new(blue, red, small, large).map_err(|e| bad(e.to_string()))?;
        let mut book = Fields::new(&file[FIXED_LEN..body_len]);
        let header = Header {
            version,
            rules: Rules::with_budget(ruleset, budget),
            scheme,
            symbol_width,
            block_boards,
            boards,
            records,
            blocks,
            table_offset,
            counts,
            max_remoteness,
            solver: topitop_db::error::printable(
                String::from_utf8_lossy(&solver)
                    .trim_end_matches('\0')
                    .to_string(),
            )?,
            symmetric,
            codebook: (0..book_len).map(|_| book.u16()).collect::<Result<_, _>>()?,
        };
        header.check_fields().map_err(bad)?;
        Ok(header)
    }

    /// The fields' own ranges, and the block count their boards need.
    fn check_fields(&self) -> Result<(), String> {
        let width = self.symbol_width;
        if self.scheme != SCHEME_CANONICAL_BOARDS {
            return Err(format!("unknown index scheme {}", self.scheme));
        }
        if !matches!(width, 1 | 2) {
            return Err(format!("symbol width {width} (must be 1 or 2)"));
        }
        if self.codebook.is_empty() || self.codebook.len() > 1 << (8 * u32::from(width)) {
            return Err(format!(
                "{} codebook symbols for {width}-byte symbols",
                self.codebook.len()
            ));
        }
        if let Some(c) = self
            .codebook
            .iter()
            .find(|&&c| games_topitop_table::Record::from_bits(c).is_none())
        {
            return Err(format!("codebook entry {c:#06x} is not a record"));
        }
        self.check_codebook()?;
        if self.block_boards == 0 || self.block_boards > 1 << 16 {
            return Err(format!("{} boards per block", self.block_boards));
        }
        if self.blocks != self.boards.div_ceil(u64::from(self.block_boards)) {
            return Err(format!(
                "{} blocks for {} boards of {} per block",
                self.blocks, self.boards, self.block_boards
            ));
        }
        Ok(())
    }

    /// The invariants that tie the codebook to the rest of the header,
    /// cheap enough for every opening: the codebook is in increasing order
    /// (as the writer sorts it), it holds a record of a value exactly when
    /// the counts have positions of that value, and its largest remoteness
    /// is the header's. A file whose codebook was tampered with (win and
    /// lose swapped, say) under recomputed checksums fails here instead of
    /// being served.
    fn check_codebook(&self) -> Result<(), String> {
        if let Some(w) = self.codebook.windows(2).find(|w| w[0] >= w[1]) {
            return Err(format!(
                "codebook entries {:#06x} then {:#06x} are out of order (the writer sorts them)",
                w[0], w[1]
            ));
        }
        for (k, name) in ["win", "lose", "tie", "draw"].iter().enumerate() {
            let code = k as u16 + 1;
            let in_book = self.codebook.iter().any(|&c| c >> 12 == code);
            if in_book != (self.counts[k] > 0) {
                return Err(format!(
                    "the counts give {} {name} positions, but the codebook {} {name} record",
                    self.counts[k],
                    if in_book { "has a" } else { "has no" }
                ));
            }
        }
        let largest = self
            .codebook
            .iter()
            .filter(|&&c| matches!(c >> 12, 1..=3))
            .map(|&c| c & games_topitop_table::MAX_REMOTENESS)
            .max()
            .unwrap_or(0);
        if largest != self.max_remoteness {
            return Err(format!(
                "the largest remoteness is {} but the codebook's is {largest}",
                self.max_remoteness
            ));
        }
        Ok(())
    }

    /// The stored count of positions with value `v`.
    pub fn count(&self, v: Value) -> u64 {
        self.counts[v.index()]
    }

    /// Bytes of one entry of the block table: from version 3, the block's
    /// compressed length and checksum (its offset follows from the lengths
    /// before it, its decompressed length from its boards); before, all
    /// four fields of [`BlockEntry`].
    pub fn entry_len(&self) -> usize {
        if self.stores_sizes() {
            ENTRY_LEN
        } else {
            COMPACT_ENTRY_LEN
        }
    }

    /// Bytes of the block table, its checksum included.
    pub fn table_len(&self) -> u64 {
        self.blocks * self.entry_len() as u64 + 8
    }
}
