//! The server's outages: what stops while it is down, and what it finds when it comes back.

use super::*;

impl<'a> Engine<'a> {
    pub(super) fn outage_end_after(&self, t: Millis) -> Millis {
        self.outages
            .iter()
            .find(|(f, e)| *f <= t && t < *e)
            .map_or(t, |(_, e)| *e)
    }

    // -----------------------------------------------------------------------
    // Outages.

    pub(super) fn outage_start(&mut self) {
        self.down = true;
        // The command queue is in memory: lost.
        self.queue.retain(|e| !e.is_command());
        for clock in &mut self.services {
            clock.queued = None;
            clock.generation += 1;
        }
        for j in 0..self.jobs.len() {
            for a in 0..self.job(j).actions.len() {
                let action = self.action_mut(j, a);
                if action.status == ActionStatus::Waiting && action.chain.next.is_some() {
                    // Brought to its first check at or after now, the chain's
                    // `last` is the last check that ran before the server
                    // went down (its lastModified for the RecoveryService).
                    self.wake_chain(j, a);
                    let action = self.action_mut(j, a);
                    action.chain.next = None;
                    action.chain.generation += 1;
                    self.job_mut(j).lost.insert(a);
                }
            }
        }
    }

    pub(super) fn outage_end(&mut self) {
        self.down = false;
        let restart = self.now + SERVICE_DELAY;
        for clock in &mut self.services {
            clock.origin = restart;
        }
        self.wake_materialization();
        self.wake(Service::Status, restart);
        self.wake_pause();
        self.wake_recovery();
    }

    // -----------------------------------------------------------------------
    // Ops.
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{coordinator, history, simulate};

    /// While the server is down, the commands in its memory queue are lost:
    /// action 2's check due at 01:00 does not run; once the server is back
    /// at 01:30, the RecoveryService re-queues it (RecoveryService.java:267-365)
    /// and the action is READY.
    #[test]
    fn checks_due_in_an_outage_run_after_it() {
        let scenario = "start = \"2009-01-01T00:00Z\"\nuntil = \"2009-01-01T03:00Z\"\n[server]\n\"oozie.service.CoordMaterializeTriggerService.materialization.window\" = 10800\n[[data]]\nuri = \"hdfs://nn/logs/2009010101\"\n[[outage]]\nfrom = \"2009-01-01T00:50Z\"\nto = \"2009-01-01T01:30Z\"\n";
        let app = coordinator("2009-01-01T03:00Z", "");
        simulate(&app, scenario, None, |engine| {
            let ready: Vec<String> = history(engine, Some(2))
                .into_iter()
                .filter(|(_, status, _)| *status == "READY")
                .map(|(t, _, _)| t)
                .collect();
            assert_eq!(ready, ["2009-01-01T01:30Z"]);
            assert!(!engine.down);
        });
    }
}
