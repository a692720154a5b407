//! `coordc lsp` on input no editor should send but some will: random bytes
//! as a document, requests at positions past its end, a 50 MB document and
//! a burst of 1,000 edits. Every request is answered (none by a panic
//! caught: an internal error), the server stays up and its memory bounded.

use crate::common;

use common::lsp::{TestServer, capabilities, workspace};
use common::rng::Rng;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

/// The requests an editor sends about a place in a document.
const AT_A_POSITION: &[&str] = &[
    "textDocument/hover",
    "textDocument/completion",
    "textDocument/definition",
    "textDocument/references",
    "textDocument/rename",
];

/// Sends every kind of request at `position` of `file`: each is answered,
/// and none with an internal error (a panic caught).
fn ask_everything(server: &mut TestServer, file: &str, position: Value) {
    let document = json!({ "uri": server.uri(file) });
    for method in AT_A_POSITION {
        let params = json!({
            "textDocument": document, "position": position,
            "newName": "renamed", "context": { "includeDeclaration": true },
        });
        let response = server.request_raw(method, params);
        if let Err(e) = &response.response_result {
            assert_ne!(
                e.code,
                lsp_server::ErrorCode::InternalError as i32,
                "{method}: {e:?}"
            );
        }
    }
    for method in [
        "textDocument/documentSymbol",
        "textDocument/semanticTokens/full",
        "textDocument/diagnostic",
    ] {
        let response = server.request_raw(method, json!({ "textDocument": document }));
        assert!(response.response_result.is_ok(), "{method}: {response:?}");
    }
    let response = server.request_raw(
        "textDocument/codeAction",
        json!({ "textDocument": document, "range": { "start": position, "end": position }, "context": { "diagnostics": [] } }),
    );
    assert!(response.response_result.is_ok(), "{response:?}");
}

/// Random bytes (as text: a client sends a string) in an `.xml` and a
/// `.properties` document, and random positions, some past the end.
#[test]
fn random_documents_and_positions_are_answered() {
    let root = workspace("lsp/app", "lsp-random");
    let mut server = TestServer::start(&root, capabilities(&["utf-8"], false), json!({}));
    let mut rng = Rng::new(22);
    let alphabet: Vec<char> = "<>/=\"'${}():, \n\tabcxyz-_.é😀&;![]?#0123"
        .chars()
        .collect();
    for round in 0..40 {
        let file = if round % 4 == 3 {
            "random.properties"
        } else {
            "random.xml"
        };
        let len = rng.below(2_000) as usize;
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
            .collect();
        if round < 2 {
            server.open_text(file, &text);
        } else {
            server.replace(file, round + 1, &text);
        }
        for _ in 0..5 {
            let position = json!({ "line": rng.below(60), "character": rng.below(300) });
            ask_everything(&mut server, file, position);
        }
        ask_everything(
            &mut server,
            file,
            json!({ "line": u32::MAX, "character": u32::MAX }),
        );
    }
    server.read_published();
}

/// The cases the review found: a name cut inside a character, before the
/// fix a panic answered as an internal error.
#[test]
fn names_next_to_multibyte_characters() {
    let root = workspace("lsp/app", "lsp-multibyte");
    let mut server = TestServer::start(&root, capabilities(&[], false), json!({}));
    let cases = [
        "<coordinator-app\u{a0}name=\"x\"><a b=\"${c}\"/>",
        "<coordinator-app frequency=\"${éwf}\"/>",
        "<coordinator-app frequency=\"${é('ab')} ${1+é('ab')}\"/>",
    ];
    for (n, text) in cases.iter().enumerate() {
        let file = format!("case{n}.xml");
        server.open_text(&file, text);
        let line: Vec<char> = text.chars().collect();
        for character in 0..=line.len() as u64 + 1 {
            ask_everything(
                &mut server,
                &file,
                json!({ "line": 0, "character": character }),
            );
        }
    }
    server.read_published();
}

/// `exit` before `shutdown`: the process ends with 1, as the protocol says.
#[test]
fn exit_before_shutdown_is_exit_code_1() {
    let (mut child, mut stdin, messages) = spawn_server();
    send(
        &mut stdin,
        &json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }),
    );
    let _ = response(&messages, 1);
    send(
        &mut stdin,
        &json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }),
    );
    send(&mut stdin, &json!({ "jsonrpc": "2.0", "method": "exit" }));
    let status = child.wait().expect("the server exits");
    assert_eq!(status.code(), Some(1));
}

/// A message over stdin, as an editor frames it.
fn send(stdin: &mut impl Write, message: &Value) {
    let body = message.to_string();
    write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("the server reads");
}

/// `coordc lsp` started: the process, its stdin, and its messages.
fn spawn_server() -> (
    std::process::Child,
    std::process::ChildStdin,
    std::sync::mpsc::Receiver<Value>,
) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_coordc"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("coordc lsp starts");
    let stdin = child.stdin.take().expect("stdin");
    let messages = read_messages(child.stdout.take().expect("stdout"));
    (child, stdin, messages)
}

/// The server's messages, read from its stdout on a thread.
fn read_messages(stdout: impl Read + Send + 'static) -> std::sync::mpsc::Receiver<Value> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            if sender
                .send(serde_json::from_slice(&body).unwrap_or_default())
                .is_err()
            {
                return;
            }
        }
    });
    receiver
}

/// The response to request `id`, skipping notifications.
fn response(messages: &std::sync::mpsc::Receiver<Value>, id: i64) -> Value {
    loop {
        let message = messages
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("an answer");
        if message["id"] == id {
            return message;
        }
    }
}

/// The peak resident memory of process `pid`, in MB (Linux's VmHWM).
fn peak_mb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

/// The real binary over stdio: a 50 MB document (refused with a
/// diagnostic, over the 16 MB coordc reads, yet answered), then 1,000 edits
/// sent at once to a 2,000-line workflow; the last edit is what is checked,
/// and the process stays under 512 MB.
#[test]
fn a_huge_document_and_a_burst_of_edits() {
    let root = workspace("lsp/app", "lsp-huge");
    let (mut child, mut stdin, messages) = spawn_server();
    let uri = |file: &str| common::lsp::uri(&root.join(file));
    send(
        &mut stdin,
        &json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "capabilities": {}, "rootUri": common::lsp::uri(&root) } }),
    );
    assert!(response(&messages, 1)["result"]["capabilities"].is_object());
    send(
        &mut stdin,
        &json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }),
    );

    let huge = format!(
        "<workflow-app name=\"w\">\n<!--{}-->\n</workflow-app>\n",
        "x".repeat(50 << 20)
    );
    send(
        &mut stdin,
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": { "uri": uri("huge.xml"), "languageId": "xml", "version": 1, "text": huge } } }),
    );
    drop(huge);
    send(
        &mut stdin,
        &json!({ "jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
        "textDocument": { "uri": uri("huge.xml") }, "position": { "line": 1, "character": 40_000_000 } } }),
    );
    assert!(response(&messages, 2).get("result").is_some());
    send(
        &mut stdin,
        &json!({ "jsonrpc": "2.0", "id": 3, "method": "textDocument/diagnostic", "params": {
        "textDocument": { "uri": uri("huge.xml") } } }),
    );
    let items = response(&messages, 3)["result"]["items"].clone();
    assert!(
        items[0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("at most 16777216 bytes"),
        "{items}"
    );

    // 1,000 edits at once: each puts a digit in the first transition's node
    // name; the last (`a9`... `a0`-free) leaves an unknown node.
    let mut text = String::from(
        "<workflow-app name=\"w\" xmlns=\"uri:oozie:workflow:0.5\">\n  <start to=\"a0\"/>\n",
    );
    for i in 0..200 {
        text.push_str(&format!(
            "  <action name=\"a{i}\">\n    <fs>\n      <mkdir path=\"/tmp/{i}\"/>\n      <delete path=\"/tmp/{i}/old\"/>\n      <move source=\"/in/{i}\" target=\"/out/{i}\"/>\n      <chmod path=\"/out/{i}\" permissions=\"755\"/>\n    </fs>\n    <ok to=\"{}\"/>\n    <error to=\"fail\"/>\n  </action>\n",
            if i == 199 { "end".to_string() } else { format!("a{}", i + 1) }
        ));
    }
    text.push_str("  <kill name=\"fail\"><message>failed</message></kill>\n  <end name=\"end\"/>\n</workflow-app>\n");
    send(
        &mut stdin,
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": { "uri": uri("long.xml"), "languageId": "xml", "version": 1, "text": text } } }),
    );
    let line = 1;
    let character = "  <start to=\"a".len();
    let started = std::time::Instant::now();
    for version in 2..1_002 {
        let digit = if version == 1_001 {
            "Q".to_string()
        } else {
            (version % 10).to_string()
        };
        send(
            &mut stdin,
            &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": { "uri": uri("long.xml"), "version": version },
            "contentChanges": [{ "range": {
                "start": { "line": line, "character": character },
                "end": { "line": line, "character": character + 1 } }, "text": digit }] } }),
        );
    }
    send(
        &mut stdin,
        &json!({ "jsonrpc": "2.0", "id": 4, "method": "textDocument/diagnostic", "params": {
        "textDocument": { "uri": uri("long.xml") } } }),
    );
    let items = response(&messages, 4)["result"]["items"].clone();
    let elapsed = started.elapsed();
    assert!(
        items
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["message"].as_str().unwrap_or("").contains("`aQ`")),
        "{items:#}"
    );
    // (A debug build, on a machine as loaded as `cargo test` makes it: the
    // bound is for a server that would check each edit on its own, which
    // takes many minutes.)
    assert!(elapsed.as_secs() < 180, "1,000 edits took {elapsed:?}");
    let peak = peak_mb(child.id());
    eprintln!("1,000 edits answered in {elapsed:?}; peak resident memory {peak} MB");
    send(
        &mut stdin,
        &json!({ "jsonrpc": "2.0", "id": 5, "method": "shutdown" }),
    );
    let _ = response(&messages, 5);
    send(&mut stdin, &json!({ "jsonrpc": "2.0", "method": "exit" }));
    let status = child.wait().expect("the server exits");
    assert!(status.success(), "{status}");
    assert!(peak > 0 && peak < 512, "peak resident memory {peak} MB");
}

/// Every place of real documents: each corpus coordinator, workflow, bundle
/// and datasets file opened, and hover, completion and definition asked at
/// every 11th byte of each line, none answered by
/// an internal error.
#[test]
fn every_place_of_the_corpus_documents_is_answered() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files = Vec::new();
    for dir in ["coord", "wf", "bundle", "datasets"] {
        collect_xml(&corpus.join(dir), &mut files);
    }
    files.sort();
    assert!(files.len() > 50, "{} files", files.len());
    let root = workspace("lsp/app", "lsp-corpus-places");
    let mut server = TestServer::start(&root, capabilities(&["utf-8"], false), json!({}));
    for (n, file) in files.iter().enumerate() {
        let text = std::fs::read_to_string(file).unwrap();
        let name = format!("doc{n}.xml");
        server.open_text(&name, &text);
        let document = json!({ "uri": server.uri(&name) });
        for (line, content) in text.lines().enumerate() {
            for character in (0..=content.len()).step_by(11) {
                let position = json!({ "line": line, "character": character });
                for method in [
                    "textDocument/hover",
                    "textDocument/completion",
                    "textDocument/definition",
                ] {
                    let params = json!({ "textDocument": document, "position": position });
                    let response = server.request_raw(method, params);
                    if let Err(e) = &response.response_result {
                        panic!("{method} at {}:{line}:{character}: {e:?}", file.display());
                    }
                }
            }
        }
        server.notify("textDocument/didClose", json!({ "textDocument": document }));
    }
    server.read_published();
}

fn collect_xml(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_xml(&path, files);
        } else if path.extension().is_some_and(|e| e == "xml") {
            files.push(path);
        }
    }
}
