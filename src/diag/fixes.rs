//! The registry of fixes: every kind of edit a diagnostic can carry, with its
//! safety (ruff's applicability). `coordc check --fix` applies the safe ones,
//! `--unsafe-fixes` the others too; an editor prefers the safe ones. The
//! `--fix` help, the man page and docs/check.md list this table (a test keeps
//! docs/check.md in step).

use super::rules::{
    CRON_UNIX_WEEKDAYS, Code, EL_UNKNOWN_FUNCTION, EL_UNKNOWN_VARIABLE, INPUT_LOGIC, LEGACY_ZONE,
    SERVER_UNSUPPORTED, SUPPRESSION_UNUSED, TIME_HOUR_24, UNDEFINED_DATASET, WF_TRANSITION,
    XML_CONTENT,
};
use crate::diag::Safety;

/// Declares [`FixKind`] and [`FixKind::ALL`] from one table, so that no kind
/// is left out of the lists made from it; each row must name its safety.
macro_rules! fix_kinds {
    ($($(#[doc = $why:literal])* $kind:ident = ($code:expr, $name:literal, $safety:ident, $does:literal, $effect:literal);)*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum FixKind {
            $($(#[doc = $why])* $kind,)*
        }

        impl FixKind {
            pub const ALL: &[FixKind] = &[$(FixKind::$kind),*];

            fn row(self) -> (Code, &'static str, Safety, &'static str, &'static str) {
                match self {
                    $(FixKind::$kind => ($code, $name, Safety::$safety, $does, $effect),)*
                }
            }
        }
    };
}

fix_kinds! {
    /// Java reads a legacy three-letter ID with the rules of the zone the JDK
    /// maps it to: `sun.util.calendar.ZoneInfoFile` aliases the IDs of
    /// `time::zone::JAVA_SHORT_IDS` to their regions, and makes `EST`, `MST`
    /// and `HST` fixed offsets (`GMT-05:00`...), unless the server runs with
    /// `-Dsun.timezone.ids.oldmapping=true`. Oozie uses a job's or dataset's
    /// zone only through those rules (DateUtils.getTimeZone,
    /// core/src/main/java/org/apache/oozie/util/DateUtils.java:138-156 at
    /// release-5.2.1, which accepts both IDs), so the times are the same;
    /// tests/check_fix.rs asks the JDK that each pair `hasSameRules`.
    LegacyZoneId = (LEGACY_ZONE, "legacy-zone-id", Safe,
        "a legacy three-letter zone ID becomes the ID of the zone Java reads it as (`PST` → `America/Los_Angeles`, `EST` → `GMT-05:00`)",
        "keeps the zone's rules, under its own ID");
    /// Oozie's server refuses `24:00` (its date format is not lenient,
    /// core/src/main/java/org/apache/oozie/util/DateUtils.java:99-104 at
    /// release-5.2.1), which its specification defines as the end of the day,
    /// `00:00` of the next (docs/src/site/markdown/CoordinatorFunctionalSpec.md:172
    /// at release-5.2.1): the fix writes that one instant in the form the
    /// server takes, and chooses between no readings.
    Hour24 = (TIME_HOUR_24, "hour-24", Safe,
        "`24:00` becomes the next day's `00:00` (`2023-12-31T24:00Z` → `2024-01-01T00:00Z`)",
        "writes the instant the specification gives `24:00` in the form Oozie's server accepts");
    /// Quartz 2.3.2 (Oozie's, pom.xml:1531-1533 at release-5.2.1) counts
    /// day-of-week 1=SUN to 7=SAT: the Unix reading the fix writes is other
    /// days than Oozie runs the job on.
    CronDayNames = (CRON_UNIX_WEEKDAYS, "cron-unix-day-names", Unsafe,
        "cron day-of-week numbers become the Unix day names they were likely meant as (`1-5`, which Quartz reads as SUN-THU, → `MON-FRI`)",
        "changes the days the job runs on");
    /// The fix chooses a version of the action's schema (the newest with the
    /// workflow's major version, else the newest); versions admit different
    /// elements.
    ActionNamespace = (XML_CONTENT, "action-namespace", Unsafe,
        "an extension action written without its namespace gets a version of its schema's namespace (`<shell>` → `<shell xmlns=\"uri:oozie:shell-action:0.3\">`)",
        "chooses the schema version the action is read with");
    /// An unprefixed call may be a server's extension function (a function
    /// named without a prefix in `oozie.service.ELService.ext.functions` has
    /// the empty prefix: core/src/main/java/org/apache/oozie/service/ELService.java:190-194
    /// at release-5.2.1).
    FunctionPrefix = (EL_UNKNOWN_FUNCTION, "function-prefix", Unsafe,
        "an EL function called without its prefix gets the one prefix a function of that name has (`lastErrorNode` → `wf:lastErrorNode`)",
        "calls a function chosen for its name");
    /// A guess from the spelling alone.
    FunctionDidYouMean = (EL_UNKNOWN_FUNCTION, "function-did-you-mean", Unsafe,
        "an unknown EL function becomes the closest known one (`wf:lastErorNode` → `wf:lastErrorNode`)",
        "calls another function");
    /// A guess from the spelling alone.
    VariableDidYouMean = (EL_UNKNOWN_VARIABLE, "variable-did-you-mean", Unsafe,
        "an undefined EL variable becomes the closest defined one",
        "reads another variable");
    /// A guess from the spelling alone.
    DatasetDidYouMean = (UNDEFINED_DATASET, "dataset-did-you-mean", Unsafe,
        "a data-in's or data-out's undefined dataset becomes the closest defined one",
        "reads or writes another dataset");
    /// A guess from the spelling alone.
    DataInDidYouMean = (INPUT_LOGIC, "data-in-did-you-mean", Unsafe,
        "an input-logic `<data-in dataset=...>` naming no data-in becomes the closest data-in",
        "waits for other data");
    /// A comment is no part of what Oozie reads; the suppression silenced
    /// nothing in the checks that ran.
    UnusedSuppression = (SUPPRESSION_UNUSED, "unused-suppression", Safe,
        "a `<!-- coordc: ignore ... -->` comment's codes that silenced nothing are removed (the whole comment, and its line, when none is left)",
        "keeps the application as it is: only a comment changes");
    /// A guess from the spelling alone.
    TransitionDidYouMean = (WF_TRANSITION, "transition-did-you-mean", Unsafe,
        "a transition to no node becomes one to the closest node name",
        "changes the path the workflow takes");
    /// Offered only when the element, with the fix applied, is valid under
    /// that version's schema (the check validates the edited document): the
    /// elements Oozie reads are the same, read with an older schema, and
    /// Oozie's executors read an element's children in whatever namespace
    /// it has. The one version Oozie runs differently, coordinator 0.1 (its
    /// old status rules, StatusUtils.java:44 at release-5.2.1), is never
    /// written: the newest valid version is taken, and every profile has
    /// 0.2, whose schema accepts every 0.1 document.
    ServerSchemaVersion = (SERVER_UNSUPPORTED, "server-schema-version", Safe,
        "a schema version the chosen server does not have becomes the newest it has under which the element is valid (`uri:oozie:workflow:1.0` → `uri:oozie:workflow:0.5` for oozie-4.3)",
        "keeps what the element says: it is valid under the older schema as written");
}

impl FixKind {
    /// The rule whose diagnostics carry this fix.
    pub fn code(self) -> Code {
        self.row().0
    }

    /// A stable name, as the JSON report and docs/check.md give it.
    pub fn name(self) -> &'static str {
        self.row().1
    }

    pub fn safety(self) -> Safety {
        self.row().2
    }

    /// What the edit does, with an example.
    pub(crate) fn does(self) -> &'static str {
        self.row().3
    }

    /// What applying it keeps (safe) or changes (unsafe) of what Oozie runs,
    /// after "it".
    pub(crate) fn effect(self) -> &'static str {
        self.row().4
    }
}

/// The fixes, a paragraph each (`- CODE name (safety): what it does; it
/// keeps or changes...`), as the `--fix` help and the man page list them.
pub(crate) fn listing() -> String {
    FixKind::ALL
        .iter()
        .map(|k| {
            format!(
                "- {} {} ({}): {}; it {}.",
                k.code(),
                k.name(),
                k.safety().name(),
                k.does(),
                k.effect()
            )
        })
        .collect::<Vec<_>>()
        // (A paragraph each: the man page joins lines.)
        .join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::rules::RULES;

    #[test]
    fn every_fix_belongs_to_a_rule_and_has_a_name_of_its_own() {
        for (i, kind) in FixKind::ALL.iter().enumerate() {
            assert!(
                RULES.iter().any(|r| r.code == kind.code()),
                "{kind:?}: no rule {}",
                kind.code()
            );
            assert!(
                FixKind::ALL[..i].iter().all(|k| k.name() != kind.name()),
                "{kind:?}: its name is taken"
            );
        }
    }
}
