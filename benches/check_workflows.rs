//! `coordc check DIR --format json` on 1,000 generated workflow apps of
//! 3-10 KB, each a chain of 3 to 8 shell, hive and spark actions in their own
//! namespaces (workflow 0.5 with shell 0.3, hive 0.5 and spark 0.2; workflow
//! 1.0 with the 1.0 actions, a launcher and the resource-manager), with
//! parameters, a global section, prepare, configuration and EL: the process,
//! as a user runs it. Compared in docs/performance.md with `xmllint --noout
//! --schema` validating the same files against the same schemas (the
//! workflow and action files of grammar/xsd/ the apps use, imported by one
//! schema, target/bench-check-wf.xsd, which this writes).
//!
//! The apps are written to target/bench-check-wf/ (and kept, for xmllint):
//! `cargo bench --bench check_workflows` generates them before measuring.

mod shared;

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The namespaces the apps use, each with its file in grammar/xsd/.
const SCHEMAS: &[(&str, &str)] = &[
    ("uri:oozie:workflow:0.5", "oozie-workflow-0.5.xsd"),
    ("uri:oozie:workflow:1.0", "oozie-workflow-1.0.xsd"),
    ("uri:oozie:shell-action:0.3", "shell-action-0.3.xsd"),
    ("uri:oozie:shell-action:1.0", "shell-action-1.0.xsd"),
    ("uri:oozie:hive-action:0.5", "hive-action-0.5.xsd"),
    ("uri:oozie:hive-action:1.0", "hive-action-1.0.xsd"),
    ("uri:oozie:spark-action:0.2", "spark-action-0.2.xsd"),
    ("uri:oozie:spark-action:1.0", "spark-action-1.0.xsd"),
];

/// A fixed xorshift from `i`, so every run checks the same files.
fn picker(i: usize) -> impl FnMut(usize) -> usize {
    let mut seed = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

/// Action `j` of app `i`, of workflow version `one` (1.0) or 0.5, going to
/// `next` on success.
fn action(
    i: usize,
    j: usize,
    one: bool,
    next: &str,
    pick: &mut impl FnMut(usize) -> usize,
) -> String {
    let (shell, hive, spark) = if one {
        ("1.0", "1.0", "1.0")
    } else {
        ("0.3", "0.5", "0.2")
    };
    let launcher = if one {
        "\n      <launcher>\n        <memory.mb>2048</memory.mb>\n        <queue>${queueName}</queue>\n      </launcher>"
    } else {
        ""
    };
    let properties: String = (0..1 + pick(4))
        .map(|k| {
            format!(
                "\n        <property>\n          <name>app.{i}.step{j}.key{k}</name>\n          <value>${{wf:id()}}/${{day}}/{k}</value>\n        </property>"
            )
        })
        .collect();
    let prepare = format!(
        "\n      <prepare>\n        <delete path=\"${{nameNode}}/data/app-{i}/step{j}/${{day}}\"/>\n        <mkdir path=\"${{nameNode}}/data/app-{i}/step{j}\"/>\n      </prepare>"
    );
    let body = match pick(3) {
        0 => {
            let arguments: String = (0..pick(4))
                .map(|k| format!("\n      <argument>--part={k}</argument>"))
                .collect();
            format!(
                r#"<shell xmlns="uri:oozie:shell-action:{shell}">{prepare}{launcher}
      <configuration>{properties}
      </configuration>
      <exec>step{j}.sh</exec>{arguments}
      <argument>${{day}}</argument>
      <env-var>APP_HOME=${{nameNode}}/apps/app-{i}</env-var>
      <file>${{nameNode}}/apps/app-{i}/step{j}.sh#step{j}.sh</file>
      <capture-output/>
    </shell>"#
            )
        }
        1 => {
            let params: String = (0..1 + pick(3))
                .map(|k| format!("\n      <param>P{k}=${{day}}</param>"))
                .collect();
            format!(
                r#"<hive xmlns="uri:oozie:hive-action:{hive}">{prepare}{launcher}
      <job-xml>${{nameNode}}/apps/app-{i}/hive-site.xml</job-xml>
      <configuration>{properties}
      </configuration>
      <script>step{j}.hql</script>{params}
    </hive>"#
            )
        }
        _ => {
            let args: String = (0..pick(4))
                .map(|k| format!("\n      <arg>--input=${{nameNode}}/data/app-{i}/in{k}</arg>"))
                .collect();
            format!(
                r#"<spark xmlns="uri:oozie:spark-action:{spark}">{prepare}{launcher}
      <configuration>{properties}
      </configuration>
      <master>yarn</master>
      <mode>cluster</mode>
      <name>app-{i}-step{j}</name>
      <class>com.example.Step{j}</class>
      <jar>${{nameNode}}/apps/app-{i}/lib/steps.jar</jar>
      <spark-opts>--executor-memory 4G --num-executors {}</spark-opts>{args}
    </spark>"#,
                2 + pick(8)
            )
        }
    };
    format!(
        r#"  <action name="step{j}" retry-max="2" retry-interval="5">
    {body}
    <ok to="{next}"/>
    <error to="fail"/>
  </action>
"#
    )
}

/// App `i`.
fn app(i: usize) -> String {
    let mut pick = picker(i);
    let one = pick(10) < 3;
    let version = if one { "1.0" } else { "0.5" };
    let cluster = if one {
        "<resource-manager>${jobTracker}</resource-manager>"
    } else {
        "<job-tracker>${jobTracker}</job-tracker>"
    };
    let n = 3 + pick(6);
    let actions: String = (0..n)
        .map(|j| {
            let next = if j + 1 == n {
                "end".to_string()
            } else {
                format!("step{}", j + 1)
            };
            action(i, j, one, &next, &mut pick)
        })
        .collect();
    format!(
        r#"<workflow-app name="app-{i}-${{day}}" xmlns="uri:oozie:workflow:{version}">
  <parameters>
    <property><name>jobTracker</name><value>rm:8032</value></property>
    <property><name>nameNode</name><value>hdfs://nn:8020</value></property>
    <property><name>queueName</name><value>etl</value></property>
    <property><name>day</name><value>2024-01-01</value></property>
  </parameters>
  <global>
    {cluster}
    <name-node>${{nameNode}}</name-node>
    <configuration>
      <property>
        <name>mapred.job.queue.name</name>
        <value>${{queueName}}</value>
      </property>
    </configuration>
  </global>
  <start to="step0"/>
{actions}  <kill name="fail">
    <message>app-{i} failed: ${{wf:errorMessage(wf:lastErrorNode())}}</message>
  </kill>
  <end name="end"/>
</workflow-app>
"#
    )
}

/// Writes `path` unless it holds `text` already.
fn write(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).expect("target/ is writable");
    }
}

/// Writes the 1,000 apps (once) and the schema xmllint reads; returns their
/// folder and that schema.
fn generate() -> (PathBuf, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/bench-check-wf");
    std::fs::create_dir_all(&dir).expect("target/ is writable");
    for i in 0..1_000 {
        write(&dir.join(format!("wf{i:04}.xml")), &app(i));
    }
    let imports: String = SCHEMAS
        .iter()
        .map(|(namespace, file)| {
            let path = root.join("grammar/xsd").join(file);
            format!(
                "  <xs:import namespace=\"{namespace}\" schemaLocation=\"{}\"/>\n",
                path.display()
            )
        })
        .collect();
    let schema = root.join("target/bench-check-wf.xsd");
    write(
        &schema,
        &format!(
            "<?xml version=\"1.0\"?>\n<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n{imports}</xs:schema>\n"
        ),
    );
    (dir, schema)
}

fn bench(c: &mut Criterion) {
    let (dir, schema) = generate();
    let coordc = env!("CARGO_BIN_EXE_coordc");
    // The apps are valid: the check finds no error and no warning.
    shared::assert_checks_clean(coordc, &dir);
    // And xmllint, where it is installed, finds them valid against the same
    // schemas (the comparison in docs/performance.md runs it).
    match Command::new("xmllint")
        .args(["--noout", "--schema", schema.to_str().unwrap()])
        .args((0..1_000).map(|i| dir.join(format!("wf{i:04}.xml"))))
        .output()
    {
        Ok(out) => assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => eprintln!("xmllint not run ({e}): the apps are not checked against it"),
    }
    shared::bench_check(c, "1k_workflows", coordc, &dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
