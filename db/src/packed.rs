//! Value databases: for a loop-free game whose remoteness the position
//! itself gives (every game from it lasts as long: Topolo's empty cells),
//! only each index's value is stored, win, lose or tie, five to a byte
//! (log₂ 3 ≈ 1.58 bits, in 1.6). The packed bytes are cut into blocks of
//! [`BLOCK_BYTES`], each compressed with zstd on its own, with a
//! dictionary the writer trained on the values ([`train`]), and kept under
//! an XXH3 checksum of its compressed bytes in the header (version 1,
//! still read, stored blocks of 16 KiB uncompressed). A reader reads a block
//! whole the first time it needs it, checks it against its checksum,
//! decompresses it and keeps it in a cache of bounded size
//! ([`DEFAULT_CACHE_BYTES`]), and reads values from those checked bytes
//! only: a file changed under an open reader gives an error naming it,
//! never another answer. The format is in `db/FORMAT.md` ("Value
//! databases").

use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;
use topitop_game_api::{Tiered, Value};

use crate::blocks::{checksum, open_with_header};
use crate::error::DbError;
use crate::header::{unseal, Envelope, HeaderWriter};

/// The magic number of a value database.
pub const MAGIC: [u8; 8] = *b"TOPIVALS";
/// The format version this code writes.
pub const VERSION: u16 = 2;
/// The versions this code reads: 1 stored its blocks uncompressed.
pub const KNOWN: [u16; 2] = [1, VERSION];
/// Values per byte.
pub const PER_BYTE: u64 = 5;
/// Packed bytes a block holds before compression (the last may hold
/// fewer): 20,480 values, which decompress in a few microseconds, the
/// price of a probe's first touch of its block (docs/benchmarks.md).
pub const BLOCK_BYTES: u64 = 1 << 11;
/// Packed bytes of a block of version 1, stored as they are.
pub const V1_BLOCK_BYTES: u64 = 1 << 14;
/// The zstd level [`write_packed`] compresses at unless told otherwise.
pub const DEFAULT_LEVEL: i32 = 3;
/// The largest header a reader accepts.
const MAX_HEADER: u64 = 256 << 20;
/// The largest zstd dictionary a writer trains and a reader accepts.
pub const MAX_DICTIONARY: usize = 64 << 10;
/// Packed bytes a writer trains its dictionary on, at most: blocks spread
/// over the values (over the first [`TRAIN_SPAN`] bytes when they come a
/// piece at a time).
const TRAIN_BYTES: usize = 8 << 20;
/// Bytes of the values a streamed writer holds back to train on.
const TRAIN_SPAN: usize = 64 << 20;

/// Packed bytes a block of `version` holds.
pub fn block_bytes(version: u16) -> u64 {
    if version == 1 {
        V1_BLOCK_BYTES
    } else {
        BLOCK_BYTES
    }
}

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

/// Where one block's bytes are in the file and what vouches for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredBlock {
    /// Its bytes in the file: compressed (version 2), or the packed bytes
    /// themselves (version 1).
    pub len: u32,
    /// XXH3-64 of those bytes.
    pub checksum: u64,
}

/// What a value database holds, besides the values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedHeader {
    /// The format version the file is in: [`VERSION`] for a file to
    /// write (1 writes the old, uncompressed blocks, for tests of old
    /// files and of `convert`).
    pub version: u16,
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
    /// The zstd dictionary every block is compressed with (version 2;
    /// empty: none). Trained by the writer on blocks of the values, it
    /// holds what they share, so that a block of 2 KiB compresses better
    /// and decompresses faster than alone (filled in by the writer).
    pub dictionary: Vec<u8>,
    /// The tiers, in the order their values are stored.
    pub tiers: Vec<PackedTier>,
    /// Each block's stored length and checksum (filled in by the writer).
    pub blocks: Vec<StoredBlock>,
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

    /// Bytes of packed values: every tier's.
    pub fn data_len(&self) -> u64 {
        self.tiers.iter().map(PackedTier::bytes).sum()
    }

    /// Bytes the blocks take in the file.
    pub fn stored_len(&self) -> u64 {
        self.blocks.iter().map(|b| u64::from(b.len)).sum()
    }

    /// Packed bytes a block holds.
    pub fn block_bytes(&self) -> u64 {
        block_bytes(self.version)
    }

    /// Number of blocks the packed values make.
    pub fn block_count(&self) -> usize {
        self.data_len().div_ceil(self.block_bytes()) as usize
    }

    /// The header's bytes: magic, version, length, fields, checksum
    /// (`db/FORMAT.md`).
    pub fn encode(&self) -> Vec<u8> {
        let mut f = HeaderWriter::new();
        f.str8(&self.game).str8(&self.variant).str8(&self.program);
        f.u8(u8::from(self.symmetric)).u16(self.max_remoteness);
        f.u32(self.block_bytes() as u32);
        if self.version != 1 {
            f.u32(self.dictionary.len() as u32).bytes(&self.dictionary);
        }
        f.u32(self.tiers.len() as u32);
        for t in &self.tiers {
            f.str16(&t.name).u64(t.size);
            for c in t.counts {
                f.u64(c);
            }
            f.u64(t.positions);
        }
        f.u32(self.blocks.len() as u32);
        for b in &self.blocks {
            if self.version != 1 {
                f.u32(b.len);
            }
            f.u64(b.checksum);
        }
        f.seal(MAGIC, self.version)
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
                known: &KNOWN,
                max_body: MAX_HEADER,
            },
        )?;
        let version = u.version;
        let f = &mut u.fields;
        let (game, variant, program) = (f.str8()?, f.str8()?, f.str8()?);
        let symmetric = f.u8()? != 0;
        let max_remoteness = f.u16()?;
        let block = u64::from(f.u32()?);
        if block != block_bytes(version) {
            return Err(DbError::corrupt(
                "header",
                format!(
                    "blocks of {block} bytes (version {version} has {})",
                    block_bytes(version)
                ),
            ));
        }
        let dictionary = if version == 1 {
            Vec::new()
        } else {
            let len = f.u32()? as usize;
            if len > MAX_DICTIONARY {
                return Err(DbError::corrupt(
                    "header",
                    format!("a dictionary of {len} bytes (at most {MAX_DICTIONARY})"),
                ));
            }
            f.take(len)?.to_vec()
        };
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
        let data = tiers
            .iter()
            .try_fold(0u64, |a, t| a.checked_add(t.bytes()))
            .ok_or_else(|| DbError::corrupt("header", "its tiers' sizes overflow"))?;
        let count = u64::from(f.u32()?);
        if data.div_ceil(block) != count {
            return Err(DbError::corrupt(
                "header",
                format!("{count} blocks for {data} bytes of values"),
            ));
        }
        let mut blocks = Vec::with_capacity(count as usize);
        for b in 0..count {
            let raw = block.min(data - b * block);
            let len = if version == 1 { raw as u32 } else { f.u32()? };
            // zstd never needs more than this for a frame of `raw` bytes;
            // a length past it is damage, refused before any read.
            if len == 0 || u64::from(len) > raw + raw / 128 + 64 {
                return Err(DbError::corrupt(
                    "header",
                    format!("block {b} of {len} bytes, for {raw} bytes of values"),
                ));
            }
            blocks.push(StoredBlock {
                len,
                checksum: f.u64()?,
            });
        }
        f.finish()?;
        Ok(PackedHeader {
            version,
            game,
            variant,
            program,
            symmetric,
            max_remoteness,
            dictionary,
            tiers,
            blocks,
        })
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

/// The blocks `raw` makes (whole blocks of `version`, the last perhaps
/// short), each as stored, compressed at `level` on all cores for
/// version 2, with its entry.
fn seal_blocks(
    raw: &[u8],
    version: u16,
    level: i32,
    dictionary: Option<&zstd::dict::EncoderDictionary<'static>>,
) -> std::io::Result<Vec<(StoredBlock, Vec<u8>)>> {
    raw.par_chunks(block_bytes(version) as usize)
        .map_init(
            || dictionary.map(zstd::bulk::Compressor::with_prepared_dictionary),
            |with_dictionary, chunk| {
                let stored = match (version, with_dictionary) {
                    (1, _) => chunk.to_vec(),
                    (_, Some(Ok(c))) => c.compress(chunk)?,
                    (_, Some(Err(e))) => return Err(std::io::Error::new(e.kind(), e.to_string())),
                    (_, None) => crate::zstd_ctx::compress(chunk, level)?,
                };
                let entry = StoredBlock {
                    len: stored.len() as u32,
                    checksum: checksum(&stored),
                };
                Ok((entry, stored))
            },
        )
        .collect()
}

/// A zstd dictionary trained on `samples`, blocks of packed values one
/// after another; none when there are too few to train on (zstd
/// refuses), which a small database does without.
pub fn train(samples: &[u8]) -> Option<Vec<u8>> {
    let block = BLOCK_BYTES as usize;
    let sizes: Vec<usize> = samples.chunks(block).map(<[u8]>::len).collect();
    if sizes.len() < 64 {
        return None;
    }
    zstd::dict::from_continuous(samples, &sizes, MAX_DICTIONARY).ok()
}

/// Where the samples a dictionary is trained on start in `len` packed
/// bytes: up to [`TRAIN_BYTES`] of whole blocks, spread evenly over them.
fn sample_starts(len: u64) -> impl Iterator<Item = u64> {
    let pieces = len / BLOCK_BYTES;
    let take = (TRAIN_BYTES as u64 / BLOCK_BYTES).min(pieces).max(1);
    let step = (pieces / take).max(1);
    (0..pieces)
        .step_by(step as usize)
        .take(take as usize)
        .map(|p| p * BLOCK_BYTES)
}

/// The samples of `data` ([`sample_starts`]), one after another.
fn samples_of(data: &[u8]) -> Vec<u8> {
    let block = BLOCK_BYTES as usize;
    sample_starts(data.len() as u64)
        .flat_map(|at| &data[at as usize..at as usize + block])
        .copied()
        .collect()
}

/// Writes a value database to `path` atomically (a temporary beside it,
/// synced, renamed): `header` without its blocks (made here, compressed
/// at [`DEFAULT_LEVEL`]) and `data`, every tier's packed values in order.
///
/// # Errors
/// `data` does not match the tiers, or an I/O error naming the file.
pub fn write_packed(path: &Path, header: PackedHeader, data: &[u8]) -> Result<PackedHeader, DbError> {
    write_packed_with(path, header, data, DEFAULT_LEVEL)
}

/// [`write_packed`] at zstd level `level`.
///
/// # Errors
/// As [`write_packed`].
pub fn write_packed_with(
    path: &Path,
    header: PackedHeader,
    data: &[u8],
    level: i32,
) -> Result<PackedHeader, DbError> {
    if data.len() as u64 != header.data_len() {
        return Err(DbError::corrupt(
            "values",
            format!("{} bytes for tiers of {} bytes", data.len(), header.data_len()),
        ));
    }
    let dictionary = if header.version == 1 {
        None
    } else {
        train(&samples_of(data))
    };
    write_packed_trained(path, header, level, dictionary, |sink| sink(data))
}

/// [`write_packed`] for values made a piece at a time, never all in
/// memory: `fill` gives every tier's packed bytes, in order, to the sink
/// it is handed (pieces of any length), and the file's blocks are
/// compressed (at `level`) and checksummed as they pass, a megabyte at a
/// time on all cores. The dictionary is trained on the first 64 MiB of
/// values, held back until then. The header (`header`, but for its
/// blocks) goes in place once the data is written.
///
/// # Errors
/// The file cannot be written, `fill` fails, or it gives another number
/// of bytes than the tiers' sizes take.
pub fn write_packed_streamed(
    path: &Path,
    header: PackedHeader,
    level: i32,
    fill: impl FnOnce(&mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<()>,
) -> Result<PackedHeader, DbError> {
    let choice = if header.version == 1 {
        Dictionary::Given(None)
    } else {
        Dictionary::FromFirst
    };
    write_blocks(path, header, level, choice, fill)
}

/// [`write_packed_streamed`] with the dictionary `dictionary` (none: the
/// blocks compressed alone), for a writer that could sample the values
/// all over (`convert`, from the old file).
///
/// # Errors
/// As [`write_packed_streamed`].
pub fn write_packed_trained(
    path: &Path,
    header: PackedHeader,
    level: i32,
    dictionary: Option<Vec<u8>>,
    fill: impl FnOnce(&mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<()>,
) -> Result<PackedHeader, DbError> {
    write_blocks(path, header, level, Dictionary::Given(dictionary), fill)
}

/// Where a writer's dictionary comes from.
enum Dictionary {
    /// The caller's, or none.
    Given(Option<Vec<u8>>),
    /// Trained on the first [`TRAIN_SPAN`] bytes of values, held back.
    FromFirst,
}

/// What [`write_blocks`] does with the bytes it is given: holds them back
/// until the dictionary is known, then compresses them a batch at a time.
struct Blocks<'h> {
    header: &'h mut PackedHeader,
    level: i32,
    choice: Option<Dictionary>,
    prepared: Option<zstd::dict::EncoderDictionary<'static>>,
    held: Vec<u8>,
    head_len: usize,
    entries: Vec<StoredBlock>,
}

impl Blocks<'_> {
    /// Whole blocks gathered before they are compressed side by side.
    fn batch(&self) -> usize {
        self.header.block_bytes() as usize * 256
    }

    /// Takes `bytes`, writing what is ready to `out`.
    fn take(&mut self, mut bytes: &[u8], out: &mut std::io::BufWriter<File>) -> std::io::Result<()> {
        while !bytes.is_empty() {
            let room = match self.choice {
                Some(Dictionary::FromFirst) => TRAIN_SPAN - self.held.len(),
                _ => self.batch() - self.held.len(),
            };
            let n = bytes.len().min(room);
            self.held.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
            if n == room {
                self.ready(out)?;
                let whole = self.held.len() - self.held.len() % self.header.block_bytes() as usize;
                self.seal(whole, out)?;
            }
        }
        Ok(())
    }

    /// Settles the dictionary (once) and writes the header's placeholder.
    fn ready(&mut self, out: &mut std::io::BufWriter<File>) -> std::io::Result<()> {
        let Some(choice) = self.choice.take() else {
            return Ok(());
        };
        let dictionary = match choice {
            Dictionary::Given(d) => d,
            Dictionary::FromFirst => train(&samples_of(&self.held)),
        };
        if let Some(d) = &dictionary {
            self.prepared = Some(zstd::dict::EncoderDictionary::copy(d, self.level));
        }
        self.header.dictionary = dictionary.unwrap_or_default();
        self.head_len = self.header.encode().len();
        out.write_all(&vec![0u8; self.head_len])
    }

    /// Compresses and writes the first `len` held bytes.
    fn seal(&mut self, len: usize, out: &mut std::io::BufWriter<File>) -> std::io::Result<()> {
        for chunk in self.held[..len].chunks(self.batch()) {
            for (entry, stored) in
                seal_blocks(chunk, self.header.version, self.level, self.prepared.as_ref())?
            {
                self.entries.push(entry);
                out.write_all(&stored)?;
            }
        }
        self.held.drain(..len);
        Ok(())
    }
}

/// Writes the file of `header` from the bytes `fill` gives, with the
/// dictionary `choice` says.
fn write_blocks(
    path: &Path,
    mut header: PackedHeader,
    level: i32,
    choice: Dictionary,
    fill: impl FnOnce(&mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<()>,
) -> Result<PackedHeader, DbError> {
    use std::io::{Seek, SeekFrom};
    let data_len = header.data_len();
    let placeholder = StoredBlock { len: 0, checksum: 0 };
    header.blocks = vec![placeholder; header.block_count()];
    let mut written = 0u64;
    crate::temps::write_atomically(path, |out| {
        let mut blocks = Blocks {
            header: &mut header,
            level,
            choice: Some(choice),
            prepared: None,
            held: Vec::new(),
            head_len: 0,
            entries: Vec::new(),
        };
        fill(&mut |bytes: &[u8]| {
            written += bytes.len() as u64;
            blocks.take(bytes, out)
        })?;
        blocks.ready(out)?;
        blocks.seal(blocks.held.len(), out)?;
        if written != data_len {
            return Err(std::io::Error::other(format!(
                "{written} bytes of values for tiers of {data_len} bytes"
            )));
        }
        let (entries, head_len) = (std::mem::take(&mut blocks.entries), blocks.head_len);
        header.blocks = entries;
        let head = header.encode();
        if head.len() != head_len {
            return Err(std::io::Error::other(
                "the header changed length as its blocks were filled in",
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

/// Bytes of checked blocks a [`PackedDb`] keeps by default: 32,768
/// blocks of version 2 (4,096 of version 1), the whole of a database of
/// up to 335 M values.
pub const DEFAULT_CACHE_BYTES: u64 = 64 << 20;

/// The blocks [`PackedDb::open`] lets a reader keep, when set (0: as
/// many as [`DEFAULT_CACHE_BYTES`] holds).
static CACHE_BLOCKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Sets the blocks every [`PackedDb::open`] from now on keeps decoded,
/// whatever their size (a command that probes many positions holds each
/// block it touched). Memory: the blocks touched, at most `blocks`.
pub fn set_cache_blocks(blocks: u64) {
    CACHE_BLOCKS.store(blocks, Ordering::Relaxed);
}

/// Blocks one set of the cache holds: a block can only be in the set of
/// its number modulo the sets, and the set keeps the blocks it held
/// last. Four ways keep nearly every block of a working set the cache
/// has room for (a direct-mapped cache loses a fifth of them to
/// collisions at a quarter full).
const WAYS: usize = 4;

/// One set of the cache: up to [`WAYS`] blocks with their packed bytes,
/// as read, checked and decompressed, the one used last at the end.
type Set = Mutex<Vec<(u64, Box<[u8]>)>>;

/// An open value database: the header read and checked on opening, each
/// block read whole, checked against its checksum and decompressed when
/// first needed, and every value read from checked bytes.
pub struct PackedDb {
    path: PathBuf,
    file: File,
    header: PackedHeader,
    /// Where each block starts in the file, and past the last, where the
    /// file ends.
    starts: Vec<u64>,
    /// Each tier's first byte in the packed values.
    offsets: Vec<u64>,
    /// Bytes of packed values (the header's sum over its tiers, kept: a
    /// probe needs it, and a large game has thousands of tiers).
    data_len: u64,
    /// The header's dictionary, prepared for decompressing.
    dictionary: Option<zstd::dict::DecoderDictionary<'static>>,
    by_name: std::collections::HashMap<String, usize>,
    /// Checked blocks, [`WAYS`]-way set-associative: block `b` can only
    /// be in set `b % cache.len()`, so the cache never holds more than its
    /// sets' ways and finding a block costs one lock. Each set's lock is
    /// held while its block loads, so a block is never read twice at once.
    cache: Vec<Set>,
}

impl PackedDb {
    /// Opens the value database at `path`: a regular file only, its header
    /// read and checked, its length the header's; blocks are kept in a
    /// cache of [`DEFAULT_CACHE_BYTES`], or of the blocks
    /// [`set_cache_blocks`] said.
    ///
    /// # Errors
    /// The file cannot be read or is not a valid value database; the error
    /// names the file.
    pub fn open(path: impl AsRef<Path>) -> Result<PackedDb, DbError> {
        PackedDb::open_keeping(path, |block| match CACHE_BLOCKS.load(Ordering::Relaxed) {
            0 => DEFAULT_CACHE_BYTES / block,
            n => n,
        })
    }

    /// [`PackedDb::open`], keeping at most `cache_bytes` of checked blocks
    /// (at least one block, at most the whole data).
    ///
    /// # Errors
    /// As [`PackedDb::open`].
    pub fn open_with_cache(path: impl AsRef<Path>, cache_bytes: u64) -> Result<PackedDb, DbError> {
        PackedDb::open_keeping(path, |block| cache_bytes / block)
    }

    /// Opens the file at `path`, keeping as many blocks as `keep` gives
    /// for blocks of the packed bytes it is handed.
    fn open_keeping(path: impl AsRef<Path>, keep: impl FnOnce(u64) -> u64) -> Result<PackedDb, DbError> {
        let path = path.as_ref();
        let (file, len, head) = open_with_header(path, MAGIC, MAX_HEADER)?;
        let header = PackedHeader::decode(&head).map_err(|e| e.in_file(path))?;
        let mut starts = Vec::with_capacity(header.blocks.len() + 1);
        let mut at = header.encoded_len();
        for b in &header.blocks {
            starts.push(at);
            at += u64::from(b.len);
        }
        starts.push(at);
        if at != len {
            return Err(
                DbError::corrupt("file", format!("{len} bytes, but its header gives {at}")).in_file(path),
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
        let blocks = keep(header.block_bytes()).clamp(1, header.blocks.len().max(1) as u64);
        let dictionary =
            (!header.dictionary.is_empty()).then(|| zstd::dict::DecoderDictionary::copy(&header.dictionary));
        let cache = (0..blocks.div_ceil(WAYS as u64))
            .map(|_| Mutex::new(Vec::new()))
            .collect();
        Ok(PackedDb {
            path: path.to_path_buf(),
            file,
            header,
            starts,
            offsets,
            data_len: at,
            dictionary,
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

    /// The file's format and version.
    pub fn format(&self) -> crate::reader::FormatVersion {
        crate::reader::FormatVersion {
            name: "value database",
            version: self.header.version,
            current: VERSION,
        }
    }

    /// Bytes of the file.
    pub fn file_len(&self) -> u64 {
        *self.starts.last().expect("one start past the last block")
    }

    /// The tier named `name`, by its place in the header.
    pub fn tier(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Packed bytes of block `b`.
    fn block_len(&self, b: u64) -> u64 {
        let k = self.header.block_bytes();
        k.min(self.data_len - b * k)
    }

    /// Reads blocks `blocks` from the file, checks each against the
    /// header's checksum and decompresses it to its packed bytes, all in
    /// one buffer: with [`PackedDb::fill_block`], the only way data enters
    /// a reader.
    fn read_blocks(&self, blocks: std::ops::Range<u64>) -> Result<Vec<u8>, DbError> {
        let stored = self.read_stored(blocks.clone())?;
        if self.header.version == 1 {
            self.check_stored(blocks, &stored)?;
            return Ok(stored);
        }
        let mut out = vec![0u8; blocks.clone().map(|b| self.block_len(b) as usize).sum()];
        let (mut at, mut to) = (0, 0);
        for b in blocks {
            let len = self.header.blocks[b as usize].len as usize;
            let chunk = &stored[at..at + len];
            at += len;
            self.check_stored(b..b + 1, chunk)?;
            let want = self.block_len(b) as usize;
            self.decompress(b, chunk, &mut out[to..to + want])?;
            to += want;
        }
        Ok(out)
    }

    /// The stored bytes of blocks `blocks`, as the file holds them now.
    fn read_stored(&self, blocks: std::ops::Range<u64>) -> Result<Vec<u8>, DbError> {
        if blocks.is_empty() {
            return Ok(Vec::new());
        }
        let (first, end) = (
            self.starts[blocks.start as usize],
            self.starts[blocks.end as usize],
        );
        let mut stored = vec![0u8; (end - first) as usize];
        self.file
            .read_exact_at(&mut stored, first)
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
        Ok(stored)
    }

    /// Checks the stored bytes of `blocks`, one after another in `stored`,
    /// against their checksums.
    fn check_stored(&self, blocks: std::ops::Range<u64>, stored: &[u8]) -> Result<(), DbError> {
        let mut at = 0;
        for b in blocks {
            let entry = self.header.blocks[b as usize];
            let chunk = &stored[at..at + entry.len as usize];
            at += entry.len as usize;
            let computed = checksum(chunk);
            if computed != entry.checksum {
                return Err(DbError::Checksum {
                    what: format!("value block {b} (damaged, or changed in place while open)"),
                    stored: entry.checksum,
                    computed,
                }
                .in_file(&self.path));
            }
        }
        Ok(())
    }

    /// The packed byte at `at`, from its block in the cache (read and
    /// checked first if it is not there).
    fn byte(&self, at: u64) -> Result<u8, DbError> {
        let k = self.header.block_bytes();
        let b = at / k;
        let within = (at % k) as usize;
        let set = &self.cache[(b % self.cache.len() as u64) as usize];
        let mut held = set.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(k) = held.iter().position(|(n, _)| *n == b) {
            let hit = held.remove(k);
            let byte = hit.1[within];
            held.push(hit);
            return Ok(byte);
        }
        // The block used longest ago makes room, and lends its memory.
        let len = self.block_len(b) as usize;
        let mut bytes = match held.len() {
            WAYS => held.remove(0).1,
            _ => Box::default(),
        };
        if bytes.len() != len {
            bytes = vec![0u8; len].into_boxed_slice();
        }
        self.fill_block(b, &mut bytes)?;
        let byte = bytes[within];
        held.push((b, bytes));
        Ok(byte)
    }

    /// Reads block `b`, checks it and decompresses it into `out`, which
    /// holds exactly its packed bytes.
    fn fill_block(&self, b: u64, out: &mut [u8]) -> Result<(), DbError> {
        if self.header.version == 1 {
            out.copy_from_slice(&self.read_blocks(b..b + 1)?);
            return Ok(());
        }
        let stored = self.read_stored(b..b + 1)?;
        self.check_stored(b..b + 1, &stored)?;
        self.decompress(b, &stored, out)
    }

    /// Decompresses block `b`'s checked bytes `stored` into `out`, which
    /// must be exactly its packed bytes long.
    fn decompress(&self, b: u64, stored: &[u8], out: &mut [u8]) -> Result<(), DbError> {
        let want = out.len();
        // A frame holding more than the block overflows `out` and fails.
        let got = match &self.dictionary {
            Some(d) => crate::zstd_ctx::decompress_with(stored, out, d),
            None => crate::zstd_ctx::decompress_into(stored, out),
        }
        .map_err(|e| {
            DbError::corrupt(format!("value block {b}"), format!("it does not decompress: {e}"))
                .in_file(&self.path)
        })?;
        if got != want {
            return Err(DbError::corrupt(
                format!("value block {b}"),
                format!("it decompresses to {got} bytes, not {want}"),
            )
            .in_file(&self.path));
        }
        Ok(())
    }

    /// Up to 8 MiB of the packed values in pieces of a block of today's
    /// version, spread evenly over the file: what a dictionary is trained
    /// on ([`train`]).
    ///
    /// # Errors
    /// A damaged block.
    pub fn samples(&self) -> Result<Vec<u8>, DbError> {
        let mut out = Vec::new();
        for at in sample_starts(self.data_len) {
            out.extend(self.read(at, BLOCK_BYTES)?);
        }
        Ok(out)
    }

    /// The `len` packed bytes from `at`, every block they touch read and
    /// checked (and not kept: a whole tier would evict every probe's
    /// block).
    fn read(&self, at: u64, len: u64) -> Result<Vec<u8>, DbError> {
        if len == 0 {
            return Ok(Vec::new());
        }
        let k = self.header.block_bytes();
        let first = at / k;
        let last = (at + len - 1) / k;
        let bytes = self.read_blocks(first..last + 1)?;
        let from = (at - first * k) as usize;
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

    /// Checks every block's checksum (and that it decompresses to its
    /// length), calling `progress(done, total)` now
    /// and then.
    ///
    /// # Errors
    /// The first damaged block.
    pub fn verify_blocks(&self, progress: impl Fn(usize, usize) + Sync) -> Result<(), DbError> {
        // Reading a block checks its checksum and, from version 2 on, that
        // it decompresses to exactly its packed bytes.
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
            version: VERSION,
            game: "g".into(),
            variant: "v".into(),
            program: "test".into(),
            symmetric: true,
            max_remoteness: 9,
            dictionary: Vec::new(),
            tiers,
            blocks: Vec::new(),
        };
        (header, data)
    }

    #[test]
    fn values_read_back_and_damage_is_caught() {
        // Today's version, and the old one, still read.
        for version in KNOWN {
            values_read_back_and_damage_is_caught_in(version);
        }
    }

    fn values_read_back_and_damage_is_caught_in(version: u16) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let (mut header, data) = sample();
        header.version = version;
        let written = write_packed(&path, header, &data).unwrap();
        assert_eq!(written.version, version);
        if version != 1 {
            assert!(
                written.stored_len() < data.len() as u64 / 3,
                "{}",
                written.stored_len()
            );
        }
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
