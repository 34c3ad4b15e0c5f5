//! What can go wrong with a database file.

use std::path::PathBuf;

/// A database error. Every error names what is wrong; errors from files
/// carry the path through [`DbError::File`].
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// An I/O error on a file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Something wrong with a file's content.
    #[error("{path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: Box<DbError>,
    },
    /// Not a Topitop database at all.
    #[error("not a topitop database (bad magic number)")]
    BadMagic,
    /// A format version this reader does not know.
    #[error("{format} version {found} is not supported (this reader knows {})", versions(.known))]
    UnsupportedVersion {
        /// The format, e.g. `value database format`.
        format: &'static str,
        /// The version the file gives.
        found: u16,
        /// The versions this reader knows.
        known: &'static [u16],
    },
    /// The file ends before a structure it must hold.
    #[error("truncated: {what} needs bytes {start}..{end} but the file has {len}")]
    Truncated {
        /// The structure.
        what: &'static str,
        /// Its first byte.
        start: u64,
        /// One past its last byte.
        end: u64,
        /// The file length.
        len: u64,
    },
    /// A checksum does not match.
    #[error("checksum mismatch in {what}: stored {stored:016x}, computed {computed:016x}")]
    Checksum {
        /// The structure.
        what: String,
        /// The stored checksum.
        stored: u64,
        /// The checksum of the bytes read.
        computed: u64,
    },
    /// A header or table field out of range or inconsistent.
    #[error("corrupt {what}: {detail}")]
    Corrupt {
        /// The structure.
        what: String,
        /// What is wrong.
        detail: String,
    },
    /// A checkpoint file made from another solve (other rules, an older
    /// program): resuming it would give wrong answers. The lines are shown
    /// escaped: the one found comes from a file.
    #[error(
        "{path} was made from {found:?}, not from this solve ({expected:?}), and is never resumed; \
         remove {dir} to solve from the start (or run the solve that made it)"
    )]
    ForeignCheckpoint {
        /// The file.
        path: PathBuf,
        /// What made it.
        found: String,
        /// What this solve is made from.
        expected: String,
        /// Its directory.
        dir: PathBuf,
    },
    /// A tiered database of another game or variant than the one asked for.
    #[error("{path} holds {found}, not {expected}")]
    OtherGame {
        /// The file.
        path: PathBuf,
        /// The game and variant it holds.
        found: String,
        /// The game and variant asked for.
        expected: String,
    },
    /// Something the database does not hold: a position (and the game's
    /// word on why), a tier or an index of one.
    #[error("{0} is not in this database")]
    NotIndexable(String),
}

/// `text`, a name read from a file's header, if it holds no control
/// character: such a file was not written by this program, and printing
/// the name could clear the terminal or fake a line of output.
///
/// # Errors
/// [`DbError::Corrupt`], the name shown escaped.
pub fn printable(text: String) -> Result<String, DbError> {
    if text.chars().any(char::is_control) {
        return Err(DbError::corrupt(
            "header",
            format!(
                "a name in it holds control characters ({:?}): not a file this program wrote",
                text
            ),
        ));
    }
    Ok(text)
}

/// `version 1`, `versions 1 and 2`, `versions 1, 2 and 3`.
fn versions(known: &[u16]) -> String {
    match known {
        [] => "no version".into(),
        [v] => format!("version {v}"),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(u16::to_string).collect();
            format!("versions {} and {last}", rest.join(", "))
        }
    }
}

impl DbError {
    /// This error, naming `path`.
    pub fn in_file(self, path: impl Into<PathBuf>) -> DbError {
        match self {
            e @ (DbError::Io { .. }
            | DbError::File { .. }
            | DbError::ForeignCheckpoint { .. }
            | DbError::OtherGame { .. }) => e,
            e => DbError::File {
                path: path.into(),
                source: Box::new(e),
            },
        }
    }

    /// A [`DbError::Corrupt`]: `what` (a structure) and what is wrong with it.
    pub fn corrupt(what: impl Into<String>, detail: impl Into<String>) -> DbError {
        DbError::Corrupt {
            what: what.into(),
            detail: detail.into(),
        }
    }
}
