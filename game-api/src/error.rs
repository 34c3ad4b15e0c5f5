//! Why a game refuses a position or a move: [`GameError`], its kind and
//! its words.

use std::fmt;

/// What is wrong with a position or move a game refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The text is not written as the game writes positions or moves (a
    /// typo, or another game's notation).
    Notation,
    /// Well written, but the rules do not allow it: a position no play
    /// reaches, or a move not legal where it is played.
    Rules,
}

/// A position or move a game refuses, by [`ErrorKind`], with a sentence
/// for a person that names what was given and what is wrong.
///
/// # Examples
///
/// ```
/// use topitop_game_api::{ErrorKind, GameError};
///
/// let e = GameError::notation("\"xx\": nine cells of x, o and -");
/// assert_eq!(e.kind(), ErrorKind::Notation);
/// assert_eq!(e.to_string(), "\"xx\": nine cells of x, o and -");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameError {
    kind: ErrorKind,
    message: String,
}

impl GameError {
    /// Text not written in the game's notation.
    pub fn notation(message: impl fmt::Display) -> GameError {
        GameError {
            kind: ErrorKind::Notation,
            message: message.to_string(),
        }
    }

    /// A position or move the rules do not allow.
    pub fn rules(message: impl fmt::Display) -> GameError {
        GameError {
            kind: ErrorKind::Rules,
            message: message.to_string(),
        }
    }

    /// `text` as an error message quotes it: cut to 80 characters, an
    /// ellipsis saying where, so that a pasted file does not fill the
    /// screen.
    ///
    /// ```
    /// use topitop_game_api::GameError;
    ///
    /// assert_eq!(GameError::quoted("1_--"), "1_--");
    /// assert_eq!(GameError::quoted(&"x".repeat(100)).chars().count(), 81);
    /// ```
    pub fn quoted(text: &str) -> String {
        let mut s: String = text.chars().take(80).collect();
        if text.chars().count() > 80 {
            s.push('…');
        }
        s
    }

    /// What is wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The sentence, as [`Display`](fmt::Display) writes it.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for GameError {}
