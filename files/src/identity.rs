//! An output is never one of the inputs it is made from.
//!
//! Whether two paths are one file is told from their metadata (device and
//! inode), never by opening them: the `same-file` crate (ripgrep's) opens
//! both paths to compare handles, and opening a FIFO for reading blocks
//! until something writes to it, so `-o fifo` beside an input would hang
//! the command before it said a word (tools/tests/it/hostile.rs gives
//! FIFOs for every file argument).

use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// True when `a` and `b` are the same file (same device and inode, after
/// following symbolic links), however they are named. A path that does not
/// exist is nobody's file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Refuses to write `output` when it is the same file as any of `inputs`
/// (by identity, so hard and symbolic links are caught): writing would
/// destroy the input the output is made from. `what` names the output's
/// option in the message, e.g. `--report`.
///
/// # Errors
/// `output` is one of the inputs.
pub fn refuse_overwrite(output: &Path, inputs: &[&Path], what: &str) -> std::io::Result<()> {
    match inputs.iter().find(|i| same_file(output, i)) {
        Some(input) => Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!(
                "{what} {} is the input {} itself: writing it would destroy the input; choose another output",
                output.display(),
                input.display()
            ),
        )),
        None => Ok(()),
    }
}

/// Refuses two outputs of one command that name one file: `a` and `b`
/// (each with its option's name, e.g. `-o`) are both standard output
/// (`-`), the same existing regular file by identity (so hard and
/// symbolic links are caught), or the same new name once links and `..`
/// are resolved. The second output written would replace the first.
/// Devices and FIFOs (`/dev/null` twice) are written in place, one output
/// after the other, and are let through.
///
/// # Errors
/// `a` and `b` name one file; the message names both options and the file.
pub fn refuse_same_output(a: (&str, &Path), b: (&str, &Path)) -> std::io::Result<()> {
    let (stdout_a, stdout_b) = (a.1.as_os_str() == "-", b.1.as_os_str() == "-");
    let same = match (std::fs::metadata(a.1), std::fs::metadata(b.1)) {
        _ if stdout_a || stdout_b => stdout_a && stdout_b,
        (Ok(x), Ok(y)) => x.is_file() && x.dev() == y.dev() && x.ino() == y.ino(),
        (Err(_), Err(_)) => resolved(a.1).is_some_and(|r| resolved(b.1).as_ref() == Some(&r)),
        _ => false,
    };
    if !same {
        return Ok(());
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        format!(
            "{} {} and {} {} name the same file: the one written last would replace the other; \
             give each output its own file",
            a.0,
            a.1.display(),
            b.0,
            b.1.display()
        ),
    ))
}

/// Where a path that does not exist yet would be created: its symbolic
/// links followed (at most 40, as the kernel does), then its folder made
/// canonical. `None` when the folder does not exist either.
fn resolved(path: &Path) -> Option<std::path::PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::read_link(&path) {
            Ok(to) => path = path.parent().map_or(to.clone(), |dir| dir.join(&to)),
            Err(_) => break,
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(dir).ok()?.join(path.file_name()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_links_of_one_file_are_one_file() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.db");
        std::fs::write(&a, "x").unwrap();
        std::fs::hard_link(&a, d.path().join("hard")).unwrap();
        std::os::unix::fs::symlink("a.db", d.path().join("soft")).unwrap();
        for other in ["a.db", "hard", "soft", "./a.db"] {
            let e = refuse_overwrite(&d.path().join(other), &[&a], "-o").unwrap_err();
            assert!(e.to_string().contains("is the input"), "{other}: {e}");
        }
        std::fs::write(d.path().join("b"), "x").unwrap();
        refuse_overwrite(&d.path().join("b"), &[&a], "-o").unwrap();
        refuse_overwrite(&d.path().join("new"), &[&a], "-o").unwrap();
    }

    #[test]
    fn two_outputs_naming_one_file_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let p = |n: &str| d.path().join(n);
        std::fs::write(p("old.csv"), "x").unwrap();
        std::fs::create_dir(p("sub")).unwrap();
        std::os::unix::fs::symlink("old.csv", p("to-old")).unwrap();
        std::os::unix::fs::symlink("new.csv", p("to-new")).unwrap();
        std::fs::hard_link(p("old.csv"), p("hard")).unwrap();
        let same = [
            (p("old.csv"), p("old.csv")),
            (p("old.csv"), p("to-old")),
            (p("old.csv"), p("hard")),
            (p("new.csv"), p("new.csv")),
            (p("new.csv"), p("to-new")),
            (p("new.csv"), p("sub/../new.csv")),
            ("-".into(), "-".into()),
        ];
        for (a, b) in &same {
            let e = refuse_same_output(("-o", a), ("--report", b))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("-o ") && e.contains("--report ") && e.contains("name the same file"),
                "{e}"
            );
        }
        let different = [
            (p("old.csv"), p("new.csv")),
            (p("new.csv"), p("sub/new.csv")),
            (p("new.csv"), "-".into()),
            ("/dev/null".into(), "/dev/null".into()),
        ];
        for (a, b) in &different {
            refuse_same_output(("-o", a), ("--report", b)).unwrap();
        }
    }
}
