//! The two roles of a distributed solve: process 0 claims the output,
//! hands out units whose inputs are done and writes the databases; every
//! other process solves the units it is handed. Messages are short lists
//! of words: a kind, then a unit's number or an error's text.

use std::collections::{BTreeSet, VecDeque};
use std::time::Duration;

use super::Unit;
use crate::cmd::solve::{check_memory, human_bytes, Args, Claim, Clock, Kept, Needs, Solver, Target};
use crate::common::{available_memory, init_threads};
use crate::progress::CountBar;
use topitop_solver::usage::cpu_time;

/// Process 0 to a worker: the checkpoint directory is made; join it.
const GO: u64 = 1;
/// Process 0 to a worker: nothing more to do; end.
const STOP: u64 = 2;
/// Process 0 to a worker: solve the unit that follows.
const SOLVE: u64 = 3;
/// A worker to process 0: ready for a unit.
const READY: u64 = 11;
/// A worker to process 0: the unit that follows is kept.
const DONE: u64 = 12;
/// A worker to process 0: it failed, for the reason whose text follows.
const FAILED: u64 = 13;
/// A worker to process 0, told to stop: it ends, having spent the CPU
/// time that follows, in microseconds.
const BYE: u64 = 14;

/// Units a worker is given at most at once.
const AHEAD: usize = 2;

/// Indices of a loop-free tier in one unit unless `--part-size` says.
pub const DEFAULT_PART_SIZE: u64 = 1 << 22;

/// What carries the messages between the processes of a solve.
pub trait Link {
    /// This process's number, 0 for the one that hands out the work.
    fn rank(&self) -> usize;
    /// How many processes share the solve.
    fn ranks(&self) -> usize;
    /// The machine this process runs on, for messages.
    fn host(&self) -> String;
    /// Sends `words` to process `to`.
    fn send(&self, to: usize, words: &[u64]);
    /// A message waiting for this process, with its sender, if any.
    fn try_receive(&self) -> Option<(usize, Vec<u64>)>;
}

/// Waits for the next message, checking more and more rarely, up to
/// every `cap`, so that a process waiting leaves the cores to those
/// solving yet answers within a fraction of a unit's time.
fn receive(link: &dyn Link, cap: Duration) -> (usize, Vec<u64>) {
    let mut nap = Duration::from_micros(10);
    loop {
        if let Some(m) = link.try_receive() {
            return m;
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(cap);
    }
}

/// How often process 0 looks for messages at the least: each worker has
/// a unit ahead, so a millisecond's delay costs none of them time.
const LEAD_NAP: Duration = Duration::from_millis(1);

/// How often a worker looks for messages at the least.
const WORKER_NAP: Duration = Duration::from_micros(250);

/// `text` as words: its length in bytes, then its bytes eight a word.
fn words_of(kind: u64, text: &str) -> Vec<u64> {
    let mut w = vec![kind, text.len() as u64];
    w.extend(text.as_bytes().chunks(8).map(|c| {
        let mut b = [0u8; 8];
        b[..c.len()].copy_from_slice(c);
        u64::from_le_bytes(b)
    }));
    w
}

/// The text [`words_of`] put after the kind.
fn text_of(words: &[u64]) -> String {
    let len = words.get(1).copied().unwrap_or(0) as usize;
    let bytes: Vec<u8> = words
        .iter()
        .skip(2)
        .flat_map(|w| w.to_le_bytes())
        .take(len)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Runs this process's part of the distributed solve of `solver` over
/// `link`.
///
/// # Errors
/// Process 0: the solve's errors, its own or a worker's (named by its
/// process and machine). A worker's errors go to process 0.
pub fn run(solver: &mut dyn Solver, args: &Args, link: &dyn Link) -> anyhow::Result<()> {
    if link.rank() == 0 {
        let mut crew = Crew { link, stopped: false };
        let outcome = lead(solver, args, &mut crew);
        crew.stop();
        outcome
    } else {
        work(solver, args, link);
        Ok(())
    }
}

/// The workers, told to stop once, whatever ends process 0's run.
struct Crew<'a> {
    link: &'a dyn Link,
    stopped: bool,
}

impl Crew<'_> {
    fn stop(&mut self) {
        if !self.stopped {
            self.stopped = true;
            for r in 1..self.link.ranks() {
                self.link.send(r, &[STOP]);
            }
        }
    }
}

/// Process 0: claims the output, hands out the units, writes the
/// databases.
fn lead(solver: &mut dyn Solver, args: &Args, crew: &mut Crew) -> anyhow::Result<()> {
    let link = crew.link;
    let ranks = link.ranks();
    init_threads(args.threads)?;
    let title = solver.title();
    if solver.units().is_none() {
        eprintln!(
            "topitop: {title} is solved by one process: its solver does not split; the other {} have nothing to do",
            ranks - 1
        );
        crew.stop();
        return crate::cmd::solve::run_alone(solver, args);
    }
    let (list, memory) = {
        let units = solver
            .units()
            .ok_or_else(|| anyhow::anyhow!("the solver no longer splits"))?;
        (units.units(args.part_size)?, units.memory(args.part_size))
    };
    let needs = solver.needs()?;
    let total: u64 = list.iter().map(|u| u.size).sum();
    // Process 0 alone solves every unit too.
    let mine = if ranks == 1 {
        memory.lead.max(memory.worker)
    } else {
        memory.lead
    };
    check_memory(
        &title,
        &Needs {
            memory: mine,
            disk: needs.disk,
            what: format!(
                "{} on {ranks} processes ({} units; each other process about {}; process 0)",
                needs.what,
                list.len(),
                human_bytes(memory.worker)
            ),
        },
        args.ignore_memory_estimate,
    )?;
    let mut claim = Claim::take(solver, args, &needs)?;
    for k in &mut claim.kept {
        k.make()?;
    }
    for r in 1..ranks {
        link.send(r, &[GO]);
    }
    let units = solver
        .units()
        .ok_or_else(|| anyhow::anyhow!("the solver no longer splits"))?;
    let mut clock = Clock::start();
    let mut board = Board::new(&list);
    for u in 0..list.len() {
        if units.kept_whole(u, &mut claim.kept) {
            board.done(u);
        }
    }
    let bar = CountBar::new(&format!("solving {title} on {ranks} processes"), "indices");
    bar.set(board.solved, total);
    if ranks == 1 {
        while let Some(u) = board.next() {
            units.solve_unit(u, &mut claim.kept)?;
            board.done(u);
            bar.set(board.solved, total);
        }
    } else {
        if let Err(e) = hand_out(link, &mut board, &|solved| bar.set(solved, total)) {
            bar.finish();
            return Err(e);
        }
    }
    bar.finish();
    crew.stop();
    // Each worker's CPU time, so that the report counts the whole solve's.
    collect_cpu(link, &mut clock)?;
    units.gather(&mut claim.kept)?;
    claim.write(solver, args, &clock)
}

/// Process 0's part while the workers solve: hands each unit out as it
/// may start, and marks it done when its worker says so; `progress` is
/// told the indices solved.
///
/// # Errors
/// A worker that failed, or sent what was not asked of it.
fn hand_out(link: &dyn Link, board: &mut Board, progress: &dyn Fn(u64)) -> anyhow::Result<()> {
    let ranks = link.ranks();
    // Each worker is given a second unit when there are enough, so
    // that it starts on it as soon as it has kept the first, not a
    // message's round trip later.
    let mut given: Vec<VecDeque<usize>> = vec![VecDeque::new(); ranks];
    let mut ready_ranks = vec![false; ranks];
    while !board.finished() {
        for depth in 0..AHEAD {
            for r in 1..ranks {
                if ready_ranks[r] && given[r].len() == depth {
                    let Some(u) = board.next() else { break };
                    link.send(r, &[SOLVE, u as u64]);
                    given[r].push_back(u);
                }
            }
        }
        let (from, words) = receive(link, LEAD_NAP);
        match words.first().copied() {
            Some(READY) => ready_ranks[from] = true,
            Some(DONE) => {
                let u = words.get(1).copied().unwrap_or(u64::MAX) as usize;
                anyhow::ensure!(
                    given[from].front() == Some(&u),
                    "process {from} reported unit {u}, which it was not solving"
                );
                given[from].pop_front();
                board.done(u);
                progress(board.solved);
            }
            Some(FAILED) => anyhow::bail!("process {from} of {ranks} failed: {}", text_of(&words)),
            _ => anyhow::bail!("process {from} sent a message this program does not know: {words:?}"),
        }
    }
    Ok(())
}

/// Adds each worker's CPU time, which it sends as it leaves, to `clock`.
///
/// # Errors
/// A worker that failed instead.
fn collect_cpu(link: &dyn Link, clock: &mut Clock) -> anyhow::Result<()> {
    let ranks = link.ranks();
    let mut left = ranks - 1;
    while left > 0 {
        let (from, words) = receive(link, LEAD_NAP);
        match words.first().copied() {
            Some(BYE) => {
                clock.add_cpu(Duration::from_micros(words.get(1).copied().unwrap_or(0)));
                left -= 1;
            }
            Some(FAILED) => anyhow::bail!("process {from} of {ranks} failed: {}", text_of(&words)),
            _ => {}
        }
    }
    Ok(())
}

/// Which units are done, and which may start: those whose inputs are.
struct Board {
    /// Each unit's readers.
    readers: Vec<Vec<usize>>,
    /// Each unit's inputs not done yet.
    waiting: Vec<usize>,
    done: Vec<bool>,
    /// Units whose inputs are done, not yet handed out, least first: the
    /// order one process solves in.
    ready: BTreeSet<usize>,
    left: usize,
    /// Size of the units done.
    solved: u64,
    sizes: Vec<u64>,
}

impl Board {
    fn new(list: &[Unit]) -> Board {
        let mut readers = vec![Vec::new(); list.len()];
        for (u, unit) in list.iter().enumerate() {
            for &r in &unit.reads {
                readers[r].push(u);
            }
        }
        let waiting: Vec<usize> = list.iter().map(|u| u.reads.len()).collect();
        let ready = (0..list.len()).filter(|&u| waiting[u] == 0).collect();
        Board {
            readers,
            waiting,
            done: vec![false; list.len()],
            ready,
            left: list.len(),
            solved: 0,
            sizes: list.iter().map(|u| u.size).collect(),
        }
    }

    /// The next unit to hand out, if any may start.
    fn next(&mut self) -> Option<usize> {
        self.ready.pop_first()
    }

    /// Notes `u` done (solved now, or kept by an earlier run).
    fn done(&mut self, u: usize) {
        if std::mem::replace(&mut self.done[u], true) {
            return;
        }
        self.ready.remove(&u);
        self.left -= 1;
        self.solved += self.sizes[u];
        for &r in &self.readers[u] {
            self.waiting[r] -= 1;
            if self.waiting[r] == 0 && !self.done[r] {
                self.ready.insert(r);
            }
        }
    }

    fn finished(&self) -> bool {
        self.left == 0
    }
}

/// A worker: waits for the word to start, joins the checkpoints, then
/// solves what it is handed until told to stop. Its errors go to
/// process 0, which ends the run with them.
fn work(solver: &mut dyn Solver, args: &Args, link: &dyn Link) {
    let me = link.rank();
    let failed = |e: anyhow::Error| {
        let text = format!("on {}: {e:#}", link.host());
        link.send(0, &words_of(FAILED, &text));
    };
    loop {
        let (from, words) = receive(link, WORKER_NAP);
        match (from, words.first().copied()) {
            (0, Some(GO)) => break,
            (0, Some(STOP)) => return,
            _ => {}
        }
    }
    let setup = (|| -> anyhow::Result<(Vec<Kept>, Vec<Unit>)> {
        init_threads(args.threads)?;
        let targets: Vec<Target> = solver.targets(&args.out);
        let units = solver
            .units()
            .ok_or_else(|| anyhow::anyhow!("this solver does not split"))?;
        let list = units.units(args.part_size)?;
        let memory = units.memory(args.part_size).worker;
        let kept = targets
            .iter()
            .map(|t| Kept::join(&t.path, &t.made_from, memory))
            .collect::<anyhow::Result<Vec<Kept>>>()?;
        if let Some(avail) = available_memory().filter(|&a| memory > a && !args.ignore_memory_estimate) {
            anyhow::bail!(
                "process {me} needs about {} of memory, but only {} is available; give each process a machine of its own, or a smaller --part-size",
                human_bytes(memory),
                human_bytes(avail)
            );
        }
        Ok((kept, list))
    })();
    let (mut kept, list) = match setup {
        Ok(s) => s,
        Err(e) => return failed(e),
    };
    link.send(0, &[READY]);
    let cpu_start = cpu_time();
    loop {
        let (from, words) = receive(link, WORKER_NAP);
        if from != 0 {
            continue;
        }
        match (words.first().copied(), words.get(1).copied()) {
            (Some(SOLVE), Some(u)) if (u as usize) < list.len() => {
                let solved = solver
                    .units()
                    .ok_or_else(|| anyhow::anyhow!("this solver does not split"))
                    .and_then(|units| units.solve_unit(u as usize, &mut kept));
                match solved {
                    Ok(()) => link.send(0, &[DONE, u]),
                    Err(e) => return failed(e),
                }
            }
            (Some(STOP), _) => {
                let cpu =
                    cpu_time().map_or(0, |c| c.saturating_sub(cpu_start.unwrap_or_default()).as_micros());
                link.send(0, &[BYE, u64::try_from(cpu).unwrap_or(u64::MAX)]);
                return;
            }
            _ => {
                return failed(anyhow::anyhow!(
                    "process 0 sent a message this program does not know: {words:?}"
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_survives_words() {
        for t in [
            "",
            "a",
            "12345678",
            "process 2 on node7: no space left on device é",
        ] {
            let w = words_of(FAILED, t);
            assert_eq!(w[0], FAILED);
            assert_eq!(text_of(&w), t);
        }
    }

    #[test]
    fn board_hands_out_units_once_their_inputs_are_done() {
        // 0 and 1 read nothing; 2 reads both; 3 reads 2.
        let list = vec![
            Unit {
                reads: vec![],
                size: 5,
            },
            Unit {
                reads: vec![],
                size: 7,
            },
            Unit {
                reads: vec![0, 1],
                size: 1,
            },
            Unit {
                reads: vec![2],
                size: 2,
            },
        ];
        let mut b = Board::new(&list);
        b.done(1); // kept by an earlier run
        assert_eq!(b.next(), Some(0));
        assert_eq!(b.next(), None, "2 waits for 0");
        b.done(0);
        assert_eq!(b.next(), Some(2));
        assert!(!b.finished());
        b.done(2);
        b.done(2);
        assert_eq!(b.next(), Some(3));
        b.done(3);
        assert!(b.finished());
        assert_eq!(b.solved, 15);
    }
}
