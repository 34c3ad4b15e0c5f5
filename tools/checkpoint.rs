//! Tier checkpoints on disk, so that `solve` resumes after being killed.
//!
//! One file per finished tier in `<result>.ckpt/`: magic `TOPICKP1`, the
//! tier number (u64 LE), the symmetry flag (u8), the record count (u64 LE),
//! the records (u16 LE) and an FNV-1a 64 checksum of all that. Each is
//! written to a temporary name, synced and renamed, so a file that exists
//! is complete; one that fails its checks is ignored and solved again.

use std::fs;
use std::io::Write;
use std::path::PathBuf;

use topitop_game::Tier;
use topitop_solver::{Checkpoint, Record};

const MAGIC: &[u8; 8] = b"TOPICKP1";

/// A checkpoint directory.
pub struct TierFiles {
    dir: PathBuf,
    symmetric: bool,
    /// Tiers taken from earlier runs.
    pub resumed: usize,
}

impl TierFiles {
    /// Checkpoints in `dir` (created if missing) for a solve with or
    /// without symmetry.
    pub fn open(dir: PathBuf, symmetric: bool) -> anyhow::Result<TierFiles> {
        fs::create_dir_all(&dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
        Ok(TierFiles {
            dir,
            symmetric,
            resumed: 0,
        })
    }

    fn path(&self, tier: Tier) -> PathBuf {
        self.dir.join(format!("{:09x}.tier", tier.number()))
    }

    fn encode(&self, tier: Tier, records: &[Record]) -> Vec<u8> {
        let mut out = Vec::with_capacity(33 + 2 * records.len());
        out.extend(MAGIC);
        out.extend(tier.number().to_le_bytes());
        out.push(u8::from(self.symmetric));
        out.extend((records.len() as u64).to_le_bytes());
        for r in records {
            out.extend(r.bits().to_le_bytes());
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

impl Checkpoint for TierFiles {
    fn load(&mut self, tier: Tier, records: &mut [Record]) -> bool {
        let Ok(bytes) = fs::read(self.path(tier)) else {
            return false;
        };
        let expected_len = 8 + 8 + 1 + 8 + 2 * records.len() + 8;
        if bytes.len() != expected_len || !header_matches(&bytes, tier, self.symmetric, records.len()) {
            return false;
        }
        let body = bytes.len() - 8;
        let mut sum = Fnv::new();
        sum.update(&bytes[..body]);
        if bytes[body..] != sum.value().to_le_bytes() {
            return false;
        }
        let decoded: Option<Vec<Record>> = bytes[25..body]
            .chunks_exact(2)
            .map(|c| Record::from_bits(u16::from_le_bytes([c[0], c[1]])))
            .collect();
        match decoded {
            Some(d) => {
                records.copy_from_slice(&d);
                self.resumed += 1;
                true
            }
            None => false,
        }
    }

    fn save(&mut self, tier: Tier, records: &[Record]) -> std::io::Result<()> {
        let path = self.path(tier);
        let tmp = path.with_extension("tmp");
        let mut f = fs::File::create(&tmp)?;
        f.write_all(&self.encode(tier, records))?;
        f.sync_all()?;
        fs::rename(&tmp, &path)
    }
}

fn header_matches(bytes: &[u8], tier: Tier, symmetric: bool, count: usize) -> bool {
    bytes.len() >= 25
        && &bytes[..8] == MAGIC
        && bytes[8..16] == tier.number().to_le_bytes()
        && bytes[16] == u8::from(symmetric)
        && bytes[17..25] == (count as u64).to_le_bytes()
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
