//! The one way a board's size is written on the command line, in file
//! names and in variant ids: `RxC`, rows then columns, each a whole
//! number without sign, leading zero or space, joined by a lowercase `x`.
//! Every game with rectangular boards reads sizes through this, so one
//! string gets one answer whatever the game.

/// The rows and columns `text` writes as `RxC`, or `None` when it is not
/// written that way (a game then checks the sizes are its own).
pub fn parse_size(text: &str) -> Option<(u8, u8)> {
    let (r, c) = text.split_once('x')?;
    let number = |t: &str| -> Option<u8> {
        let canonical = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) && !t.starts_with('0');
        canonical.then(|| t.parse().ok()).flatten()
    };
    Some((number(r)?, number(c)?))
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn one_spelling_of_a_size() {
        assert_eq!(parse_size("3x4"), Some((3, 4)));
        assert_eq!(parse_size("8x8"), Some((8, 8)));
        assert_eq!(parse_size("12x10"), Some((12, 10)));
        for bad in [
            "3X3", " 3x3", "3x3 ", "+3x3", "03x3", "3x03", "3×3", "3x", "x3", "3x3x3", "0x3", "-3x3", "",
            "300x3",
        ] {
            assert_eq!(parse_size(bad), None, "{bad:?}");
        }
    }
}
