//! A log destination that never blocks its writers: lines are appended to
//! a bounded buffer that a thread writes out every few milliseconds (or
//! sooner when it fills). When the buffer is full (nobody reads standard
//! error, say), lines are dropped and counted, and the count is written as
//! soon as the output takes lines again. Writers only take a lock for a
//! copy: no system call, no wake-up per line.

use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Bytes of log lines held at most: several thousand access-log lines.
pub const QUEUE_BYTES: usize = 1 << 20;
/// How often the writer thread looks for lines when not woken.
const TICK: Duration = Duration::from_millis(20);

/// The lines waiting, and the counts.
#[derive(Default)]
struct Queue {
    buf: Vec<u8>,
    /// Lines accepted, in all.
    accepted: u64,
    /// Lines written out (with the drop notice due with them).
    written: u64,
    /// Lines dropped and not yet reported.
    unreported: u64,
    /// Lines dropped, in all.
    dropped_total: u64,
}

struct Shared {
    queue: Mutex<Queue>,
    /// Wakes the writer thread before its tick.
    wake: Condvar,
    capacity: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // The queue is plain data: a writer that panicked left it whole.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A cloneable [`Write`] whose every `write` is one log line (the tracing
/// formatter writes each event with one `write_all`), added to the buffer
/// or, when the buffer is full, dropped and counted; it never waits for
/// the output.
#[derive(Clone)]
pub struct LogPipe {
    shared: Arc<Shared>,
}

impl LogPipe {
    /// Starts a thread writing the lines to `sink`, holding at most
    /// `capacity` bytes of lines not yet written.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn spawn(sink: impl Write + Send + 'static, capacity: usize) -> std::io::Result<LogPipe> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            wake: Condvar::new(),
            capacity,
        });
        let s = shared.clone();
        std::thread::Builder::new()
            .name("log".into())
            .spawn(move || drain(&s, sink))?;
        Ok(LogPipe { shared })
    }

    /// Lines dropped so far because the buffer was full.
    pub fn dropped(&self) -> u64 {
        self.shared.lock().dropped_total
    }

    /// Waits until every line accepted so far is written, or `limit` has
    /// passed; whether all were written.
    pub fn flush_for(&self, limit: Duration) -> bool {
        let target = self.shared.lock().accepted;
        self.shared.wake.notify_one();
        let start = Instant::now();
        while self.shared.lock().written < target {
            if start.elapsed() >= limit {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        true
    }
}

impl Write for LogPipe {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        let mut q = self.shared.lock();
        if q.buf.len() + line.len() > self.shared.capacity {
            q.unreported += 1;
            q.dropped_total += 1;
        } else {
            q.buf.extend_from_slice(line);
            q.accepted += 1;
            if q.buf.len() > self.shared.capacity / 2 {
                self.shared.wake.notify_one();
            }
        }
        Ok(line.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The writer thread: takes what the buffer holds each tick (or when
/// woken), writes it, then the number of lines dropped meanwhile. Ends when
/// no [`LogPipe`] is left. Write errors are ignored: there is nowhere else
/// to report them.
fn drain(shared: &Arc<Shared>, mut out: impl Write) {
    let mut batch = Vec::new();
    loop {
        let (accepted, dropped) = {
            let mut q = shared.lock();
            while q.buf.is_empty() && q.unreported == 0 {
                if Arc::strong_count(shared) == 1 {
                    return;
                }
                q = shared
                    .wake
                    .wait_timeout(q, TICK)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
            batch.clear();
            std::mem::swap(&mut batch, &mut q.buf);
            (q.accepted, std::mem::take(&mut q.unreported))
        };
        let _ = out.write_all(&batch);
        if dropped > 0 {
            let _ = writeln!(
                out,
                "WARN log: {dropped} log lines dropped: the log output was not taking them fast enough"
            );
        }
        let _ = out.flush();
        shared.lock().written = accepted;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Condvar, Mutex};

    use super::*;

    /// Whether the sink is open, and what it was given.
    type Sink = Mutex<(bool, Vec<u8>)>;

    /// A sink that blocks every write until opened, then keeps the bytes.
    #[derive(Clone, Default)]
    struct Gate {
        state: Arc<(Sink, Condvar)>,
    }

    impl Gate {
        fn open(&self) {
            self.state.0.lock().unwrap().0 = true;
            self.state.1.notify_all();
        }

        fn text(&self) -> String {
            String::from_utf8(self.state.0.lock().unwrap().1.clone()).unwrap()
        }
    }

    impl Write for Gate {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let (lock, cv) = &*self.state;
            let mut s = cv.wait_while(lock.lock().unwrap(), |s| !s.0).unwrap();
            s.1.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_blocked_output_drops_and_counts_lines_and_never_blocks_a_writer() {
        let sink = Gate::default();
        let pipe = LogPipe::spawn(sink.clone(), 1024).unwrap();
        let start = Instant::now();
        let mut w = pipe.clone();
        for i in 0..10_000 {
            // One write per line, as the tracing formatter makes them.
            w.write_all(format!("line {i}\n").as_bytes()).unwrap();
        }
        assert!(start.elapsed() < Duration::from_secs(2), "{:?}", start.elapsed());
        let dropped = pipe.dropped();
        // The thread holds one batch while it is blocked, the buffer
        // 1 KB more.
        assert!(dropped > 5_000, "{dropped}");
        assert!(!pipe.flush_for(Duration::from_millis(50)), "still blocked");
        sink.open();
        assert!(pipe.flush_for(Duration::from_secs(5)));
        let text = sink.text();
        assert!(text.starts_with("line 0\n"), "{text}");
        // Each batch written is followed by the number dropped since the
        // one before.
        let reported: u64 = text
            .lines()
            .filter_map(|l| l.strip_prefix("WARN log: ")?.split_once(" log lines dropped"))
            .map(|(n, _)| n.parse::<u64>().unwrap())
            .sum();
        assert_eq!(reported, dropped, "{text}");
        let written = text.lines().filter(|l| l.starts_with("line ")).count() as u64;
        assert_eq!(written + dropped, 10_000, "every line written or counted");
        // After the jam, lines flow again, in order.
        w.write_all(b"after\n").unwrap();
        assert!(pipe.flush_for(Duration::from_secs(5)));
        assert!(sink.text().ends_with("after\n"));
        assert_eq!(pipe.dropped(), dropped);
    }
}
