//! Checkpoints of a solve, so that a run cut short resumes: a directory
//! beside the database, `<database>.ckpt/`, holding the solve's maker line
//! in `MAKER` and level files, `<first part>.level`, each holding one or
//! more finished parts (a tier's records, or the bytes of a part a solver
//! keeps in its own form). Every game's solve keeps its checkpoints here:
//! the generic tier solver a tier a file, a solver that finishes tiers a
//! level at a time a level a file. The directory goes once the database is
//! written. The format is in `db/FORMAT.md` ("Solve checkpoints").

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

use topitop_files::temps::Temp;
use topitop_game_api::Record;
use xxhash_rust::xxh3::Xxh3;

use crate::error::DbError;
use crate::temps::write_atomically;

/// The first bytes of a level file (format version 3, whose head carries
/// its maker; `TOPICKL1` was version 2's, without one).
const MAGIC: [u8; 8] = *b"TOPICKL2";
/// The longest maker line a level file's head may carry.
const MAX_MAKER: usize = 4096;
/// The most parts one level file may name: a head claiming more is damaged.
const MAX_PARTS: u32 = 1 << 24;
/// Bytes encoded per write: records stream through a small buffer instead
/// of being copied whole.
const BYTES_PER_WRITE: usize = 1 << 17;
/// zstd's fastest level: a save runs on the solver's thread.
const LEVEL: i32 = 1;

/// One finished part of a solve, as a level file keeps it.
#[derive(Clone, Copy, Debug)]
pub enum Part<'a> {
    /// A tier's records, in the solver's order (2 bytes each).
    Records(&'a [Record]),
    /// Bytes in a solver's own form.
    Bytes(&'a [u8]),
}

impl Part<'_> {
    /// Its length in bytes in a level file.
    fn len(&self) -> u64 {
        match self {
            Part::Records(r) => 2 * r.len() as u64,
            Part::Bytes(b) => b.len() as u64,
        }
    }
}

/// The checkpoints of one solve.
pub struct TierCheckpoints {
    dir: PathBuf,
    /// What made the solve, written to `MAKER` with the first file kept.
    made_from: String,
    /// True once the directory and its `MAKER` are there.
    ready: bool,
    warnings: Vec<String>,
    /// The level file of each part an earlier run kept, and the part's
    /// length as the file's head declares it, read from the heads on the
    /// first load.
    index: Option<HashMap<String, (PathBuf, u64)>>,
    /// Parts read with their level file and not yet taken: a solver asks
    /// for a level's tiers one after another.
    found: HashMap<String, Vec<u8>>,
    /// The most bytes a level file's parts may add up to
    /// ([`TierCheckpoints::at_most`]).
    most: u64,
    /// The thread syncing and renaming the last file saved, if it may
    /// still run: syncing overlaps the solve instead of holding it up.
    pending: Option<JoinHandle<std::io::Result<()>>>,
}

impl TierCheckpoints {
    /// Opens the checkpoint directory `dir` of the solve `made_from`
    /// (everything that changes a record: game, variant, symmetry,
    /// program), removing what a save killed before its rename left.
    /// Nothing is created until a first file is kept, so a solve that
    /// keeps nothing leaves nothing behind.
    ///
    /// # Errors
    /// A directory made from another solve (never resumed: its records
    /// could be wrong here), one that holds kept files but no `MAKER`
    /// saying what made them, or one that cannot be read.
    pub fn open(dir: impl Into<PathBuf>, made_from: &str) -> Result<TierCheckpoints, DbError> {
        TierCheckpoints::open_as(dir.into(), made_from, true)
    }

    /// Opens the checkpoint directory `dir` that another process of the
    /// same solve has opened and made ([`TierCheckpoints::make`]), to keep
    /// parts beside it: unlike [`TierCheckpoints::open`], it removes no
    /// temporary file, for they may be the other processes' saves under
    /// way.
    ///
    /// # Errors
    /// As `open`.
    pub fn join(dir: impl Into<PathBuf>, made_from: &str) -> Result<TierCheckpoints, DbError> {
        TierCheckpoints::open_as(dir.into(), made_from, false)
    }

    /// Ignores a level file whose parts add up to more than `bytes` (the
    /// memory the whole solve needs: no level it kept can hold more)
    /// before a byte of it is decompressed, so that a file whose head
    /// promises far more than its first part cannot fill the memory.
    #[must_use]
    pub fn at_most(mut self, bytes: u64) -> TierCheckpoints {
        self.most = bytes;
        self
    }

    /// Makes the directory and its `MAKER` now rather than with the first
    /// file kept: before other processes [`TierCheckpoints::join`] it.
    ///
    /// # Errors
    /// They could not be made.
    pub fn make(&mut self) -> std::io::Result<()> {
        self.prepare()
    }

    /// Whether an earlier run kept a part named `name` (from the heads of
    /// the level files: [`TierCheckpoints::load`] reads it whole and
    /// checks it).
    pub fn holds(&mut self, name: &str) -> bool {
        self.found.contains_key(name) || self.index().contains_key(name)
    }

    fn open_as(dir: PathBuf, made_from: &str, clean: bool) -> Result<TierCheckpoints, DbError> {
        let maker = dir.join("MAKER");
        let mut ready = false;
        // The directory is this solve's own, made by it: a link would have
        // the solve clean up, write and finally remove files elsewhere.
        if dir.is_symlink() {
            return Err(DbError::corrupt(
                format!("checkpoint directory {}", dir.display()),
                "it is a symbolic link, not a directory a solve made; remove the link",
            ));
        }
        if dir.exists() {
            let names: Vec<String> = std::fs::read_dir(&dir)
                .map_err(|source| DbError::Io {
                    path: dir.clone(),
                    source,
                })?
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            for stale in names.iter().filter(|n| clean && n.contains(".tmp")) {
                let _ = std::fs::remove_file(dir.join(stale));
            }
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
                // No MAKER: a run killed between making the directory and
                // writing it, or while removing the directory once its
                // database was written. Each level file names its maker,
                // so the files of this solve are taken up and any other
                // is ignored alone: nothing for a person to clean up.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => return Err(DbError::Io { path: maker, source }),
            }
        }
        Ok(TierCheckpoints {
            dir,
            made_from: made_from.to_string(),
            ready,
            warnings: Vec::new(),
            index: None,
            found: HashMap::new(),
            most: u64::MAX,
            pending: None,
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

    /// What was set aside while resuming: damaged files, their parts
    /// solved again.
    pub fn warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    /// The level file whose first part is `name`: the name with every
    /// character other than a letter, digit, `.`, `-` or `_` written as
    /// `%XX`.
    fn file_of(&self, name: &str) -> PathBuf {
        let mut file = String::new();
        for b in name.bytes() {
            if b.is_ascii_alphanumeric() || b"._-".contains(&b) {
                file.push(char::from(b));
            } else {
                file.push_str(&format!("%{b:02X}"));
            }
        }
        file.push_str(".level");
        self.dir.join(file)
    }

    /// The records of tier `name` kept by an earlier run, if they are
    /// there and whole (`size` records under a good checksum); a damaged
    /// file is noted in [`TierCheckpoints::warnings`] and ignored.
    pub fn load(&mut self, name: &str, size: u64) -> Option<Vec<Record>> {
        let bytes = self.take(name, size.checked_mul(2)?)?;
        let records = bytes
            .chunks_exact(2)
            .map(|c| Record::from_bits(u16::from_le_bytes([c[0], c[1]])))
            .collect::<Option<Vec<Record>>>();
        if records.is_none() {
            self.warnings.push(format!(
                "{}: tier {name} holds a value that is not a record; solving it again",
                self.dir.display()
            ));
        }
        records
    }

    /// Keeps the records of the finished tier `name`.
    ///
    /// # Errors
    /// This file, or the one saved before, could not be written.
    pub fn save(&mut self, name: &str, records: &[Record]) -> std::io::Result<()> {
        self.save_level(&[(name, Part::Records(records))])
    }

    /// The records of tier `name` (`size` of them) that this solve kept
    /// with [`TierCheckpoints::save`] or took with
    /// [`TierCheckpoints::load`]: for a solve that dropped a finished tier
    /// from memory and needs it again. Unlike `load`, a file that is gone
    /// or damaged is an error, not a part to solve again: the solve has
    /// nothing else to read it from.
    ///
    /// # Errors
    /// The file is missing, damaged, or does not hold `size` records.
    pub fn reread(&mut self, name: &str, size: u64) -> std::io::Result<Vec<Record>> {
        let bytes = self.reread_bytes(name, size.saturating_mul(2))?;
        bytes
            .chunks_exact(2)
            .map(|c| Record::from_bits(u16::from_le_bytes([c[0], c[1]])))
            .collect::<Option<Vec<Record>>>()
            .ok_or_else(|| damaged(&self.file_of(name), name, "it holds a value that is not a record"))
    }

    /// The `len` bytes of part `name` that this solve kept, or that another
    /// process of it kept beside it: [`TierCheckpoints::reread`] for a
    /// part of bytes.
    ///
    /// # Errors
    /// The file is missing, damaged, or does not hold `len` bytes.
    pub fn reread_bytes(&mut self, name: &str, len: u64) -> std::io::Result<Vec<u8>> {
        self.flush()?;
        let path = self.file_of(name);
        let bad = |why: String| damaged(&path, name, &why);
        let bytes = read_level(&path, &self.made_from)
            .map_err(&bad)?
            .into_iter()
            .find_map(|(n, b)| (n == name).then_some(b))
            .ok_or_else(|| bad(format!("{name} is not there")))?;
        if bytes.len() as u64 != len {
            return Err(bad(format!("{name} holds {} bytes, not {len}", bytes.len())));
        }
        Ok(bytes)
    }

    /// The bytes kept under `name` by [`TierCheckpoints::save_bytes`] in an
    /// earlier run, if they are there and whole (`len` bytes under a good
    /// checksum); a damaged file is noted and ignored.
    pub fn load_bytes(&mut self, name: &str, len: u64) -> Option<Vec<u8>> {
        self.take(name, len)
    }

    /// Keeps `bytes` under `name`: for a solve whose finished parts are not
    /// tiers of records.
    ///
    /// # Errors
    /// This file, or the one saved before, could not be written.
    pub fn save_bytes(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        self.save_level(&[(name, Part::Bytes(bytes))])
    }

    /// Keeps the finished `parts` in one level file, named by the first:
    /// written here straight from the solver's memory (no copy), then
    /// synced and renamed into place by a thread of its own while the
    /// solve goes on. The error of the save before, if its sync or rename
    /// failed, is returned here instead, and nothing is written.
    ///
    /// # Errors
    /// The file, or the one saved before, could not be written.
    pub fn save_level(&mut self, parts: &[(&str, Part)]) -> std::io::Result<()> {
        self.flush()?;
        let Some((first, _)) = parts.first() else {
            return Ok(());
        };
        self.prepare()?;
        let path = self.file_of(first);
        let tmp = Temp::beside(&path);
        let maker = &self.made_from;
        let written = File::create(tmp.path()).and_then(|mut file| {
            encode(
                std::io::BufWriter::with_capacity(1 << 20, &mut file),
                maker,
                parts,
            )?;
            Ok(file)
        });
        let named = |e: std::io::Error, path: &Path| {
            std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
        };
        let file = match written {
            Ok(file) => file,
            Err(e) => {
                let _ = std::fs::remove_file(tmp.path());
                return Err(named(e, &path));
            }
        };
        self.pending = Some(std::thread::spawn(move || {
            let done = file
                .sync_all()
                .and_then(|()| tmp.commit(|t| std::fs::rename(t, &path)));
            if done.is_err() {
                let _ = std::fs::remove_file(tmp.path());
            }
            done.map_err(|e| named(e, &path))
        }));
        Ok(())
    }

    /// Waits for the file being synced, if any, and returns its outcome.
    ///
    /// # Errors
    /// It could not be synced or renamed into place.
    pub fn flush(&mut self) -> std::io::Result<()> {
        match self.pending.take() {
            Some(writer) => writer
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("the checkpoint writer panicked"))),
            None => Ok(()),
        }
    }

    /// The bytes of part `name`, `len` of them, as an earlier run kept
    /// them; its level file is read whole the first time one of its parts
    /// is asked for.
    fn take(&mut self, name: &str, len: u64) -> Option<Vec<u8>> {
        if !self.found.contains_key(name) {
            let (path, declared) = self.index().remove(name)?;
            // Checked from the head, before a byte is decompressed: a head
            // may promise far more than the solve would ever hold.
            let total = self
                .index()
                .values()
                .filter(|(p, _)| *p == path)
                .fold(declared, |sum, (_, n)| sum.saturating_add(*n));
            let read = if declared != len {
                Err(format!(
                    "it holds {declared} bytes of {name}, where {len} are expected"
                ))
            } else if total > self.most.max(len) {
                Err(format!(
                    "its parts add up to {total} bytes, more than the whole solve holds ({})",
                    self.most
                ))
            } else {
                read_level(&path, &self.made_from)
            };
            match read {
                Ok(parts) => {
                    for (part, bytes) in parts {
                        self.index().remove(&part);
                        self.found.insert(part, bytes);
                    }
                }
                Err(why) => {
                    self.index().retain(|_, (p, _)| *p != path);
                    self.warnings.push(format!(
                        "{} is ignored ({why}): its parts are solved again",
                        path.display()
                    ));
                    return None;
                }
            }
        }
        let bytes = self.found.remove(name)?;
        if bytes.len() as u64 == len {
            return Some(bytes);
        }
        self.warnings.push(format!(
            "{}: {name} was kept with {} bytes, but {len} are expected; solving it again",
            self.dir.display(),
            bytes.len()
        ));
        None
    }

    /// Where each part kept is, and its declared length, from the heads
    /// of the level files (read once); a file whose head does not read,
    /// that another solve made, or that is not named for its first part
    /// (so that a later reread would not find it) is noted and ignored.
    fn index(&mut self) -> &mut HashMap<String, (PathBuf, u64)> {
        if self.index.is_none() {
            let mut index = HashMap::new();
            let mut files: Vec<PathBuf> = std::fs::read_dir(&self.dir)
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "level"))
                .collect();
            files.sort();
            for path in files {
                let head = topitop_files::open_regular(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|f| read_head(&mut BufReader::new(f), &mut Xxh3::new(), &self.made_from))
                    .and_then(|parts| match parts.first() {
                        Some((first, _)) if self.file_of(first) != path => Err(format!(
                            "it is named {}, but its first part {first:?} is kept as {}",
                            file_name(&path),
                            file_name(&self.file_of(first))
                        )),
                        _ => Ok(parts),
                    });
                match head {
                    Ok(parts) => index.extend(parts.into_iter().map(|(n, len)| (n, (path.clone(), len)))),
                    Err(why) => self.warnings.push(format!(
                        "{} is ignored ({why}): its parts are solved again",
                        path.display()
                    )),
                }
            }
            self.index = Some(index);
        }
        self.index.get_or_insert_with(HashMap::new)
    }

    /// Removes the directory: the database it was for is written.
    ///
    /// # Errors
    /// It could not be removed.
    pub fn remove(mut self) -> std::io::Result<()> {
        // Its outcome no longer matters: the result it would resume is written.
        let _ = self.flush();
        match std::fs::remove_dir_all(&self.dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            done => done,
        }
    }
}

impl Drop for TierCheckpoints {
    fn drop(&mut self) {
        // No writer outlives its store; an error here has no one left to
        // tell, and the part is solved again on resuming.
        let _ = self.flush();
    }
}

/// The error of part `name`, which the solve kept in `path` and cannot
/// read back, for `why`.
fn damaged(path: &Path, name: &str, why: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!(
            "{}: {name}: {why}; run the solve again: it resumes from the other files and solves {name} again",
            path.display()
        ),
    )
}

/// A writer that also hashes what goes through it.
struct Hashing<'h, W> {
    out: W,
    hash: &'h mut Xxh3,
}

impl<W: Write> Hashing<'_, W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hash.update(bytes);
        self.out.write_all(bytes)
    }
}

/// A file's name, for messages.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// Writes a level file of the solve `maker` holding `parts` to `out`: the
/// head (magic, the maker line, count, each part's name and length), the
/// parts' bytes compressed as one zstd frame, then the XXH3-64 of the head
/// and the uncompressed bytes.
fn encode(mut out: impl Write, maker: &str, parts: &[(&str, Part)]) -> std::io::Result<()> {
    let mut hash = Xxh3::new();
    let mut head = Hashing {
        out: &mut out,
        hash: &mut hash,
    };
    head.put(&MAGIC)?;
    let maker = maker.as_bytes();
    if maker.len() > MAX_MAKER {
        return Err(std::io::Error::other(format!(
            "a solve's maker line is over {MAX_MAKER} bytes"
        )));
    }
    head.put(&(maker.len() as u16).to_le_bytes())?;
    head.put(maker)?;
    head.put(&(parts.len() as u32).to_le_bytes())?;
    for (name, part) in parts {
        let name = name.as_bytes();
        let len =
            u16::try_from(name.len()).map_err(|_| std::io::Error::other("a part's name is over 64 KiB"))?;
        head.put(&len.to_le_bytes())?;
        head.put(name)?;
        head.put(&part.len().to_le_bytes())?;
    }
    let mut body = Hashing {
        out: zstd::stream::write::Encoder::new(&mut out, LEVEL)?,
        hash: &mut hash,
    };
    let mut buf = Vec::with_capacity(BYTES_PER_WRITE);
    for (_, part) in parts {
        match part {
            Part::Bytes(b) => body.put(b)?,
            Part::Records(records) => {
                for chunk in records.chunks(BYTES_PER_WRITE / 2) {
                    buf.clear();
                    buf.extend(chunk.iter().flat_map(|r| r.bits().to_le_bytes()));
                    body.put(&buf)?;
                }
            }
        }
    }
    body.out.finish()?;
    out.write_all(&hash.digest().to_le_bytes())?;
    out.flush()
}

/// The parts a level file's head names, with their lengths in bytes,
/// hashed into `hash`; a file that names another maker than `maker` is
/// refused (its records could be wrong for this solve).
fn read_head(input: &mut impl BufRead, hash: &mut Xxh3, maker: &str) -> Result<Vec<(String, u64)>, String> {
    let mut take = |n: usize| -> Result<Vec<u8>, String> {
        let mut b = vec![0; n];
        input.read_exact(&mut b).map_err(|_| "cut short".to_string())?;
        hash.update(&b);
        Ok(b)
    };
    let magic = take(8)?;
    if magic == *b"TOPICKL1" {
        return Err("a level file of an older format, which does not say which solve made it".into());
    }
    if magic != MAGIC {
        return Err("not a checkpoint level file (bad magic number)".into());
    }
    let word = |b: Vec<u8>| b.iter().rev().fold(0u64, |a, &x| a << 8 | u64::from(x));
    let maker_len = word(take(2)?) as usize;
    if maker_len > MAX_MAKER {
        return Err(format!("its maker line is {maker_len} bytes long"));
    }
    let found = take(maker_len)?;
    if found != maker.as_bytes() {
        // Shown escaped: the line comes from a file, not from this program.
        let found = String::from_utf8_lossy(&found);
        return Err(format!(
            "another solve made it ({:?}), not this one",
            found.as_ref()
        ));
    }
    let count = word(take(4)?);
    if count > u64::from(MAX_PARTS) {
        return Err(format!("its head names {count} parts"));
    }
    let mut parts = Vec::new();
    for _ in 0..count {
        let len = word(take(2)?) as usize;
        let name = String::from_utf8(take(len)?).map_err(|_| "a part's name is not UTF-8".to_string())?;
        parts.push((name, word(take(8)?)));
    }
    Ok(parts)
}

/// Every part of the level file `path`, checked: its head, the bytes its
/// head promises (read as they come, so a head that lies runs out of
/// data rather than memory) and the checksum.
fn read_level(path: &Path, maker: &str) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut input = BufReader::new(topitop_files::open_regular(path).map_err(|e| e.to_string())?);
    let mut hash = Xxh3::new();
    let head = read_head(&mut input, &mut hash, maker)?;
    let mut body = zstd::stream::read::Decoder::with_buffer(input)
        .map_err(|e| e.to_string())?
        .single_frame();
    let mut parts = Vec::with_capacity(head.len());
    for (name, len) in head {
        // Room for what the head promises, within reason: a head that lies
        // is found out as the bytes run short, not by an allocation.
        let mut bytes = Vec::with_capacity(usize::try_from(len.min(1 << 26)).unwrap_or(0));
        (&mut body)
            .take(len)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("zstd: {e}"))?;
        if bytes.len() as u64 != len {
            return Err("cut short".into());
        }
        hash.update(&bytes);
        parts.push((name, bytes));
    }
    if body.read(&mut [0u8; 1]).map_err(|e| format!("zstd: {e}"))? != 0 {
        return Err("longer than its head says".into());
    }
    let mut rest = body.finish();
    let mut sum = [0u8; 8];
    rest.read_exact(&mut sum).map_err(|_| "cut short".to_string())?;
    if u64::from_le_bytes(sum) != hash.digest() || rest.fill_buf().map_or(true, |b| !b.is_empty()) {
        return Err("checksum mismatch".into());
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use topitop_game_api::Value;

    use super::*;

    fn records(n: u16) -> Vec<Record> {
        (0..n).map(|i| Record::new(Value::Win, i % 9)).collect()
    }

    #[test]
    fn tiers_kept_are_read_again_and_a_lost_one_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("g_v.db.ckpt");
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        c.save("a b", &records(300)).unwrap();
        // Straight after the save, while its file may still be synced.
        assert_eq!(c.reread("a b", 300).unwrap(), records(300));
        assert_eq!(c.reread("a b", 300).unwrap(), records(300), "read twice");
        c.save("c", &records(4)).unwrap();
        drop(c);
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        assert_eq!(c.load("c", 4), Some(records(4)));
        assert_eq!(c.reread("c", 4).unwrap(), records(4), "a tier resumed");
        let e = c.reread("c", 5).unwrap_err().to_string();
        assert!(
            e.contains("c.level") && e.contains("holds 8 bytes, not 10"),
            "{e}"
        );
        let e = c.reread("d", 1).unwrap_err().to_string();
        assert!(e.contains("d.level") && e.contains("solve again"), "{e}");
        let file = ckpt.join("c.level");
        let mut bytes = std::fs::read(&file).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&file, bytes).unwrap();
        let e = c.reread("c", 4).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
    }

    #[test]
    fn parts_kept_are_resumed_and_damage_is_solved_again() {
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("g_v.db.ckpt");
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        assert_eq!(c.load("a", 5), None, "nothing kept yet");
        c.save("a", &records(5)).unwrap();
        c.save("x/y z", &records(300)).unwrap();
        let level = [
            ("l1", Part::Records(&records(7)[..])),
            ("l2", Part::Bytes(b"bytes")),
        ];
        c.save_level(&level).unwrap();
        c.save("c", &records(9)).unwrap();
        drop(c);
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        assert_eq!(c.load("x/y z", 300), Some(records(300)));
        assert!(ckpt.join("x%2Fy%20z.level").exists());
        // A level's parts in any order, from one file.
        assert_eq!(c.load_bytes("l2", 5).as_deref(), Some(&b"bytes"[..]));
        assert_eq!(c.load("l1", 7), Some(records(7)));
        assert!(!ckpt.join("l2.level").exists());
        // Another size, a flipped byte, a cut file: solved again, said why.
        assert_eq!(c.load("a", 6), None);
        let file = ckpt.join("c.level");
        let mut bytes = std::fs::read(&file).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&file, &bytes).unwrap();
        assert_eq!(c.load("c", 9), None);
        std::fs::write(ckpt.join("l1.level"), &bytes[..10]).unwrap();
        let mut c2 = TierCheckpoints::open(&ckpt, "game g").unwrap();
        assert_eq!(c2.load("l1", 7), None);
        let w = c.warnings();
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].contains("where 12 are expected"), "{w:?}");
        assert!(
            w[1].contains("checksum mismatch") && w[1].contains("c.level"),
            "{w:?}"
        );
        let w = c2.warnings();
        assert!(
            w.iter().any(|w| w.contains("l1.level is ignored (cut short)")),
            "{w:?}"
        );
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
    fn a_level_promising_more_than_the_solve_holds_is_not_decompressed() {
        // An 80 kB level file whose second part promised 2 GiB of zeros
        // took a 17 MB solve to 2 GB: its first part was as expected.
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("g_v.db.ckpt");
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        let zeros = vec![0u8; 4 << 20];
        let level = [
            ("l1", Part::Records(&records(7)[..])),
            ("l2", Part::Bytes(&zeros)),
        ];
        c.save_level(&level).unwrap();
        drop(c);
        assert!(std::fs::metadata(ckpt.join("l1.level")).unwrap().len() < 4096);
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap().at_most(1 << 20);
        assert_eq!(c.load("l1", 7), None);
        let w = c.warnings();
        assert!(
            w.len() == 1
                && w[0].contains("add up to 4194318 bytes, more than the whole solve holds (1048576)"),
            "{w:?}"
        );
        // Within the bound, the same file is resumed.
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap().at_most(8 << 20);
        assert_eq!(c.load("l1", 7), Some(records(7)));
        assert_eq!(c.load_bytes("l2", 4 << 20).map(|b| b.len()), Some(4 << 20));
    }

    #[test]
    fn a_save_that_cannot_be_synced_fails_the_next_save_or_the_flush() {
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("g_v.db.ckpt");
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        c.save("a", &records(5)).unwrap();
        c.flush().unwrap();
        // The directory gone under the store: the save's file cannot be made.
        std::fs::remove_dir_all(&ckpt).unwrap();
        assert!(c.save("b", &records(5)).is_err());
        assert!(c.flush().is_ok(), "nothing was under way");
    }

    #[test]
    fn a_directory_without_its_maker_is_taken_up_file_by_file() {
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("g_v.db.ckpt");
        // Opening creates nothing: a solve that keeps nothing leaves nothing.
        let c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        assert!(!ckpt.exists());
        c.remove().unwrap();
        // An empty directory (a run killed before its MAKER) is taken up,
        // and what a save killed before its rename left is removed.
        std::fs::create_dir(&ckpt).unwrap();
        std::fs::write(ckpt.join("a.level.tmp.99999.0"), b"torn").unwrap();
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        assert!(!ckpt.join("a.level.tmp.99999.0").exists());
        c.save("a", &records(5)).unwrap();
        c.flush().unwrap();
        assert_eq!(std::fs::read_to_string(ckpt.join("MAKER")).unwrap(), "game g\n");
        drop(c);
        // Kept files with no MAKER (a run killed while removing the
        // directory): each file says which solve made it, so this solve's
        // are resumed and another's are ignored, with nothing to clean up.
        std::fs::remove_file(ckpt.join("MAKER")).unwrap();
        let mut other = TierCheckpoints::open(dir.path().join("h.ckpt"), "game h").unwrap();
        other.save("b", &records(6)).unwrap();
        other.flush().unwrap();
        std::fs::copy(dir.path().join("h.ckpt/b.level"), ckpt.join("b.level")).unwrap();
        let mut c = TierCheckpoints::open(&ckpt, "game g").unwrap();
        assert_eq!(c.load("a", 5), Some(records(5)));
        assert_eq!(c.load("b", 6), None);
        let w = c.warnings();
        assert!(
            w.len() == 1
                && w[0].contains("b.level is ignored")
                && w[0].contains("another solve made it (\"game h\")"),
            "{w:?}"
        );
    }

    /// A level file copied from another solve into this solve's directory
    /// (its MAKER this solve's) is ignored alone; a file under another
    /// part's name, and one whose head promises another length than the
    /// solve expects, are ignored before a byte of them is decompressed.
    #[test]
    fn each_level_file_is_refused_alone() {
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("g_v.db.ckpt");
        let mut c = TierCheckpoints::open(&ckpt, "game g; variant 0").unwrap();
        for name in ["a", "b", "c"] {
            c.save(name, &records(7)).unwrap();
        }
        c.flush().unwrap();
        let mut other = TierCheckpoints::open(dir.path().join("h.ckpt"), "game g; variant 4").unwrap();
        other.save("d", &records(7)).unwrap();
        other.flush().unwrap();
        drop((c, other));
        std::fs::copy(dir.path().join("h.ckpt/d.level"), ckpt.join("d.level")).unwrap();
        std::fs::rename(ckpt.join("c.level"), ckpt.join("e.level")).unwrap();
        // A head promising 2 GiB, with no data behind it.
        let mut forged = Vec::new();
        forged.extend(MAGIC);
        let maker = b"game g; variant 0";
        forged.extend((maker.len() as u16).to_le_bytes());
        forged.extend(maker);
        forged.extend(1u32.to_le_bytes());
        forged.extend(1u16.to_le_bytes());
        forged.extend(b"f");
        forged.extend((2u64 << 30).to_le_bytes());
        forged.extend([0u8; 64]);
        std::fs::write(ckpt.join("f.level"), forged).unwrap();

        let mut c = TierCheckpoints::open(&ckpt, "game g; variant 0").unwrap();
        assert_eq!(c.load("a", 7), Some(records(7)));
        assert_eq!(c.load("b", 7), Some(records(7)));
        for name in ["c", "d", "e", "f"] {
            assert_eq!(c.load(name, 7), None, "{name}");
        }
        let w = c.warnings().join("\n");
        assert!(
            w.contains("d.level is ignored (another solve made it (\"game g; variant 4\")"),
            "{w}"
        );
        assert!(
            w.contains(
                "e.level is ignored (it is named e.level, but its first part \"c\" is kept as c.level)"
            ),
            "{w}"
        );
        assert!(
            w.contains("f.level is ignored (it holds 2147483648 bytes of f, where 14 are expected)"),
            "{w}"
        );
    }

    /// A checkpoint directory that is a symbolic link is refused, and the
    /// linked folder's files are left alone.
    #[test]
    fn a_linked_directory_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("notes.tmp.txt"), b"mine").unwrap();
        let ckpt = dir.path().join("g_v.db.ckpt");
        std::os::unix::fs::symlink(&elsewhere, &ckpt).unwrap();
        let e = TierCheckpoints::open(&ckpt, "game g")
            .err()
            .expect("refused")
            .to_string();
        assert!(e.contains("symbolic link") && e.contains("g_v.db.ckpt"), "{e}");
        assert!(elsewhere.join("notes.tmp.txt").exists());
    }
}
