//! Tier checkpoints on disk, so that `solve` resumes after being killed.
//!
//! The solver finishes tiers a level at a time; each level's new tiers go
//! into one file in `<result>.ckpt/`, named by its first tier:
//! `<tier in hex>.level`. A file holds the magic `TOPICKP2`, the symmetry
//! flag (u8), the number of tiers (u32 LE), then per tier its number (u64
//! LE), its record count (u64 LE) and its records (u16 LE), and last an
//! FNV-1a 64 checksum of everything before it. Each is written to a
//! temporary name, synced and renamed, so a file that exists is complete;
//! one that fails its checks is ignored and its tiers solved again.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use topitop_game::Tier;
use topitop_solver::{Checkpoint, Record};

const MAGIC: &[u8; 8] = b"TOPICKP2";

/// A checkpoint directory.
pub struct TierFiles {
    dir: PathBuf,
    symmetric: bool,
    /// Records of the tiers found on disk, by tier number.
    found: HashMap<u64, Vec<Record>>,
    /// Tiers taken from earlier runs.
    pub resumed: usize,
}

impl TierFiles {
    /// Checkpoints in `dir` (created if missing) for a solve with or
    /// without symmetry; reads the ones an earlier run left.
    pub fn open(dir: PathBuf, symmetric: bool) -> anyhow::Result<TierFiles> {
        fs::create_dir_all(&dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
        let mut found = HashMap::new();
        let entries =
            fs::read_dir(&dir).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|x| x == "level") {
                if let Some(tiers) = read_level(&path, symmetric) {
                    found.extend(tiers);
                }
            }
        }
        Ok(TierFiles {
            dir,
            symmetric,
            found,
            resumed: 0,
        })
    }

    fn encode(&self, finished: &[(Tier, &[Record])]) -> Vec<u8> {
        let records: usize = finished.iter().map(|(_, r)| r.len()).sum();
        let mut out = Vec::with_capacity(21 + 16 * finished.len() + 2 * records);
        out.extend(MAGIC);
        out.push(u8::from(self.symmetric));
        out.extend((finished.len() as u32).to_le_bytes());
        for (tier, records) in finished {
            out.extend(tier.number().to_le_bytes());
            out.extend((records.len() as u64).to_le_bytes());
            for r in *records {
                out.extend(r.bits().to_le_bytes());
            }
        }
        let mut sum = Fnv::new();
        sum.update(&out);
        out.extend(sum.value().to_le_bytes());
        out
    }

    /// Removes the directory once the final result is written.
    pub fn remove(self) -> std::io::Result<()> {
        fs::remove_dir_all(&self.dir)
    }
}

/// The tiers of one checkpoint file, or `None` if it is torn, corrupt or
/// from a solve with other options.
fn read_level(path: &Path, symmetric: bool) -> Option<Vec<(u64, Vec<Record>)>> {
    let bytes = fs::read(path).ok()?;
    let body = bytes.len().checked_sub(8)?;
    let mut sum = Fnv::new();
    sum.update(&bytes[..body]);
    if bytes[body..] != sum.value().to_le_bytes() || body < 13 || &bytes[..8] != MAGIC {
        return None;
    }
    if bytes[8] != u8::from(symmetric) {
        return None;
    }
    let count = u32::from_le_bytes(bytes[9..13].try_into().ok()?);
    let mut at = 13;
    let u64_at = |at: &mut usize| -> Option<u64> {
        let v = u64::from_le_bytes(bytes.get(*at..*at + 8)?.try_into().ok()?);
        *at += 8;
        Some(v)
    };
    let mut tiers = Vec::new();
    for _ in 0..count {
        let number = u64_at(&mut at)?;
        let len = usize::try_from(u64_at(&mut at)?).ok()?;
        let raw = bytes.get(at..at.checked_add(len.checked_mul(2)?)?)?;
        at += 2 * len;
        let records = raw
            .chunks_exact(2)
            .map(|c| Record::from_bits(u16::from_le_bytes([c[0], c[1]])))
            .collect::<Option<Vec<Record>>>()?;
        tiers.push((number, records));
    }
    (at == body).then_some(tiers)
}

impl Checkpoint for TierFiles {
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

    fn save(&mut self, finished: &[(Tier, &[Record])]) -> std::io::Result<()> {
        let Some((first, _)) = finished.first() else {
            return Ok(());
        };
        let path = self.dir.join(format!("{:09x}.level", first.number()));
        let tmp = path.with_extension("tmp");
        let mut f = fs::File::create(&tmp)?;
        f.write_all(&self.encode(finished))?;
        f.sync_all()?;
        fs::rename(&tmp, &path)
    }
}

/// FNV-1a 64: a small checksum that catches torn and corrupted files.
pub struct Fnv(u64);

impl Fnv {
    /// A fresh checksum.
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    /// Adds `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    /// The checksum so far.
    pub fn value(&self) -> u64 {
        self.0
    }
}
