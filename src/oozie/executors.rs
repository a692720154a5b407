//! What Oozie's action executors take of an action: facts the workflow
//! checks (`check::actions`) and the workflow runner (`interp::workflow`)
//! both rely on.

/// Actions that run on the cluster and so need a job-tracker (or, in schema
/// 1.0, resource-manager) and a name-node from the action or `<global>`
/// (LiteWorkflowAppParser.addGlobalJobTrackerNameNode and the executors):
/// the actions whose executor is JavaActionExecutor or one of its subclasses
/// (core/src/main/java/org/apache/oozie/action/hadoop/*ActionExecutor.java).
pub(crate) const CLUSTER_ACTIONS: &[&str] = &[
    "map-reduce",
    "pig",
    "java",
    "hive",
    "hive2",
    "shell",
    "sqoop",
    "distcp",
    "spark",
    "git",
];

/// Whether an action's executor reads its `<configuration>` (and
/// `<global>`'s) through JavaActionExecutor.parseJobXmlAndConfiguration,
/// which refuses the properties Oozie sets itself: the Hadoop actions, and
/// fs (FsActionExecutor.java:197, 737-739).
pub(crate) fn checks_configuration(kind: &str) -> bool {
    kind == "fs" || CLUSTER_ACTIONS.contains(&kind)
}
