//! An output is never one of the inputs it is made from.

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
}
