//! Finished tiers that no unsolved tier reads any more, kept packed in
//! zstd blocks until the database is written: the solve then holds whole
//! only the tiers still to be read, and the peak follows the largest tier
//! and its children rather than the whole game. A lookup in a packed tier
//! (after the solve, for the start's value or a test) unpacks one small
//! block.

use topitop_game_api::Record;

/// Records a block: small, so that one lookup unpacks little.
const BLOCK: usize = 1 << 12;

/// zstd's fastest level: these blocks live only until the database is
/// written, which compresses again at its own level.
const LEVEL: i32 = 1;

/// A tier's records in blocks of [`BLOCK`], each zstd-compressed (or kept
/// raw where zstd would not take it), laid end to end in one buffer: one
/// allocation a tier rather than one a block, which keeps the heap from
/// being cut into pieces it cannot give back.
pub(crate) struct PackedTier {
    len: usize,
    data: Vec<u8>,
    /// Per block: where it ends in `data`, and whether it is compressed.
    blocks: Vec<(usize, bool)>,
}

impl PackedTier {
    /// Packs `records`, on all cores.
    pub(crate) fn pack(records: &[Record]) -> PackedTier {
        let parts: Vec<(Vec<u8>, bool)> = topitop_par::map_ranges(records.len(), BLOCK, |range| {
            let chunk = &records[range];
            let raw: Vec<u8> = chunk.iter().flat_map(|r| r.bits().to_le_bytes()).collect();
            topitop_db::zstd_ctx::compress(&raw, LEVEL).map_or((raw, false), |z| (z, true))
        });
        let mut data = Vec::with_capacity(parts.iter().map(|(p, _)| p.len()).sum());
        let mut blocks = Vec::with_capacity(parts.len());
        for (p, z) in parts {
            data.extend_from_slice(&p);
            blocks.push((data.len(), z));
        }
        PackedTier {
            len: records.len(),
            data,
            blocks,
        }
    }

    /// The records of block `b`.
    fn block(&self, b: usize) -> std::io::Result<Vec<Record>> {
        let want = BLOCK.min(self.len - b * BLOCK);
        let start = if b == 0 { 0 } else { self.blocks[b - 1].0 };
        let (end, compressed) = self.blocks[b];
        let bytes = &self.data[start..end];
        let raw = if compressed {
            topitop_db::zstd_ctx::decompress(bytes, 2 * want)?
        } else {
            bytes.to_vec()
        };
        raw.chunks_exact(2)
            .map(|p| Record::from_bits(u16::from_le_bytes([p[0], p[1]])))
            .collect::<Option<Vec<Record>>>()
            .filter(|v| v.len() == want)
            .ok_or_else(|| std::io::Error::other("a packed tier's block does not unpack to its records"))
    }

    /// The record at `i`, if there is one.
    pub(crate) fn get(&self, i: usize) -> Option<Record> {
        if i >= self.len {
            return None;
        }
        self.block(i / BLOCK).ok().map(|b| b[i % BLOCK])
    }

    /// Every record, unpacked on all cores.
    pub(crate) fn unpack(&self) -> std::io::Result<Vec<Record>> {
        let blocks = topitop_par::try_map(self.blocks.len(), |b| self.block(b))?;
        Ok(blocks.concat())
    }

    /// Bytes it holds.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.data.len() + self.blocks.len() * std::mem::size_of::<(usize, bool)>()
    }
}

#[cfg(test)]
mod tests {
    use topitop_game_api::Value;

    use super::*;

    #[test]
    fn packed_records_come_back_whole_and_one_by_one() {
        for len in [0, 1, BLOCK - 1, BLOCK, 3 * BLOCK + 17] {
            let records: Vec<Record> = (0..len)
                .map(|i| match i % 5 {
                    0 => Record::UNSOLVED,
                    1 => Record::new(Value::Win, (i % 300) as u16),
                    2 => Record::new(Value::Lose, (i % 7) as u16),
                    3 => Record::new(Value::Tie, 1),
                    _ => Record::new(Value::Draw, 0),
                })
                .collect();
            let p = PackedTier::pack(&records);
            assert_eq!(p.unpack().unwrap(), records);
            for i in (0..len).step_by(97) {
                assert_eq!(p.get(i), Some(records[i]));
            }
            assert_eq!(p.get(len), None);
            if len > BLOCK {
                assert!(p.bytes() < 2 * len / 4, "{} bytes for {len}", p.bytes());
            }
        }
    }
}
