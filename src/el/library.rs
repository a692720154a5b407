//! The EL function and constant library, as data: every function and constant
//! coordc knows, with its parameter and return types, the XML places where Oozie
//! allows it, a one-line doc, and how coordc evaluates it.
//!
//! Sources: `core/src/main/resources/oozie-default.xml` (the `ELService` groups),
//! `CoordELFunctions.java`, `HCatELFunctions.java`, `DagELFunctions.java`,
//! `FsELFunctions.java`, `HadoopELFunctions.java`, `ELConstantsFunctions.java`;
//! the places per group are the EL groups of oozie-default.xml (`oozie.service.ELService.functions.coord-*`, `wf`, `bundle-submit`) and CoordELEvaluator.java.

use super::ast::{ExprKind, Template};
use super::eval::arguments;
use super::time_functions;
use super::value::Value;
use crate::time::datetime::ProcessingZone;

/// A Java parameter or return type of an EL function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    String,
    Int,
    Long,
    Boolean,
    /// `java.lang.Object`: passed through uncoerced.
    Object,
    /// `java.util.Map`: produced only by a running workflow (`wf:actionData`).
    Map,
}

impl Ty {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Ty::String => "String",
            Ty::Int => "int",
            Ty::Long => "long",
            Ty::Boolean => "boolean",
            Ty::Object => "Object",
            Ty::Map => "Map",
        }
    }
}

/// Where in an application an EL text sits; each is one or more of Oozie's
/// `ELService` groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// App and dataset `frequency` (coord-job-submit-freq).
    Frequency,
    /// `start`, `end`, `timezone`, `uri-template`, `done-flag`, controls, `app-path`,
    /// `<include>` (coord-job-submit-nofuncs).
    Submit,
    /// Dataset `initial-instance` (coord-job-submit-initial-instance).
    InitialInstance,
    /// `controls/timeout` (coord-job-wait-timeout).
    Timeout,
    /// `<instance>` of a data-in or data-out (coord-action-create).
    Instance,
    /// `<start-instance>`, `<end-instance>` (coord-action-create-inst).
    RangeInstance,
    /// Action `configuration` and the action XML (coord-job-submit-data, coord-action-start).
    ActionConfig,
    /// SLA elements (coord-sla-submit, coord-sla-create).
    Sla,
    /// Any EL in a workflow application (the `workflow` group).
    Workflow,
    /// Any EL in a bundle application (bundle-submit: `bundle:conf` and the
    /// job's properties, nothing else).
    Bundle,
}

/// Which library `coordc eval --context` shows: Oozie's coordinator groups, its
/// workflow group, or its bundle group. The basic functions (`concat`, `trim`,
/// ...) and the `wf:`, `fs:`, `hadoop:counters` functions exist only in
/// workflow EL; a bundle's EL has `bundle:conf` and nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Library {
    Coordinator,
    Workflow,
    Bundle,
}

impl Place {
    pub(crate) fn library(self) -> Library {
        match self {
            Place::Workflow => Library::Workflow,
            Place::Bundle => Library::Bundle,
            _ => Library::Coordinator,
        }
    }

    /// For messages: "... cannot be used in {description}".
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Place::Frequency => "a frequency",
            Place::Submit => {
                "a value Oozie resolves at submission (start, end, timezone, uri-template, done-flag, app-path, include)"
            }
            Place::InitialInstance => "an initial-instance",
            Place::Timeout => "a timeout",
            Place::Instance => "an <instance>",
            Place::RangeInstance => "a <start-instance> or <end-instance>",
            Place::ActionConfig => "the workflow configuration",
            Place::Sla => "an SLA element",
            Place::Workflow => "a workflow",
            Place::Bundle => "a bundle",
        }
    }
}

/// What a function needs that a standalone evaluation does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// A frequency or timeout being evaluated (the unit the function sets).
    Frequency,
    /// A dataset and the action's nominal time (instance arithmetic).
    DatasetInstance,
    /// A materialized coordinator action (nominal time, id, resolved data-in/out).
    Action,
    /// An HCatalog dataset of a materialized action.
    HCatalog,
    /// A running workflow job.
    RunningWorkflow,
    /// Access to HDFS or the Hadoop cluster.
    Cluster,
    /// The current wall-clock time of the Oozie server.
    Clock,
}

impl Need {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Need::Frequency => "the frequency or timeout being evaluated",
            Need::DatasetInstance => "a dataset and a coordinator action's nominal time",
            Need::Action => "a materialized coordinator action",
            Need::HCatalog => "an HCatalog dataset of a materialized coordinator action",
            Need::RunningWorkflow => "a running workflow job",
            Need::Cluster => "access to HDFS or the Hadoop cluster",
            Need::Clock => "the Oozie server's current time",
        }
    }
}

/// How coordc evaluates a function.
#[derive(Clone, Copy)]
pub enum Imp {
    /// Depends only on its (already coerced) arguments.
    Pure(fn(&[Value]) -> Result<Value<'static>, String>),
    /// Also reads or writes Oozie datetimes, which are wall times in the
    /// processing time zone.
    Datetime(fn(&[Value], ProcessingZone) -> Result<Value<'static>, String>),
    /// Reads the job configuration: `name` looked up as a variable.
    JobProperty,
    /// Reads the job configuration property `user.name`.
    JobUser,
    /// Needs a context a standalone evaluation does not have.
    Needs(Need),
}

pub struct FunctionDef {
    pub namespace: Option<&'static str>,
    pub name: &'static str,
    pub params: &'static [Ty],
    pub ret: Ty,
    pub places: &'static [Place],
    pub doc: &'static str,
    pub imp: Imp,
}

impl FunctionDef {
    pub(crate) fn qualified_name(&self) -> String {
        match self.namespace {
            Some(ns) => format!("{ns}:{}", self.name),
            None => self.name.to_string(),
        }
    }

    pub(crate) fn signature(&self) -> String {
        let params: Vec<&str> = self.params.iter().map(|t| t.name()).collect();
        format!(
            "{} {}({})",
            self.ret.name(),
            self.qualified_name(),
            params.join(", ")
        )
    }

    pub(crate) fn in_library(&self, library: Library) -> bool {
        self.places.iter().any(|p| p.library() == library)
    }
}

/// The value of a constant, when it has one outside an application.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ConstValue {
    Long(i64),
    Str(&'static str),
    Needs(Need),
}

pub(crate) struct ConstantDef {
    pub name: &'static str,
    pub value: ConstValue,
    pub places: &'static [Place],
    pub doc: &'static str,
}

impl ConstantDef {
    pub(crate) fn in_library(&self, library: Library) -> bool {
        self.places.iter().any(|p| p.library() == library)
    }
}

use Place::*;

const ALL_COORD: &[Place] = &[
    Frequency,
    Submit,
    InitialInstance,
    Timeout,
    Instance,
    RangeInstance,
    ActionConfig,
    Sla,
];
const FREQ: &[Place] = &[Frequency, Timeout];
const END_OF: &[Place] = &[Frequency, Instance, RangeInstance];
const INSTANCES: &[Place] = &[Instance, RangeInstance];
const CONFIG: &[Place] = &[ActionConfig];
const CONFIG_SLA: &[Place] = &[ActionConfig, Sla];
const DATE_OFFSET: &[Place] = &[InitialInstance, RangeInstance, ActionConfig, Sla];
const FORMAT: &[Place] = &[Instance, RangeInstance, ActionConfig, Sla];
const WF: &[Place] = &[Workflow];

macro_rules! f {
    ($ns:expr, $name:literal, [$($p:ident),*], $ret:ident, $places:expr, $imp:expr, $doc:literal) => {
        FunctionDef {
            namespace: $ns,
            name: $name,
            params: &[$(Ty::$p),*],
            ret: Ty::$ret,
            places: $places,
            doc: $doc,
            imp: $imp,
        }
    };
}

const C: Option<&str> = Some("coord");
const W: Option<&str> = Some("wf");
const FS: Option<&str> = Some("fs");
const H: Option<&str> = Some("hadoop");
const B: Option<&str> = Some("bundle");

/// Every function coordc knows.
pub(crate) static FUNCTIONS: &[FunctionDef] = &[
    // The bundle-submit group's one function (oozie-default.xml:1244-1247,
    // BundleELFunctions.bundle_conf).
    f!(
        B,
        "conf",
        [String],
        String,
        &[Place::Bundle],
        Imp::JobProperty,
        "A bundle job configuration property, or null."
    ),
    // Frequencies (spec §4.4): a count in a unit; the unit is what the evaluator records.
    f!(
        C,
        "minutes",
        [Int],
        Int,
        FREQ,
        Imp::Needs(Need::Frequency),
        "A frequency of n minutes."
    ),
    f!(
        C,
        "hours",
        [Int],
        Int,
        FREQ,
        Imp::Needs(Need::Frequency),
        "A frequency of n hours, as n × 60 minutes."
    ),
    f!(
        C,
        "days",
        [Int],
        Int,
        FREQ,
        Imp::Needs(Need::Frequency),
        "A frequency of n days, DST-aware in the job's time zone."
    ),
    f!(
        C,
        "months",
        [Int],
        Int,
        FREQ,
        Imp::Needs(Need::Frequency),
        "A frequency of n months, DST-aware in the job's time zone."
    ),
    f!(
        C,
        "endOfDays",
        [Int],
        Int,
        END_OF,
        Imp::Needs(Need::Frequency),
        "n days, starting at the end of the day of the start time."
    ),
    f!(
        C,
        "endOfWeeks",
        [Int],
        Int,
        END_OF,
        Imp::Needs(Need::Frequency),
        "n weeks, starting at the end of the week of the start time."
    ),
    f!(
        C,
        "endOfMonths",
        [Int],
        Int,
        END_OF,
        Imp::Needs(Need::Frequency),
        "n months, starting at the end of the month of the start time."
    ),
    // Dataset instances (spec §6.6).
    f!(
        C,
        "current",
        [Int],
        String,
        INSTANCES,
        Imp::Needs(Need::DatasetInstance),
        "The dataset instance n frequencies from the one at or before the nominal time."
    ),
    f!(
        C,
        "offset",
        [Int, String],
        String,
        INSTANCES,
        Imp::Needs(Need::DatasetInstance),
        "The dataset instance n MINUTE/HOUR/DAY/MONTH/YEAR away from current(0)."
    ),
    f!(
        C,
        "latest",
        [Int],
        String,
        INSTANCES,
        Imp::Needs(Need::DatasetInstance),
        "The n-th latest available dataset instance, resolved when the action starts."
    ),
    f!(
        C,
        "future",
        [Int, Int],
        String,
        INSTANCES,
        Imp::Needs(Need::DatasetInstance),
        "The n-th available instance at or after current(0), looking ahead at most limit instances."
    ),
    f!(
        C,
        "absolute",
        [String],
        String,
        &[RangeInstance],
        Imp::Needs(Need::DatasetInstance),
        "The dataset instance at a fixed datetime (start-instance only)."
    ),
    f!(
        C,
        "currentRange",
        [Int, Int],
        String,
        INSTANCES,
        Imp::Needs(Need::DatasetInstance),
        "The instances current(start) to current(end)."
    ),
    f!(
        C,
        "latestRange",
        [Int, Int],
        String,
        INSTANCES,
        Imp::Needs(Need::DatasetInstance),
        "The instances latest(start) to latest(end)."
    ),
    f!(
        C,
        "futureRange",
        [Int, Int, Int],
        String,
        INSTANCES,
        Imp::Needs(Need::DatasetInstance),
        "The instances future(start) to future(end), looking ahead at most limit instances."
    ),
    f!(
        C,
        "absoluteRange",
        [String, Int],
        String,
        INSTANCES,
        Imp::Needs(Need::DatasetInstance),
        "The instances from a fixed datetime to current(end)."
    ),
    f!(
        C,
        "hoursInDay",
        [Int],
        Int,
        INSTANCES,
        Imp::Needs(Need::DatasetInstance),
        "Hours in the day n dataset frequencies away (23, 24 or 25 across DST)."
    ),
    f!(
        C,
        "daysInMonth",
        [Int],
        Int,
        INSTANCES,
        Imp::Needs(Need::DatasetInstance),
        "Days in the month n dataset frequencies away."
    ),
    f!(
        C,
        "tzOffset",
        [],
        Int,
        INSTANCES,
        Imp::Needs(Need::DatasetInstance),
        "Minutes between the dataset's time zone and the job's, at the nominal time."
    ),
    // Action values (spec §6.7, §6.8).
    f!(
        C,
        "dataIn",
        [String],
        String,
        CONFIG,
        Imp::Needs(Need::Action),
        "The resolved URIs of a data-in, comma-separated."
    ),
    f!(
        C,
        "dataOut",
        [String],
        String,
        CONFIG_SLA,
        Imp::Needs(Need::Action),
        "The resolved URIs of a data-out, comma-separated."
    ),
    f!(
        C,
        "nominalTime",
        [],
        String,
        CONFIG_SLA,
        Imp::Needs(Need::Action),
        "The action's nominal time."
    ),
    f!(
        C,
        "actualTime",
        [],
        String,
        CONFIG_SLA,
        Imp::Needs(Need::Action),
        "The time the action was actually created."
    ),
    f!(
        C,
        "actionId",
        [],
        String,
        CONFIG_SLA,
        Imp::Needs(Need::Action),
        "The coordinator action's id."
    ),
    f!(
        C,
        "name",
        [],
        String,
        CONFIG_SLA,
        Imp::Needs(Need::Action),
        "The coordinator application's name."
    ),
    f!(
        C,
        "user",
        [],
        String,
        ALL_COORD,
        Imp::JobUser,
        "The user who submitted the job (job property user.name)."
    ),
    f!(
        C,
        "conf",
        [String],
        String,
        ALL_COORD,
        Imp::JobProperty,
        "A job configuration property, or null."
    ),
    // Datetime functions (spec §6.9).
    f!(
        C,
        "dateOffset",
        [String, Int, String],
        String,
        DATE_OFFSET,
        Imp::Datetime(time_functions::date_offset),
        "A datetime shifted by n DAY/MONTH/YEAR/HOUR/MINUTE units, in UTC."
    ),
    f!(
        C,
        "dateTzOffset",
        [String, String],
        String,
        DATE_OFFSET,
        Imp::Datetime(time_functions::date_tz_offset),
        "A datetime shown as wall time in another time zone."
    ),
    f!(
        C,
        "formatTime",
        [String, String],
        String,
        FORMAT,
        Imp::Datetime(time_functions::format_time),
        "A datetime formatted with a Java SimpleDateFormat pattern."
    ),
    f!(
        C,
        "epochTime",
        [String, Boolean],
        String,
        FORMAT,
        Imp::Datetime(time_functions::epoch_time),
        "A datetime as seconds (or milliseconds) since 1970-01-01T00:00Z."
    ),
    // HCatalog (spec §6.8).
    f!(
        C,
        "databaseIn",
        [String],
        String,
        CONFIG,
        Imp::Needs(Need::HCatalog),
        "The HCatalog database of a data-in."
    ),
    f!(
        C,
        "databaseOut",
        [String],
        String,
        CONFIG_SLA,
        Imp::Needs(Need::HCatalog),
        "The HCatalog database of a data-out."
    ),
    f!(
        C,
        "tableIn",
        [String],
        String,
        CONFIG,
        Imp::Needs(Need::HCatalog),
        "The HCatalog table of a data-in."
    ),
    f!(
        C,
        "tableOut",
        [String],
        String,
        CONFIG_SLA,
        Imp::Needs(Need::HCatalog),
        "The HCatalog table of a data-out."
    ),
    f!(
        C,
        "dataInPartitionFilter",
        [String, String],
        String,
        CONFIG,
        Imp::Needs(Need::HCatalog),
        "A partition filter (pig, hive or java syntax) for a data-in's partitions."
    ),
    f!(
        C,
        "dataInPartitionMin",
        [String, String],
        String,
        CONFIG,
        Imp::Needs(Need::HCatalog),
        "The smallest value of a partition key across a data-in's instances."
    ),
    f!(
        C,
        "dataInPartitionMax",
        [String, String],
        String,
        CONFIG,
        Imp::Needs(Need::HCatalog),
        "The largest value of a partition key across a data-in's instances."
    ),
    f!(
        C,
        "dataInPartitions",
        [String, String],
        String,
        CONFIG,
        Imp::Needs(Need::HCatalog),
        "A data-in's partitions, in the given format (e.g. hive-export)."
    ),
    f!(
        C,
        "dataOutPartitions",
        [String],
        String,
        CONFIG_SLA,
        Imp::Needs(Need::HCatalog),
        "A data-out's partition, as key1=value1,key2=value2."
    ),
    f!(
        C,
        "dataOutPartitionValue",
        [String, String],
        String,
        CONFIG_SLA,
        Imp::Needs(Need::HCatalog),
        "The value of one partition key of a data-out."
    ),
    f!(
        H,
        "conf",
        [String, String],
        String,
        &[
            Frequency,
            Submit,
            InitialInstance,
            Timeout,
            Instance,
            RangeInstance,
            ActionConfig,
            Sla,
            Workflow
        ],
        Imp::Needs(Need::Cluster),
        "A property of the Hadoop configuration of a cluster."
    ),
    // Basic functions: workflow EL only (ELConstantsFunctions).
    f!(
        None,
        "firstNotNull",
        [Object, Object],
        Object,
        WF,
        Imp::Pure(first_not_null),
        "The first argument that is not null, or null."
    ),
    f!(
        None,
        "concat",
        [String, String],
        String,
        WF,
        Imp::Pure(concat),
        "The two strings joined; null counts as empty."
    ),
    f!(
        None,
        "replaceAll",
        [String, String, String],
        String,
        WF,
        Imp::Pure(replace_all),
        "Every match of a Java regex replaced (String.replaceAll)."
    ),
    f!(
        None,
        "appendAll",
        [String, String, String],
        String,
        WF,
        Imp::Pure(append_all),
        "Each piece of a delimiter-split string with a suffix appended."
    ),
    f!(
        None,
        "trim",
        [String],
        String,
        WF,
        Imp::Pure(trim),
        "The string without surrounding whitespace; null gives empty."
    ),
    f!(
        None,
        "timestamp",
        [],
        String,
        WF,
        Imp::Needs(Need::Clock),
        "The current UTC time, yyyy-MM-ddTHH:mmZ."
    ),
    f!(
        None,
        "urlEncode",
        [String],
        String,
        WF,
        Imp::Pure(url_encode),
        "The string in application/x-www-form-urlencoded form (UTF-8)."
    ),
    f!(
        None,
        "toJsonStr",
        [Map],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "A map as JSON, XML-escaped."
    ),
    f!(
        None,
        "toPropertiesStr",
        [Map],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "A map as Java properties text, XML-escaped."
    ),
    f!(
        None,
        "toConfigurationStr",
        [Map],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "A map as a Hadoop configuration XML, escaped."
    ),
    // Workflow job functions (DagELFunctions).
    f!(
        W,
        "id",
        [],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The workflow job id."
    ),
    f!(
        W,
        "name",
        [],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The workflow application name."
    ),
    f!(
        W,
        "appPath",
        [],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The workflow application path."
    ),
    f!(
        W,
        "conf",
        [String],
        String,
        WF,
        Imp::JobProperty,
        "A workflow job configuration property, or null."
    ),
    f!(
        W,
        "user",
        [],
        String,
        WF,
        Imp::JobUser,
        "The user who started the workflow job."
    ),
    f!(
        W,
        "group",
        [],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The group of the workflow job."
    ),
    f!(
        W,
        "callback",
        [String],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The callback URL of the current action node."
    ),
    f!(
        W,
        "transition",
        [String],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The transition a node took."
    ),
    f!(
        W,
        "lastErrorNode",
        [],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The last node that ended in error."
    ),
    f!(
        W,
        "errorCode",
        [String],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The error code of an action node."
    ),
    f!(
        W,
        "errorMessage",
        [String],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The error message of an action node."
    ),
    f!(
        W,
        "run",
        [],
        Int,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The run number of the workflow job."
    ),
    f!(
        W,
        "actionData",
        [String],
        Map,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The output data (capture-output) of an action node."
    ),
    f!(
        W,
        "actionExternalId",
        [String],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The external id of an action node."
    ),
    f!(
        W,
        "actionTrackerUri",
        [String],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The tracker URI of an action node."
    ),
    f!(
        W,
        "actionExternalStatus",
        [String],
        String,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The external status of an action node."
    ),
    // HDFS (FsELFunctions) and Hadoop counters (HadoopELFunctions).
    f!(
        FS,
        "exists",
        [String],
        Boolean,
        WF,
        Imp::Needs(Need::Cluster),
        "Whether a path exists."
    ),
    f!(
        FS,
        "isDir",
        [String],
        Boolean,
        WF,
        Imp::Needs(Need::Cluster),
        "Whether a path is a directory."
    ),
    f!(
        FS,
        "dirSize",
        [String],
        Long,
        WF,
        Imp::Needs(Need::Cluster),
        "The total size in bytes of the files in a directory."
    ),
    f!(
        FS,
        "fileSize",
        [String],
        Long,
        WF,
        Imp::Needs(Need::Cluster),
        "The size in bytes of a file."
    ),
    f!(
        FS,
        "blockSize",
        [String],
        Long,
        WF,
        Imp::Needs(Need::Cluster),
        "The block size in bytes of a file."
    ),
    f!(
        H,
        "counters",
        [String],
        Map,
        WF,
        Imp::Needs(Need::RunningWorkflow),
        "The Hadoop counters of a map-reduce or pig action node."
    ),
    f!(
        Some("hcat"),
        "exists",
        [String],
        Boolean,
        WF,
        Imp::Needs(Need::Cluster),
        "Whether an HCatalog table or partition URI exists."
    ),
];

/// Every constant coordc knows.
pub(crate) static CONSTANTS: &[ConstantDef] = &[
    ConstantDef {
        name: "KB",
        value: ConstValue::Long(1024),
        places: WF,
        doc: "1024 bytes.",
    },
    ConstantDef {
        name: "MB",
        value: ConstValue::Long(1024 * 1024),
        places: WF,
        doc: "1024 KB.",
    },
    ConstantDef {
        name: "GB",
        value: ConstValue::Long(1024 * 1024 * 1024),
        places: WF,
        doc: "1024 MB.",
    },
    ConstantDef {
        name: "TB",
        value: ConstValue::Long(1024 * 1024 * 1024 * 1024),
        places: WF,
        doc: "1024 GB.",
    },
    ConstantDef {
        name: "PB",
        value: ConstValue::Long(1024 * 1024 * 1024 * 1024 * 1024),
        places: WF,
        doc: "1024 TB.",
    },
    ConstantDef {
        name: "RECORDS",
        value: ConstValue::Str("org.apache.hadoop.mapred.Task$Counter"),
        places: WF,
        doc: "The Hadoop counter group of record counts.",
    },
    ConstantDef {
        name: "MAP_IN",
        value: ConstValue::Str("MAP_INPUT_RECORDS"),
        places: WF,
        doc: "Counter name: map input records.",
    },
    ConstantDef {
        name: "MAP_OUT",
        value: ConstValue::Str("MAP_OUTPUT_RECORDS"),
        places: WF,
        doc: "Counter name: map output records.",
    },
    ConstantDef {
        name: "REDUCE_IN",
        value: ConstValue::Str("REDUCE_INPUT_RECORDS"),
        places: WF,
        doc: "Counter name: reduce input records.",
    },
    ConstantDef {
        name: "REDUCE_OUT",
        value: ConstValue::Str("REDUCE_OUTPUT_RECORDS"),
        places: WF,
        doc: "Counter name: reduce output records.",
    },
    ConstantDef {
        name: "GROUPS",
        value: ConstValue::Str("REDUCE_INPUT_GROUPS"),
        places: WF,
        doc: "Counter name: reduce input groups.",
    },
    ConstantDef {
        name: "MINUTE",
        value: ConstValue::Needs(Need::DatasetInstance),
        places: &[Submit],
        doc: "The minute (mm) of a dataset instance, in a uri-template.",
    },
    ConstantDef {
        name: "HOUR",
        value: ConstValue::Needs(Need::DatasetInstance),
        places: &[Submit],
        doc: "The hour (HH) of a dataset instance, in a uri-template.",
    },
    ConstantDef {
        name: "DAY",
        value: ConstValue::Needs(Need::DatasetInstance),
        places: &[Submit],
        doc: "The day of month (dd) of a dataset instance, in a uri-template.",
    },
    ConstantDef {
        name: "MONTH",
        value: ConstValue::Needs(Need::DatasetInstance),
        places: &[Submit],
        doc: "The month (MM) of a dataset instance, in a uri-template.",
    },
    ConstantDef {
        name: "YEAR",
        value: ConstValue::Needs(Need::DatasetInstance),
        places: &[Submit],
        doc: "The year (yyyy) of a dataset instance, in a uri-template.",
    },
    ConstantDef {
        name: "MINUTES",
        value: ConstValue::Long(1),
        places: &[Sla],
        doc: "One minute, in SLA durations.",
    },
    ConstantDef {
        name: "HOURS",
        value: ConstValue::Long(60),
        places: &[Sla],
        doc: "60 minutes, in SLA durations.",
    },
    ConstantDef {
        name: "DAYS",
        value: ConstValue::Long(1440),
        places: &[Sla],
        doc: "1440 minutes, in SLA durations.",
    },
];

/// Looks up the function `call` names (`ns:name` or `name`) among the
/// functions of `library`.
pub(crate) fn function(library: Library, call: &super::ast::Call) -> Option<&'static FunctionDef> {
    in_library(library, definitions(call))
}

/// The one of `definitions` (those of one name) that `library` defines.
fn in_library(
    library: Library,
    definitions: &'static [&'static FunctionDef],
) -> Option<&'static FunctionDef> {
    definitions.iter().copied().find(|f| f.in_library(library))
}

/// The functions, one group per `ns:name` (the first group empty, for names
/// nothing defines), and each name's groups: a group is its place in the list.
struct Index {
    groups: Vec<Vec<&'static FunctionDef>>,
    by_name: rustc_hash::FxHashMap<&'static str, Vec<u32>>,
}

impl Index {
    fn get() -> &'static Index {
        static INDEX: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
        INDEX.get_or_init(|| {
            let mut index = Index {
                groups: vec![Vec::new()],
                by_name: Default::default(),
            };
            for f in FUNCTIONS {
                let same = index.group_of(f.namespace, f.name);
                match index.groups.get_mut(same as usize).filter(|_| same != 0) {
                    Some(group) => group.push(f),
                    None => {
                        let new = index.groups.len() as u32;
                        index.by_name.entry(f.name).or_default().push(new);
                        index.groups.push(vec![f]);
                    }
                }
            }
            index
        })
    }

    /// The group of `ns:name`; 0 when nothing defines it.
    fn group_of(&self, namespace: Option<&str>, name: &str) -> u32 {
        let namespace_of = |g: u32| Some(self.groups.get(g as usize)?.first()?.namespace);
        self.by_name
            .get(name)
            .and_then(|groups| {
                groups
                    .iter()
                    .copied()
                    .find(|&g| namespace_of(g) == Some(namespace))
            })
            .unwrap_or(0)
    }

    fn group(&'static self, group: u32) -> &'static [&'static FunctionDef] {
        self.groups.get(group as usize).map_or(&[], Vec::as_slice)
    }
}

/// The definitions of `ns:name` in every library, looked up by name.
fn definitions(call: &super::ast::Call) -> &'static [&'static FunctionDef] {
    let index = Index::get();
    index.group(index.group_of(call.namespace.as_deref(), &call.name))
}

/// What every call of a tree names, by its index (`Call::index`): looked
/// up once for a tree evaluated many times (a coordinator's values, once
/// per action: a dry run evaluates about five calls an action). A lookup
/// by name hashes the name and compares it, 20-35 ns a call on the
/// development machine against a few for a number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// Each call's group of definitions. (Inline up to four, as most texts
    /// call: no allocation for a text evaluated once.)
    groups: smallvec::SmallVec<[u32; 4]>,
}

impl Resolved {
    pub(crate) fn of(template: &Template) -> Resolved {
        let index = Index::get();
        let mut groups = smallvec::SmallVec::new();
        for expr in template.exprs() {
            expr.walk(&mut |e| {
                if let ExprKind::Call(call) = &e.kind {
                    let at = call.index as usize;
                    if groups.len() <= at {
                        groups.resize(at + 1, 0);
                    }
                    if let Some(slot) = groups.get_mut(at) {
                        *slot = index.group_of(call.namespace.as_deref(), &call.name);
                    }
                }
            });
        }
        Resolved { groups }
    }

    /// [`function`], from what was found for `call` when it is in the tree
    /// this was made of.
    pub(crate) fn function(
        &self,
        library: Library,
        call: &super::ast::Call,
    ) -> Option<&'static FunctionDef> {
        match self.groups.get(call.index as usize) {
            Some(&group) => in_library(library, Index::get().group(group)),
            None => function(library, call),
        }
    }
}

/// A function or constant used where Oozie's EL group for that place does not
/// define it (oozie-default.xml, `oozie.service.ELService.*`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Misplaced {
    /// `coord:dateOffset()` or `MINUTES`, as written.
    pub what: String,
    pub is_function: bool,
    pub span: crate::span::Span,
}

/// The first function or constant of `template` that `place` does not allow. A
/// name the job defines is a variable, not a constant.
pub(crate) fn first_misplaced(
    template: &Template,
    place: Place,
    vars: &dyn super::Variables,
) -> Option<Misplaced> {
    // (Looked at as they are found: a list would be an allocation for every
    // frequency and timeout lowered.)
    let mut first = None;
    each_reference(template, place.library(), |reference| {
        if first.is_none() {
            first = misplaced(&reference, place, vars);
        }
    });
    first
}

/// The first of `references` (those of `place`'s library) that `place` does
/// not allow.
pub(super) fn first_misplaced_of(
    references: &[Reference],
    place: Place,
    vars: &dyn super::Variables,
) -> Option<Misplaced> {
    references
        .iter()
        .find_map(|reference| misplaced(reference, place, vars))
}

/// `reference`, when `place` does not allow it.
fn misplaced(
    reference: &Reference,
    place: Place,
    vars: &dyn super::Variables,
) -> Option<Misplaced> {
    match *reference {
        Reference::Function(def, span) if !def.places.contains(&place) => Some(Misplaced {
            what: format!("{}()", def.qualified_name()),
            is_function: true,
            span,
        }),
        Reference::Constant(def, span)
            if !def.places.contains(&place) && vars.lookup(def.name).is_none() =>
        {
            Some(Misplaced {
                what: def.name.to_string(),
                is_function: false,
                span,
            })
        }
        _ => None,
    }
}

/// A function a library defines, or a constant it defines, named in a tree.
pub(super) enum Reference {
    Function(&'static FunctionDef, crate::span::Span),
    Constant(&'static ConstantDef, crate::span::Span),
}

/// The functions and constants of `library` that `template` names, in the
/// order of its text.
pub(super) fn references(template: &Template, library: Library) -> Vec<Reference> {
    let mut found = Vec::new();
    each_reference(template, library, |reference| found.push(reference));
    found
}

/// Hands each function and constant of `library` that `template` names to
/// `visit`, in the order of its text.
fn each_reference(template: &Template, library: Library, mut visit: impl FnMut(Reference)) {
    for expr in template.exprs() {
        expr.walk(&mut |e| match &e.kind {
            ExprKind::Var(name) => {
                if let Some(c) = constant(library, name) {
                    visit(Reference::Constant(c, e.span));
                }
            }
            ExprKind::Call(call) => {
                if let Some(f) = function(library, call) {
                    visit(Reference::Function(f, e.span));
                }
            }
            _ => {}
        });
    }
}

pub(crate) fn constant(library: Library, name: &str) -> Option<&'static ConstantDef> {
    CONSTANTS
        .iter()
        .find(|c| c.name == name && c.in_library(library))
}

fn text<'v>(v: &'v Value) -> std::borrow::Cow<'v, str> {
    v.to_text()
}

fn owned(s: String) -> Value<'static> {
    Value::Str(std::borrow::Cow::Owned(s))
}

fn first_not_null(args: &[Value]) -> Result<Value<'static>, String> {
    let [first, second] = arguments(args)?;
    let pick = if matches!(first, Value::Null) {
        second
    } else {
        first
    };
    Ok(pick.clone().into_owned())
}

fn concat(args: &[Value]) -> Result<Value<'static>, String> {
    let [a, b] = arguments(args)?;
    Ok(owned(format!("{}{}", text(a), text(b))))
}

/// commons-lang `StringUtils.trimToEmpty`: `String.trim()`, which strips chars <= U+0020.
fn trim(args: &[Value]) -> Result<Value<'static>, String> {
    let [s] = arguments(args)?;
    Ok(owned(text(s).trim_matches(|c: char| c <= ' ').to_string()))
}

/// `URLEncoder.encode(s, "UTF-8")`: letters, digits and `.-*_` stay, space is `+`,
/// everything else is %XX of its UTF-8 bytes.
fn url_encode(args: &[Value]) -> Result<Value<'static>, String> {
    let [s] = arguments(args)?;
    let s = text(s);
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'*' | b'_' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    Ok(owned(out))
}

/// `String.replaceAll(regex, replacement)`; `$n` in the replacement is group n and
/// `\x` is a literal x, as in Java. Java-only regex syntax (lookaround, possessive
/// quantifiers) is reported as unsupported.
fn replace_all(args: &[Value]) -> Result<Value<'static>, String> {
    let [src, pattern, replacement] = arguments(args)?;
    let src = text(src).into_owned();
    let (pattern, replacement) = (text(pattern), text(replacement));
    let re = java_regex(&pattern)?;
    let mut out = String::with_capacity(src.len());
    let mut last = 0;
    for caps in re.captures_iter(&src) {
        let m = caps.get_match();
        out.push_str(&src[last..m.start()]);
        expand_java_replacement(&replacement, &caps, &mut out)?;
        last = m.end();
    }
    out.push_str(&src[last..]);
    Ok(owned(out))
}

fn java_regex(pattern: &str) -> Result<regex::Regex, String> {
    regex::Regex::new(pattern)
        .map_err(|e| format!("regular expression {pattern:?} is not supported by coordc: {e}"))
}

fn expand_java_replacement(
    rep: &str,
    caps: &regex::Captures,
    out: &mut String,
) -> Result<(), String> {
    let mut chars = rep.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n) => out.push(n),
                None => return Err("character to be escaped is missing".to_string()),
            },
            '$' => {
                let first = chars
                    .next()
                    .and_then(|d| d.to_digit(10))
                    .ok_or_else(|| "Illegal group reference".to_string())?;
                let mut group = first as usize;
                // Java takes further digits while the group number stays valid.
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    let next = group * 10 + d as usize;
                    if next >= caps.len() {
                        break;
                    }
                    group = next;
                    chars.next();
                }
                if group >= caps.len() {
                    return Err(format!("No group {group}"));
                }
                out.push_str(caps.get(group).map_or("", |m| m.as_str()));
            }
            c => out.push(c),
        }
    }
    Ok(())
}

/// ELConstantsFunctions.appendAll: split `src` on the regex `delimiter` (Java
/// `String.split`, trailing empty pieces dropped), append `append` to each piece.
fn append_all(args: &[Value]) -> Result<Value<'static>, String> {
    let [src, append, delimiter] = arguments(args)?;
    let (src, append, delimiter) = (text(src), text(append), text(delimiter));
    let re = java_regex(&delimiter)?;
    let pieces: Vec<&str> = if src.is_empty() {
        vec![""]
    } else {
        let mut v: Vec<&str> = re.split(&src).collect();
        // Java 8+: a zero-width match at the start yields no leading empty piece.
        if re
            .find(&src)
            .is_some_and(|m| m.start() == 0 && m.end() == 0)
        {
            v.remove(0);
        }
        // Trailing empty pieces are dropped.
        while v.last() == Some(&"") {
            v.pop();
        }
        v
    };
    let mut out = String::new();
    for (i, p) in pieces.iter().enumerate() {
        out.push_str(p);
        out.push_str(&append);
        if i + 1 < pieces.len() {
            out.push_str(&delimiter);
        }
    }
    if src.starts_with(delimiter.as_ref()) && pieces.first().is_some_and(|p| !p.is_empty()) {
        out.insert_str(0, &append);
    }
    Ok(owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    #[test]
    fn a_tree_names_its_functions_and_each_job_decides_its_constants() {
        // oozie-default.xml's EL groups: no dateOffset in an <instance>, no
        // MINUTES in the workflow configuration, unless the job defines it.
        let template = crate::el::parse_template(
            "${MINUTES}/${coord:dateOffset('2009-01-01T00:00Z', 1, 'DAY')}",
            0,
        )
        .unwrap();
        let defines_minutes: super::super::VarMap =
            [("MINUTES".to_string(), Some("5".to_string()))]
                .into_iter()
                .collect();
        for _ in 0..2 {
            let instance = first_misplaced(&template, Place::Instance, &super::super::NoVariables);
            assert_eq!(instance.map(|m| m.what), Some("MINUTES".to_string()));
            let instance = first_misplaced(&template, Place::Instance, &defines_minutes);
            assert_eq!(
                instance.map(|m| (m.what, m.is_function)),
                Some(("coord:dateOffset()".to_string(), true))
            );
            assert!(first_misplaced(&template, Place::Submit, &defines_minutes).is_some());
        }
        assert_eq!(references(&template, Library::Coordinator).len(), 2);
        assert!(references(&template.clone(), Library::Workflow).is_empty());
    }

    #[test]
    fn what_a_tree_resolves_is_what_each_call_looks_up_by_name() {
        // Calls in several blocks, nested, unknown, and in every library.
        let template = crate::el::parse_template(
            "${coord:formatTime(coord:nominalTime(), 'y')}/${wf:id()}-${nope()}${concat(coord:conf('a'), conf('b'))}",
            0,
        )
        .unwrap();
        let resolved = Resolved::of(&template);
        let mut calls = Vec::new();
        for expr in template.exprs() {
            expr.walk(&mut |e| {
                if let ExprKind::Call(call) = &e.kind {
                    calls.push(call);
                }
            });
        }
        let indexes: Vec<u32> = calls.iter().map(|c| c.index).collect();
        assert_eq!(indexes, [0, 1, 2, 3, 4, 5, 6]);
        for call in calls {
            for library in [Library::Coordinator, Library::Workflow, Library::Bundle] {
                let by_name = function(library, call).map(|f| f.qualified_name());
                let found = resolved.function(library, call).map(|f| f.qualified_name());
                assert_eq!(found, by_name, "{} in {library:?}", call.qualified_name());
            }
        }
    }

    fn s(x: &str) -> Value<'_> {
        Value::Str(Cow::Borrowed(x))
    }

    #[test]
    fn append_all_matches_oozie_javadoc() {
        // ELConstantsFunctions.appendAll javadoc example.
        let v = append_all(&[s("/a/b/,/c/b/,/c/d/"), s("ADD"), s(",")]).unwrap();
        assert_eq!(v, s("/a/b/ADD,/c/b/ADD,/c/d/ADD"));
    }

    #[test]
    fn replace_all_uses_java_groups() {
        let v = replace_all(&[s("2009-01-02"), s("(\\d+)-(\\d+)"), s("$2/$1")]).unwrap();
        assert_eq!(v, s("01/2009-02"));
    }

    #[test]
    fn every_function_name_is_unique_per_library() {
        for lib in [Library::Coordinator, Library::Workflow] {
            let mut seen = std::collections::HashSet::new();
            for f in FUNCTIONS.iter().filter(|f| f.in_library(lib)) {
                assert!(
                    seen.insert(f.qualified_name()),
                    "{} twice",
                    f.qualified_name()
                );
            }
        }
    }
}
