//! The language server (issue 22): the diagnostics of a 2,000-line workflow
//! after a one-character edit (target ≤ 20 ms), and a workspace of 1,000
//! applications indexed at start (target ≤ 1 s). The server runs in process
//! over `lsp_server::Connection::memory()`, as the editor tests drive it.
//! docs/performance.md ("Language server") keeps the figures.

use criterion::{Criterion, criterion_group, criterion_main};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

// The allocator the `coordc` binary uses (src/main.rs).
#[global_allocator]
static GLOBAL: coordc::alloc::MiMalloc = coordc::alloc::MiMalloc;

/// A workflow of `actions` shell actions, 10 lines each, in a chain.
fn workflow(actions: usize) -> String {
    let mut out = String::from(
        "<workflow-app name=\"long\" xmlns=\"uri:oozie:workflow:0.5\">\n  <start to=\"a0\"/>\n",
    );
    for i in 0..actions {
        let next = if i + 1 == actions {
            "end".to_string()
        } else {
            format!("a{}", i + 1)
        };
        write!(
            out,
            "  <action name=\"a{i}\">\n    <fs>\n      <mkdir path=\"${{nameNode}}/tmp/{i}\"/>\n      <delete path=\"${{nameNode}}/tmp/{i}/old\"/>\n      <move source=\"${{nameNode}}/in/{i}\" target=\"/out/{i}\"/>\n      <chmod path=\"${{nameNode}}/out/{i}\" permissions=\"755\"/>\n    </fs>\n    <ok to=\"{next}\"/>\n    <error to=\"fail\"/>\n  </action>\n"
        )
        .unwrap();
    }
    out.push_str("  <kill name=\"fail\"><message>failed</message></kill>\n  <end name=\"end\"/>\n</workflow-app>\n");
    out
}

struct Client {
    connection: Connection,
    thread: Option<std::thread::JoinHandle<Result<(), String>>>,
    next: i32,
}

impl Client {
    fn start(root: &Path) -> Client {
        let (server, connection) = Connection::memory();
        let thread = std::thread::spawn(move || coordc::lsp::run(&server));
        let mut client = Client {
            connection,
            thread: Some(thread),
            next: 0,
        };
        let uri = url::Url::from_file_path(root).unwrap().to_string();
        client.request(
            "initialize",
            json!({ "capabilities": {}, "rootUri": uri, "workspaceFolders": [{ "uri": uri, "name": "w" }] }),
        );
        client.notify("initialized", json!({}));
        // (Answered once the workspace is indexed.)
        let _ = client.request("coordc/ping", json!({}));
        client
    }

    fn notify(&self, method: &str, params: Value) {
        let _ = self
            .connection
            .sender
            .send(Notification::new(method.into(), params).into());
    }

    /// Sends a request; its result.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = RequestId::from(self.next);
        let _ = self
            .connection
            .sender
            .send(Request::new(id.clone(), method.into(), params).into());
        while let Ok(message) = self.connection.receiver.recv() {
            if let Message::Response(r) = message
                && r.id == id
            {
                return r.response_result.unwrap_or_default();
            }
        }
        Value::Null
    }

    fn wait_published(&self) -> Value {
        loop {
            match self
                .connection
                .receiver
                .recv_timeout(Duration::from_secs(30))
            {
                Ok(Message::Notification(n)) if n.method == "textDocument/publishDiagnostics" => {
                    return n.params;
                }
                Ok(_) => {}
                Err(e) => panic!("no diagnostics: {e}"),
            }
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn fresh(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("coordc-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn edit_latency(c: &mut Criterion) {
    let root = fresh("lsp-edit");
    let text = workflow(200);
    assert!(text.lines().count() >= 2_000);
    let path = root.join("workflow.xml");
    std::fs::write(&path, &text).unwrap();
    std::fs::write(root.join("job.properties"), "nameNode=hdfs://nn:8020\n").unwrap();
    let client = Client::start(&root);
    let uri = url::Url::from_file_path(&path).unwrap().to_string();
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "xml", "version": 1, "text": text } }),
    );
    client.wait_published();
    // One character: `a1` → `aZ` in the first transition (a node that does
    // not exist: an error, and the rest unreachable), then back.
    let line = text
        .lines()
        .position(|l| l.contains("<ok to=\"a1\"/>"))
        .unwrap();
    let character = text.lines().nth(line).unwrap().find("a1").unwrap() + 1;
    let mut version = 1;
    let mut toggle = false;
    c.bench_function("lsp: diagnostics of a 2,000-line workflow after a one-character edit", |b| {
        b.iter(|| {
            version += 1;
            toggle = !toggle;
            client.notify(
                "textDocument/didChange",
                json!({
                    "textDocument": { "uri": uri, "version": version },
                    "contentChanges": [{
                        "range": { "start": { "line": line, "character": character }, "end": { "line": line, "character": character + 1 } },
                        "text": if toggle { "Z" } else { "1" },
                    }],
                }),
            );
            client.wait_published()
        })
    });
    drop(client);
    let _ = std::fs::remove_dir_all(&root);
}

fn workspace_index(c: &mut Criterion) {
    let root = fresh("lsp-index");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/lsp/app");
    for i in 0..1_000 {
        let dir = root.join(format!("app{i:04}"));
        std::fs::create_dir_all(&dir).unwrap();
        for file in ["coordinator.xml", "datasets.xml", "job.properties"] {
            std::fs::copy(corpus.join(file), dir.join(file)).unwrap();
        }
    }
    // The index is real: a property of one application's job.properties is
    // found where its coordinator and the included file read it.
    let mut client = Client::start(&root);
    let properties = root.join("app0999/job.properties");
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": {
            "uri": url::Url::from_file_path(&properties).unwrap().to_string(),
            "languageId": "properties", "version": 1,
            "text": std::fs::read_to_string(&properties).unwrap(),
        }}),
    );
    let references = client.request(
        "textDocument/references",
        json!({
            "textDocument": { "uri": url::Url::from_file_path(&properties).unwrap().to_string() },
            "position": { "line": 1, "character": 2 },
            "context": { "includeDeclaration": true },
        }),
    );
    assert_eq!(references.as_array().map(Vec::len), Some(5), "{references}");
    drop(client);
    let mut group = c.benchmark_group("lsp");
    group.sample_size(10);
    group.bench_function("index a workspace of 1,000 applications", |b| {
        b.iter(|| Client::start(&root))
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&root);
}

criterion_group!(benches, edit_latency, workspace_index);
criterion_main!(benches);
