//! `topitop convert`: rewrites a database written by an older version of
//! its format in today's, compared with the old one before it replaces
//! it (`db/FORMAT.md`, each format's version history).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::common::DbArgs;
use crate::progress::CountBar;

/// Arguments of `convert`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The database to convert.
    #[command(flatten)]
    pub db: DbArgs,
    /// Where to write the converted file (default: in place of the old
    /// one, which is replaced only once the new one is written and found
    /// to hold the same values).
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// zstd level of the new file's blocks, 1-22 (default: the format's
    /// own, as `solve` writes it).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i32).range(1..=22))]
    pub zstd_level: Option<i32>,
}

/// Converts the file at `from` (a database of the shared formats) to
/// `args.out`, or in place, and says what it did.
///
/// # Errors
/// A file of no shared format, damaged, or not written.
pub fn run_shared(from: &Path, args: &Args) -> anyhow::Result<()> {
    let to = args.out.clone().unwrap_or_else(|| from.to_path_buf());
    let bar = CountBar::new("converting", "tier passes");
    let done = topitop_db::convert::convert(from, &to, args.zstd_level, &|d, t| bar.set(d as u64, t as u64))?;
    bar.finish();
    say(&done)
}

/// Says what a conversion did.
///
/// # Errors
/// Standard output cannot be written.
pub fn say(done: &topitop_db::convert::Converted) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if done.from_version == done.to_version {
        writeln!(
            out,
            "{}: already in version {}, the current one; left as it is",
            done.path.display(),
            done.to_version
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{}: version {} to {}, {} bytes to {} ({:.1}%), every record compared",
        done.path.display(),
        done.from_version,
        done.to_version,
        done.old_bytes,
        done.new_bytes,
        100.0 * done.new_bytes as f64 / done.old_bytes.max(1) as f64
    )?;
    Ok(())
}
