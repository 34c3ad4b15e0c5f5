//! A game's command-line options: what it declares ([`GameOption`]), so
//! that the command builds its arguments and help from the games it
//! registers, and what a user gave ([`Options`]), which the game reads.

use std::collections::BTreeMap;

/// One option a game takes on the command line: `--NAME VALUE`, or
/// `--NAME` alone for a flag. The command offers it, with this help, to
/// the commands it names, and refuses it for every game that does not
/// declare it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOption {
    /// Its name without the dashes, e.g. `board`.
    pub name: &'static str,
    /// How help shows its value, e.g. `RxC`; empty for a flag, which
    /// takes no value.
    pub value_name: &'static str,
    /// One sentence for `--help`, saying what the game does with it.
    pub help: &'static str,
    /// What the game plays when the option is not given, as help shows it.
    pub default: Option<&'static str>,
    /// The commands that take it (e.g. `["solve"]`); empty for every
    /// command that selects a game.
    pub commands: &'static [&'static str],
}

impl GameOption {
    /// `--name VALUE`, taken by every command that selects a game;
    /// `default` is what the game plays without it, if anything.
    pub const fn value(
        name: &'static str,
        value_name: &'static str,
        help: &'static str,
        default: Option<&'static str>,
    ) -> GameOption {
        GameOption {
            name,
            value_name,
            help,
            default,
            commands: &[],
        }
    }

    /// `--name`, a flag of the `commands` named.
    pub const fn flag(
        name: &'static str,
        help: &'static str,
        commands: &'static [&'static str],
    ) -> GameOption {
        GameOption {
            name,
            value_name: "",
            help,
            default: None,
            commands,
        }
    }

    /// This option, taken by the `commands` named only.
    #[must_use]
    pub const fn only(mut self, commands: &'static [&'static str]) -> GameOption {
        self.commands = commands;
        self
    }

    /// True for a flag, which takes no value.
    pub fn is_flag(&self) -> bool {
        self.value_name.is_empty()
    }

    /// True when `command` takes this option.
    pub fn for_command(&self, command: &str) -> bool {
        self.commands.is_empty() || self.commands.contains(&command)
    }
}

/// The options a user gave, by name without the dashes: each option's
/// value as written, a flag's an empty string. Only options the game
/// declares reach it: the command refuses the others before it runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options(BTreeMap<String, String>);

impl Options {
    /// No options: every one at the game's default.
    pub fn new() -> Options {
        Options::default()
    }

    /// These options with `name` given as `value` (a flag: empty).
    #[must_use]
    pub fn with(mut self, name: &str, value: &str) -> Options {
        self.0.insert(name.to_string(), value.to_string());
        self
    }

    /// The value given to `--name`, if it was given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// True when `--name` was given.
    pub fn has(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// Every option given, by name, in name order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }
}
