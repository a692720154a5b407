//! The job configuration: Java `.properties` files and Hadoop XML
//! `<configuration>` files merged in order, then `-D NAME=VALUE` definitions,
//! as the Oozie CLI builds a job's configuration; then, as the Oozie server
//! does on receiving it, every value trimmed and its `${name}` references to
//! other properties expanded (see [`JobConfig::build`]).

pub mod properties;

use crate::diag::rules::{CONFIG_RESERVED, CONFIG_SUBSTITUTION_DEPTH, CONFIG_SYNTAX};
use crate::diag::{Diagnostic, FileRef, Located};
use crate::el::VarMap;
use crate::el::eval::USER_NAME;
use crate::span::Span;

/// One `name = value` of a configuration source, with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    pub name: String,
    pub name_span: Span,
    pub value: String,
    pub value_span: Span,
}

/// Where a property of the merged configuration came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    /// Source `index` of the sources given to [`JobConfig::build`], at these spans.
    File {
        index: usize,
        name_span: Span,
        value_span: Span,
    },
    /// A `-D` definition.
    CommandLine,
    /// Set as the Oozie client sets it (`user.name`, the submitting user).
    Client,
}

/// A configuration source: a file's path and text, or `-D` definitions
/// (borrowed: a check builds every coordinator's configuration from the same
/// files and definitions).
pub enum Source<'a> {
    File { path: &'a str, text: &'a str },
    Definitions(&'a [(String, String)]),
}

/// The merged configuration: later sources override earlier ones. Where
/// each property came from is not kept (a million-entry job.properties took
/// a third more memory with it): [`JobConfig::origin`] reads the sources
/// again for the few that need it.
#[derive(Debug, Default)]
pub struct JobConfig {
    vars: VarMap,
}

/// Names a job may not define: the EL constants of the coordinator and workflow
/// libraries (CoordSubmitXCommand:152-159, 575-582; PropertiesUtils:112-118).
pub(crate) const RESERVED_NAMES: &[&str] = &[
    "YEAR",
    "MONTH",
    "DAY",
    "HOUR",
    "MINUTE",
    "DAYS",
    "HOURS",
    "MINUTES",
    "KB",
    "MB",
    "GB",
    "TB",
    "PB",
    "RECORDS",
    "MAP_IN",
    "MAP_OUT",
    "REDUCE_IN",
    "REDUCE_OUT",
    "GROUPS",
];

impl JobConfig {
    /// Merges `sources` in order, with `user.name` as the Oozie client sends
    /// it when the job does not: `client_user`, who submits (its
    /// authentication sets it, and the server requires it, E0401). It is
    /// there before the server expands `${user.name}` in other values.
    /// Every problem is reported; a source that cannot be read contributes
    /// what was read before its error (an XML file, nothing): Oozie would
    /// refuse the job, so the configuration serves only to go on checking.
    pub fn build(sources: &[Source], client_user: Option<&str>) -> (JobConfig, Vec<Located>) {
        let mut config = JobConfig::default();
        let mut problems = Vec::new();
        for (index, source) in sources.iter().enumerate() {
            match source {
                Source::File { path, text } => {
                    // Room for a property a line at once: growing the table
                    // as it fills copies it, and clears twice the pages (a
                    // million-entry job.properties spent most of its time
                    // there).
                    config
                        .vars
                        .reserve(text.bytes().filter(|&b| b == b'\n').count());
                    let mut add = |p: Property| {
                        if RESERVED_NAMES.contains(&p.name.as_str()) {
                            problems.push(Located {
                                file: FileRef::Read(index),
                                diagnostic: reserved(&p.name, p.name_span),
                            });
                        }
                        config.set(p.name, p.value);
                    };
                    // (A .properties file is merged as it is read: a million
                    // entries are not kept twice.)
                    let read = if is_xml(path, text) {
                        parse_hadoop_xml(text).map(|props| props.into_iter().for_each(&mut add))
                    } else {
                        properties::parse_each(text, &mut add)
                    };
                    if let Err(diagnostic) = read {
                        problems.push(Located {
                            file: FileRef::Read(index),
                            diagnostic,
                        });
                    }
                }
                Source::Definitions(definitions) => {
                    for (name, value) in definitions.iter() {
                        if RESERVED_NAMES.contains(&name.as_str()) {
                            problems.push(Located {
                                file: FileRef::CommandLine,
                                diagnostic: reserved(name, Span::EMPTY),
                            });
                        }
                        config.set(name.clone(), value.clone());
                    }
                }
            }
        }
        if let Some(user) = client_user
            && config.get(USER_NAME).is_none()
        {
            config.set(USER_NAME.to_string(), user.to_string());
        }
        config.trim_and_resolve(sources, client_user, &mut problems);
        (config, problems)
    }

    /// What the server does to a submitted configuration before anything reads
    /// it (BaseJobsServlet.doPost: `conf.trim()` then `conf.resolve()`): each
    /// value trimmed as Java's `String.trim`, then every `${name}` naming
    /// another property replaced by that property's trimmed value, as
    /// `XConfiguration.substituteVars` does. An unbound reference stops the
    /// expansion and stays literal (so `${coord:current(0)}` or a variable the
    /// EL binds later is left for the EL); more than
    /// `oozie.configuration.substitute.depth` (20) substitutions is an error.
    fn trim_and_resolve(
        &mut self,
        sources: &[Source],
        client_user: Option<&str>,
        problems: &mut Vec<Located>,
    ) {
        for value in self.vars.values_mut().flatten() {
            let trimmed = value.trim_matches(|c| c <= ' ');
            if trimmed.len() != value.len() {
                *value = trimmed.to_owned();
            }
        }
        let mut resolved = Vec::new();
        let mut too_deep = Vec::new();
        for (name, value) in &self.vars {
            let Some(value) = value else {
                continue;
            };
            match substitute(value, |var| self.get(var)) {
                Ok(Some(expanded)) => resolved.push((name.clone(), expanded)),
                Ok(None) => {}
                Err(()) => too_deep.push(name.clone()),
            }
        }
        let names: Vec<&str> = too_deep.iter().map(String::as_str).collect();
        let origins = JobConfig::origins(sources, client_user, &names);
        let mut found: Vec<(FileRef, Span, String)> = too_deep
            .iter()
            .zip(origins)
            .map(|(name, origin)| {
                let (file, span) = match origin {
                    Some(Origin::File {
                        index, value_span, ..
                    }) => (FileRef::Read(index), value_span),
                    _ => (FileRef::CommandLine, Span::EMPTY),
                };
                (file, span, name.clone())
            })
            .collect();
        // In the order of the sources and their text, so diagnostics are stable.
        found.sort_by(|a, b| (a.0.order(), a.1.start, &a.2).cmp(&(b.0.order(), b.1.start, &b.2)));
        for (file, span, name) in found {
            problems.push(Located {
                file,
                diagnostic: Diagnostic::error(
                    CONFIG_SUBSTITUTION_DEPTH,
                    span,
                    format!(
                        "expanding `{name}` takes more than {MAX_SUBSTITUTIONS} substitutions: \
                         Oozie rejects the job (\"Variable substitution depth too large\")"
                    ),
                )
                .with_help("a property refers to itself, directly or through others"),
            });
        }
        for (name, value) in resolved {
            self.vars.insert(name, Some(value));
        }
    }

    pub(crate) fn set(&mut self, name: String, value: String) {
        self.vars.insert(name, Some(value));
    }

    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.vars.get(name).and_then(|v| v.as_deref())
    }

    /// Where [`JobConfig::build`] of `sources` (and `client_user`) took
    /// `name` from: the last source that sets it, at its last place there.
    pub fn origin(sources: &[Source], client_user: Option<&str>, name: &str) -> Option<Origin> {
        JobConfig::origins(sources, client_user, &[name])
            .into_iter()
            .next()
            .flatten()
    }

    /// [`JobConfig::origin`] of each of `names`, reading the sources once
    /// whatever their number (a configuration can give many the same
    /// problem).
    fn origins(
        sources: &[Source],
        client_user: Option<&str>,
        names: &[&str],
    ) -> Vec<Option<Origin>> {
        let wanted: rustc_hash::FxHashMap<&str, usize> =
            names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let mut found: Vec<Option<Origin>> = vec![None; names.len()];
        // In order, a later setting replacing an earlier one, as `build` merges.
        for (index, source) in sources.iter().enumerate() {
            let mut set = |name: &str, origin: Origin| {
                if let Some(slot) = wanted.get(name).and_then(|&i| found.get_mut(i)) {
                    *slot = Some(origin);
                }
            };
            match source {
                Source::File { path, text } => {
                    let mut look = |p: Property| {
                        set(
                            &p.name,
                            Origin::File {
                                index,
                                name_span: p.name_span,
                                value_span: p.value_span,
                            },
                        )
                    };
                    // (A source that cannot be read is taken as far as it is read.)
                    let _ = if is_xml(path, text) {
                        parse_hadoop_xml(text).map(|props| props.into_iter().for_each(&mut look))
                    } else {
                        properties::parse_each(text, &mut look)
                    };
                }
                Source::Definitions(definitions) => {
                    for (name, _) in definitions.iter() {
                        set(name, Origin::CommandLine);
                    }
                }
            }
        }
        if client_user.is_some()
            && let Some(slot) = wanted.get(USER_NAME).and_then(|&i| found.get_mut(i))
            && slot.is_none()
        {
            *slot = Some(Origin::Client);
        }
        found
    }

    /// The properties as EL variables.
    pub fn vars(&self) -> &VarMap {
        &self.vars
    }

    /// The properties as EL variables, the configuration given up.
    pub(crate) fn into_vars(self) -> VarMap {
        self.vars
    }
}

/// `oozie.configuration.substitute.depth` in oozie-default.xml.
const MAX_SUBSTITUTIONS: usize = 20;

/// `XConfiguration.substituteVars`: repeatedly replaces the leftmost
/// `${name}` (a name of anything but `}`, `$` and space) by `lookup(name)`,
/// stopping at the first unbound one. `Ok(None)`: nothing was replaced. As in
/// Oozie, the 20th substitution fails even when it completes the value.
pub(crate) fn substitute<'a>(
    text: &str,
    lookup: impl Fn(&str) -> Option<&'a str>,
) -> Result<Option<String>, ()> {
    let mut value = text.to_owned();
    for _ in 0..MAX_SUBSTITUTIONS {
        let Some((start, end)) = leftmost_reference(&value) else {
            return Ok((value != text).then_some(value));
        };
        let Some(replacement) = lookup(&value[start + 2..end - 1]) else {
            return Ok((value != text).then_some(value));
        };
        value.replace_range(start..end, replacement);
    }
    Err(())
}

/// The byte range of the leftmost match of `\$\{[^}$ ]+\}`.
fn leftmost_reference(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find("${").map(|i| from + i) {
        let name_len = bytes
            .iter()
            .skip(at + 2)
            .take_while(|&&b| !matches!(b, b'}' | b'$' | b' '))
            .count();
        let close = at + 2 + name_len;
        if name_len > 0 && bytes.get(close) == Some(&b'}') {
            return Some((at, close + 1));
        }
        from = at + 1;
    }
    None
}

fn reserved(name: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        CONFIG_RESERVED,
        span,
        format!("`{name}` is reserved: Oozie rejects a job that defines it (E0808)"),
    )
    .with_help("it is an EL constant of coordinator or workflow EL; rename the property")
}

/// A Hadoop configuration file, rather than a `.properties` one.
fn is_xml(path: &str, text: &str) -> bool {
    path.ends_with(".xml") || text.trim_start().starts_with('<')
}

/// `<configuration><property><name/><value/></property>...</configuration>`,
/// as Hadoop's `Configuration` reads it: names trimmed, values kept as written.
pub fn parse_hadoop_xml(text: &str) -> Result<Vec<Property>, Diagnostic> {
    let arena = crate::xml::Arena::new();
    let doc = crate::xml::parse(text, &arena)?;
    if doc.root.name != "configuration" {
        return Err(Diagnostic::error(
            CONFIG_SYNTAX,
            doc.root.name_span,
            format!(
                "a Hadoop configuration file has the root `<configuration>`, not `<{}>`",
                doc.root.name
            ),
        ));
    }
    let mut out = Vec::new();
    for property in doc.root.children_named("property") {
        let Some(name) = property.child("name") else {
            return Err(Diagnostic::error(
                CONFIG_SYNTAX,
                property.name_span,
                "a `<property>` without a `<name>`",
            ));
        };
        let name = name.text_trimmed();
        let (value, value_span) = match property.child("value") {
            Some(v) => {
                let raw: String = v.text.iter().map(|p| p.text).collect();
                let text = v.text_trimmed();
                (raw, text.span)
            }
            None => (String::new(), property.name_span),
        };
        out.push(Property {
            name: name.value.into_owned(),
            name_span: name.span,
            value,
            value_span,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_sources_override_and_reserved_names_are_reported() {
        let sources = [
            Source::File {
                path: "job.properties",
                text: "nameNode=hdfs://a\nqueue=q1\nYEAR=2009\n",
            },
            Source::File {
                path: "more.xml",
                text: "<configuration><property><name> queue </name><value>q2</value></property></configuration>",
            },
            Source::Definitions(&[("nameNode".into(), "hdfs://b".into())]),
        ];
        let (config, problems) = JobConfig::build(&sources, None);
        assert_eq!(config.get("queue"), Some("q2"));
        assert_eq!(config.get("nameNode"), Some("hdfs://b"));
        assert_eq!(
            JobConfig::origin(&sources, None, "nameNode"),
            Some(Origin::CommandLine)
        );
        assert_eq!(
            JobConfig::origin(&sources, None, "queue"),
            Some(Origin::File {
                index: 1,
                name_span: Span::new(32, 37),
                value_span: Span::new(52, 54)
            })
        );
        assert_eq!(JobConfig::origin(&sources, None, "none"), None);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].diagnostic.code, CONFIG_RESERVED);
        assert_eq!(problems[0].file, FileRef::Read(0));
    }

    fn resolved(text: &str) -> (JobConfig, Vec<Located>) {
        JobConfig::build(
            &[Source::File {
                path: "job.properties",
                text,
            }],
            None,
        )
    }

    #[test]
    fn values_are_trimmed_and_references_expanded_as_the_server_does() {
        // BaseJobsServlet.doPost: conf.trim().resolve(); XConfiguration.substituteVars.
        let (config, problems) = resolved(
            "nameNode=hdfs://nn:8020\t \n\
             root=${nameNode}/data\n\
             input=${root}/in/${YEAR}/${nameNode}\n\
             later=${nameNode}/${undefined}/${root}\n\
             el=${coord:current(0)}\n\
             spaced=${ nameNode}x${nameNode}\n\
             dollar=$${nameNode}\n",
        );
        assert!(problems.is_empty());
        assert_eq!(config.get("nameNode"), Some("hdfs://nn:8020"));
        assert_eq!(config.get("root"), Some("hdfs://nn:8020/data"));
        // Expansion stops at the first unbound reference: YEAR is left for the
        // EL, and so is the later `${nameNode}`.
        assert_eq!(
            config.get("input"),
            Some("hdfs://nn:8020/data/in/${YEAR}/${nameNode}")
        );
        assert_eq!(
            config.get("later"),
            Some("hdfs://nn:8020/${undefined}/${root}")
        );
        assert_eq!(config.get("el"), Some("${coord:current(0)}"));
        // A name cannot hold a space, `$` or `}`: `${ nameNode}` is not a reference.
        assert_eq!(config.get("spaced"), Some("${ nameNode}xhdfs://nn:8020"));
        assert_eq!(config.get("dollar"), Some("$hdfs://nn:8020"));
    }

    #[test]
    fn a_reference_cycle_is_the_servers_depth_error() {
        let (_, problems) = resolved("a=${b}\nb=x${a}\nok=1\n");
        let found: Vec<_> = problems.iter().map(|p| p.diagnostic.code).collect();
        assert_eq!(
            found,
            [CONFIG_SUBSTITUTION_DEPTH, CONFIG_SUBSTITUTION_DEPTH]
        );
        // Pointing at the value of `a`, the first one given.
        assert_eq!(problems[0].diagnostic.span, Span::new(2, 6));
        // Nineteen substitutions pass; the twentieth fails even though it
        // completes the value, as XConfiguration's loop does.
        let chain = |n: usize| {
            (0..n)
                .map(|i| format!("v{i}=${{v{}}}\n", i + 1))
                .chain([format!("v{n}=end\n")])
                .collect::<String>()
        };
        let (config, problems) = resolved(&chain(19));
        assert!(problems.is_empty());
        assert_eq!(config.get("v0"), Some("end"));
        let (_, problems) = resolved(&chain(20));
        assert_eq!(problems.len(), 1);
    }

    #[test]
    fn the_user_is_defaulted_only_when_the_job_does_not_give_one() {
        let as_local = |text| {
            JobConfig::build(
                &[Source::File {
                    path: "job.properties",
                    text,
                }],
                Some("local"),
            )
            .0
        };
        assert_eq!(as_local("user.name=joe\n").get(USER_NAME), Some("joe"));
        let config = as_local("a=1\n");
        assert_eq!(config.get(USER_NAME), Some("local"));
        let sources = [Source::File {
            path: "job.properties",
            text: "a=1\n",
        }];
        assert_eq!(
            JobConfig::origin(&sources, Some("local"), USER_NAME),
            Some(Origin::Client)
        );
        // The client's user.name is there when the server expands the others
        // (the Oozie examples' `userName=${user.name}`).
        let config = as_local("userName=${user.name}\n");
        assert_eq!(config.get("userName"), Some("local"));
    }

    #[test]
    fn a_broken_source_is_reported_and_the_others_still_count() {
        let sources = [
            Source::File {
                path: "bad.xml",
                text: "<configuration><property></configuration>",
            },
            Source::File {
                path: "job.properties",
                text: "a=1",
            },
        ];
        let (config, problems) = JobConfig::build(&sources, None);
        assert_eq!(config.get("a"), Some("1"));
        assert_eq!(problems[0].file, FileRef::Read(0));
    }
}
