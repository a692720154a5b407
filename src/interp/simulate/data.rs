//! The simulated file system: when each data instance completes.
//!
//! An instance is known by its URI (the directory a uri-template gives); its
//! done-flag appears when it completes, so a dependency path (`URI/flag`, or
//! the directory itself for an empty flag) exists from then on.

use crate::interp::clock::Millis;
use rustc_hash::FxHashMap;

/// Most instances a scenario's `[[data]]` ranges may list: a year of
/// one-minute instances is half a million, so this is far past any real
/// scenario, and bounds memory for a mistaken one.
pub(crate) const MAX_INSTANCES: usize = 5_000_000;

#[derive(Default)]
pub struct DataStore {
    /// URI → when it completes.
    arrivals: FxHashMap<Box<str>, Millis>,
}

impl DataStore {
    /// Records that `uri` completes at `at` (a later entry replaces an earlier
    /// one: a `uri` entry overrides a range's).
    pub(crate) fn set(&mut self, uri: &str, at: Millis) {
        self.arrivals.insert(uri.into(), at);
    }

    /// Removes what a range said of `uri` (one of its `missing` instances).
    pub(crate) fn unset(&mut self, uri: &str) {
        self.arrivals.remove(uri);
    }

    /// Records an instance a workflow wrote at `at`, unless it was there
    /// earlier; true when this is news.
    pub(crate) fn produce(&mut self, uri: &str, at: Millis) -> bool {
        match self.arrivals.get_mut(uri) {
            Some(when) if *when <= at => false,
            Some(when) => {
                *when = at;
                true
            }
            None => {
                self.arrivals.insert(uri.into(), at);
                true
            }
        }
    }

    /// When `uri` completes, if ever (as scripted so far).
    pub(crate) fn arrival(&self, uri: &str) -> Option<Millis> {
        self.arrivals.get(uri).copied()
    }

    /// Whether `uri` exists at `now`.
    pub(crate) fn exists(&self, uri: &str, now: Millis) -> bool {
        self.arrival(uri).is_some_and(|t| t <= now)
    }
}

/// A dependency path: the instance URI with its done-flag (CU:68-75,
/// FSU:118-123).
pub(crate) fn dependency_path(uri: &str, done_flag: &str) -> String {
    if done_flag.is_empty() {
        uri.to_string()
    } else {
        format!("{uri}/{done_flag}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_product_never_moves_an_arrival_later() {
        let mut store = DataStore::default();
        store.set("a", 100);
        assert!(!store.produce("a", 200));
        assert_eq!(store.arrival("a"), Some(100));
        assert!(store.produce("a", 50));
        assert!(store.produce("b", 10));
        assert!(store.exists("b", 10) && !store.exists("b", 9));
    }

    #[test]
    fn done_flags() {
        assert_eq!(
            dependency_path("hdfs://n/d", "_SUCCESS"),
            "hdfs://n/d/_SUCCESS"
        );
        assert_eq!(dependency_path("hdfs://n/d", ""), "hdfs://n/d");
    }
}
