//! Position and move strings.
//!
//! A position is its rows from row 1 (Red's side) to row R, joined by `/`;
//! a cell is `.` (empty), `S` `M` `L` (Red's small, mid and large pieces)
//! or `s` `m` `l` (Black's). The start of 3×3 is `.../.../...`. A move is
//! a size letter and a cell number: `S7`, `M12`, `L3`.

use crate::error::ParseError;
use crate::piece::{Color, Size};
use crate::position::Position;
use crate::rules::{Move, Topolo};
use topitop_game_api::GameError;

impl Topolo {
    /// The string of `pos`.
    pub fn format(&self, pos: &Position) -> String {
        let s = self.shape();
        let mut out = String::with_capacity(usize::from(s.cells()) + usize::from(s.rows()));
        for r in 0..u32::from(s.rows()) {
            if r > 0 {
                out.push('/');
            }
            for c in 0..u32::from(s.cols()) {
                out.push(match pos.at(r * u32::from(s.cols()) + c) {
                    None => '.',
                    Some((Color::Red, size)) => size.letter(),
                    Some((Color::Black, size)) => size.letter().to_ascii_lowercase(),
                });
            }
        }
        out
    }

    /// The position a string names, checked to be one that play reaches.
    ///
    /// # Errors
    /// A wrong number of rows or cells, an unknown character, or a board
    /// that no play from the empty board reaches (with the reason).
    pub fn parse(&self, text: &str) -> Result<Position, ParseError> {
        let s = self.shape();
        let syntax = |why: String| ParseError::Syntax {
            text: GameError::quoted(text),
            why,
        };
        let rows: Vec<&str> = text.trim().split('/').collect();
        // A whole board of another shape: say which `--board` reads it.
        let widths: Vec<usize> = rows.iter().map(|r| r.chars().count()).collect();
        if widths.iter().all(|&w| w == widths[0])
            && (rows.len(), widths[0]) != (usize::from(s.rows()), usize::from(s.cols()))
        {
            let shape = u8::try_from(rows.len())
                .ok()
                .zip(u8::try_from(widths[0]).ok())
                .and_then(|(r, c)| crate::Shape::new(r, c).ok());
            if let Some(other) = shape {
                return Err(syntax(format!(
                    "{} rows of {} cells, where a {s} board has {} of {} (for a {other} board: --board {other})",
                    rows.len(),
                    widths[0],
                    s.rows(),
                    s.cols()
                )));
            }
        }
        if rows.len() != usize::from(s.rows()) {
            return Err(syntax(format!(
                "{} rows; a {s} board has {} rows joined by '/' (e.g. {})",
                rows.len(),
                s.rows(),
                self.format(&Position::EMPTY)
            )));
        }
        let mut pos = Position::EMPTY;
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().collect();
            if cells.len() != usize::from(s.cols()) {
                return Err(syntax(format!(
                    "row {} has {} cells; a {s} board has {} a row",
                    r + 1,
                    cells.len(),
                    s.cols()
                )));
            }
            for (c, &ch) in cells.iter().enumerate() {
                if ch == '.' {
                    continue;
                }
                let size = Size::from_letter(ch).ok_or_else(|| {
                    syntax(format!(
                        "{ch:?} in row {} is not a cell (use . S M L for empty and Red's pieces, s m l for Black's)",
                        r + 1
                    ))
                })?;
                let color = if ch.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                pos = pos.with((r * usize::from(s.cols()) + c) as u32, color, size);
            }
        }
        self.check(&pos).map_err(|why| ParseError::Unreachable {
            text: GameError::quoted(text),
            why,
        })?;
        Ok(pos)
    }

    /// The move a string names on this board (`S7`; either case), not yet
    /// checked against a position ([`Topolo::play_checked`] does that).
    ///
    /// # Errors
    /// Not a size letter followed by a cell number of this board.
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let bad = |why: String| ParseError::Move {
            text: GameError::quoted(text),
            why,
        };
        let t = text.trim();
        let mut chars = t.chars();
        let size = chars
            .next()
            .and_then(Size::from_letter)
            .ok_or_else(|| bad("a move is a size letter (S, M, L) and a cell number, e.g. S7".into()))?;
        let cell: u32 = chars
            .as_str()
            .parse()
            .map_err(|_| bad("a move is a size letter (S, M, L) and a cell number, e.g. S7".into()))?;
        let cells = u32::from(self.shape().cells());
        if !(1..=cells).contains(&cell) {
            return Err(bad(format!(
                "cell {cell}: the {} board has cells 1 to {cells}",
                self.shape()
            )));
        }
        Ok(Move { size, bit: cell - 1 })
    }
}
