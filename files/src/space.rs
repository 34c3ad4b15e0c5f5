//! Free space, checked before a long job rather than discovered at its end.

use std::path::Path;

/// Bytes free to an unprivileged user on the file system holding `dir`,
/// if the system says.
pub fn available_space(dir: &Path) -> Option<u64> {
    let s = rustix::fs::statvfs(dir).ok()?;
    Some(s.f_bavail.saturating_mul(s.f_frsize))
}

/// Refuses a job that needs `need` bytes in `dir` when the file system has
/// less free. `what` says what the space is for. Where the system does not
/// say, nothing is refused.
///
/// # Errors
/// Less than `need` bytes free.
pub fn ensure_space(dir: &Path, need: u64, what: &str) -> std::io::Result<()> {
    match available_space(dir) {
        Some(free) if free < need => Err(std::io::Error::new(
            std::io::ErrorKind::StorageFull,
            format!(
                "{what} needs about {} of free space in {}, but only {} is free; free some space or choose another folder",
                size(need),
                dir.display(),
                size(free)
            ),
        )),
        _ => Ok(()),
    }
}

/// A byte count as a person reads it.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{:.1} GB", b as f64 / 1e9),
        b if b >= 1 << 20 => format!("{:.1} MB", b as f64 / 1e6),
        b if b >= 1 << 10 => format!("{:.1} kB", b as f64 / 1e3),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_beyond_the_disk_is_refused_and_a_byte_is_not() {
        let d = tempfile::tempdir().unwrap();
        assert!(available_space(d.path()).is_some());
        ensure_space(d.path(), 1, "a test").unwrap();
        let e = ensure_space(d.path(), u64::MAX, "a test")
            .unwrap_err()
            .to_string();
        assert!(e.contains("a test needs about"), "{e}");
        assert!(e.contains(&d.path().display().to_string()), "{e}");
    }
}
