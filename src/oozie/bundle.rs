//! A bundle as Oozie submits and starts it: the definition resolved with the
//! bundle's job configuration (BundleSubmitXCommand), then, for each
//! `<coordinator>`, the configuration its coordinator job is submitted with
//! (BundleStartXCommand.mergeConfig).
//!
//! What Oozie does, in order (apache/oozie at 8bdac8be4,
//! `core/src/main/java/org/apache/oozie/command/bundle/`):
//! 1. BundleSubmitXCommand:124: `ParameterVerifier.verifyParameters` adds the
//!    `<parameters>` defaults the job does not define (E0738 for one without).
//! 2. BundleSubmitXCommand:135: the whole definition is evaluated as one EL
//!    text with the `bundle-submit` evaluator: the job's properties as
//!    variables and `bundle:conf` as the only function (oozie-default.xml:1245);
//!    an undefined variable fails the submission (E1004).
//! 3. BundleSubmitXCommand:138, 454-475: coordinator names must be unique (E1304).
//! 4. BundleSubmitXCommand:368-373: `kick-off-time` is parsed as an Oozie
//!    datetime; the bundle starts then (at once without one).
//! 5. BundleStartXCommand:150-195: a coordinator whose `enabled` is not
//!    `Boolean.parseBoolean` true is skipped; no coordinator left is E1318.
//! 6. BundleStartXCommand:287-337: each coordinator's configuration is the
//!    bundle job's configuration, its own `<configuration>` copied over it,
//!    and `oozie.coord.application.path` set to its `<app-path>`.

use super::job::datetime;
use super::parameters;
use crate::config::substitute;
use crate::diag::Diagnostic;
use crate::diag::Located;
use crate::diag::rules::{
    BUNDLE_DUPLICATE_NAME, BUNDLE_NOT_BOOLEAN, BUNDLE_NOTHING_ENABLED, BUNDLE_USER_OVERRIDE,
    EL_UNKNOWN_FUNCTION,
};
use crate::el::VarMap;
use crate::el::{Env, Library};
use crate::ir::{Bundle, BundleCoordinator, ConfigProperty, ElText};
use crate::time::datetime::ProcessingZone;
use chrono::{DateTime, Utc};
use rustc_hash::FxHashMap;

/// A bundle as submitted: its values resolved.
pub(crate) struct SubmittedBundle<'a> {
    pub name: String,
    /// When Oozie submits the coordinators; `None`: at once.
    pub kick_off: Option<DateTime<Utc>>,
    /// The job's variables: its configuration and the parameter defaults.
    pub vars: VarMap,
    /// The parameter defaults the job took (for the names its configuration
    /// does not define), `${name}`-expanded: they are part of the job's
    /// configuration from then on, which each coordinator is given.
    pub parameter_defaults: Vec<(String, String)>,
    pub coordinators: Vec<SubmittedCoordinator<'a>>,
}

impl SubmittedBundle<'_> {
    /// What a coordinator of this bundle is given on top of the bundle's
    /// configuration files, in order: the command's -D (`defines`), the
    /// parameter defaults the bundle job took, then the coordinator's own
    /// `<configuration>` over them (BundleStartXCommand.mergeConfig:287-337,
    /// starting from the job's stored configuration, BundleSubmitXCommand:
    /// 124-133, 365).
    pub(crate) fn coordinator_defines(
        &self,
        defines: &[(String, String)],
        coordinator: &SubmittedCoordinator,
    ) -> Vec<(String, String)> {
        let mut all = defines.to_vec();
        all.extend(self.parameter_defaults.iter().cloned());
        all.extend(coordinator.configuration.iter().cloned());
        all
    }
}

/// A bundle's `<coordinator>` as resolved at submission.
pub(crate) struct SubmittedCoordinator<'a> {
    pub ir: &'a BundleCoordinator,
    /// The coordinator job's name (Oozie names the job after the bundle's
    /// `<coordinator name>`, not the application's, CoordSubmitXCommand:713-720).
    pub name: String,
    pub enabled: bool,
    pub critical: bool,
    pub app_path: String,
    /// What the coordinator job's configuration adds to the bundle job's,
    /// in order: its `<configuration>`, then `oozie.coord.application.path`.
    pub configuration: Vec<(String, String)>,
}

/// The job's user, which the Oozie client sends.
const USER_NAME: &str = "user.name";

/// The properties that name a job's user (PropertiesUtils:58).
const USER_PROPERTIES: &[&str] = &[USER_NAME, "mapreduce.job.user.name"];

/// The property Oozie sets to the coordinator's `<app-path>`.
pub(crate) const COORD_APP_PATH: &str = "oozie.coord.application.path";

/// Submits `bundle` with its job configuration `config`: the submitted
/// bundle, and every problem found (each in the bundle file). A value that
/// cannot be resolved leaves its coordinator out (or the kick-off time unset).
pub(crate) fn submit<'a>(
    bundle: &'a Bundle,
    config: &VarMap,
    pz: ProcessingZone,
) -> (SubmittedBundle<'a>, Vec<Located>) {
    // (ParameterVerifier is the one coordinators go through: CO004, CO011.)
    let (mut vars, mut problems) =
        parameters::verify(&bundle.parameters, config.clone(), &parameters::COORDINATOR);
    // The defaults are read back through `Configuration.get`, which expands
    // `${name}` in them (BundleSubmitXCommand:126-133).
    let parameter_defaults: Vec<(String, String)> = bundle
        .parameters
        .iter()
        .filter(|p| !config.contains_key(&p.name.name))
        .filter_map(|p| {
            let default = p.default.as_ref()?.text();
            let lookup = |name: &str| vars.get(name).and_then(|v| v.as_deref());
            let expanded = substitute(default, lookup).ok().flatten();
            Some((
                p.name.name.clone(),
                expanded.unwrap_or_else(|| default.to_string()),
            ))
        })
        .collect();
    for (name, value) in &parameter_defaults {
        vars.insert(name.clone(), Some(value.clone()));
    }
    // The job's name is taken from the definition as written and resolved
    // with the job's properties alone (BundleSubmitXCommand:356-357,
    // ELUtils.resolveAppName: the `job-submit` evaluator, no function), so
    // even the bundle's own function fails there. (Any other function is
    // unknown to a bundle's EL, and reported as such.)
    if bundle.name.calls_any(&["conf"]) {
        problems.push(Located::in_app(
            Diagnostic::error(
                EL_UNKNOWN_FUNCTION,
                bundle.name.span,
                "`bundle:conf` cannot be used in the bundle's name: Oozie resolves the name with the job's properties alone (E1004)",
            )
            .with_help("name the bundle with text and ${property} references only"),
        ));
    }
    let mut r = Resolver { vars, pz, problems };
    let name = r
        .resolve(&bundle.name)
        .unwrap_or_else(|| bundle.name.text().to_string());
    for parameter in &bundle.parameters {
        if let Some(default) = &parameter.default {
            r.resolve(default);
        }
    }
    // (Evaluated with the rest of the definition, BundleSubmitXCommand:135,
    // though nothing reads them: one that fails fails the submission.)
    for description in &bundle.descriptions {
        r.resolve(description);
    }
    let kick_off = bundle.kick_off_time.as_ref().and_then(|text| {
        let value = r.resolve(text)?;
        // An empty kick-off time is none (BundleSubmitXCommand:371).
        if value.is_empty() {
            return None;
        }
        match datetime(text, &value, pz) {
            Ok(t) => Some(t),
            Err(d) => {
                r.problems.push(Located::in_app(d.with_help(
                    "Oozie parses kick-off-time as it parses a coordinator's start (DateUtils.parseDateOozieTZ)",
                )));
                None
            }
        }
    });
    let mut coordinators = Vec::with_capacity(bundle.coordinators.len());
    let mut seen: FxHashMap<String, &ElText> = FxHashMap::default();
    for coordinator in &bundle.coordinators {
        let name = r.resolve(&coordinator.name);
        let enabled = r.flag(coordinator.enabled.as_ref(), "enabled");
        let critical = r.flag(coordinator.critical.as_ref(), "critical");
        let app_path = r.resolve(&coordinator.app_path);
        let mut configuration = Vec::with_capacity(coordinator.configuration.len() + 1);
        let mut complete = true;
        for property in &coordinator.configuration {
            match (r.resolve(&property.name), r.resolve(&property.value)) {
                (Some(n), Some(v)) => {
                    let n = n.trim().to_string();
                    r.check_user(&n, &v, property);
                    configuration.push((n, v));
                }
                _ => complete = false,
            }
        }
        let (Some(name), Some(enabled), Some(critical)) = (name, enabled, critical) else {
            continue;
        };
        if let Some(first) = seen.insert(name.clone(), &coordinator.name) {
            r.problems.push(Located::in_app(
                Diagnostic::error(
                    BUNDLE_DUPLICATE_NAME,
                    coordinator.name.span,
                    format!(
                        "a second coordinator named `{name}`: Oozie rejects the bundle (E1304)"
                    ),
                )
                .with_label(first.span, "the first one")
                .with_help("give each <coordinator> of the bundle its own name"),
            ));
            continue;
        }
        let (Some(app_path), true) = (app_path, complete) else {
            continue;
        };
        configuration.push((COORD_APP_PATH.to_string(), app_path.trim().to_string()));
        coordinators.push(SubmittedCoordinator {
            ir: coordinator,
            name,
            enabled,
            critical,
            app_path: app_path.trim().to_string(),
            configuration,
        });
    }
    // Only when every coordinator was resolved can "none is enabled" be told.
    if coordinators.len() == bundle.coordinators.len()
        && !coordinators.is_empty()
        && coordinators.iter().all(|c| !c.enabled)
    {
        r.problems.push(Located::in_app(
            Diagnostic::error(
                BUNDLE_NOTHING_ENABLED,
                bundle.name_span,
                "every coordinator of this bundle is disabled: Oozie fails the bundle when it starts (E1318)",
            )
            .with_help("enable at least one coordinator (enabled=\"true\", or leave `enabled` out)"),
        ));
    }
    (
        SubmittedBundle {
            name,
            kick_off,
            vars: r.vars,
            parameter_defaults,
            coordinators,
        },
        r.problems,
    )
}

/// Resolves bundle values as the `bundle-submit` evaluator does, keeping
/// what fails.
struct Resolver {
    vars: VarMap,
    pz: ProcessingZone,
    problems: Vec<Located>,
}

impl Resolver {
    /// `text` evaluated as the `bundle-submit` evaluator does (the job's
    /// properties, `bundle:conf`); `None` (and the problem kept) when it
    /// cannot be.
    fn resolve(&mut self, text: &ElText) -> Option<String> {
        if let Some(plain) = text.template().plain_text() {
            return Some(plain.to_string());
        }
        let env = Env {
            vars: &self.vars,
            library: Library::Bundle,
            context: None,
            processing_zone: self.pz,
        };
        match text.shared().render(&env) {
            Ok((value, _)) => Some(value),
            Err(d) => {
                self.problems.push(Located::in_app(text.in_file(d)));
                None
            }
        }
    }

    /// A coordinator's `<configuration>` may not give the job another user:
    /// when it has one, Oozie compares `user.name` and
    /// `mapreduce.job.user.name` of the merged configuration with the
    /// bundle job's user and refuses a difference (BundleStartXCommand:
    /// 317-322, ConfigUtils.checkAndSetDisallowedProperties:150-183,
    /// PropertiesUtils:58), unless the server's
    /// `oozie.configuration.check-and-set.NAME` overwrites it.
    fn check_user(&mut self, name: &str, value: &str, property: &ConfigProperty) {
        if !USER_PROPERTIES.contains(&name) {
            return;
        }
        let Some(Some(user)) = self.vars.get(USER_NAME) else {
            return;
        };
        if value != user {
            self.problems.push(Located::in_app(
                Diagnostic::error(
                    BUNDLE_USER_OVERRIDE,
                    property.value.span,
                    format!(
                        "`{name}` is `{value}` here, but the bundle job's user is `{user}`: Oozie refuses to start the coordinator (E1303)"
                    ),
                )
                .with_help(format!(
                    "remove this property: a bundle's coordinators run as its user; a server with oozie.configuration.check-and-set.{name}=true overwrites it instead (turn the rule off in coordc.toml)"
                )),
            ));
        }
    }

    /// An `enabled` or `critical` attribute read as Oozie reads it,
    /// `Boolean.parseBoolean` (true only for `true` in any case), warning of
    /// a value that is neither true nor false. `None` when it cannot be
    /// resolved.
    fn flag(&mut self, text: Option<&ElText>, attribute: &str) -> Option<bool> {
        // `enabled` is true without the attribute (BundleStartXCommand:359-361);
        // `critical` false (BundleStartXCommand:167-170).
        let Some(text) = text else {
            return Some(attribute == "enabled");
        };
        let value = self.resolve(text)?;
        let is_true = value.eq_ignore_ascii_case("true");
        if !is_true && !value.eq_ignore_ascii_case("false") {
            let consequence = if attribute == "enabled" {
                ", so this coordinator is never submitted"
            } else {
                ""
            };
            self.problems.push(Located::in_app(
                Diagnostic::warning(
                    BUNDLE_NOT_BOOLEAN,
                    text.span,
                    format!(
                        "{attribute}=\"{value}\" is neither true nor false: Oozie reads it as false{consequence}"
                    ),
                )
                .with_help(format!("write {attribute}=\"true\" or {attribute}=\"false\"")),
            ));
        }
        Some(is_true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml;

    fn submitted(text: &str, config: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
        let arena = xml::Arena::new();
        let doc = xml::parse(text, &arena).unwrap();
        assert!(xml::validate(&doc).is_empty(), "{:?}", xml::validate(&doc));
        let (bundle, lowering) = crate::ir::lower::bundle(&doc.root);
        assert!(lowering.is_empty());
        let vars: VarMap = config
            .iter()
            .map(|(k, v)| (k.to_string(), Some(v.to_string())))
            .collect();
        let (job, problems) = submit(&bundle, &vars, ProcessingZone::UTC);
        let described = job
            .coordinators
            .iter()
            .map(|c| {
                format!(
                    "{} enabled={} critical={} {:?}",
                    c.name, c.enabled, c.critical, c.configuration
                )
            })
            .collect();
        let codes = problems
            .iter()
            .map(|p| format!("{} {}", p.diagnostic.code, p.diagnostic.message))
            .collect();
        (described, codes)
    }

    /// BundleStartXCommand.mergeConfig (287-337): the coordinator's own
    /// `<configuration>` (EL resolved with the bundle's properties and
    /// `bundle:conf`), then its app-path.
    #[test]
    fn coordinator_configuration_is_resolved_with_the_bundle_job() {
        let (coordinators, problems) = submitted(
            r#"<bundle-app name="b-${env}" xmlns="uri:oozie:bundle:0.2">
  <parameters><property><name>env</name><value>prod</value></property></parameters>
  <coordinator name="c1" critical="TRUE">
    <app-path>${nameNode}/apps/c1</app-path>
    <configuration>
      <property><name>start</name><value>${bundle:conf('start')}</value></property>
    </configuration>
  </coordinator>
  <coordinator name="c2" enabled="false"><app-path>/apps/c2</app-path></coordinator>
</bundle-app>"#,
            &[
                ("nameNode", "hdfs://nn:8020"),
                ("start", "2020-01-01T00:00Z"),
            ],
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            coordinators,
            [
                "c1 enabled=true critical=true [(\"start\", \"2020-01-01T00:00Z\"), (\"oozie.coord.application.path\", \"hdfs://nn:8020/apps/c1\")]",
                "c2 enabled=false critical=false [(\"oozie.coord.application.path\", \"/apps/c2\")]",
            ]
        );
    }

    /// E1304 (BundleSubmitXCommand:454-475), names compared after EL; E1004
    /// for an undefined variable; `coord:` functions do not exist in a bundle.
    #[test]
    fn submission_problems() {
        let (coordinators, problems) = submitted(
            r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="${which}"><app-path>/a</app-path></coordinator>
  <coordinator name="c1"><app-path>/b</app-path></coordinator>
  <coordinator name="c3" enabled="yes"><app-path>${missing}</app-path></coordinator>
  <coordinator name="c4"><app-path>${coord:days(1)}</app-path></coordinator>
</bundle-app>"#,
            &[("which", "c1")],
        );
        assert_eq!(coordinators.len(), 1, "{coordinators:?}");
        let codes: Vec<&str> = problems.iter().map(|p| &p[..5]).collect();
        assert_eq!(codes, ["BU001", "BU004", "EL005", "EL002"], "{problems:?}");
    }

    /// The whole definition is one EL text (BundleSubmitXCommand:135): a
    /// `<description>` that does not resolve fails the submission too.
    #[test]
    fn descriptions_are_evaluated() {
        let (_, problems) = submitted(
            r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <parameters><property><name>p</name><value>v</value><description>for ${team}</description></property></parameters>
  <coordinator name="c1"><app-path>/a</app-path>
    <configuration>
      <property><name>q</name><value>x</value><description>${p} is set</description></property>
    </configuration>
  </coordinator>
</bundle-app>"#,
            &[],
        );
        let codes: Vec<&str> = problems.iter().map(|p| &p[..5]).collect();
        assert_eq!(codes, ["EL005"], "{problems:?}");
        assert!(problems[0].contains("team"), "{problems:?}");
    }

    /// E1303 (BundleStartXCommand:317-322): either user property, set to
    /// another user than the bundle job's; the same user is fine.
    #[test]
    fn a_coordinator_may_not_change_the_user() {
        let (_, problems) = submitted(
            r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="c1"><app-path>/a</app-path>
    <configuration>
      <property><name>user.name</name><value>joe</value></property>
      <property><name>mapreduce.job.user.name</name><value>etl</value></property>
    </configuration>
  </coordinator>
</bundle-app>"#,
            &[("user.name", "joe")],
        );
        let codes: Vec<&str> = problems.iter().map(|p| &p[..5]).collect();
        assert_eq!(codes, ["BU006"], "{problems:?}");
        assert!(problems[0].contains("`mapreduce.job.user.name` is `etl`"));
    }

    /// A blank kick-off-time is not an empty one: Oozie parses it, and
    /// fails (BundleSubmitXCommand:371-372, DateUtils.parseDateOozieTZ).
    #[test]
    fn a_blank_kick_off_time_is_no_datetime() {
        let (_, problems) = submitted(
            r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <controls><kick-off-time>   </kick-off-time></controls>
  <coordinator name="c1"><app-path>/a</app-path></coordinator>
</bundle-app>"#,
            &[],
        );
        let codes: Vec<&str> = problems.iter().map(|p| &p[..5]).collect();
        assert_eq!(codes, ["TM001"], "{problems:?}");
    }

    /// E1318 (BundleStartXCommand:182-195); an empty kick-off time is none,
    /// another is an Oozie datetime.
    #[test]
    fn nothing_enabled_and_kick_off() {
        let (_, problems) = submitted(
            r#"<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <controls><kick-off-time>2020-01-01</kick-off-time></controls>
  <coordinator name="c1" enabled="False"><app-path>/a</app-path></coordinator>
</bundle-app>"#,
            &[],
        );
        let codes: Vec<&str> = problems.iter().map(|p| &p[..5]).collect();
        assert_eq!(codes, ["TM001", "BU003"], "{problems:?}");
    }
}
