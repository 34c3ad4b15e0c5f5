//! The games' options on the command line: `--game` and what each
//! registered game declares ([`Commands::options`]), offered with help
//! made from the declarations (`offer`), read back as given
//! ([`GameArgs`]), and refused for a game that does not declare them, in
//! one place before any command runs (`check`).

use clap::{Arg, ArgAction};
use topitop_game_api::{GameOption, Options};

use crate::registry::Commands;

/// The game a command runs and the options given for it. Only what was
/// given is here, so that a command given a database file can tell the
/// options a user set from the defaults, and refuse those the file
/// contradicts.
#[derive(Clone, Debug, Default)]
pub struct GameArgs {
    /// `--game`, if given.
    pub game: Option<String>,
    /// The game's options that were given.
    pub options: Options,
}

/// The argument ids of the games' options: the option's name after this,
/// so that the options read back from the matches are the games' alone.
const OPTION_ID: &str = "game-option:";

/// The argument id of `--game`, and its long name.
const GAME_ID: &str = "game";

/// The heading `--help` lists `--game` and the games' options under.
const HEADING: &str = "Game options";

/// The games' options given in `m`.
fn given(m: &clap::ArgMatches) -> Options {
    let mut options = Options::new();
    for id in m.ids() {
        let Some(name) = id.as_str().strip_prefix(OPTION_ID) else {
            continue;
        };
        if m.value_source(id.as_str()) != Some(clap::parser::ValueSource::CommandLine) {
            continue;
        }
        // A flag is given or not: its value is empty.
        let value = m.try_get_one::<String>(id.as_str()).ok().flatten();
        options = options.with(name, value.map_or("", String::as_str));
    }
    options
}

impl clap::FromArgMatches for GameArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        Ok(GameArgs {
            game: m.get_one::<String>(GAME_ID).cloned(),
            options: given(m),
        })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// The options of a command of every game at once (`serve`): those the
/// games declare for it by name, each the declaring game's. No `--game`.
#[derive(Clone, Debug, Default)]
pub struct AllGames {
    /// The games' options that were given.
    pub options: Options,
}

impl clap::FromArgMatches for AllGames {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        Ok(AllGames { options: given(m) })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// Nothing of its own: the options come from the registry (`offer`).
impl clap::Args for AllGames {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd
    }
}

impl clap::Args for GameArgs {
    /// `--game` alone: the games' options, and the help of both, come
    /// from the registry once the games are known (`offer`).
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            Arg::new(GAME_ID)
                .long(GAME_ID)
                .value_name("NAME")
                .help_heading(HEADING),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// `cli` with every game's options added to each subcommand that takes
/// `--game`, and the help of `--game` and of each option made from the
/// declarations of `games` (the first the default).
///
/// # Panics
/// A game option whose name a command already takes, or declared a flag
/// by one game and an option with a value by another: the registration
/// is wrong.
pub(crate) fn offer(cli: clap::Command, games: &[Box<dyn Commands>]) -> clap::Command {
    let names: Vec<&'static str> = games.iter().map(|g| g.name()).collect();
    cli.mut_subcommands(|sub| {
        // A command of one game takes `--game` and the options of each
        // game; a command of every game at once (`serve`, through
        // [`AllGames`]) only those the games declare for it by name.
        let selects = sub.get_arguments().any(|a| a.get_id() == GAME_ID);
        let command = sub.get_name().to_string();
        // Each option once, with every game that declares it, in the
        // order the games declare them.
        let mut offered: Vec<(&str, Vec<(&str, GameOption)>)> = Vec::new();
        for g in games {
            for o in taken(g.as_ref(), &command) {
                if !selects && !o.commands.contains(&command.as_str()) {
                    continue;
                }
                match offered.iter_mut().find(|(name, _)| *name == o.name) {
                    Some((_, takers)) => takers.push((g.name(), o)),
                    None => offered.push((o.name, vec![(g.name(), o)])),
                }
            }
        }
        let mut sub = if selects {
            sub.mut_arg(GAME_ID, |a| {
                a.help(game_help(&command, games))
                    .value_parser(clap::builder::PossibleValuesParser::new(names.clone()))
                    .hide_possible_values(true)
            })
        } else {
            sub
        };
        for (name, takers) in offered {
            assert!(
                !sub.get_arguments().any(|a| a.get_long() == Some(name)),
                "a game declares --{name}, which `{command}` already takes"
            );
            let flag = takers[0].1.is_flag();
            assert!(
                takers.iter().all(|(_, o)| o.is_flag() == flag),
                "--{name} is declared both as a flag and as an option with a value"
            );
            let mut arg = Arg::new(format!("{OPTION_ID}{name}"))
                .long(name)
                .help_heading(HEADING)
                .help(option_help(&takers));
            arg = if flag {
                arg.action(ArgAction::SetTrue)
            } else {
                let mut values: Vec<&str> = Vec::new();
                for (_, o) in &takers {
                    if !values.contains(&o.value_name) {
                        values.push(o.value_name);
                    }
                }
                arg.action(ArgAction::Set)
                    .value_name(values.join("|"))
                    .value_parser(clap::builder::ValueParser::string())
                    // A value is the game's to judge: `--variant -1` is
                    // refused by the game, naming its variants.
                    .allow_negative_numbers(true)
            };
            sub = sub.arg(arg);
        }
        sub
    })
}

/// The help of `--game` for `command`: every game, the default first, and
/// the options each takes there.
fn game_help(command: &str, games: &[Box<dyn Commands>]) -> String {
    let mut help = format!(
        "The game [default: {}]; each takes the options listed:",
        games[0].name()
    );
    for g in games {
        let takes = usage(&taken(g.as_ref(), command));
        help.push_str(&format!(
            "\n  {}: {}",
            g.name(),
            if takes.is_empty() { "no options" } else { &takes }
        ));
    }
    help
}

/// The help of one option: the games that take it and what each does
/// with it, games that say the same said together.
fn option_help(takers: &[(&str, GameOption)]) -> String {
    let mut said: Vec<(Vec<&str>, String)> = Vec::new();
    for (game, o) in takers {
        let text = match o.default {
            Some(d) => format!("{} [default: {d}]", o.help),
            None => o.help.to_string(),
        };
        match said.iter_mut().find(|(_, t)| *t == text) {
            Some((games, _)) => games.push(game),
            None => said.push((vec![game], text)),
        }
    }
    said.iter()
        .map(|(games, text)| format!("{}: {text}", games.join(", ")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The options `game` takes in `command`.
fn taken(game: &dyn Commands, command: &str) -> Vec<GameOption> {
    game.options()
        .into_iter()
        .filter(|o| o.for_command(command))
        .collect()
}

/// `--board <RxC>, --all`: options as a user writes them.
fn usage(options: &[GameOption]) -> String {
    options
        .iter()
        .map(|o| {
            if o.is_flag() {
                format!("--{}", o.name)
            } else {
                format!("--{} <{}>", o.name, o.value_name)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Refuses the options given in `args` that `game` does not take in
/// `command`; `chosen` says how the game was chosen (e.g. `--game
/// topolo`), for the message.
///
/// # Errors
/// The options refused, with those the game takes there.
pub(crate) fn check(command: &str, game: &dyn Commands, chosen: &str, args: &GameArgs) -> Result<(), String> {
    let takes = taken(game, command);
    let foreign: Vec<String> = args
        .options
        .names()
        .filter(|n| !takes.iter().any(|o| o.name == *n))
        .map(|n| format!("--{n}"))
        .collect();
    if foreign.is_empty() {
        return Ok(());
    }
    let theirs = if takes.is_empty() {
        format!("{} takes no options of its own in `{command}`", game.name())
    } else {
        format!("{}'s options in `{command}` are {}", game.name(), usage(&takes))
    };
    Err(format!(
        "{} {} not {} of {} ({chosen}); {theirs}",
        foreign.join(", "),
        if foreign.len() == 1 { "is" } else { "are" },
        if foreign.len() == 1 {
            "an option"
        } else {
            "options"
        },
        game.name()
    ))
}
