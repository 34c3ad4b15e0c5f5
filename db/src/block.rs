//! A decompressed block: the group size of each of its boards, then the
//! records' symbols.

use crate::error::DbError;
use topitop_game::group::MAX_GROUP;

/// Boards per prefix-sum entry: a lookup sums at most this many sizes.
const STRIDE: usize = 64;

/// A decoded, validated block.
pub(crate) struct Block {
    sizes: Box<[u8]>,
    /// Records before each run of [`STRIDE`] boards.
    prefix: Box<[u32]>,
    symbols: Box<[u8]>,
    width: usize,
}

impl Block {
    /// Splits and checks the raw bytes of block `b` holding `boards` boards.
    pub(crate) fn decode(
        b: u64,
        raw: Vec<u8>,
        boards: usize,
        width: usize,
        book_len: usize,
    ) -> Result<Block, DbError> {
        let what = || format!("block {b}");
        if raw.len() < boards {
            return Err(DbError::corrupt(
                what(),
                format!("{} bytes cannot hold the sizes of {boards} boards", raw.len()),
            ));
        }
        let mut raw = raw;
        let symbols = raw.split_off(boards);
        let sizes = raw.into_boxed_slice();
        let mut prefix = Vec::with_capacity(boards.div_ceil(STRIDE));
        let mut total = 0u64;
        for (j, &s) in sizes.iter().enumerate() {
            if j % STRIDE == 0 {
                prefix.push(total as u32);
            }
            if s % 2 == 1 || usize::from(s) > MAX_GROUP {
                return Err(DbError::corrupt(
                    what(),
                    format!("board {j} has a group of {s} records"),
                ));
            }
            total += u64::from(s);
        }
        if symbols.len() as u64 != total * width as u64 {
            return Err(DbError::corrupt(
                what(),
                format!(
                    "{} bytes of records where the sizes call for {total} records of {width} bytes",
                    symbols.len()
                ),
            ));
        }
        let block = Block {
            sizes,
            prefix: prefix.into_boxed_slice(),
            symbols: symbols.into_boxed_slice(),
            width,
        };
        if let Some(i) = (0..total as usize).find(|&i| block.symbol_at(i) >= book_len) {
            return Err(DbError::corrupt(
                what(),
                format!(
                    "record {i} uses symbol {} of a {book_len}-symbol codebook",
                    block.symbol_at(i)
                ),
            ));
        }
        Ok(block)
    }

    fn symbol_at(&self, i: usize) -> usize {
        match self.width {
            1 => usize::from(self.symbols[i]),
            _ => usize::from(u16::from_le_bytes([self.symbols[2 * i], self.symbols[2 * i + 1]])),
        }
    }

    /// Boards in the block.
    pub(crate) fn boards(&self) -> usize {
        self.sizes.len()
    }

    /// The stored group size of board `j` (0: not a canonical board).
    pub(crate) fn size(&self, j: usize) -> usize {
        usize::from(self.sizes[j])
    }

    /// The first record of board `j`'s group.
    pub(crate) fn start(&self, j: usize) -> usize {
        let run = j / STRIDE * STRIDE;
        self.prefix[j / STRIDE] as usize + self.sizes[run..j].iter().map(|&s| usize::from(s)).sum::<usize>()
    }

    /// The symbol of record `slot` of board `j`, whose group must have
    /// `group` records.
    pub(crate) fn symbol(&self, b: u64, j: usize, slot: usize, group: usize) -> Result<usize, DbError> {
        let stored = self.size(j);
        if stored != group {
            return Err(DbError::corrupt(
                format!("block {b}"),
                format!("board {j} stores {stored} records where its group has {group}"),
            ));
        }
        Ok(self.symbol_at(self.start(j) + slot))
    }

    /// The symbols of board `j`'s group.
    pub(crate) fn group_symbols(&self, j: usize) -> impl Iterator<Item = usize> + '_ {
        let start = self.start(j);
        (start..start + self.size(j)).map(|i| self.symbol_at(i))
    }

    /// The symbols of the records from the `at`-th on, `len` of them: a
    /// caller walking the boards in order keeps `at` itself instead of
    /// summing sizes for each board.
    pub(crate) fn symbols_from(&self, at: usize, len: usize) -> impl Iterator<Item = usize> + '_ {
        (at..at + len).map(|i| self.symbol_at(i))
    }

    /// Records in the block.
    pub(crate) fn records(&self) -> u64 {
        (self.symbols.len() / self.width) as u64
    }

    /// Memory held, for the cache's accounting.
    pub(crate) fn bytes(&self) -> usize {
        self.sizes.len() + self.symbols.len() + 4 * self.prefix.len() + 64
    }
}
