//! Checkpoints of a tiered game's solve (the generic loop-free solver's):
//! a directory beside the database, `<database>.ckpt/`, holding the
//! solve's maker line in `MAKER` and one file a finished tier,
//! `<tier>.tier`. A run cut short resumes from the tiers kept whole; the
//! directory goes once the database is written. The format is in
//! `db/FORMAT.md` ("Tier checkpoints").

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use topitop_interface::Record;

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
    warnings: Vec<String>,
}

impl TierCheckpoints {
    /// Opens (or creates) the checkpoint directory `dir` of the solve
    /// `made_from` (everything that changes a record: game, variant,
    /// symmetry, program).
    ///
    /// # Errors
    /// A directory made from another solve (never resumed: its records
    /// could be wrong here), or one that cannot be created or read.
    pub fn open(dir: impl Into<PathBuf>, made_from: &str) -> Result<TierCheckpoints, DbError> {
        let dir = dir.into();
        let maker = dir.join("MAKER");
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| DbError::Io { path, source }
        };
        if dir.exists() {
            let mut found = String::new();
            topitop_files::open_regular(&maker)
                .and_then(|f| f.take(4096).read_to_string(&mut found))
                .map_err(io(&maker))?;
            let found = found.trim_end().to_string();
            if found != made_from {
                return Err(DbError::ForeignCheckpoint {
                    path: maker,
                    found,
                    expected: made_from.to_string(),
                    dir,
                });
            }
        } else {
            std::fs::create_dir(&dir).map_err(io(&dir))?;
            write_atomically(&maker, |out| writeln!(out, "{made_from}"))?;
        }
        Ok(TierCheckpoints {
            dir,
            warnings: Vec::new(),
        })
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
        let mut bytes = Vec::new();
        match topitop_files::open_regular(&path) {
            Ok(f) => {
                // A file far longer than its records could be is damaged.
                let limit = HEAD as u64 + zstd::zstd_safe::compress_bound(size as usize * 2) as u64;
                if let Err(e) = f.take(limit + 1).read_to_end(&mut bytes) {
                    self.warnings
                        .push(format!("{}: {e}; solving the tier again", path.display()));
                    return None;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => {
                self.warnings
                    .push(format!("{}: {e}; solving the tier again", path.display()));
                return None;
            }
        }
        match decode(&bytes, size) {
            Ok(records) => Some(records),
            Err(why) => {
                self.warnings
                    .push(format!("{}: {why}; solving the tier again", path.display()));
                None
            }
        }
    }

    /// Keeps the records of the finished tier `name` (written aside,
    /// synced, renamed into place).
    ///
    /// # Errors
    /// The file could not be written.
    pub fn save(&mut self, name: &str, records: &[Record]) -> std::io::Result<()> {
        let raw: Vec<u8> = records.iter().flat_map(|r| r.bits().to_le_bytes()).collect();
        let packed = zstd::bulk::compress(&raw, 3)?;
        let mut bytes = Vec::with_capacity(HEAD + packed.len());
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&(records.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&checksum(&packed).to_le_bytes());
        bytes.extend_from_slice(&packed);
        write_atomically(&self.file_of(name), |out| out.write_all(&bytes)).map_err(std::io::Error::other)
    }

    /// The bytes kept under `name` by [`TierCheckpoints::save_bytes`] in an
    /// earlier run, if its file is there and whole (`len` bytes under a
    /// good checksum); a damaged file is noted in
    /// [`TierCheckpoints::warnings`] and ignored.
    pub fn load_bytes(&mut self, name: &str, len: u64) -> Option<Vec<u8>> {
        let path = self.file_of(name).with_extension("bytes");
        let mut bytes = Vec::new();
        let read = topitop_files::open_regular(&path).and_then(|f| {
            let limit = HEAD as u64 + zstd::zstd_safe::compress_bound(len as usize) as u64;
            f.take(limit + 1).read_to_end(&mut bytes)
        });
        match read {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => {
                self.warnings
                    .push(format!("{}: {e}; solving it again", path.display()));
                return None;
            }
        }
        let word = |k: usize| u64::from_le_bytes(bytes[k..k + 8].try_into().unwrap_or([0; 8]));
        let why = if bytes.len() < HEAD || bytes[..8] != BYTES_MAGIC {
            "not a checkpoint (bad magic or cut short)".to_string()
        } else if word(8) != len {
            format!("{} bytes kept, but {len} expected", word(8))
        } else if checksum(&bytes[HEAD..]) != word(16) {
            "checksum mismatch".to_string()
        } else {
            match zstd::bulk::decompress(&bytes[HEAD..], len as usize) {
                Ok(raw) if raw.len() as u64 == len => return Some(raw),
                Ok(_) => "decompresses to the wrong length".to_string(),
                Err(e) => format!("zstd: {e}"),
            }
        };
        self.warnings
            .push(format!("{}: {why}; solving it again", path.display()));
        None
    }

    /// Keeps `bytes` under `name` (compressed, written aside, synced,
    /// renamed into place): for a solve whose finished parts are not
    /// tiers of records.
    ///
    /// # Errors
    /// The file could not be written.
    pub fn save_bytes(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        let packed = zstd::bulk::compress(bytes, 3)?;
        let mut out = Vec::with_capacity(HEAD + packed.len());
        out.extend_from_slice(&BYTES_MAGIC);
        out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        out.extend_from_slice(&checksum(&packed).to_le_bytes());
        out.extend_from_slice(&packed);
        write_atomically(&self.file_of(name).with_extension("bytes"), |f| f.write_all(&out))
            .map_err(std::io::Error::other)
    }

    /// Removes the directory: the database it was for is written.
    ///
    /// # Errors
    /// It could not be removed.
    pub fn remove(self) -> std::io::Result<()> {
        std::fs::remove_dir_all(&self.dir)
    }
}

/// The records of a tier file of `size` records, or what is wrong.
fn decode(bytes: &[u8], size: u64) -> Result<Vec<Record>, String> {
    if bytes.len() < HEAD || bytes[..8] != MAGIC {
        return Err("not a tier checkpoint (bad magic or cut short)".into());
    }
    let word = |k: usize| u64::from_le_bytes(bytes[k..k + 8].try_into().unwrap_or([0; 8]));
    if word(8) != size {
        return Err(format!("{} records, but the tier has {size}", word(8)));
    }
    let packed = &bytes[HEAD..];
    if checksum(packed) != word(16) {
        return Err("checksum mismatch".into());
    }
    let raw = zstd::bulk::decompress(packed, size as usize * 2).map_err(|e| format!("zstd: {e}"))?;
    if raw.len() as u64 != size * 2 {
        return Err("decompresses to the wrong length".into());
    }
    raw.chunks_exact(2)
        .map(|c| {
            let bits = u16::from_le_bytes([c[0], c[1]]);
            Record::from_bits(bits).ok_or_else(|| format!("{bits:#06x} is not a record"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use topitop_interface::Value;

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
}
