//! Server profiles (`--server`, `server =` in coordc.toml; docs/servers.md):
//! for each profile, a failing example of each difference it has from the
//! newest Apache release, and the same applications passing where the
//! server has what they use. The Apache facts are oozie-default.xml's
//! `SchemaService` and `ELService` lists and the XSDs at release-4.2.0, release-4.3.1,
//! release-5.0.0, release-5.1.0 and release-5.2.1; the vendor facts the
//! release notes docs/servers.md cites.

use crate::common;

use common::{check_json, coordc_in, folder, stderr, stdout};
use std::path::PathBuf;

const JOB: &str = "nameNode=hdfs://nn:8020\njobTracker=rm.example.com:8032\n";

/// A workflow of one action `body` (an element with its namespace).
fn workflow(version: &str, body: &str) -> String {
    format!(
        r#"<workflow-app name="wf" xmlns="uri:oozie:workflow:{version}">
  <start to="a"/>
  <action name="a">
    {body}
    <ok to="end"/>
    <error to="fail"/>
  </action>
  <kill name="fail"><message>failed</message></kill>
  <end name="end"/>
</workflow-app>
"#
    )
}

/// One folder per difference, each an application that uses it.
fn differences() -> PathBuf {
    let shell_1_0 = r#"<shell xmlns="uri:oozie:shell-action:1.0">
      <resource-manager>${jobTracker}</resource-manager>
      <name-node>${nameNode}</name-node>
      <launcher><memory.mb>1024</memory.mb></launcher>
      <exec>run.sh</exec>
    </shell>"#;
    let setrep = r#"<fs>
      <setrep path="${nameNode}/data/x" replication-factor="2"/>
    </fs>"#;
    let git = r#"<git xmlns="uri:oozie:git-action:1.0">
      <resource-manager>${jobTracker}</resource-manager>
      <name-node>${nameNode}</name-node>
      <git-uri>https://example.com/repo.git</git-uri>
      <destination-uri>${nameNode}/repo</destination-uri>
    </git>"#;
    let sqoop = r#"<sqoop xmlns="uri:oozie:sqoop-action:0.4">
      <job-tracker>${jobTracker}</job-tracker>
      <name-node>${nameNode}</name-node>
      <command>import --table t</command>
    </sqoop>"#;
    let spark = r#"<spark xmlns="uri:oozie:spark-action:0.2">
      <job-tracker>${jobTracker}</job-tracker>
      <name-node>${nameNode}</name-node>
      <master>yarn-cluster</master>
      <name>s</name>
      <jar>s.jar</jar>
    </spark>"#;
    let spark3 = r#"<spark3 xmlns="uri:oozie:spark3-action:1.0">
      <resource-manager>${jobTracker}</resource-manager>
      <master>yarn</master>
      <mode>cluster</mode>
      <name>s</name>
      <jar>s.jar</jar>
    </spark3>"#;
    let weekly = r#"<coordinator-app name="weekly" frequency="${coord:endOfWeeks(1)}" start="2025-01-06T00:00Z" end="2025-03-03T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="logs" frequency="${coord:endOfDays(1)}" initial-instance="2024-01-01T00:00Z" timezone="UTC">
      <uri-template>hdfs://nn/logs/${YEAR}${MONTH}${DAY}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="week" dataset="logs">
      <start-instance>${coord:endOfDays(-7)}</start-instance>
      <end-instance>${coord:current(-1)}</end-instance>
    </data-in>
  </input-events>
  <action>
    <workflow>
      <app-path>hdfs://nn/apps/weekly</app-path>
    </workflow>
  </action>
</coordinator-app>
"#;
    // What Oozie 4.3 added: coordinator 0.5 (fixable to 0.4 here) and
    // coord:epochTime, the email action's <bcc>, an action's retry-policy,
    // a delete's skip-trash, a bundle coordinator's `enabled` and
    // bundle:conf.
    let coordinator_0_5 = r#"<coordinator-app name="daily" frequency="${coord:days(1)}" start="2025-01-01T00:00Z" end="2025-02-01T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.5">
  <action>
    <workflow>
      <app-path>hdfs://nn/apps/daily</app-path>
      <configuration>
        <property><name>epoch</name><value>${coord:epochTime(coord:nominalTime(), false)}</value></property>
      </configuration>
    </workflow>
  </action>
</coordinator-app>
"#;
    let workflow_4_3 = r#"<workflow-app name="wf" xmlns="uri:oozie:workflow:0.5">
  <start to="clean"/>
  <action name="clean" retry-max="3" retry-policy="exponential">
    <fs>
      <delete path="${nameNode}/tmp/x" skip-trash="true"/>
    </fs>
    <ok to="mail"/>
    <error to="fail"/>
  </action>
  <action name="mail">
    <email xmlns="uri:oozie:email-action:0.2">
      <to>ops@example.com</to>
      <bcc>audit@example.com</bcc>
      <subject>done</subject>
      <body>done</body>
    </email>
    <ok to="end"/>
    <error to="fail"/>
  </action>
  <kill name="fail"><message>failed</message></kill>
  <end name="end"/>
</workflow-app>
"#;
    let bundle = r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="daily" enabled="${bundle:conf('dailyOn')}">
    <app-path>hdfs://nn/apps/daily</app-path>
  </coordinator>
</bundle-app>
"#;
    let dir = folder(
        "servers",
        &[
            ("bundle/bundle.xml", bundle.to_string()),
            ("bundle/job.properties", "dailyOn=true\n".to_string()),
            (
                "bundle/coordc.toml",
                "[map]\n\"hdfs://nn/apps/daily\" = \"../coord-0.5\"\n".to_string(),
            ),
            ("coord-0.5/coordinator.xml", coordinator_0_5.to_string()),
            ("email-retry/workflow.xml", workflow_4_3.to_string()),
            ("git/workflow.xml", workflow("1.0", git)),
            ("setrep/workflow.xml", workflow("0.5", setrep)),
            ("shell-1.0/workflow.xml", workflow("1.0", shell_1_0)),
            ("spark/workflow.xml", workflow("0.5", spark)),
            ("spark3/workflow.xml", workflow("1.0", spark3)),
            ("sqoop/workflow.xml", workflow("0.5", sqoop)),
            ("weekly/coordinator.xml", weekly.to_string()),
        ],
    );
    // Each workflow's job, beside it.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let app = entry.unwrap().path();
        if app.join("workflow.xml").exists() {
            common::write(&app, "job.properties", JOB);
        }
    }
    dir
}

/// Each problem as `CODE file:line`, in the report's order. (The pipeline
/// rules, across the coordinators of a folder, are not what these
/// examples are about: the weekly one reads data no other produces.)
fn found(dir: &PathBuf, args: &[&str]) -> Vec<String> {
    let mut args = args.to_vec();
    args.extend(["--ignore", "PL"]);
    let (_, doc) = check_json(dir, &args);
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}:{}",
                d["code"].as_str().unwrap(),
                d["file"].as_str().unwrap(),
                d["line"]
            )
        })
        .collect()
}

#[test]
fn each_profile_reports_each_difference_at_its_line() {
    let dir = differences();
    // The newest Apache release: only Cloudera's spark3 is unknown to it.
    let newest: &[&str] = &["WF008 ./spark3/workflow.xml:4"];
    let expected: &[(&[&str], &[&str])] = &[
        (&[], newest),
        (&["--server", "oozie-5.2"], newest),
        (&["--server", "oozie-5.1"], newest),
        (
            &["--server", "oozie-5.0"],
            &[
                "SV001 ./git/workflow.xml:4",
                "WF008 ./spark3/workflow.xml:4",
            ],
        ),
        (
            &["--server", "oozie-4.3"],
            &[
                "SV001 ./git/workflow.xml:1",
                "SV001 ./git/workflow.xml:4",
                "SV001 ./setrep/workflow.xml:5",
                "SV001 ./shell-1.0/workflow.xml:1",
                "SV001 ./shell-1.0/workflow.xml:4",
                "SV001 ./spark3/workflow.xml:1",
                "WF008 ./spark3/workflow.xml:4",
                "SV001 ./weekly/coordinator.xml:1",
                "SV001 ./weekly/coordinator.xml:9",
            ],
        ),
        (
            &["--server", "oozie-4.2"],
            &[
                "SV001 ./bundle/bundle.xml:2",
                "SV001 ./bundle/bundle.xml:2",
                "SV001 bundle/../coord-0.5/coordinator.xml:1",
                "SV001 bundle/../coord-0.5/coordinator.xml:6",
                "SV001 ./email-retry/workflow.xml:3",
                "SV001 ./email-retry/workflow.xml:5",
                "SV001 ./email-retry/workflow.xml:13",
                "SV001 ./git/workflow.xml:1",
                "SV001 ./git/workflow.xml:4",
                "SV001 ./setrep/workflow.xml:5",
                "SV001 ./shell-1.0/workflow.xml:1",
                "SV001 ./shell-1.0/workflow.xml:4",
                "SV001 ./spark/workflow.xml:4",
                "SV001 ./spark3/workflow.xml:1",
                "WF008 ./spark3/workflow.xml:4",
                "SV001 ./weekly/coordinator.xml:1",
                "SV001 ./weekly/coordinator.xml:9",
            ],
        ),
        (&["--server", "emr-7.4"], newest),
        (
            &["--server", "emr-7"],
            &[
                "WF008 ./spark3/workflow.xml:4",
                "SV001 ./sqoop/workflow.xml:4",
            ],
        ),
        (
            &["--server", "cdp-7.1"],
            &[
                "SV002 ./spark/workflow.xml:4",
                "SV003 ./spark3/workflow.xml:4",
            ],
        ),
        (
            &["--server", "cdp-7.3"],
            &[
                "SV001 ./spark/workflow.xml:4",
                "SV003 ./spark3/workflow.xml:4",
            ],
        ),
    ];
    for (args, want) in expected {
        assert_eq!(found(&dir, args), *want, "{args:?}");
    }
}

#[test]
fn the_messages_name_the_server_and_what_it_accepts() {
    let dir = differences();
    let shown: String = [
        "oozie-4.2",
        "oozie-4.3",
        "oozie-5.0",
        "emr-7",
        "cdp-7.1",
        "cdp-7.3",
    ]
    .iter()
    .map(|server| {
        let args = [
            "check", "--format", "concise", "--ignore", "PL", "--server", server,
        ];
        let out = coordc_in(&dir, &args);
        format!("=== --server {server}\n{}", stdout(&out))
    })
    .collect();
    insta::assert_snapshot!(shown);
}

#[test]
fn coordc_toml_names_the_server_and_the_command_line_wins() {
    let dir = differences();
    common::write(&dir, "coordc.toml", "server = \"cdp-7.3\"\n");
    assert_eq!(
        found(&dir, &[]),
        [
            "SV001 ./spark/workflow.xml:4",
            "SV003 ./spark3/workflow.xml:4"
        ]
    );
    assert_eq!(
        found(&dir, &["--server", "emr-7"]),
        [
            "WF008 ./spark3/workflow.xml:4",
            "SV001 ./sqoop/workflow.xml:4"
        ]
    );
    // A name no profile has stops the check, and says which there are.
    common::write(&dir, "coordc.toml", "server = \"oozie-4.1\"\n");
    let out = coordc_in(&dir, &["check"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "server: no server profile `oozie-4.1`: the profiles are oozie-4.2, oozie-4.3, oozie-5.0, oozie-5.1, oozie-5.2, emr-7.4, emr-7, cdp-7.1, cdp-7.3"
        ),
        "{}",
        stderr(&out)
    );
    let out = coordc_in(&dir, &["check", "--server", "oozie-4.1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("oozie-4.3"), "{}", stderr(&out));
}

/// The schema-version fix is offered only where the element is valid under
/// the older version, and once applied the application passes on that
/// server and still on the newest.
#[test]
fn the_schema_version_fix_is_proved_before_it_is_offered() {
    let shell_1_0 = r#"<shell xmlns="uri:oozie:shell-action:1.0">
      <job-tracker>${jobTracker}</job-tracker>
      <name-node>${nameNode}</name-node>
      <exec>run.sh</exec>
    </shell>"#;
    let dir = folder(
        "servers-fix",
        &[
            ("workflow.xml", workflow("1.0", shell_1_0)),
            ("job.properties", JOB.to_string()),
        ],
    );
    let (code, doc) = check_json(&dir, &["--server", "oozie-4.3"]);
    assert_eq!(code, Some(1));
    let fixes: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["fix"]["replacement"].as_str().unwrap())
        .collect();
    assert_eq!(
        fixes,
        ["uri:oozie:workflow:0.5", "uri:oozie:shell-action:0.3"]
    );
    let out = coordc_in(&dir, &["check", "--server", "oozie-4.3", "--fix"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let fixed = std::fs::read_to_string(dir.join("workflow.xml")).unwrap();
    assert!(
        fixed.contains(r#"xmlns="uri:oozie:workflow:0.5""#),
        "{fixed}"
    );
    assert!(
        fixed.contains(r#"xmlns="uri:oozie:shell-action:0.3""#),
        "{fixed}"
    );
    assert_eq!(found(&dir, &[]), Vec::<String>::new());

    // A schema error the edit does not add (an unknown element in the
    // action) does not stop the fix of the workflow's version.
    let with_error = workflow(
        "1.0",
        r#"<shell xmlns="uri:oozie:shell-action:0.3">
      <job-tracker>${jobTracker}</job-tracker>
      <exec>run.sh</exec>
      <colour>blue</colour>
    </shell>"#,
    );
    let dir = folder(
        "servers-fix-error",
        &[
            ("workflow.xml", with_error),
            ("job.properties", JOB.to_string()),
        ],
    );
    let (_, doc) = check_json(&dir, &["--server", "oozie-4.3"]);
    let fixes: Vec<(&str, &str)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let fix = d["fix"]["replacement"].as_str().unwrap_or("");
            (d["code"].as_str().unwrap(), fix)
        })
        .collect();
    assert_eq!(fixes, [("SV001", "uri:oozie:workflow:0.5"), ("XML004", "")]);

    // An action whose prefix is declared on the workflow: no edit of its
    // own tag changes it, and the help says where to change it.
    let prefixed = workflow(
        "0.5",
        r#"<sh:shell>
      <sh:job-tracker>${jobTracker}</sh:job-tracker>
      <sh:name-node>${nameNode}</sh:name-node>
      <sh:exec>run.sh</sh:exec>
    </sh:shell>"#,
    )
    .replacen(
        r#"xmlns="uri:oozie:workflow:0.5""#,
        r#"xmlns="uri:oozie:workflow:0.5" xmlns:sh="uri:oozie:shell-action:1.0""#,
        1,
    );
    let dir = folder(
        "servers-fix-prefixed",
        &[
            ("workflow.xml", prefixed),
            ("job.properties", JOB.to_string()),
        ],
    );
    let (_, doc) = check_json(&dir, &["--server", "oozie-4.3"]);
    let shell = &doc["diagnostics"][0];
    assert!(shell["fix"].is_null(), "{shell:#}");
    assert!(
        shell["help"]
            .as_str()
            .unwrap()
            .starts_with("declare uri:oozie:shell-action:0.3, the newest oozie-4.3 accepts, where this namespace is declared"),
        "{shell:#}"
    );

    // With a 1.0-only element (`<launcher>`), no older version fits: no fix.
    let dir = differences();
    let (_, doc) = check_json(dir.join("shell-1.0"), &["--server", "oozie-4.3"]);
    let shell = &doc["diagnostics"][1];
    assert_eq!(shell["code"], "SV001");
    assert!(shell["fix"].is_null(), "{shell:#}");
    assert!(
        shell["help"]
            .as_str()
            .unwrap()
            .contains("not valid under any it accepts"),
        "{shell:#}"
    );
}

/// With the newest release's profile, every corpus application is
/// reported as it is without one (docs/servers.md: the profile is the
/// default). The SV examples are left out: they name their own servers in
/// coordc.toml, which `--server` overrides.
#[test]
fn the_newest_profile_is_the_default() {
    let root = common::root();
    let mut paths: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(root.join("corpus")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name == "invalid" {
            for example in std::fs::read_dir(root.join("corpus/invalid")).unwrap() {
                let code = example.unwrap().file_name().to_string_lossy().into_owned();
                if !code.starts_with("SV") {
                    paths.push(format!("corpus/invalid/{code}"));
                }
            }
        } else if root.join("corpus").join(&name).is_dir() {
            paths.push(format!("corpus/{name}"));
        }
    }
    paths.sort();
    let mut args = vec!["check", "--format", "json"];
    args.extend(paths.iter().map(String::as_str));
    let plain = coordc_in(root, &args);
    args.extend(["--server", "oozie-5.2"]);
    let newest = coordc_in(root, &args);
    assert!(stdout(&plain).contains("\"files_checked\""));
    assert_eq!(stdout(&plain), stdout(&newest));
    assert_eq!(plain.status.code(), newest.status.code());
}
