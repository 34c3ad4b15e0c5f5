//! Reading commands and positions from standard input one line at a time,
//! with a length limit, so that neither a line of invalid UTF-8 nor one of
//! megabytes without a newline can end or swamp a run.

use std::io::BufRead;

/// The longest line kept: far more than any position or command.
pub const MAX_LINE: usize = 1024;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text (without its newline).
    Text(String),
    /// A line that is not UTF-8; its bytes are dropped.
    NotUtf8,
    /// A line longer than [`MAX_LINE`] bytes, of this many bytes; dropped
    /// without being kept in memory.
    TooLong(u64),
}

impl Line {
    /// The text, or why there is none (short, never echoing the input).
    pub fn text(&self) -> Result<&str, String> {
        match self {
            Line::Text(t) => Ok(t),
            Line::NotUtf8 => Err("the line is not valid UTF-8".into()),
            Line::TooLong(n) => Err(format!("the line is {n} bytes long (at most {MAX_LINE})")),
        }
    }
}

/// Reads the next line from `input`, or `None` at the end.
///
/// # Errors
/// Reading fails.
pub fn next_line(input: &mut impl BufRead) -> std::io::Result<Option<Line>> {
    let mut kept = Vec::new();
    let mut len = 0u64;
    let mut seen = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        seen = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        len += chunk.len() as u64;
        if kept.len() < MAX_LINE + 1 {
            let room = MAX_LINE + 1 - kept.len();
            kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        let ended = done > chunk.len();
        input.consume(done);
        if ended {
            break;
        }
    }
    if !seen {
        return Ok(None);
    }
    if kept.last() == Some(&b'\r') && len as usize == kept.len() {
        kept.pop();
        len -= 1;
    }
    if len > MAX_LINE as u64 {
        return Ok(Some(Line::TooLong(len)));
    }
    Ok(Some(String::from_utf8(kept).map_or(Line::NotUtf8, Line::Text)))
}

/// `text` as one TSV field: a backslash, tab, line feed and carriage
/// return become `\\`, `\t`, `\n` and `\r`, and every other control
/// character `\xHH`, so that no input can add a field or a row, or put
/// a terminal escape on the reader's screen.
pub fn tsv_field(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c == '\\' || c.is_control()) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                use std::fmt::Write as _;
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8]) -> Vec<Line> {
        let mut r = std::io::BufReader::with_capacity(16, input);
        std::iter::from_fn(|| next_line(&mut r).unwrap()).collect()
    }

    #[test]
    fn lines_of_every_kind() {
        let mut input = b"a\r\n\xff\nb".to_vec();
        input.extend(vec![b'x'; 5000]);
        input.extend(b"\n\nlast");
        assert_eq!(
            all(&input),
            [
                Line::Text("a".into()),
                Line::NotUtf8,
                Line::TooLong(5001),
                Line::Text(String::new()),
                Line::Text("last".into()),
            ]
        );
        assert!(all(b"").is_empty());
        assert_eq!(all(&vec![b'y'; MAX_LINE]), [Line::Text("y".repeat(MAX_LINE))]);
    }

    #[test]
    fn a_field_never_holds_a_tab_a_newline_or_a_control_character() {
        assert_eq!(tsv_field("1_---------"), "1_---------");
        assert_eq!(tsv_field("a\tb\tc"), "a\\tb\\tc");
        assert_eq!(tsv_field("x\r\n\0\u{1b}[31m\\"), "x\\r\\n\\x00\\x1b[31m\\\\");
        assert_eq!(tsv_field("\u{7f}\u{85}"), "\\x7f\\x85");
        for c in 0..0x100u32 {
            let s = char::from_u32(c).unwrap().to_string();
            let f = tsv_field(&s);
            assert!(!f.chars().any(char::is_control), "{c:#x} -> {f:?}");
        }
    }
}
