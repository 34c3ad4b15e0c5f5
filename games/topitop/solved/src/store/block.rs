//! A decompressed block: the group size of each of its boards, then the
//! records' symbols, in one of two orders (FORMAT.md).

use games_topitop_rules::group::MAX_GROUP;
use topitop_db::DbError;

/// How a block's symbols follow its sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SymbolOrder {
    /// Format version 1: each group's symbols in group order.
    Groups,
    /// Format version 2: first each half's head (slot 0: Blue's, then
    /// Red's, group after group), then each half's tail (its other slots,
    /// each XORed with the half's head). The positions of a half differ
    /// only in their forbidden slide and mostly share their record, so the
    /// tails are mostly zeros and the heads are a short stream of their
    /// own: zstd packs both far better, and faster, than group order.
    HeadsAndTails,
}

/// `symbols` (group order, `width` bytes each, the groups of the boards
/// with nonzero `sizes`) rearranged into heads and tails, appended to
/// `out`. The sizes must add up to the symbols.
pub(crate) fn to_heads_and_tails(sizes: &[u8], symbols: &[u8], width: usize, out: &mut Vec<u8>) {
    let groups = sizes.iter().filter(|&&s| s != 0).count();
    let base = out.len();
    out.resize(base + symbols.len(), 0);
    let (heads, tails) = out[base..].split_at_mut(2 * groups * width);
    let (mut heads, mut tails) = (heads.chunks_exact_mut(width), tails.iter_mut());
    let mut at = 0;
    for &s in sizes.iter().filter(|&&s| s != 0) {
        let half = usize::from(s) / 2 * width;
        for _ in 0..2 {
            let (head, tail) = symbols[at..at + half].split_at(width);
            if let Some(h) = heads.next() {
                h.copy_from_slice(head);
            }
            match *head {
                [h] => tail.iter().zip(&mut tails).for_each(|(&b, t)| *t = b ^ h),
                _ => (tail.iter().enumerate())
                    .zip(&mut tails)
                    .for_each(|((i, &b), t)| *t = b ^ head[i % width]),
            }
            at += half;
        }
    }
}

/// The inverse of [`to_heads_and_tails`]: the symbols in group order, or
/// `None` if `stored` does not hold exactly what `sizes` call for (each
/// nonzero size even, a head and a tail per half). The caller has checked
/// the sizes already; the walk checks them again as it goes, at no extra
/// pass over them.
fn from_heads_and_tails(sizes: &[u8], stored: &[u8], width: usize) -> Option<Vec<u8>> {
    let groups = sizes.iter().filter(|&&s| s != 0).count();
    let (mut head_at, mut tail_at) = (0, (2 * groups).checked_mul(width)?);
    let mut out = vec![0u8; stored.len()];
    let mut at = 0;
    for &s in sizes.iter().filter(|&&s| s != 0) {
        if s % 2 == 1 {
            return None;
        }
        let half = usize::from(s) / 2 * width;
        for _ in 0..2 {
            let head = stored.get(head_at..head_at + width)?;
            let tail = stored.get(tail_at..tail_at + half - width)?;
            let (first, rest) = out.get_mut(at..at + half)?.split_at_mut(width);
            first.copy_from_slice(head);
            match *head {
                [h] => rest.iter_mut().zip(tail).for_each(|(o, &b)| *o = b ^ h),
                _ => {
                    (rest.iter_mut().zip(tail).enumerate()).for_each(|(i, (o, &b))| *o = b ^ head[i % width])
                }
            }
            head_at += width;
            tail_at += half - width;
            at += half;
        }
    }
    (tail_at == stored.len()).then_some(out)
}

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
    /// Splits and checks the raw bytes of block `b` holding `boards` boards,
    /// its symbols stored in `order`.
    pub(crate) fn decode(
        b: u64,
        raw: Vec<u8>,
        boards: usize,
        width: usize,
        book_len: usize,
        order: SymbolOrder,
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
        let symbols = match order {
            SymbolOrder::Groups => symbols,
            SymbolOrder::HeadsAndTails => from_heads_and_tails(&sizes, &symbols, width).ok_or_else(|| {
                DbError::corrupt(what(), "the heads and tails do not match the group sizes")
            })?,
        };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_and_tails_round_trip() {
        // Three groups (4, 2 and 6 records) among five boards.
        let sizes = [4u8, 0, 2, 6, 0];
        let symbols: Vec<u8> = (1..=12).collect();
        for width in [1, 2] {
            let wide: Vec<u8> = if width == 1 {
                symbols.clone()
            } else {
                symbols
                    .iter()
                    .flat_map(|&s| u16::from(s).wrapping_mul(0x0101).to_le_bytes())
                    .collect()
            };
            let mut stored = Vec::new();
            to_heads_and_tails(&sizes, &wide, width, &mut stored);
            assert_eq!(stored.len(), wide.len());
            if width == 1 {
                // Heads: 1, 3 | 5, 6 | 7, 10; tails XORed with their heads.
                assert_eq!(stored[..6], [1, 3, 5, 6, 7, 10]);
                assert_eq!(stored[6..], [2 ^ 1, 4 ^ 3, 8 ^ 7, 9 ^ 7, 11 ^ 10, 12 ^ 10]);
            }
            assert_eq!(from_heads_and_tails(&sizes, &stored, width), Some(wide.clone()));
            let block = Block::decode(
                0,
                [&sizes[..], &stored].concat(),
                5,
                width,
                1 << 16,
                SymbolOrder::HeadsAndTails,
            )
            .unwrap();
            let read: Vec<usize> = (0..12).map(|i| block.symbol_at(i)).collect();
            let expected: Vec<usize> = (0..12)
                .map(|i| if width == 1 { i + 1 } else { (i + 1) * 0x0101 })
                .collect();
            assert_eq!(read, expected);
        }
    }

    #[test]
    fn heads_and_tails_that_do_not_fit_the_sizes_are_refused() {
        assert_eq!(from_heads_and_tails(&[4, 0], &[1, 2, 3], 1), None);
        assert_eq!(from_heads_and_tails(&[4, 0], &[1, 2, 3, 4, 5], 1), None);
        assert_eq!(from_heads_and_tails(&[2, 2], &[1, 2], 1), None);
        assert!(from_heads_and_tails(&[2, 2], &[1, 2, 3, 4], 1).is_some());
    }
}
