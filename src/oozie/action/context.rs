//! The EL contexts of an action: the dataset functions of its instance
//! elements, including the echo pass of a range ([`InstanceContext`]), and
//! the action functions of its workflow values ([`ActionContext`]), with
//! the HCatalog ones (CoordELFunctions.java). (A child of `action`: only
//! resolving an action builds them, so their fields stay private to it.)

use super::Event;
use crate::el::Value;
use crate::el::eval::Context;
use crate::el::library::FunctionDef;
use crate::oozie::hcat;
use crate::time::calendar::CalendarUnit;
use crate::time::datetime::ProcessingZone;
use crate::time::instance::DatasetClock;
use crate::time::zone::Zone;
use chrono::{DateTime, Utc};
use std::borrow::Cow;

/// The dataset functions of instance elements.
pub(super) struct InstanceContext<'c> {
    pub(super) clock: &'c DatasetClock,
    pub(super) nominal: DateTime<Utc>,
    pub(super) job_zone: &'c Zone,
    pub(super) pz: ProcessingZone,
    /// The first pass of a range: instance functions echo themselves.
    pub(super) echo: bool,
    /// The last instance written as a datetime, so that reading the value
    /// back can skip the parser when it is that text unchanged.
    pub(super) last: std::cell::Cell<Option<DateTime<Utc>>>,
}

fn text(s: String) -> Value<'static> {
    Value::Str(Cow::Owned(s))
}

/// Argument `i` of a call as text; empty when there is none.
fn arg_text(args: &[Value], i: usize) -> String {
    args.get(i)
        .map_or_else(String::new, |a| a.to_text().into_owned())
}

impl Context for InstanceContext<'_> {
    fn call(
        &self,
        def: &'static FunctionDef,
        args: &[Value],
    ) -> Option<Result<Value<'static>, String>> {
        if def.namespace != Some("coord") {
            return None;
        }
        let arg = |i: usize| arg_text(args, i);
        // The call written back, `${coord:current(-1)}`, as one string.
        let echo = || {
            let mut out = String::with_capacity(24 + def.name.len());
            out.push_str("${coord:");
            out.push_str(def.name);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                a.write_to(&mut out);
            }
            out.push_str(")}");
            text(out)
        };
        let long = |i: usize| args.get(i).map_or(Ok(0), |a| a.to_long());
        let formatted = |t: Result<Option<DateTime<Utc>>, crate::time::instance::InstanceError>| {
            t.map(|t| {
                self.last.set(t);
                text(t.map_or_else(String::new, |t| self.pz.format(t)))
            })
            .map_err(|e| e.to_string())
        };
        Some(match def.name {
            "current" | "offset" | "absolute" | "endOfDays" | "endOfWeeks" | "endOfMonths"
                if self.echo =>
            {
                Ok(echo())
            }
            "latest" | "future" | "latestRange" | "futureRange" => Ok(echo()),
            "current" => long(0).and_then(|n| formatted(self.clock.current(self.nominal, n))),
            "offset" => long(0).and_then(|n| {
                let unit = arg(1);
                let unit = CalendarUnit::parse(&unit).ok_or_else(|| {
                    format!("No enum constant org.apache.oozie.coord.TimeUnit.{unit}")
                })?;
                formatted(self.clock.offset(self.nominal, n, unit))
            }),
            "hoursInDay" => long(0).and_then(|n| {
                self.clock
                    .hours_in_day(self.nominal, n)
                    .map(|h| Value::Long(h.into()))
                    .map_err(|e| e.to_string())
            }),
            "daysInMonth" => long(0).and_then(|n| {
                self.clock
                    .days_in_month(self.nominal, n)
                    .map(|d| Value::Long(d.into()))
                    .map_err(|e| e.to_string())
            }),
            "tzOffset" => Ok(Value::Long(
                self.clock.tz_offset(self.nominal, self.job_zone).into(),
            )),
            _ => return None,
        })
    }
}

impl ActionContext<'_> {
    /// The HCatalog functions (spec §6.8), on the URIs of the event named by
    /// the first argument; `None` for any other function.
    fn hcatalog(&self, function: &str, args: &[Value]) -> Option<Result<Value<'static>, String>> {
        let reads_inputs = match function {
            "databaseIn"
            | "tableIn"
            | "dataInPartitionFilter"
            | "dataInPartitionMin"
            | "dataInPartitionMax"
            | "dataInPartitions" => true,
            "databaseOut" | "tableOut" | "dataOutPartitions" | "dataOutPartitionValue" => false,
            _ => return None,
        };
        let args: Vec<String> = args.iter().map(|a| a.to_text().into_owned()).collect();
        let wanted = args.first().map_or("", String::as_str);
        let mut all = self.inputs.iter().chain(self.outputs);
        if !all.any(|e| e.name == wanted) {
            // HCatELFunctions.isValidDataEvent, at submission.
            return Some(Err(format!("data set name {wanted} is not valid")));
        }
        let events = if reads_inputs {
            self.inputs
        } else {
            self.outputs
        };
        let event = events.iter().find(|e| e.name == wanted);
        hcat::call(
            function,
            &args,
            event.map(|e| e.uris.as_slice()),
            event.is_some_and(|e| !e.unresolved.is_empty()),
        )
        .map(|r| r.map(text))
    }
}

/// The action functions of the workflow configuration (`coord-action-start`).
pub(super) struct ActionContext<'c> {
    pub(super) nominal: DateTime<Utc>,
    pub(super) pz: ProcessingZone,
    pub(super) raw_name: &'c str,
    pub(super) inputs: &'c [Event<'c>],
    pub(super) outputs: &'c [Event<'c>],
    /// Named `<input-logic>` nodes: which data they select is known only when
    /// the data are, so `coord:dataIn` of one stays the call (CoordELFunctions.java:451-477).
    pub(super) logic_names: &'c [&'c str],
}

impl Context for ActionContext<'_> {
    fn call(
        &self,
        def: &'static FunctionDef,
        args: &[Value],
    ) -> Option<Result<Value<'static>, String>> {
        if def.namespace != Some("coord") {
            return None;
        }
        let name = || arg_text(args, 0);
        if let Some(result) = self.hcatalog(def.name, args) {
            return Some(result);
        }
        let events = |events: &[Event], kind: &str| {
            let wanted = name();
            match events.iter().find(|e| e.name == wanted) {
                // Unresolved instances leave the call itself (CoordELFunctions.java:451-477).
                Some(e) if !e.unresolved.is_empty() => {
                    Ok(text(format!("${{coord:{kind}('{wanted}')}}")))
                }
                Some(e) => Ok(text(e.uris.join(","))),
                None if kind == "dataIn" && self.logic_names.contains(&wanted.as_str()) => {
                    Ok(text(format!("${{coord:dataIn('{wanted}')}}")))
                }
                None => {
                    let what = if kind == "dataIn" {
                        "data-in"
                    } else {
                        "data-out"
                    };
                    let names: Vec<&str> = events.iter().map(|e| e.name).collect();
                    let suggestion =
                        crate::diag::closest(&wanted, names.iter().map(|n| n.to_string()))
                            .map(|best| format!(": did you mean `{best}`?"))
                            .unwrap_or_default();
                    Err(match names.as_slice() {
                        [] => {
                            format!("{wanted} is not a {what} of this coordinator, which has none")
                        }
                        names => format!(
                            "{wanted} is not a {what} of this coordinator (its {what}s: {}){suggestion}",
                            names.join(", ")
                        ),
                    })
                }
            }
        };
        Some(match def.name {
            "nominalTime" => Ok(text(self.pz.format(self.nominal))),
            "dataIn" => events(self.inputs, "dataIn"),
            "dataOut" => events(self.outputs, "dataOut"),
            "name" => Ok(text(self.raw_name.to_string())),
            _ => return None,
        })
    }
}
