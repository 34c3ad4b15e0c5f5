//! The games' options on the command line: offered with help made from
//! each registered game's declaration, refused at parse time for a game
//! that does not take them, and not needed at all by a command given a
//! database file, whose header names its game.

use crate::support;

use support::run::{stderr, stdout, temp_dir, topitop};
use topitop_game_api::{GameOption, Registered};

/// Every registered game with the options it declares, from the games'
/// own declarations.
fn declared() -> Vec<(&'static str, Vec<GameOption>)> {
    let generic = |name, own: &[GameOption]| {
        let mut options = own.to_vec();
        options.push(topitop_cli::cmd::solve::NO_SYMMETRY);
        (name, options)
    };
    vec![
        ("topitop", games_topitop_commands::options::declared()),
        // Topolo's own solver takes none of the generic solver's flags.
        ("topolo", games_topolo::Topolo::OPTIONS.to_vec()),
        generic("topple", games_topple::Topple::OPTIONS),
    ]
}

/// `--name <VALUE>` or `--name`, as help and errors write an option.
fn usage(o: &GameOption) -> String {
    if o.is_flag() {
        format!("--{}", o.name)
    } else {
        format!("--{} <{}>", o.name, o.value_name)
    }
}

#[test]
fn help_lists_every_game_with_its_options() {
    for command in [
        "perft",
        "show",
        "solve",
        "verify",
        "query",
        "export",
        "stats",
        "play",
        "canonical",
        "check",
    ] {
        let o = topitop(&[command, "--help"]);
        assert!(o.status.success(), "{command}");
        let help = stdout(&o);
        for (game, options) in declared() {
            let takes: Vec<String> = options
                .iter()
                .filter(|o| o.for_command(command))
                .map(usage)
                .collect();
            let line = format!("{game}: {}", takes.join(", "));
            assert!(help.contains(&line), "{command} --help lacks {line:?}:\n{help}");
            // Each option's own help says what this game does with it.
            for o in options.iter().filter(|o| o.for_command(command)) {
                assert!(help.contains(&format!("--{}", o.name)), "{command}: --{}", o.name);
                assert!(
                    help.contains(o.help),
                    "{command} --help lacks {game}'s {:?}",
                    o.help
                );
                if let Some(d) = o.default {
                    assert!(
                        help.contains(&format!("{} [default: {d}]", o.help)),
                        "{command}: {}",
                        o.name
                    );
                }
            }
        }
    }
    let main = stdout(&topitop(&["--help"]));
    assert!(main.starts_with("Solve board games strongly"), "{main}");
    // The games it plays, the default first (a newcomer found none).
    let games = main
        .lines()
        .find(|l| l.starts_with("Games (--game NAME"))
        .unwrap_or_default();
    assert!(
        games.contains("topitop (the default), topolo") && games.contains("topple"),
        "{main}"
    );
}

#[test]
fn an_option_the_game_lacks_is_refused_before_anything_runs() {
    let dir = temp_dir("options-refused");
    let out = dir.join("never");
    let out = out.to_str().unwrap();
    for (args, refused, theirs) in [
        (
            vec!["solve", "--game", "topple", "--budget", "1/1/1/1", "--out", out],
            "--budget is not an option of topple (--game topple)",
            "topple's options in `solve` are --board <RxC>, --variant <sN>, --no-symmetry",
        ),
        (
            vec!["solve", "--game", "topolo", "--board", "2x2", "--all", "--out", out],
            "--all is not an option of topolo",
            "topolo's options in `solve` are --board <RxC>, --variant <full|size-only>",
        ),
        (
            vec!["solve", "--board", "3x3", "--out", out],
            "--board is not an option of topitop (the default game",
            "topitop's options in `solve` are --rules <v0|v1>, --variant <N>, --budget <B/R/S/L>, --all, --no-symmetry",
        ),
        (
            vec!["export", "--game", "topple", "--tier", "0", "--exact", "-o", out],
            "--exact, --tier are not options of topple",
            "topple's options in `export` are --board <RxC>, --variant <sN>",
        ),
        // Topitop's crosscheck options, refused for another game's files
        // while parsing, not after opening them.
        (
            vec!["crosscheck", "--game", "topolo", "--report", out, "a.db", "b.db"],
            "--report is not an option of topolo",
            "topolo's options in `crosscheck` are --board <RxC>, --variant <full|size-only>",
        ),
        (
            vec!["crosscheck", "--game", "topple", "--gamesman-classic", out],
            "--gamesman-classic is not an option of topple",
            "topple's options in `crosscheck` are --board <RxC>, --variant <sN>",
        ),
    ] {
        let o = topitop(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(refused) && err.contains(theirs), "{args:?}: {err}");
        assert!(err.contains("Usage: topitop "), "a usage error, as clap's: {err}");
    }
    assert!(!dir.join("never").exists(), "no command ran");
    // `serve`, of every game at once, offers the options a game declares
    // for it, said as that game's; no game's others, and no --game.
    let help = stdout(&topitop(&["serve", "--help"]));
    assert!(
        help.contains("--budget <B/R/S/L>  topitop: the piece budget of the databases to serve"),
        "{help}"
    );
    assert!(!help.contains("--board") && !help.contains("--game"), "{help}");
    // Values stay the game's to judge.
    let o = topitop(&["perft", "1", "--game", "topple", "--variant", "s1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("supply \"s1\""), "{}", stderr(&o));
    // An unknown game, with the known ones.
    let o = topitop(&["perft", "1", "--game", "chess"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("topolo, topple"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_database_file_alone_names_its_game() {
    let dir = temp_dir("options-db-alone");
    let d = dir.to_str().unwrap();
    let files = [
        (
            ["--game", "topolo", "--board", "2x3", "--variant", "size-only"],
            "topolo_2x3_size-only.db",
            "topolo 2x3_size-only",
            ".../...",
        ),
        (
            ["--game", "topple", "--board", "2x2", "--variant", "s4"],
            "topple_2x2-s4.db",
            "topple 2x2-s4",
            "../.. r s4 r8 b8",
        ),
    ];
    for (options, file, holds, start) in files {
        let o = topitop(&[&["solve", "--out", d][..], &options].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        let db = dir.join(file);
        let db = db.to_str().unwrap();
        let run = |args: &[&str]| {
            let o = topitop(&[args, &["--db", db]].concat());
            assert!(o.status.success(), "{args:?} --db {db}: {}", stderr(&o));
            stdout(&o)
        };
        assert!(run(&["verify"]).contains(holds));
        assert!(run(&["stats"]).contains(holds));
        let query = run(&["query", start]);
        assert!(query.contains(start), "{query}");
        let rows = run(&["export", "--format", "csv"]);
        assert!(rows.lines().count() > 2, "{rows}");
        assert!(rows.lines().nth(1).is_some_and(|row| !row.is_empty()));
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_game_that_contradicts_the_file_is_refused_naming_both() {
    let dir = temp_dir("options-contradict");
    let d = dir.to_str().unwrap();
    let o = topitop(&["solve", "--game", "topolo", "--board", "2x2", "--out", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    let db = dir.join("topolo_2x2.db");
    let db = db.to_str().unwrap();
    for game in ["topple", "topitop"] {
        for command in ["verify", "stats", "export"] {
            let o = topitop(&[command, "--db", db, "--game", game]);
            assert_eq!(o.status.code(), Some(2), "{command} --game {game}");
            let err = stderr(&o);
            assert!(
                err.contains(&format!("--game {game} contradicts {db}, a database of topolo")),
                "{err}"
            );
        }
    }
    // The variant too: the file's is named beside the one asked for.
    let o = topitop(&["stats", "--db", db, "--board", "3x3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds topolo 2x2, not topolo 3x3"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}
