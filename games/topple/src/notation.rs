//! Position and move strings.
//!
//! A position is five fields separated by single spaces:
//!
//! 1. the board, row R (the top) first and row 1 last, rows joined by
//!    `/`; a cell is `.` (empty) or its stack's height, a digit `1`–`9` or
//!    a parenthesised number such as `(12)`, followed by `r` or `b` if a
//!    Red or Blue pawn stands on it;
//! 2. the player to move, `r` or `b`;
//! 3. `s` and the pieces left in the supply;
//! 4. `r` and Red's pawns in reserve;
//! 5. `b` and Blue's pawns in reserve.
//!
//! The start of 3×3 with nine pieces is `.../.../... r s9 r8 b8`; after
//! Red's first move on b2, `.../.1r./... b s8 r7 b8`.
//!
//! A move is a cell (`b2`: a placement, or a first move), a cell, `>` and
//! a direction (`c3>sw`: a topple), or two cells joined by `-` (`b2-c3`: a
//! pawn's step).

use crate::board::{CellNames, Direction, Shape};
use crate::error::ParseError;
use crate::position::{Color, Position};
use crate::rules::{Move, Topple};
use topitop_game_api::GameError;

impl Topple {
    /// The string of `pos`.
    pub fn format(&self, pos: &Position) -> String {
        let s = self.shape();
        let mut out = String::new();
        for r in (0..i32::from(s.rows())).rev() {
            for c in 0..i32::from(s.cols()) {
                let cell = s.cell_at(r, c).expect("on the board");
                match pos.height(cell) {
                    0 => out.push('.'),
                    h @ 1..=9 => out.push(char::from(b'0' + h)),
                    h => out.push_str(&format!("({h})")),
                }
                if let Some(pawn) = pos.pawn(cell) {
                    out.push(pawn.letter());
                }
            }
            if r > 0 {
                out.push('/');
            }
        }
        format!(
            "{out} {} s{} r{} b{}",
            pos.turn().letter(),
            pos.supply(),
            pos.reserve(Color::Red),
            pos.reserve(Color::Blue)
        )
    }

    /// The position a string names, checked to be a position of play.
    ///
    /// # Errors
    /// A malformed string, or one [`Topple::check`] refuses (with the
    /// reason).
    pub fn parse(&self, text: &str) -> Result<Position, ParseError> {
        let pos = self.parse_syntax(text)?;
        self.check(&pos).map_err(|why| ParseError::Impossible {
            text: GameError::quoted(text),
            why,
        })?;
        Ok(pos)
    }

    /// The position a string names, unchecked.
    ///
    /// # Errors
    /// A wrong number of fields, rows or cells, or an unknown character.
    pub fn parse_syntax(&self, text: &str) -> Result<Position, ParseError> {
        let syntax = |why: String| ParseError::Syntax {
            text: GameError::quoted(text),
            why,
        };
        let fields: Vec<&str> = text.split(' ').collect();
        let [board, turn, supply, red, blue] = fields[..] else {
            return Err(syntax(format!(
                "{} fields; a position has 5 separated by single spaces, e.g. {}",
                fields.len(),
                self.format(&self.start())
            )));
        };
        let mut pos = Position::start(0);
        self.parse_board(board, &mut pos).map_err(syntax)?;
        pos.turn = match turn {
            "r" => Color::Red,
            "b" => Color::Blue,
            _ => return Err(syntax(format!("the player to move is r or b, not {turn:?}"))),
        };
        pos.supply = number(supply, 's').map_err(syntax)?;
        pos.reserve = [
            number(red, 'r').map_err(syntax)?,
            number(blue, 'b').map_err(syntax)?,
        ];
        Ok(pos)
    }

    /// Fills `pos`'s cells from the board field.
    fn parse_board(&self, board: &str, pos: &mut Position) -> Result<(), String> {
        let s = self.shape();
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != usize::from(s.rows()) {
            return Err(format!(
                "{} rows; a {s} board has {} joined by '/'",
                rows.len(),
                s.rows()
            ));
        }
        for (k, row) in rows.iter().enumerate() {
            let r = i32::from(s.rows()) - 1 - k as i32;
            let cells = parse_row(row).map_err(|why| format!("row {}: {why}", r + 1))?;
            if cells.len() != usize::from(s.cols()) {
                return Err(format!(
                    "row {} has {} cells; a {s} board has {}",
                    r + 1,
                    cells.len(),
                    s.cols()
                ));
            }
            for (c, (h, pawn)) in cells.into_iter().enumerate() {
                let cell = s.cell_at(r, c as i32).expect("on the board");
                pos.heights[usize::from(cell)] = h;
                if let Some(color) = pawn {
                    pos.put_pawn(cell, color);
                }
            }
        }
        Ok(())
    }

    /// The string of `mv`.
    pub fn format_move(&self, mv: Move) -> String {
        let s = self.shape();
        match mv {
            Move::Place { cell } => s.name(cell),
            Move::Topple { cell, dir } => format!("{}>{dir}", s.name(cell)),
            Move::Step { from, to } => format!("{}-{}", s.name(from), s.name(to)),
        }
    }

    /// The move a string names, legal or not.
    ///
    /// # Errors
    /// A string that is no move of this board.
    pub fn parse_move_syntax(&self, text: &str) -> Result<Move, ParseError> {
        let s: Shape = self.shape();
        let bad = |why: &str| ParseError::Move {
            text: GameError::quoted(text),
            why: why.to_string(),
        };
        let cell = |t: &str| {
            s.parse_cell(t)
                .ok_or_else(|| bad("a cell is a file letter and a row, e.g. b2"))
        };
        if let Some((c, d)) = text.split_once('>') {
            let dir =
                Direction::from_name(d).ok_or_else(|| bad("a direction is n, ne, e, se, s, sw, w or nw"))?;
            return Ok(Move::Topple { cell: cell(c)?, dir });
        }
        if let Some((a, b)) = text.split_once('-') {
            return Ok(Move::Step {
                from: cell(a)?,
                to: cell(b)?,
            });
        }
        Ok(Move::Place { cell: cell(text)? })
    }

    /// The move a string names, checked to be legal in `pos`.
    ///
    /// # Errors
    /// A malformed move, or one the rules do not allow in `pos`.
    pub fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, ParseError> {
        let mv = self.parse_move_syntax(text)?;
        if self.is_legal(pos, mv) {
            return Ok(mv);
        }
        let why = match (mv, self.pawn_outcome(pos)) {
            (_, Some(_)) => "the game is over".to_string(),
            (Move::Place { cell }, _) if pos.height(cell) >= 3 => {
                format!(
                    "a stack of {} topples: say where, e.g. {text}>n",
                    pos.height(cell)
                )
            }
            _ => "not among the moves: see the rules of placing (within 2 of your pawn, never on a \
                  pawn) and stepping (one step onto a stack at most one higher or lower)"
                .to_string(),
        };
        Err(ParseError::Illegal {
            text: text.to_string(),
            why,
        })
    }
}

/// The cells of a row field: (height, pawn) each.
fn parse_row(row: &str) -> Result<Vec<(u8, Option<Color>)>, String> {
    let mut cells = Vec::new();
    let mut chars = row.chars().peekable();
    while let Some(ch) = chars.next() {
        let h = match ch {
            '.' => 0,
            '1'..='9' => ch as u8 - b'0',
            '(' => {
                let digits: String = chars.by_ref().take_while(|&c| c != ')').collect();
                // One spelling a height: 1 to 9 are digits, not `(7)`.
                match digits.parse::<u8>() {
                    Ok(h) if h >= 10 && !digits.starts_with('0') => h,
                    _ => return Err(format!("({digits}) is not a height of 10 to 255")),
                }
            }
            _ => return Err(format!("unknown character {ch:?}")),
        };
        let pawn = match chars.peek() {
            Some('r') => Some(Color::Red),
            Some('b') => Some(Color::Blue),
            _ => None,
        };
        if pawn.is_some() {
            chars.next();
            if h == 0 {
                return Err("a pawn on an empty cell".into());
            }
        }
        cells.push((h, pawn));
    }
    Ok(cells)
}

/// The number after `prefix` in a field such as `s9`.
fn number(field: &str, prefix: char) -> Result<u8, String> {
    let bad = || format!("{field:?} is not {prefix} and a number up to 255");
    let digits = field.strip_prefix(prefix).ok_or_else(bad)?;
    if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
        return Err(bad());
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    digits.parse().map_err(|_| bad())
}
