//! Parallel loops on rayon's pool, compiled once.
//!
//! Generic code is compiled in the crate that names its types: each
//! `par_iter()` pipeline in a solver or command generic over the game
//! brought rayon's whole machinery (jobs, joins, splitting, unwinding)
//! into every game's crate again: two fifths of what the compiler
//! instantiated there (`-Z dump-mono-stats` of `games-topple-commands`,
//! issue 50). Here rayon is instantiated once, behind [`each`], whose
//! work is a `dyn` call per share: callers give it shares of work
//! (thousands of positions, a block, a tier), never single cheap items,
//! so the indirect call costs nothing measurable. The helpers around it are
//! small generic wrappers with no rayon inside.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

/// Runs `work(i)` for every `i` in `0..n` on rayon's pool, shares split
/// among the workers as rayon splits a range; returns when all are done.
/// A panic in `work` reaches the caller, as rayon's own loops pass it on.
pub fn each(n: usize, work: &(dyn Fn(usize) + Sync)) {
    (0..n).into_par_iter().for_each(work);
}

/// Runs `a` and `b`, perhaps at once on two workers, as [`rayon::join`]
/// does, with rayon's part compiled once.
pub fn join_dyn(a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)) {
    rayon::join(a, b);
}

/// `a()` and `b()`, perhaps at once: [`rayon::join`] without its
/// machinery compiled at each caller.
#[inline]
pub fn join<A: Send, B: Send>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    let (mut a, mut b) = (Some(a), Some(b));
    let (mut ra, mut rb) = (None, None);
    join_dyn(&mut || ra = a.take().map(|f| f()), &mut || {
        rb = b.take().map(|f| f())
    });
    match (ra, rb) {
        (Some(ra), Some(rb)) => (ra, rb),
        // join_dyn runs each side once before it returns.
        _ => unreachable!("rayon::join ran both sides"),
    }
}

/// A share of `len` items for work that keeps state per share (a memo, a
/// count): about four shares a worker, as rayon first splits, but at
/// least `least` items.
pub fn share_of(len: usize, least: usize) -> usize {
    len.div_ceil(4 * rayon::current_num_threads().max(1))
        .max(least)
        .max(1)
}

/// Takes what a slot holds, whether or not a panicking share poisoned it
/// (the panic itself has reached the caller by then).
fn take<T>(slot: Mutex<Option<T>>) -> Option<T> {
    slot.into_inner().unwrap_or_else(PoisonError::into_inner)
}

/// `f(i)` for every `i` in `0..n`, computed on the pool, in order of `i`.
#[inline]
pub fn map<T: Send>(n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let slots: Vec<Mutex<Option<T>>> = (0..n).map(|_| Mutex::new(None)).collect();
    each(n, &|i| {
        let v = f(i);
        *slots[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(v);
    });
    slots
        .into_iter()
        .map(|s| take(s).expect("each runs every share"))
        .collect()
}

/// `f(i)` for every `i` in `0..n`, in order, or the error of the first
/// share (by `i`) that failed; once one fails, shares not yet started are
/// skipped.
///
/// # Errors
/// The first error, by `i`, of the shares that ran.
#[inline]
pub fn try_map<T: Send, E: Send>(n: usize, f: impl Fn(usize) -> Result<T, E> + Sync) -> Result<Vec<T>, E> {
    let failed = AtomicBool::new(false);
    let slots: Vec<Mutex<Option<Result<T, E>>>> = (0..n).map(|_| Mutex::new(None)).collect();
    each(n, &|i| {
        if failed.load(Relaxed) {
            return;
        }
        let v = f(i);
        if v.is_err() {
            failed.store(true, Relaxed);
        }
        *slots[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(v);
    });
    let mut out = Vec::with_capacity(n);
    let mut first_error = None;
    for slot in slots {
        match take(slot) {
            Some(Ok(v)) if first_error.is_none() => out.push(v),
            Some(Err(e)) if first_error.is_none() => first_error = Some(e),
            // Skipped after a failure, or after the first error.
            _ => {}
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// [`try_map`] for work that returns nothing.
///
/// # Errors
/// The first error, by `i`, of the shares that ran.
#[inline]
pub fn try_each<E: Send>(n: usize, f: impl Fn(usize) -> Result<(), E> + Sync) -> Result<(), E> {
    try_map(n, f).map(drop)
}

/// `f(k, chunk)` for each chunk `k` of `data` (of `size` items, the last
/// perhaps fewer), the chunks on the pool; what each returned, in order.
///
/// # Panics
/// `size` is 0.
#[inline]
pub fn chunks_mut<T: Send, R: Send>(
    data: &mut [T],
    size: usize,
    f: impl Fn(usize, &mut [T]) -> R + Sync,
) -> Vec<R> {
    let parts: Vec<Mutex<&mut [T]>> = data.chunks_mut(size).map(Mutex::new).collect();
    map(parts.len(), |k| {
        f(k, &mut parts[k].lock().unwrap_or_else(PoisonError::into_inner))
    })
}

/// `f(item)` for every item of `items`, on the pool; once one fails,
/// items not yet started are skipped.
///
/// # Errors
/// The first error, by position in `items`, of those that ran.
#[inline]
pub fn try_each_mut<T: Send, E: Send>(
    items: &mut [T],
    f: impl Fn(&mut T) -> Result<(), E> + Sync,
) -> Result<(), E> {
    let items: Vec<Mutex<&mut T>> = items.iter_mut().map(Mutex::new).collect();
    try_each(items.len(), |k| {
        f(&mut items[k].lock().unwrap_or_else(PoisonError::into_inner))
    })
}

/// `f(range)` for consecutive ranges of `share` indices covering `0..len`
/// (the last perhaps shorter), on the pool, in order of the ranges.
///
/// # Panics
/// `share` is 0.
#[inline]
pub fn map_ranges<T: Send>(
    len: usize,
    share: usize,
    f: impl Fn(std::ops::Range<usize>) -> T + Sync,
) -> Vec<T> {
    assert!(share > 0, "a share holds at least one index");
    map(len.div_ceil(share), |k| f(k * share..len.min((k + 1) * share)))
}

/// [`map_ranges`] for work that may fail.
///
/// # Errors
/// The first error, by range, of the ranges that ran.
#[inline]
pub fn try_map_ranges<T: Send, E: Send>(
    len: usize,
    share: usize,
    f: impl Fn(std::ops::Range<usize>) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E> {
    assert!(share > 0, "a share holds at least one index");
    try_map(len.div_ceil(share), |k| f(k * share..len.min((k + 1) * share)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn map_keeps_the_order_of_the_shares() {
        let v = map(1000, |i| i * i);
        assert_eq!(v, (0..1000).map(|i| i * i).collect::<Vec<_>>());
        assert!(map(0, |i| i).is_empty());
    }

    #[test]
    fn try_map_gives_the_first_error_by_index_and_skips_the_rest() {
        let ran = AtomicUsize::new(0);
        let r: Result<Vec<usize>, usize> = try_map(100_000, |i| {
            ran.fetch_add(1, Relaxed);
            if i % 1000 == 7 {
                Err(i)
            } else {
                Ok(i)
            }
        });
        // A failing share at 7 modulo 1000: the first of those that ran.
        assert_eq!(r.unwrap_err() % 1000, 7);
        assert!(ran.load(Relaxed) > 0);
        assert_eq!(try_map(10, Ok::<usize, ()>), Ok((0..10).collect()));
    }

    #[test]
    fn try_map_of_one_failing_share_names_it() {
        let r: Result<Vec<()>, usize> = try_map(64, |i| if i == 40 { Err(i) } else { Ok(()) });
        assert_eq!(r, Err(40));
    }

    #[test]
    fn chunks_mut_hands_out_each_chunk_once_with_its_number() {
        let mut v = vec![0usize; 1003];
        chunks_mut(&mut v, 10, |k, c| {
            for (j, x) in c.iter_mut().enumerate() {
                *x += k * 10 + j;
            }
        });
        assert_eq!(v, (0..1003).collect::<Vec<_>>());
    }

    #[test]
    fn chunks_mut_returns_each_chunks_result_in_order() {
        let mut v: Vec<u64> = (1..=10).collect();
        let sums = chunks_mut(&mut v, 3, |_, c| c.iter().sum::<u64>());
        assert_eq!(sums, vec![6, 15, 24, 10]);
    }

    #[test]
    fn try_each_mut_changes_every_item_or_names_the_first_failure() {
        let mut v: Vec<u32> = (0..100).collect();
        assert_eq!(
            try_each_mut(&mut v, |x| -> Result<(), u32> {
                *x *= 2;
                Ok(())
            }),
            Ok(())
        );
        assert_eq!(v, (0..100).map(|x| x * 2).collect::<Vec<_>>());
        assert_eq!(
            try_each_mut(&mut v, |x| if *x == 80 { Err(*x) } else { Ok(()) }),
            Err(80)
        );
    }

    #[test]
    fn ranges_cover_the_length_exactly() {
        let r = map_ranges(1001, 100, |r| r);
        assert_eq!(r.len(), 11);
        assert_eq!(r[10], 1000..1001);
        assert!(r.windows(2).all(|w| w[0].end == w[1].start));
        assert_eq!(try_map_ranges(0, 7, |r| Ok::<_, ()>(r.len())), Ok(vec![]));
    }

    #[test]
    fn join_gives_both_results() {
        assert_eq!(join(|| 1 + 1, || "two"), (2, "two"));
    }

    #[test]
    #[should_panic(expected = "boom")]
    fn a_panicking_share_reaches_the_caller() {
        each(100, &|i| {
            if i == 50 {
                panic!("boom");
            }
        });
    }
}
