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

mod art;

use topitop_game_api::{BoardArt, Game, GameError, Options, Presentation, Registered, Search, Tiered, Value};

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
        if self.mover(pos) == 0 {
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

    fn check(&self, pos: &Board) -> Result<(), GameError> {
        let (x, o) = (pos.x.count_ones(), pos.o.count_ones());
        let why = if pos.x & pos.o != 0 || (pos.x | pos.o) > 0o777 {
            "a cell holds two marks".to_string()
        } else if x != o && x != o + 1 {
            format!("{x} X and {o} O: X moves first")
        } else if won(pos.x) && (won(pos.o) || x != o + 1) {
            "X has won, so O moved no more".to_string()
        } else if won(pos.o) && x != o {
            "O has won, so X moved no more".to_string()
        } else {
            return Ok(());
        };
        Err(GameError::rules(why))
    }

    fn parse_position(&self, text: &str) -> Result<Board, GameError> {
        let cells: Vec<char> = text.chars().filter(|&c| c != '/').collect();
        if cells.len() != 9 {
            return Err(GameError::notation(format!(
                "{text:?}: nine cells of x, o and -, rows joined by /"
            )));
        }
        let mut b = Board::default();
        for (k, c) in cells.iter().enumerate() {
            match c {
                'x' | 'X' => b.x |= 1 << k,
                'o' | 'O' => b.o |= 1 << k,
                '-' => {}
                _ => return Err(GameError::notation(format!("{text:?}: {c:?} is not x, o or -"))),
            }
        }
        self.check(&b)
            .map(|()| b)
            .map_err(|e| GameError::rules(format!("{text:?} cannot be reached: {e}")))
    }

    fn format_position(&self, pos: &Board) -> String {
        (0..3)
            .map(|r| (0..3).map(|c| self.mark(pos, 3 * r + c)).collect::<String>())
            .collect::<Vec<_>>()
            .join("/")
    }

    fn parse_move(&self, pos: &Board, text: &str) -> Result<u8, GameError> {
        let cell: u8 = text
            .trim()
            .parse()
            .map_err(|_| GameError::notation(format!("{text:?}: a move is a cell, 1 to 9")))?;
        let mv = cell
            .checked_sub(1)
            .filter(|&c| c < 9)
            .ok_or_else(|| GameError::notation(format!("{text:?}: cells are 1 to 9")))?;
        if !self.moves(pos).contains(&mv) {
            return Err(GameError::rules(format!("{cell} is not a legal move here")));
        }
        Ok(mv)
    }

    fn format_move(&self, mv: u8) -> String {
        (mv + 1).to_string()
    }

    fn player_to_move(&self, pos: &Board) -> Option<usize> {
        Some(self.mover(pos))
    }
}

/// The grid as text and as a board: GamesmanUni's, from images it
/// bundles, and the page's own drawings (`art.rs`).
impl Presentation for TicTacToe {
    fn player_names(&self) -> [&'static str; 2] {
        ["X", "O"]
    }

    /// The grid, an empty cell showing its number (the move that fills
    /// it), then who moves.
    fn show(&self, pos: &Board) -> String {
        let cell = |k: u16| match self.mark(pos, k) {
            '-' => char::from(b'1' + k as u8),
            c => c,
        };
        let rows: Vec<String> = (0..3)
            .map(|r| format!(" {} | {} | {}", cell(3 * r), cell(3 * r + 1), cell(3 * r + 2)))
            .collect();
        let turn = match self.primitive(pos) {
            Some(_) => "game over".to_string(),
            None => format!("{} to move", self.player_names()[self.mover(pos)]),
        };
        format!("{}\n{turn}", rows.join("\n---+---+---\n"))
    }

    fn ending(&self, pos: &Board) -> Option<String> {
        if won(pos.x) {
            Some("X has three in a row".into())
        } else if won(pos.o) {
            Some("O has three in a row".into())
        } else {
            ((pos.x | pos.o) == 0o777).then(|| "the board is full with no three in a row: a tie".into())
        }
    }

    fn title(&self) -> String {
        "Tic-tac-toe".into()
    }

    fn instructions(&self) -> String {
        "X and O take turns marking an empty cell of the 3×3 grid, X first. \
         Three of one's marks in a row, column or diagonal win; a full grid \
         without one is a tie. A move is the cell's number, 1 top left to 9 \
         bottom right."
            .into()
    }

    /// A character a cell: `x`, `o` or `-`.
    fn autogui_position(&self, pos: &Board) -> Option<String> {
        Some((0..9).map(|k| self.mark(pos, k)).collect())
    }

    /// A button on the cell: `A_a_<cell>_x` for X, `A_b_<cell>_x` for O.
    fn autogui_move(&self, pos: &Board, mv: u8) -> Option<String> {
        let who = ['a', 'b'][self.mover(pos)];
        Some(format!("A_{who}_{mv}_x"))
    }

    fn image_autogui_data(&self) -> Option<String> {
        Some(art::AUTOGUI.to_string())
    }

    fn board_art(&self) -> BoardArt {
        art::board_art()
    }
}

/// No search: positions are answered from a database only.
impl Search for TicTacToe {}

impl TicTacToe {
    /// Who moves: X (0) first, so O (1) once X has more marks.
    fn mover(&self, pos: &Board) -> usize {
        usize::from(pos.x.count_ones() > pos.o.count_ones())
    }

    /// The mark on cell `k` (0 top left to 8): `x`, `o` or `-`.
    fn mark(&self, pos: &Board, k: u16) -> char {
        if pos.x & (1 << k) != 0 {
            'x'
        } else if pos.o & (1 << k) != 0 {
            'o'
        } else {
            '-'
        }
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

#[cfg(test)]
mod tests {
    use topitop_game_api::conformance::{check_registered, Settings};

    use super::TicTacToe;

    /// The check every new game runs in its tests first: it catches a
    /// move string that does not read back, a position indexed wrongly
    /// or a game that goes on after it is won, before a solve relies on
    /// them.
    #[test]
    fn keeps_the_game_interfaces_contract() {
        let report = check_registered(&TicTacToe, Settings::default());
        assert!(report.passed(), "{report}");
        assert_eq!(report.games, 200);
    }
}

#[cfg(test)]
mod board_tests {
    use topitop_game_api::{Game, Presentation};

    use super::{Board, TicTacToe};

    #[test]
    fn the_autogui_board_has_a_character_a_cell_and_a_button_on_each_empty_one() {
        let g = TicTacToe;
        let pos = g.parse_position("x--/-o-/---").unwrap();
        assert_eq!(g.autogui_position(&pos).unwrap(), "x---o----");
        let buttons: Vec<String> = g
            .moves(&pos)
            .iter()
            .map(|&m| g.autogui_move(&pos, m).unwrap())
            .collect();
        assert_eq!(buttons.len(), 7);
        assert_eq!(buttons[0], "A_a_1_x");
        // O's turn: its own button character, on the cell it fills.
        let after = g.play(&pos, 1);
        assert_eq!(g.autogui_move(&after, 2), Some("A_b_2_x".into()));
        let theme = g.image_autogui_data().unwrap();
        for image in ["ttt/3x3grid.svg", "ttt/x.svg", "ttt/o.svg"] {
            assert!(theme.contains(image), "{theme}");
        }
        // Buttons are drawn from an image GamesmanUni can draw them from.
        let hitbox = "general/basichitbox.svg";
        assert!(theme.contains(hitbox) && topitop_game_api::MOVE_BUTTON_IMAGES.contains(&hitbox));
        // Every button's character is drawn on the page.
        let art = g.board_art();
        for c in ['x', 'o', 'a', 'b'] {
            assert!(art.pieces.iter().any(|(p, _)| *p == c), "{c}");
        }
    }

    #[test]
    fn the_text_board_numbers_the_empty_cells_and_names_the_end() {
        let g = TicTacToe;
        let pos = g.parse_position("xo-/-x-/--o").unwrap();
        assert_eq!(
            g.show(&pos),
            " x | o | 3\n---+---+---\n 4 | x | 6\n---+---+---\n 7 | 8 | o\nX to move"
        );
        let won = Board { x: 0o007, o: 0o030 };
        assert!(g.show(&won).ends_with("game over"));
        assert_eq!(g.ending(&won).as_deref(), Some("X has three in a row"));
        assert_eq!(g.ending(&pos), None);
    }
}
