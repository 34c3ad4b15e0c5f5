//! Databases of any tiered game behind the game interface: one file per
//! game and variant holding every tier's records in zstd blocks, with the
//! header and every block under an XXH3 checksum (`db/FORMAT.md`, "Tiered
//! game databases"). Tiers are named by the game ([`Tiered::tier_name`]);
//! a record is found by its tier's name and its index inside the tier.
//!
//! [`Tiered::tier_name`]: topitop_game_api::Tiered::tier_name

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use topitop_game_api::{Record, Value};

use crate::blocks::{checksum, open_with_header, BlockEntry};
use crate::error::DbError;
use crate::header::{unseal, Envelope, HeaderWriter};

/// The zstd level `solve` writes records at unless told otherwise.
pub const DEFAULT_LEVEL: i32 = 9;

/// The magic number of a tiered game database.
pub const MAGIC: [u8; 8] = *b"TOPIGAME";
/// The format version this code writes: each tier's records as symbols
/// of a codebook of its own.
pub const VERSION: u16 = 2;
/// The versions this code reads: 1 stored every record in 16 bits.
pub const KNOWN: [u16; 2] = [1, VERSION];
/// Records per block (the last block of a tier may hold fewer).
pub const BLOCK_RECORDS: u64 = 1 << 16;
/// The largest header a reader accepts.
pub(crate) const MAX_HEADER: u64 = 64 << 20;

/// What a tiered database holds, besides the records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TieredHeader {
    /// The format version the file is in.
    pub version: u16,
    /// The game's name, e.g. `topolo`.
    pub game: String,
    /// The variant, e.g. `3x4` or `3x4_size-only`.
    pub variant: String,
    /// The program that wrote the file, e.g. `topitop 0.1.0 (commit)`.
    pub program: String,
    /// True when one position per symmetry class was solved.
    pub symmetric: bool,
    /// Positions by value: win, lose, tie, draw.
    pub counts: [u64; 4],
    /// The largest remoteness of a win, lose or tie.
    pub max_remoteness: u16,
    /// The tiers in the order they are stored.
    pub tiers: Vec<TierEntry>,
}

/// One tier's place in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierEntry {
    /// The tier's name, as the game names it.
    pub name: String,
    /// Its number of indices.
    pub size: u64,
    /// Its codebook: the records its symbols stand for, symbol 0 first
    /// (version 2; empty in version 1, whose blocks hold the records).
    pub codebook: Vec<u16>,
    /// Its blocks, [`BLOCK_RECORDS`] records each (the last may hold fewer).
    pub blocks: Vec<BlockEntry>,
}

impl TierEntry {
    /// Bytes a record takes in a decompressed block: 2 in version 1; from
    /// version 2, 1 when the codebook has at most 256 records, else 2.
    pub fn width(&self) -> u64 {
        symbol_width(&self.codebook)
    }
}

/// Bytes a symbol of `codebook` takes: 2 without one (version 1) or past
/// 256 records, else 1.
fn symbol_width(codebook: &[u16]) -> u64 {
    if codebook.is_empty() || codebook.len() > 256 {
        2
    } else {
        1
    }
}

impl TieredHeader {
    /// The header's bytes: magic, version, length, fields, checksum
    /// (`db/FORMAT.md`).
    pub fn encode(&self) -> Vec<u8> {
        let mut f = HeaderWriter::new();
        f.str8(&self.game).str8(&self.variant).str8(&self.program);
        f.u8(u8::from(self.symmetric));
        for c in self.counts {
            f.u64(c);
        }
        f.u16(self.max_remoteness).u32(self.tiers.len() as u32);
        for t in &self.tiers {
            f.str16(&t.name).u64(t.size);
            if self.version >= 2 {
                f.u16(t.codebook.len() as u16);
                for &r in &t.codebook {
                    f.u16(r);
                }
            }
            f.u32(t.blocks.len() as u32);
            for e in &t.blocks {
                f.entry(e);
            }
        }
        f.seal(MAGIC, self.version)
    }

    /// Bytes of the encoded header, its checksum included.
    pub fn encoded_len(&self) -> usize {
        self.encode().len()
    }

    /// Decodes and checks the header at the start of `file` (which may be
    /// just a prefix holding the header).
    ///
    /// # Errors
    /// Bad magic, an unknown version, truncation, a checksum mismatch or a
    /// field out of range.
    pub fn decode(file: &[u8]) -> Result<TieredHeader, DbError> {
        let mut u = unseal(
            file,
            &Envelope {
                magic: MAGIC,
                format: "tiered game database format",
                known: &KNOWN,
                max_body: MAX_HEADER,
            },
        )?;
        let version = u.version;
        let f = &mut u.fields;
        let (game, variant, program) = (f.str8()?, f.str8()?, f.str8()?);
        let symmetric = f.u8()? != 0;
        let counts = [f.u64()?, f.u64()?, f.u64()?, f.u64()?];
        let max_remoteness = f.u16()?;
        let mut tiers = Vec::new();
        for _ in 0..f.u32()? {
            let (name, size) = (f.str16()?, f.u64()?);
            let codebook = if version >= 2 {
                (0..f.u16()?).map(|_| f.u16()).collect::<Result<_, _>>()?
            } else {
                Vec::new()
            };
            let blocks = (0..f.u32()?).map(|_| f.entry()).collect::<Result<_, _>>()?;
            tiers.push(TierEntry {
                name,
                size,
                codebook,
                blocks,
            });
        }
        f.finish()?;
        let header = TieredHeader {
            version,
            game,
            variant,
            program,
            symmetric,
            counts,
            max_remoteness,
            tiers,
        };
        header.check(u.end)?;
        Ok(header)
    }

    /// The file's length as this header gives it: the end of its last
    /// block, or of the header when there is none.
    pub fn file_len(&self) -> u64 {
        self.tiers
            .iter()
            .flat_map(|t| t.blocks.last())
            .map(|e| e.offset + u64::from(e.compressed))
            .max()
            .unwrap_or(self.encoded_len() as u64)
    }

    /// The invariants that tie the fields together: blocks follow each
    /// other from the end of the header on, each tier has the blocks its
    /// size needs, each block decompresses to its records' bytes, and the
    /// counts do not exceed the indices.
    fn check(&self, header_end: u64) -> Result<(), DbError> {
        let bad = |what: &str, detail: String| Err(DbError::corrupt(what, detail));
        let mut next = header_end;
        let mut indices = 0u64;
        let mut names = std::collections::HashSet::new();
        for t in &self.tiers {
            if !names.insert(&t.name) {
                return bad("header", format!("tier {} is listed twice", t.name));
            }
            indices = indices.saturating_add(t.size);
            if t.blocks.len() as u64 != t.size.div_ceil(BLOCK_RECORDS) {
                return bad(
                    "header",
                    format!(
                        "tier {} of {} indices has {} blocks",
                        t.name,
                        t.size,
                        t.blocks.len()
                    ),
                );
            }
            if self.version >= 2 {
                check_codebook(t)?;
            }
            for (k, e) in t.blocks.iter().enumerate() {
                let records = (t.size - k as u64 * BLOCK_RECORDS).min(BLOCK_RECORDS);
                if e.offset != next || e.compressed == 0 || u64::from(e.raw) != t.width() * records {
                    return bad(
                        "block table",
                        format!("tier {} block {k} is out of place or of the wrong size", t.name),
                    );
                }
                next = e.offset + u64::from(e.compressed);
            }
        }
        if self.max_remoteness > topitop_game_api::MAX_REMOTENESS {
            return bad(
                "header",
                format!(
                    "a largest remoteness of {}, more than a record holds",
                    self.max_remoteness
                ),
            );
        }
        if self.counts[..3].iter().all(|&n| n == 0) && self.max_remoteness != 0 {
            return bad(
                "header",
                format!(
                    "a largest remoteness of {} with no win, loss or tie",
                    self.max_remoteness
                ),
            );
        }
        let counted = self.counts.iter().fold(0u64, |a, &n| a.saturating_add(n));
        if counted > indices {
            return bad(
                "header",
                format!("{counted} positions counted in {indices} indices"),
            );
        }
        Ok(())
    }
}

/// A tier's codebook holds records only, each once, and some when the
/// tier has indices.
fn check_codebook(t: &TierEntry) -> Result<(), DbError> {
    let mut seen = std::collections::HashSet::new();
    for &r in &t.codebook {
        if Record::from_bits(r).is_none() || !seen.insert(r) {
            return Err(DbError::corrupt(
                "header",
                format!("tier {}'s codebook holds {r:#06x} twice or as no record", t.name),
            ));
        }
    }
    if t.codebook.is_empty() != (t.size == 0) {
        return Err(DbError::corrupt(
            "header",
            format!(
                "tier {} of {} indices has {} records in its codebook",
                t.name,
                t.size,
                t.codebook.len()
            ),
        ));
    }
    Ok(())
}

/// The codebook of `records`: each distinct record once, the most common
/// first (ties by record), so that the symbols zstd sees are small where
/// they are frequent.
fn codebook_of(records: &[Record]) -> Vec<u16> {
    let mut counts = vec![0u64; 1 << 16];
    for r in records {
        counts[usize::from(r.bits())] += 1;
    }
    let mut book: Vec<u16> = (0..=u16::MAX).filter(|&r| counts[usize::from(r)] > 0).collect();
    book.sort_by_key(|&r| (std::cmp::Reverse(counts[usize::from(r)]), r));
    book
}

/// The order in which a tiered database stores `game`'s tiers: ascending
/// (by [`topitop_game_api::Tiered::Tier`]'s order), as the framework's
/// solver hands them to [`write_tiered`]. A reader refuses a file whose
/// tiers are listed otherwise ([`TieredDb::holds`]).
pub fn tier_order<G: topitop_game_api::Tiered>(game: &G) -> Vec<G::Tier> {
    let mut tiers = game.tiers();
    tiers.sort_unstable();
    tiers
}

/// What [`write_tiered`] needs besides the records.
pub struct TieredMeta<'a> {
    /// The game's name.
    pub game: &'a str,
    /// The variant's id, as the game writes it.
    pub variant: &'a str,
    /// The program writing the file.
    pub program: &'a str,
    /// True when one position per symmetry class was solved.
    pub symmetric: bool,
    /// zstd level.
    pub level: i32,
}

/// Writes the tiers `(name, records)` to `path` atomically (a temporary
/// beside it, synced, renamed); returns the header written and the file's
/// length.
///
/// # Examples
///
/// Two tiers written, read back by tier name and index, and the header
/// naming what they hold.
///
/// ```
/// use topitop_db::tiered::{write_tiered, TieredDb, TieredMeta};
/// use topitop_game_api::{Record, Value};
///
/// let dir = std::env::temp_dir().join(format!("tiered-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("heap_7.db");
/// let meta = TieredMeta { game: "heap", variant: "7", program: "example", symmetric: false, level: 3 };
/// let over = [Record::new(Value::Lose, 0)];
/// let one = [Record::new(Value::Win, 1)];
/// write_tiered(&path, &meta, &[("stones0".into(), &over[..]), ("stones1".into(), &one[..])])?;
///
/// let db = TieredDb::open(&path)?;
/// assert_eq!(db.get("stones1", 0)?, Record::new(Value::Win, 1));
/// assert_eq!((db.header().game.as_str(), db.header().counts), ("heap", [1, 1, 0, 0]));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// I/O errors, naming the file.
pub fn write_tiered(
    path: &Path,
    meta: &TieredMeta<'_>,
    tiers: &[(String, &[Record])],
) -> Result<(TieredHeader, u64), DbError> {
    write_tiered_in(path, meta, tiers, VERSION)
}

/// [`write_tiered`] in format `version`: 1 writes the old 16-bit blocks,
/// for tests of old files and of `convert`.
///
/// # Errors
/// As [`write_tiered`].
pub fn write_tiered_in(
    path: &Path,
    meta: &TieredMeta<'_>,
    tiers: &[(String, &[Record])],
    version: u16,
) -> Result<(TieredHeader, u64), DbError> {
    let names: Vec<String> = tiers.iter().map(|(n, _)| n.clone()).collect();
    let body = topitop_files::temps::Temp::beside(path);
    let written = write_with_body(path, body.path(), meta, &names, version, |i| {
        Ok(Cow::Borrowed(tiers[i].1))
    });
    let _ = std::fs::remove_file(body.path());
    written
}

/// [`write_tiered`] with each tier's records asked of `load` (by position
/// in `names`) one tier at a time and dropped once its blocks are
/// compressed, so a solver that keeps finished tiers elsewhere never holds
/// every tier's records at once. The compressed blocks go to a temporary
/// file beside `path` as they are made (the header, which comes first,
/// needs every block's length), so no more than one tier is held at a
/// time. The bytes written are the same.
///
/// # Errors
/// I/O errors, naming the file, or what `load` gives.
pub fn write_tiered_from<'r>(
    path: &Path,
    meta: &TieredMeta<'_>,
    names: &[String],
    load: impl FnMut(usize) -> Result<Cow<'r, [Record]>, DbError>,
) -> Result<(TieredHeader, u64), DbError> {
    let body = topitop_files::temps::Temp::beside(path);
    let written = write_with_body(path, body.path(), meta, names, VERSION, load);
    let _ = std::fs::remove_file(body.path());
    written
}

/// [`write_tiered_from`], its blocks gathered in the file `body` first.
fn write_with_body<'r>(
    path: &Path,
    body: &Path,
    meta: &TieredMeta<'_>,
    names: &[String],
    version: u16,
    mut load: impl FnMut(usize) -> Result<Cow<'r, [Record]>, DbError>,
) -> Result<(TieredHeader, u64), DbError> {
    let io = |source| DbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(body)
        .map_err(io)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut counts = [0u64; 4];
    let mut max_remoteness = 0;
    let mut entries = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let records = load(i)?;
        for r in records.iter() {
            if let Some(v) = r.value() {
                counts[v.index()] += 1;
                if v != Value::Draw {
                    max_remoteness = max_remoteness.max(r.remoteness());
                }
            }
        }
        let codebook = if version >= 2 {
            codebook_of(&records)
        } else {
            Vec::new()
        };
        let mut symbol_of = vec![0u16; if codebook.is_empty() { 0 } else { 1 << 16 }];
        for (s, &r) in codebook.iter().enumerate() {
            symbol_of[usize::from(r)] = s as u16;
        }
        let width = symbol_width(&codebook) as u32;
        let blocks = topitop_par::try_map_ranges(records.len(), BLOCK_RECORDS as usize, |range| {
            let chunk = &records[range];
            let raw: Vec<u8> = match (codebook.is_empty(), width) {
                (true, _) => chunk.iter().flat_map(|r| r.bits().to_le_bytes()).collect(),
                (false, 1) => chunk
                    .iter()
                    .map(|r| symbol_of[usize::from(r.bits())] as u8)
                    .collect(),
                (false, _) => chunk
                    .iter()
                    .flat_map(|r| symbol_of[usize::from(r.bits())].to_le_bytes())
                    .collect(),
            };
            // zstd makes room for the worst case; a block held until
            // the header is written keeps only its own bytes.
            crate::zstd_ctx::compress(&raw, meta.level)
                .map(|mut z| {
                    z.shrink_to_fit();
                    z
                })
                .map_err(|e| DbError::corrupt("block", format!("zstd: {e}")))
        })?;
        entries.push(TierEntry {
            name: name.clone(),
            size: records.len() as u64,
            codebook,
            blocks: blocks
                .iter()
                .zip(records.chunks(BLOCK_RECORDS as usize))
                .map(|(b, chunk)| BlockEntry {
                    offset: 0,
                    compressed: b.len() as u32,
                    raw: width * chunk.len() as u32,
                    checksum: checksum(b),
                })
                .collect(),
        });
        blocks.iter().try_for_each(|b| out.write_all(b)).map_err(io)?;
    }
    let mut body_file = out.into_inner().map_err(|e| io(e.into_error()))?;
    let mut header = TieredHeader {
        version,
        game: meta.game.to_string(),
        variant: meta.variant.to_string(),
        program: meta.program.chars().take(200).collect(),
        symmetric: meta.symmetric,
        counts,
        max_remoteness,
        tiers: entries,
    };
    // Offsets follow from the header's length, which offsets do not change.
    let mut at = header.encoded_len() as u64;
    for t in &mut header.tiers {
        for e in &mut t.blocks {
            e.offset = at;
            at += u64::from(e.compressed);
        }
    }
    body_file.rewind().map_err(io)?;
    crate::temps::write_atomically(path, |out| {
        out.write_all(&header.encode())?;
        let copied = std::io::copy(&mut body_file, out)?;
        if header.encoded_len() as u64 + copied == at {
            Ok(())
        } else {
            Err(std::io::Error::other(format!(
                "{}: the blocks written were {copied} bytes, not the {} their entries add up to",
                body.display(),
                at - header.encoded_len() as u64
            )))
        }
    })?;
    Ok((header, at))
}

/// A block's records once read, shared by the threads that read it.
type Slot = Mutex<Option<Arc<Vec<u16>>>>;

/// An open tiered database, read into memory and checked on opening;
/// blocks are decompressed (and their checksums checked) when first read.
pub struct TieredDb {
    path: PathBuf,
    bytes: Vec<u8>,
    header: TieredHeader,
    by_name: HashMap<String, usize>,
    /// Per tier, per block: the decompressed records once read.
    blocks: Vec<Vec<Slot>>,
}

impl TieredDb {
    /// Reads and checks the database at `path`: a regular file only, its
    /// header read and checked before the rest, its length the header's.
    ///
    /// # Errors
    /// The file cannot be read or is not a valid tiered database; the error
    /// names the file.
    pub fn open(path: impl AsRef<Path>) -> Result<TieredDb, DbError> {
        let path = path.as_ref();
        let (file, len, head) = open_with_header(path, MAGIC, MAX_HEADER)?;
        let header = TieredHeader::decode(&head).map_err(|e| e.in_file(path))?;
        if header.file_len() != len {
            return Err(DbError::corrupt(
                "file",
                format!("{len} bytes, but its header gives {}", header.file_len()),
            )
            .in_file(path));
        }
        let mut bytes = head;
        (&file)
            .take(len - bytes.len() as u64)
            .read_to_end(&mut bytes)
            .map_err(|source| DbError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        TieredDb::new(path, bytes)
    }

    /// The database held in `bytes`; `name` stands for its path in errors.
    ///
    /// # Errors
    /// The bytes are not a valid tiered database.
    pub fn new(name: impl Into<PathBuf>, bytes: Vec<u8>) -> Result<TieredDb, DbError> {
        let path = name.into();
        let header = TieredHeader::decode(&bytes).map_err(|e| e.in_file(&path))?;
        if header.file_len() != bytes.len() as u64 {
            return Err(DbError::corrupt(
                "file",
                format!(
                    "{} bytes, but its header gives {}",
                    bytes.len(),
                    header.file_len()
                ),
            )
            .in_file(&path));
        }
        let by_name = header
            .tiers
            .iter()
            .enumerate()
            .map(|(k, t)| (t.name.clone(), k))
            .collect();
        let blocks = header
            .tiers
            .iter()
            .map(|t| t.blocks.iter().map(|_| Mutex::new(None)).collect())
            .collect();
        Ok(TieredDb {
            path,
            bytes,
            header,
            by_name,
            blocks,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header as read and checked when the file was opened.
    pub fn header(&self) -> &TieredHeader {
        &self.header
    }

    /// The file's format and version.
    pub fn format(&self) -> crate::reader::FormatVersion {
        crate::reader::FormatVersion {
            name: "tiered game database",
            version: self.header.version,
            current: VERSION,
        }
    }

    /// Bytes of the file.
    pub fn file_len(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// The records of block `k` of tier `t`, decompressed and checked,
    /// and kept for the next read.
    fn block(&self, t: usize, k: usize) -> Result<Arc<Vec<u16>>, DbError> {
        let mut slot = self.blocks[t][k].lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(b) = slot.as_ref() {
            return Ok(Arc::clone(b));
        }
        let records = Arc::new(self.decompress(t, k)?);
        *slot = Some(Arc::clone(&records));
        Ok(records)
    }

    /// The records of block `k` of tier `t` (at most [`BLOCK_RECORDS`]),
    /// decompressed and checked but not kept: a pass over the whole file
    /// (an export) holds one block at a time instead of every block.
    ///
    /// # Errors
    /// A damaged block.
    pub fn block_records(&self, t: usize, k: usize) -> Result<Vec<Record>, DbError> {
        let cached = self.blocks[t][k]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let decoded;
        let bits: &[u16] = match &cached {
            Some(b) => b,
            None => {
                decoded = self.decompress(t, k)?;
                &decoded
            }
        };
        Ok(bits
            .iter()
            .map(|&r| Record::from_bits(r).unwrap_or(Record::UNSOLVED))
            .collect())
    }

    /// The records of block `k` of tier `t`, checked and decompressed from
    /// the file's bytes (not kept).
    fn decompress(&self, t: usize, k: usize) -> Result<Vec<u16>, DbError> {
        let tier = &self.header.tiers[t];
        let e = &tier.blocks[k];
        let what = || format!("tier {} block {k}", tier.name);
        let packed = &self.bytes[e.offset as usize..(e.offset + u64::from(e.compressed)) as usize];
        let computed = checksum(packed);
        if computed != e.checksum {
            return Err(DbError::Checksum {
                what: what(),
                stored: e.checksum,
                computed,
            }
            .in_file(&self.path));
        }
        let raw = crate::zstd_ctx::decompress(packed, e.raw as usize)
            .map_err(|err| DbError::corrupt(what(), format!("zstd: {err}")).in_file(&self.path))?;
        if raw.len() != e.raw as usize {
            return Err(DbError::corrupt(what(), "decompresses to the wrong length").in_file(&self.path));
        }
        let book = &tier.codebook;
        if book.is_empty() {
            let records: Vec<u16> = raw
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            if let Some(bad) = records.iter().find(|&&r| Record::from_bits(r).is_none()) {
                return Err(
                    DbError::corrupt(what(), format!("{bad:#06x} is not a record")).in_file(&self.path)
                );
            }
            return Ok(records);
        }
        let record = |s: usize| {
            book.get(s).copied().ok_or_else(|| {
                DbError::corrupt(
                    what(),
                    format!("symbol {s} past its tier's {} records", book.len()),
                )
                .in_file(&self.path)
            })
        };
        match tier.width() {
            1 => raw.iter().map(|&s| record(usize::from(s))).collect(),
            _ => raw
                .chunks_exact(2)
                .map(|c| record(usize::from(u16::from_le_bytes([c[0], c[1]]))))
                .collect(),
        }
    }

    /// Checks every block (checksum, length, records) and the header's
    /// counts by value and largest remoteness against a recount of the
    /// records, calling `progress(done, total)` in blocks now and then.
    /// Blocks are not kept: memory stays a few blocks a thread.
    ///
    /// # Errors
    /// The first damaged block, or counts or a largest remoteness that
    /// the records refute.
    pub fn verify_blocks(&self, progress: impl Fn(usize, usize) + Sync) -> Result<(), DbError> {
        let all: Vec<(usize, usize)> = (0..self.header.tiers.len())
            .flat_map(|t| (0..self.header.tiers[t].blocks.len()).map(move |k| (t, k)))
            .collect();
        let total = all.len();
        let done = std::sync::atomic::AtomicUsize::new(0);
        let (counts, largest) = topitop_par::try_map(all.len(), |i| {
            let (t, k) = all[i];
            let mut counts = [0u64; 4];
            let mut largest = 0u16;
            for r in self.decompress(t, k)?.into_iter().filter_map(Record::from_bits) {
                if let Some(v) = r.value() {
                    counts[v.index()] += 1;
                    if v != Value::Draw {
                        largest = largest.max(r.remoteness());
                    }
                }
            }
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if n.is_multiple_of(256) || n == total {
                progress(n, total);
            }
            Ok((counts, largest))
        })?
        .into_iter()
        .fold(([0u64; 4], 0u16), |(a, x), (b, y)| {
            (std::array::from_fn(|i| a[i] + b[i]), x.max(y))
        });
        let h = &self.header;
        if counts != h.counts {
            return Err(DbError::corrupt(
                "header",
                format!(
                    "it counts {:?} positions by value (win, lose, tie, draw), but its records hold {counts:?}",
                    h.counts
                ),
            )
            .in_file(&self.path));
        }
        if largest != h.max_remoteness {
            return Err(DbError::corrupt(
                "header",
                format!(
                    "its largest remoteness is {}, but that of its records is {largest}",
                    h.max_remoteness
                ),
            )
            .in_file(&self.path));
        }
        Ok(())
    }

    /// The record at `index` of the tier named `tier`.
    ///
    /// # Errors
    /// No such tier or index, or a damaged block.
    pub fn get(&self, tier: &str, index: u64) -> Result<Record, DbError> {
        let t = *self
            .by_name
            .get(tier)
            .ok_or_else(|| DbError::NotIndexable(format!("tier {tier}")))?;
        if index >= self.header.tiers[t].size {
            return Err(DbError::NotIndexable(format!("index {index} of tier {tier}")));
        }
        let block = self.block(t, (index / BLOCK_RECORDS) as usize)?;
        Ok(Record::from_bits(block[(index % BLOCK_RECORDS) as usize]).unwrap_or(Record::UNSOLVED))
    }

    /// Checks that the database holds `game`'s variant, and that its
    /// header's tier list is that game's in [`tier_order`], each tier of
    /// the game's size.
    ///
    /// # Errors
    /// [`DbError::OtherGame`], naming both; or a header whose tiers are
    /// not the game's, naming the file.
    pub fn holds<G: topitop_game_api::Tiered>(&self, game: &G) -> Result<(), DbError> {
        let h = &self.header;
        crate::tier_list::check_names(&self.path, game, &h.game, &h.variant)?;
        crate::tier_list::check_tiers(
            game,
            &tier_order(game),
            h.tiers.iter().map(|t| (t.name.as_str(), t.size)),
        )
        .map_err(|e| e.in_file(&self.path))
    }

    /// The record of `pos` of `game` (through its canonical form when the
    /// database holds one position per symmetry class).
    ///
    /// # Errors
    /// A position outside every tier, or a damaged block.
    pub fn lookup<G: topitop_game_api::Tiered>(
        &self,
        game: &G,
        pos: &G::Position,
    ) -> Result<Record, DbError> {
        let pos = if self.header.symmetric {
            game.canonical(pos)
        } else {
            *pos
        };
        self.get(&game.tier_name(game.tier_of(&pos)), game.index(&pos))
    }

    /// Every tier's records in full, by tier name: every block read and
    /// checked.
    ///
    /// # Errors
    /// A damaged block.
    pub fn tiers(&self) -> Result<Vec<(String, Vec<Record>)>, DbError> {
        (0..self.header.tiers.len())
            .map(|t| {
                let mut records = Vec::with_capacity(self.header.tiers[t].size as usize);
                for k in 0..self.header.tiers[t].blocks.len() {
                    let b = self.block(t, k)?;
                    records.extend(
                        b.iter()
                            .map(|&r| Record::from_bits(r).unwrap_or(Record::UNSOLVED)),
                    );
                }
                Ok((self.header.tiers[t].name.clone(), records))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<(String, Vec<Record>)> {
        vec![
            (
                "a".into(),
                (0..70_000u32)
                    .map(|i| Record::new(Value::Win, (i % 7) as u16 * 2 + 1))
                    .collect(),
            ),
            (
                "b".into(),
                vec![
                    Record::UNSOLVED,
                    Record::new(Value::Lose, 4),
                    Record::new(Value::Tie, 3),
                ],
            ),
            ("empty".into(), Vec::new()),
        ]
    }

    fn meta() -> TieredMeta<'static> {
        TieredMeta {
            game: "toy",
            variant: "v",
            program: "test",
            symmetric: true,
            level: 3,
        }
    }

    /// A name with control characters (a forged `program` that would
    /// clear the terminal or print a fake line) is refused, shown escaped.
    #[test]
    fn names_with_control_characters_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        for (program, tier) in [("x\u{1b}[2J", "a"), ("test", "a\nchecked: 0 violations")] {
            let path = dir.path().join("toy_v.db");
            let meta = TieredMeta { program, ..meta() };
            let records = [Record::new(Value::Win, 1)];
            write_tiered(&path, &meta, &[(tier.to_string(), &records[..])]).unwrap();
            let e = TieredDb::open(&path).err().expect("refused").to_string();
            assert!(e.contains("control characters"), "{e}");
            assert!(!e.contains('\u{1b}') && !e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn a_written_file_reads_back_and_every_damage_is_caught() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("toy_v.db");
        let tiers = sample();
        let refs: Vec<(String, &[Record])> = tiers.iter().map(|(n, r)| (n.clone(), r.as_slice())).collect();
        let (header, len) = write_tiered(&path, &meta(), &refs).unwrap();
        assert_eq!(header.counts, [70_000, 1, 1, 0]);
        assert_eq!(header.max_remoteness, 13);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), len);
        let db = TieredDb::open(&path).unwrap();
        assert_eq!(db.header(), &header);
        assert_eq!(db.get("a", 69_999).unwrap(), tiers[0].1[69_999]);
        assert_eq!(db.get("b", 2).unwrap(), Record::new(Value::Tie, 3));
        assert!(db.get("b", 3).is_err());
        assert!(db.get("c", 0).is_err());
        assert_eq!(db.tiers().unwrap(), tiers);
        // Every flipped byte is refused on opening or on reading.
        let bytes = std::fs::read(&path).unwrap();
        for at in (0..bytes.len()).step_by(7) {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            let caught = TieredDb::new("bad.db", bad).and_then(|db| db.tiers().map(|_| ()));
            assert!(caught.is_err(), "a flipped byte at {at} went unnoticed");
        }
        for cut in [0, 5, 13, 20, bytes.len() - 1] {
            assert!(
                TieredDb::new("cut.db", bytes[..cut].to_vec()).is_err(),
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn devices_and_other_formats_are_refused() {
        let e = TieredDb::open("/dev/zero").err().unwrap().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.db");
        std::fs::write(&p, b"TOPITOPDxxxxxxxxxxxxxxxx").unwrap();
        let e = TieredDb::open(&p).err().unwrap().to_string();
        assert!(e.contains("bad magic"), "{e}");
    }

    #[test]
    fn blocks_read_for_a_pass_are_the_tiers_and_are_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("toy_v.db");
        let tiers = sample();
        let refs: Vec<(String, &[Record])> = tiers.iter().map(|(n, r)| (n.clone(), r.as_slice())).collect();
        write_tiered(&path, &meta(), &refs).unwrap();
        let db = TieredDb::open(&path).unwrap();
        for (t, (_, records)) in tiers.iter().enumerate() {
            let read: Vec<Record> = (0..db.header().tiers[t].blocks.len())
                .flat_map(|k| db.block_records(t, k).unwrap())
                .collect();
            assert_eq!(&read, records);
        }
        let kept = db
            .blocks
            .iter()
            .flatten()
            .filter(|s| s.lock().unwrap().is_some())
            .count();
        assert_eq!(kept, 0, "a pass over the file keeps no block");
        // A block a lookup has kept is read from there.
        assert_eq!(db.get("a", 3).unwrap(), tiers[0].1[3]);
        assert_eq!(
            db.block_records(0, 0).unwrap(),
            tiers[0].1[..BLOCK_RECORDS as usize]
        );
    }
}
