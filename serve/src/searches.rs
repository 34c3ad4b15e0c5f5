//! How many searches the server runs at once, and how many wait for their
//! turn: a search already keeps every core busy for a second or more, so
//! running more side by side only makes each slower, costs threads and
//! memory, and takes the cores from the lookups. Requests beyond the
//! running ones and a short queue are refused at once (503), for the
//! client to retry later.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The searches admitted: running, or waiting for their turn.
#[derive(Debug)]
pub struct Searches {
    /// One permit per search that may run at once.
    turns: Arc<Semaphore>,
    /// Searches admitted and not yet finished (running or waiting).
    admitted: AtomicUsize,
    /// The most admitted at once: those running and those queued.
    most: usize,
}

impl Searches {
    /// At most `running` searches at once (at least one), and `queued`
    /// more waiting.
    pub fn new(running: usize, queued: usize) -> Arc<Searches> {
        let running = running.max(1);
        Arc::new(Searches {
            turns: Arc::new(Semaphore::new(running)),
            admitted: AtomicUsize::new(0),
            most: running.saturating_add(queued),
        })
    }

    /// A place among the searches, or `None` when every place is taken
    /// (the request is to be refused).
    pub fn admit(self: &Arc<Searches>) -> Option<Admitted> {
        self.admitted
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.most).then_some(n + 1)
            })
            .ok()
            .map(|_| Admitted {
                searches: self.clone(),
            })
    }

    /// Searches admitted now (running or waiting).
    pub fn admitted(&self) -> usize {
        self.admitted.load(Ordering::Acquire)
    }
}

/// A search admitted: running or waiting. Its place is given up when it
/// is dropped, whether it ran or not.
#[derive(Debug)]
pub struct Admitted {
    searches: Arc<Searches>,
}

impl Admitted {
    /// Waits for the search's turn to run, in the order of arrival. The
    /// turn lasts as long as the [`Turn`] (move it to the thread that
    /// searches, so that a search given up by its client still holds its
    /// turn until it has actually stopped).
    pub async fn turn(self) -> Turn {
        // The semaphore is never closed.
        let permit = self.searches.turns.clone().acquire_owned().await.ok();
        Turn {
            _permit: permit,
            _place: self,
        }
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.searches.admitted.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A search's turn to run; the next one starts when it is dropped.
#[derive(Debug)]
pub struct Turn {
    _permit: Option<OwnedSemaphorePermit>,
    _place: Admitted,
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn beyond_the_running_and_the_queue_requests_are_refused() {
        let searches = Searches::new(1, 2);
        let places: Vec<Admitted> = (0..3).map(|_| searches.admit().expect("a place")).collect();
        assert!(searches.admit().is_none(), "one running and two queued: full");
        let mut places = places.into_iter();
        let first = places.next().unwrap().turn().await;
        let second = places.next().unwrap();
        let waiting = tokio::time::timeout(Duration::from_millis(50), second.turn()).await;
        assert!(waiting.is_err(), "one search runs at a time");
        // The second, given up while waiting, frees its place.
        assert_eq!(searches.admitted(), 2);
        assert!(searches.admit().is_some());
        drop(first);
        let third = places.next().unwrap();
        let _turn = tokio::time::timeout(Duration::from_secs(5), third.turn())
            .await
            .expect("the next search runs once the first ends");
        assert_eq!(searches.admitted(), 1);
    }
}
