//! `coordc dryrun` of a bundle: every coordinator it submits, each with the
//! configuration the bundle gives it, and their actions merged in
//! nominal-time order, streamed.
//!
//! The kick-off time is when Oozie submits the coordinators: it is stored
//! at submission (BundleSubmitXCommand:368-373), and PauseTransitService
//! (150-153) starts the PREP bundles whose kick-off has come
//! (BundleJobBean:105, GET_BUNDLE_JOBS_NEED_START); without one the bundle
//! starts at once (BundleSubmitXCommand:156-160). Each coordinator then
//! materializes its actions from its own start, as a coordinator submitted
//! late does (catching up), so the kick-off moves no nominal time. It is
//! shown with the listing.

use super::{
    DryrunArgs, EXIT_ERRORS, EXIT_OK, Format, Tally, printer, stopped, submit, write_action_text,
    write_listing,
};
use crate::cli::actions_json::write_json_actions;
use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::oozie::action::Action;
use crate::oozie::bundle::SubmittedBundle;
use crate::oozie::job::{Job, Options};
use crate::project::load::{self, JobInput, Member, Sources};
use crate::time::datetime::format_utc;
use crate::xml;
use std::io::Write;
use std::iter::Peekable;

pub(super) fn run(
    args: &DryrunArgs,
    doc: &xml::Document,
    input: &JobInput,
    mut sources: Sources,
    options: &Options,
) -> i32 {
    let loaded = match load::bundle(doc, &args.app, input, &mut sources) {
        Ok(loaded) => loaded,
        Err(stop) => return stopped(&sources, stop),
    };
    let (submitted, problems) =
        crate::oozie::bundle::submit(&loaded.bundle, &loaded.config, input.processing_zone);
    let mut exit = EXIT_ERRORS;
    let members = load::bundle_members(
        &args.app,
        input,
        &loaded,
        &submitted,
        problems,
        &sources,
        &mut printer(&mut exit),
    );
    let Some(members) = members else {
        return exit;
    };
    let mut failed = false;
    let mut jobs = Vec::with_capacity(members.len());
    for member in &members {
        match submit(&member.loaded, &member.sources, options) {
            Ok(job) => jobs.push(job),
            Err(_) => failed = true,
        }
    }
    if failed {
        return EXIT_ERRORS;
    }
    let tallies: Vec<Tally> = jobs.iter().map(|_| Tally::default()).collect();
    let listing = Listing {
        bundle: &submitted,
        members: &members,
        jobs: &jobs,
        tallies: &tallies,
        limit: options.limit,
    };
    let exit = write_listing(|out| {
        let failure = match args.format {
            Format::Text => listing.write_text(out),
            Format::Json => listing.write_json(out),
        }?;
        Ok(failure.map(|(member, d)| member.sources.render(&Located::in_app(d))))
    });
    if exit == EXIT_OK {
        for (job, tally) in jobs.iter().zip(&tallies) {
            tally.note_cap(job);
        }
    }
    exit
}

/// Reads, parses and loads the coordinator application at `file`, which the
/// bundle submits as `coordinator`.
/// The bundle's listing: its coordinators, then their actions merged.
struct Listing<'a> {
    bundle: &'a SubmittedBundle<'a>,
    members: &'a [Member<'a>],
    jobs: &'a [Job<'a>],
    /// What each job's stream gave.
    tallies: &'a [Tally],
    limit: Option<usize>,
}

/// A failure while listing: the member whose action failed, and why.
type Failure<'a> = Option<(&'a Member<'a>, Diagnostic)>;

impl Listing<'_> {
    /// The actions of every job in nominal-time order (a tie in the bundle's
    /// order), each with its job and member; stops after an action that
    /// fails, with its failure.
    fn merged(
        &self,
    ) -> impl Iterator<Item = (&Job<'_>, &Member<'_>, Result<Action<'_>, Diagnostic>)> + '_ {
        let mut streams: Vec<(&Job, &Member, Peekable<_>)> = self
            .jobs
            .iter()
            .zip(self.members)
            .zip(self.tallies)
            .map(|((job, member), tally)| (job, member, tally.count(job.actions()).peekable()))
            .collect();
        let mut failed = false;
        std::iter::from_fn(move || {
            if failed {
                return None;
            }
            // A failure comes out first: nothing after it is certain.
            let next = streams
                .iter_mut()
                .enumerate()
                .filter_map(|(i, (_, _, s))| {
                    s.peek().map(|a| (a.as_ref().map(|a| a.nominal).ok(), i))
                })
                .min_by_key(|&(nominal, i)| (nominal.is_some(), nominal, i))?;
            let (_, i) = next;
            let (job, member, stream) = streams.get_mut(i)?;
            let action = stream.next()?;
            failed = action.is_err();
            Some((*job, *member, action))
        })
        .take(self.limit.unwrap_or(usize::MAX))
    }

    fn write_text(&self, out: &mut impl Write) -> std::io::Result<Failure<'_>> {
        let bundle = self.bundle;
        match bundle.kick_off {
            Some(t) => writeln!(out, "bundle {}, kick-off {}", bundle.name, format_utc(t))?,
            None => writeln!(
                out,
                "bundle {}, started at submission (no kick-off-time)",
                bundle.name
            )?,
        }
        let mut jobs = self.jobs.iter().zip(self.members);
        for coordinator in &bundle.coordinators {
            if !coordinator.enabled {
                writeln!(
                    out,
                    "coordinator {}: disabled, not submitted",
                    coordinator.name
                )?;
                continue;
            }
            let Some((job, _)) = jobs.next() else { break };
            writeln!(
                out,
                "coordinator {}: {} ({}), {} to {}{}, {}",
                coordinator.name,
                job.name,
                job.zone.id(),
                format_utc(job.start),
                format_utc(job.end),
                if coordinator.critical {
                    ", critical"
                } else {
                    ""
                },
                coordinator.app_path
            )?;
        }
        for (job, member, action) in self.merged() {
            match action {
                Ok(action) => write_action_text(job, &action, &member.submitted.name, out)?,
                Err(d) => return Ok(Some((member, d))),
            }
        }
        Ok(None)
    }

    fn write_json(&self, out: &mut impl Write) -> std::io::Result<Failure<'_>> {
        let bundle = self.bundle;
        let mut jobs = self.jobs.iter();
        let coordinators: Vec<serde_json::Value> = bundle
            .coordinators
            .iter()
            .map(|c| {
                let mut entry = serde_json::json!({
                    "name": c.name,
                    "enabled": c.enabled,
                    "critical": c.critical,
                    "app_path": c.app_path,
                });
                if c.enabled
                    && let Some(job) = jobs.next()
                    && let Some(fields) = entry.as_object_mut()
                {
                    fields.insert("app".into(), job.name.as_ref().into());
                    fields.insert("timezone".into(), job.zone.id().into());
                    fields.insert("start".into(), format_utc(job.start).into());
                    fields.insert("end".into(), format_utc(job.end).into());
                }
                entry
            })
            .collect();
        write!(
            out,
            "{{\"bundle\": {}, \"kick_off_time\": {}, \"coordinators\": {}, \"actions\": [",
            serde_json::to_string(&bundle.name)?,
            serde_json::to_string(&bundle.kick_off.map(format_utc))?,
            serde_json::to_string(&coordinators)?
        )?;
        let actions = self.merged().map(|(_, member, action)| {
            let name = member.submitted.name.as_str();
            (Some(name), action.map_err(|d| (member, d)))
        });
        let failure = write_json_actions(actions, out)?;
        writeln!(out, "\n]}}")?;
        Ok(failure)
    }
}
