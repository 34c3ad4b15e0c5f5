//! Options and helpers shared by the subcommands.

/// The result of a game from a position, as a person says it: `Blue wins
/// in 31`, `Red wins in 30`, `a tie in 9`, `a draw` (neither side can force
/// a win, nor end it). `names` are the players', `mover` the index of the
/// one to move, `rec` the position's record.
pub fn result_text(names: [&str; 2], mover: usize, rec: topitop_game_api::Record) -> String {
    let remoteness = if rec.is_solved() {
        i64::from(rec.remoteness())
    } else {
        -1
    };
    result_words(names, mover, topitop_serve::response::value_name(rec), remoteness)
}

/// [`result_text`] from a position object's `positionValue` and
/// `remoteness` (negative: none).
pub fn result_words(names: [&str; 2], mover: usize, value: &str, remoteness: i64) -> String {
    match value {
        "win" => format!("{} wins in {remoteness}", names[mover]),
        "lose" => format!("{} wins in {remoteness}", names[1 - mover]),
        "tie" => format!("a tie in {remoteness}"),
        "draw" => "a draw (neither side can force a win)".to_string(),
        _ => "not solved".to_string(),
    }
}

/// Every move with its value for the mover and the moves left after it
/// (its position's remoteness, as `query` counts), several to a line, so
/// that a board and its hints fit on one screen.
pub fn hint_lines(moves: &[topitop_serve::MoveResponse]) -> Vec<String> {
    const PER_LINE: usize = 6;
    moves
        .chunks(PER_LINE)
        .map(|chunk| {
            let cells: Vec<String> = chunk
                .iter()
                .map(|m| {
                    let rem = match m.estimate {
                        // An estimate: the mover's expected result.
                        Some(score) => format!(" {:.0}%", 100.0 * score),
                        None if m.remoteness < 0 || m.move_value == "draw" => String::new(),
                        None => format!(" {}", m.remoteness),
                    };
                    format!("{:<13}", format!("{} {}{rem}", m.mv, m.move_value))
                })
                .collect();
            format!("  {}", cells.concat().trim_end())
        })
        .collect()
}

/// The start position's result, first in every `stats` output.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StartResult {
    /// The start position's string.
    pub position: String,
    /// Its value for the player to move.
    pub value: &'static str,
    /// Its remoteness (`null` for a draw).
    pub remoteness: Option<u16>,
    /// [`result_text`]'s sentence.
    pub result: String,
}

impl StartResult {
    /// The result of `position` (whose record is `rec`, the player to move
    /// `mover` of `names`).
    pub fn new(
        position: String,
        names: [&str; 2],
        mover: usize,
        rec: topitop_game_api::Record,
    ) -> StartResult {
        StartResult {
            position,
            value: topitop_serve::response::value_name(rec),
            remoteness: (rec.is_solved() && rec.value() != Some(topitop_game_api::Value::Draw))
                .then(|| rec.remoteness()),
            result: result_text(names, mover, rec),
        }
    }

    /// `start position P: RESULT`, the first line of `stats`.
    pub fn line(&self) -> String {
        format!("start position {}: {}", self.position, self.result)
    }
}

/// A comparison that found differences: not a failure of the command,
/// which exits with 1 for it (as `diff` and `cmp` do), keeping 2 for
/// trouble.
#[derive(Debug)]
pub struct Differ(pub String);

impl std::fmt::Display for Differ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Differ {}

/// A game's drawing of a board ([`Presentation::show`]) ending with a line break,
/// whether or not the game ended it with one: a new game's board once ran
/// into the line after it.
///
/// [`Presentation::show`]: topitop_game_api::Presentation::show
pub fn board_text(drawing: &str) -> std::borrow::Cow<'_, str> {
    if drawing.is_empty() || drawing.ends_with('\n') {
        drawing.into()
    } else {
        format!("{drawing}\n").into()
    }
}

/// A position string the game does not read (the game's own words): the
/// command line adds, when the game was the default one, that another
/// game's positions need `--game`.
#[derive(Debug)]
pub struct BadPosition(pub topitop_game_api::GameError);

impl std::fmt::Display for BadPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for BadPosition {}

/// `why` a position string was not read, as the [`BadPosition`] error
/// every command's parse gives (`map_err(bad_position)`).
pub fn bad_position(why: topitop_game_api::GameError) -> anyhow::Error {
    anyhow::Error::new(BadPosition(why))
}

/// True when `e` is a write to a closed pipe (e.g. `topitop ... | head`),
/// which is not a failure.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The message of `e` with its causes, each once: errors that already
/// include their cause's text in their own (e.g. a file error naming the
/// file and what is wrong with it) are not followed by that text again.
pub fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.is_empty() {
            text = part;
        } else if !text.ends_with(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
    }
    text
}

/// Sizes the worker pool: `threads` workers, or one per core.
///
/// # Errors
/// A count [`check_threads`] refuses.
pub fn init_threads(threads: Option<usize>) -> anyhow::Result<()> {
    // The pool can be built once a process; a command may size it twice
    // (process 0 of a distributed solve, then the single solve it falls
    // back to), which must not fail.
    static SIZED: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    if let Some(n) = threads {
        let n = check_threads(n)?;
        if let Some(&sized) = SIZED.get() {
            anyhow::ensure!(sized == n, "the worker pool already has {sized} threads, not {n}");
            return Ok(());
        }
        rayon::ThreadPoolBuilder::new().num_threads(n).build_global()?;
        let _ = SIZED.set(n);
    }
    Ok(())
}

/// The environment variable that caps the memory commands plan with, in
/// bytes (suffixes K, M, G): for a machine shared with other work, and
/// for the tests of every memory refusal.
pub const MEMORY_LIMIT_VAR: &str = "TOPITOP_MEMORY_LIMIT";

/// Bytes of memory available to a new process (Linux's MemAvailable), if
/// the system says, capped by [`MEMORY_LIMIT_VAR`] when that is set.
pub fn available_memory() -> Option<u64> {
    let system = (|| {
        let info = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    })();
    match (system, memory_limit()) {
        (Some(s), Some(l)) => Some(s.min(l)),
        (s, l) => s.or(l),
    }
}

/// [`MEMORY_LIMIT_VAR`]'s bytes, if set to a size; a value that is not
/// one is said once on standard error and ignored.
fn memory_limit() -> Option<u64> {
    let text = std::env::var(MEMORY_LIMIT_VAR).ok()?;
    let parsed = parse_size(&text);
    if parsed.is_none() {
        static WARNED: std::sync::Once = std::sync::Once::new();
        WARNED.call_once(|| {
            eprintln!("topitop: warning: {MEMORY_LIMIT_VAR}={text:?} is not a size such as 4G, 512M or 1000000; ignored");
        });
    }
    parsed
}

/// Bytes from `text`: a whole number, optionally followed by K, M or G
/// (powers of 1024).
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return None,
    };
    if digits.is_empty() {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(1 << shift)
}

/// The most worker threads a command accepts: far beyond any machine's
/// useful parallelism for this work, far below what starves the system.
pub const MAX_THREADS: usize = 256;

/// `n` if it is a sensible `--threads` value (1 to [`MAX_THREADS`]).
///
/// # Errors
/// Zero, or more than [`MAX_THREADS`].
pub fn check_threads(n: usize) -> anyhow::Result<usize> {
    anyhow::ensure!(n > 0, "--threads must be at least 1");
    anyhow::ensure!(
        n <= MAX_THREADS,
        "--threads {n} is more than the {MAX_THREADS} this command allows (this machine has {} cores)",
        std::thread::available_parallelism().map_or(1, |c| c.get())
    );
    Ok(n)
}

/// Where a database is: `--db FILE`, or the default file for the game's
/// options under `--dir`.
#[derive(clap::Args, Clone, Debug)]
pub struct DbArgs {
    /// The game and its options.
    #[command(flatten)]
    pub rules: crate::options::GameArgs,
    /// Directory holding databases named by their rules (as `solve` writes them).
    #[arg(long, default_value = "data", value_name = "DIR")]
    pub dir: std::path::PathBuf,
    /// The database file (overrides --dir); its header names the game and
    /// variant, so it needs no other option.
    #[arg(long, value_name = "FILE")]
    pub db: Option<std::path::PathBuf>,
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_board_drawing_ends_its_line() {
        assert_eq!(super::board_text("x o\n- x"), "x o\n- x\n");
        assert_eq!(super::board_text("x o\n"), "x o\n");
        assert_eq!(super::board_text(""), "");
    }

    use super::parse_size;

    #[test]
    fn sizes_are_read_with_their_units() {
        assert_eq!(parse_size("1000"), Some(1000));
        assert_eq!(parse_size("4G"), Some(4 << 30));
        assert_eq!(parse_size(" 512m "), Some(512 << 20));
        assert_eq!(parse_size("2KiB"), Some(2048));
        for bad in [
            "",
            "G",
            "-1",
            "1.5G",
            "4X",
            "99999999999999999999",
            "20000000000G",
        ] {
            assert_eq!(parse_size(bad), None, "{bad}");
        }
    }
}
