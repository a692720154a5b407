//! Server profiles: what one Oozie server accepts, where releases and
//! distributions differ. Without a profile coordc checks against the newest
//! Apache release (5.2.1), whose schemas `grammar/xsd/` holds; a profile
//! takes away what its server lacks and adds what a vendor documents.
//!
//! The Apache facts are read from the release tags of apache/oozie: the
//! `oozie.service.SchemaService.*.schemas` lists and the `ELService` groups of
//! core/src/main/resources/oozie-default.xml, and the XSDs of
//! client/src/main/resources, compared tag to tag (release-4.2.0, release-4.3.1,
//! release-5.0.0, release-5.1.0, release-5.2.1). The vendor facts are only
//! what the vendors' public release notes state; docs/servers.md cites each.

use crate::el::library::Place;
use crate::xml::schema::{schemas, split_version};

/// An Apache Oozie release a profile is built on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Release {
    V4_2_0,
    V4_3_1,
    V5_0_0,
    V5_1_0,
    V5_2_1,
}

impl Release {
    pub fn name(self) -> &'static str {
        match self {
            Release::V4_2_0 => "4.2.0",
            Release::V4_3_1 => "4.3.1",
            Release::V5_0_0 => "5.0.0",
            Release::V5_1_0 => "5.1.0",
            Release::V5_2_1 => "5.2.1",
        }
    }

    /// Its release line, as a message says what a line added: `4.3` (the
    /// additions this module lists are in 4.3.0 and 4.3.1 alike).
    pub fn line(self) -> &'static str {
        self.name().get(..3).unwrap_or_else(|| self.name())
    }
}

/// A server coordc can check against (`--server`, `server =` in coordc.toml).
/// [`Server::name`] is its one name, [`Server::title`] says what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Server {
    Oozie42,
    Oozie43,
    Oozie50,
    Oozie51,
    Oozie52,
    Emr74,
    Emr7,
    Cdp71,
    Cdp73,
}

impl clap::ValueEnum for Server {
    fn value_variants<'a>() -> &'a [Self] {
        Server::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.title()))
    }
}

/// What a vendor changed in an Apache release, for one family of
/// namespaces (`uri:oozie:sqoop-action`), as its release notes state.
struct VendorChange {
    family: &'static str,
    change: Change,
    /// What the vendor's notes say, in a sentence ending a message.
    said: &'static str,
    /// Where they say it.
    source: &'static str,
}

#[derive(Clone, Copy)]
enum Change {
    /// The server refuses or cannot run the family's actions.
    Removed,
    /// The server has them, off unless its administrator turns them on.
    Disabled,
    /// The vendor added the family at version `version`; coordc has no
    /// schema of it, so its content is not checked.
    Added { version: &'static str },
}

const EMR_SQOOP: VendorChange = VendorChange {
    family: "uri:oozie:sqoop-action",
    change: Change::Removed,
    said: "Amazon EMR 7.5.0 removed Sqoop, and with it Oozie's support for Sqoop jobs",
    source: "https://docs.aws.amazon.com/emr/latest/ReleaseGuide/Oozie-release-history-changes-750.html",
};

const CDP_SPARK3: VendorChange = VendorChange {
    family: "uri:oozie:spark3-action",
    change: Change::Added { version: "1.0" },
    said: "Cloudera added the spark3 action in Cloudera Runtime 7.1.9",
    source: "https://docs.cloudera.com/cdp-private-cloud-base/latest/configuring-oozie/topics/oozie-spark3-action-schema.html",
};

const CDP_71_SPARK: VendorChange = VendorChange {
    family: "uri:oozie:spark-action",
    change: Change::Disabled,
    said: "Cloudera Runtime 7.1.9 deprecated the Spark 2 based spark action and disables it by default: the action fails when it starts unless the server's administrator enabled it",
    source: "https://docs.cloudera.com/cdp-private-cloud-base/latest/runtime-release-notes/topics/rt-pvc-deprecated-oozie.html",
};

const CDP_73_SPARK: VendorChange = VendorChange {
    family: "uri:oozie:spark-action",
    change: Change::Removed,
    said: "Cloudera Runtime 7.3.1 removed the Spark 2 based spark action's schemas and executor, so a workflow with one fails to parse",
    source: "https://docs.cloudera.com/cdp-private-cloud-base/latest/configuring-oozie/topics/oozie-spark3-support.html",
};

/// How to move from the spark action to Cloudera's spark3 action, as
/// Cloudera's "Differences between Spark and Spark 3 actions" says.
pub(crate) const SPARK3_MIGRATION: &str = "rewrite it as <spark3 xmlns=\"uri:oozie:spark3-action:1.0\">: <resource-manager> in place of <job-tracker>, and <master>yarn</master> with <mode>cluster</mode> (or client) in place of yarn-cluster (or yarn-client)";

/// The namespaces coordc has schemas of that Apache Oozie registered after
/// 4.2.0, and the release that did (oozie-default.xml's
/// `SchemaService.wf.schemas` and `coord.schemas` at each tag); every other
/// embedded namespace was registered by 4.2.0 already.
const REGISTERED_SINCE: &[(&str, Release)] = &[
    ("uri:oozie:coordinator:0.5", Release::V4_3_1),
    ("uri:oozie:hive-action:0.6", Release::V4_3_1),
    ("uri:oozie:hive2-action:0.2", Release::V4_3_1),
    ("uri:oozie:spark-action:0.2", Release::V4_3_1),
    ("uri:oozie:workflow:1.0", Release::V5_0_0),
    ("uri:oozie:shell-action:1.0", Release::V5_0_0),
    ("uri:oozie:hive-action:1.0", Release::V5_0_0),
    ("uri:oozie:hive2-action:1.0", Release::V5_0_0),
    ("uri:oozie:sqoop-action:1.0", Release::V5_0_0),
    ("uri:oozie:distcp-action:1.0", Release::V5_0_0),
    ("uri:oozie:spark-action:1.0", Release::V5_0_0),
    ("uri:oozie:git-action:1.0", Release::V5_1_0),
];

/// What a schema of an unchanged namespace gained in a later release: an
/// element, or an attribute of one (namespace, element, attribute, the
/// release, why), from the XSDs of client/src/main/resources compared tag
/// to tag. Oozie 4.3.0 added `<bcc>` to email-action-0.2.xsd (OOZIE-2411),
/// `enabled` to a bundle 0.2 `<coordinator>` (OOZIE-2444), `retry-policy`
/// to a workflow 0.5 `<action>` (OOZIE-2440) and `skip-trash` to its
/// `<delete>` (OOZIE-2367); Oozie 5.0.0 added `<setrep>` to its fs action
/// (OOZIE-2769; oozie-workflow-1.0.xsd has none).
const ADDED_SINCE: &[(&str, &str, Option<&str>, Release, &str)] = &[
    (
        "uri:oozie:email-action:0.2",
        "bcc",
        None,
        Release::V4_3_1,
        "OOZIE-2411",
    ),
    (
        "uri:oozie:bundle:0.2",
        "coordinator",
        Some("enabled"),
        Release::V4_3_1,
        "OOZIE-2444",
    ),
    (
        "uri:oozie:workflow:0.5",
        "action",
        Some("retry-policy"),
        Release::V4_3_1,
        "OOZIE-2440",
    ),
    (
        "uri:oozie:workflow:0.5",
        "delete",
        Some("skip-trash"),
        Release::V4_3_1,
        "OOZIE-2367",
    ),
    (
        "uri:oozie:workflow:0.5",
        "setrep",
        None,
        Release::V5_0_0,
        "OOZIE-2769",
    ),
];

/// Functions a release added to some EL groups: (function, release, the
/// places that had it before), from oozie-default.xml's `ELService` groups
/// compared tag to tag. At release-4.2.0 `coord:epochTime` and
/// `bundle:conf` are in no group, and `coord:dateOffset` and
/// `coord:dateTzOffset` only in coord-job-submit-data, coord-action-start
/// and the SLA groups (a dataset's initial-instance is evaluated with
/// coord-job-submit-nofuncs, CoordSubmitXCommand.java:972); release-4.3.1
/// adds them to the instance groups and the new
/// coord-job-submit-initial-instance. At release-4.3.1 `coord:endOfDays`
/// and `coord:endOfMonths` are only in coord-job-submit-freq, and
/// `coord:endOfWeeks` in no group; release-5.0.0 has all three in
/// coord-job-submit-freq, coord-job-submit-instances, coord-action-create
/// and coord-action-create-inst.
const FUNCTIONS_SINCE: &[(&str, Release, &[Place])] = &[
    ("coord:epochTime", Release::V4_3_1, &[]),
    ("bundle:conf", Release::V4_3_1, &[]),
    (
        "coord:dateOffset",
        Release::V4_3_1,
        &[Place::ActionConfig, Place::Sla],
    ),
    (
        "coord:dateTzOffset",
        Release::V4_3_1,
        &[Place::ActionConfig, Place::Sla],
    ),
    ("coord:endOfDays", Release::V5_0_0, &[Place::Frequency]),
    ("coord:endOfWeeks", Release::V5_0_0, &[]),
    ("coord:endOfMonths", Release::V5_0_0, &[Place::Frequency]),
];

/// What a server makes of an element's namespace.
#[derive(Debug, PartialEq)]
pub(crate) enum Acceptance {
    /// Registered, and checked against its schema.
    Accepted,
    /// Registered by the vendor; coordc has no schema to check it with.
    Unchecked {
        said: &'static str,
        source: &'static str,
    },
    /// Registered, but off by default.
    Disabled {
        said: &'static str,
        source: &'static str,
    },
    /// The vendor removed it.
    Removed {
        said: &'static str,
        source: &'static str,
    },
    /// An Apache namespace this server's release does not have yet.
    NotYet { since: Release },
    /// No server coordc knows has it (other checks report it).
    Unknown,
}

impl Server {
    pub const ALL: &[Server] = &[
        Server::Oozie42,
        Server::Oozie43,
        Server::Oozie50,
        Server::Oozie51,
        Server::Oozie52,
        Server::Emr74,
        Server::Emr7,
        Server::Cdp71,
        Server::Cdp73,
    ];

    /// Its name on the command line and in coordc.toml.
    pub fn name(self) -> &'static str {
        match self {
            Server::Oozie42 => "oozie-4.2",
            Server::Oozie43 => "oozie-4.3",
            Server::Oozie50 => "oozie-5.0",
            Server::Oozie51 => "oozie-5.1",
            Server::Oozie52 => "oozie-5.2",
            Server::Emr74 => "emr-7.4",
            Server::Emr7 => "emr-7",
            Server::Cdp71 => "cdp-7.1",
            Server::Cdp73 => "cdp-7.3",
        }
    }

    /// The server in words, for messages.
    pub fn title(self) -> &'static str {
        match self {
            Server::Oozie42 => "Apache Oozie 4.2.0",
            Server::Oozie43 => "Apache Oozie 4.3.1",
            Server::Oozie50 => "Apache Oozie 5.0.0",
            Server::Oozie51 => "Apache Oozie 5.1.0",
            Server::Oozie52 => "Apache Oozie 5.2.1",
            Server::Emr74 => "Amazon EMR 7.0 to 7.4, Oozie 5.2.1",
            Server::Emr7 => "Amazon EMR 7.5 and later, Oozie 5.2.1",
            Server::Cdp71 => "Cloudera Runtime 7.1.9, Oozie 5.1.0",
            Server::Cdp73 => "Cloudera Runtime 7.3.1 and later, Oozie 5.1.0",
        }
    }

    /// The server named `name`; the error lists the names there are.
    pub fn parse(name: &str) -> Result<Server, String> {
        Server::ALL
            .iter()
            .copied()
            .find(|s| s.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Server::ALL.iter().map(|s| s.name()).collect();
                format!(
                    "no server profile `{name}`: the profiles are {}",
                    names.join(", ")
                )
            })
    }

    /// The Apache release the server runs.
    pub fn release(self) -> Release {
        match self {
            Server::Oozie42 => Release::V4_2_0,
            Server::Oozie43 => Release::V4_3_1,
            Server::Oozie50 => Release::V5_0_0,
            Server::Oozie51 | Server::Cdp71 | Server::Cdp73 => Release::V5_1_0,
            Server::Oozie52 | Server::Emr74 | Server::Emr7 => Release::V5_2_1,
        }
    }

    fn vendor_changes(self) -> &'static [VendorChange] {
        match self {
            Server::Emr7 => &[EMR_SQOOP],
            Server::Cdp71 => &[CDP_SPARK3, CDP_71_SPARK],
            Server::Cdp73 => &[CDP_SPARK3, CDP_73_SPARK],
            _ => &[],
        }
    }

    /// What the server makes of an element of `namespace`.
    pub(crate) fn accepts(self, namespace: &str) -> Acceptance {
        let (family, version) = split_version(namespace);
        if let Some(vendor) = self.vendor_changes().iter().find(|c| c.family == family) {
            let (said, source) = (vendor.said, vendor.source);
            match vendor.change {
                // (A version no server has is the other checks' to report.)
                Change::Removed if schemas().has(namespace) => {
                    return Acceptance::Removed { said, source };
                }
                Change::Disabled if schemas().has(namespace) => {
                    return Acceptance::Disabled { said, source };
                }
                Change::Added { version: added } if added == version => {
                    return Acceptance::Unchecked { said, source };
                }
                Change::Removed | Change::Disabled | Change::Added { .. } => {}
            }
        }
        if !schemas().has(namespace) {
            return Acceptance::Unknown;
        }
        match REGISTERED_SINCE.iter().find(|(ns, _)| *ns == namespace) {
            Some(&(_, since)) if since > self.release() => Acceptance::NotYet { since },
            _ => Acceptance::Accepted,
        }
    }

    /// The versions of `family` the server accepts, oldest first.
    pub(crate) fn versions(self, family: &str) -> Vec<String> {
        let mut versions: Vec<String> = schemas()
            .versions(family)
            .into_iter()
            .filter(|v| {
                matches!(
                    self.accepts(&format!("{family}:{v}")),
                    Acceptance::Accepted | Acceptance::Disabled { .. }
                )
            })
            .map(str::to_string)
            .collect();
        for vendor in self.vendor_changes() {
            if let (true, Change::Added { version }) = (vendor.family == family, vendor.change) {
                versions.push(version.to_string());
            }
        }
        versions
    }

    /// When the server's release lacks element `name` of `namespace` (with
    /// `attribute`: that attribute of it) that its schema has now: the
    /// release that added it, and why.
    pub(crate) fn lacks(
        self,
        namespace: &str,
        name: &str,
        attribute: Option<&str>,
    ) -> Option<(Release, &'static str)> {
        ADDED_SINCE
            .iter()
            .find(|(ns, n, a, since, _)| {
                *ns == namespace && *n == name && *a == attribute && *since > self.release()
            })
            .map(|&(_, _, _, since, why)| (since, why))
    }

    /// When the server's release lacks function `qualified` (`coord:endOfWeeks`)
    /// at `place`: the release that added it there.
    pub(crate) fn lacks_function(self, qualified: &str, place: Place) -> Option<Release> {
        FUNCTIONS_SINCE
            .iter()
            .find(|(name, since, before)| {
                *name == qualified && *since > self.release() && !before.contains(&place)
            })
            .map(|&(_, since, _)| since)
    }

    /// Whether the server lacks some function coordc knows (so its EL need
    /// be read for the server at all).
    pub(crate) fn lacks_functions(self) -> bool {
        FUNCTIONS_SINCE
            .iter()
            .any(|(_, since, _)| *since > self.release())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `oozie.service.SchemaService.wf.schemas`, `coord.schemas`,
    /// `bundle.schemas` and `sla.schemas` of core/src/main/resources/oozie-default.xml
    /// at each tag, as namespaces.
    fn registered(release: Release) -> Vec<String> {
        let mut files: Vec<&str> = vec![
            "oozie-workflow-0.1",
            "oozie-workflow-0.2",
            "oozie-workflow-0.2.5",
            "oozie-workflow-0.3",
            "oozie-workflow-0.4",
            "oozie-workflow-0.4.5",
            "oozie-workflow-0.5",
            "shell-action-0.1",
            "shell-action-0.2",
            "shell-action-0.3",
            "email-action-0.1",
            "email-action-0.2",
            "hive-action-0.2",
            "hive-action-0.3",
            "hive-action-0.4",
            "hive-action-0.5",
            "hive-action-0.6",
            "sqoop-action-0.2",
            "sqoop-action-0.3",
            "sqoop-action-0.4",
            "ssh-action-0.1",
            "ssh-action-0.2",
            "distcp-action-0.1",
            "distcp-action-0.2",
            "oozie-sla-0.1",
            "oozie-sla-0.2",
            "hive2-action-0.1",
            "hive2-action-0.2",
            "spark-action-0.1",
            "spark-action-0.2",
            "oozie-coordinator-0.1",
            "oozie-coordinator-0.2",
            "oozie-coordinator-0.3",
            "oozie-coordinator-0.4",
            "oozie-coordinator-0.5",
            "oozie-bundle-0.1",
            "oozie-bundle-0.2",
        ];
        // (4.3.0 registered these four.)
        if release < Release::V4_3_1 {
            let later = [
                "hive-action-0.6",
                "hive2-action-0.2",
                "spark-action-0.2",
                "oozie-coordinator-0.5",
            ];
            files.retain(|f| !later.contains(f));
        }
        if release >= Release::V5_0_0 {
            files.extend([
                "oozie-workflow-1.0",
                "shell-action-1.0",
                "hive-action-1.0",
                "sqoop-action-1.0",
                "distcp-action-1.0",
                "hive2-action-1.0",
                "spark-action-1.0",
            ]);
        }
        if release >= Release::V5_1_0 {
            files.push("git-action-1.0");
        }
        files
            .into_iter()
            .map(|f| {
                let (name, version) = f.rsplit_once('-').unwrap();
                let name = name.strip_prefix("oozie-").unwrap_or(name);
                format!("uri:oozie:{name}:{version}")
            })
            .collect()
    }

    #[test]
    fn each_apache_profile_accepts_what_its_release_registers() {
        let embedded: Vec<String> = schemas()
            .all()
            .map(|s| s.namespace.clone())
            .filter(|ns| ns.starts_with("uri:oozie:"))
            .collect();
        for server in [
            Server::Oozie42,
            Server::Oozie43,
            Server::Oozie50,
            Server::Oozie51,
            Server::Oozie52,
        ] {
            let mut accepted: Vec<&String> = embedded
                .iter()
                .filter(|ns| server.accepts(ns) == Acceptance::Accepted)
                .collect();
            accepted.sort();
            let mut expected = registered(server.release());
            expected.sort();
            assert_eq!(
                accepted,
                expected.iter().collect::<Vec<_>>(),
                "{}",
                server.name()
            );
        }
    }

    #[test]
    fn versions_are_listed_oldest_first() {
        assert_eq!(
            Server::Oozie43.versions("uri:oozie:workflow"),
            ["0.1", "0.2", "0.2.5", "0.3", "0.4", "0.4.5", "0.5"]
        );
        assert_eq!(
            Server::Oozie50.versions("uri:oozie:git-action"),
            Vec::<String>::new()
        );
        assert_eq!(Server::Oozie51.versions("uri:oozie:git-action"), ["1.0"]);
        assert_eq!(
            Server::Cdp73.versions("uri:oozie:spark-action"),
            Vec::<String>::new()
        );
        assert_eq!(Server::Cdp73.versions("uri:oozie:spark3-action"), ["1.0"]);
        assert_eq!(
            Server::Cdp71.versions("uri:oozie:spark-action"),
            ["0.1", "0.2", "1.0"]
        );
        assert_eq!(
            Server::Emr7.versions("uri:oozie:sqoop-action"),
            Vec::<String>::new()
        );
        assert_eq!(
            Server::Emr74.versions("uri:oozie:sqoop-action"),
            ["0.2", "0.3", "0.4", "1.0"]
        );
    }

    #[test]
    fn vendor_changes() {
        assert!(matches!(
            Server::Emr7.accepts("uri:oozie:sqoop-action:0.4"),
            Acceptance::Removed { .. }
        ));
        assert_eq!(
            Server::Emr74.accepts("uri:oozie:sqoop-action:0.4"),
            Acceptance::Accepted
        );
        assert!(matches!(
            Server::Cdp71.accepts("uri:oozie:spark-action:0.2"),
            Acceptance::Disabled { .. }
        ));
        assert!(matches!(
            Server::Cdp73.accepts("uri:oozie:spark-action:1.0"),
            Acceptance::Removed { .. }
        ));
        assert!(matches!(
            Server::Cdp73.accepts("uri:oozie:spark3-action:1.0"),
            Acceptance::Unchecked { .. }
        ));
        // Not on Apache's servers, nor a version Cloudera did not publish.
        assert_eq!(
            Server::Oozie52.accepts("uri:oozie:spark3-action:1.0"),
            Acceptance::Unknown
        );
        assert_eq!(
            Server::Cdp73.accepts("uri:oozie:spark3-action:0.1"),
            Acceptance::Unknown
        );
        assert_eq!(
            Server::Oozie43.accepts("uri:oozie:workflow:1.0"),
            Acceptance::NotYet {
                since: Release::V5_0_0
            }
        );
    }

    #[test]
    fn functions_and_elements_by_release() {
        let s = Server::Oozie43;
        assert_eq!(s.lacks_function("coord:endOfDays", Place::Frequency), None);
        assert_eq!(
            s.lacks_function("coord:endOfDays", Place::Instance),
            Some(Release::V5_0_0)
        );
        assert_eq!(
            s.lacks_function("coord:endOfWeeks", Place::Frequency),
            Some(Release::V5_0_0)
        );
        assert_eq!(s.lacks_function("coord:days", Place::Frequency), None);
        assert!(s.lacks_functions());
        assert!(!Server::Oozie50.lacks_functions());
        assert_eq!(
            Server::Oozie50.lacks_function("coord:endOfWeeks", Place::Instance),
            None
        );
        assert!(s.lacks("uri:oozie:workflow:0.5", "setrep", None).is_some());
        assert!(
            Server::Oozie50
                .lacks("uri:oozie:workflow:0.5", "setrep", None)
                .is_none()
        );
        let old = Server::Oozie42;
        assert!(
            old.lacks("uri:oozie:workflow:0.5", "delete", Some("skip-trash"))
                .is_some()
        );
        assert!(
            s.lacks("uri:oozie:workflow:0.5", "delete", Some("skip-trash"))
                .is_none()
        );
        assert!(
            old.lacks("uri:oozie:workflow:0.5", "delete", None)
                .is_none()
        );
        assert_eq!(
            old.lacks_function("coord:epochTime", Place::ActionConfig),
            Some(Release::V4_3_1)
        );
        assert_eq!(
            old.lacks_function("coord:dateOffset", Place::ActionConfig),
            None
        );
        assert_eq!(
            old.lacks_function("coord:dateOffset", Place::InitialInstance),
            Some(Release::V4_3_1)
        );
        assert_eq!(
            old.lacks_function("bundle:conf", Place::Bundle),
            Some(Release::V4_3_1)
        );
        assert_eq!(s.lacks_function("bundle:conf", Place::Bundle), None);
        assert_eq!(Release::V4_3_1.line(), "4.3");
    }

    #[test]
    fn names_parse_and_an_unknown_one_lists_them() {
        for &s in Server::ALL {
            assert_eq!(Server::parse(s.name()), Ok(s));
        }
        let e = Server::parse("oozie-4.1").unwrap_err();
        assert!(e.contains("oozie-4.3, oozie-5.0"), "{e}");
    }
}
