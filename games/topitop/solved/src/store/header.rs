//! The file header and block table (see FORMAT.md).

use topitop_rules::{Budget, Rules, Ruleset, Value, Variant};

pub use topitop_db::blocks::{checksum, BlockEntry, ENTRY_LEN};
use topitop_db::blocks::{le_u16, le_u32, le_u64};
use topitop_db::DbError;

/// The magic number that opens every database file.
pub const MAGIC: [u8; 8] = *b"TOPITOPD";
/// The format version this code writes.
pub const VERSION: u16 = 2;
/// Version 1: a block's records stored in group order (see FORMAT.md); still
/// read.
pub const VERSION_GROUP_ORDER: u16 = 1;
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
    /// The format version: [`VERSION`], or [`VERSION_GROUP_ORDER`] for an
    /// older file. It says how a block lays out its records.
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
    /// Bytes of the encoded header, its checksum included.
    pub fn encoded_len(&self) -> usize {
        FIXED_LEN + 2 * self.codebook.len() + 8
    }

    /// The header bytes, ending in their checksum.
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(self.encoded_len());
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&self.version.to_le_bytes());
        b.extend_from_slice(&((FIXED_LEN + 2 * self.codebook.len()) as u16).to_le_bytes());
        let ruleset = self.rules.ruleset();
        b.push(if ruleset == Ruleset::V0 { 0 } else { 1 });
        b.push(ruleset.variant().number());
        b.extend_from_slice(&self.rules.budget().counts());
        b.push(self.scheme);
        b.push(self.symbol_width);
        b.extend_from_slice(&self.block_boards.to_le_bytes());
        for x in [self.boards, self.records, self.blocks, self.table_offset] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b.extend_from_slice(&[0u8; 8]);
        for x in self.counts {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b.extend_from_slice(&self.max_remoteness.to_le_bytes());
        b.extend_from_slice(&(self.codebook.len() as u16).to_le_bytes());
        let mut solver = [0u8; SOLVER_LEN];
        let name = self.solver.as_bytes();
        let n = name.len().min(SOLVER_LEN);
        solver[..n].copy_from_slice(&name[..n]);
        b.extend_from_slice(&solver);
        b.extend_from_slice(&u32::from(self.symmetric).to_le_bytes());
        debug_assert_eq!(b.len(), FIXED_LEN);
        for &c in &self.codebook {
            b.extend_from_slice(&c.to_le_bytes());
        }
        let sum = checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
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
        let version = le_u16(file, 8);
        if version != VERSION && version != VERSION_GROUP_ORDER {
            return Err(DbError::UnsupportedVersion {
                format: "topitop database format",
                found: version,
                known: &[VERSION_GROUP_ORDER, VERSION],
            });
        }
        let body_len = le_u16(file, 10) as usize;
        let book_len = le_u16(file, 98) as usize;
        if body_len != FIXED_LEN + 2 * book_len {
            return Err(DbError::corrupt(
                "header",
                format!("length {body_len} does not match a codebook of {book_len} symbols"),
            ));
        }
        need("the header", body_len + 8)?;
        let stored = le_u64(file, body_len);
        let computed = checksum(&file[..body_len]);
        if stored != computed {
            return Err(DbError::Checksum {
                what: "header".into(),
                stored,
                computed,
            });
        }
        let bad = |detail: String| DbError::corrupt("header", detail);
        let variant = Variant::new(i64::from(file[13])).map_err(|e| bad(e.to_string()))?;
        let ruleset = match file[12] {
            0 if variant.number() == 0 => Ruleset::V0,
            1 => Ruleset::V1(variant),
            r => return Err(bad(format!("unknown ruleset {r} (variant {})", file[13]))),
        };
        let budget = Budget::new(file[14], file[15], file[16], file[17]).map_err(|e| bad(e.to_string()))?;
        let symbol_width = file[19];
        let header = Header {
            version,
            rules: Rules::with_budget(ruleset, budget),
            scheme: file[18],
            symbol_width,
            block_boards: le_u32(file, 20),
            boards: le_u64(file, 24),
            records: le_u64(file, 32),
            blocks: le_u64(file, 40),
            table_offset: le_u64(file, 48),
            counts: [
                le_u64(file, 64),
                le_u64(file, 72),
                le_u64(file, 80),
                le_u64(file, 88),
            ],
            max_remoteness: le_u16(file, 96),
            solver: topitop_db::error::printable(
                String::from_utf8_lossy(&file[100..100 + SOLVER_LEN])
                    .trim_end_matches('\0')
                    .to_string(),
            )?,
            symmetric: le_u32(file, 124) != 0,
            codebook: (0..book_len).map(|i| le_u16(file, FIXED_LEN + 2 * i)).collect(),
        };
        if header.scheme != SCHEME_CANONICAL_BOARDS {
            return Err(bad(format!("unknown index scheme {}", header.scheme)));
        }
        if !matches!(symbol_width, 1 | 2) {
            return Err(bad(format!("symbol width {symbol_width} (must be 1 or 2)")));
        }
        if header.codebook.is_empty() || header.codebook.len() > 1 << (8 * u32::from(symbol_width)) {
            return Err(bad(format!(
                "{} codebook symbols for {symbol_width}-byte symbols",
                header.codebook.len()
            )));
        }
        if let Some(c) = header
            .codebook
            .iter()
            .find(|&&c| topitop_table::Record::from_bits(c).is_none())
        {
            return Err(bad(format!("codebook entry {c:#06x} is not a record")));
        }
        header.check_codebook().map_err(bad)?;
        if header.block_boards == 0 || header.block_boards > 1 << 16 {
            return Err(bad(format!("{} boards per block", header.block_boards)));
        }
        if header.blocks != header.boards.div_ceil(u64::from(header.block_boards)) {
            return Err(bad(format!(
                "{} blocks for {} boards of {} per block",
                header.blocks, header.boards, header.block_boards
            )));
        }
        Ok(header)
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
            .map(|&c| c & topitop_table::MAX_REMOTENESS)
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

    /// Bytes of the block table, its checksum included.
    pub fn table_len(&self) -> u64 {
        self.blocks * ENTRY_LEN as u64 + 8
    }
}
