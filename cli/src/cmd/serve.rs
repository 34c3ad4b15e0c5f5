//! `topitop serve`: the GamesmanUni backend over the databases of every
//! game in a directory.

use std::io::{IsTerminal, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use topitop_serve::catalog::{self, Catalog};
use topitop_serve::log::{LogPipe, QUEUE_BYTES};
use topitop_serve::server::{self, Limits};
use topitop_serve::App;

use crate::common::check_threads;
use crate::registry::Games;

/// Gives the allocator's free memory back to the system, set by the
/// binary (glibc's `malloc_trim`): called every `TRIM_EVERY` while the
/// server runs, so that its memory falls back after a burst of
/// connections (a slowloris of 21,000 held 480 MB after they had gone).
pub static RETURN_FREE_MEMORY: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// How often the server gives free memory back.
const TRIM_EVERY: Duration = Duration::from_secs(10);

/// Runs `serve` until SIGINT or SIGTERM.
///
/// # Errors
/// No database of any game, a bad option, or an address that cannot be
/// listened on.
pub fn run(games: &Games, args: Args) -> anyhow::Result<()> {
    let log = init_logging()?;
    let result = serve(games, args);
    // What is still queued, and the count of lines dropped, if standard
    // error takes them soon.
    log.flush_for(Duration::from_secs(2));
    result
}

fn serve(games: &Games, args: Args) -> anyhow::Result<()> {
    check_options(&args)?;
    let threads = args.threads.map(check_threads).transpose()?;
    let mut catalogs = Vec::new();
    for game in games.all() {
        catalogs.push(Catalog::open(game.serve(&args)?, &args.dir));
    }
    // Boards answered by search alone are served beside databases, not
    // instead of them: with no database, say how to make one. Every game
    // is still watched, so a database written later is served.
    let list: Vec<_> = catalogs.iter().map(Catalog::served).collect();
    if catalogs.iter().map(Catalog::databases).sum::<usize>() == 0 {
        eprintln!(
            "topitop: warning: {}",
            without_databases(games, &args, &catalogs, &list)?
        );
    }
    let pages = games.tools().iter().filter_map(|t| t.pages()).collect();
    let app = Arc::new(App::new(list).with_pages(pages));
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = threads {
        runtime.worker_threads(n);
    }
    let runtime = runtime
        .enable_all()
        .build()
        .context("cannot start the server runtime")?;
    let limits = Limits {
        idle: Duration::from_secs(args.idle_timeout),
        searches: args.searches,
        search_queue: args.search_queue,
        ..Limits::default()
    };
    let result = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.bind)
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        let addr = listener.local_addr()?;
        let shutdown = shutdown_signal();
        // The page first, for people; then the API's root, which tests
        // and scripts read to find the port. A closed standard output
        // (`serve | true`) does not stop the server: the log on standard
        // error says where it listens.
        let mut out = std::io::stdout().lock();
        let printed = writeln!(
            out,
            "open http://{addr}/ui/ in a browser to play and study the games"
        )
        .and_then(|()| writeln!(out, "listening on http://{addr}/ (GamesmanUni's API)"))
        .and_then(|()| out.flush());
        if let Err(e) = printed {
            tracing::warn!(error = %e, "cannot print the address on standard output; serving anyway");
        }
        drop(out);
        tracing::info!(%addr, variants = %app.served().join(","), "listening");
        if let Some(&trim) = RETURN_FREE_MEMORY.get() {
            tokio::spawn(async move {
                let mut every = tokio::time::interval(TRIM_EVERY);
                loop {
                    every.tick().await;
                    let _ = tokio::task::spawn_blocking(trim).await;
                }
            });
        }
        if args.reload_interval > 0 {
            let every = Duration::from_secs(args.reload_interval);
            for c in catalogs {
                tokio::spawn(catalog::watch(app.clone(), c, every));
            }
        }
        server::run(app, listener, limits, shutdown).await;
        anyhow::Ok(())
    });
    // A database check under way is not waited for long.
    runtime.shutdown_timeout(Duration::from_secs(1));
    result
}

/// What is served when the directory holds no database of any game:
/// boards answered by search and the tools' pages, said in a warning.
///
/// # Errors
/// Damaged databases (a fault to mend, not an empty directory), or
/// nothing at all to serve; the message says how to make a database.
fn without_databases(
    games: &Games,
    args: &Args,
    catalogs: &[Catalog],
    list: &[topitop_serve::ServedGame],
) -> anyhow::Result<String> {
    // Damaged databases are a fault to mend, not an empty directory.
    let damaged: Vec<String> = catalogs
        .iter()
        .filter(|c| !c.damaged().is_empty())
        .map(|c| {
            format!(
                "no healthy database of {} to serve in {}: {}",
                c.game(),
                args.dir.display(),
                c.damaged().join("; ")
            )
        })
        .collect();
    anyhow::ensure!(damaged.is_empty(), "{}", damaged.join("; "));
    // The default game's message says how to make its database; the
    // others are named.
    let first = catalogs
        .first()
        .map_or_else(|| "no database to serve".into(), Catalog::missing);
    let why = format!(
        "{first}; the databases of the other games ({}) are served too: `topitop solve --game NAME --out {}`",
        games.names()[1..].join(", "),
        args.dir.display()
    );
    // Boards answered by search (8×8 Topolo) and the tools' pages
    // (Toppo's game) need no database: served, with the note.
    let searched: Vec<String> = list
        .iter()
        .flat_map(|game| game.variants.iter().map(|v| format!("{}/{}", game.id, v.id())))
        .collect();
    let pages = games.tools().iter().any(|t| t.pages().is_some());
    anyhow::ensure!(pages || !searched.is_empty(), "{why}");
    let alone = match (searched.is_empty(), pages) {
        (true, _) => "the tools' pages".to_string(),
        (false, false) => format!("{} (answered by search)", searched.join(", ")),
        (false, true) => format!(
            "{} (answered by search) and the tools' pages",
            searched.join(", ")
        ),
    };
    Ok(format!("{why}; serving {alone} alone"))
}

/// The most `--searches`: each search already uses every core.
const MAX_SEARCHES: usize = 64;
/// The most `--search-queue`: a longer queue only makes clients wait
/// minutes for answers they have likely given up on.
const MAX_SEARCH_QUEUE: usize = 1000;

/// Refuses options out of range, each with the range and what it is for.
fn check_options(args: &Args) -> anyhow::Result<()> {
    let day = server::MAX_IDLE.as_secs();
    anyhow::ensure!(
        (1..=day).contains(&args.idle_timeout),
        "--idle-timeout {} is out of range: give 1 to {day} seconds (a day); a connection is closed \
         after that long without a request",
        args.idle_timeout
    );
    anyhow::ensure!(
        args.reload_interval <= day,
        "--reload-interval {} is over a day ({day} s): give 0 to never look at the database files \
         again, or at most {day}",
        args.reload_interval
    );
    anyhow::ensure!(
        (1..=MAX_SEARCHES).contains(&args.searches),
        "--searches {} is out of range: give 1 to {MAX_SEARCHES} (each search already uses every core)",
        args.searches
    );
    anyhow::ensure!(
        args.search_queue <= MAX_SEARCH_QUEUE,
        "--search-queue {} is over {MAX_SEARCH_QUEUE}: a client that waits behind that many searches \
         has given up long before its turn; give at most {MAX_SEARCH_QUEUE} (0: refuse any search that \
         cannot start at once)",
        args.search_queue
    );
    Ok(())
}

/// The access log and other events go to standard error at info level,
/// through a queue that drops (and counts) lines rather than ever making
/// the server wait for standard error; `RUST_LOG` overrides the level
/// with comma-separated `LEVEL` and `TARGET=LEVEL` directives (e.g.
/// `RUST_LOG=warn` or `RUST_LOG=access=off`). A value that does not parse
/// is reported once and info level kept.
fn init_logging() -> anyhow::Result<LogPipe> {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;

    let pipe = LogPipe::spawn(std::io::stderr(), QUEUE_BYTES).context("cannot start the log writer")?;
    let filter = log_filter(std::env::var("RUST_LOG").ok().as_deref());
    let writer = pipe.clone();
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(move || writer.clone())
                .with_ansi(std::io::stderr().is_terminal()),
        )
        .with(filter)
        .try_init();
    Ok(pipe)
}

/// The filter `RUST_LOG` asks for: `Targets` directives rather than
/// `EnvFilter`, whose regular-expression engine doubled the logging
/// stack's build time for span and field filters nobody used.
fn log_filter(rust_log: Option<&str>) -> tracing_subscriber::filter::Targets {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    let info = || Targets::new().with_default(LevelFilter::INFO);
    match rust_log.map(str::trim) {
        None | Some("") => info(),
        Some(text) => match text.parse::<Targets>() {
            // Targets no directive names stay at info level, so that
            // `access=off` silences the access log and nothing else.
            Ok(targets) if targets.default_level().is_none() => targets.with_default(LevelFilter::INFO),
            Ok(targets) => targets,
            Err(e) => {
                eprintln!("topitop serve: ignoring RUST_LOG={text:?} ({e}); logging at info level");
                info()
            }
        },
    }
}

#[cfg(test)]
mod log_filter_tests {
    use super::log_filter;
    use tracing_subscriber::filter::LevelFilter;

    #[test]
    fn rust_log_sets_levels_by_target_and_keeps_info_elsewhere() {
        let f = log_filter(Some("access=off"));
        assert!(!f.would_enable("access", &tracing::Level::INFO));
        assert!(f.would_enable("topitop_serve", &tracing::Level::INFO));
        assert!(!f.would_enable("topitop_serve", &tracing::Level::DEBUG));
        let f = log_filter(Some("warn"));
        assert_eq!(f.default_level(), Some(LevelFilter::WARN));
        assert!(!f.would_enable("access", &tracing::Level::INFO));
        let f = log_filter(Some("warn,access=debug"));
        assert!(f.would_enable("access", &tracing::Level::DEBUG));
        assert!(!f.would_enable("other", &tracing::Level::INFO));
    }

    #[test]
    fn unset_or_unreadable_rust_log_means_info() {
        for value in [None, Some(""), Some("access=loud")] {
            let f = log_filter(value);
            assert_eq!(f.default_level(), Some(LevelFilter::INFO), "{value:?}");
        }
    }
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM. Its handlers are installed
/// when it is called, not when it is first polled: the server calls it
/// before it prints its address, so a signal sent as soon as the address
/// is read shuts it down cleanly (its log flushed) rather than killing it.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let (mut interrupt, mut terminate) = {
        use tokio::signal::unix::{signal, SignalKind};
        (
            signal(SignalKind::interrupt()).ok(),
            signal(SignalKind::terminate()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let on = |s: &mut Option<tokio::signal::unix::Signal>| {
                let s = s.take();
                async move {
                    match s {
                        Some(mut s) => {
                            s.recv().await;
                        }
                        None => std::future::pending::<()>().await,
                    }
                }
            };
            tokio::select! {
                () = on(&mut interrupt) => tracing::info!("SIGINT received"),
                () = on(&mut terminate) => tracing::info!("SIGTERM received"),
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            tracing::info!("SIGINT received");
        }
    }
}

/// Arguments of `serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory of databases as `topitop solve --out DIR` names them; every
    /// variant of every game whose database is there is served. (`--db DIR`,
    /// its name before, is still taken.)
    #[arg(long = "dir", alias = "db", default_value = "data", value_name = "DIR")]
    pub dir: PathBuf,
    /// Address to listen on (port 0: any free port, printed at startup).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR:PORT")]
    pub bind: SocketAddr,
    /// The games' own options for `serve` (Topitop's `--budget`).
    #[command(flatten)]
    pub games: crate::options::AllGames,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Seconds a connection may go without a complete request before it is
    /// closed (idle keep-alive, slow clients): 1 to 86400 (a day).
    #[arg(long, default_value_t = 30, value_name = "SECS")]
    pub idle_timeout: u64,
    /// Seconds between looks at the database files: a file replaced by a
    /// valid database is served from then on (0: never look; at most a day).
    #[arg(long, default_value_t = 1, value_name = "SECS")]
    pub reload_interval: u64,
    /// Searches (boards answered by search, e.g. 8×8 Topolo) run at once,
    /// 1 to 64; each already uses every core.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub searches: usize,
    /// Searches that may wait for their turn (at most 1000); beyond them a
    /// search is refused at once with 503 and `Retry-After`.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub search_queue: usize,
    /// Milliseconds a search takes to answer one position of a board no
    /// database holds (8×8 Topolo), 10 to 60000: longer is stronger.
    #[arg(long, default_value_t = super::SEARCH_MS, value_name = "MS", value_parser = super::search_ms)]
    pub search_ms: u64,
}
