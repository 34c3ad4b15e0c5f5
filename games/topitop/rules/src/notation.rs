//! Position strings: GamesmanClassic's one-line form and AutoGUI strings.

use crate::board::Board;
use crate::budget::Budget;
use crate::cell::{Cell, Player};
use crate::error::ParsePositionError;
use crate::geometry::{neighbour_pairs, Slide, CELLS};
use crate::moves::{Move, MoveKind, Piece};
use crate::position::Position;

/// Parses a one-line position string (`1_---------`, `2_PX-L-----`,
/// `1_LS-L-SLLS45`) and checks that the position could occur with `budget`.
///
/// # Errors
/// A malformed string, or a position that cannot arise in play; the error
/// names the input and what is wrong.
pub fn parse_position(s: &str, budget: Budget) -> Result<Position, ParsePositionError> {
    let pos = parse_position_syntax(s)?;
    pos.validate(budget)
        .map_err(|reason| ParsePositionError::Impossible {
            input: s.to_string(),
            reason,
        })?;
    Ok(pos)
}

/// Parses the syntax of a one-line position string only: the turn, nine
/// known cell letters and, if present, two digits naming neighbouring
/// cells. The result may be a raw position that play cannot reach.
///
/// # Errors
/// A malformed string.
pub fn parse_position_syntax(s: &str) -> Result<Position, ParsePositionError> {
    let input = || s.to_string();
    let chars: Vec<char> = s.chars().collect();
    if chars.len() != 11 && chars.len() != 13 {
        return Err(ParsePositionError::Length {
            input: input(),
            len: chars.len(),
        });
    }
    let turn = Player::from_digit(chars[0]).ok_or(ParsePositionError::Turn {
        input: input(),
        found: chars[0],
    })?;
    if chars[1] != '_' {
        return Err(ParsePositionError::Separator {
            input: input(),
            found: chars[1],
        });
    }
    let mut board = Board::EMPTY;
    for i in 0..CELLS {
        let c = Cell::from_char(chars[2 + i]).ok_or(ParsePositionError::UnknownCell {
            input: input(),
            cell: i + 1,
            found: chars[2 + i],
        })?;
        board = board.with(i, c);
    }
    let forbidden = if chars.len() == 13 {
        let digit = |c: char| {
            c.to_digit(10)
                .filter(|d| (1..=9).contains(d))
                .map(|d| d as usize - 1)
        };
        let slide = match (digit(chars[11]), digit(chars[12])) {
            (Some(f), Some(t)) => Slide::new(f, t),
            _ => None,
        };
        Some(slide.ok_or(ParsePositionError::Slide {
            input: input(),
            found: chars[11..].iter().collect(),
        })?)
    } else {
        None
    };
    Ok(Position::new(board, turn, forbidden))
}

/// GamesmanClassic's AutoGUI position string: `1_` or `2_` and 56 entity
/// characters (6 slots per cell, then the forbidden slide's digits or `-`).
pub fn autogui_position(pos: Position) -> String {
    format!("{}_{}", pos.turn().digit(), autogui_entities(pos))
}

/// The 56 entity characters of the AutoGUI position string (without the
/// turn prefix).
pub fn autogui_entities(pos: Position) -> String {
    let mut e = ['-'; 56];
    for (i, c) in pos.board().cells().into_iter().enumerate() {
        let j = 6 * i;
        let bucket = c.owner().map(|p| p.bucket().to_char());
        match c {
            Cell::BlueCastle | Cell::RedCastle => {
                e[j] = bucket.unwrap_or('-');
                e[j + 3] = 'S';
                e[j + 5] = 'L';
            }
            Cell::BlueSmall | Cell::RedSmall => {
                e[j + 1] = bucket.unwrap_or('-');
                e[j + 4] = 'S';
            }
            Cell::BlueBucket | Cell::RedBucket => e[j + 2] = c.to_char(),
            Cell::Castle => {
                e[j + 3] = 'S';
                e[j + 5] = 'L';
            }
            Cell::Small => e[j + 4] = 'S',
            Cell::Large => e[j + 5] = 'L',
            Cell::Empty => {}
        }
    }
    if let Some(s) = pos.forbidden() {
        e[54] = char::from(b'1' + s.from() as u8);
        e[55] = char::from(b'1' + s.to() as u8);
    }
    e.iter().collect()
}

/// The parts of an AutoGUI move string, as GamesmanClassic's builders take
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoGuiMove {
    /// A button: `A_<token>_<at>_<sound>`.
    Button {
        /// The button's image token.
        token: char,
        /// The centre index it sits on.
        at: u32,
        /// The sound key.
        sound: char,
    },
    /// An arrow: `M_<from>_<to>_<sound>`.
    Arrow {
        /// Centre index of the tail.
        from: u32,
        /// Centre index of the head.
        to: u32,
        /// The sound key.
        sound: char,
    },
}

impl AutoGuiMove {
    /// The AutoGUI form of `m`: placements are buttons at 96 + cell (buckets,
    /// `t` blue / `u` red), 105 + cell (small, `v`) and 114 + cell (large,
    /// `w`); the pass is button `P` at 123; a slide is an arrow between the
    /// two endpoints 56 + 2k and 57 + 2k of its neighbour pair k.
    pub fn of(m: Move) -> AutoGuiMove {
        match m.kind() {
            MoveKind::Pass => AutoGuiMove::Button {
                token: 'P',
                at: 123,
                sound: 'v',
            },
            MoveKind::Place { piece, cell } => {
                let (token, base, sound) = match piece {
                    Piece::BlueBucket => ('t', 96, 'y'),
                    Piece::RedBucket => ('u', 96, 'y'),
                    Piece::Small => ('v', 105, 'w'),
                    Piece::Large => ('w', 114, 'x'),
                };
                AutoGuiMove::Button {
                    token,
                    at: base + cell as u32,
                    sound,
                }
            }
            MoveKind::Slide { from, to } => {
                let pair = (from.min(to), from.max(to));
                let k = neighbour_pairs().position(|p| p == pair).unwrap_or(0) as u32;
                let (low, high) = (56 + 2 * k, 57 + 2 * k);
                let (from, to) = if to > from { (low, high) } else { (high, low) };
                AutoGuiMove::Arrow { from, to, sound: 'z' }
            }
        }
    }
}

impl std::fmt::Display for AutoGuiMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            AutoGuiMove::Button { token, at, sound } => write!(f, "A_{token}_{at}_{sound}"),
            AutoGuiMove::Arrow { from, to, sound } => write!(f, "M_{from}_{to}_{sound}"),
        }
    }
}

/// GamesmanClassic's AutoGUI move string: `A_t_100_y` for a placement,
/// `M_86_87_z` for a slide, `A_P_123_v` for the pass.
pub fn autogui_move(m: Move) -> String {
    AutoGuiMove::of(m).to_string()
}
