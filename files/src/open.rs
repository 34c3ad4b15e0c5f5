//! Opening an input that must be a regular file.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{Error, ErrorKind};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// What kind of file `m` describes, with its article: "a FIFO", "a
/// character device", "a directory", …
pub fn describe(m: &Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_file() {
        "a regular file"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// Opens `path` for reading if it is a regular file (after following
/// symbolic links), and refuses anything else with an error that says what
/// it is. The file is opened without blocking, so a FIFO with no writer is
/// refused at once instead of hanging, and a device (`/dev/zero`) is never
/// read to the end.
///
/// # Errors
/// The file cannot be opened (a symbolic-link loop says so), or is not a
/// regular file. The message does not name the path: callers put it in
/// front, as they do for every error of the file.
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    let opened = OpenOptions::new()
        .read(true)
        // O_NONBLOCK: opening a FIFO waits for a writer without it; it has
        // no effect on the reads of a regular file. O_NOCTTY: a terminal
        // device never becomes our controlling terminal.
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path);
    let file = match opened {
        Ok(f) => f,
        Err(e) => {
            // A socket cannot be opened at all (ENXIO): say what it is.
            if let Ok(m) = std::fs::metadata(path) {
                if !m.is_file() {
                    return Err(not_regular(&m));
                }
            }
            return Err(e);
        }
    };
    let m = file.metadata()?;
    if !m.is_file() {
        return Err(not_regular(&m));
    }
    Ok(file)
}

fn not_regular(m: &Metadata) -> Error {
    let kind = if m.is_dir() {
        ErrorKind::IsADirectory
    } else {
        ErrorKind::InvalidInput
    };
    Error::new(kind, format!("it is {}, not a regular file", describe(m)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_regular_file_is_read() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a");
        std::fs::write(&p, "abc").unwrap();
        let mut s = String::new();
        open_regular(&p).unwrap().read_to_string(&mut s).unwrap();
        assert_eq!(s, "abc");
    }

    #[test]
    fn devices_folders_and_fifos_are_refused_at_once() {
        let e = open_regular(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("is a character device"), "{e}");
        let d = tempfile::tempdir().unwrap();
        let e = open_regular(d.path()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::IsADirectory);
        let fifo = d.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            // Without O_NONBLOCK this open would wait for a writer for ever.
            let e = open_regular(&fifo).unwrap_err().to_string();
            assert!(e.contains("is a FIFO"), "{e}");
        } else {
            eprintln!("mkfifo is not available: the FIFO case is skipped");
        }
    }

    #[test]
    fn a_symbolic_link_loop_says_so() {
        let d = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("b", d.path().join("a")).unwrap();
        std::os::unix::fs::symlink("a", d.path().join("b")).unwrap();
        let e = open_regular(&d.path().join("a")).unwrap_err().to_string();
        assert!(e.contains("symbolic links"), "{e}");
    }
}
