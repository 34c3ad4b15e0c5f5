//! Checkpoints of a tiered game's solve (the generic loop-free solver's):
//! a directory beside the database, `<database>.ckpt/`, holding the
//! solve's maker line in `MAKER` and one file a finished tier,
//! `<tier>.tier`. A run cut short resumes from the tiers kept whole; the
//! directory goes once the database is written. The format is in
//! `db/FORMAT.md` ("Tier checkpoints").

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use topitop_game_api::Record;

use crate::blocks::checksum;
use crate::error::DbError;
use crate::temps::write_atomically;

/// The first bytes of a tier checkpoint file.
const MAGIC: [u8; 8] = *b"TOPITCK1";
/// The first bytes of a checkpoint file of bytes.
const BYTES_MAGIC: [u8; 8] = *b"TOPIBCK1";
/// Magic, index count, checksum of the rest.
const HEAD: usize = 8 + 8 + 8;

/// The checkpoints of one solve.
pub struct TierCheckpoints {
    dir: PathBuf,
    /// What made the solve, written to `MAKER` with the first file kept.
    made_from: String,
    /// True once the directory and its `MAKER` are there.
    ready: bool,
    warnings: Vec<String>,
}

impl TierCheckpoints {
    /// Opens the checkpoint directory `dir` of the solve `made_from`
    /// (everything that changes a record: game, variant, symmetry,
    /// program). Nothing is created until a first file is kept, so a solve
    /// that keeps nothing leaves nothing behind.
    ///
    /// # Errors
    /// A directory made from another solve (never resumed: its records
    /// could be wrong here), one that holds kept files but no `MAKER`
    /// saying what made them, or one that cannot be read.
    pub fn open(dir: impl Into<PathBuf>, made_from: &str) -> Result<TierCheckpoints, DbError> {
        let dir = dir.into();
        let maker = dir.join("MAKER");
        let mut ready = false;
        if dir.exists() {
            let mut found = String::new();
            match topitop_files::open_regular(&maker).and_then(|f| f.take(4096).read_to_string(&mut found)) {
                Ok(_) => {
                    let found = found.trim_end().to_string();
                    if found != made_from {
                        return Err(DbError::ForeignCheckpoint {
                            path: maker,
                            found,
                            expected: made_from.to_string(),
                            dir,
                        });
                    }
                    ready = true;
                }
                // A run killed between making the directory and writing
                // its MAKER leaves it empty: nothing to resume, nothing to
                // lose. Kept files without a MAKER are another matter:
                // nothing says they belong to this solve.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    let kept = std::fs::read_dir(&dir)
                        .map_err(|source| DbError::Io {
                            path: dir.clone(),
                            source,
                        })?
                        .filter_map(Result::ok)
                        .any(|e| {
                            let name = e.file_name();
                            let name = name.to_string_lossy();
                            name.ends_with(".tier") || name.ends_with(".bytes")
                        });
                    if kept {
                        return Err(DbError::corrupt(
                            format!("checkpoint directory {}", dir.display()),
                            "it holds kept files but no MAKER file saying which solve made them; remove the directory to solve from the start",
                        ));
                    }
                }
                Err(source) => return Err(DbError::Io { path: maker, source }),
            }
        }
        Ok(TierCheckpoints {
            dir,
            made_from: made_from.to_string(),
            ready,
            warnings: Vec::new(),
        })
    }

    /// Makes the directory and its `MAKER`, once, before the first file
    /// kept.
    fn prepare(&mut self) -> std::io::Result<()> {
        if self.ready {
            return Ok(());
        }
        match std::fs::create_dir(&self.dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && self.dir.is_dir() => {}
            Err(e) => {
                return Err(std::io::Error::new(
                    e.kind(),
                    format!("cannot create {}: {e}", self.dir.display()),
                ))
            }
        }
        let made_from = self.made_from.clone();
        write_atomically(&self.dir.join("MAKER"), |out| writeln!(out, "{made_from}"))
            .map_err(std::io::Error::other)?;
        self.ready = true;
        Ok(())
    }

    /// What was set aside while resuming: damaged tier files, solved again.
    pub fn warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    /// The file of tier `name`: its name with every character other than
    /// a letter, digit, `.`, `-` or `_` written as `%XX`.
    fn file_of(&self, name: &str) -> PathBuf {
        let mut file = String::new();
        for b in name.bytes() {
            if b.is_ascii_alphanumeric() || b"._-".contains(&b) {
                file.push(char::from(b));
            } else {
                file.push_str(&format!("%{b:02X}"));
            }
        }
        file.push_str(".tier");
        self.dir.join(file)
    }

    /// The records of tier `name` kept by an earlier run, if its file is
    /// there and whole (`size` records under a good checksum); a damaged
    /// file is noted in [`TierCheckpoints::warnings`] and ignored.
    pub fn load(&mut self, name: &str, size: u64) -> Option<Vec<Record>> {
        let path = self.file_of(name);
        let decoded = read_capped(&path, size * 2).and_then(|bytes| {
            let Some(bytes) = bytes else { return Ok(None) };
            let raw = unpack(&bytes, MAGIC, size, size * 2).map_err(|fault| match fault {
                Fault::Magic => "not a tier checkpoint (bad magic or cut short)".to_string(),
                Fault::Count(n) => format!("{n} records, but the tier has {size}"),
                other => other.to_string(),
            })?;
            raw.chunks_exact(2)
                .map(|c| {
                    let bits = u16::from_le_bytes([c[0], c[1]]);
                    Record::from_bits(bits).ok_or_else(|| format!("{bits:#06x} is not a record"))
                })
                .collect::<Result<Vec<Record>, String>>()
                .map(Some)
        });
        self.noted(decoded, &path, "solving the tier again")
    }

    /// Keeps the records of the finished tier `name` (written aside,
    /// synced, renamed into place).
    ///
    /// # Errors
    /// The file could not be written.
    pub fn save(&mut self, name: &str, records: &[Record]) -> std::io::Result<()> {
        self.prepare()?;
        let raw: Vec<u8> = records.iter().flat_map(|r| r.bits().to_le_bytes()).collect();
        write_packed(&self.file_of(name), MAGIC, records.len() as u64, &raw)
    }

    /// The bytes kept under `name` by [`TierCheckpoints::save_bytes`] in an
    /// earlier run, if its file is there and whole (`len` bytes under a
    /// good checksum); a damaged file is noted in
    /// [`TierCheckpoints::warnings`] and ignored.
    pub fn load_bytes(&mut self, name: &str, len: u64) -> Option<Vec<u8>> {
        let path = self.file_of(name).with_extension("bytes");
        let unpacked = read_capped(&path, len).and_then(|bytes| {
            let Some(bytes) = bytes else { return Ok(None) };
            unpack(&bytes, BYTES_MAGIC, len, len)
                .map(Some)
                .map_err(|fault| match fault {
                    Fault::Magic => "not a checkpoint (bad magic or cut short)".to_string(),
                    Fault::Count(n) => format!("{n} bytes kept, but {len} expected"),
                    other => other.to_string(),
                })
        });
        self.noted(unpacked, &path, "solving it again")
    }

    /// Keeps `bytes` under `name` (compressed, written aside, synced,
    /// renamed into place): for a solve whose finished parts are not
    /// tiers of records.
    ///
    /// # Errors
    /// The file could not be written.
    pub fn save_bytes(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        self.prepare()?;
        write_packed(
            &self.file_of(name).with_extension("bytes"),
            BYTES_MAGIC,
            bytes.len() as u64,
            bytes,
        )
    }

    /// What was read from `path`; a fault noted as a warning (the part is
    /// then done again, `then`) and read as nothing kept.
    fn noted<T>(&mut self, read: Result<Option<T>, String>, path: &Path, then: &str) -> Option<T> {
        read.unwrap_or_else(|why| {
            self.warnings.push(format!("{}: {why}; {then}", path.display()));
            None
        })
    }

    /// Removes the directory: the database it was for is written.
    ///
    /// # Errors
    /// It could not be removed.
    pub fn remove(self) -> std::io::Result<()> {
        match std::fs::remove_dir_all(&self.dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            done => done,
        }
    }
}

/// Why a checkpoint file's bytes are not a whole checkpoint.
#[derive(Debug, thiserror::Error)]
enum Fault {
    /// Another magic, or shorter than its head.
    #[error("bad magic or cut short")]
    Magic,
    /// Another count than expected: the count the file records.
    #[error("{0} kept")]
    Count(u64),
    /// The payload's checksum does not match.
    #[error("checksum mismatch")]
    Checksum,
    /// The payload does not decompress.
    #[error("zstd: {0}")]
    Zstd(String),
    /// The payload decompresses to another length.
    #[error("decompresses to the wrong length")]
    Length,
}

/// A checkpoint file's bytes: `magic`, `count`, the checksum of the
/// compressed `raw`, and that compressed payload; written aside, synced
/// and renamed into place at `path`.
fn write_packed(path: &Path, magic: [u8; 8], count: u64, raw: &[u8]) -> std::io::Result<()> {
    let packed = zstd::bulk::compress(raw, 3)?;
    let mut bytes = Vec::with_capacity(HEAD + packed.len());
    bytes.extend_from_slice(&magic);
    bytes.extend_from_slice(&count.to_le_bytes());
    bytes.extend_from_slice(&checksum(&packed).to_le_bytes());
    bytes.extend_from_slice(&packed);
    write_atomically(path, |out| out.write_all(&bytes)).map_err(std::io::Error::other)
}

/// The bytes of the regular file `path`, none when it is not there; read
/// no further than a whole checkpoint of `raw_len` payload bytes could
/// reach, since a longer file is damaged anyway.
fn read_capped(path: &Path, raw_len: u64) -> Result<Option<Vec<u8>>, String> {
    let mut bytes = Vec::new();
    let limit = HEAD as u64 + zstd::zstd_safe::compress_bound(raw_len as usize) as u64;
    match topitop_files::open_regular(path).and_then(|f| f.take(limit + 1).read_to_end(&mut bytes)) {
        Ok(_) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// The payload of a checkpoint file's `bytes`, checked: `magic`, the
/// `count` it records, its checksum, and `raw_len` bytes once
/// decompressed.
fn unpack(bytes: &[u8], magic: [u8; 8], count: u64, raw_len: u64) -> Result<Vec<u8>, Fault> {
    if bytes.len() < HEAD || bytes[..8] != magic {
        return Err(Fault::Magic);
    }
    let word = |k: usize| u64::from_le_bytes(bytes[k..k + 8].try_into().unwrap_or([0; 8]));
    if word(8) != count {
        return Err(Fault::Count(word(8)));
    }
    let packed = &bytes[HEAD..];
    if checksum(packed) != word(16) {
        return Err(Fault::Checksum);
    }
    let raw = zstd::bulk::decompress(packed, raw_len as usize).map_err(|e| Fault::Zstd(e.to_string()))?;
    if raw.len() as u64 != raw_len {
        return Err(Fault::Length);
    }
    Ok(raw)
}

#[cfg(test)]
mod tests {
    use topitop_game_api::Value;

    use super::*;

    fn records(n: u16) -> Vec<Record> {
        (0..n).map(|i| Record::new(Value::Win, i % 9)).collect()
    }

    #[test]
    fn tiers_kept_are_resumed_and_damage_is_solved_again() {
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("g_v.db.ckpt");
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        assert_eq!(c.load("a", 5), None, "nothing kept yet");
        c.save("a", &records(5)).unwrap();
        c.save("x/y z", &records(300)).unwrap();
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        assert_eq!(c.load("a", 5), Some(records(5)));
        assert_eq!(c.load("x/y z", 300), Some(records(300)));
        assert!(ckpt.join("x%2Fy%20z.tier").exists());
        // Another size, a flipped byte, a cut file: solved again, said why.
        assert_eq!(c.load("a", 6), None);
        let file = ckpt.join("a.tier");
        let mut bytes = std::fs::read(&file).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&file, &bytes).unwrap();
        assert_eq!(c.load("a", 5), None);
        std::fs::write(&file, &bytes[..10]).unwrap();
        assert_eq!(c.load("a", 5), None);
        let w = c.warnings();
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(w[1].contains("checksum mismatch"), "{w:?}");
        // Another solve's directory is refused, naming both.
        match TierCheckpoints::open(&ckpt, "game h") {
            Err(DbError::ForeignCheckpoint { found, expected, .. }) => {
                assert_eq!((found.as_str(), expected.as_str()), ("game g", "game h"));
            }
            other => panic!("{:?}", other.err()),
        }
        TierCheckpoints::open(&ckpt, "game g").unwrap().remove().unwrap();
        assert!(!ckpt.exists());
    }

    #[test]
    fn a_directory_without_its_maker_is_resumed_only_when_empty() {
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("g_v.db.ckpt");
        // Opening creates nothing: a solve that keeps nothing leaves nothing.
        let c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        assert!(!ckpt.exists());
        c.remove().unwrap();
        // An empty directory (a run killed before its MAKER) is taken up.
        std::fs::create_dir(&ckpt).unwrap();
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        c.save("a", &records(5)).unwrap();
        assert_eq!(std::fs::read_to_string(ckpt.join("MAKER")).unwrap(), "game g\n");
        // Kept files with no MAKER: refused, saying what to do.
        std::fs::remove_file(ckpt.join("MAKER")).unwrap();
        let e = TierCheckpoints::open(&ckpt, "game g").err().unwrap().to_string();
        assert!(
            e.contains("no MAKER") && e.contains("remove the directory"),
            "{e}"
        );
        assert!(e.contains(&ckpt.display().to_string()), "{e}");
    }
}
