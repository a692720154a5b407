//! The files of a check checked on every core, one worker per core taking
//! the next file, a bug on one file reported as that file's error.

use super::document::check_target;
use super::{Plan, Report, Target};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

const WORKER_STACK_BYTES: usize = 32 * 1024 * 1024;

/// Checks `files` on every core, each report in its file's place. (Each
/// worker writes into the file's own slot: no list per worker to grow, and
/// no sort, whose fresh memory the kernel would have to clear.)
pub(super) fn check_all(files: &[Target], plan: &Plan) -> Vec<Report> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len())
        .max(1);
    let next = AtomicUsize::new(0);
    let slots: Vec<OnceLock<Report>> = files.iter().map(|_| OnceLock::new()).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            // Room for the recursive walks of a large workflow graph.
            let spawned = std::thread::Builder::new()
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(scope, || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let (Some(target), Some(slot)) = (files.get(i), slots.get(i)) else {
                            break;
                        };
                        let _ = slot.set(check_guarded(target, plan));
                    }
                });
            if spawned.is_err() {
                // The threads started (or this one) do the work.
                break;
            }
        }
    });
    // A file no worker reached (no thread could start at all) is checked here.
    slots
        .into_iter()
        .zip(files)
        .map(|(slot, target)| {
            slot.into_inner()
                .unwrap_or_else(|| check_guarded(target, plan))
        })
        .collect()
}

/// [`check_target`], with a bug in coordc reported as this file's error
/// (exit 2) rather than ending the run: the other files are still checked.
fn check_guarded(target: &Target, plan: &Plan) -> Report {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_target(target, plan)))
        .unwrap_or_else(|_| {
            Report::failed(format!(
                "{}: coordc failed on this file (a bug: please report it with the file)",
                target.path.display()
            ))
        })
}
