//! The applications the `simulate` target runs scenarios over: folders of
//! corpus/simulate/ (coordinators with their workflows), and the workflows
//! of corpus/wf/ that its `wf-*` scenarios run (with the `--config` and
//! `--map` their README gives). Each is found by its folder's name, the
//! first line of an input.

pub struct Sim {
    pub key: &'static str,
    /// For a workflow scenario: the workflow application's file.
    pub workflow: Option<&'static str>,
    /// A workflow's `--config` file.
    pub config: Option<&'static str>,
    /// A workflow's `--map`s: app-path prefix, folder relative to the app's.
    pub maps: &'static [(&'static str, &'static str)],
    /// `(path relative to the scenario's folder, text)`.
    pub files: &'static [(&'static str, &'static str)],
}

pub static SIMS: &[Sim] = &[
    Sim {
        key: "fact01",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact01/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact02",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact02/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact03",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact03/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact05",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact05/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact07",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("daily.xml", include_str!("../../../corpus/simulate/fact07/daily.xml")),
            ("hourly.xml", include_str!("../../../corpus/simulate/fact07/hourly.xml")),
        ],
    },
    Sim {
        key: "fact08",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact08/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact11",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact11/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact13",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact13/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact16",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact16/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact17",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("latest.xml", include_str!("../../../corpus/simulate/fact17/latest.xml")),
            ("missing.xml", include_str!("../../../corpus/simulate/fact17/missing.xml")),
        ],
    },
    Sim {
        key: "fact19",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact19/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact22",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact22/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact25",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact25/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact26",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact26/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact27",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact27/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact31",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact31/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact32",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact32/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact35",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("and.xml", include_str!("../../../corpus/simulate/fact35/and.xml")),
            ("or.xml", include_str!("../../../corpus/simulate/fact35/or.xml")),
        ],
    },
    Sim {
        key: "fact37",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("combine.xml", include_str!("../../../corpus/simulate/fact37/combine.xml")),
            ("or.xml", include_str!("../../../corpus/simulate/fact37/or.xml")),
        ],
    },
    Sim {
        key: "fact38",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact38/coordinator.xml")),
        ],
    },
    Sim {
        key: "fact39",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("current.xml", include_str!("../../../corpus/simulate/fact39/current.xml")),
            ("past.xml", include_str!("../../../corpus/simulate/fact39/past.xml")),
        ],
    },
    Sim {
        key: "fact40",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/fact40/coordinator.xml")),
        ],
    },
    Sim {
        key: "coord-workflow",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/coord-workflow/coordinator.xml")),
            ("wf/workflow.xml", include_str!("../../../corpus/simulate/coord-workflow/wf/workflow.xml")),
        ],
    },
    Sim {
        key: "coord-workflow-conf",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/coord-workflow-conf/coordinator.xml")),
            ("wf/workflow.xml", include_str!("../../../corpus/simulate/coord-workflow-conf/wf/workflow.xml")),
        ],
    },
    Sim {
        key: "coord-workflow-latest",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/coord-workflow-latest/coordinator.xml")),
            ("wf/workflow.xml", include_str!("../../../corpus/simulate/coord-workflow-latest/wf/workflow.xml")),
        ],
    },
    Sim {
        key: "last-only-ended-window",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/last-only-ended-window/coordinator.xml")),
        ],
    },
    Sim {
        key: "spec-6.1",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("coordinator.xml", include_str!("../../../corpus/simulate/spec-6.1/coordinator.xml")),
        ],
    },
    Sim {
        key: "spec-6.3",
        workflow: None,
        config: None,
        maps: &[],
        files: &[
            ("example-1.xml", include_str!("../../../corpus/simulate/spec-6.3/example-1.xml")),
            ("example-2.xml", include_str!("../../../corpus/simulate/spec-6.3/example-2.xml")),
            ("example-3.xml", include_str!("../../../corpus/simulate/spec-6.3/example-3.xml")),
            ("last-only-outage.xml", include_str!("../../../corpus/simulate/spec-6.3/last-only-outage.xml")),
            ("last-only.xml", include_str!("../../../corpus/simulate/spec-6.3/last-only.xml")),
            ("none.xml", include_str!("../../../corpus/simulate/spec-6.3/none.xml")),
        ],
    },
    Sim {
        key: "wf-oozie-action-data-0",
        workflow: Some("oozie-action-data-decision.xml"),
        config: None,
        maps: &[],
        files: &[
            ("oozie-action-data-decision.xml", include_str!("../../../corpus/wf/oozie-action-data-decision.xml")),
        ],
    },
    Sim {
        key: "wf-oozie-action-data-42",
        workflow: Some("oozie-action-data-decision.xml"),
        config: None,
        maps: &[],
        files: &[
            ("oozie-action-data-decision.xml", include_str!("../../../corpus/wf/oozie-action-data-decision.xml")),
        ],
    },
    Sim {
        key: "wf-oozie-decision-el-error",
        workflow: Some("oozie-decision-el-error.xml"),
        config: None,
        maps: &[],
        files: &[
            ("oozie-decision-el-error.xml", include_str!("../../../corpus/wf/oozie-decision-el-error.xml")),
        ],
    },
    Sim {
        key: "wf-oozie-decision-not-true",
        workflow: Some("oozie-decision-not-true.xml"),
        config: None,
        maps: &[],
        files: &[
            ("oozie-decision-not-true.xml", include_str!("../../../corpus/wf/oozie-decision-not-true.xml")),
        ],
    },
    Sim {
        key: "wf-oozie-el-error-action",
        workflow: Some("oozie-el-error-action.xml"),
        config: None,
        maps: &[],
        files: &[
            ("oozie-el-error-action.xml", include_str!("../../../corpus/wf/oozie-el-error-action.xml")),
        ],
    },
    Sim {
        key: "wf-oozie-fork-kill-running",
        workflow: Some("oozie-fork-kill-running.xml"),
        config: None,
        maps: &[],
        files: &[
            ("oozie-fork-kill-running.xml", include_str!("../../../corpus/wf/oozie-fork-kill-running.xml")),
        ],
    },
    Sim {
        key: "wf-oozie-fs-mkdir-exists",
        workflow: Some("oozie-fs-mkdir-exists.xml"),
        config: None,
        maps: &[],
        files: &[
            ("oozie-fs-mkdir-exists.xml", include_str!("../../../corpus/wf/oozie-fs-mkdir-exists.xml")),
        ],
    },
    Sim {
        key: "wf-oozie-kill-message-el-error",
        workflow: Some("oozie-kill-message-el-error.xml"),
        config: None,
        maps: &[],
        files: &[
            ("oozie-kill-message-el-error.xml", include_str!("../../../corpus/wf/oozie-kill-message-el-error.xml")),
        ],
    },
    Sim {
        key: "wf-oozie-last-error-node",
        workflow: Some("oozie-last-error-node.xml"),
        config: None,
        maps: &[],
        files: &[
            ("oozie-last-error-node.xml", include_str!("../../../corpus/wf/oozie-last-error-node.xml")),
        ],
    },
    Sim {
        key: "wf-oozie-last-error-node-default",
        workflow: Some("oozie-last-error-node.xml"),
        config: None,
        maps: &[],
        files: &[
            ("oozie-last-error-node.xml", include_str!("../../../corpus/wf/oozie-last-error-node.xml")),
        ],
    },
    Sim {
        key: "wf-oozie-subwf-child-killed",
        workflow: Some("oozie-subwf-propagate.xml"),
        config: Some("job.properties"),
        maps: &[("hdfs://nn.example.com:8020/user/joe/apps/child", "child")],
        files: &[
            ("oozie-subwf-propagate.xml", include_str!("../../../corpus/wf/oozie-subwf-propagate.xml")),
            ("job.properties", include_str!("../../../corpus/simulate/wf-oozie-subwf-child-killed/job.properties")),
            ("child/workflow.xml", include_str!("../../../corpus/simulate/wf-oozie-subwf-propagate/child/workflow.xml")),
        ],
    },
    Sim {
        key: "wf-oozie-subwf-propagate",
        workflow: Some("oozie-subwf-propagate.xml"),
        config: Some("job.properties"),
        maps: &[("hdfs://nn.example.com:8020/user/joe/apps/child", "child")],
        files: &[
            ("oozie-subwf-propagate.xml", include_str!("../../../corpus/wf/oozie-subwf-propagate.xml")),
            ("job.properties", include_str!("../../../corpus/simulate/wf-oozie-subwf-propagate/job.properties")),
            ("child/workflow.xml", include_str!("../../../corpus/simulate/wf-oozie-subwf-propagate/child/workflow.xml")),
        ],
    },
    Sim {
        key: "wf-spec-4.1-case-1",
        workflow: Some("spec-4.1-control-nodes.xml"),
        config: Some("job.properties"),
        maps: &[],
        files: &[
            ("spec-4.1-control-nodes.xml", include_str!("../../../corpus/wf/spec-4.1-control-nodes.xml")),
            ("job.properties", include_str!("../../../corpus/simulate/wf-spec-4.1-case-1/job.properties")),
        ],
    },
    Sim {
        key: "wf-spec-4.1-case-2",
        workflow: Some("spec-4.1-control-nodes.xml"),
        config: Some("job.properties"),
        maps: &[],
        files: &[
            ("spec-4.1-control-nodes.xml", include_str!("../../../corpus/wf/spec-4.1-control-nodes.xml")),
            ("job.properties", include_str!("../../../corpus/simulate/wf-spec-4.1-case-2/job.properties")),
        ],
    },
    Sim {
        key: "wf-spec-4.1-case-3",
        workflow: Some("spec-4.1-control-nodes.xml"),
        config: Some("job.properties"),
        maps: &[],
        files: &[
            ("spec-4.1-control-nodes.xml", include_str!("../../../corpus/wf/spec-4.1-control-nodes.xml")),
            ("job.properties", include_str!("../../../corpus/simulate/wf-spec-4.1-case-3/job.properties")),
        ],
    },
    Sim {
        key: "wf-spec-4.1-default",
        workflow: Some("spec-4.1-control-nodes.xml"),
        config: Some("job.properties"),
        maps: &[],
        files: &[
            ("spec-4.1-control-nodes.xml", include_str!("../../../corpus/wf/spec-4.1-control-nodes.xml")),
            ("job.properties", include_str!("../../../corpus/simulate/wf-spec-4.1-default/job.properties")),
        ],
    },
    Sim {
        key: "wf-spec-4.1-no-input",
        workflow: Some("spec-4.1-control-nodes.xml"),
        config: Some("job.properties"),
        maps: &[],
        files: &[
            ("spec-4.1-control-nodes.xml", include_str!("../../../corpus/wf/spec-4.1-control-nodes.xml")),
            ("job.properties", include_str!("../../../corpus/simulate/wf-spec-4.1-no-input/job.properties")),
        ],
    },
    Sim {
        key: "wf-spec-4.1.5-fork-join-error",
        workflow: Some("spec-4.1.5-fork-join.xml"),
        config: None,
        maps: &[],
        files: &[
            ("spec-4.1.5-fork-join.xml", include_str!("../../../corpus/wf/spec-4.1.5-fork-join.xml")),
        ],
    },
    Sim {
        key: "wf-spec-4.1.5-fork-join-ok",
        workflow: Some("spec-4.1.5-fork-join.xml"),
        config: None,
        maps: &[],
        files: &[
            ("spec-4.1.5-fork-join.xml", include_str!("../../../corpus/wf/spec-4.1.5-fork-join.xml")),
        ],
    },
    Sim {
        key: "wf-spec-4.2.1.4-exponential",
        workflow: Some("spec-4.2.1.4-action-recovery.xml"),
        config: None,
        maps: &[],
        files: &[
            ("spec-4.2.1.4-action-recovery.xml", include_str!("../../../corpus/wf/spec-4.2.1.4-action-recovery.xml")),
        ],
    },
    Sim {
        key: "wf-spec-4.2.1.4-suspended",
        workflow: Some("spec-4.2.1.4-action-recovery.xml"),
        config: None,
        maps: &[],
        files: &[
            ("spec-4.2.1.4-action-recovery.xml", include_str!("../../../corpus/wf/spec-4.2.1.4-action-recovery.xml")),
        ],
    },
    Sim {
        key: "wf-spec-4.2.1.4-transient-2",
        workflow: Some("spec-4.2.1.4-action-recovery.xml"),
        config: None,
        maps: &[],
        files: &[
            ("spec-4.2.1.4-action-recovery.xml", include_str!("../../../corpus/wf/spec-4.2.1.4-action-recovery.xml")),
        ],
    },
    Sim {
        key: "wf-spec-4.2.1.4-transient-4",
        workflow: Some("spec-4.2.1.4-action-recovery.xml"),
        config: None,
        maps: &[],
        files: &[
            ("spec-4.2.1.4-action-recovery.xml", include_str!("../../../corpus/wf/spec-4.2.1.4-action-recovery.xml")),
        ],
    },
    Sim {
        key: "wf-spec-4.2.1.4-user-retry-error",
        workflow: Some("spec-4.2.1.4-action-recovery.xml"),
        config: None,
        maps: &[],
        files: &[
            ("spec-4.2.1.4-action-recovery.xml", include_str!("../../../corpus/wf/spec-4.2.1.4-action-recovery.xml")),
        ],
    },
    Sim {
        key: "wf-spec-4.2.2.2-config-class-error",
        workflow: Some("spec-4.2.2.2-config-class.xml"),
        config: Some("job.properties"),
        maps: &[],
        files: &[
            ("spec-4.2.2.2-config-class.xml", include_str!("../../../corpus/wf/spec-4.2.2.2-config-class.xml")),
            ("job.properties", include_str!("../../../corpus/simulate/wf-spec-4.2.2.2-config-class-error/job.properties")),
        ],
    },
];
