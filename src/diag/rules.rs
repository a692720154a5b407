//! The registry of rule codes: one table from code to rule. Every code has a
//! page `docs/rules/CODE.md` (a test keeps the two in step).

use crate::diag::Severity;

/// A rule's code, such as `EL001`: a value only this registry makes, so a
/// diagnostic's code is always a registered one.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Code(&'static str);

impl Code {
    pub const fn as_str(self) -> &'static str {
        self.0
    }

    /// Its rule in the registry ([`RULES`] holds every code this module
    /// makes; a test checks).
    pub fn rule(self) -> Option<&'static Rule> {
        RULES.iter().find(|r| r.code == self)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // As the text it is: `"EL001"`.
        std::fmt::Debug::fmt(self.0, f)
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
    }
}

// A code and the text of one compare, either way round (a selector, a
// suppression comment, a test's expected list).
impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<Code> for &str {
    fn eq(&self, other: &Code) -> bool {
        *self == other.0
    }
}

pub struct Rule {
    pub code: Code,
    pub name: &'static str,
    pub severity: Severity,
    /// The error code Oozie gives for the same mistake, when it finds it.
    pub oozie: Option<&'static str>,
    pub summary: &'static str,
    /// How its findings relate to others on the same text.
    pub finding: Finding,
}

/// How a rule's findings relate to other findings on the same text, so one
/// mistake is reported once: a check reports what it finds, and the run
/// over a file hides the consequences (`project::check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finding {
    /// Stands on its own.
    Independent,
    /// The text itself is wrong (it does not parse, calls an unknown
    /// function, has the wrong shape): what evaluating it finds inside its
    /// span is a consequence.
    TextFault,
    /// Evaluating a text failed: a consequence when inside a text fault's
    /// span.
    EvaluationFault,
    /// A name that did not resolve: a consequence when an evaluation fault
    /// has the same span (the name was an expression that failed).
    UnresolvedName,
}

pub const EL_SYNTAX: Code = Code("EL001");
pub(crate) const EL_UNKNOWN_FUNCTION: Code = Code("EL002");
pub(crate) const EL_ARITY: Code = Code("EL003");
pub(crate) const EL_ARG_TYPE: Code = Code("EL004");
pub(crate) const EL_UNKNOWN_VARIABLE: Code = Code("EL005");
pub(crate) const EL_EVAL: Code = Code("EL006");
pub(crate) const EL_NEEDS_CONTEXT: Code = Code("EL007");
pub(crate) const EL_LIMIT: Code = Code("EL008");
pub(crate) const EL_MISPLACED: Code = Code("EL009");
pub(crate) const EL_DOTTED_NAME: Code = Code("EL010");
pub(crate) const TIME_DATETIME: Code = Code("TM001");
pub(crate) const TIME_ZONE: Code = Code("TM002");
pub(crate) const TIME_FREQUENCY: Code = Code("TM003");
pub(crate) const TIME_HOUR_24: Code = Code("TM004");
pub(crate) const LEGACY_ZONE: Code = Code("TM005");
pub(crate) const NO_ACTIONS: Code = Code("TM006");
pub(crate) const DST_DAY_IN_MINUTES: Code = Code("DST001");
pub(crate) const DST_FIXED_HOURS: Code = Code("DST002");
pub(crate) const DST_ZONE_MISMATCH: Code = Code("DST003");
pub(crate) const CRON_SYNTAX: Code = Code("CR001");
pub(crate) const CRON_RANGE: Code = Code("CR002");
pub(crate) const CRON_NEVER_FIRES: Code = Code("CR003");
pub(crate) const CRON_NO_ACTIONS: Code = Code("CR004");
pub(crate) const CRON_UNIX_WEEKDAYS: Code = Code("CR005");
pub(crate) const CRON_WRAPS: Code = Code("CR006");
pub(crate) const CRON_BOTH_DAYS: Code = Code("CR007");
pub(crate) const CRON_ZONE: Code = Code("CR008");
pub(crate) const CRON_QUARTZ_READING: Code = Code("CR009");
pub(crate) const CONFIG_SYNTAX: Code = Code("CF001");
pub(crate) const CONFIG_RESERVED: Code = Code("CF002");
pub(crate) const CONFIG_SUBSTITUTION_DEPTH: Code = Code("CF003");
pub(crate) const UNDEFINED_DATASET: Code = Code("CO001");
pub(crate) const DUPLICATE_DATASET: Code = Code("CO002");
pub(crate) const DUPLICATE_EVENT: Code = Code("CO003");
pub(crate) const MISSING_PARAMETER: Code = Code("CO004");
pub(crate) const INSTANCE_RANGE: Code = Code("CO005");
pub(crate) const INSTANCE_SYNTAX: Code = Code("CO006");
pub(crate) const INPUT_LOGIC: Code = Code("CO007");
pub(crate) const CONTROLS: Code = Code("CO008");
pub(crate) const DATASET_OVERRIDE: Code = Code("CO009");
pub(crate) const INSTANCE_ARGUMENT: Code = Code("CO010");
pub(crate) const COORD_EMPTY_PARAMETER: Code = Code("CO011");
pub(crate) const DATASET_NO_URI_TEMPLATE: Code = Code("CO012");
pub(crate) const DATA_DROPPED: Code = Code("DA001");
pub(crate) const DATA_URI_RESOLUTION: Code = Code("DA002");
pub(crate) const DATA_SHARED_OUTPUT: Code = Code("DA003");
pub(crate) const PIPELINE_CYCLE: Code = Code("PL001");
pub(crate) const PIPELINE_UNPRODUCED: Code = Code("PL002");
pub(crate) const PIPELINE_MISALIGNED: Code = Code("PL003");
pub(crate) const DRYRUN_UNSUPPORTED: Code = Code("DR001");
pub(crate) const SIMULATE_SCENARIO: Code = Code("SI001");
pub(crate) const XML_SYNTAX: Code = Code("XML001");
pub(crate) const XML_LIMIT: Code = Code("XML002");
pub(crate) const XML_UNKNOWN_DOCUMENT: Code = Code("XML003");
pub(crate) const XML_CONTENT: Code = Code("XML004");
pub(crate) const XML_ATTRIBUTE: Code = Code("XML005");
pub(crate) const XML_VALUE: Code = Code("XML006");
pub(crate) const WF_DUPLICATE: Code = Code("WF001");
pub(crate) const WF_SELF: Code = Code("WF002");
pub(crate) const WF_LOOP: Code = Code("WF003");
pub(crate) const WF_TRANSITION: Code = Code("WF004");
pub(crate) const WF_NAME: Code = Code("WF005");
pub(crate) const WF_FORK_JOIN: Code = Code("WF006");
pub(crate) const WF_UNREACHABLE: Code = Code("WF007");
pub(crate) const WF_ACTION_TYPE: Code = Code("WF008");
pub(crate) const WF_CLUSTER: Code = Code("WF009");
pub(crate) const WF_LENGTH: Code = Code("WF010");
pub(crate) const WF_MISSING_PARAMETER: Code = Code("WF011");
pub(crate) const WF_EMPTY_PARAMETER: Code = Code("WF012");
pub(crate) const WF_DISALLOWED_PROPERTY: Code = Code("WF013");
pub(crate) const WF_UNDEFINED_CREDENTIAL: Code = Code("WF014");
pub(crate) const WF_ENV_VAR: Code = Code("WF015");
pub(crate) const WF_RETRY: Code = Code("WF016");
pub(crate) const WF_FS_PATH: Code = Code("WF017");
pub(crate) const WF_UBER_JAR: Code = Code("WF018");
pub(crate) const WF_SUBMISSION_EL: Code = Code("WF019");
pub(crate) const WF_EMAIL: Code = Code("WF020");
pub(crate) const BUNDLE_DUPLICATE_NAME: Code = Code("BU001");
pub(crate) const BUNDLE_APP_PATH: Code = Code("BU002");
pub(crate) const BUNDLE_NOTHING_ENABLED: Code = Code("BU003");
pub(crate) const BUNDLE_NOT_BOOLEAN: Code = Code("BU004");
pub(crate) const BUNDLE_COORDINATOR_VERSION: Code = Code("BU005");
pub(crate) const BUNDLE_USER_OVERRIDE: Code = Code("BU006");
pub(crate) const SUPPRESSION_UNKNOWN: Code = Code("SU001");
pub(crate) const SUPPRESSION_UNUSED: Code = Code("SU002");
pub(crate) const SERVER_UNSUPPORTED: Code = Code("SV001");
pub(crate) const SERVER_DISABLED: Code = Code("SV002");
pub(crate) const SERVER_UNCHECKED: Code = Code("SV003");

/// The rules of `coordc check` whose errors Oozie gives when a workflow job
/// is submitted (SubmitXCommand parses the definition with
/// LiteWorkflowAppParser.validateAndParse and resolves the values the job's
/// properties give), beyond the graph's (which the loading of a workflow refuses)
/// and the parameters' (E0738, E0739, in the job's configuration): the
/// definition's length (E0736), each action's element and its schema
/// (E0723, E0701), job-tracker and name-node (E0701), and the name, retry
/// and SLA values resolved with the job's properties (E0803, E0703,
/// E1004). The other action rules (WF013-WF018, WF020) are what an
/// executor refuses when the action starts, which a run models itself.
pub(crate) const REFUSED_AT_WORKFLOW_SUBMISSION: &[Code] =
    &[WF_LENGTH, WF_ACTION_TYPE, WF_CLUSTER, WF_SUBMISSION_EL];

pub static RULES: &[Rule] = &[
    Rule {
        code: CONFIG_SYNTAX,
        name: "config-syntax",
        severity: Severity::Error,
        oozie: None,
        summary: "A job configuration file Java or Hadoop cannot read.",
        finding: Finding::Independent,
    },
    Rule {
        code: CONFIG_RESERVED,
        name: "reserved-property",
        severity: Severity::Error,
        oozie: Some("E0808"),
        summary: "A job property named like an EL constant (YEAR, KB, ...), which Oozie rejects.",
        finding: Finding::Independent,
    },
    Rule {
        code: CONFIG_SUBSTITUTION_DEPTH,
        name: "substitution-depth",
        severity: Severity::Error,
        oozie: None,
        summary: "A job property whose `${name}` expansion never ends (it refers to itself), which Oozie rejects.",
        finding: Finding::Independent,
    },
    Rule {
        code: UNDEFINED_DATASET,
        name: "undefined-dataset",
        severity: Severity::Error,
        oozie: Some("E0803"),
        summary: "A data-in or data-out naming a dataset that is neither embedded nor included.",
        finding: Finding::UnresolvedName,
    },
    Rule {
        code: DUPLICATE_DATASET,
        name: "duplicate-dataset",
        severity: Severity::Error,
        oozie: Some("E0803"),
        summary: "A dataset name defined twice: in the application (spec §10.1.1), or by included files (E0803).",
        finding: Finding::Independent,
    },
    Rule {
        code: DUPLICATE_EVENT,
        name: "duplicate-event",
        severity: Severity::Error,
        oozie: Some("E0803"),
        summary: "Two data-ins, or two data-outs, with the same name.",
        finding: Finding::Independent,
    },
    Rule {
        code: MISSING_PARAMETER,
        name: "missing-parameter",
        severity: Severity::Error,
        oozie: Some("E0738"),
        summary: "A `<parameters>` property without a default that the job does not define.",
        finding: Finding::Independent,
    },
    Rule {
        code: INSTANCE_RANGE,
        name: "instance-range",
        severity: Severity::Error,
        oozie: Some("E1010"),
        summary: "A start-instance/end-instance pair Oozie cannot expand into a range.",
        finding: Finding::Independent,
    },
    Rule {
        code: INSTANCE_SYNTAX,
        name: "instance-syntax",
        severity: Severity::Error,
        oozie: Some("E1021"),
        summary: "An instance element that is empty or lists several instances with commas.",
        finding: Finding::TextFault,
    },
    Rule {
        code: INPUT_LOGIC,
        name: "input-logic",
        severity: Severity::Error,
        oozie: Some("E1028"),
        summary: "An <input-logic> Oozie cannot evaluate: an unknown data-in, a combine of unequal ranges or of latest/future, a min or wait that is not an integer.",
        finding: Finding::Independent,
    },
    Rule {
        code: CONTROLS,
        name: "controls",
        severity: Severity::Error,
        oozie: Some("E1003"),
        summary: "A <controls> value Oozie cannot read: a timeout, concurrency or throttle that is not an integer, an execution other than FIFO, LIFO, LAST_ONLY or NONE (E1003).",
        finding: Finding::Independent,
    },
    Rule {
        code: DATASET_OVERRIDE,
        name: "dataset-override",
        severity: Severity::Note,
        oozie: None,
        summary: "A dataset embedded in the application that overrides an included one of the same name.",
        finding: Finding::Independent,
    },
    Rule {
        code: INSTANCE_ARGUMENT,
        name: "instance-argument",
        severity: Severity::Error,
        oozie: None,
        summary: "`coord:latest(n)` with n > 0, or `coord:future(n, limit)` with n < 0 or limit <= 0: every action fails when it starts.",
        finding: Finding::Independent,
    },
    Rule {
        code: COORD_EMPTY_PARAMETER,
        name: "empty-parameter-name",
        severity: Severity::Error,
        oozie: Some("E0739"),
        summary: "A `<parameters>` property whose `<name>` is empty (E0739).",
        finding: Finding::Independent,
    },
    Rule {
        code: DATASET_NO_URI_TEMPLATE,
        name: "missing-uri-template",
        severity: Severity::Error,
        oozie: Some("E0803"),
        summary: "A `<dataset>` of a datasets file (no schema checks it) without a `<uri-template>`: submission fails (E0803).",
        finding: Finding::Independent,
    },
    Rule {
        code: DATA_DROPPED,
        name: "instances-dropped",
        severity: Severity::Warning,
        oozie: None,
        summary: "The first actions get fewer input instances than the data-in names: Oozie drops those before the initial-instance silently.",
        finding: Finding::Independent,
    },
    Rule {
        code: DATA_URI_RESOLUTION,
        name: "uri-template-resolution",
        severity: Severity::Warning,
        oozie: None,
        summary: "A uri-template whose time fields do not match the dataset frequency: instances that share one URI, or a field that never changes.",
        finding: Finding::Independent,
    },
    Rule {
        code: DATA_SHARED_OUTPUT,
        name: "shared-output",
        severity: Severity::Warning,
        oozie: None,
        summary: "Two applications checked together whose data-outs write the same uri-template.",
        finding: Finding::Independent,
    },
    Rule {
        code: PIPELINE_CYCLE,
        name: "pipeline-cycle",
        severity: Severity::Warning,
        oozie: None,
        summary: "Applications checked together that feed each other's inputs in a cycle.",
        finding: Finding::Independent,
    },
    Rule {
        code: PIPELINE_UNPRODUCED,
        name: "unproduced-input",
        severity: Severity::Note,
        oozie: None,
        summary: "A data-in that no application checked together writes: it comes from elsewhere.",
        finding: Finding::Independent,
    },
    Rule {
        code: PIPELINE_MISALIGNED,
        name: "pipeline-misaligned",
        severity: Severity::Warning,
        oozie: None,
        summary: "A consumer that defines a produced dataset with another frequency, initial-instance or zone than its producer.",
        finding: Finding::Independent,
    },
    Rule {
        code: DRYRUN_UNSUPPORTED,
        name: "dryrun-unsupported",
        severity: Severity::Error,
        oozie: None,
        summary: "Something `coordc dryrun` does not compute yet; it says so rather than guess.",
        finding: Finding::Independent,
    },
    Rule {
        code: SIMULATE_SCENARIO,
        name: "simulate-scenario",
        severity: Severity::Error,
        oozie: None,
        summary: "A `coordc simulate` scenario file that cannot be read: an unknown key, a bad time or duration, a reference to no job, or an op the server cannot take.",
        finding: Finding::Independent,
    },
    Rule {
        code: XML_SYNTAX,
        name: "xml-syntax",
        severity: Severity::Error,
        oozie: Some("E0701"),
        summary: "A file that is not well-formed XML.",
        finding: Finding::Independent,
    },
    Rule {
        code: XML_LIMIT,
        name: "xml-limit",
        severity: Severity::Error,
        oozie: None,
        summary: "An XML file too large or nested too deeply to read.",
        finding: Finding::Independent,
    },
    Rule {
        code: XML_UNKNOWN_DOCUMENT,
        name: "unknown-schema",
        severity: Severity::Error,
        oozie: Some("E0701"),
        summary: "A root element or namespace no Oozie schema defines.",
        finding: Finding::Independent,
    },
    Rule {
        code: XML_CONTENT,
        name: "schema-content",
        severity: Severity::Error,
        oozie: Some("E0701"),
        summary: "An element missing, unexpected or out of order, or text where the schema allows none.",
        finding: Finding::Independent,
    },
    Rule {
        code: XML_ATTRIBUTE,
        name: "schema-attribute",
        severity: Severity::Error,
        oozie: Some("E0701"),
        summary: "A required attribute missing, or an attribute the schema does not declare.",
        finding: Finding::Independent,
    },
    Rule {
        code: XML_VALUE,
        name: "schema-value",
        severity: Severity::Error,
        oozie: Some("E0701"),
        summary: "A value that does not match its schema type (a name pattern, an enumeration, a number).",
        finding: Finding::Independent,
    },
    Rule {
        code: EL_SYNTAX,
        name: "el-syntax",
        severity: Severity::Error,
        oozie: Some("E1004"),
        summary: "An `${...}` expression that commons-el 1.0 cannot parse.",
        finding: Finding::TextFault,
    },
    Rule {
        code: EL_UNKNOWN_FUNCTION,
        name: "el-unknown-function",
        severity: Severity::Error,
        oozie: Some("E1004"),
        summary: "A function Oozie does not define in this kind of EL.",
        finding: Finding::TextFault,
    },
    Rule {
        code: EL_ARITY,
        name: "el-arity",
        severity: Severity::Error,
        oozie: Some("E1004"),
        summary: "A function called with the wrong number of arguments.",
        finding: Finding::TextFault,
    },
    Rule {
        code: EL_ARG_TYPE,
        name: "el-argument-type",
        severity: Severity::Error,
        oozie: Some("E1004"),
        summary: "A function argument that can never convert to the parameter's type.",
        finding: Finding::TextFault,
    },
    Rule {
        code: EL_UNKNOWN_VARIABLE,
        name: "el-unknown-variable",
        severity: Severity::Error,
        oozie: Some("E1004"),
        summary: "A variable that is neither a job property nor an EL constant.",
        finding: Finding::EvaluationFault,
    },
    Rule {
        code: EL_EVAL,
        name: "el-evaluation",
        severity: Severity::Error,
        oozie: Some("E1004"),
        summary: "An expression whose evaluation fails (a failed coercion, `%` by zero, ...).",
        finding: Finding::EvaluationFault,
    },
    Rule {
        code: EL_NEEDS_CONTEXT,
        name: "el-needs-context",
        severity: Severity::Error,
        oozie: None,
        summary: "A function or constant evaluated where its context (an action, a dataset, a running workflow) is missing.",
        finding: Finding::EvaluationFault,
    },
    Rule {
        code: EL_LIMIT,
        name: "el-limit",
        severity: Severity::Error,
        oozie: None,
        summary: "A text value longer, or an expression nested deeper, than coordc reads.",
        finding: Finding::Independent,
    },
    Rule {
        code: EL_MISPLACED,
        name: "el-misplaced",
        severity: Severity::Error,
        oozie: Some("E1004"),
        summary: "A function or constant used where Oozie's EL for that part of the application does not define it.",
        finding: Finding::TextFault,
    },
    Rule {
        code: EL_DOTTED_NAME,
        name: "el-dotted-name",
        severity: Severity::Error,
        oozie: Some("E1004"),
        summary: "A `${job.tracker}`-style dotted name, which EL reads as a property of an undefined variable; use `coord:conf('job.tracker')` or a name without dots.",
        finding: Finding::TextFault,
    },
    Rule {
        code: TIME_DATETIME,
        name: "datetime",
        severity: Severity::Error,
        oozie: Some("E1003"),
        summary: "A datetime Oozie does not parse: not `YYYY-MM-DDTHH:mmZ`, seconds, or a day that does not exist.",
        finding: Finding::EvaluationFault,
    },
    Rule {
        code: TIME_ZONE,
        name: "unknown-time-zone",
        severity: Severity::Error,
        oozie: Some("E1003"),
        summary: "A time zone ID Oozie does not accept (IDs match exactly and case-sensitively).",
        finding: Finding::Independent,
    },
    Rule {
        code: TIME_FREQUENCY,
        name: "invalid-frequency",
        severity: Severity::Error,
        oozie: Some("E1003"),
        summary: "A frequency that uses what Oozie's frequency evaluator does not define, or a frequency function with n <= 0.",
        finding: Finding::Independent,
    },
    Rule {
        code: TIME_HOUR_24,
        name: "hour-24",
        severity: Severity::Warning,
        oozie: Some("E1003"),
        summary: "A `T24:00` datetime: the spec reads it as 00:00 of the next day, Oozie servers since 3.3 reject it.",
        finding: Finding::Independent,
    },
    Rule {
        code: LEGACY_ZONE,
        name: "legacy-zone-id",
        severity: Severity::Warning,
        oozie: None,
        summary: "A deprecated three-letter Java zone ID (`PST`, `EST`, `IST`...), which Oozie accepts silently and which often ignores DST.",
        finding: Finding::Independent,
    },
    Rule {
        code: NO_ACTIONS,
        name: "no-actions",
        severity: Severity::Warning,
        oozie: None,
        summary: "A frequency that materializes no action between start and end, which Oozie accepts silently (cron is CR004).",
        finding: Finding::Independent,
    },
    Rule {
        code: DST_DAY_IN_MINUTES,
        name: "day-in-minutes",
        severity: Severity::Warning,
        oozie: None,
        summary: "A day or week frequency written in minutes (`1440`, `${24*60}`, `coord:hours(24)`) in a zone with DST: it drifts an hour at each switch.",
        finding: Finding::Independent,
    },
    Rule {
        code: DST_FIXED_HOURS,
        name: "fixed-hourly-range",
        severity: Severity::Warning,
        oozie: None,
        summary: "A data-in that reads each instance once on ordinary days but not when the job's days have 23 or 25 hours (a fixed 24 hours for a job in a DST zone), found by resolving the actions around the switches.",
        finding: Finding::Independent,
    },
    Rule {
        code: DST_ZONE_MISMATCH,
        name: "zone-mismatch",
        severity: Severity::Warning,
        oozie: None,
        summary: "A data-in that reads each instance once on ordinary days but not at a switch of the dataset's zone, though the job's actions stay as far apart (a range sized by another zone's `coord:hoursInDay`).",
        finding: Finding::Independent,
    },
    Rule {
        code: CRON_SYNTAX,
        name: "cron-syntax",
        severity: Severity::Error,
        oozie: Some("E1003"),
        summary: "A cron frequency that is not five fields of Quartz cron syntax.",
        finding: Finding::Independent,
    },
    Rule {
        code: CRON_RANGE,
        name: "cron-range",
        severity: Severity::Error,
        oozie: Some("E1003"),
        summary: "A cron value out of its field's range, or an option Quartz rejects in that field.",
        finding: Finding::Independent,
    },
    Rule {
        code: CRON_NEVER_FIRES,
        name: "cron-never-fires",
        severity: Severity::Error,
        oozie: Some("E1003"),
        summary: "A cron frequency that parses but can never fire (`0 10 30 2 *`).",
        finding: Finding::Independent,
    },
    Rule {
        code: CRON_NO_ACTIONS,
        name: "cron-no-actions",
        severity: Severity::Error,
        oozie: Some("E1003"),
        summary: "A cron frequency that fires nowhere in the coordinator's [start, end).",
        finding: Finding::Independent,
    },
    Rule {
        code: CRON_UNIX_WEEKDAYS,
        name: "cron-weekday-numbers",
        severity: Severity::Warning,
        oozie: None,
        summary: "Day-of-week numbers, which Oozie reads as Quartz does (1=SUN..7=SAT): `1-5` is SUN-THU, not the Unix MON-FRI.",
        finding: Finding::Independent,
    },
    Rule {
        code: CRON_WRAPS,
        name: "cron-wrapping-range",
        severity: Severity::Warning,
        oozie: None,
        summary: "A cron range that runs backwards (`22-2`, `NOV-FEB`), which Quartz wraps around the end of the field.",
        finding: Finding::Independent,
    },
    Rule {
        code: CRON_BOTH_DAYS,
        name: "cron-both-day-fields",
        severity: Severity::Warning,
        oozie: None,
        summary: "A cron with both day-of-month and day-of-week given: Oozie fires when either matches (OR), not when both do.",
        finding: Finding::Independent,
    },
    Rule {
        code: CRON_ZONE,
        name: "cron-processing-zone",
        severity: Severity::Warning,
        oozie: None,
        summary: "A cron in a job whose time zone is not the processing zone: Oozie evaluates cron in the processing zone (UTC), so the hours are not the job zone's.",
        finding: Finding::Independent,
    },
    Rule {
        code: CRON_QUARTZ_READING,
        name: "cron-quartz-reading",
        severity: Severity::Warning,
        oozie: None,
        summary: "Cron text Quartz reads other than as written: a step of 0 or past a range's end (one value), a step or suffix after a month or day name (ignored).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_DUPLICATE,
        name: "duplicate-node",
        severity: Severity::Error,
        oozie: Some("E0705"),
        summary: "Two workflow nodes with one name (E0705).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_SELF,
        name: "self-transition",
        severity: Severity::Error,
        oozie: Some("E0706"),
        summary: "A workflow node that transitions to itself (E0706).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_LOOP,
        name: "loop",
        severity: Severity::Error,
        oozie: Some("E0707"),
        summary: "A loop in the workflow graph, reported as its path (E0707).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_TRANSITION,
        name: "undefined-transition",
        severity: Severity::Error,
        oozie: Some("E0708"),
        summary: "A transition to a node the workflow does not define (E0708).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_NAME,
        name: "node-name-length",
        severity: Severity::Error,
        oozie: Some("E0724"),
        summary: "A workflow node name over 128 characters (E0724).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_FORK_JOIN,
        name: "fork-join",
        severity: Severity::Error,
        oozie: Some("E0730"),
        summary: "Forks and joins that do not pair, an end inside a fork, or several \"ok\" paths to one node (E0730, E0733, E0737, E0742-E0744, E0757, E0758).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_UNREACHABLE,
        name: "unreachable-node",
        severity: Severity::Warning,
        oozie: None,
        summary: "A workflow node no path from the start reaches; Oozie accepts it, but it never runs.",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_ACTION_TYPE,
        name: "unknown-action-type",
        severity: Severity::Error,
        oozie: Some("E0723"),
        summary: "An action element a stock Oozie server has no executor or schema for (E0723).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_CLUSTER,
        name: "missing-job-tracker",
        severity: Severity::Error,
        oozie: Some("E0701"),
        summary: "A Hadoop action without a job-tracker (resource-manager) or name-node, in itself or in <global> (E0701).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_LENGTH,
        name: "definition-length",
        severity: Severity::Error,
        oozie: Some("E0736"),
        summary: "A workflow definition over 100,000 bytes, which Oozie refuses to read (E0736).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_MISSING_PARAMETER,
        name: "missing-parameter",
        severity: Severity::Error,
        oozie: Some("E0738"),
        summary: "A workflow `<parameters>` property without a `<value>` that the job configuration does not define (E0738).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_EMPTY_PARAMETER,
        name: "empty-parameter-name",
        severity: Severity::Error,
        oozie: Some("E0739"),
        summary: "A workflow `<parameters>` property whose `<name>` is empty (E0739).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_DISALLOWED_PROPERTY,
        name: "disallowed-property",
        severity: Severity::Error,
        oozie: Some("JA010"),
        summary: "A Hadoop or fs action (or <global>) <configuration> setting user.name, mapreduce.job.user.name, fs.default.name or yarn.resourcemanager.address, which fails the action when it starts (JA010).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_UNDEFINED_CREDENTIAL,
        name: "undefined-credential",
        severity: Severity::Error,
        oozie: Some("JA021"),
        summary: "An action `cred` naming a credential the workflow's <credentials> does not define, which fails the action when it starts (JA021).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_ENV_VAR,
        name: "env-var-format",
        severity: Severity::Error,
        oozie: Some("JA010"),
        summary: "A shell action <env-var> that is not NAME=VALUE, which fails the action when it starts (JA010).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_RETRY,
        name: "retry-not-integer",
        severity: Severity::Error,
        oozie: Some("E0700"),
        summary: "An action retry-max or retry-interval that is not an integer, which fails the workflow when it reaches the action (E0700).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_FS_PATH,
        name: "fs-path-scheme",
        severity: Severity::Error,
        oozie: Some("FS001"),
        summary: "An fs action path without a scheme (hdfs://...) and no name-node to resolve it, or relative with one, which fails the action when it starts (FS001, FS011).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_UBER_JAR,
        name: "uber-jar-disabled",
        severity: Severity::Error,
        oozie: Some("MR003"),
        summary: "A map-reduce action configuring oozie.mapreduce.uber.jar, which a stock server (oozie.action.mapreduce.uber.jar.enable=false) refuses when the action starts (MR003).",
        finding: Finding::Independent,
    },
    Rule {
        code: WF_SUBMISSION_EL,
        name: "submission-el",
        severity: Severity::Error,
        oozie: Some("E0803"),
        summary: "A workflow name, action retry attribute or SLA value whose EL Oozie cannot resolve at submission, where only the job's properties (and, in SLA, MINUTES, HOURS, DAYS) are defined: an undefined variable or any function (E0803, E0703, E1004).",
        finding: Finding::TextFault,
    },
    Rule {
        code: WF_EMAIL,
        name: "email-action",
        severity: Severity::Error,
        oozie: Some("EM001"),
        summary: "An email action with an empty <to> (EM001), or an <attachment> that is a local file or not a URI (EM008), which fails the action when it starts.",
        finding: Finding::Independent,
    },
    Rule {
        code: BUNDLE_DUPLICATE_NAME,
        name: "duplicate-bundle-coordinator",
        severity: Severity::Error,
        oozie: Some("E1304"),
        summary: "Two `<coordinator>`s of a bundle with the same name (after EL), which Oozie rejects at submission.",
        finding: Finding::Independent,
    },
    Rule {
        code: BUNDLE_APP_PATH,
        name: "bundle-app-path",
        severity: Severity::Error,
        oozie: Some("E1001"),
        summary: "A bundle coordinator's `<app-path>` where no coordinator application can be read.",
        finding: Finding::Independent,
    },
    Rule {
        code: BUNDLE_NOTHING_ENABLED,
        name: "bundle-nothing-enabled",
        severity: Severity::Error,
        oozie: Some("E1318"),
        summary: "A bundle whose every coordinator is disabled: Oozie fails it when it starts.",
        finding: Finding::Independent,
    },
    Rule {
        code: BUNDLE_NOT_BOOLEAN,
        name: "bundle-not-boolean",
        severity: Severity::Warning,
        oozie: None,
        summary: "A bundle coordinator's `enabled` or `critical` that is neither true nor false: Java reads it as false.",
        finding: Finding::Independent,
    },
    Rule {
        code: BUNDLE_COORDINATOR_VERSION,
        name: "bundle-coordinator-version",
        severity: Severity::Error,
        oozie: Some("E1319"),
        summary: "A coordinator of schema 0.1 submitted by a bundle, which Oozie refuses.",
        finding: Finding::Independent,
    },
    Rule {
        code: BUNDLE_USER_OVERRIDE,
        name: "bundle-user-override",
        severity: Severity::Error,
        oozie: Some("E1303"),
        summary: "A bundle coordinator's `<configuration>` giving `user.name` or `mapreduce.job.user.name` another user than the bundle job's, which Oozie refuses when the bundle starts.",
        finding: Finding::Independent,
    },
    Rule {
        code: SUPPRESSION_UNKNOWN,
        name: "unknown-suppressed-code",
        severity: Severity::Warning,
        oozie: None,
        summary: "A `<!-- coordc: ignore -->` comment naming a code no rule has, or no code at all: it silences nothing.",
        finding: Finding::Independent,
    },
    Rule {
        code: SUPPRESSION_UNUSED,
        name: "unused-suppression",
        severity: Severity::Warning,
        oozie: None,
        summary: "A `<!-- coordc: ignore CODE -->` comment that silenced nothing in a file checked in full.",
        finding: Finding::Independent,
    },
    Rule {
        code: SERVER_UNSUPPORTED,
        name: "server-unsupported",
        severity: Severity::Error,
        // (E0701 for a schema, E1004 for a function, a parse or start
        // failure for a removed action.)
        oozie: None,
        summary: "With a server profile (`--server`, `server =` in coordc.toml): a schema version, action, element or EL function the chosen server does not have.",
        finding: Finding::Independent,
    },
    Rule {
        code: SERVER_DISABLED,
        name: "server-disabled",
        severity: Severity::Warning,
        oozie: None,
        summary: "With a server profile: an action the chosen server has but turns off by default (Cloudera Runtime 7.1.9's spark action).",
        finding: Finding::Independent,
    },
    Rule {
        code: SERVER_UNCHECKED,
        name: "server-unchecked",
        severity: Severity::Note,
        oozie: None,
        summary: "With a server profile: an action the chosen server accepts but coordc has no schema of (Cloudera's spark3 action), so its content is not checked.",
        finding: Finding::Independent,
    },
];

include!(concat!(env!("OUT_DIR"), "/rule_pages.rs"));

/// The rule with `code`, if there is one.
pub(crate) fn rule(code: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.code.0.eq_ignore_ascii_case(code))
}

/// The rules named `name` (case-insensitive; two families may share a name).
pub(crate) fn rules_named(name: &str) -> impl Iterator<Item = &'static Rule> + '_ {
    RULES
        .iter()
        .filter(move |r| r.name.eq_ignore_ascii_case(name))
}

/// Where a rule's page is published, unless a coordc.toml says otherwise
/// (`docs-url`): the page `docs/rules/CODE.md` of this repository, at the
/// release's tag. `{repository}` is Cargo.toml's `repository`, else
/// [`REPOSITORY`].
pub(crate) const DEFAULT_DOCS_URL: &str = "{repository}/blob/v{version}/docs/rules/{code}.md";

/// coordc's repository, when Cargo.toml names none.
pub(crate) const REPOSITORY: &str = "https://github.com/coordc/coordc";

/// The placeholders a documentation URL may hold.
const DOCS_URL_PLACEHOLDERS: [&str; 3] = ["{code}", "{version}", "{repository}"];

/// coordc's repository: Cargo.toml's `repository`, else [`REPOSITORY`].
pub fn repository() -> &'static str {
    match env!("CARGO_PKG_REPOSITORY") {
        "" => REPOSITORY,
        repository => repository.trim_end_matches('/'),
    }
}

/// The documentation URL of the rule `code`: `template` (a coordc.toml's
/// `docs-url`, else [`DEFAULT_DOCS_URL`]) with its placeholders filled in.
pub(crate) fn docs_url(template: Option<&str>, code: &str) -> String {
    template
        .unwrap_or(DEFAULT_DOCS_URL)
        .replace("{repository}", repository())
        .replace("{version}", env!("CARGO_PKG_VERSION"))
        .replace("{code}", code)
}

/// Whether `template` makes documentation URLs: an `http`, `https` or
/// `file` URL with `{code}` in it and no other placeholder than
/// `{version}` and `{repository}`; else what is wrong with it.
pub(crate) fn check_docs_url(template: &str) -> Result<(), String> {
    if !template.contains("{code}") {
        return Err(format!(
            "docs-url \"{template}\": no `{{code}}` (where the rule's code goes, e.g. https://example.org/rules/{{code}}.html)"
        ));
    }
    let mut rest = template.to_string();
    for placeholder in DOCS_URL_PLACEHOLDERS {
        rest = rest.replace(placeholder, "");
    }
    if let Some(at) = rest.find(['{', '}']) {
        return Err(format!(
            "docs-url \"{template}\": `{}` is no placeholder (they are {{code}}, {{version}} and {{repository}})",
            &rest[at..]
                .chars()
                .take_while(|c| *c != '}')
                .chain(['}'])
                .collect::<String>()
        ));
    }
    let example = docs_url(Some(template), EL_SYNTAX.as_str());
    match url::Url::parse(&example) {
        Ok(url) if matches!(url.scheme(), "http" | "https" | "file") => Ok(()),
        Ok(url) => Err(format!(
            "docs-url \"{template}\": a `{}:` URL; an http, https or file URL is expected",
            url.scheme()
        )),
        Err(e) => Err(format!("docs-url \"{template}\": not a URL ({e})")),
    }
}

/// The page `docs/rules/CODE.md` of a rule.
pub(crate) fn page(code: &str) -> Option<&'static str> {
    RULE_PAGES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code))
        .map(|(_, page)| *page)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_a_doc_page_and_a_unique_code() {
        let mut seen = std::collections::HashSet::new();
        for r in RULES {
            assert!(seen.insert(r.code), "{} twice", r.code);
            let page = format!("{}/docs/rules/{}.md", env!("CARGO_MANIFEST_DIR"), r.code);
            let text = std::fs::read_to_string(&page).unwrap_or_else(|_| panic!("missing {page}"));
            assert!(
                text.starts_with(&format!("# {} {}", r.code, r.name)),
                "{page} heading"
            );
            assert_eq!(
                super::page(r.code.as_str()),
                Some(text.as_str()),
                "{} embedded",
                r.code
            );
        }
        // And no page without its rule.
        for (code, _) in RULE_PAGES {
            assert!(rule(code).is_some(), "docs/rules/{code}.md has no rule");
        }
    }

    #[test]
    fn documentation_urls_come_from_one_template() {
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            docs_url(None, "DA003"),
            format!("{}/blob/v{version}/docs/rules/DA003.md", repository())
        );
        assert_eq!(
            docs_url(
                Some("https://example.org/coordc/{version}/{code}.html"),
                "EL001"
            ),
            format!("https://example.org/coordc/{version}/EL001.html")
        );
        assert!(check_docs_url(DEFAULT_DOCS_URL).is_ok());
        assert!(check_docs_url("file:///srv/docs/{code}.md").is_ok());
        // Mistakes say what is wrong.
        let wrong = |t: &str| check_docs_url(t).unwrap_err();
        assert!(wrong("https://example.org/rules").contains("no `{code}`"));
        assert!(wrong("https://example.org/{rule}/{code}").contains("`{rule}` is no placeholder"));
        assert!(wrong("example.org/{code}").contains("not a URL"));
        assert!(wrong("ftp://example.org/{code}").contains("`ftp:` URL"));
    }
}
