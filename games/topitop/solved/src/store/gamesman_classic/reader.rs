//! Reading GamesmanClassic's tier files: finding them in a directory and
//! decompressing one whole (all its gzip members).

use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use topitop_db::DbError;

use super::{FILE_VERSION, HEADER_BYTES};

/// One tier file found in a directory.
#[derive(Clone, Debug)]
pub struct TierFile {
    /// The file.
    pub path: PathBuf,
    /// The GamesmanClassic option number in its name.
    pub option: u64,
    /// The tier number in its name.
    pub tier: u64,
}

/// The tier files in `dir` (or in `dir/data/mtopitop_*_tierdb`, or
/// `dir/mtopitop_*_tierdb`), sorted by option and tier.
///
/// # Errors
/// The directory cannot be read, or holds no tier files.
pub fn find_tier_files(dir: &Path) -> Result<Vec<TierFile>, DbError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| DbError::Io { path, source }
    };
    // A missing or wrong path is named as such, not as a folder without
    // tier files.
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(m) => {
            return Err(io(dir)(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                format!("{}, not a directory of tier files", topitop_files::describe(&m)),
            )))
        }
        Err(e) => return Err(io(dir)(e)),
    }
    let mut dirs = vec![dir.to_path_buf()];
    for base in [dir.to_path_buf(), dir.join("data")] {
        if let Ok(entries) = std::fs::read_dir(&base) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.starts_with("mtopitop_") && name.ends_with("_tierdb") {
                    dirs.push(e.path());
                }
            }
        }
    }
    let mut out = Vec::new();
    for d in &dirs {
        let Ok(entries) = std::fs::read_dir(d) else {
            continue;
        };
        for e in entries {
            let e = e.map_err(io(d))?;
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(stem) = name
                .strip_prefix("mtopitop_")
                .and_then(|s| s.strip_suffix("_tierdb.dat.gz"))
            else {
                continue;
            };
            let mut parts = stem.split('_');
            let (Some(o), Some(t), None) = (parts.next(), parts.next(), parts.next()) else {
                continue;
            };
            if let (Ok(option), Ok(tier)) = (o.parse(), t.parse()) {
                out.push(TierFile {
                    path: e.path(),
                    option,
                    tier,
                });
            }
        }
    }
    if out.is_empty() {
        return Err(DbError::Io {
            path: dir.to_path_buf(),
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no GamesmanClassic Topitop tier files (mtopitop_<option>_<tier>_tierdb.dat.gz) here",
            ),
        });
    }
    out.sort_by_key(|f| (f.option, f.tier));
    Ok(out)
}

/// Reads a whole tier file, checking its version and that it holds
/// `expected_size` records.
///
/// # Errors
/// I/O or gzip errors, a bad version, or a size mismatch; naming the file.
pub fn read_tier_file(path: &Path, expected_size: u64) -> Result<Vec<u16>, DbError> {
    let io = |source| DbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = topitop_files::open_regular(path).map_err(io)?;
    let mut z = MultiGzDecoder::new(BufReader::new(file));
    let mut head = [0u8; HEADER_BYTES];
    z.read_exact(&mut head).map_err(io)?;
    let version = u16::from_be_bytes([head[0], head[1]]);
    let bad = |detail: String| DbError::corrupt("GamesmanClassic tier file", detail).in_file(path);
    if version != FILE_VERSION {
        return Err(bad(format!("version {version}, expected {FILE_VERSION}")));
    }
    let low = u32::from_be_bytes([head[2], head[3], head[4], head[5]]);
    let high = u32::from_be_bytes([head[6], head[7], head[8], head[9]]);
    let size = u64::from(high) << 32 | u64::from(low);
    if size != expected_size {
        return Err(bad(format!("tier size {size}, expected {expected_size}")));
    }
    let mut bytes = Vec::with_capacity(2 * size as usize);
    // Read one byte past what the tier implies, never more: a file that
    // decompresses to gigabytes is refused after 2·size + 1 bytes.
    z.take(2 * size + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 != 2 * size {
        return Err(bad(format!("{} record bytes for {size} records", bytes.len())));
    }
    Ok(bytes
        .chunks_exact(2)
        .map(|c| u16::from_be_bytes([c[0], c[1]]))
        .collect())
}
