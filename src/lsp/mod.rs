//! `coordc lsp`: the checker inside editors, a language server over stdio.
//!
//! Synchronous, one message at a time, in arrival order (lsp-server, as ruff
//! and rust-analyzer use it): a check is fast, CPU-bound work, and a single
//! loop can never see an edit out of order. Edits only mark files changed;
//! the check runs once the messages waiting are read (so a burst of
//! keystrokes is checked once), or before a request that needs it.
//!
//! The session (`session.rs`) keeps every application of the workspace
//! checked, per application, with the files it read; `diagnostics.rs` turns
//! problems into LSP diagnostics, and each other module answers one kind of
//! request; `proto.rs` builds every value sent in the protocol's shape.

mod actions;
mod completion;
mod cursor;
mod diagnostics;
mod hover;
mod job;
mod navigate;
mod proto;
mod session;
mod symbols;
pub(crate) mod text;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use serde_json::Value;
use session::{Document, Session};
use std::path::PathBuf;
use std::sync::Arc;
use text::{Encoding, Position};

/// How long the server waits after an edit for the next one before it
/// checks (keystrokes come tens of milliseconds apart; a paste or an
/// editor's burst of changes, closer).
const QUIET: std::time::Duration = std::time::Duration::from_millis(3);

/// Runs the server on stdin and stdout until the client exits (or closes
/// stdin); the process's exit code.
pub(crate) fn serve_stdio() -> i32 {
    let (connection, threads) = Connection::stdio();
    let result = run(&connection);
    drop(connection);
    // (The writer ends once the connection is dropped; the reader has ended
    // with stdin.)
    let joined = threads.join();
    match (result, joined) {
        (Ok(()), Ok(())) => 0,
        (Err(e), _) => {
            eprintln!("coordc lsp: {e}");
            1
        }
        // (What the client sent could not be read as messages.)
        (Ok(()), Err(e)) => {
            eprintln!("coordc lsp: reading the client's messages: {e}");
            1
        }
    }
}

/// Serves `connection`: the initialize handshake, then every message until
/// `exit` or the end of the input.
pub fn run(connection: &Connection) -> Result<(), String> {
    // (A client gone before the session began is no error: there is no
    // one to serve.)
    let (id, params) = match connection.initialize_start() {
        Ok(start) => start,
        Err(e) if e.channel_is_disconnected() => return Ok(()),
        Err(e) => return Err(format!("no initialize request: {e}")),
    };
    let client = Client::read(&params);
    // The whole InitializeResult: `Connection::initialize` would wrap it in
    // `capabilities` again, and Neovim ignores such a reply.
    let finished = connection.initialize_finish(
        id,
        proto::initialize_result(client.encoding.name(), client.pulls, symbols::TOKEN_TYPES),
    );
    match finished {
        Ok(()) => {}
        Err(e) if e.channel_is_disconnected() => return Ok(()),
        Err(e) => return Err(format!("initialize: {e}")),
    }
    let mut server = Server {
        connection,
        session: Session::new(client.encoding, client.roots.clone()),
        client,
        shutdown: false,
        published: std::collections::HashMap::new(),
        refreshes: 0,
    };
    server.session.index();
    server.tell_messages();
    server.serve()
}

/// What the client said about itself at `initialize`.
struct Client {
    encoding: Encoding,
    roots: Vec<PathBuf>,
    /// Whether it asks for diagnostics (`textDocument/diagnostic`); it is
    /// then answered, and not sent them.
    pulls: bool,
    /// `initializationOptions.rulesUrl`: where rule pages are, `{code}` in it.
    rules_url: Option<String>,
    /// Whether it can be told to ask for diagnostics again
    /// (`workspace/diagnostic/refresh`), when a change to one file changes
    /// another's.
    refreshes: bool,
}

impl Client {
    fn read(params: &Value) -> Client {
        let offered: Vec<String> = params
            .pointer("/capabilities/general/positionEncodings")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|e| e.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let mut roots: Vec<PathBuf> = params
            .get("workspaceFolders")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|f| path_of(f.get("uri")?.as_str()?))
            .collect();
        if roots.is_empty() {
            roots.extend(
                params
                    .get("rootUri")
                    .and_then(Value::as_str)
                    .and_then(path_of),
            );
        }
        let options = params.get("initializationOptions");
        let pull_option = options
            .and_then(|o| o.get("diagnostics"))
            .and_then(Value::as_str);
        let client_pulls = params
            .pointer("/capabilities/textDocument/diagnostic")
            .is_some_and(|d| d.is_object());
        Client {
            encoding: Encoding::negotiate(&offered),
            roots,
            pulls: match pull_option {
                Some("push") => false,
                _ => client_pulls,
            },
            rules_url: options
                .and_then(|o| o.get("rulesUrl"))
                .and_then(Value::as_str)
                .map(str::to_string),
            refreshes: params
                .pointer("/capabilities/workspace/diagnostics/refreshSupport")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        }
    }
}

struct Server<'c> {
    connection: &'c Connection,
    session: Session,
    client: Client,
    shutdown: bool,
    /// What each document was last sent, to send only what changed.
    published: std::collections::HashMap<PathBuf, Vec<Value>>,
    /// How many `workspace/diagnostic/refresh` requests were sent (their ids).
    refreshes: u64,
}

impl Server<'_> {
    fn serve(&mut self) -> Result<(), String> {
        loop {
            let message = match self.connection.receiver.try_recv() {
                Ok(message) => message,
                Err(_) => {
                    // Nothing waiting. After a change, a moment for the rest
                    // of a burst of keystrokes, then one check of them all.
                    let next = if self.session.is_dirty() {
                        self.connection.receiver.recv_timeout(QUIET).ok()
                    } else {
                        None
                    };
                    match next {
                        Some(message) => message,
                        None => {
                            self.check_changed();
                            match self.connection.receiver.recv() {
                                Ok(message) => message,
                                // The client closed stdin (Neovim's `:qall!`
                                // sends `shutdown` and no `exit`): done.
                                Err(_) => return Ok(()),
                            }
                        }
                    }
                }
            };
            match message {
                Message::Request(request) => self.request(request),
                // (`exit` before `shutdown` is an error: exit code 1.)
                Message::Notification(n) if n.method == "exit" => {
                    return if self.shutdown {
                        Ok(())
                    } else {
                        Err("exit before shutdown".into())
                    };
                }
                Message::Notification(n) => self.notification(n),
                Message::Response(_) => {}
            }
        }
    }

    fn send(&self, message: impl Into<Message>) {
        // (A client gone is seen by the reader, which ends the loop.)
        let _ = self.connection.sender.send(message.into());
    }

    fn request(&mut self, request: Request) {
        let id = request.id.clone();
        if self.shutdown {
            return self.send(Response::new_err(
                id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".into(),
            ));
        }
        if request.method == "shutdown" {
            self.shutdown = true;
            return self.send(Response::new_ok(id, Value::Null));
        }
        // A request reads the documents as they are now.
        self.check_changed();
        // A bug answering one request must not end the session: it is
        // answered as an error, and the next message is read.
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.answer(&request.method, &request.params)
        }));
        let response = match answered {
            Ok(Ok(result)) => Response::new_ok(id, result),
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!(
                    "coordc failed on {} (a bug: please report it)",
                    request.method
                ),
            ),
        };
        self.send(response);
    }

    /// The result of the request `method`, or its error.
    fn answer(&self, method: &str, params: &Value) -> Result<Value, (ErrorCode, String)> {
        let Some(path) = document_path(params) else {
            // (A document that is no local file, `untitled:` or `git:`:
            // nothing to say about it.)
            if method.starts_with("textDocument/") {
                return Ok(Value::Null);
            }
            return Err((
                ErrorCode::MethodNotFound,
                format!("coordc does not answer {method}"),
            ));
        };
        let document = self.session.documents.get(&path);
        let position = params.get("position").and_then(Position::from_json);
        match method {
            "textDocument/diagnostic" => {
                let items =
                    diagnostics::of_file(&self.session, &path, self.client.rules_url.as_deref())
                        .unwrap_or_default();
                Ok(proto::diagnostic_report(items))
            }
            "textDocument/codeAction" => {
                let range = params.get("range").ok_or_else(|| invalid("no range"))?;
                Ok(actions::code_actions(&self.session, &path, range))
            }
            "textDocument/completion" => {
                let (Some(doc), Some(position)) = (document, position) else {
                    return Ok(Value::Null);
                };
                let offset = doc.index.offset(&doc.text, position, self.session.encoding);
                let items = completion::complete(&self.session, &path, offset)
                    .map(|(items, _)| items)
                    .unwrap_or_default();
                Ok(proto::completion_list(items))
            }
            "textDocument/definition"
            | "textDocument/references"
            | "textDocument/rename"
            | "textDocument/prepareRename" => {
                let (Some(doc), Some(position)) = (document, position) else {
                    return Ok(Value::Null);
                };
                let offset = doc.index.offset(&doc.text, position, self.session.encoding);
                Ok(self.navigate(method, params, &path, offset)?)
            }
            "textDocument/documentSymbol" => Ok(match document {
                Some(doc) => {
                    symbols::document_symbols(&path, &doc.text, &doc.index, self.session.encoding)
                }
                None => proto::empty_list(),
            }),
            "textDocument/semanticTokens/full" => Ok(match document {
                Some(doc) => proto::semantic_tokens(symbols::semantic_tokens(
                    &path,
                    &doc.text,
                    &doc.index,
                    self.session.encoding,
                )),
                None => Value::Null,
            }),
            "textDocument/hover" => {
                let (Some(doc), Some(position)) = (document, position) else {
                    return Ok(Value::Null);
                };
                let offset = doc.index.offset(&doc.text, position, self.session.encoding);
                Ok(match hover::hover(&self.session, &path, offset) {
                    Some((markdown, start, end)) => proto::hover(
                        markdown,
                        doc.index
                            .range(&doc.text, start, end, self.session.encoding),
                    ),
                    None => Value::Null,
                })
            }
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("coordc does not answer {method}"),
            )),
        }
    }

    /// Definitions, references or a rename of the name at `offset`.
    fn navigate(
        &self,
        method: &str,
        params: &Value,
        path: &std::path::Path,
        offset: usize,
    ) -> Result<Value, (ErrorCode, String)> {
        let Some((kind, name, found)) = navigate::occurrences(&self.session, path, offset) else {
            return Ok(Value::Null);
        };
        let texts: std::collections::HashMap<PathBuf, Arc<str>> =
            self.session.related(path).into_iter().collect();
        let encoding = self.session.encoding;
        let place = |o: &navigate::Occurrence| {
            let text = texts.get(&o.path)?;
            let index = text::LineIndex::new(text);
            let uri = url::Url::from_file_path(&o.path).ok()?.to_string();
            Some((uri, index.range(text, o.start, o.end, encoding)))
        };
        match method {
            // What a rename would rename, or nothing (a number, a keyword).
            "textDocument/prepareRename" => Ok(found
                .iter()
                .find(|o| o.path == path && o.start <= offset && offset <= o.end)
                .and_then(place)
                .map_or(Value::Null, |(_, range)| {
                    proto::prepare_rename(range, &name)
                })),
            "textDocument/definition" => Ok(found
                .iter()
                .filter(|o| o.definition)
                .filter_map(place)
                .map(|(uri, range)| proto::location(uri, range))
                .collect()),
            "textDocument/references" => {
                let declarations = params
                    .pointer("/context/includeDeclaration")
                    .and_then(Value::as_bool)
                    .unwrap_or(true);
                Ok(found
                    .iter()
                    .filter(|o| declarations || !o.definition)
                    .filter_map(place)
                    .map(|(uri, range)| proto::location(uri, range))
                    .collect())
            }
            _ => {
                let new_name = params["newName"].as_str().unwrap_or("");
                if !navigate::valid_new_name(kind, new_name) {
                    return Err(invalid(&format!("`{new_name}` cannot be such a name")));
                }
                Ok(proto::rename_edit(found.iter().filter_map(place), new_name))
            }
        }
    }

    fn notification(&mut self, n: Notification) {
        let path = document_path(&n.params);
        match (n.method.as_str(), path) {
            ("textDocument/didOpen", Some(path)) => {
                let doc = n.params.get("textDocument").unwrap_or(&Value::Null);
                let text = doc["text"].as_str().unwrap_or("");
                let version = doc["version"].as_i64().unwrap_or(0) as i32;
                let uri = doc["uri"].as_str().unwrap_or("").to_string();
                self.session
                    .documents
                    .insert(path.clone(), Document::new(uri, version, Arc::from(text)));
                // (Sent again: the editor shows nothing for a file it opens.)
                self.published.remove(&path);
                self.session.touch(path);
            }
            ("textDocument/didChange", Some(path)) if self.apply_changes(&path, &n.params) => {
                self.session.touch(path);
            }
            ("textDocument/didSave", Some(path)) => self.session.touch(path),
            ("textDocument/didClose", Some(path)) => {
                if let Some(doc) = self.session.documents.remove(&path) {
                    self.published.remove(&path);
                    if !self.client.pulls {
                        self.publish(&doc.uri, None, Vec::new());
                    }
                }
                self.session.touch(path);
            }
            ("workspace/didChangeWatchedFiles", _) => {
                let changes = n.params.get("changes").and_then(Value::as_array);
                for change in changes.into_iter().flatten() {
                    if let Some(path) = change["uri"].as_str().and_then(path_of) {
                        self.session.touch(path);
                    }
                }
            }
            _ => {}
        }
    }

    /// Applies a `didChange`'s edits to the open document; whether it is one.
    fn apply_changes(&mut self, path: &PathBuf, params: &Value) -> bool {
        let encoding = self.session.encoding;
        let Some(doc) = self.session.documents.get_mut(path) else {
            return false;
        };
        let mut text = doc.text.to_string();
        for change in params["contentChanges"].as_array().into_iter().flatten() {
            let Some(new) = change["text"].as_str() else {
                continue;
            };
            match change.get("range") {
                Some(range) => {
                    // (Each edit is read against the text the one before made.)
                    let index = text::LineIndex::new(&text);
                    let at = |key: &str| {
                        range
                            .get(key)
                            .and_then(Position::from_json)
                            .map(|p| index.offset(&text, p, encoding))
                    };
                    let (Some(start), Some(end)) = (at("start"), at("end")) else {
                        continue;
                    };
                    text.replace_range(start..end.max(start), new);
                }
                None => text = new.to_string(),
            }
        }
        let version = params
            .pointer("/textDocument/version")
            .and_then(Value::as_i64)
            .map_or(doc.version, |v| v as i32);
        *doc = Document::new(doc.uri.clone(), version, Arc::from(text));
        true
    }

    /// Checks what changed, and sends each open document whose diagnostics
    /// changed its new ones.
    fn check_changed(&mut self) {
        if !self.session.is_dirty() {
            return;
        }
        let affected = self.session.check_changed();
        self.tell_messages();
        if self.client.pulls {
            // The client asks again for what it shows; told to, when it can
            // be, as an edit of one file can change another's.
            let open = affected
                .iter()
                .any(|p| self.session.documents.contains_key(p));
            if self.client.refreshes && open {
                self.refreshes += 1;
                self.send(Request::new(
                    format!("coordc-refresh-{}", self.refreshes).into(),
                    "workspace/diagnostic/refresh".into(),
                    Value::Null,
                ));
            }
            return;
        }
        for path in affected {
            let Some(doc) = self.session.documents.get(&path) else {
                continue;
            };
            // (A document that stopped being one coordc checks has what it
            // showed cleared.)
            let Some(items) =
                diagnostics::of_file(&self.session, &path, self.client.rules_url.as_deref())
                    .or_else(|| self.published.contains_key(&path).then(Vec::new))
            else {
                continue;
            };
            if self.published.get(&path) == Some(&items) {
                continue;
            }
            let (uri, version) = (doc.uri.clone(), doc.version);
            self.publish(&uri, Some(version), items.clone());
            self.published.insert(path, items);
        }
    }

    /// Shows the user what stopped a check that no diagnostic says.
    fn tell_messages(&mut self) {
        for message in std::mem::take(&mut self.session.messages) {
            self.send(Notification::new(
                "window/showMessage".into(),
                proto::error_message(message),
            ));
        }
    }

    fn publish(&self, uri: &str, version: Option<i32>, diagnostics: Vec<Value>) {
        self.send(Notification::new(
            "textDocument/publishDiagnostics".into(),
            proto::publish_diagnostics(uri, version, diagnostics),
        ));
    }
}

/// The error of a request whose parameters are not what the protocol says.
fn invalid(what: &str) -> (ErrorCode, String) {
    (ErrorCode::InvalidParams, what.to_string())
}

/// The path of the document a message is about (`textDocument.uri`).
fn document_path(params: &Value) -> Option<PathBuf> {
    path_of(params.get("textDocument")?.get("uri")?.as_str()?)
}

/// The local path of a `file:` URI.
fn path_of(uri: &str) -> Option<PathBuf> {
    let url = url::Url::parse(uri).ok()?;
    let path = url.to_file_path().ok()?;
    Some(crate::project::files::normal(&path))
}
