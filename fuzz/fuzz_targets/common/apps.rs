//! Valid applications of `corpus/`, embedded: what the structure-aware
//! targets mutate. Each is its files, the application first, by their path
//! relative to the application's folder (includes, job.properties, a
//! bundle's coordinators and the coordc.toml mapping its `hdfs://` paths
//! there). A selection listed from corpus/: a file moved there breaks the
//! fuzz build, which then names it.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Coordinator,
    Workflow,
    Bundle,
    Datasets,
}

pub struct App {
    pub name: &'static str,
    pub kind: Kind,
    /// `(path relative to the application's folder, text)`, the application first.
    pub files: &'static [(&'static str, &'static str)],
}

impl App {
    /// The application file's name.
    pub fn file_name(&self) -> &'static str {
        self.files[0].0
    }
}

pub static APPS: &[App] = &[
    App {
        name: "spec-6.6.1-example-2a",
        kind: Kind::Coordinator,
        files: &[
            (
                "coordinator.xml",
                include_str!("../../../corpus/coord/spec-6.6.1-example-2a/coordinator.xml"),
            ),
            (
                "datasets.xml",
                include_str!("../../../corpus/coord/spec-6.6.1-example-2a/datasets.xml"),
            ),
        ],
    },
    App {
        name: "spec-6.7.2-data-out",
        kind: Kind::Coordinator,
        files: &[
            (
                "coordinator.xml",
                include_str!("../../../corpus/coord/spec-6.7.2-data-out/coordinator.xml"),
            ),
            (
                "datasets.xml",
                include_str!("../../../corpus/coord/spec-6.7.2-data-out/datasets.xml"),
            ),
        ],
    },
    App {
        name: "spec-6.6.1-example-4-hourly",
        kind: Kind::Coordinator,
        files: &[
            (
                "coordinator.xml",
                include_str!("../../../corpus/coord/spec-6.6.1-example-4-hourly/coordinator.xml"),
            ),
            (
                "datasets.xml",
                include_str!("../../../corpus/coord/spec-6.6.1-example-4-hourly/datasets.xml"),
            ),
        ],
    },
    App {
        name: "spec-4.4.3-cron",
        kind: Kind::Coordinator,
        files: &[
            (
                "coordinator.xml",
                include_str!("../../../corpus/coord/spec-4.4.3-cron/coordinator.xml"),
            ),
            (
                "job.properties",
                include_str!("../../../corpus/coord/spec-4.4.3-cron/job.properties"),
            ),
        ],
    },
    App {
        name: "spec-4.4.1.2-end-of-days",
        kind: Kind::Coordinator,
        files: &[
            (
                "coordinator.xml",
                include_str!("../../../corpus/coord/spec-4.4.1.2-end-of-days/coordinator.xml"),
            ),
            (
                "job.properties",
                include_str!("../../../corpus/coord/spec-4.4.1.2-end-of-days/job.properties"),
            ),
        ],
    },
    App {
        name: "spec-4.4.2.2-end-of-months",
        kind: Kind::Coordinator,
        files: &[
            (
                "coordinator.xml",
                include_str!("../../../corpus/coord/spec-4.4.2.2-end-of-months/coordinator.xml"),
            ),
            (
                "job.properties",
                include_str!("../../../corpus/coord/spec-4.4.2.2-end-of-months/job.properties"),
            ),
        ],
    },
    App {
        name: "spec-6.10-nested",
        kind: Kind::Coordinator,
        files: &[
            (
                "coordinator.xml",
                include_str!("../../../corpus/coord/spec-6.10-nested/coordinator.xml"),
            ),
            (
                "job.properties",
                include_str!("../../../corpus/coord/spec-6.10-nested/job.properties"),
            ),
        ],
    },
    App {
        name: "spec-12-sla",
        kind: Kind::Coordinator,
        files: &[(
            "coordinator.xml",
            include_str!("../../../corpus/coord/spec-12-sla/coordinator.xml"),
        )],
    },
    App {
        name: "spec-6.6.3-hours-in-day",
        kind: Kind::Coordinator,
        files: &[
            (
                "coordinator.xml",
                include_str!("../../../corpus/coord/spec-6.6.3-hours-in-day/coordinator.xml"),
            ),
            (
                "job.properties",
                include_str!("../../../corpus/coord/spec-6.6.3-hours-in-day/job.properties"),
            ),
        ],
    },
    App {
        name: "spec-6.6.6-latest",
        kind: Kind::Coordinator,
        files: &[(
            "coordinator.xml",
            include_str!("../../../corpus/coord/spec-6.6.6-latest/coordinator.xml"),
        )],
    },
    App {
        name: "spec-6.6.7-future",
        kind: Kind::Coordinator,
        files: &[(
            "coordinator.xml",
            include_str!("../../../corpus/coord/spec-6.6.7-future/coordinator.xml"),
        )],
    },
    App {
        name: "spec-6.6.8-absolute",
        kind: Kind::Coordinator,
        files: &[(
            "coordinator.xml",
            include_str!("../../../corpus/coord/spec-6.6.8-absolute/coordinator.xml"),
        )],
    },
    App {
        name: "spec-6.9.1-date-offset",
        kind: Kind::Coordinator,
        files: &[(
            "coordinator.xml",
            include_str!("../../../corpus/coord/spec-6.9.1-date-offset/coordinator.xml"),
        )],
    },
    App {
        name: "spec-6.9.2-date-tz-offset",
        kind: Kind::Coordinator,
        files: &[(
            "coordinator.xml",
            include_str!("../../../corpus/coord/spec-6.9.2-date-tz-offset/coordinator.xml"),
        )],
    },
    App {
        name: "spec-6.7.3-nominal-time",
        kind: Kind::Coordinator,
        files: &[
            (
                "coordinator.xml",
                include_str!("../../../corpus/coord/spec-6.7.3-nominal-time/coordinator.xml"),
            ),
            (
                "job.properties",
                include_str!("../../../corpus/coord/spec-6.7.3-nominal-time/job.properties"),
            ),
        ],
    },
    App {
        name: "spec-6.3-example-3",
        kind: Kind::Coordinator,
        files: &[(
            "coordinator.xml",
            include_str!("../../../corpus/coord/spec-6.3-example-3/coordinator.xml"),
        )],
    },
    App {
        name: "spec-7.2-use-case-3",
        kind: Kind::Coordinator,
        files: &[(
            "coordinator.xml",
            include_str!("../../../corpus/coord/spec-7.2-use-case-3/coordinator.xml"),
        )],
    },
    App {
        name: "spec-6.6.11-before-initial",
        kind: Kind::Coordinator,
        files: &[(
            "coordinator.xml",
            include_str!("../../../corpus/coord/spec-6.6.11-before-initial/coordinator.xml"),
        )],
    },
    App {
        name: "spec-4.1-control-nodes",
        kind: Kind::Workflow,
        files: &[(
            "spec-4.1-control-nodes.xml",
            include_str!("../../../corpus/wf/spec-4.1-control-nodes.xml"),
        )],
    },
    App {
        name: "spec-4.1.5-fork-join",
        kind: Kind::Workflow,
        files: &[(
            "spec-4.1.5-fork-join.xml",
            include_str!("../../../corpus/wf/spec-4.1.5-fork-join.xml"),
        )],
    },
    App {
        name: "spec-4.2.1.4-action-recovery",
        kind: Kind::Workflow,
        files: &[(
            "spec-4.2.1.4-action-recovery.xml",
            include_str!("../../../corpus/wf/spec-4.2.1.4-action-recovery.xml"),
        )],
    },
    App {
        name: "oozie-subwf-propagate",
        kind: Kind::Workflow,
        files: &[(
            "oozie-subwf-propagate.xml",
            include_str!("../../../corpus/wf/oozie-subwf-propagate.xml"),
        )],
    },
    App {
        name: "oozie-action-data-decision",
        kind: Kind::Workflow,
        files: &[(
            "oozie-action-data-decision.xml",
            include_str!("../../../corpus/wf/oozie-action-data-decision.xml"),
        )],
    },
    App {
        name: "globallogs",
        kind: Kind::Datasets,
        files: &[(
            "globallogs.xml",
            include_str!("../../../corpus/datasets/globallogs.xml"),
        )],
    },
    App {
        name: "spec-5.1-example-4",
        kind: Kind::Datasets,
        files: &[(
            "spec-5.1-example-4.xml",
            include_str!("../../../corpus/datasets/spec-5.1-example-4.xml"),
        )],
    },
    App {
        name: "spec-5.2-hcatalog",
        kind: Kind::Datasets,
        files: &[(
            "spec-5.2-hcatalog.xml",
            include_str!("../../../corpus/datasets/spec-5.2-hcatalog.xml"),
        )],
    },
    App {
        name: "spec-5.4-definitions",
        kind: Kind::Datasets,
        files: &[(
            "spec-5.4-definitions.xml",
            include_str!("../../../corpus/datasets/spec-5.4-definitions.xml"),
        )],
    },
    App {
        name: "daily-pipeline",
        kind: Kind::Bundle,
        files: &[
            (
                "bundle.xml",
                include_str!("../../../corpus/bundle/daily-pipeline/bundle.xml"),
            ),
            (
                "ingest/coordinator.xml",
                include_str!("../../../corpus/bundle/daily-pipeline/ingest/coordinator.xml"),
            ),
            (
                "job.properties",
                include_str!("../../../corpus/bundle/daily-pipeline/job.properties"),
            ),
            (
                "report/coordinator.xml",
                include_str!("../../../corpus/bundle/daily-pipeline/report/coordinator.xml"),
            ),
            (
                "coordc.toml",
                "[map]\n\"hdfs://nn:8020/user/etl/daily-pipeline\" = \".\"\n",
            ),
        ],
    },
];

/// The coordinators only (what `coordc dryrun` reads).
pub fn coordinators() -> impl Iterator<Item = &'static App> {
    APPS.iter().filter(|a| a.kind == Kind::Coordinator)
}
