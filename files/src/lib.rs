//! Files as every command of the project handles them, whatever the game:
//!
//! * [`open_regular`]: inputs are regular files, opened without ever
//!   blocking on a FIFO or reading a device to the end;
//! * [`refuse_overwrite`]: an output is never one of the command's inputs,
//!   compared by identity (device and inode), so links are caught too;
//! * [`refuse_same_output`]: two outputs of one command never name one
//!   file;
//! * [`temps`]: temporary files and folders are registered while they
//!   exist, and removed when SIGINT, SIGTERM or SIGHUP ends the process;
//! * [`ensure_space`]: a long job checks the space it needs before it
//!   starts;
//! * [`ensure_dir`]: an output folder is made only where its parent exists.
#![forbid(unsafe_code)]

mod identity;
mod open;
mod space;
pub mod temps;

pub use identity::{refuse_overwrite, refuse_same_output, same_file};
pub use open::{describe, open_regular};
pub use space::{available_space, ensure_space};

use std::path::Path;

/// Makes the folder `dir` if it is missing, but not its parents (as `mkdir`
/// without `-p`): a mistyped path is refused instead of growing a tree.
///
/// # Errors
/// `dir` is something else than a folder, its parent is missing, or it
/// cannot be made; the message names the path.
pub fn ensure_dir(dir: &Path) -> std::io::Result<()> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => return Ok(()),
        Ok(m) => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!("{} is {}, not a directory", dir.display(), describe(&m)),
            ))
        }
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(named(dir, e)),
        Err(_) => {}
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match std::fs::metadata(parent) {
        Ok(m) if m.is_dir() => {}
        Ok(m) => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                format!(
                    "cannot make {}: {} is {}, not a directory",
                    dir.display(),
                    parent.display(),
                    describe(&m)
                ),
            ))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "cannot make {}: its parent folder {} does not exist (make it first)",
                    dir.display(),
                    parent.display()
                ),
            ))
        }
        Err(e) => return Err(named(parent, e)),
    }
    match std::fs::create_dir(dir) {
        Ok(()) => Ok(()),
        // Made meanwhile by another process: fine if it is a folder.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        Err(e) => Err(named(dir, e)),
    }
}

/// `e` with `path` in its message, keeping its kind (so that, e.g., a
/// broken pipe is still recognised as one).
pub fn named(path: &Path, e: std::io::Error) -> std::io::Error {
    let text = e.to_string();
    let shown = path.display().to_string();
    if text.contains(&shown) {
        return e;
    }
    std::io::Error::new(e.kind(), format!("{shown}: {text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_made_only_under_an_existing_parent() {
        let d = tempfile::tempdir().unwrap();
        ensure_dir(&d.path().join("a")).unwrap();
        assert!(d.path().join("a").is_dir());
        ensure_dir(&d.path().join("a")).unwrap();
        let e = ensure_dir(&d.path().join("missing/sub")).unwrap_err().to_string();
        assert!(e.contains("does not exist"), "{e}");
        assert!(!d.path().join("missing").exists());
        std::fs::write(d.path().join("f"), "x").unwrap();
        let e = ensure_dir(&d.path().join("f")).unwrap_err().to_string();
        assert!(e.contains("a regular file, not a directory"), "{e}");
    }

    #[test]
    fn a_named_error_keeps_its_kind_and_names_the_path_once() {
        let e = named(
            Path::new("/x/y"),
            std::io::Error::from(std::io::ErrorKind::BrokenPipe),
        );
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe);
        assert!(e.to_string().starts_with("/x/y: "), "{e}");
        let again = named(Path::new("/x/y"), e);
        assert_eq!(again.to_string().matches("/x/y").count(), 1);
    }
}
