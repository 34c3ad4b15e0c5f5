//! Value databases: for a loop-free game whose remoteness the position
//! itself gives (every game from it lasts as long: Topolo's empty cells),
//! only each index's value is stored, win, lose or tie, five to a byte
//! (log₂ 3 ≈ 1.58 bits, in 1.6). The data is cut into blocks, each under
//! an XXH3 checksum kept in the header. A reader reads a block whole the
//! first time it needs it, checks it against its checksum and keeps it in
//! a cache of bounded size ([`DEFAULT_CACHE_BYTES`]), and reads values
//! from those checked bytes only: a file changed under an open reader
//! gives an error naming it, never another answer. A probe costs well
//! under a microsecond once its block is held. The format is in
//! `db/FORMAT.md` ("Value databases").

use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Mutex, PoisonError};

use topitop_game_api::{Tiered, Value};

use crate::blocks::{checksum, open_with_header};
use crate::error::DbError;
use crate::header::{unseal, Envelope, HeaderWriter};

/// The magic number of a value database.
pub const MAGIC: [u8; 8] = *b"TOPIVALS";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// Values per byte.
pub const PER_BYTE: u64 = 5;
/// Bytes of data per checksummed block (the last may be shorter).
pub const BLOCK_BYTES: u64 = 1 << 14;
/// The largest header a reader accepts.
const MAX_HEADER: u64 = 256 << 20;

/// One tier of a value database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedTier {
    /// The tier's name, as the game names it.
    pub name: String,
    /// Its number of indices.
    pub size: u64,
    /// Canonical positions stored by value: win, lose, tie.
    pub counts: [u64; 3],
    /// The positions those stand for, every symmetric image counted.
    pub positions: u64,
}

impl PackedTier {
    /// Bytes of its values.
    pub fn bytes(&self) -> u64 {
        self.size.div_ceil(PER_BYTE)
    }

    /// Its counts fit its indices, and each class counted stands for at
    /// least one position.
    fn check(&self) -> Result<(), DbError> {
        let (name, size, counts) = (&self.name, self.size, self.counts);
        if counts
            .iter()
            .try_fold(0u64, |a, &c| a.checked_add(c))
            .is_none_or(|s| s > size)
        {
            return Err(DbError::corrupt(
                format!("tier {name}"),
                format!("counts {counts:?} exceed its {size} indices"),
            ));
        }
        if counts.iter().sum::<u64>() > self.positions {
            return Err(DbError::corrupt(
                format!("tier {name}"),
                format!(
                    "counts {counts:?} exceed the {} positions they stand for",
                    self.positions
                ),
            ));
        }
        Ok(())
    }
}

/// What a value database holds, besides the values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedHeader {
    /// The game's name.
    pub game: String,
    /// The variant's id, as the game writes it (e.g. `3x3`): a reader
    /// refuses the file for another.
    pub variant: String,
    /// The program that wrote the file.
    pub program: String,
    /// True when one position per symmetry class was solved.
    pub symmetric: bool,
    /// The largest remoteness.
    pub max_remoteness: u16,
    /// The tiers, in the order their values are stored.
    pub tiers: Vec<PackedTier>,
    /// Each data block's XXH3 checksum.
    pub blocks: Vec<u64>,
}

impl PackedHeader {
    /// Canonical positions by value: win, lose, tie, draw (always 0).
    pub fn counts(&self) -> [u64; 4] {
        let mut c = [0u64; 4];
        for t in &self.tiers {
            for (slot, n) in c.iter_mut().zip(t.counts) {
                *slot += n;
            }
        }
        c
    }

    /// Bytes of data: every tier's values.
    pub fn data_len(&self) -> u64 {
        self.tiers.iter().map(PackedTier::bytes).sum()
    }

    /// The header's bytes: magic, version, length, fields, checksum
    /// (`db/FORMAT.md`).
    pub fn encode(&self) -> Vec<u8> {
        let mut f = HeaderWriter::new();
        f.str8(&self.game).str8(&self.variant).str8(&self.program);
        f.u8(u8::from(self.symmetric)).u16(self.max_remoteness);
        f.u32(BLOCK_BYTES as u32).u32(self.tiers.len() as u32);
        for t in &self.tiers {
            f.str16(&t.name).u64(t.size);
            for c in t.counts {
                f.u64(c);
            }
            f.u64(t.positions);
        }
        f.u32(self.blocks.len() as u32);
        for &b in &self.blocks {
            f.u64(b);
        }
        f.seal(MAGIC, VERSION)
    }

    /// Decodes and checks the header at the start of `file` (which may be
    /// just a prefix holding the header).
    ///
    /// # Errors
    /// Bad magic, an unknown version, truncation, a checksum mismatch or a
    /// field out of range.
    pub fn decode(file: &[u8]) -> Result<PackedHeader, DbError> {
        let mut u = unseal(
            file,
            &Envelope {
                magic: MAGIC,
                format: "value database format",
                known: &[VERSION],
                max_body: MAX_HEADER,
            },
        )?;
        let f = &mut u.fields;
        let (game, variant, program) = (f.str8()?, f.str8()?, f.str8()?);
        let symmetric = f.u8()? != 0;
        let max_remoteness = f.u16()?;
        let block = u64::from(f.u32()?);
        if block != BLOCK_BYTES {
            return Err(DbError::corrupt(
                "header",
                format!("blocks of {block} bytes (this reader knows {BLOCK_BYTES})"),
            ));
        }
        let mut tiers = Vec::new();
        for _ in 0..f.u32()? {
            let (name, size) = (f.str16()?, f.u64()?);
            let counts = [f.u64()?, f.u64()?, f.u64()?];
            let tier = PackedTier {
                name,
                size,
                counts,
                positions: f.u64()?,
            };
            tier.check()?;
            tiers.push(tier);
        }
        let blocks = (0..f.u32()?).map(|_| f.u64()).collect::<Result<_, _>>()?;
        f.finish()?;
        let h = PackedHeader {
            game,
            variant,
            program,
            symmetric,
            max_remoteness,
            tiers,
            blocks,
        };
        let data = h
            .tiers
            .iter()
            .try_fold(0u64, |a, t| a.checked_add(t.bytes()))
            .ok_or_else(|| DbError::corrupt("header", "its tiers' sizes overflow"))?;
        if data.div_ceil(BLOCK_BYTES) != h.blocks.len() as u64 {
            return Err(DbError::corrupt(
                "header",
                format!("{} block checksums for {data} bytes of values", h.blocks.len()),
            ));
        }
        Ok(h)
    }

    /// Bytes of the encoded header, its checksum included.
    pub fn encoded_len(&self) -> u64 {
        self.encode().len() as u64
    }
}

/// The digit a value is stored as.
pub fn trit(v: Value) -> u8 {
    match v {
        Value::Win => 0,
        Value::Lose => 1,
        Value::Tie => 2,
        Value::Draw => unreachable!("a value database holds loop-free games: no draws"),
    }
}

/// The value a digit stands for.
fn value_of(trit: u8) -> Value {
    match trit {
        0 => Value::Win,
        1 => Value::Lose,
        _ => Value::Tie,
    }
}

/// Packs values (each a [`trit`]) five to a byte: value `i` is digit
/// `i % 5` (the least significant first) of byte `i / 5`.
///
/// # Examples
///
/// ```
/// use topitop_db::packed::pack;
///
/// let mut out = Vec::new();
/// // Six values: five in the first byte (base 3, least significant
/// // first), the sixth alone in the second.
/// pack([0, 1, 2, 0, 0, 2], &mut out);
/// assert_eq!(out, [1 * 3 + 2 * 9, 2]);
/// ```
pub fn pack(trits: impl IntoIterator<Item = u8>, out: &mut Vec<u8>) {
    let (mut byte, mut k, mut place) = (0u8, 0, 1u8);
    for t in trits {
        byte += t * place;
        k += 1;
        if k == PER_BYTE {
            out.push(byte);
            (byte, k, place) = (0, 0, 1);
        } else {
            place *= 3;
        }
    }
    if k > 0 {
        out.push(byte);
    }
}

/// Packs one tier's values (each a [`trit`]) onto the end of `data` and
/// gives the tier's header entry: its size, its counts by value, and
/// `positions`, the positions they stand for.
pub fn pack_tier(name: String, trits: &[u8], positions: u64, data: &mut Vec<u8>) -> PackedTier {
    let mut counts = [0u64; 3];
    for &t in trits {
        counts[usize::from(t)] += 1;
    }
    pack(trits.iter().copied(), data);
    PackedTier {
        name,
        size: trits.len() as u64,
        counts,
        positions,
    }
}

/// The digit `k` (0..5) of a packed byte, if the byte is one packing
/// makes (below 3⁵).
pub fn digit(byte: u8, k: u64) -> Option<u8> {
    (byte < 243).then(|| byte / 3u8.pow(k as u32) % 3)
}

/// Writes a value database to `path` atomically (a temporary beside it,
/// synced, renamed): `header` without its block checksums (computed here)
/// and `data`, every tier's packed values in order.
///
/// # Errors
/// `data` does not match the tiers, or an I/O error naming the file.
pub fn write_packed(path: &Path, mut header: PackedHeader, data: &[u8]) -> Result<PackedHeader, DbError> {
    if data.len() as u64 != header.data_len() {
        return Err(DbError::corrupt(
            "values",
            format!("{} bytes for tiers of {} bytes", data.len(), header.data_len()),
        ));
    }
    header.blocks = data.chunks(BLOCK_BYTES as usize).map(checksum).collect();
    crate::temps::write_atomically(path, |out| {
        out.write_all(&header.encode())?;
        out.write_all(data)
    })?;
    Ok(header)
}

/// [`write_packed`] for values made a piece at a time, never all in
/// memory: `fill` gives every tier's packed bytes, in order, to the sink
/// it is handed (pieces of any length), and the file's blocks are
/// checksummed as they pass. The header (`header`, but for its block
/// checksums) goes in place once the data is written.
///
/// # Errors
/// The file cannot be written, `fill` fails, or it gives another number
/// of bytes than the tiers' sizes take.
pub fn write_packed_streamed(
    path: &Path,
    mut header: PackedHeader,
    fill: impl FnOnce(&mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<()>,
) -> Result<PackedHeader, DbError> {
    use std::io::{Seek, SeekFrom};
    let data_len = header.data_len();
    header.blocks = vec![0; data_len.div_ceil(BLOCK_BYTES) as usize];
    let head_len = header.encode().len();
    let mut blocks = Vec::with_capacity(header.blocks.len());
    let mut written = 0u64;
    crate::temps::write_atomically(path, |out| {
        out.write_all(&vec![0u8; head_len])?;
        let mut block = Vec::with_capacity(BLOCK_BYTES as usize);
        fill(&mut |mut bytes: &[u8]| {
            written += bytes.len() as u64;
            while !bytes.is_empty() {
                let n = bytes.len().min(BLOCK_BYTES as usize - block.len());
                block.extend_from_slice(&bytes[..n]);
                bytes = &bytes[n..];
                if block.len() == BLOCK_BYTES as usize {
                    blocks.push(checksum(&block));
                    out.write_all(&block)?;
                    block.clear();
                }
            }
            Ok(())
        })?;
        if !block.is_empty() {
            blocks.push(checksum(&block));
            out.write_all(&block)?;
        }
        if written != data_len {
            return Err(std::io::Error::other(format!(
                "{written} bytes of values for tiers of {data_len} bytes"
            )));
        }
        header.blocks = std::mem::take(&mut blocks);
        let head = header.encode();
        if head.len() != head_len {
            return Err(std::io::Error::other(
                "the header changed length as its checksums were filled in",
            ));
        }
        out.flush()?;
        let file = out.get_mut();
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&head)?;
        file.seek(SeekFrom::End(0)).map(drop)
    })?;
    Ok(header)
}

/// The order in which a value database stores `game`'s tiers: the game's
/// own ([`Tiered::tiers`]), as Topolo's solve writes them. A reader
/// refuses a file whose tiers are listed otherwise ([`PackedDb::holds`]).
pub fn tier_order<G: Tiered>(game: &G) -> Vec<G::Tier> {
    game.tiers()
}

/// Bytes of checked blocks a [`PackedDb`] keeps by default: 4,096 blocks,
/// the whole of a database of up to 335 M values.
pub const DEFAULT_CACHE_BYTES: u64 = 64 << 20;

/// One slot of the cache: the block it holds and that block's bytes, as
/// read and checked.
type Slot = Mutex<Option<(u64, Box<[u8]>)>>;

/// An open value database: the header read and checked on opening, each
/// block read whole and checked against its checksum when first needed,
/// and every value read from checked bytes.
pub struct PackedDb {
    path: PathBuf,
    file: File,
    header: PackedHeader,
    /// Where the data starts in the file.
    data_start: u64,
    /// Each tier's first byte in the data.
    offsets: Vec<u64>,
    by_name: std::collections::HashMap<String, usize>,
    /// Checked blocks, direct-mapped: block `b` can only be in slot
    /// `b % slots.len()`, so the cache never holds more than its slots and
    /// finding a block costs one lock. Each slot's lock is held while its
    /// block loads, so a block is never read twice at once.
    cache: Vec<Slot>,
}

impl PackedDb {
    /// Opens the value database at `path`: a regular file only, its header
    /// read and checked, its length the header's; blocks are kept in a
    /// cache of [`DEFAULT_CACHE_BYTES`].
    ///
    /// # Errors
    /// The file cannot be read or is not a valid value database; the error
    /// names the file.
    pub fn open(path: impl AsRef<Path>) -> Result<PackedDb, DbError> {
        PackedDb::open_with_cache(path, DEFAULT_CACHE_BYTES)
    }

    /// [`PackedDb::open`], keeping at most `cache_bytes` of checked blocks
    /// (at least one block, at most the whole data).
    ///
    /// # Errors
    /// As [`PackedDb::open`].
    pub fn open_with_cache(path: impl AsRef<Path>, cache_bytes: u64) -> Result<PackedDb, DbError> {
        let path = path.as_ref();
        let (file, len, head) = open_with_header(path, MAGIC, MAX_HEADER)?;
        let header = PackedHeader::decode(&head).map_err(|e| e.in_file(path))?;
        let data_start = header.encoded_len();
        let expected = data_start + header.data_len();
        if expected != len {
            return Err(
                DbError::corrupt("file", format!("{len} bytes, but its header gives {expected}"))
                    .in_file(path),
            );
        }
        let mut offsets = Vec::with_capacity(header.tiers.len());
        let mut at = 0;
        for t in &header.tiers {
            offsets.push(at);
            at += t.bytes();
        }
        let by_name: std::collections::HashMap<String, usize> = header
            .tiers
            .iter()
            .enumerate()
            .map(|(k, t)| (t.name.clone(), k))
            .collect();
        if by_name.len() != header.tiers.len() {
            return Err(DbError::corrupt("header", "a tier name repeats").in_file(path));
        }
        let slots = (cache_bytes / BLOCK_BYTES).clamp(1, header.blocks.len().max(1) as u64);
        let cache = (0..slots).map(|_| Mutex::new(None)).collect();
        Ok(PackedDb {
            path: path.to_path_buf(),
            file,
            header,
            data_start,
            offsets,
            by_name,
            cache,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header as read and checked when the file was opened.
    pub fn header(&self) -> &PackedHeader {
        &self.header
    }

    /// Bytes of the file.
    pub fn file_len(&self) -> u64 {
        self.data_start + self.header.data_len()
    }

    /// The tier named `name`, by its place in the header.
    pub fn tier(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Bytes of data of block `b`.
    fn block_len(&self, b: u64) -> u64 {
        BLOCK_BYTES.min(self.header.data_len() - b * BLOCK_BYTES)
    }

    /// Reads blocks `blocks` from the file into one buffer and checks each
    /// against the header's checksum: the only way data enters a reader.
    fn read_blocks(&self, blocks: std::ops::Range<u64>) -> Result<Vec<u8>, DbError> {
        if blocks.is_empty() {
            return Ok(Vec::new());
        }
        let start = blocks.start * BLOCK_BYTES;
        let end = (blocks.end - 1) * BLOCK_BYTES + self.block_len(blocks.end - 1);
        let mut bytes = vec![0u8; (end - start) as usize];
        self.file
            .read_exact_at(&mut bytes, self.data_start + start)
            .map_err(|source| match source.kind() {
                // The length was checked on opening: the file has been cut
                // short since.
                std::io::ErrorKind::UnexpectedEof => DbError::corrupt(
                    "file",
                    format!(
                        "it ends before value block {}, which it held when opened: it was changed in place while open",
                        blocks.start
                    ),
                )
                .in_file(&self.path),
                _ => DbError::Io {
                    path: self.path.clone(),
                    source,
                },
            })?;
        for (b, chunk) in blocks.zip(bytes.chunks(BLOCK_BYTES as usize)) {
            let stored = self.header.blocks[b as usize];
            let computed = checksum(chunk);
            if computed != stored {
                return Err(DbError::Checksum {
                    what: format!("value block {b} (damaged, or changed in place while open)"),
                    stored,
                    computed,
                }
                .in_file(&self.path));
            }
        }
        Ok(bytes)
    }

    /// The data byte at `at`, from its block in the cache (read and
    /// checked first if it is not there).
    fn byte(&self, at: u64) -> Result<u8, DbError> {
        let b = at / BLOCK_BYTES;
        let within = (at % BLOCK_BYTES) as usize;
        let slot = &self.cache[(b % self.cache.len() as u64) as usize];
        let mut held = slot.lock().unwrap_or_else(PoisonError::into_inner);
        match held.as_ref() {
            Some((k, bytes)) if *k == b => Ok(bytes[within]),
            _ => {
                let bytes = self.read_blocks(b..b + 1)?.into_boxed_slice();
                let byte = bytes[within];
                *held = Some((b, bytes));
                Ok(byte)
            }
        }
    }

    /// The `len` data bytes from `at`, every block they touch read and
    /// checked (and not kept: a whole tier would evict every probe's
    /// block).
    fn read(&self, at: u64, len: u64) -> Result<Vec<u8>, DbError> {
        if len == 0 {
            return Ok(Vec::new());
        }
        let first = at / BLOCK_BYTES;
        let last = (at + len - 1) / BLOCK_BYTES;
        let bytes = self.read_blocks(first..last + 1)?;
        let from = (at - first * BLOCK_BYTES) as usize;
        Ok(bytes[from..from + len as usize].to_vec())
    }

    /// Checks that the database holds `game`'s variant, and what of its
    /// header the game vouches for: its tier list is `game`'s in
    /// [`tier_order`], each tier of the game's size, the game fixes every
    /// tier's remoteness, and the largest remoteness is the largest of a
    /// tier that holds a position.
    ///
    /// # Errors
    /// [`DbError::OtherGame`], naming both; or a header the game refutes,
    /// naming the file.
    pub fn holds<G: Tiered>(&self, game: &G) -> Result<(), DbError> {
        let h = &self.header;
        crate::tier_list::check_names(&self.path, game, &h.game, &h.variant)?;
        let order = tier_order(game);
        crate::tier_list::check_tiers(game, &order, h.tiers.iter().map(|t| (t.name.as_str(), t.size)))
            .map_err(|e| e.in_file(&self.path))?;
        let mut largest = 0;
        for (&tier, stored) in order.iter().zip(&h.tiers) {
            let Some(r) = game.fixed_remoteness(tier) else {
                return Err(DbError::corrupt(
                    "database",
                    format!(
                        "a value database of {}, which does not give the remoteness of tier {}",
                        game.name(),
                        stored.name
                    ),
                )
                .in_file(&self.path));
            };
            if stored.counts.iter().any(|&n| n > 0) {
                largest = largest.max(r);
            }
        }
        if h.max_remoteness != largest {
            return Err(DbError::corrupt(
                "header",
                format!(
                    "its largest remoteness is {}, but the remoteness of its tiers that hold positions is at most {largest}",
                    h.max_remoteness
                ),
            )
            .in_file(&self.path));
        }
        Ok(())
    }

    /// The value at `index` of tier number `t`.
    ///
    /// # Errors
    /// An index outside the tier, a damaged block or a byte no packing
    /// makes.
    pub fn value(&self, t: usize, index: u64) -> Result<Value, DbError> {
        let tier = &self.header.tiers[t];
        if index >= tier.size {
            return Err(DbError::NotIndexable(format!(
                "index {index} of tier {}",
                tier.name
            )));
        }
        let byte = self.byte(self.offsets[t] + index / PER_BYTE)?;
        digit(byte, index % PER_BYTE).map(value_of).ok_or_else(|| {
            DbError::corrupt(format!("tier {}", tier.name), format!("byte {byte:#04x}")).in_file(&self.path)
        })
    }

    /// The value at `index` of the tier named `name`.
    ///
    /// # Errors
    /// No such tier, or as [`PackedDb::value`].
    pub fn get(&self, name: &str, index: u64) -> Result<Value, DbError> {
        let t = self
            .tier(name)
            .ok_or_else(|| DbError::NotIndexable(format!("tier {name}")))?;
        self.value(t, index)
    }

    /// Every value of tier number `t`, in index order.
    ///
    /// # Errors
    /// A damaged block or a byte no packing makes.
    pub fn tier_values(&self, t: usize) -> Result<Vec<Value>, DbError> {
        let tier = &self.header.tiers[t];
        let bytes = self.tier_bytes(t)?;
        let mut out = Vec::with_capacity(tier.size as usize);
        for (i, &b) in bytes.iter().enumerate() {
            for k in 0..PER_BYTE {
                if out.len() as u64 == tier.size {
                    break;
                }
                let d = digit(b, k).ok_or_else(|| {
                    DbError::corrupt(format!("tier {}", tier.name), format!("byte {i}: {b:#04x}"))
                        .in_file(&self.path)
                })?;
                out.push(value_of(d));
            }
        }
        Ok(out)
    }

    /// The raw packed bytes of tier number `t`, every block they touch
    /// checked.
    ///
    /// # Errors
    /// A damaged block.
    pub fn tier_bytes(&self, t: usize) -> Result<Vec<u8>, DbError> {
        self.read(self.offsets[t], self.header.tiers[t].bytes())
    }

    /// Checks every block's checksum, calling `progress(done, total)` now
    /// and then.
    ///
    /// # Errors
    /// The first damaged block.
    pub fn verify_blocks(&self, progress: impl Fn(usize, usize) + Sync) -> Result<(), DbError> {
        let total = self.header.blocks.len();
        let done = std::sync::atomic::AtomicUsize::new(0);
        topitop_par::try_each(total, |b| {
            let b = b as u64;
            self.read_blocks(b..b + 1)?;
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if n.is_multiple_of(1024) || n == total {
                progress(n, total);
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (PackedHeader, Vec<u8>) {
        let sizes = [1u64, 7, 100_003];
        let mut data = Vec::new();
        let mut tiers = Vec::new();
        for (k, &size) in sizes.iter().enumerate() {
            let trits: Vec<u8> = (0..size).map(|i| ((i * 7 + k as u64) % 3) as u8).collect();
            tiers.push(pack_tier(format!("t{k}"), &trits, size * 2, &mut data));
        }
        let header = PackedHeader {
            game: "g".into(),
            variant: "v".into(),
            program: "test".into(),
            symmetric: true,
            max_remoteness: 9,
            tiers,
            blocks: Vec::new(),
        };
        (header, data)
    }

    #[test]
    fn values_read_back_and_damage_is_caught() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let (header, data) = sample();
        let written = write_packed(&path, header, &data).unwrap();
        let db = PackedDb::open(&path).unwrap();
        assert_eq!(db.header(), &written);
        for (k, t) in written.tiers.iter().enumerate() {
            let all = db.tier_values(k).unwrap();
            assert_eq!(all.len() as u64, t.size);
            for (i, v) in all.iter().enumerate() {
                let want = value_of(((i as u64 * 7 + k as u64) % 3) as u8);
                assert_eq!(*v, want);
                if i % 997 == 0 {
                    assert_eq!(db.get(&t.name, i as u64).unwrap(), want);
                }
            }
            assert!(matches!(db.get(&t.name, t.size), Err(DbError::NotIndexable(_))));
        }
        db.verify_blocks(|_, _| {}).unwrap();
        // A flipped byte in a block: its checksum fails, on any read.
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - 10;
        bytes[at] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let db = PackedDb::open(&path).unwrap();
        assert!(db.verify_blocks(|_, _| {}).is_err());
        let last = db.header().tiers.len() - 1;
        let e = db.tier_values(last).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
        // Truncated, or the header damaged: refused on opening.
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(PackedDb::open(&path).is_err());
        bytes[20] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let e = PackedDb::open(&path).err().unwrap().to_string();
        assert!(e.contains("checksum"), "{e}");
    }
}
