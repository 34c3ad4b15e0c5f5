//! A plain interim file for solver output, until the database format
//! lands: magic `TOPISOL1`, a little-endian header, the records as
//! little-endian u16, and a trailing FNV-1a 64 checksum of everything
//! before it. Written to a temporary file, synced, then renamed.

use std::fs::{self, File};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, ensure, Context};
use topitop_game::Rules;
use topitop_solver::{Record, Solution};

const MAGIC: &[u8; 8] = b"TOPISOL1";

/// `DIR/topitop_<ruleset>_<variant>[_<budget>].sol`.
pub fn path(dir: &Path, rules: Rules) -> PathBuf {
    let budget = if rules.budget().is_standard() {
        String::new()
    } else {
        format!("_{}", rules.budget().to_string().replace('/', "-"))
    };
    dir.join(format!(
        "topitop_{}_{}{budget}.sol",
        rules.ruleset().name(),
        rules.ruleset().variant()
    ))
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

fn header(rules: Rules, symmetric: bool, count: u64) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    let b = rules.budget().counts();
    h.extend([
        u8::from(matches!(rules.ruleset(), topitop_game::Ruleset::V1(_))),
        rules.ruleset().variant().number(),
    ]);
    h.extend(b);
    h.push(u8::from(symmetric));
    h.push(0);
    h.extend(count.to_le_bytes());
    h
}

/// Writes `solution` atomically; returns the file's path.
pub fn write(dir: &Path, solution: &Solution) -> anyhow::Result<PathBuf> {
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let final_path = path(dir, solution.rules());
    let tmp = final_path.with_extension("sol.tmp");
    let file = File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let mut sum = Fnv::new();
    let h = header(
        solution.rules(),
        solution.is_symmetric(),
        solution.records().len() as u64,
    );
    sum.update(&h);
    out.write_all(&h)?;
    for chunk in solution.records().chunks(1 << 16) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|r| r.bits().to_le_bytes()).collect();
        sum.update(&bytes);
        out.write_all(&bytes)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
    }
    out.write_all(&sum.0.to_le_bytes())?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()
        .with_context(|| format!("cannot sync {}", tmp.display()))?;
    fs::rename(&tmp, &final_path)
        .with_context(|| format!("cannot rename {} to {}", tmp.display(), final_path.display()))?;
    Ok(final_path)
}

/// Reads the solution of `rules` from `dir`.
pub fn read(dir: &Path, rules: Rules) -> anyhow::Result<Solution> {
    let p = path(dir, rules);
    let mut bytes = Vec::new();
    File::open(&p)
        .with_context(|| format!("cannot open {} (run `topitop solve` first)", p.display()))?
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", p.display()))?;
    let index_len = topitop_game::StateIndex::new(rules.budget()).len();
    let h_len = header(rules, true, 0).len();
    ensure!(
        bytes.len() >= h_len + 8,
        "{}: truncated ({} bytes)",
        p.display(),
        bytes.len()
    );
    ensure!(
        &bytes[..8] == MAGIC,
        "{}: not a topitop solution file (bad magic)",
        p.display()
    );
    let symmetric = bytes[14] == 1;
    ensure!(
        bytes[..h_len] == header(rules, symmetric, index_len)[..],
        "{}: header does not match rules {} budget {}",
        p.display(),
        rules.ruleset(),
        rules.budget()
    );
    let body_end = bytes.len() - 8;
    ensure!(
        body_end - h_len == 2 * index_len as usize,
        "{}: truncated or oversized record area",
        p.display()
    );
    let mut sum = Fnv::new();
    sum.update(&bytes[..body_end]);
    let stored = u64::from_le_bytes(bytes[body_end..].try_into().expect("8 bytes"));
    if stored != sum.0 {
        bail!(
            "{}: checksum mismatch (stored {stored:#x}, computed {:#x})",
            p.display(),
            sum.0
        );
    }
    let records = bytes[h_len..body_end]
        .chunks_exact(2)
        .map(|c| Record::from_bits(u16::from_le_bytes([c[0], c[1]])))
        .collect::<Option<Vec<_>>>()
        .with_context(|| format!("{}: invalid record", p.display()))?;
    Ok(Solution::from_parts(rules, records, symmetric))
}
