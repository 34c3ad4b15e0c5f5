//! Where a command's table goes (`export -o`): standard output, anything
//! that is not a regular file (a FIFO, a device) written in place, or a
//! regular file replaced atomically, with no temporary file left behind on
//! any failure or signal. An output is never one of the command's inputs.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;

/// An open output. Dropped without [`Output::finish`] (an error on the
/// way), it removes its temporary file and leaves the target as it was.
pub struct Output {
    writer: BufWriter<Box<dyn Write>>,
    kind: Kind,
}

enum Kind {
    Stdout,
    /// Written straight into `path` (not a regular file).
    InPlace(PathBuf),
    /// Written to `tmp`, renamed over `path` by `finish`.
    Atomic {
        path: PathBuf,
        tmp: topitop_files::temps::Temp,
        done: bool,
    },
}

impl Output {
    /// Opens `target`: `None` or `-` is standard output; a symbolic link is
    /// followed (the link stays, its target is written); a FIFO, device or
    /// socket is written in place; a regular file (or a new name) is
    /// written beside it and renamed over it at the end. A directory, or
    /// the same file as any of `inputs` (by identity: links are caught
    /// too), is refused here, before any work.
    ///
    /// # Errors
    /// `target` is a directory or an input, or cannot be opened or created.
    pub fn open(target: Option<&Path>, inputs: &[&Path]) -> anyhow::Result<Output> {
        let Some(target) = target.filter(|p| p.as_os_str() != "-") else {
            return Ok(Output::new(Box::new(std::io::stdout().lock()), Kind::Stdout));
        };
        topitop_files::refuse_overwrite(target, inputs, "the output")?;
        let path = follow_links(target)?;
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => anyhow::bail!(
                "{} is a directory: -o names the file to write (or - for standard output)",
                target.display()
            ),
            Ok(m) if !m.is_file() => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .with_context(|| format!("cannot open {}", target.display()))?;
                Ok(Output::new(
                    Box::new(Named::new(file, &path)),
                    Kind::InPlace(path),
                ))
            }
            _ => {
                remove_dead_temps(&path);
                let tmp = topitop_files::temps::Temp::beside(&path);
                let file = File::create(tmp.path()).with_context(|| {
                    format!(
                        "cannot create {} (to write {})",
                        tmp.path().display(),
                        target.display()
                    )
                })?;
                Ok(Output::new(
                    Box::new(Named::new(file, &path)),
                    Kind::Atomic {
                        path,
                        tmp,
                        done: false,
                    },
                ))
            }
        }
    }

    fn new(sink: Box<dyn Write>, kind: Kind) -> Output {
        Output {
            writer: BufWriter::with_capacity(1 << 20, sink),
            kind,
        }
    }

    /// The writer to write the table into.
    pub fn writer(&mut self) -> &mut impl Write {
        &mut self.writer
    }

    /// Flushes everything and, for a regular file, syncs the temporary
    /// file and renames it over the target. Returns the path written, if
    /// any.
    ///
    /// # Errors
    /// Writing, syncing or renaming failed; the temporary file is gone.
    pub fn finish(mut self) -> anyhow::Result<Option<PathBuf>> {
        self.writer.flush().context("cannot write the output")?;
        match &mut self.kind {
            Kind::Stdout => Ok(None),
            Kind::InPlace(path) => Ok(Some(path.clone())),
            Kind::Atomic { path, tmp, done } => {
                File::open(tmp.path())
                    .and_then(|f| f.sync_all())
                    .with_context(|| format!("cannot sync {}", tmp.path().display()))?;
                tmp.commit(|t| std::fs::rename(t, &*path))
                    .with_context(|| format!("cannot write {}", path.display()))?;
                *done = true;
                Ok(Some(path.clone()))
            }
        }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Kind::Atomic { tmp, done: false, .. } = &self.kind {
            let _ = std::fs::remove_file(tmp.path());
        }
    }
}

/// A file whose write errors name the output they are for ("No space left
/// on device" alone does not say where), keeping their kind.
struct Named {
    file: File,
    path: PathBuf,
}

impl Named {
    fn new(file: File, path: &Path) -> Named {
        Named {
            file,
            path: path.to_path_buf(),
        }
    }
}

impl Write for Named {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file
            .write(buf)
            .map_err(|e| topitop_files::named(&self.path, e))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush().map_err(|e| topitop_files::named(&self.path, e))
    }
}

/// `path` with its symbolic links followed (at most 40, as the kernel
/// does), ending at a name that may not exist yet.
fn follow_links(path: &Path) -> anyhow::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&path)
                    .with_context(|| format!("cannot read the link {}", path.display()))?;
                path = match path.parent() {
                    Some(dir) => dir.join(to),
                    None => to,
                };
            }
            _ => return Ok(path),
        }
    }
    anyhow::bail!("{}: too many levels of symbolic links", path.display())
}

/// Removes the temporary files of `path`
/// ([`topitop_files::temps::temps_beside`]) whose writer is no longer
/// running (a process killed before it could clean up). Only where `/proc`
/// tells which processes run; elsewhere nothing is removed.
fn remove_dead_temps(path: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    for (temp, pid) in topitop_files::temps::temps_beside(path).unwrap_or_default() {
        if !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = std::fs::remove_file(temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("topitop-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn names(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_regular_file_is_replaced_only_when_finished() {
        let d = dir("atomic");
        let target = d.join("t.tsv");
        std::fs::write(&target, "old").unwrap();
        let mut o = Output::open(Some(&target), &[]).unwrap();
        o.writer().write_all(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        o.finish().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(names(&d), ["t.tsv"]);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let d = dir("failed");
        let target = d.join("t.tsv");
        std::fs::write(&target, "old").unwrap();
        let mut o = Output::open(Some(&target), &[]).unwrap();
        o.writer().write_all(b"half").unwrap();
        drop(o);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(names(&d), ["t.tsv"]);
    }

    #[test]
    fn a_symlink_stays_and_its_target_is_written() {
        let d = dir("link");
        std::fs::write(d.join("real.tsv"), "old").unwrap();
        std::os::unix::fs::symlink("real.tsv", d.join("link.tsv")).unwrap();
        let mut o = Output::open(Some(&d.join("link.tsv")), &[]).unwrap();
        o.writer().write_all(b"new").unwrap();
        o.finish().unwrap();
        let m = std::fs::symlink_metadata(d.join("link.tsv")).unwrap();
        assert!(m.file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(d.join("real.tsv")).unwrap(), "new");
        assert_eq!(names(&d), ["link.tsv", "real.tsv"]);
    }

    #[test]
    fn an_input_is_refused_by_any_name() {
        let d = dir("input");
        let input = d.join("a.db");
        std::fs::write(&input, "db").unwrap();
        std::os::unix::fs::symlink("a.db", d.join("link")).unwrap();
        std::fs::hard_link(&input, d.join("hard")).unwrap();
        for name in ["a.db", "link", "hard"] {
            let e = Output::open(Some(&d.join(name)), &[&input])
                .err()
                .unwrap()
                .to_string();
            assert!(e.contains("is the input"), "{name}: {e}");
        }
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "db");
        assert_eq!(names(&d), ["a.db", "hard", "link"]);
    }

    #[test]
    fn two_outputs_to_one_target_do_not_share_a_temporary() {
        // Both once wrote `t.csv.tmp.<pid>`: the first to finish renamed it
        // away and the second could not sync it, its rows lost.
        let d = dir("two");
        let target = d.join("t.csv");
        std::os::unix::fs::symlink("t.csv", d.join("link")).unwrap();
        let mut a = Output::open(Some(&target), &[]).unwrap();
        let mut b = Output::open(Some(&d.join("link")), &[]).unwrap();
        a.writer().write_all(b"rows").unwrap();
        b.writer().write_all(b"report").unwrap();
        assert_eq!(a.finish().unwrap(), Some(target.clone()));
        assert_eq!(b.finish().unwrap(), Some(target.clone()));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "report");
        assert_eq!(names(&d), ["link", "t.csv"]);
    }

    #[test]
    fn a_directory_is_refused() {
        let d = dir("dir");
        let e = Output::open(Some(&d), &[]).err().unwrap().to_string();
        assert!(e.contains("is a directory"), "{e}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn temporaries_of_dead_writers_go_and_live_ones_stay() {
        let d = dir("stale");
        let target = d.join("t.tsv");
        // PID 4194304 is above Linux's largest (2^22): never running.
        std::fs::write(d.join("t.tsv.tmp.4194304.7"), "torn").unwrap();
        std::fs::write(d.join("t.tsv.tmp.4194304"), "torn, older name").unwrap();
        let live = topitop_files::temps::Temp::beside(&target);
        std::fs::write(live.path(), "live").unwrap();
        remove_dead_temps(&target);
        assert_eq!(
            names(&d),
            [live.path().file_name().unwrap().to_string_lossy().into_owned()]
        );
    }
}
