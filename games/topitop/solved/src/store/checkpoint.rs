//! Solve checkpoints on disk, so that an interrupted solve resumes.
//!
//! The solver finishes tiers a level at a time; what it hands over at once
//! (a level, or every level finished since the last save) goes into one
//! file of the checkpoint directory, named by its first tier:
//! `<tier in hex>.level`. The format is in `db/FORMAT.md` ("Solve
//! checkpoints"). Each file is written to a temporary name, synced and
//! renamed, so a file that exists is complete; one that fails its checks
//! is ignored, with a warning, and its tiers are solved again. Every file
//! records what it was made from (game, rules, budget, symmetry, program):
//! a file made from anything else is never resumed, and opening the
//! directory fails with a message that says why. Nothing is saved during a
//! grace period after opening ([`CheckpointDir::with_grace`]): a solve
//! shorter than that writes no checkpoint at all.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use topitop_db::DbError;
use topitop_rules::Tier;
use topitop_table::{Checkpoint, Record};
use xxhash_rust::xxh3::Xxh3;

use crate::store::header::checksum;

/// The magic number of checkpoint format 4 (3 did not record what a file
/// was made from, 2 used FNV-1a checksums).
const MAGIC: &[u8; 8] = b"TOPICKP4";
/// The magic numbers of the formats before: their files are refused.
const OLDER: [&[u8; 8]; 2] = [b"TOPICKP3", b"TOPICKP2"];
/// The longest description of what a solve is made from.
pub const MAX_MADE_FROM: usize = 1024;

/// A directory of checkpoint files for one solve.
pub struct CheckpointDir {
    dir: PathBuf,
    /// What the solve is made from; a file made from anything else is
    /// refused.
    made_from: String,
    /// Files found damaged and ignored, one line each.
    warnings: Vec<String>,
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
    /// The checkpoints in `dir` (created if missing) of the solve that
    /// `made_from` describes: game, rules, budget or board, symmetry,
    /// program and version, as one line (at most [`MAX_MADE_FROM`] bytes).
    /// Reads the files an earlier run of the same solve left, sets aside
    /// with a warning ([`CheckpointDir::warnings`]) those that are damaged,
    /// and removes the temporary files of a save it was killed in. Only one
    /// solve may use a directory at a time: the caller holds a lock.
    ///
    /// # Errors
    /// The directory cannot be created or listed, or holds a file made
    /// from something else (other rules, an older program): resuming it
    /// would give wrong answers, so the message says what made it and
    /// which directory to remove.
    pub fn open(dir: impl Into<PathBuf>, made_from: &str) -> Result<CheckpointDir, DbError> {
        let dir = dir.into();
        let io = |source| DbError::Io {
            path: dir.clone(),
            source,
        };
        let made_from = made_from.chars().take(MAX_MADE_FROM).collect::<String>();
        let created = !dir.exists();
        fs::create_dir_all(&dir).map_err(io)?;
        let mut found = HashMap::new();
        let mut warnings = Vec::new();
        let mut entries: Vec<PathBuf> = fs::read_dir(&dir)
            .map_err(io)?
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for path in entries {
            // A run killed while saving left this; the level is solved again.
            if path.extension().is_some_and(|x| x == "tmp") {
                let _ = fs::remove_file(&path);
            }
            if path.extension().is_none_or(|x| x != "level") {
                continue;
            }
            let bytes = topitop_files::open_regular(&path).and_then(|mut f| {
                let mut b = Vec::new();
                std::io::Read::read_to_end(&mut f, &mut b).map(|_| b)
            });
            let read = match bytes {
                Ok(b) => decode(&b, &made_from),
                Err(e) => Decoded::Damaged(e.to_string()),
            };
            match read {
                Decoded::Tiers(tiers) => found.extend(tiers),
                Decoded::Damaged(why) => warnings.push(format!(
                    "{} is damaged ({why}) and is ignored: its tiers are solved again",
                    path.display()
                )),
                Decoded::Foreign(other) => {
                    if created {
                        let _ = fs::remove_dir(&dir);
                    }
                    return Err(DbError::ForeignCheckpoint {
                        path,
                        found: other,
                        expected: made_from,
                        dir,
                    });
                }
            }
        }
        Ok(CheckpointDir {
            dir,
            made_from,
            warnings,
            found,
            resumed: 0,
            pending: None,
            due_from: Some(Instant::now()),
        })
    }

    /// One line for each file found damaged and ignored on opening.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
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
        // A solve that failed before its first save leaves no empty
        // directory behind (this removes only an empty one).
        let _ = fs::remove_dir(&self.dir);
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
fn encode_into(out: impl Write, made_from: &str, finished: &[(Tier, &[Record])]) -> std::io::Result<()> {
    let mut out = Hashing {
        out,
        hash: Xxh3::new(),
    };
    out.put(MAGIC)?;
    out.put(&(made_from.len() as u16).to_le_bytes())?;
    out.put(made_from.as_bytes())?;
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
fn encode(made_from: &str, finished: &[(Tier, &[Record])]) -> Vec<u8> {
    let mut out = Vec::new();
    match encode_into(&mut out, made_from, finished) {
        Ok(()) => out,
        Err(e) => unreachable!("a Vec takes every write: {e}"),
    }
}

/// The tiers of a checkpoint file: tier number and records.
type Tiers = Vec<(u64, Vec<Record>)>;

/// What one checkpoint file holds.
#[derive(Debug)]
enum Decoded {
    /// The tiers of a file made from this solve.
    Tiers(Tiers),
    /// A torn or corrupt file: why.
    Damaged(String),
    /// An intact file made from something else: what.
    Foreign(String),
}

/// Decodes one checkpoint file of the solve `made_from`.
fn decode(bytes: &[u8], made_from: &str) -> Decoded {
    if let Some(old) = OLDER.iter().find(|m| bytes.starts_with(&m[..])) {
        return Decoded::Foreign(format!(
            "an older build of the program (checkpoint format {}, which does not record its rules)",
            char::from(old[7])
        ));
    }
    let Some(body) = bytes.len().checked_sub(8) else {
        return Decoded::Damaged(format!("{} bytes: too short", bytes.len()));
    };
    let (head, sum) = bytes.split_at(body);
    if !head.starts_with(MAGIC) {
        return Decoded::Damaged("not a checkpoint file (bad magic number)".into());
    }
    if sum != checksum(head).to_le_bytes() {
        return Decoded::Damaged("checksum mismatch: torn or corrupt".into());
    }
    // Intact from here on: what does not parse is a writer's bug, shown as damage.
    match parse(head) {
        Some((maker, _)) if maker != made_from => Decoded::Foreign(maker.to_string()),
        Some((_, tiers)) => Decoded::Tiers(tiers),
        None => Decoded::Damaged("its lengths do not add up".into()),
    }
}

/// The maker and the tiers of a checksummed file body.
fn parse(head: &[u8]) -> Option<(&str, Tiers)> {
    let mut at = MAGIC.len();
    let take = |at: &mut usize, n: usize| -> Option<&[u8]> {
        let part = head.get(*at..at.checked_add(n)?)?;
        *at += n;
        Some(part)
    };
    let maker_len = usize::from(u16::from_le_bytes(take(&mut at, 2)?.try_into().ok()?));
    let maker = std::str::from_utf8(take(&mut at, maker_len)?).ok()?;
    let count = u32::from_le_bytes(take(&mut at, 4)?.try_into().ok()?);
    let mut tiers = Vec::new();
    for _ in 0..count {
        let number = u64::from_le_bytes(take(&mut at, 8)?.try_into().ok()?);
        let len = usize::try_from(u64::from_le_bytes(take(&mut at, 8)?.try_into().ok()?)).ok()?;
        let records = take(&mut at, len.checked_mul(2)?)?
            .chunks_exact(2)
            .map(|c| Record::from_bits(u16::from_le_bytes([c[0], c[1]])))
            .collect::<Option<Vec<Record>>>()?;
        tiers.push((number, records));
    }
    (at == head.len()).then_some((maker, tiers))
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
        let tmp = topitop_files::temps::Temp::file(path.with_extension("tmp"));
        let written = (|| {
            let mut file = fs::File::create(tmp.path())?;
            encode_into(
                std::io::BufWriter::with_capacity(1 << 20, &mut file),
                &self.made_from,
                finished,
            )?;
            Ok(file)
        })();
        let file = match written {
            Ok(file) => file,
            Err(e) => {
                let _ = fs::remove_file(tmp.path());
                return Err(e);
            }
        };
        self.pending = Some(std::thread::spawn(move || {
            let done = file
                .sync_all()
                .and_then(|()| tmp.commit(|t| fs::rename(t, &path)));
            if done.is_err() {
                let _ = fs::remove_file(tmp.path());
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
    use topitop_rules::{Budget, Value};

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

    const MADE: &str = "game topitop; rules v1 variant 0; budget 1/1/1/1; symmetry on; program test";

    #[test]
    fn a_file_round_trips() {
        let (tiers, records) = sample();
        let finished = finished(&tiers, &records);
        let bytes = encode(MADE, &finished);
        let Decoded::Tiers(back) = decode(&bytes, MADE) else {
            panic!("not read back")
        };
        assert_eq!(back.len(), 3);
        for ((n, r), (t, want)) in back.iter().zip(&finished) {
            assert_eq!(*n, t.number());
            assert_eq!(r.as_slice(), *want);
        }
    }

    #[test]
    fn a_file_made_from_other_rules_or_an_older_format_is_foreign() {
        let (tiers, records) = sample();
        let bytes = encode(MADE, &finished(&tiers, &records));
        let other = MADE.replace("variant 0", "variant 4");
        assert!(matches!(decode(&bytes, &other), Decoded::Foreign(m) if m == MADE));
        let mut old = bytes.clone();
        old[..8].copy_from_slice(b"TOPICKP3");
        assert!(matches!(decode(&old, MADE), Decoded::Foreign(m) if m.contains("older build")));
    }

    #[test]
    fn any_damage_is_refused() {
        let (tiers, records) = sample();
        let bytes = encode(MADE, &finished(&tiers, &records));
        for at in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[at] ^= 0x04;
            assert!(
                matches!(decode(&bad, MADE), Decoded::Damaged(_)),
                "a flipped bit at {at} went unnoticed"
            );
        }
        for cut in 0..bytes.len() {
            assert!(
                matches!(decode(&bytes[..cut], MADE), Decoded::Damaged(_)),
                "a file cut to {cut} bytes was taken"
            );
        }
    }

    #[test]
    fn saved_levels_are_found_again() {
        let dir = tempfile::tempdir().unwrap();
        let (tiers, records) = sample();
        let mut store = CheckpointDir::open(dir.path().join("x.ckpt"), MADE).unwrap();
        store
            .save(&[(tiers[0], &records[0]), (tiers[1], &records[1])])
            .unwrap();
        store.flush().unwrap();
        let mut again = CheckpointDir::open(dir.path().join("x.ckpt"), MADE).unwrap();
        assert!(again.warnings().is_empty());
        let mut out = vec![Record::UNSOLVED; records[1].len()];
        assert!(again.load(tiers[1], &mut out));
        assert_eq!(out, records[1]);
        assert!(!again.load(tiers[2], &mut vec![Record::UNSOLVED; records[2].len()]));
        assert_eq!(again.resumed(), 1);
        again.remove().unwrap();
        assert!(!dir.path().join("x.ckpt").exists());
    }

    /// A directory `x.ckpt` in a new temporary folder holding one saved
    /// level (the first sample tier), and the samples.
    fn one_level() -> (tempfile::TempDir, Vec<Tier>, Vec<Vec<Record>>) {
        let dir = tempfile::tempdir().unwrap();
        let (tiers, records) = sample();
        let mut store = CheckpointDir::open(dir.path().join("x.ckpt"), MADE).unwrap();
        store.save(&[(tiers[0], &records[0])]).unwrap();
        store.flush().unwrap();
        (dir, tiers, records)
    }

    #[test]
    fn levels_of_another_solve_are_refused_with_both_named() {
        let (dir, _, _) = one_level();
        let other = MADE.replace("variant 0", "variant 4");
        let e = CheckpointDir::open(dir.path().join("x.ckpt"), &other)
            .err()
            .expect("a foreign level must be refused")
            .to_string();
        assert!(e.contains("variant 0") && e.contains("variant 4"), "{e}");
        assert!(e.contains("x.ckpt"), "names the directory to remove: {e}");
        // Nothing was removed: the files are the user's to judge.
        assert_eq!(fs::read_dir(dir.path().join("x.ckpt")).unwrap().count(), 1);
    }

    #[test]
    fn a_damaged_level_is_ignored_with_a_warning() {
        let (dir, tiers, records) = one_level();
        let level = dir
            .path()
            .join("x.ckpt")
            .join(format!("{:09x}.level", tiers[0].number()));
        let mut bytes = fs::read(&level).unwrap();
        let last = bytes.len() - 9;
        bytes[last] ^= 1;
        fs::write(&level, bytes).unwrap();
        let mut again = CheckpointDir::open(dir.path().join("x.ckpt"), MADE).unwrap();
        assert_eq!(again.warnings().len(), 1, "{:?}", again.warnings());
        assert!(again.warnings()[0].contains("checksum"), "{:?}", again.warnings());
        assert!(!again.load(tiers[0], &mut vec![Record::UNSOLVED; records[0].len()]));
    }

    #[test]
    fn a_directory_left_empty_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        drop(CheckpointDir::open(dir.path().join("x.ckpt"), MADE).unwrap());
        assert!(!dir.path().join("x.ckpt").exists());
    }

    #[test]
    fn saving_is_due_after_the_grace_period() {
        let dir = tempfile::tempdir().unwrap();
        let store = CheckpointDir::open(dir.path().join("a.ckpt"), MADE).unwrap();
        assert!(store.due(), "due at once by default");
        let store = CheckpointDir::open(dir.path().join("b.ckpt"), MADE)
            .unwrap()
            .with_grace(Duration::from_secs(3600));
        assert!(!store.due(), "not due within the grace period");
        let store = CheckpointDir::open(dir.path().join("d.ckpt"), MADE)
            .unwrap()
            .with_grace(Duration::from_secs(u64::MAX));
        assert!(!store.due(), "a grace beyond the clock's range never ends");
        let store = CheckpointDir::open(dir.path().join("c.ckpt"), MADE)
            .unwrap()
            .with_grace(Duration::from_millis(20));
        std::thread::sleep(Duration::from_millis(30));
        assert!(store.due(), "due once it has passed");
    }

    #[test]
    fn a_level_that_cannot_be_written_fails_the_next_save_or_the_flush() {
        let dir = tempfile::tempdir().unwrap();
        let (tiers, records) = sample();
        let mut store = CheckpointDir::open(dir.path().join("x.ckpt"), MADE).unwrap();
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
