//! Input no one should write and someone will: each through the real
//! binary in a child process, with its time and peak memory measured
//! (GNU time's `%M`) and bounded. Each gets a diagnostic (or a correct
//! answer), nothing panics, and a good application checked in the same run
//! still gets its results. docs/robustness.md keeps the figures.
//!
//! The bound on time is a guard against a blow-up, not a speed target (the
//! benchmarks measure speed): 20 s for an optimized build (`cargo test
//! --release --test tools adversarial`) and 120 s for the debug build
//! `cargo test` makes, of CPU time (user and system, GNU time's `%U %S`: the tests
//! of this file run at once, and their wall times stretch with the load,
//! not with coordc's work). The slowest case takes about 0.5 s optimized and
//! 13 to 18 s unoptimized on a loaded two-core machine: the bounds leave
//! several times that, and a quadratic walk of 10^6 entries would take
//! hours. Memory is bounded at 512 MB either way.

use crate::common;
use crate::common::write;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MEMORY_MB: u64 = 512;

/// The CPU time an extreme input may take (the module's header says why).
fn time_limit() -> Duration {
    if cfg!(debug_assertions) {
        Duration::from_secs(120)
    } else {
        Duration::from_secs(20)
    }
}

/// What a run of coordc did.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
    /// User and system CPU time, when GNU time measured it: what the time
    /// bound is checked on, since the tests running beside this one (and
    /// anything else on the machine) stretch the wall time, not the work.
    cpu: Option<Duration>,
    peak_mb: u64,
}

/// Runs coordc with `args`; its outcome, with the time and the peak
/// resident memory of coordc itself. The memory is what GNU time's `%M`
/// reads of its child: coordc is started by `/usr/bin/time` (which
/// `.ci/run` installs), not forked from this test process, whose own
/// memory a fork would count as the child's.
fn coordc(args: &[&str]) -> Run {
    // (A folder of its own for each run: the tests run at once.)
    let dir = common::fresh_dir("adv-out");
    let (out, err, rss) = (dir.join("stdout"), dir.join("stderr"), dir.join("rss"));
    let time = Path::new("/usr/bin/time");
    let mut command = if time.is_file() {
        let mut c = Command::new(time);
        c.arg("-f")
            .arg("%M %U %S")
            .arg("-o")
            .arg(&rss)
            .arg(env!("CARGO_BIN_EXE_coordc"));
        c
    } else {
        // (`peak_memory_is_measured` is then ignored, saying why.)
        Command::new(env!("CARGO_BIN_EXE_coordc"))
    };
    let started = Instant::now();
    let status = command
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).expect("a file"))
        .stderr(std::fs::File::create(&err).expect("a file"))
        .status()
        .expect("coordc runs");
    let elapsed = started.elapsed();
    // GNU time's last line: peak KB, user and system CPU seconds.
    let measured = std::fs::read_to_string(&rss).unwrap_or_default();
    let fields: Vec<&str> = measured
        .lines()
        .last()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    let peak_kb: u64 = fields.first().and_then(|f| f.parse().ok()).unwrap_or(0);
    let seconds = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    let cpu = seconds(1)
        .zip(seconds(2))
        .map(|(user, system)| Duration::from_secs_f64(user + system));
    let run = Run {
        code: status.code(),
        stdout: std::fs::read_to_string(&out).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err).unwrap_or_default(),
        elapsed,
        cpu,
        peak_mb: peak_kb / 1024,
    };
    let _ = std::fs::remove_dir_all(&dir);
    run
}

/// Checks `run` finished within the bounds, without a panic, with one of
/// `codes`, and says what it cost.
fn bounded(what: &str, run: &Run, codes: &[i32]) {
    let cpu = run.cpu.unwrap_or(run.elapsed);
    eprintln!(
        "{what}: exit {:?} in {:.3} s ({:.2} s of CPU), {} MB",
        run.code,
        run.elapsed.as_secs_f64(),
        cpu.as_secs_f64(),
        run.peak_mb
    );
    assert!(
        !run.stderr.contains("panicked") && !run.stdout.contains("a bug: please report"),
        "{what}: {}",
        run.stderr
    );
    assert!(
        run.code.is_some_and(|c| codes.contains(&c)),
        "{what}: exit {:?}\n{}\n{}",
        run.code,
        tail(&run.stdout),
        tail(&run.stderr)
    );
    assert!(cpu < time_limit(), "{what}: {cpu:?} of CPU");
    assert!(run.peak_mb < MEMORY_MB, "{what}: {} MB", run.peak_mb);
}

fn tail(text: &str) -> &str {
    let start = text.len().saturating_sub(2_000);
    let start = (start..text.len())
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(0);
    &text[start..]
}

/// A good application checked beside the bad input: its TM005 is found.
fn good_app() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/invalid/TM005/coordinator.xml")
}

/// Checks `bad` and the good application in one run, as JSON: the good one
/// keeps its results, the bad one gets `code` (when given).
fn check_beside_good(what: &str, bad: &Path, code: Option<&str>) -> Run {
    let run = coordc(&[
        "check",
        "--format",
        "json",
        bad.to_str().expect("a path"),
        good_app().to_str().expect("a path"),
    ]);
    bounded(what, &run, &[0, 1]);
    assert!(
        run.stdout.contains("\"TM005\""),
        "{what}: the good app lost its results\n{}",
        tail(&run.stdout)
    );
    if let Some(code) = code {
        assert!(
            run.stdout.contains(&format!("\"{code}\"")),
            "{what}: no {code}\n{}",
            tail(&run.stdout)
        );
    }
    run
}

/// The diagnostics of `code` past the first hundred are counted, not shown.
fn assert_counted(run: &Run, code: &str, more: usize) {
    assert!(
        run.stdout
            .contains(&format!("and {more} more {code} problem(s)")),
        "{}",
        tail(&run.stdout)
    );
}

/// A workflow of `n` fs actions in a chain, on one line, each tag with
/// `attribute` added.
fn chain_workflow(n: usize, attribute: &str) -> String {
    let mut wf = String::from(
        "<workflow-app name=\"w\" xmlns=\"uri:oozie:workflow:0.5\"><start to=\"a0\"/>",
    );
    for i in 0..n {
        write!(
            wf,
            "<action name=\"a{i}\"{attribute}><fs/><ok to=\"a{}\"/><error to=\"k\"/></action>",
            i + 1
        )
        .unwrap();
    }
    write!(
        wf,
        "<kill name=\"k\"><message>m</message></kill><end name=\"a{n}\"/></workflow-app>"
    )
    .unwrap();
    wf
}

const COORDINATOR_HEAD: &str = r#"<coordinator-app name="x" frequency="${coord:days(1)}" start="2024-01-01T00:00Z" end="2024-01-05T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">"#;

/// A coordinator with `datasets` (inside `<datasets>`), `inputs` (inside
/// `<input-events>`, left out when there are none: the schema wants one)
/// and its header attributes replaced by `head`.
fn coordinator(head: &str, datasets: &str, inputs: &str) -> String {
    let inputs = if inputs.is_empty() {
        String::new()
    } else {
        format!("<input-events>{inputs}</input-events>")
    };
    format!(
        "{head}<datasets>{datasets}</datasets>{inputs}<action><workflow><app-path>/app</app-path></workflow></action></coordinator-app>"
    )
}

const DATASET: &str = r#"<dataset name="d" frequency="${coord:hours(1)}" initial-instance="2023-01-01T00:00Z" timezone="UTC"><uri-template>/data/${YEAR}/${MONTH}/${DAY}/${HOUR}</uri-template></dataset>"#;

#[test]
fn entities_are_refused() {
    let dir = common::fresh_dir("adv-entities");
    let mut laughs =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n");
    for i in 1..10 {
        let previous = if i == 1 {
            "lol".to_string()
        } else {
            format!("lol{}", i - 1)
        };
        writeln!(
            laughs,
            "<!ENTITY lol{i} \"{}\">",
            format!("&{previous};").repeat(10)
        )
        .unwrap();
    }
    laughs.push_str("]>\n<workflow-app name=\"&lol9;\" xmlns=\"uri:oozie:workflow:0.5\"><start to=\"end\"/><end name=\"end\"/></workflow-app>\n");
    let bad = write(&dir, "laughs.xml", laughs);
    check_beside_good("billion laughs", &bad, Some("XML001"));
    let external = "<?xml version=\"1.0\"?>\n<!DOCTYPE w [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<workflow-app name=\"&x;\" xmlns=\"uri:oozie:workflow:0.5\"><start to=\"end\"/><end name=\"end\"/></workflow-app>\n";
    let bad = write(&dir, "external.xml", external);
    let run = check_beside_good("external entity", &bad, Some("XML001"));
    assert!(!run.stdout.contains("root:"), "the entity was read");
}

#[test]
fn sizes_and_shapes_of_files() {
    let dir = common::fresh_dir("adv-sizes");
    // 10^6-deep nesting.
    let deep = format!("{}{}", "<a>".repeat(1_000_000), "</a>".repeat(1_000_000));
    let bad = write(&dir, "deep.xml", deep);
    check_beside_good("10^6-deep nesting", &bad, None);
    // A 100 MB file: refused by its length before it is read.
    let big = dir.join("big.xml");
    let file = std::fs::File::create(&big).expect("a file");
    file.set_len(100 << 20).expect("a sparse file");
    check_beside_good("100 MB file", &big, Some("XML002"));
    // A 10 MB single line: a workflow with a 10 MB comment.
    let line = format!(
        "<workflow-app name=\"w\" xmlns=\"uri:oozie:workflow:0.5\"><!-- {} --><start to=\"end\"/><end name=\"end\"/></workflow-app>",
        "x".repeat(10 << 20)
    );
    let bad = write(&dir, "line.xml", line);
    check_beside_good("10 MB single line", &bad, None);
    // Binary, and UTF-16.
    let binary: Vec<u8> = (0..100_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let bad = write(&dir, "binary.xml", binary);
    check_beside_good("binary file", &bad, Some("XML001"));
    let utf16: Vec<u8> = "\u{feff}<workflow-app name=\"w\"/>"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let bad = write(&dir, "utf16.xml", utf16);
    check_beside_good("UTF-16 file", &bad, Some("XML001"));
}

#[test]
fn expressions_and_numbers_at_their_limits() {
    let dir = common::fresh_dir("adv-el");
    let nested = format!("${{{}1{}}}", "(".repeat(1_000_000), ")".repeat(1_000_000));
    let bad = write(
        &dir,
        "parens.xml",
        coordinator(
            &COORDINATOR_HEAD.replace("${coord:days(1)}", &nested),
            DATASET,
            "",
        ),
    );
    check_beside_good("10^6 nested parentheses", &bad, None);
    let cases = [
        (
            "current(-2147483648)",
            Some("DA001"),
            coordinator(
                COORDINATOR_HEAD,
                DATASET,
                r#"<data-in name="i" dataset="d"><instance>${coord:current(-2147483648)}</instance></data-in>"#,
            ),
        ),
        (
            "10^9 instances",
            Some("CO005"),
            coordinator(
                COORDINATOR_HEAD,
                DATASET,
                r#"<data-in name="i" dataset="d"><start-instance>${coord:current(-1000000000)}</start-instance><end-instance>${coord:current(0)}</end-instance></data-in>"#,
            ),
        ),
        (
            // The dry-run fuzz target's finding (docs/robustness.md): a range
            // within reach of the initial instance, 7 million instances long.
            "a range of 7 million instances",
            Some("CO005"),
            std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/data/fuzz/dryrun-range-of-7m-instances"),
            )
            .expect("the fuzz finding"),
        ),
        (
            "minutes(2147483647)",
            None,
            coordinator(
                &COORDINATOR_HEAD.replace("${coord:days(1)}", "${coord:minutes(2147483647)}"),
                DATASET,
                "",
            ),
        ),
        (
            "year 1 to 9999",
            None,
            coordinator(
                &COORDINATOR_HEAD
                    .replace("2024-01-01T00:00Z", "0001-01-01T00:00Z")
                    .replace("2024-01-05T00:00Z", "9999-12-31T00:00Z")
                    .replace("${coord:days(1)}", "${coord:minutes(5)}"),
                DATASET,
                "",
            ),
        ),
    ];
    for (what, code, text) in cases {
        let bad = write(&dir, "coordinator.xml", text);
        check_beside_good(what, &bad, code);
        let run = coordc(&["dryrun", bad.to_str().expect("a path"), "--limit", "3"]);
        bounded(&format!("dryrun {what}"), &run, &[0, 1, 2]);
    }
}

#[test]
fn applications_at_their_limits() {
    let dir = common::fresh_dir("adv-apps");
    // An include cycle.
    write(
        &dir,
        "a.xml",
        "<datasets><include>b.xml</include></datasets>",
    );
    write(
        &dir,
        "b.xml",
        "<datasets><include>a.xml</include></datasets>",
    );
    let cycle = coordinator(COORDINATOR_HEAD, "<include>a.xml</include>", "");
    let bad = write(&dir, "cycle.xml", cycle);
    check_beside_good("include cycle", &bad, None);
    // 10,000 identical datasets.
    let bad = write(
        &dir,
        "same.xml",
        coordinator(COORDINATOR_HEAD, &DATASET.repeat(10_000), ""),
    );
    check_beside_good("10,000 identical datasets", &bad, None);
    // One element of 300,000 attributes (the issue's example: the duplicate
    // check was quadratic, and rendering 300,000 XML005s took seconds).
    let mut attributes = String::new();
    for i in 0..300_000 {
        write!(attributes, " a{i}=\"v\"").unwrap();
    }
    let bad = write(
        &dir,
        "attributes.xml",
        coordinator(
            &COORDINATOR_HEAD.replace("timezone=", &format!("{attributes} timezone=")),
            DATASET,
            "",
        ),
    );
    let run = check_beside_good("300,000 attributes", &bad, Some("XML005"));
    assert_counted(&run, "XML005", 299_900);
    // 100,000 actions on one line, each with an attribute the schema does
    // not have (locating their diagnostics was quadratic: 59 s).
    let wf = chain_workflow(100_000, " bad=\"x\"");
    let bad = write(&dir, "one-line.xml", wf);
    let run = check_beside_good("100,000 actions on one line", &bad, Some("XML005"));
    assert_counted(&run, "XML005", 99_900);
    // A 10^6-node workflow (60 MB: refused by its length).
    let wf = chain_workflow(1_000_000, "");
    let bad = write(&dir, "million.xml", wf);
    check_beside_good("10^6-node workflow", &bad, Some("XML002"));
}

#[test]
fn a_sub_workflow_chain_of_100_levels() {
    let dir = common::fresh_dir("adv-subwf");
    for level in 0..100 {
        let next = format!("wf{}.xml", level + 1);
        let body = if level == 99 {
            "<start to=\"end\"/><end name=\"end\"/>".to_string()
        } else {
            format!(
                "<start to=\"s\"/><action name=\"s\"><sub-workflow><app-path>{next}</app-path><propagate-configuration/></sub-workflow><ok to=\"end\"/><error to=\"k\"/></action><kill name=\"k\"><message>m</message></kill><end name=\"end\"/>"
            )
        };
        write(
            &dir,
            &format!("wf{level}.xml"),
            format!(
                "<workflow-app name=\"w{level}\" xmlns=\"uri:oozie:workflow:0.5\">{body}</workflow-app>"
            ),
        );
    }
    let run = coordc(&[
        "simulate",
        dir.join("wf0.xml").to_str().expect("a path"),
        "--format",
        "json",
    ]);
    bounded("100-level sub-workflow chain", &run, &[0, 1]);
    assert!(run.stdout.contains("SUBWF001"), "{}", tail(&run.stdout));
}

/// A coordinator whose frequency reads the job property `n`, in `dir`.
fn coordinator_reading_n(dir: &Path) -> PathBuf {
    write(
        dir,
        "coordinator.xml",
        coordinator(
            &COORDINATOR_HEAD.replace("${coord:days(1)}", "${coord:days(n)}"),
            DATASET,
            "",
        ),
    )
}

#[test]
fn job_configurations_at_their_limits() {
    let dir = common::fresh_dir("adv-config");
    let app = coordinator_reading_n(&dir);
    let good = good_app();
    let long = write(
        &dir,
        "long.properties",
        format!("n=1\nbig={}\n", "v".repeat(10 << 20)),
    );
    let run = coordc(&[
        "check",
        "--config",
        long.to_str().expect("a path"),
        app.to_str().expect("a path"),
        good.to_str().expect("a path"),
    ]);
    bounded("a 10 MB value", &run, &[0, 1]);
    assert!(run.stdout.contains("TM005"), "{}", tail(&run.stdout));
    let defines: Vec<String> = (0..100_000).map(|i| format!("-Dp{i}=v")).collect();
    let mut args: Vec<&str> = vec!["check"];
    args.extend(defines.iter().map(String::as_str));
    args.extend([
        "-Dn=1",
        app.to_str().expect("a path"),
        good.to_str().expect("a path"),
    ]);
    let run = coordc(&args);
    bounded("10^5 -D", &run, &[0, 1]);
    assert!(run.stdout.contains("TM005"), "{}", tail(&run.stdout));
}

/// A job.properties of 10^6 entries given to two applications: merged as it
/// is read, each property's name kept once (0.43 s and 457 MB with the
/// release binary; it took 3.7 s and 783 MB).
#[test]
fn a_job_properties_of_a_million_entries() {
    let dir = common::fresh_dir("adv-million");
    let app = coordinator_reading_n(&dir);
    let good = good_app();
    let mut many = String::with_capacity(20 << 20);
    for i in 0..1_000_000 {
        writeln!(many, "p{i}=v{i}").unwrap();
    }
    many.push_str("n=1\n");
    let properties = write(&dir, "many.properties", many);
    let run = coordc(&[
        "check",
        "--config",
        properties.to_str().expect("a path"),
        app.to_str().expect("a path"),
        good.to_str().expect("a path"),
    ]);
    bounded("10^6 properties", &run, &[0, 1]);
    assert!(run.stdout.contains("TM005"), "{}", tail(&run.stdout));
}

/// The memory bounds above hold only where GNU time measures the peak:
/// without it this test is ignored, saying so, rather than every bound
/// passing unmeasured.
#[test]
#[cfg_attr(
    missing_gnu_time,
    ignore = "skipped: no /usr/bin/time here (Debian: apt-get install time): the adversarial inputs' peak memory is not measured"
)]
fn peak_memory_is_measured() {
    let good = good_app();
    let run = coordc(&["check", good.to_str().expect("a path")]);
    bounded("a good application", &run, &[0]);
    assert!(run.peak_mb > 0, "GNU time measured no memory");
    assert!(run.cpu.is_some(), "GNU time measured no CPU time");
}
