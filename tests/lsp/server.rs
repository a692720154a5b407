//! `coordc lsp` end to end, in process: a client's messages in, the
//! server's messages out (tests/common/lsp.rs). The workspace is a copy of
//! corpus/lsp/app: a coordinator whose second line has non-ASCII text before
//! a legacy zone ID (TM005, which has a fix), an included datasets file and
//! the job.properties the coordinator reads.

use crate::common;

use common::lsp::{TestServer, capabilities, workspace};
use serde_json::{Value, json};

const COORDINATOR: &str = "coordinator.xml";

/// Rule pages at a fixed place (by default they are coordc's published
/// pages, at this version).
fn options() -> Value {
    json!({ "rulesUrl": "https://coordc.invalid/rules/{code}" })
}

/// A server on the workspace `root` (a UTF-16 client) with the coordinator
/// open and its first diagnostics read.
fn coordinator_server(root: &std::path::Path) -> TestServer {
    let mut server = TestServer::start(root, capabilities(&[], false), options());
    server.open(COORDINATOR);
    let _ = server.diagnostics(COORDINATOR);
    server
}

/// The code and the start of each diagnostic.
fn codes(diagnostics: &Value) -> Vec<(String, u64, u64)> {
    diagnostics
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["range"]["start"]["line"].as_u64().unwrap_or(0),
                d["range"]["start"]["character"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// The column of TM005 on line 2 (`timezone="PST"` after `rapport-été`):
/// bytes for a client that offers UTF-8 (118), UTF-16 units for the others
/// (116: each `é` is two bytes and one unit).
#[test]
fn diagnostics_on_open_count_columns_in_the_encoding_agreed() {
    for (encodings, column) in [(vec![], 116), (vec!["utf-8", "utf-16"], 118)] {
        let root = workspace("lsp/app", &format!("lsp-open-{column}"));
        let mut server = TestServer::start(&root, capabilities(&encodings, false), options());
        server.open(COORDINATOR);
        let diagnostics = server.diagnostics(COORDINATOR);
        assert!(
            codes(&diagnostics).contains(&("TM005".into(), 1, column)),
            "{diagnostics:#}"
        );
        if encodings.is_empty() {
            insta::assert_json_snapshot!("open_coordinator", server.redact(&diagnostics));
        }
    }
}

/// A pipeline problem points at the other application's data-out
/// (`relatedInformation` in its file), and without `rulesUrl` the rule's
/// link is coordc's published page, not a file of the build machine.
#[test]
fn a_pipeline_problem_points_at_the_other_file_and_links_the_published_page() {
    let root = workspace("invalid/PL003", "lsp-related");
    let mut server = TestServer::start(&root, capabilities(&[], false), json!({}));
    server.open("report.xml");
    let diagnostics = server.diagnostics("report.xml");
    let pl003 = diagnostics
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "PL003")
        .unwrap_or_else(|| panic!("{diagnostics:#}"));
    let related = &pl003["relatedInformation"][0];
    assert_eq!(
        related["location"]["uri"],
        server.uri("clean.xml"),
        "{pl003:#}"
    );
    // `<data-out` on line 10, column 6 (0-based: 9, 5).
    assert_eq!(
        related["location"]["range"]["start"],
        json!({ "line": 9, "character": 5 })
    );
    assert!(
        related["message"]
            .as_str()
            .unwrap()
            .contains("`clean` writes it here")
    );
    // (The repository is Cargo.toml's, or coordc's own without one.)
    let href = pl003["codeDescription"]["href"].as_str().unwrap();
    let page = format!("/blob/v{}/docs/rules/PL003.md", env!("CARGO_PKG_VERSION"));
    assert!(
        href.starts_with("https://") && href.ends_with(&page),
        "{href}"
    );
}

/// What is checked is the editor's text, not the file: an edit that fixes
/// the zone clears TM005 before anything is saved.
#[test]
fn an_unsaved_edit_is_checked() {
    let root = workspace("lsp/app", "lsp-edit");
    let mut server = TestServer::start(&root, capabilities(&[], false), json!({}));
    server.open(COORDINATOR);
    let text = std::fs::read_to_string(server.path(COORDINATOR)).unwrap();
    let before = codes(&server.diagnostics(COORDINATOR));
    // An incremental edit: `PST` (line 2, UTF-16 columns 116-119) replaced.
    server.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": server.uri(COORDINATOR), "version": 2 },
            "contentChanges": [{
                "range": { "start": { "line": 1, "character": 116 }, "end": { "line": 1, "character": 119 } },
                "text": "America/Los_Angeles",
            }],
        }),
    );
    let after = codes(&server.diagnostics(COORDINATOR));
    let expected: Vec<_> = before.into_iter().filter(|c| c.0 != "TM005").collect();
    assert_eq!(after, expected);
    assert_eq!(
        std::fs::read_to_string(server.path(COORDINATOR)).unwrap(),
        text
    );
}

/// A change to a file an application reads re-checks the application: the
/// job.properties (a property removed) and an included datasets file (a
/// dataset renamed), both unsaved buffers.
#[test]
fn a_change_to_a_file_an_application_reads_checks_it_again() {
    let root = workspace("lsp/app", "lsp-depends");
    let mut server = TestServer::start(&root, capabilities(&[], false), json!({}));
    server.open(COORDINATOR);
    let before = codes(&server.diagnostics(COORDINATOR));
    server.open("job.properties");
    server.replace("job.properties", 2, "nameNode=hdfs://nn:8020\n");
    let without_start = server.diagnostics(COORDINATOR);
    assert!(
        without_start
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["message"].as_str().unwrap_or("").contains("`start`")),
        "{without_start:#}"
    );
    server.replace(
        "job.properties",
        3,
        "nameNode=hdfs://nn:8020\nstart=2024-01-01T00:00Z\n",
    );
    assert_eq!(codes(&server.diagnostics(COORDINATOR)), before);
    server.open("datasets.xml");
    let datasets_own = server.diagnostics("datasets.xml");
    let text = std::fs::read_to_string(server.path("datasets.xml")).unwrap();
    server.replace(
        "datasets.xml",
        2,
        &text.replace("\"reports\"", "\"report-files\""),
    );
    let renamed = server.diagnostics(COORDINATOR);
    assert!(
        codes(&renamed).iter().any(|c| c.0 == "CO001" && c.1 == 19),
        "{renamed:#}"
    );
    // (The datasets file's own diagnostics did not change: not sent again.)
    assert!(server.nothing_published());
    let _ = datasets_own;
}

/// An XML file that is no Oozie document gets nothing, not even an empty
/// list; a broken one gets its syntax error.
#[test]
fn other_xml_gets_nothing() {
    let root = workspace("lsp/app", "lsp-other");
    let mut server = TestServer::start(&root, capabilities(&[], false), json!({}));
    server.open_text(
        "pom.xml",
        "<project><modelVersion>4.0.0</modelVersion></project>\n",
    );
    assert!(server.nothing_published());
    server.open_text("broken.xml", "<coordinator-app name=\"x\"\n");
    let broken = server.diagnostics("broken.xml");
    assert_eq!(codes(&broken)[0].0, "XML001", "{broken:#}");
}

/// A client that pulls diagnostics is answered and sent none, unless its
/// `diagnostics` option says `push`.
#[test]
fn pull_diagnostics() {
    let root = workspace("lsp/app", "lsp-pull");
    let mut server = TestServer::start(&root, capabilities(&["utf-8"], true), json!({}));
    server.open(COORDINATOR);
    let report = server.request(
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": server.uri(COORDINATOR) } }),
    );
    assert_eq!(report["kind"], "full");
    assert!(codes(&report["items"]).contains(&("TM005".into(), 1, 118)));
    assert!(server.nothing_published());
    drop(server);
    // Unless it asks to be sent them.
    let push = json!({ "rulesUrl": "https://coordc.invalid/rules/{code}", "diagnostics": "push" });
    let mut server = TestServer::start(&root, capabilities(&["utf-8"], true), push);
    server.open(COORDINATOR);
    assert!(codes(&server.diagnostics(COORDINATOR)).contains(&("TM005".into(), 1, 118)));
}

/// The quick fix of TM005 is the edit `coordc check --fix` makes; applied,
/// the diagnostic goes.
#[test]
fn a_code_action_fixes_a_legacy_zone() {
    let root = workspace("lsp/app", "lsp-action");
    let mut server = TestServer::start(&root, capabilities(&[], false), json!({}));
    server.open(COORDINATOR);
    let _ = server.diagnostics(COORDINATOR);
    let actions = server.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": server.uri(COORDINATOR) },
            "range": { "start": { "line": 1, "character": 117 }, "end": { "line": 1, "character": 117 } },
            "context": { "diagnostics": [] },
        }),
    );
    insta::assert_json_snapshot!("code_action_tm005", server.redact(&actions));
    let edit = &actions[0]["edit"]["changes"][server.uri(COORDINATOR)][0];
    assert_eq!(edit["newText"], "America/Los_Angeles");
    let text = std::fs::read_to_string(server.path(COORDINATOR)).unwrap();
    server.replace(
        COORDINATOR,
        2,
        &text.replacen("\"PST\"", "\"America/Los_Angeles\"", 1),
    );
    assert!(
        !codes(&server.diagnostics(COORDINATOR))
            .iter()
            .any(|c| c.0 == "TM005")
    );
}

/// An unsafe fix (CR005: Quartz reads `1-5` as SUN-THU, the fix writes
/// MON-FRI) is offered, titled to say what it changes, and not preferred:
/// an editor must not apply it unasked.
#[test]
fn an_unsafe_fix_is_offered_but_not_preferred() {
    let root = workspace("lsp/app", "lsp-action-unsafe");
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("corpus/invalid/CR005/coordinator.xml"),
    )
    .unwrap();
    std::fs::write(root.join("cron.xml"), &text).unwrap();
    let mut server = TestServer::start(&root, capabilities(&[], false), json!({}));
    server.open("cron.xml");
    let _ = server.diagnostics("cron.xml");
    let actions = server.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": server.uri("cron.xml") },
            "range": { "start": { "line": 0, "character": 57 }, "end": { "line": 0, "character": 57 } },
            "context": { "diagnostics": [] },
        }),
    );
    assert_eq!(actions.as_array().map(Vec::len), Some(1), "{actions:#}");
    assert_eq!(
        actions[0]["title"],
        "CR005: replace `1-5` with `MON-FRI` (unsafe: it changes the days the job runs on)"
    );
    assert_eq!(actions[0]["isPreferred"], false);
    let edit = &actions[0]["edit"]["changes"][server.uri("cron.xml")][0];
    assert_eq!(edit["newText"], "MON-FRI");
}

/// `shutdown` then `exit` ends the server; a request after `shutdown` is an
/// error; a client that closes the connection without `exit` ends it too.
#[test]
fn shutdown_exit_and_end_of_input() {
    let root = workspace("lsp/app", "lsp-shutdown");
    let server = TestServer::start(&root, capabilities(&[], false), json!({}));
    assert_eq!(server.shutdown(), Ok(()));

    let (server, client) = lsp_server::Connection::memory();
    let thread = std::thread::spawn(move || coordc::lsp::run(&server));
    client
        .sender
        .send(
            lsp_server::Request::new(1.into(), "initialize".into(), json!({ "capabilities": {} }))
                .into(),
        )
        .unwrap();
    let _ = client.receiver.recv().unwrap();
    drop(client);
    assert_eq!(thread.join().unwrap(), Ok(()));
}

/// The position (UTF-16, as the test clients count) of the `nth` match of
/// `needle` in `text`, moved `into` characters.
fn position(text: &str, needle: &str, into: usize) -> Value {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} in the text"))
        + into;
    let line = text[..at].matches('\n').count();
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let character = text[line_start..at].encode_utf16().count();
    json!({ "line": line, "character": character })
}

fn hover(server: &mut TestServer, file: &str, needle: &str, into: usize) -> Value {
    let text = std::fs::read_to_string(server.path(file)).unwrap_or_default();
    let text = if text.is_empty() {
        needle.to_string()
    } else {
        text
    };
    let result = server.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": server.uri(file) }, "position": position(&text, needle, into) }),
    );
    result["contents"]["value"].clone()
}

/// Hover on each kind of thing it explains.
#[test]
fn hover_explains_what_is_under_the_cursor() {
    let root = workspace("lsp/app", "lsp-hover");
    let cron = "<coordinator-app name=\"cron\" frequency=\"0 8 * * MON-FRI\" start=\"2024-03-08T00:00Z\" end=\"2024-04-01T00:00Z\" timezone=\"America/New_York\" xmlns=\"uri:oozie:coordinator:0.4\">\n  <action><workflow><app-path>hdfs://nn/app</app-path></workflow></action>\n</coordinator-app>\n";
    std::fs::write(root.join("cron.xml"), cron).unwrap();
    let mut server = coordinator_server(&root);
    server.open("cron.xml");
    let _ = server.diagnostics("cron.xml");
    let hovers = json!({
        "function coord:current": hover(&mut server, COORDINATOR, "coord:current(-23)", 7),
        "variable nameNode": hover(&mut server, COORDINATOR, "${nameNode}/data/clicks", 4),
        "constant YEAR": hover(&mut server, COORDINATOR, "${YEAR}", 3),
        "dataset attribute": hover(&mut server, COORDINATOR, "dataset=\"clicks\"", 10),
        "included dataset": hover(&mut server, COORDINATOR, "dataset=\"user-table\"", 10),
        "data-in in coord:dataIn": hover(&mut server, COORDINATOR, "dataIn('input')", 9),
        "data-out name": hover(&mut server, COORDINATOR, "data-out name=\"report\"", 16),
        "frequency": hover(&mut server, COORDINATOR, "frequency=\"${coord:days(1)}\" start", 11),
        "frequency function": hover(&mut server, COORDINATOR, "coord:days(1)}\" start", 7),
        "cron frequency": hover(&mut server, "cron.xml", "0 8 * * MON-FRI", 2),
        "diagnostic TM005": hover(&mut server, COORDINATOR, "\"PST\"", 2),
    });
    insta::assert_json_snapshot!("hovers", hovers);
}

/// The labels offered at the end of `before` typed after `needle`'s first
/// match (the document is changed to have it), sorted.
fn complete(
    server: &mut TestServer,
    file: &str,
    version: i32,
    needle: &str,
    typed: &str,
) -> Vec<String> {
    let text = std::fs::read_to_string(server.path(file)).unwrap();
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle}")) + needle.len();
    let edited = format!("{}{typed}{}", &text[..at], &text[at..]);
    server.replace(file, version, &edited);
    let marker = format!("{needle}{typed}");
    let result = server.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": server.uri(file) }, "position": position(&edited, &marker, marker.len()) }),
    );
    let mut labels: Vec<String> = result["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect();
    labels.sort();
    labels
}

/// Completion offers what is legal where the cursor is.
#[test]
fn completion_offers_the_names_legal_at_the_cursor() {
    let root = workspace("lsp/app", "lsp-complete");
    let mut server = coordinator_server(&root);
    // In a range instance: coord: functions of that group.
    let range = complete(&mut server, COORDINATOR, 2, "<end-instance>${", "coord:");
    assert!(range.contains(&"coord:current".to_string()), "{range:?}");
    assert!(!range.contains(&"coord:dataIn".to_string()));
    // In a uri-template (resolved at submission): no coord:dataIn, no coord:current.
    let uri = complete(&mut server, COORDINATOR, 3, "/data/clicks/${", "");
    assert!(
        !uri.iter()
            .any(|l| l == "coord:dataIn" || l == "coord:current"),
        "{uri:?}"
    );
    assert!(
        uri.contains(&"YEAR".to_string()) && uri.contains(&"nameNode".to_string()),
        "{uri:?}"
    );
    // In the action's configuration: coord:dataIn, and its data-ins.
    let config = complete(
        &mut server,
        COORDINATOR,
        4,
        "<value>${coord:dataIn('input')}",
        "${coord:d",
    );
    assert!(
        config.contains(&"coord:dataIn".to_string())
            && config.contains(&"coord:dataOut".to_string()),
        "{config:?}"
    );
    let ins = complete(&mut server, COORDINATOR, 5, "<value>${coord:dataIn('", "");
    assert_eq!(ins, ["input", "users"]);
    let outs = complete(&mut server, COORDINATOR, 6, "<value>${coord:dataOut('", "");
    assert_eq!(outs, ["report"]);
    // dataset="…": the coordinator's and the included file's.
    let datasets = complete(
        &mut server,
        COORDINATOR,
        7,
        "<data-in name=\"input\" dataset=\"",
        "",
    );
    assert_eq!(datasets, ["clicks", "reports", "user-table"]);
    // Elements and attributes the schema allows.
    let elements = complete(&mut server, COORDINATOR, 8, "<input-events>\n", "    <");
    assert_eq!(elements, ["data-in"]);
    let attributes = complete(&mut server, COORDINATOR, 9, "<datasets>\n", "    <dataset ");
    assert_eq!(
        attributes,
        ["frequency", "initial-instance", "name", "timezone"]
    );
    server.read_published();
}

/// A workflow of three nodes (one action, a kill reading the action's
/// error code, the end), open in a server: the server and the text.
fn workflow_server(name: &str) -> (TestServer, &'static str) {
    let wf = "<workflow-app name=\"w\" xmlns=\"uri:oozie:workflow:0.5\">\n  <start to=\"first\"/>\n  <action name=\"first\">\n    <fs><mkdir path=\"/tmp/x\"/></fs>\n    <ok to=\"end\"/>\n    <error to=\"fail\"/>\n  </action>\n  <kill name=\"fail\"><message>${wf:errorMessage(wf:lastErrorNode())} in ${wf:errorCode('first')}</message></kill>\n  <end name=\"end\"/>\n</workflow-app>\n";
    let root = workspace("lsp/app", name);
    std::fs::write(root.join("workflow.xml"), wf).unwrap();
    let mut server = TestServer::start(&root, capabilities(&[], false), options());
    server.open("workflow.xml");
    let _ = server.diagnostics("workflow.xml");
    (server, wf)
}

/// In a workflow, `to="…"` offers the nodes.
#[test]
fn completion_of_workflow_nodes() {
    let (mut server, wf) = workflow_server("lsp-complete-wf");
    let text = wf.replace("<ok to=\"end\"/>", "<ok to=\"\"/>");
    server.replace("workflow.xml", 2, &text);
    let result = server.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": server.uri("workflow.xml") }, "position": position(&text, "<ok to=\"", 8) }),
    );
    let labels: Vec<&str> = result["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["end", "fail", "first"]);
    server.read_published();
}

/// Each location as `file:line:character` (UTF-16), sorted.
fn places(server: &TestServer, locations: &Value) -> Vec<String> {
    let root = common::lsp::uri(&server.root);
    let mut out: Vec<String> = locations
        .as_array()
        .unwrap_or(&Vec::new())
        .iter()
        .map(|l| {
            format!(
                "{}:{}:{}",
                l["uri"].as_str().unwrap().replace(&format!("{root}/"), ""),
                l["range"]["start"]["line"],
                l["range"]["start"]["character"]
            )
        })
        .collect();
    out.sort();
    out
}

fn at(server: &TestServer, file: &str, needle: &str, into: usize) -> Value {
    let text = std::fs::read_to_string(server.path(file)).unwrap();
    json!({ "textDocument": { "uri": server.uri(file) }, "position": position(&text, needle, into) })
}

/// Definition, references and rename of a dataset (across the included
/// file), a data-in, and a job property (into job.properties).
#[test]
fn definitions_references_and_renames() {
    let root = workspace("lsp/app", "lsp-navigate");
    let mut server = coordinator_server(&root);
    // A dataset defined in the included file.
    let p = at(&server, COORDINATOR, "dataset=\"user-table\"", 12);
    let definition = server.request("textDocument/definition", p);
    assert_eq!(places(&server, &definition), ["datasets.xml:1:17"]);
    // A data-in, from coord:dataIn('input').
    let p = at(&server, COORDINATOR, "dataIn('input')", 9);
    let definition = server.request("textDocument/definition", p.clone());
    assert_eq!(places(&server, &definition), ["coordinator.xml:10:19"]);
    let mut params = p;
    params["context"] = json!({ "includeDeclaration": true });
    let references = server.request("textDocument/references", params);
    assert_eq!(
        places(&server, &references),
        ["coordinator.xml:10:19", "coordinator.xml:29:33"]
    );
    // A job property: defined in job.properties, read in both XML files.
    let p = at(&server, COORDINATOR, "${nameNode}/data/clicks", 4);
    let definition = server.request("textDocument/definition", p.clone());
    assert_eq!(places(&server, &definition), ["job.properties:1:0"]);
    let mut params = p.clone();
    params["context"] = json!({ "includeDeclaration": false });
    let references = server.request("textDocument/references", params);
    assert_eq!(
        places(&server, &references),
        [
            "coordinator.xml:25:18",
            "coordinator.xml:6:22",
            "datasets.xml:2:20",
            "datasets.xml:5:20"
        ]
    );
    let mut params = p;
    params["newName"] = json!("nn");
    let rename = server.request("textDocument/rename", params);
    let edits: usize = rename["changes"]
        .as_object()
        .unwrap()
        .values()
        .map(|e| e.as_array().unwrap().len())
        .sum();
    assert_eq!(edits, 5);
    insta::assert_json_snapshot!("rename_job_property", server.redact(&rename));
    // A name that cannot be: refused.
    let mut params = at(&server, COORDINATOR, "dataset=\"clicks\"", 10);
    params["newName"] = json!("a\"b");
    assert!(
        server
            .request_raw("textDocument/rename", params)
            .response_result
            .is_err()
    );
}

/// Document symbols and the semantic tokens of the EL.
#[test]
fn symbols_and_semantic_tokens() {
    let root = workspace("lsp/app", "lsp-symbols");
    let mut server = coordinator_server(&root);
    let doc = json!({ "textDocument": { "uri": server.uri(COORDINATOR) } });
    let symbols = server.request("textDocument/documentSymbol", doc.clone());
    let names: Vec<(String, u64)> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["kind"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("clicks".to_string(), 23),
            ("input".into(), 24),
            ("users".into(), 24),
            ("report".into(), 24)
        ]
    );
    let tokens = server.request("textDocument/semanticTokens/full", doc);
    let data: Vec<u64> = tokens["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    // The first expression of the file, `${coord:days(1)}` on line 2:
    // `coord` (a namespace) then `days` (a function).
    assert_eq!(&data[..10], &[1, 49, 5, 0, 0, 0, 6, 4, 1, 0]);
}

/// The pipeline rules run across the workspace folder: two coordinators
/// that feed each other (corpus/invalid/PL001), one of them open, the
/// other only on disk.
#[test]
fn pipeline_rules_across_the_workspace() {
    let root = workspace("invalid/PL001", "lsp-pipeline");
    let mut server = TestServer::start(&root, capabilities(&[], false), options());
    server.open("clean.xml");
    let diagnostics = server.diagnostics("clean.xml");
    assert!(
        codes(&diagnostics).iter().any(|c| c.0 == "PL001"),
        "{diagnostics:#}"
    );
}

/// A file changed on disk (the editor's watcher says so) and a save are
/// checked again: the job.properties rewritten without `start`.
#[test]
fn files_changed_on_disk_and_saves() {
    let root = workspace("lsp/app", "lsp-disk");
    let mut server = TestServer::start(&root, capabilities(&[], false), options());
    server.open(COORDINATOR);
    let before = codes(&server.diagnostics(COORDINATOR));
    std::fs::write(server.path("job.properties"), "nameNode=hdfs://nn:8020\n").unwrap();
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": server.uri("job.properties"), "type": 2 }] }),
    );
    let after = codes(&server.diagnostics(COORDINATOR));
    assert_ne!(after, before);
    std::fs::write(
        server.path("job.properties"),
        "nameNode=hdfs://nn:8020\nstart=2024-01-01T00:00Z\n",
    )
    .unwrap();
    server.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": server.uri("job.properties") } }),
    );
    assert_eq!(codes(&server.diagnostics(COORDINATOR)), before);
    // Closing a document clears what the editor shows for it.
    server.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": server.uri(COORDINATOR) } }),
    );
    assert_eq!(server.diagnostics(COORDINATOR), json!([]));
}

/// In a workflow: a node's definition from `to=`, its references, and a
/// rename of all of them.
#[test]
fn workflow_nodes_are_navigated() {
    let (mut server, _) = workflow_server("lsp-nodes");
    let p = at(&server, "workflow.xml", "<start to=\"first", 13);
    let definition = server.request("textDocument/definition", p.clone());
    assert_eq!(places(&server, &definition), ["workflow.xml:2:16"]);
    let mut params = p;
    params["context"] = json!({ "includeDeclaration": true });
    let references = server.request("textDocument/references", params.clone());
    assert_eq!(
        places(&server, &references),
        [
            "workflow.xml:1:13",
            "workflow.xml:2:16",
            "workflow.xml:7:87"
        ]
    );
    params["newName"] = json!("prepare");
    let rename = server.request("textDocument/rename", params);
    assert_eq!(
        rename["changes"][server.uri("workflow.xml")]
            .as_array()
            .map(Vec::len),
        Some(3)
    );
}

/// A job.properties is a document of its own: a property that does not
/// parse is shown in it (CF001, Properties.load's malformed escape).
#[test]
fn job_properties_diagnostics() {
    let root = workspace("lsp/app", "lsp-properties");
    let mut server = TestServer::start(&root, capabilities(&[], false), options());
    server.open("job.properties");
    assert_eq!(server.diagnostics("job.properties"), json!([]));
    server.replace(
        "job.properties",
        2,
        "nameNode=hdfs://nn:8020\nstart=2024-01-01T00:00Z\nqueue=\\u00zz\n",
    );
    let shown = server.diagnostics("job.properties");
    assert_eq!(codes(&shown), [("CF001".to_string(), 2, 6)], "{shown:#}");
}

/// What is no name is not renamed: a number, an EL constant, a keyword.
#[test]
fn numbers_and_constants_are_not_renamed() {
    let root = workspace("lsp/app", "lsp-no-rename");
    let mut server = coordinator_server(&root);
    for (needle, into) in [("coord:days(1)", 11), ("${YEAR}", 3)] {
        let mut params = at(&server, COORDINATOR, needle, into);
        assert_eq!(
            server.request("textDocument/prepareRename", params.clone()),
            Value::Null
        );
        params["newName"] = json!("x");
        assert_eq!(
            server.request("textDocument/rename", params),
            Value::Null,
            "{needle}"
        );
    }
    let params = at(&server, COORDINATOR, "${nameNode}/data/clicks", 4);
    let prepared = server.request("textDocument/prepareRename", params);
    assert_eq!(prepared["placeholder"], "nameNode");
}

/// A namespace no schema has is an error shown (XML003); a document that
/// stops being an Oozie document has what it showed cleared.
#[test]
fn unknown_namespaces_are_shown_and_other_documents_cleared() {
    let root = workspace("lsp/app", "lsp-namespace");
    let mut server = TestServer::start(&root, capabilities(&[], false), options());
    server.open(COORDINATOR);
    assert!(
        !server
            .diagnostics(COORDINATOR)
            .as_array()
            .unwrap()
            .is_empty()
    );
    let text = std::fs::read_to_string(server.path(COORDINATOR)).unwrap();
    server.replace(
        COORDINATOR,
        2,
        &text.replace("coordinator:0.4", "coordinator:0.9"),
    );
    let shown = server.diagnostics(COORDINATOR);
    assert_eq!(
        codes(&shown).first().map(|c| c.0.as_str()),
        Some("XML003"),
        "{shown:#}"
    );
    server.replace(
        COORDINATOR,
        3,
        "<project><modelVersion>4.0.0</modelVersion></project>\n",
    );
    assert_eq!(server.diagnostics(COORDINATOR), json!([]));
}

/// A coordc.toml is read as the check reads it, and a change to it checks
/// again; a wrong one is said (`window/showMessage`).
#[test]
fn coordc_toml_changes_are_checked() {
    let root = workspace("lsp/app", "lsp-settings");
    let mut server = TestServer::start(&root, capabilities(&[], false), options());
    server.open(COORDINATOR);
    assert!(
        codes(&server.diagnostics(COORDINATOR))
            .iter()
            .any(|c| c.0 == "TM005")
    );
    server.open_text("coordc.toml", "[rules]\nTM005 = \"off\"\n");
    assert!(
        !codes(&server.diagnostics(COORDINATOR))
            .iter()
            .any(|c| c.0 == "TM005")
    );
    server.replace("coordc.toml", 2, "processing-timezone = \"Mars/Olympus\"\n");
    let said = server.next_notification();
    assert_eq!(said.method, "window/showMessage");
    assert!(
        said.params["message"]
            .as_str()
            .unwrap()
            .contains("Mars/Olympus"),
        "{}",
        said.params
    );
    server.read_published();
}

/// An include that is not there yet, then created: checked again.
#[test]
fn an_include_created_later_is_read() {
    let root = workspace("lsp/app", "lsp-include-later");
    let datasets = std::fs::read_to_string(root.join("datasets.xml")).unwrap();
    std::fs::remove_file(root.join("datasets.xml")).unwrap();
    let mut server = TestServer::start(&root, capabilities(&[], false), options());
    server.open(COORDINATOR);
    let missing = codes(&server.diagnostics(COORDINATOR));
    assert!(missing.iter().any(|c| c.0 == "CO001"), "{missing:?}");
    std::fs::write(root.join("datasets.xml"), datasets).unwrap();
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": server.uri("datasets.xml"), "type": 1 }] }),
    );
    let found = codes(&server.diagnostics(COORDINATOR));
    assert!(!found.iter().any(|c| c.0 == "CO001"), "{found:?}");
}

/// Navigation across the files that share an include, into property
/// values, not into comments; a workflow's `<parameters>` define a name.
#[test]
fn navigation_across_shared_files_values_and_parameters() {
    let root = workspace("lsp/app", "lsp-shared");
    std::fs::create_dir_all(root.join("second")).unwrap();
    let second = std::fs::read_to_string(root.join("coordinator.xml"))
        .unwrap()
        .replace(
            "<include>datasets.xml</include>",
            "<include>../datasets.xml</include>",
        )
        .replace("<!-- Rapport", "<!-- ${nameNode} Rapport");
    std::fs::write(root.join("second/coordinator.xml"), second).unwrap();
    std::fs::write(
        root.join("second/job.properties"),
        "nameNode=hdfs://nn:8020\nstart=2024-01-01T00:00Z\nout=${nameNode}/out\n",
    )
    .unwrap();
    let mut server = coordinator_server(&root);
    let mut params = at(&server, COORDINATOR, "dataset=\"user-table\"", 12);
    params["context"] = json!({ "includeDeclaration": true });
    let references = server.request("textDocument/references", params);
    assert_eq!(
        places(&server, &references),
        [
            "coordinator.xml:14:35",
            "datasets.xml:1:17",
            "second/coordinator.xml:14:35"
        ]
    );
    server.open("second/coordinator.xml");
    let _ = server.diagnostics("second/coordinator.xml");
    let mut params = at(&server, "second/coordinator.xml", "${nameNode}/apps", 4);
    params["context"] = json!({ "includeDeclaration": true });
    let found = server.request("textDocument/references", params);
    let references = places(&server, &found);
    assert!(
        references.contains(&"second/job.properties:2:6".to_string()),
        "{references:?}"
    );
    assert!(
        !references
            .iter()
            .any(|r| r.starts_with("second/coordinator.xml:0:")),
        "{references:?}"
    );
    let wf = "<workflow-app name=\"w\" xmlns=\"uri:oozie:workflow:0.5\">\n  <parameters><property><name>inputDir</name></property></parameters>\n  <start to=\"end\"/>\n  <end name=\"end\"/>\n</workflow-app>\n<!-- ${inputDir} -->\n";
    std::fs::write(root.join("workflow.xml"), wf).unwrap();
    server.open("workflow.xml");
    let _ = server.diagnostics("workflow.xml");
    let p = at(&server, "workflow.xml", "inputDir</name>", 2);
    let mut params = p.clone();
    params["context"] = json!({ "includeDeclaration": true });
    let found = server.request("textDocument/references", params);
    assert_eq!(places(&server, &found), ["workflow.xml:1:30"]);
}

/// In `<input-logic>`, a data-in's `dataset` names a data-in; names in
/// comments are not offered.
#[test]
fn completion_in_input_logic_and_not_from_comments() {
    let root = workspace("lsp/app", "lsp-logic");
    let mut server = coordinator_server(&root);
    let text = std::fs::read_to_string(server.path(COORDINATOR)).unwrap().replace(
        "</input-events>",
        "</input-events>\n  <!-- <data-in name=\"old\" dataset=\"clicks\"/> -->\n  <input-logic><data-in dataset=\"\"/></input-logic>",
    );
    server.replace(COORDINATOR, 2, &text);
    let result = server.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": server.uri(COORDINATOR) }, "position": position(&text, "<input-logic><data-in dataset=\"", 31) }),
    );
    let labels: Vec<&str> = result["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["input", "users"]);
    server.read_published();
}

/// A client that pulls and can be told to refresh is told, when a change
/// to one file changes an open document's diagnostics.
#[test]
fn pulling_clients_are_told_to_refresh() {
    let root = workspace("lsp/app", "lsp-refresh");
    let mut caps = capabilities(&["utf-8"], true);
    caps["workspace"] = json!({ "diagnostics": { "refreshSupport": true } });
    let mut server = TestServer::start(&root, caps, options());
    server.open(COORDINATOR);
    server.open("job.properties");
    server.replace("job.properties", 2, "nameNode=hdfs://nn:8020\n");
    let _ = server.request_raw("coordc/ping", json!({}));
    assert!(
        server
            .server_requests
            .iter()
            .any(|r| r.method == "workspace/diagnostic/refresh"),
        "{:?}",
        server.server_requests
    );
    server.server_requests.clear();
}

/// A coordc.toml's server profile (docs/servers.md) applies in the editor as
/// in `coordc check`: SV001 with its fix as a code action, gone when the
/// file names a server that has the schema.
#[test]
fn the_server_profile_of_coordc_toml_applies() {
    const WORKFLOW: &str = "workflow.xml";
    let root = workspace("invalid/SV001", "lsp-server-profile");
    let mut server = TestServer::start(&root, capabilities(&[], false), options());
    server.open(WORKFLOW);
    assert_eq!(
        codes(&server.diagnostics(WORKFLOW)),
        [("SV001".to_string(), 0, 1)]
    );
    let actions = server.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": server.uri(WORKFLOW) },
            "range": { "start": { "line": 0, "character": 1 }, "end": { "line": 0, "character": 1 } },
            "context": { "diagnostics": [] },
        }),
    );
    let edit = &actions[0]["edit"]["changes"][server.uri(WORKFLOW)][0];
    assert_eq!(edit["newText"], "uri:oozie:workflow:0.5", "{actions:#}");
    server.open_text("coordc.toml", "server = \"oozie-5.2\"\n");
    assert_eq!(codes(&server.diagnostics(WORKFLOW)), []);
}
