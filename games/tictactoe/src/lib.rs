//! Tic-tac-toe behind the game interface: the smallest complete game, and
//! the template of a new one (docs/architecture.md, "Adding a game"). The
//! `topitop` command registers it only with the `toy` feature, and the
//! tests solve, store, query, export and serve it through the same
//! commands and files as the real games.
//!
//! A position is X's and O's cells as 9-bit masks (cell 1 top left to 9
//! bottom right); X moves first. A tier is the number of marks on the
//! board; its index is the board read as a base-3 number.
#![forbid(unsafe_code)]

use topitop_game_api::{Game, Options, Registered, Tiered, Value};

/// The eight lines of three.
const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// The game.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToe;

/// A position: X's and O's cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// X's cells.
    pub x: u16,
    /// O's cells.
    pub o: u16,
}

fn won(m: u16) -> bool {
    LINES.iter().any(|&l| (m & l) ^ l == 0)
}

impl Game for TicTacToe {
    type Position = Board;
    type Move = u8;

    fn name(&self) -> &'static str {
        "tictactoe"
    }

    fn variant(&self) -> String {
        "3x3".into()
    }

    fn start(&self) -> Board {
        Board::default()
    }

    fn moves(&self, pos: &Board) -> Vec<u8> {
        if self.primitive(pos).is_some() {
            return Vec::new();
        }
        (0..9).filter(|&c| (pos.x | pos.o) & (1 << c) == 0).collect()
    }

    fn play(&self, pos: &Board, mv: u8) -> Board {
        let mut b = *pos;
        if self.player_to_move(pos) == 0 {
            b.x |= 1 << mv;
        } else {
            b.o |= 1 << mv;
        }
        b
    }

    fn primitive(&self, pos: &Board) -> Option<Value> {
        if won(pos.x) || won(pos.o) {
            Some(Value::Lose)
        } else if (pos.x | pos.o) == 0o777 {
            Some(Value::Tie)
        } else {
            None
        }
    }

    fn check(&self, pos: &Board) -> Result<(), String> {
        let (x, o) = (pos.x.count_ones(), pos.o.count_ones());
        if pos.x & pos.o != 0 || (pos.x | pos.o) > 0o777 {
            return Err("a cell holds two marks".into());
        }
        if x != o && x != o + 1 {
            return Err(format!("{x} X and {o} O: X moves first"));
        }
        if won(pos.x) && (won(pos.o) || x != o + 1) {
            return Err("X has won, so O moved no more".into());
        }
        if won(pos.o) && x != o {
            return Err("O has won, so X moved no more".into());
        }
        Ok(())
    }

    fn parse_position(&self, text: &str) -> Result<Board, String> {
        let cells: Vec<char> = text.chars().filter(|&c| c != '/').collect();
        if cells.len() != 9 {
            return Err(format!("{text:?}: nine cells of x, o and -, rows joined by /"));
        }
        let mut b = Board::default();
        for (k, c) in cells.iter().enumerate() {
            match c {
                'x' | 'X' => b.x |= 1 << k,
                'o' | 'O' => b.o |= 1 << k,
                '-' => {}
                _ => return Err(format!("{text:?}: {c:?} is not x, o or -")),
            }
        }
        self.check(&b)
            .map(|()| b)
            .map_err(|e| format!("{text:?} cannot be reached: {e}"))
    }

    fn format_position(&self, pos: &Board) -> String {
        let cell = |k: u16| {
            if pos.x & (1 << k) != 0 {
                'x'
            } else if pos.o & (1 << k) != 0 {
                'o'
            } else {
                '-'
            }
        };
        (0..3)
            .map(|r| (0..3).map(|c| cell(3 * r + c)).collect::<String>())
            .collect::<Vec<_>>()
            .join("/")
    }

    fn parse_move(&self, pos: &Board, text: &str) -> Result<u8, String> {
        let cell: u8 = text
            .trim()
            .parse()
            .map_err(|_| format!("{text:?}: a move is a cell, 1 to 9"))?;
        let mv = cell
            .checked_sub(1)
            .filter(|&c| c < 9)
            .ok_or(format!("{text:?}: cells are 1 to 9"))?;
        if !self.moves(pos).contains(&mv) {
            return Err(format!("{cell} is not a legal move here"));
        }
        Ok(mv)
    }

    fn format_move(&self, mv: u8) -> String {
        (mv + 1).to_string()
    }

    fn player_names(&self) -> [&'static str; 2] {
        ["X", "O"]
    }

    fn player_to_move(&self, pos: &Board) -> usize {
        usize::from(pos.x.count_ones() > pos.o.count_ones())
    }
}

impl Tiered for TicTacToe {
    type Tier = u8;

    fn tiers(&self) -> Vec<u8> {
        (0..=9).collect()
    }

    fn tier_of(&self, pos: &Board) -> u8 {
        (pos.x | pos.o).count_ones() as u8
    }

    fn tier_size(&self, _tier: u8) -> u64 {
        3u64.pow(9)
    }

    fn index(&self, pos: &Board) -> u64 {
        (0..9).rev().fold(0, |i, k| {
            3 * i
                + if pos.x & (1 << k) != 0 {
                    1
                } else if pos.o & (1 << k) != 0 {
                    2
                } else {
                    0
                }
        })
    }

    fn position(&self, tier: u8, mut index: u64) -> Option<Board> {
        let mut b = Board::default();
        for k in 0..9 {
            match index % 3 {
                1 => b.x |= 1 << k,
                2 => b.o |= 1 << k,
                _ => {}
            }
            index /= 3;
        }
        (index == 0 && self.tier_of(&b) == tier && self.check(&b).is_ok()).then_some(b)
    }

    fn child_tiers(&self, tier: u8) -> Vec<u8> {
        if tier < 9 {
            vec![tier + 1]
        } else {
            Vec::new()
        }
    }

    fn tier_name(&self, tier: u8) -> String {
        format!("marks{tier}")
    }
}

/// No options: one board, one variant.
impl Registered for TicTacToe {
    const NAME: &'static str = "tictactoe";

    fn from_options(_: &Options) -> Result<TicTacToe, String> {
        Ok(TicTacToe)
    }

    fn from_variant(variant: &str) -> Result<TicTacToe, String> {
        if variant == "3x3" {
            Ok(TicTacToe)
        } else {
            Err(format!("{variant:?} is not a tic-tac-toe variant (only 3x3)"))
        }
    }
}
