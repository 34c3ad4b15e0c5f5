//! Solve checkpoints on disk, so that an interrupted solve resumes.
//!
//! The solver finishes tiers a level at a time; what it hands over at once
//! (a level, or every level finished since the last save) goes into one
//! file of the checkpoint directory, named by its first tier:
//! `<tier in hex>.level`. The format is in `db/FORMAT.md` ("Solve
//! checkpoints"). Each file is written to a temporary name, synced and
//! renamed, so a file that exists is complete; one that fails its checks
//! is ignored and its tiers are solved again. Nothing is saved during a
//! grace period after opening ([`CheckpointDir::with_grace`]): a solve
//! shorter than that writes no checkpoint at all.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use xxhash_rust::xxh3::Xxh3;

use topitop_game::Tier;
use topitop_table::{Checkpoint, Record};

use crate::error::DbError;
use crate::header::checksum;

/// The magic number of checkpoint format 3 (2 used FNV-1a checksums).
const MAGIC: &[u8; 8] = b"TOPICKP3";
/// Magic, symmetry flag, tier count.
const PREAMBLE: usize = 8 + 1 + 4;

/// A directory of checkpoint files for one solve.
pub struct CheckpointDir {
    dir: PathBuf,
    symmetric: bool,
    /// Records of the tiers found on disk, by tier number.
    found: HashMap<u64, Vec<Record>>,
    /// Tiers taken from earlier runs so far.
    resumed: usize,
    /// The thread syncing and renaming the last file written by
    /// [`Checkpoint::save`], if it may still run: syncing overlaps the
    /// solving of the next level instead of holding it up.
    pending: Option<JoinHandle<std::io::Result<()>>>,
    /// Saving is due from this instant on; never if `None` (a grace
    /// period beyond what the clock can count).
    due_from: Option<Instant>,
}

impl CheckpointDir {
    /// The checkpoints in `dir` (created if missing) of a solve with or
    /// without symmetry; reads those an earlier run left and removes the
    /// temporary files of a save it was killed in. Only one solve may use
    /// a directory at a time: the caller holds a lock.
    ///
    /// # Errors
    /// The directory cannot be created or listed.
    pub fn open(dir: impl Into<PathBuf>, symmetric: bool) -> Result<CheckpointDir, DbError> {
        let dir = dir.into();
        let io = |source| DbError::Io {
            path: dir.clone(),
            source,
        };
        fs::create_dir_all(&dir).map_err(io)?;
        let mut found = HashMap::new();
        for entry in fs::read_dir(&dir).map_err(io)?.flatten() {
            let path = entry.path();
            // A run killed while saving left this; the level is solved again.
            if path.extension().is_some_and(|x| x == "tmp") {
                let _ = fs::remove_file(&path);
            }
            if path.extension().is_some_and(|x| x == "level") {
                if let Some(tiers) = fs::read(&path).ok().and_then(|b| decode(&b, symmetric)) {
                    found.extend(tiers);
                }
            }
        }
        Ok(CheckpointDir {
            dir,
            symmetric,
            found,
            resumed: 0,
            pending: None,
            due_from: Some(Instant::now()),
        })
    }

    /// Puts saving off until `grace` has passed since the directory was
    /// opened ([`Checkpoint::due`]); by default every level is saved.
    #[must_use]
    pub fn with_grace(mut self, grace: Duration) -> CheckpointDir {
        self.due_from = self.due_from.and_then(|t| t.checked_add(grace));
        self
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Tiers taken from earlier runs so far.
    pub fn resumed(&self) -> usize {
        self.resumed
    }

    /// Removes the directory once the final result is written, after the
    /// level still being written, if any.
    ///
    /// # Errors
    /// The directory cannot be removed.
    pub fn remove(mut self) -> Result<(), DbError> {
        // Its outcome no longer matters: the result it would resume is written.
        let _ = self.wait();
        fs::remove_dir_all(&self.dir).map_err(|source| DbError::Io {
            path: self.dir.clone(),
            source,
        })
    }

    /// Waits for the level being written, if any, and returns its outcome.
    fn wait(&mut self) -> std::io::Result<()> {
        match self.pending.take() {
            Some(writer) => writer
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("the checkpoint writer panicked"))),
            None => Ok(()),
        }
    }
}

impl Drop for CheckpointDir {
    fn drop(&mut self) {
        // No writer outlives its directory's owner; an error here has no
        // one left to tell, and the level is solved again on resuming.
        let _ = self.wait();
    }
}

/// Records encoded per write: the encoding streams through a small buffer
/// instead of copying a whole level.
const RECORDS_PER_WRITE: usize = 1 << 16;

/// A writer that also hashes what goes through it.
struct Hashing<W> {
    out: W,
    hash: Xxh3,
}

impl<W: Write> Hashing<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hash.update(bytes);
        self.out.write_all(bytes)
    }
}

/// Writes a checkpoint file holding `finished` to `out`, checksum last.
fn encode_into(out: impl Write, symmetric: bool, finished: &[(Tier, &[Record])]) -> std::io::Result<()> {
    let mut out = Hashing {
        out,
        hash: Xxh3::new(),
    };
    out.put(MAGIC)?;
    out.put(&[u8::from(symmetric)])?;
    out.put(&(finished.len() as u32).to_le_bytes())?;
    let mut buf = Vec::with_capacity(2 * RECORDS_PER_WRITE);
    for (tier, records) in finished {
        out.put(&tier.number().to_le_bytes())?;
        out.put(&(records.len() as u64).to_le_bytes())?;
        for chunk in records.chunks(RECORDS_PER_WRITE) {
            buf.clear();
            buf.extend(chunk.iter().flat_map(|r| r.bits().to_le_bytes()));
            out.put(&buf)?;
        }
    }
    let sum = out.hash.digest();
    out.out.write_all(&sum.to_le_bytes())?;
    out.out.flush()
}

/// The bytes of a checkpoint file holding `finished`.
#[cfg(test)]
fn encode(symmetric: bool, finished: &[(Tier, &[Record])]) -> Vec<u8> {
    let mut out = Vec::new();
    match encode_into(&mut out, symmetric, finished) {
        Ok(()) => out,
        Err(e) => unreachable!("a Vec takes every write: {e}"),
    }
}

/// The tiers of one checkpoint file, or `None` if it is torn, corrupt or
/// from a solve with other options.
fn decode(bytes: &[u8], symmetric: bool) -> Option<Vec<(u64, Vec<Record>)>> {
    let body = bytes.len().checked_sub(8)?;
    let (head, sum) = bytes.split_at(body);
    if body < PREAMBLE || sum != checksum(head).to_le_bytes() || &head[..8] != MAGIC {
        return None;
    }
    if head[8] != u8::from(symmetric) {
        return None;
    }
    let count = u32::from_le_bytes(head[9..13].try_into().ok()?);
    let mut at = PREAMBLE;
    let u64_at = |at: &mut usize| -> Option<u64> {
        let v = u64::from_le_bytes(head.get(*at..*at + 8)?.try_into().ok()?);
        *at += 8;
        Some(v)
    };
    let mut tiers = Vec::new();
    for _ in 0..count {
        let number = u64_at(&mut at)?;
        let len = usize::try_from(u64_at(&mut at)?).ok()?;
        let raw = head.get(at..at.checked_add(len.checked_mul(2)?)?)?;
        at += 2 * len;
        let records = raw
            .chunks_exact(2)
            .map(|c| Record::from_bits(u16::from_le_bytes([c[0], c[1]])))
            .collect::<Option<Vec<Record>>>()?;
        tiers.push((number, records));
    }
    (at == body).then_some(tiers)
}

impl Checkpoint for CheckpointDir {
    fn load(&mut self, tier: Tier, records: &mut [Record]) -> bool {
        match self.found.remove(&tier.number()) {
            Some(saved) if saved.len() == records.len() => {
                records.copy_from_slice(&saved);
                self.resumed += 1;
                true
            }
            _ => false,
        }
    }

    /// After the grace period ([`CheckpointDir::with_grace`]).
    fn due(&self) -> bool {
        self.due_from.is_some_and(|t| Instant::now() >= t)
    }

    /// Writes the tiers to a temporary file straight from the solver's
    /// records (no copy), then hands the file to a thread that syncs it and
    /// renames it into place while the solve goes on. The error of the save
    /// before, if its sync or rename failed, is returned here instead, and
    /// nothing is written.
    fn save(&mut self, finished: &[(Tier, &[Record])]) -> std::io::Result<()> {
        self.wait()?;
        let Some((first, _)) = finished.first() else {
            return Ok(());
        };
        let path = self.dir.join(format!("{:09x}.level", first.number()));
        let tmp = path.with_extension("tmp");
        let written = (|| {
            let mut file = fs::File::create(&tmp)?;
            encode_into(
                std::io::BufWriter::with_capacity(1 << 20, &mut file),
                self.symmetric,
                finished,
            )?;
            Ok(file)
        })();
        let file = match written {
            Ok(file) => file,
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                return Err(e);
            }
        };
        self.pending = Some(std::thread::spawn(move || {
            let done = file.sync_all().and_then(|()| fs::rename(&tmp, &path));
            if done.is_err() {
                let _ = fs::remove_file(&tmp);
            }
            done
        }));
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.wait()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use topitop_game::{Budget, Value};

    fn sample() -> (Vec<Tier>, Vec<Vec<Record>>) {
        let tiers: Vec<Tier> = Tier::all(Budget::new(1, 1, 1, 1).unwrap())
            .into_iter()
            .take(3)
            .collect();
        let records = (0..3u16)
            .map(|k| (0..5 + k).map(|r| Record::new(Value::Win, r)).collect())
            .collect();
        (tiers, records)
    }

    /// The pairs a level's save hands over.
    fn finished<'a>(tiers: &[Tier], records: &'a [Vec<Record>]) -> Vec<(Tier, &'a [Record])> {
        tiers
            .iter()
            .copied()
            .zip(records.iter().map(Vec::as_slice))
            .collect()
    }

    #[test]
    fn a_file_round_trips() {
        let (tiers, records) = sample();
        let finished = finished(&tiers, &records);
        let bytes = encode(true, &finished);
        let back = decode(&bytes, true).unwrap();
        assert_eq!(back.len(), 3);
        for ((n, r), (t, want)) in back.iter().zip(&finished) {
            assert_eq!(*n, t.number());
            assert_eq!(r.as_slice(), *want);
        }
        assert!(decode(&bytes, false).is_none(), "the symmetry flag must match");
    }

    #[test]
    fn any_damage_is_refused() {
        let (tiers, records) = sample();
        let bytes = encode(true, &finished(&tiers, &records));
        for at in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[at] ^= 0x04;
            assert!(
                decode(&bad, true).is_none(),
                "a flipped bit at {at} went unnoticed"
            );
        }
        for cut in 0..bytes.len() {
            assert!(
                decode(&bytes[..cut], true).is_none(),
                "a file cut to {cut} bytes was taken"
            );
        }
    }

    #[test]
    fn saved_levels_are_found_again() {
        let dir = tempfile::tempdir().unwrap();
        let (tiers, records) = sample();
        let mut store = CheckpointDir::open(dir.path().join("x.ckpt"), true).unwrap();
        store
            .save(&[(tiers[0], &records[0]), (tiers[1], &records[1])])
            .unwrap();
        store.flush().unwrap();
        let mut again = CheckpointDir::open(dir.path().join("x.ckpt"), true).unwrap();
        let mut out = vec![Record::UNSOLVED; records[1].len()];
        assert!(again.load(tiers[1], &mut out));
        assert_eq!(out, records[1]);
        assert!(!again.load(tiers[2], &mut vec![Record::UNSOLVED; records[2].len()]));
        assert_eq!(again.resumed(), 1);
        again.remove().unwrap();
        assert!(!dir.path().join("x.ckpt").exists());
    }

    #[test]
    fn saving_is_due_after_the_grace_period() {
        let dir = tempfile::tempdir().unwrap();
        let store = CheckpointDir::open(dir.path().join("a.ckpt"), true).unwrap();
        assert!(store.due(), "due at once by default");
        let store = CheckpointDir::open(dir.path().join("b.ckpt"), true)
            .unwrap()
            .with_grace(Duration::from_secs(3600));
        assert!(!store.due(), "not due within the grace period");
        let store = CheckpointDir::open(dir.path().join("d.ckpt"), true)
            .unwrap()
            .with_grace(Duration::from_secs(u64::MAX));
        assert!(!store.due(), "a grace beyond the clock's range never ends");
        let store = CheckpointDir::open(dir.path().join("c.ckpt"), true)
            .unwrap()
            .with_grace(Duration::from_millis(20));
        std::thread::sleep(Duration::from_millis(30));
        assert!(store.due(), "due once it has passed");
    }

    #[test]
    fn a_level_that_cannot_be_written_fails_the_next_save_or_the_flush() {
        let dir = tempfile::tempdir().unwrap();
        let (tiers, records) = sample();
        let mut store = CheckpointDir::open(dir.path().join("x.ckpt"), true).unwrap();
        // A directory where the level's file goes: the rename onto it fails.
        let blocked = dir
            .path()
            .join("x.ckpt")
            .join(format!("{:09x}.level", tiers[0].number()));
        fs::create_dir(&blocked).unwrap();
        store.save(&[(tiers[0], &records[0])]).unwrap();
        assert!(store.save(&[(tiers[1], &records[1])]).is_err());
        fs::remove_dir(&blocked).unwrap();
        // The second level was not handed over; a third is written.
        store.save(&[(tiers[2], &records[2])]).unwrap();
        store.flush().unwrap();
        fs::create_dir(&blocked).unwrap();
        store.save(&[(tiers[0], &records[0])]).unwrap();
        assert!(store.flush().is_err());
        assert!(
            !blocked.with_extension("tmp").exists(),
            "the temporary file is left"
        );
    }
}
