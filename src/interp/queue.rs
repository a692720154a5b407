//! The event queue of simulated time, one for the coordinator engine and the
//! workflow jobs it runs: events come out in time order, and events due at
//! the same time in the order they were queued (a sequence number breaks the
//! tie, never the event itself), or in a place held for them earlier.

use super::clock::Millis;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// Events of type `E`, each due at a time.
#[derive(Debug, Clone)]
pub(crate) struct EventQueue<E> {
    /// The sequence number of the last event queued.
    seq: u64,
    heap: BinaryHeap<Reverse<Entry<E>>>,
}

#[derive(Debug, Clone)]
struct Entry<E> {
    at: Millis,
    /// Its place among events due at `at`: its own sequence number, or
    /// one held earlier.
    place: u64,
    seq: u64,
    event: E,
}

impl<E> Entry<E> {
    fn key(&self) -> (Millis, u64, u64) {
        (self.at, self.place, self.seq)
    }
}

/// A place in the order of events due at the same time, held when it is
/// taken: events queued later in it come out as if queued then (in their
/// own order among themselves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Place(u64);

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl<E> Eq for Entry<E> {}

impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            seq: 0,
            heap: BinaryHeap::new(),
        }
    }
}

impl<E> EventQueue<E> {
    /// Queues `event` at `at`, after every event already queued for `at`.
    pub(crate) fn push(&mut self, at: Millis, event: E) {
        self.seq += 1;
        self.heap.push(Reverse(Entry {
            at,
            place: self.seq,
            seq: self.seq,
            event,
        }));
    }

    /// Holds the place an event queued now would take.
    pub(crate) fn hold_place(&mut self) -> Place {
        self.seq += 1;
        Place(self.seq)
    }

    /// Queues `event` at `at` in `place`: after the events due at `at`
    /// that were queued before the place was held, before those queued
    /// after it (and after the events already in the place).
    pub(crate) fn push_in(&mut self, at: Millis, place: Place, event: E) {
        self.seq += 1;
        self.heap.push(Reverse(Entry {
            at,
            place: place.0,
            seq: self.seq,
            event,
        }));
    }

    /// The next event's time.
    pub(crate) fn next_at(&self) -> Option<Millis> {
        self.heap.peek().map(|Reverse(entry)| entry.at)
    }

    /// Takes the next event, with its time.
    pub(crate) fn pop(&mut self) -> Option<(Millis, E)> {
        self.heap
            .pop()
            .map(|Reverse(Entry { at, event, .. })| (at, event))
    }

    /// Keeps only the events `keep` accepts, in their order.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&E) -> bool) {
        self.heap.retain(|Reverse(entry)| keep(&entry.event));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain<E>(queue: &mut EventQueue<E>) -> Vec<(Millis, E)> {
        std::iter::from_fn(|| queue.pop()).collect()
    }

    #[test]
    fn events_come_out_in_time_order() {
        let mut queue = EventQueue::default();
        queue.push(30, "c");
        queue.push(10, "a");
        queue.push(20, "b");
        assert_eq!(queue.next_at(), Some(10));
        assert_eq!(drain(&mut queue), [(10, "a"), (20, "b"), (30, "c")]);
        assert_eq!(queue.next_at(), None);
    }

    /// At the same time, the order they were queued in, whatever the events
    /// themselves compare as.
    #[test]
    fn events_at_the_same_time_come_out_in_the_order_queued() {
        let mut queue = EventQueue::default();
        queue.push(5, 3);
        queue.push(5, 1);
        queue.push(1, 9);
        queue.push(5, 2);
        assert_eq!(drain(&mut queue), [(1, 9), (5, 3), (5, 1), (5, 2)]);
    }

    /// An event queued after others were taken still comes after those
    /// queued before it for the same time.
    #[test]
    fn the_sequence_goes_on_across_pops() {
        let mut queue = EventQueue::default();
        queue.push(5, "first");
        queue.push(0, "now");
        assert_eq!(queue.pop(), Some((0, "now")));
        queue.push(5, "second");
        assert_eq!(drain(&mut queue), [(5, "first"), (5, "second")]);
    }

    #[test]
    fn events_in_a_held_place_come_out_as_if_queued_when_it_was_held() {
        let mut queue = EventQueue::default();
        queue.push(5, "before");
        let place = queue.hold_place();
        queue.push(5, "after");
        queue.push_in(5, place, "held 1");
        queue.push_in(3, place, "earlier");
        queue.push_in(5, place, "held 2");
        assert_eq!(
            drain(&mut queue),
            [
                (3, "earlier"),
                (5, "before"),
                (5, "held 1"),
                (5, "held 2"),
                (5, "after")
            ]
        );
    }

    #[test]
    fn retain_keeps_the_order() {
        let mut queue = EventQueue::default();
        for (at, e) in [(2, 1), (1, 2), (2, 3), (1, 4)] {
            queue.push(at, e);
        }
        queue.retain(|e| e % 2 == 0);
        queue.push(1, 6);
        assert_eq!(drain(&mut queue), [(1, 2), (1, 4), (1, 6)]);
    }
}
