//! One pool for the bridge's per-file work (reading, extracting): `map` runs a function on
//! every item, spread over the cores by a shared counter (so a few heavy files do not leave
//! the other threads idle), and returns the results in the items' order.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::facts::Facts;
use super::source::Source;

/// Most threads started.
const MAX_WORKERS: usize = 8;
/// Stack of a worker: parsers recurse (sqlparser stops at depth 50, which needs more than
/// the 2 MiB a spawned thread gets by default in a debug build).
const WORKER_STACK: usize = 16 * 1024 * 1024;
/// Items per thread below which another thread is not worth starting.
const MIN_ITEMS_PER_WORKER: usize = 16;

/// `f` applied to every item, in the items' order.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    map_spread(items, MIN_ITEMS_PER_WORKER, f)
}

/// Runs `extract_one` on every source, spread over the cores (the bridge's one pool,
/// [`map`]), and appends the results in source order. A file whose
/// extraction panics is recorded in `unparsed`; the rest count.
pub fn per_file<F>(sources: &[Source<'_>], extract_one: F) -> Facts
where
    F: Fn(&Source<'_>) -> Facts + Sync,
{
    let guarded = |source: &Source<'_>| {
        catch_unwind(AssertUnwindSafe(|| extract_one(source))).unwrap_or_else(|_| Facts {
            unparsed: vec![format!("{}: the extractor failed on this file", source.path)],
            ..Facts::default()
        })
    };
    let mut facts = Facts::default();
    for found in map(sources, guarded) {
        facts.append(found);
    }
    facts
}

/// [`map`] for a few items that each take long (compiling a query): a thread for each
/// item, as many as there are cores.
pub fn map_heavy<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    map_spread(items, 1, f)
}

fn map_spread<T: Sync, R: Send>(items: &[T], items_per_worker: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = cores
        .min(MAX_WORKERS)
        .min(items.len().div_ceil(items_per_worker))
        .max(1);
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(items.len()));
    let work = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            mine.push((i, f(item)));
        }
        done.lock().unwrap_or_else(|e| e.into_inner()).extend(mine);
    };
    std::thread::scope(|scope| {
        for _ in 1..workers {
            let spawned = std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, work);
            if spawned.is_err() {
                break;
            }
        }
        work();
    });
    // Each result put in its item's place: no sort, which would move every (often large)
    // result many times over.
    let mut slots: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    for (i, r) in done.into_inner().unwrap_or_else(|e| e.into_inner()) {
        slots[i] = Some(r);
    }
    slots.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_come_back_in_order() {
        let items: Vec<u32> = (0..1000).collect();
        let doubled = super::map(&items, |i| i * 2);
        assert_eq!(doubled, (0..1000).map(|i| i * 2).collect::<Vec<_>>());
        assert!(super::map(&[] as &[u32], |i| *i).is_empty());
    }
}
