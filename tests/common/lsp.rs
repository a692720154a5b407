//! An editor in the test process: coordc's language server runs on a thread
//! over `lsp_server::Connection::memory()` (ruff's `TestServer` pattern), the
//! test sends what a client sends and reads every message back. Dropping it
//! shuts the server down, and fails if a message was never read.

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

pub struct TestServer {
    client: Connection,
    thread: Option<std::thread::JoinHandle<Result<(), String>>>,
    next_id: i32,
    /// Notifications read while waiting for a response.
    pending: VecDeque<Notification>,
    /// Requests the server sent (`workspace/diagnostic/refresh`).
    pub server_requests: Vec<Request>,
    pub root: PathBuf,
    /// Whether the test ended the session itself.
    ended: bool,
}

/// The capabilities of a client that offers `encodings` (none: UTF-16 only,
/// as Neovim 0.7 and eglot), and pull diagnostics if `pulls`.
pub fn capabilities(encodings: &[&str], pulls: bool) -> Value {
    let mut caps = json!({
        "general": { "positionEncodings": encodings },
        "textDocument": { "publishDiagnostics": { "relatedInformation": true } },
    });
    if encodings.is_empty() {
        caps["general"] = json!({});
    }
    if pulls {
        caps["textDocument"]["diagnostic"] = json!({ "dynamicRegistration": false });
    }
    caps
}

/// A copy of `corpus/DIR` in a fresh folder: the tests edit and save files.
pub fn workspace(corpus_dir: &str, name: &str) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(corpus_dir);
    let to = super::fresh_dir(name);
    copy(&from, &to);
    to.canonicalize().expect("the folder exists")
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("a corpus folder") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a copy");
        }
    }
}

pub fn uri(path: &Path) -> String {
    url::Url::from_file_path(path)
        .expect("an absolute path")
        .to_string()
}

impl TestServer {
    /// A server for the workspace folder `root`, initialized by a client
    /// with `capabilities` and `options` (`initializationOptions`).
    pub fn start(root: &Path, capabilities: Value, options: Value) -> TestServer {
        let (server, client) = Connection::memory();
        let thread = std::thread::spawn(move || coordc::lsp::run(&server));
        let mut test = TestServer {
            client,
            thread: Some(thread),
            next_id: 0,
            pending: VecDeque::new(),
            server_requests: Vec::new(),
            root: root.to_path_buf(),
            ended: false,
        };
        let result = test.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "workspaceFolders": [{ "uri": uri(root), "name": "workspace" }],
                "capabilities": capabilities,
                "initializationOptions": options,
            }),
        );
        assert!(
            result["capabilities"]["textDocumentSync"].is_object(),
            "{result}"
        );
        test.notify("initialized", json!({}));
        test
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    pub fn uri(&self, relative: &str) -> String {
        uri(&self.path(relative))
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.client
            .sender
            .send(Notification::new(method.into(), params).into())
            .expect("the server reads");
    }

    /// Sends a request; its result (an error fails the test).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        match self.request_raw(method, params).response_result {
            Ok(result) => result,
            Err(e) => panic!("{method} failed: {e:?}"),
        }
    }

    /// Sends a request; its response, error or not.
    pub fn request_raw(&mut self, method: &str, params: Value) -> Response {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.client
            .sender
            .send(Request::new(id.clone(), method.into(), params).into())
            .expect("the server reads");
        loop {
            match self.client.receiver.recv_timeout(WAIT) {
                Ok(Message::Response(r)) if r.id == id => return r,
                Ok(Message::Notification(n)) => self.pending.push_back(n),
                Ok(Message::Request(r)) => self.server_requests.push(r),
                Ok(other) => panic!("unexpected message: {other:?}"),
                Err(e) => panic!("no response to {method}: {e}"),
            }
        }
    }

    /// Opens the workspace file `relative` with its text on disk.
    pub fn open(&self, relative: &str) {
        let text = std::fs::read_to_string(self.path(relative)).expect("the file");
        self.open_text(relative, &text);
    }

    pub fn open_text(&self, relative: &str, text: &str) {
        let language = if relative.ends_with(".xml") {
            "xml"
        } else {
            "properties"
        };
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": {
                "uri": self.uri(relative), "languageId": language, "version": 1, "text": text,
            }}),
        );
    }

    /// Replaces the whole text of the open document `relative`.
    pub fn replace(&self, relative: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": self.uri(relative), "version": version },
                "contentChanges": [{ "text": text }],
            }),
        );
    }

    /// The next notification (read before, or now).
    pub fn next_notification(&mut self) -> Notification {
        if let Some(n) = self.pending.pop_front() {
            return n;
        }
        match self.client.receiver.recv_timeout(WAIT) {
            Ok(Message::Notification(n)) => n,
            Ok(other) => panic!("unexpected message: {other:?}"),
            Err(e) => panic!("no notification: {e}"),
        }
    }

    /// The diagnostics published next for `relative` (others published
    /// meanwhile are skipped).
    pub fn diagnostics(&mut self, relative: &str) -> Value {
        let uri = self.uri(relative);
        loop {
            let n = self.next_notification();
            if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri.as_str() {
                return n.params["diagnostics"].clone();
            }
        }
    }

    /// Reads the diagnostics published so far (the test has no use for them).
    pub fn read_published(&mut self) {
        let _ = self.request_raw("coordc/ping", json!({}));
        self.pending
            .retain(|n| n.method != "textDocument/publishDiagnostics");
    }

    /// Whether a notification is waiting, after the server answered a
    /// request sent after everything else (it checks before answering, and
    /// publishes after).
    pub fn nothing_published(&mut self) -> bool {
        let _ = self.request_raw("coordc/ping", json!({}));
        std::thread::sleep(Duration::from_millis(50));
        self.pending.is_empty() && self.client.receiver.is_empty()
    }

    /// Shuts down (`shutdown`, `exit`); the server's own result.
    pub fn shutdown(mut self) -> Result<(), String> {
        self.ended = true;
        let result = self.request_raw("shutdown", Value::Null);
        assert_eq!(result.response_result.ok(), Some(Value::Null));
        self.notify("exit", Value::Null);
        self.thread
            .take()
            .expect("running")
            .join()
            .expect("no panic")
    }

    /// `text` with the workspace's path and URI written as `<root>`.
    pub fn redact(&self, value: &Value) -> Value {
        let text = value.to_string();
        let text = text
            .replace(&uri(&self.root), "file://<root>")
            .replace(&self.root.display().to_string(), "<root>");
        serde_json::from_str(&text).expect("JSON")
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if self.ended || std::thread::panicking() {
            return;
        }
        let _ = self.request_raw("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        if let Some(thread) = self.thread.take() {
            let ended = thread.join();
            assert!(
                matches!(ended, Ok(Ok(()))),
                "the server ended with {ended:?}"
            );
        }
        let unread: Vec<String> = self
            .pending
            .iter()
            .map(|n| format!("{} {}", n.method, n.params))
            .chain(self.client.receiver.try_iter().map(|m| format!("{m:?}")))
            .collect();
        assert!(unread.is_empty(), "messages never read: {unread:#?}");
    }
}
