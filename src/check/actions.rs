//! Workflow actions as a stock Oozie server accepts them. At submission: the
//! action types it has executors for (E0723), the job-tracker and name-node
//! the Hadoop actions need (E0701), and the definition length it reads
//! (E0736); LiteWorkflowAppParser.java (action types, job-tracker and name-node defaults). When the workflow
//! reaches an action, what its executor checks before it runs anything:
//! retry attributes (E0700), configuration properties Oozie sets itself and
//! credentials (JA010, JA021), shell environment variables (JA010), fs paths
//! (FS001, FS011). Each check cites the Oozie code (HEAD 8bdac8be) it follows.

use super::el::findings;
use crate::diag::Diagnostic;
use crate::diag::rules::{
    WF_ACTION_TYPE, WF_CLUSTER, WF_DISALLOWED_PROPERTY, WF_EMAIL, WF_ENV_VAR, WF_FS_PATH,
    WF_LENGTH, WF_RETRY, WF_SUBMISSION_EL, WF_UBER_JAR, WF_UNDEFINED_CREDENTIAL,
};
use crate::el::VarMap;
use crate::el::ast::{ExprKind, Part};
use crate::el::library::Library;
use crate::ir::{
    ActionBody, ConfigProperty, ElText, Name, NodeKind, Sla, Workflow, WorkflowAction,
};
use crate::oozie::executors::{CLUSTER_ACTIONS, checks_configuration};
use crate::oozie::hcat::java_split;
use crate::oozie::servers::{Acceptance, Server};
use crate::span::Span;
use crate::xml::schema::schemas;
use crate::xml::validate::and_list;

/// WorkflowAppService rejects longer definitions before parsing them
/// (oozie.service.WorkflowAppService.WorkflowDefinitionMaxLength).
pub(crate) const MAX_DEFINITION_BYTES: usize = 100_000;

pub(crate) fn check(
    wf: &Workflow,
    definition_bytes: usize,
    job: Option<&VarMap>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if definition_bytes > MAX_DEFINITION_BYTES {
        out.push(
            Diagnostic::error(
                WF_LENGTH,
                wf.name_span,
                format!(
                    "Workflow definition length [{definition_bytes}] exceeded maximum allowed length [{MAX_DEFINITION_BYTES}] (E0736)"
                ),
            )
            .with_help("split the workflow into sub-workflows"),
        );
    }
    for node in &wf.nodes {
        let NodeKind::Action(action) = &node.kind else {
            continue;
        };
        let kind = action.kind.name.as_str();
        if let Some(namespace) = &action.namespace
            && !namespace.starts_with("uri:oozie:workflow:")
            && let Some(problem) = unknown_extension(namespace)
        {
            let workflow = format!("uri:oozie:workflow:{}", wf.version);
            let stock = match schemas().namespace_for(kind, &workflow) {
                Some(own) => format!("write xmlns=\"{own}\""),
                None => "use a stock action (e.g. <shell xmlns=\"uri:oozie:shell-action:0.3\">)"
                    .to_string(),
            };
            // A vendor's action: the profiles of its servers accept it.
            let vendors: Vec<&str> = Server::ALL
                .iter()
                .filter(|s| matches!(s.accepts(namespace), Acceptance::Unchecked { .. }))
                .map(|s| s.name())
                .collect();
            let stock = match vendors.as_slice() {
                [] => stock,
                names => format!(
                    "{stock}; if the server is one of {}, check with --server naming it",
                    names.join(", ")
                ),
            };
            out.push(
                Diagnostic::error(
                    WF_ACTION_TYPE,
                    action.kind.span,
                    format!(
                        "no schema for action [{}]'s `<{kind}>` in {namespace}: Oozie refuses the workflow (E0701, cvc-complex-type.2.4.c: the wildcard is strict): {problem}",
                        node.name.name
                    ),
                )
                .with_help(format!(
                    "{stock}; a server with a custom executor and schema registered can turn this rule off in coordc.toml"
                )),
            );
        }
        if CLUSTER_ACTIONS.contains(&kind) {
            let has = |names: &[&str]| inherits(wf, &action.body, names);
            let missing: Vec<(&str, &str)> = [
                (&["job-tracker", "resource-manager"][..], "jobTracker"),
                (&["name-node"][..], "nameNode"),
            ]
            .into_iter()
            .filter(|(names, _)| !has(names))
            .filter_map(|(names, property)| Some((*names.first()?, property)))
            .collect();
            if !missing.is_empty() {
                out.push(missing_cluster(action.kind.span, &node.name.name, &missing));
            }
            out.extend(undefined_credentials(wf, action, &node.name.name, job));
        }
        if checks_configuration(kind) {
            let launcher = CLUSTER_ACTIONS.contains(&kind);
            out.extend(
                action.body.configuration.iter().filter_map(|p| {
                    disallowed(p, &format!("action [{}]", node.name.name), launcher)
                }),
            );
        }
        match kind {
            "map-reduce" => out.extend(uber_jar(wf, &action.body)),
            "shell" => out.extend(env_vars(&action.body)),
            "email" => out.extend(email(&action.body)),
            "fs" => out.extend(fs_paths(
                &action.body,
                inherits(wf, &action.body, &["name-node"]),
            )),
            _ => {}
        }
        out.extend(action.attributes.iter().filter_map(|(n, v)| retry(n, v)));
    }
    // `<global>`'s configuration is copied into each such action's
    // (LiteWorkflowAppParser.java:528-559), where the check above fails it.
    let has = |which: fn(&str) -> bool| {
        wf.nodes
            .iter()
            .any(|n| matches!(&n.kind, NodeKind::Action(a) if which(&a.kind.name)))
    };
    if has(checks_configuration)
        && let Some(global) = &wf.global
    {
        // (A launcher property fails only where a launcher runs.)
        let launcher = has(|kind| CLUSTER_ACTIONS.contains(&kind));
        out.extend(global.configuration.iter().filter_map(|p| {
            disallowed(
                p,
                "<global>, which every Hadoop and fs action gets",
                launcher,
            )
        }));
    }
    out
}

/// `oozie.mapreduce.uber.jar`, which a regular (not streaming, not pipes)
/// map-reduce action may set only on a server with
/// `oozie.action.mapreduce.uber.jar.enable`, false by default: the action
/// fails when it starts (MapReduceActionExecutor.java:143-193,
/// oozie-default.xml:80-88). `<global>`'s configuration is the action's too.
fn uber_jar(wf: &Workflow, body: &ActionBody) -> Option<Diagnostic> {
    if body
        .elements
        .iter()
        .any(|e| matches!(e.name.as_str(), "streaming" | "pipes"))
    {
        return None;
    }
    let property = body
        .configuration
        .iter()
        .chain(wf.global.iter().flat_map(|g| &g.configuration))
        .find(|p| literal(&p.name) == Some("oozie.mapreduce.uber.jar") && never_empty(&p.value))?;
    Some(
        Diagnostic::error(
            WF_UBER_JAR,
            property.name.span,
            "oozie.mapreduce.uber.jar property is not allowed. Set oozie.action.mapreduce.uber.jar.enable to true in oozie-site to enable. (MR003)",
        )
        .with_help(
            "put the job's jar in the workflow's lib/ folder instead; a server that enables uber jars can turn this rule off in coordc.toml",
        ),
    )
}

/// A value Oozie resolves at submission, with the job's properties and the
/// constants of its EL group, and no function: the Oozie error code its
/// failure gives, and those constants.
type SubmissionText<'a> = (&'a ElText, &'static str, &'static [&'static str]);

/// The SLA constants of the `wf-sla-submit` EL group (oozie-default.xml:
/// 907-912; ELConstantsFunctions.java:61-63, in minutes).
const SLA_SUBMIT_CONSTANTS: &[&str] = &["MINUTES", "HOURS", "DAYS"];

/// The values a workflow's submission resolves with the job's properties
/// (ELEvaluator.java:107-112 fails on an undefined variable): the name and
/// the retry attributes in the `job-submit` group, which defines nothing
/// (oozie-default.xml:714-753; SubmitXCommand.java:215, E0803 by :299-300;
/// LiteWorkflowAppParser.java:285-302, E0703), and the SLA elements of the
/// workflow and its actions in `wf-sla-submit`, which defines three
/// constants (SubmitXCommand.java:240-241, 338-409, E1004).
pub(crate) fn submission_texts(wf: &Workflow) -> Vec<SubmissionText<'_>> {
    fn sla(s: &Option<Sla>) -> impl Iterator<Item = SubmissionText<'_>> {
        s.iter()
            .flat_map(|s| &s.fields)
            .map(|(_, v)| (v, "E1004", SLA_SUBMIT_CONSTANTS))
    }
    let mut texts: Vec<SubmissionText> = vec![(&wf.name, "E0803", &[])];
    texts.extend(sla(&wf.sla));
    for node in &wf.nodes {
        if let NodeKind::Action(action) = &node.kind {
            texts.extend(
                action
                    .attributes
                    .iter()
                    .filter(|(n, _)| n.name.starts_with("retry-"))
                    .map(|(_, v)| (v, "E0703", &[][..])),
            );
            texts.extend(sla(&action.sla));
        }
    }
    texts
}

/// The variables of `text`, one of [`submission_texts`], that are not its
/// group's constants, with their spans in the value.
fn submission_variables_of<'a>(
    (text, _, constants): &SubmissionText<'a>,
) -> impl Iterator<Item = &'a (Box<str>, Span)> {
    let constants = *constants;
    findings(text.shared(), Library::Workflow)
        .variables
        .iter()
        .filter(move |(name, _)| !constants.contains(&&**name))
}

/// What Oozie cannot resolve in [`submission_texts`]: every function call,
/// and with the job's variables `vars`, each variable they do not define.
/// (A declared parameter the job does not define is reported as such,
/// WF011, not again here.)
pub(crate) fn submission_el(wf: &Workflow, vars: Option<&VarMap>) -> Vec<Diagnostic> {
    let declared = |name: &str| wf.parameters.iter().any(|p| p.name.name == name);
    let mut out = Vec::new();
    for submitted in submission_texts(wf) {
        let (text, code, _) = submitted;
        if let Some(vars) = vars {
            for (name, span) in submission_variables_of(&submitted) {
                if !vars.contains_key(&**name) && !declared(name) {
                    out.push(
                        Diagnostic::error(
                            WF_SUBMISSION_EL,
                            text.file_span(*span),
                            format!(
                                "variable [{name}] cannot be resolved: Oozie resolves this value at submission, with the job's properties only ({code})"
                            ),
                        )
                        .with_help(format!("define `{name}` in the job configuration")),
                    );
                }
            }
        }
        for expr in text.template().exprs() {
            expr.walk(&mut |e| {
                if let ExprKind::Call(call) = &e.kind {
                    let name = match &call.namespace {
                        Some(ns) => format!("{ns}:{}", call.name),
                        None => call.name.to_string(),
                    };
                    out.push(
                        Diagnostic::error(
                            WF_SUBMISSION_EL,
                            text.file_span(call.name_span),
                            format!(
                                "`{name}` cannot be used here: Oozie resolves this value at submission, where no EL function is defined ({code})"
                            ),
                        )
                        .with_help("use job properties only, e.g. ${appName}"),
                    );
                }
            });
        }
    }
    out
}

/// The text of `value` when it holds no EL (Oozie reads it as written).
fn literal(value: &ElText) -> Option<&str> {
    let parts = &value.template().parts;
    (value.parsed && parts.iter().all(|p| matches!(p, Part::Text { .. }))).then(|| value.text())
}

/// Whether `value` is set whatever its EL gives: some text of it is
/// written out (XConfiguration drops an empty `<value>`,
/// XConfiguration.java:338-347, and EL alone may give one).
fn never_empty(value: &ElText) -> bool {
    value.parsed
        && value
            .template()
            .parts
            .iter()
            .any(|p| matches!(p, Part::Text { text, .. } if !text.is_empty()))
}

/// The text of `value` before its first `${`, and whether that is all of it.
fn literal_prefix(value: &ElText) -> (&str, bool) {
    match value.template().parts.as_slice() {
        _ if !value.parsed => ("", false),
        [] => ("", true),
        [Part::Text { text, .. }, rest @ ..] => (text.as_str(), rest.is_empty()),
        [Part::Block { .. }, ..] => ("", false),
    }
}

/// Properties Oozie sets itself, which an action's configuration (inline,
/// job-xml or launcher) may not (JavaActionExecutor.java:173-175, 284-290,
/// 436): the user, the name-node and the resource manager. A launcher
/// property (`oozie.launcher.` and one of them) fails too
/// (LauncherConfigurationInjector.java:349-356).
const DISALLOWED_PROPERTIES: &[&str] = &[
    "user.name",
    "mapreduce.job.user.name",
    "fs.default.name",
    "yarn.resourcemanager.address",
];

/// JA010 for a configuration property Oozie sets itself, in `place`; its
/// `oozie.launcher.` form counts where a launcher runs (`launcher`: the
/// Hadoop actions; an fs action parses its configuration without one,
/// FsActionExecutor.java:197, JavaActionExecutor.java:380-383). Only a
/// property that is set counts ([`never_empty`]).
fn disallowed(property: &ConfigProperty, place: &str, launcher: bool) -> Option<Diagnostic> {
    let name = literal(&property.name)?;
    if !never_empty(&property.value) {
        return None;
    }
    let base = match name.strip_prefix("oozie.launcher.") {
        Some(base) if launcher => base,
        Some(_) => return None,
        None => name,
    };
    if !DISALLOWED_PROPERTIES.contains(&base) {
        return None;
    }
    let from = match base {
        "user.name" | "mapreduce.job.user.name" => "the user who submits the job",
        "fs.default.name" => "the action's <name-node>",
        _ => "the action's <job-tracker> or <resource-manager>",
    };
    Some(
        Diagnostic::error(
            WF_DISALLOWED_PROPERTY,
            property.name.span,
            format!("Property [{base}] not allowed in the configuration of {place} (JA010)"),
        )
        .with_help(format!(
            "Oozie sets it from {from} and fails the action when it starts; remove the property"
        )),
    )
}

/// Whether `oozie.credentials.skip` is true for `action`: its configuration
/// (with `<global>`'s) decides, else the job's (JavaActionExecutor.java:
/// 1520-1522, Hadoop's `getBoolean`: `true` or `false` in any case, anything
/// else is no decision). A value with EL might be true: counted as skipping.
fn skips_credentials(wf: &Workflow, action: &WorkflowAction, job: Option<&VarMap>) -> bool {
    const SKIP: &str = "oozie.credentials.skip";
    let decision = |value: &str| match value.trim().to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    let in_action = action
        .body
        .configuration
        .iter()
        .chain(wf.global.iter().flat_map(|g| &g.configuration))
        .find(|p| literal(&p.name) == Some(SKIP));
    if let Some(property) = in_action {
        return match literal(&property.value) {
            Some(value) => decision(value).unwrap_or_else(|| job_skips(job)),
            None => true,
        };
    }
    job_skips(job)
}

/// Whether the job's configuration says `oozie.credentials.skip=true`.
fn job_skips(job: Option<&VarMap>) -> bool {
    job.and_then(|vars| vars.get("oozie.credentials.skip"))
        .and_then(|v| v.as_deref())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
}

/// JA021: each name of an action's `cred` that the workflow's
/// `<credentials>` does not define. Oozie reads `cred` as written (no EL:
/// LiteWorkflowAppParser.java:285, LiteWorkflowStoreService.java:122), splits
/// it at commas without trimming (JavaActionExecutor.java:1585-1592), matches
/// names ignoring case, and fails the action when it starts if there is a
/// `<credentials>` and none matches (:1602-1636). Without `<credentials>`
/// no credential is loaded, and no error given.
fn undefined_credentials(
    wf: &Workflow,
    action: &WorkflowAction,
    node: &str,
    job: Option<&VarMap>,
) -> Vec<Diagnostic> {
    let Some(credentials) = &wf.credentials else {
        return Vec::new();
    };
    if skips_credentials(wf, action, job) {
        return Vec::new();
    }
    let Some((_, cred)) = action.attributes.iter().find(|(n, _)| n.name == "cred") else {
        return Vec::new();
    };
    let text = cred.text();
    if text.is_empty() {
        return Vec::new();
    }
    java_split(text, ',')
        .into_iter()
        .filter(|name| {
            !credentials
                .iter()
                .any(|c| c.name.name.eq_ignore_ascii_case(name))
        })
        .map(|name| {
            let defined: Vec<&str> = credentials.iter().map(|c| c.name.name.as_str()).collect();
            let help = if cred
                .template()
                .parts
                .iter()
                .any(|p| matches!(p, Part::Block { .. }))
            {
                "Oozie does not evaluate EL in `cred`: it looks for a credential of that very name"
                    .to_string()
            } else if defined.iter().any(|d| d.eq_ignore_ascii_case(name.trim())) {
                format!(
                    "Oozie does not trim the names of `cred`: write `{}`",
                    text.replace(", ", ",")
                )
            } else if defined.is_empty() {
                "<credentials> defines none: add a <credential> of this name".to_string()
            } else {
                format!("<credentials> defines {}", defined.join(", "))
            };
            Diagnostic::error(
                WF_UNDEFINED_CREDENTIAL,
                cred.span,
                format!(
                    "Could not load credentials with name [{name}] for action [{node}] (JA021)"
                ),
            )
            .with_help(help)
        })
        .collect()
}

/// JA010: a shell `<env-var>` that Java's `split("=")` does not cut in two
/// or more pieces (ShellActionExecutor.java:63, 97-126): no `=`, or only
/// trailing ones (`NAME=`, whose empty value split drops). A value with EL
/// is checked when it is evaluated, at the action; only literal ones here.
fn env_vars(body: &ActionBody) -> Vec<Diagnostic> {
    body.values
        .iter()
        .filter(|(n, _)| n.name == "env-var")
        .filter_map(|(_, value)| {
            let text = literal(value)?;
            (java_split(text, '=').len() <= 1).then(|| {
                Diagnostic::error(
                    WF_ENV_VAR,
                    value.span,
                    format!(
                        "Wrong ENV format [{text}] in <env-var>, key=value format expected (JA010)"
                    ),
                )
                .with_help("write NAME=VALUE with a value that is not empty")
            })
        })
        .collect()
}

/// What the email action checks when it starts (EmailActionExecutor.java:
/// 123-176, 259-273): a `<to>` empty once trimmed (EM001), and with
/// attachments enabled (oozie.email.attachment.enabled, true by default) an
/// `<attachment>` piece (split at commas, untrimmed) that `java.net.URI`
/// refuses (a space) or whose scheme is `file` (EM008). Values with EL are
/// checked when evaluated, at the action; only literal ones here.
fn email(body: &ActionBody) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let to = body.values.iter().find(|(n, _)| n.name == "to");
    let empty_to = match to {
        Some((_, value)) => literal(value)
            .is_some_and(str::is_empty)
            .then_some(value.span),
        // An empty <to/> has no text to keep: its element is there.
        None => body
            .elements
            .iter()
            .find(|e| e.name == "to")
            .map(|e| e.span),
    };
    if let Some(span) = empty_to {
        out.push(
            Diagnostic::error(
                WF_EMAIL,
                span,
                "No recipients were specified in the to-address field. (EM001)",
            )
            .with_help("give <to> one or more addresses, separated by commas"),
        );
    }
    for (_, value) in body.values.iter().filter(|(n, _)| n.name == "attachment") {
        let Some(text) = literal(value) else { continue };
        for piece in java_split(text, ',') {
            let problem = if piece.contains(char::is_whitespace) {
                "is not a URI (it holds white space)"
            } else if piece
                .split_once(':')
                .is_some_and(|(scheme, _)| scheme == "file")
            {
                "is a local file, which cannot be attached"
            } else {
                continue;
            };
            out.push(
                Diagnostic::error(
                    WF_EMAIL,
                    value.span,
                    format!("The attachment [{piece}] {problem} (EM008)"),
                )
                .with_help("attach files on HDFS (hdfs://... or an absolute path), separated by commas without spaces"),
            );
        }
    }
    out
}

/// The path attributes of the fs operations, which FsActionExecutor resolves
/// against the name-node (FsActionExecutor.java:199-226, 301, 401, 449, 547,
/// 592, 617), except setrep's, which must have its scheme (:283-290,
/// 722-726); a move's target is resolved against its source instead.
const FS_PATHS: &[&str] = &[
    "delete@path",
    "mkdir@path",
    "move@source",
    "chmod@path",
    "touchz@path",
    "chgrp@path",
    "setrep@path",
];

/// FS001/FS011: an fs path Hadoop's `Path` reads without a scheme (no `:`
/// before the first `/`), with no name-node (the action's or `<global>`'s,
/// LiteWorkflowAppParser.java:499-511) to resolve it against; or, with one,
/// a relative path (FsActionExecutor.java:104-157). Only paths whose
/// written text before any EL decides it are checked.
fn fs_paths(body: &ActionBody, name_node: bool) -> Vec<Diagnostic> {
    body.values
        .iter()
        .filter(|(n, _)| FS_PATHS.contains(&n.name.as_str()))
        .filter_map(|(n, value)| {
            let name_node = name_node && n.name != "setrep@path";
            let (prefix, whole) = literal_prefix(value);
            let prefix = prefix.trim_start();
            let slash = prefix.find('/');
            if prefix.is_empty() || (slash.is_none() && !whole) {
                return None;
            }
            let colon = prefix.find(':');
            let scheme = colon.is_some_and(|c| slash.is_none_or(|s| c < s));
            let (code, problem) = match (scheme, name_node, prefix.starts_with('/')) {
                (true, _, _) | (false, true, true) => return None,
                (false, false, _) => ("FS001", "Missing scheme in path"),
                (false, true, false) => ("FS011", "Path cannot be relative:"),
            };
            let operation = n.name.split('@').next().unwrap_or_default();
            Some(
                Diagnostic::error(
                    WF_FS_PATH,
                    value.span,
                    format!(
                        "{problem} [{}] of <{operation}> ({code})",
                        value.text()
                    ),
                )
                .with_help(if name_node {
                    "start the path with `/` (it is resolved against the name-node) or give its scheme (hdfs://...)"
                } else {
                    "give the path its scheme (`${nameNode}/...`, hdfs://...), or give the action a <name-node>"
                }),
            )
        })
        .collect()
}

/// E0700: `retry-max` and `retry-interval` are read with Java's
/// `Integer.parseInt` when the workflow reaches the action
/// (LiteWorkflowStoreService.java:146-188); the value is EL-resolved with
/// the job's properties at submission (LiteWorkflowAppParser.java:285-302),
/// so only values without EL are checked here.
fn retry(name: &Name, value: &ElText) -> Option<Diagnostic> {
    if !matches!(name.name.as_str(), "retry-max" | "retry-interval") {
        return None;
    }
    // (An empty value is kept as it is, not as absent, and fails to parse
    // too: LiteWorkflowAppParser.java:286-302, NodeDef.java:67-72,
    // LiteWorkflowStoreService.java:150-157, 165-176.)
    let text = literal(value)?;
    if java_int(text) {
        return None;
    }
    Some(
        Diagnostic::error(
            WF_RETRY,
            value.span,
            format!(
                "{} [{text}] is not an integer: the workflow fails when it reaches the action (E0700, NumberFormatException)",
                name.name
            ),
        )
        .with_help(match name.name.as_str() {
            "retry-max" => "a number of retries, e.g. retry-max=\"3\"",
            _ => "a number of minutes, e.g. retry-interval=\"10\"",
        }),
    )
}

/// Whether Java's `Integer.parseInt` reads `text`: an optional sign, then
/// ASCII digits, within 32 bits.
fn java_int(text: &str) -> bool {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && text.parse::<i32>().is_ok()
}

/// Why an extension action in `namespace` has no executor on a stock server.
/// The stock extension actions are those whose `uri:oozie:NAME-action:VERSION`
/// schemas oozie-default.xml registers (`oozie.service.SchemaService.wf.schemas`,
/// oozie-default.xml:1742-1757, all embedded in coordc), each with its executor
/// (`oozie.service.ActionService.executor.classes`, oozie-default.xml:1879-1896). An element
/// in a registered namespace was validated against its schema already (an
/// element the schema does not declare is XML004).
fn unknown_extension(namespace: &str) -> Option<String> {
    let Some((schema, version)) = namespace
        .strip_prefix("uri:oozie:")
        .and_then(|rest| rest.rsplit_once(':'))
    else {
        return Some(format!("`{namespace}` is not an Oozie action schema"));
    };
    let Some(name) = schema.strip_suffix("-action") else {
        return Some(format!(
            "`{namespace}` is not an action schema (uri:oozie:NAME-action:VERSION)"
        ));
    };
    if schemas().has(namespace) {
        return None;
    }
    let versions = schemas().versions(&format!("uri:oozie:{schema}"));
    if versions.is_empty() {
        return Some(format!("a stock Oozie server has no `{name}` action"));
    }
    Some(format!(
        "the {name} action has no schema version {version} (there are {})",
        and_list(&versions)
    ))
}

/// Whether an action's `body`, or `<global>`, which Oozie copies into it
/// where it lacks them (LiteWorkflowAppParser.java:499-525), has a value
/// named one of `names`.
fn inherits(wf: &Workflow, body: &ActionBody, names: &[&str]) -> bool {
    defines(body, names) || wf.global.as_ref().is_some_and(|g| defines(g, names))
}

fn defines(body: &ActionBody, names: &[&str]) -> bool {
    body.values
        .iter()
        .any(|(n, _)| names.contains(&n.name.as_str()))
}

/// E0701 for the `(element, property)` pairs an action lacks, in one
/// diagnostic: Oozie reports the first.
fn missing_cluster(span: Span, node: &str, missing: &[(&str, &str)]) -> Diagnostic {
    let what: Vec<String> = missing
        .iter()
        .map(|(element, _)| match *element {
            "job-tracker" => "job-tracker or resource-manager".to_string(),
            other => other.to_string(),
        })
        .collect();
    let add: Vec<String> = missing
        .iter()
        .map(|(element, property)| format!("<{element}>${{{property}}}</{element}>"))
        .collect();
    let settings: Vec<String> = missing
        .iter()
        .map(|(element, _)| format!("oozie.actions.default.{element}"))
        .collect();
    Diagnostic::error(
        WF_CLUSTER,
        span,
        format!(
            "No {} defined for action [{node}] (E0701)",
            what.join(" and no ")
        ),
    )
    .with_help(format!(
        "add {} to the action or to <global>; a server that sets {} can turn this rule off in coordc.toml",
        add.join(" and "),
        settings.join(" and ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::lower;
    use crate::xml::{Arena, parse};

    #[test]
    fn java_parse_int() {
        for ok in ["3", "+3", "-1", "0010", "2147483647"] {
            assert!(java_int(ok), "{ok}");
        }
        for bad in ["", "+", "3m", " 3", "2147483648", "1.5", "٣"] {
            assert!(!java_int(bad), "{bad}");
        }
        // An empty retry-max is kept as "" and fails Integer.parseInt
        // (NodeDef.java:67-72, LiteWorkflowStoreService.java:165-176); one
        // with EL is resolved first, and not judged.
        let fs = r#"<fs><mkdir path="hdfs://nn/a"/></fs>"#;
        assert_eq!(
            problems("", r#" retry-max="""#, fs),
            [
                "WF016 retry-max [] is not an integer: the workflow fails when it reaches the action (E0700, NumberFormatException)"
            ]
        );
        assert_eq!(
            problems("", r#" retry-max="${n}""#, fs),
            Vec::<String>::new()
        );
    }

    /// The `CODE message` of each action problem of a 0.5 workflow whose
    /// only action holds `body`, with `global` as its <global>. (Not
    /// validated: Oozie's 0.5 schema has `<setrep>`, grammar/xsd's not yet.)
    fn problems(global: &str, attributes: &str, body: &str) -> Vec<String> {
        let src = format!(
            r#"<workflow-app xmlns="uri:oozie:workflow:0.5" name="wf">{global}<start to="a"/><action name="a"{attributes}>{body}<ok to="end"/><error to="end"/></action><end name="end"/></workflow-app>"#
        );
        let arena = Arena::new();
        let doc = parse(&src, &arena).unwrap();
        let (wf, _) = lower::workflow(&doc.root);
        check(&wf, src.len(), None)
            .into_iter()
            .map(|d| format!("{} {}", d.code, d.message))
            .collect()
    }

    #[test]
    fn fs_paths_are_resolved_as_fs_action_executor_does() {
        let fs = |ops: &str| format!("<fs>{ops}</fs>");
        // No name-node: a path needs its scheme; EL first decides nothing.
        assert_eq!(
            problems(
                "",
                "",
                &fs(r#"<mkdir path="/a"/><mkdir path="${nn}/b"/><mkdir path="hdfs://nn/c"/>"#)
            ),
            ["WF017 Missing scheme in path [/a] of <mkdir> (FS001)"]
        );
        // <global>'s name-node: absolute paths resolve, relative ones fail,
        // and setrep's path needs its scheme whatever the name-node.
        let global = "<global><name-node>hdfs://nn:8020</name-node></global>";
        assert_eq!(
            problems(
                global,
                "",
                &fs(
                    r#"<delete path="/a"/><delete path="b/${x}"/><setrep path="/c" replication-factor="2"/>"#
                )
            ),
            [
                "WF017 Path cannot be relative: [b/${x}] of <delete> (FS011)",
                "WF017 Missing scheme in path [/c] of <setrep> (FS001)"
            ]
        );
    }

    #[test]
    fn an_empty_to_and_untrimmed_attachments_fail_the_email_action() {
        let email = |to: &str, attachment: &str| {
            format!(
                r#"<email xmlns="uri:oozie:email-action:0.2">{to}<subject>s</subject><body>b</body>{attachment}</email>"#
            )
        };
        // `<to/>` keeps no text, but its element is there (EM001).
        assert_eq!(
            problems(
                "",
                "",
                &email("<to/>", "<attachment>/a.csv,/b.csv</attachment>")
            ),
            ["WF020 No recipients were specified in the to-address field. (EM001)"]
        );
        assert_eq!(
            problems(
                "",
                "",
                &email(
                    "<to>${list}</to>",
                    "<attachment>/a.csv, /b.csv</attachment>"
                )
            ),
            ["WF020 The attachment [ /b.csv] is not a URI (it holds white space) (EM008)"]
        );
    }

    #[test]
    fn properties_oozie_sets_fail_hadoop_and_fs_actions_alike() {
        let conf = |name: &str| {
            format!(
                "<configuration><property><name>{name}</name><value>v</value></property></configuration>"
            )
        };
        let fs = format!(
            r#"<fs><name-node>hdfs://nn</name-node>{}<mkdir path="/a"/></fs>"#,
            conf("user.name")
        );
        assert_eq!(
            problems("", "", &fs),
            ["WF013 Property [user.name] not allowed in the configuration of action [a] (JA010)"]
        );
        // <global>'s, once, for the actions that get it; a sub-workflow does not.
        let global = format!("<global>{}</global>", conf("fs.default.name"));
        let sub = "<sub-workflow><app-path>/app</app-path></sub-workflow>";
        assert_eq!(problems(&global, "", sub), Vec::<String>::new());
        let fs_only = r#"<fs><mkdir path="hdfs://nn/a"/></fs>"#;
        assert_eq!(
            problems(&global, "", fs_only),
            [
                "WF013 Property [fs.default.name] not allowed in the configuration of <global>, which every Hadoop and fs action gets (JA010)"
            ]
        );
        // A launcher property fails only where a launcher runs: not in an fs
        // action (FsActionExecutor.java:197, JavaActionExecutor.java:380-383).
        let launcher = format!(
            "<global>{}</global>",
            conf("oozie.launcher.fs.default.name")
        );
        assert_eq!(problems(&launcher, "", fs_only), Vec::<String>::new());
        // An empty value is no property (XConfiguration.java:338-347), and
        // one with EL may be empty.
        for value in ["<value></value>", "<value>${u}</value>"] {
            let fs = format!(
                r#"<fs><name-node>hdfs://nn</name-node><configuration><property><name>user.name</name>{value}</property></configuration><mkdir path="/a"/></fs>"#
            );
            assert_eq!(problems("", "", &fs), Vec::<String>::new(), "{value}");
        }
    }

    #[test]
    fn sla_values_are_resolved_at_submission_with_three_constants() {
        // SubmitXCommand.java:240-241, 338-409: wf-sla-submit has MINUTES,
        // HOURS and DAYS, and no function.
        let src = r#"<workflow-app name="w" xmlns="uri:oozie:workflow:0.5" xmlns:sla="uri:oozie:sla:0.2"><start to="end"/><end name="end"/><sla:info><sla:nominal-time>${nominal_time}</sla:nominal-time><sla:should-end>${30 * MINUTES}</sla:should-end><sla:alert-contact>${wf:user()}</sla:alert-contact></sla:info></workflow-app>"#;
        let arena = Arena::new();
        let doc = parse(src, &arena).unwrap();
        assert!(crate::xml::validate(&doc).is_empty());
        let (wf, _) = lower::workflow(&doc.root);
        let found = |vars: Option<&VarMap>| -> Vec<String> {
            submission_el(&wf, vars)
                .into_iter()
                .map(|d| src[d.span.range()].to_string())
                .collect()
        };
        assert_eq!(found(None), ["wf:user"]);
        assert_eq!(found(Some(&VarMap::default())), ["nominal_time", "wf:user"]);
    }

    #[test]
    fn credentials_are_looked_up_as_written() {
        let java = "<java><job-tracker>jt</job-tracker><name-node>nn</name-node><main-class>M</main-class></java>";
        let creds = r#"<credentials><credential name="HCat" type="hcat"/></credentials>"#;
        // Case does not matter; spaces and EL do; without <credentials>, no error.
        assert_eq!(
            problems(creds, r#" cred="hcat""#, java),
            Vec::<String>::new()
        );
        assert_eq!(
            problems(creds, r#" cred="hcat, ${c}""#, java),
            ["WF014 Could not load credentials with name [ ${c}] for action [a] (JA021)"]
        );
        assert_eq!(problems("", r#" cred="hive2""#, java), Vec::<String>::new());
        // oozie.credentials.skip=true, in the action's configuration (or
        // <global>'s), or else the job's, loads no credential
        // (JavaActionExecutor.java:1520-1522).
        let skip = |value: &str| {
            format!(
                "<java><job-tracker>jt</job-tracker><name-node>nn</name-node><configuration><property><name>oozie.credentials.skip</name><value>{value}</value></property></configuration><main-class>M</main-class></java>"
            )
        };
        assert_eq!(
            problems(creds, r#" cred="hive2""#, &skip("TRUE")),
            Vec::<String>::new()
        );
        assert_eq!(problems(creds, r#" cred="hive2""#, &skip("false")).len(), 1);
        let src = format!(
            r#"<workflow-app xmlns="uri:oozie:workflow:0.5" name="wf">{creds}<start to="a"/><action name="a" cred="hive2">{java}<ok to="end"/><error to="end"/></action><end name="end"/></workflow-app>"#
        );
        let arena = Arena::new();
        let (wf, _) = lower::workflow(&parse(&src, &arena).unwrap().root);
        let job: VarMap = [(
            "oozie.credentials.skip".to_string(),
            Some("true".to_string()),
        )]
        .into_iter()
        .collect();
        assert!(check(&wf, src.len(), Some(&job)).is_empty());
        assert_eq!(check(&wf, src.len(), None).len(), 1);
    }

    /// `(message, help)` of the WF008 problems of a workflow of `version`
    /// whose one action is `element`.
    fn unsupported(version: &str, element: &str) -> Vec<(String, String)> {
        let src = format!(
            r#"<workflow-app xmlns="uri:oozie:workflow:{version}" name="wf"><start to="a"/><action name="a">{element}<ok to="end"/><error to="end"/></action><end name="end"/></workflow-app>"#
        );
        let arena = Arena::new();
        let doc = parse(&src, &arena).unwrap();
        assert!(crate::xml::validate(&doc).is_empty(), "{src}");
        let (wf, _) = lower::workflow(&doc.root);
        check(&wf, src.len(), None)
            .into_iter()
            .filter(|d| d.code == WF_ACTION_TYPE)
            .map(|d| (d.message.clone(), d.help.clone().unwrap_or_default()))
            .collect()
    }

    /// The stock action versions are the schemas oozie-default.xml registers
    /// (oozie.service.SchemaService.wf.schemas, oozie-default.xml:1747-1756).
    #[test]
    fn an_unknown_action_version_names_the_versions_there_are() {
        let found = unsupported(
            "0.5",
            r#"<shell xmlns="uri:oozie:shell-action:0.9"><exec>x</exec></shell>"#,
        );
        assert_eq!(
            found,
            [(
                "no schema for action [a]'s `<shell>` in uri:oozie:shell-action:0.9: Oozie refuses the workflow (E0701, cvc-complex-type.2.4.c: the wildcard is strict): the shell action has no schema version 0.9 (there are 0.1, 0.2, 0.3 and 1.0)".to_string(),
                "write xmlns=\"uri:oozie:shell-action:0.3\"; a server with a custom executor and schema registered can turn this rule off in coordc.toml".to_string()
            )]
        );
        // hive-action starts at 0.2 (oozie-default.xml:1749); workflow 1.0
        // pairs with the 1.0 action.
        let found = unsupported(
            "1.0",
            r#"<hive xmlns="uri:oozie:hive-action:0.1"><script>q</script></hive>"#,
        );
        assert!(found[0].0.ends_with(
            "the hive action has no schema version 0.1 (there are 0.2, 0.3, 0.4, 0.5, 0.6 and 1.0)"
        ));
        assert!(
            found[0]
                .1
                .starts_with("write xmlns=\"uri:oozie:hive-action:1.0\"")
        );
        // Every registered version passes; a custom action is reported.
        for version in ["0.2", "0.3", "0.4", "0.5", "0.6", "1.0"] {
            let hive = format!(
                r#"<hive xmlns="uri:oozie:hive-action:{version}"><job-tracker>jt</job-tracker><name-node>nn</name-node><script>q</script></hive>"#
            );
            assert_eq!(unsupported("0.5", &hive), [], "{version}");
        }
        let found = unsupported("0.5", r#"<sge xmlns="uri:oozie:sge-action:1.0"/>"#);
        assert!(
            found[0]
                .0
                .ends_with("a stock Oozie server has no `sge` action")
        );
    }
}
