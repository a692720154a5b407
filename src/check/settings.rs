//! `coordc.toml`, in a checked folder: rule levels, ignores by path, and the
//! Oozie server settings that change what is valid.
//!
//! ```toml
//! processing-timezone = "GMT+0530"   # oozie.processing.timezone
//! check-maximum-frequency = false    # oozie.service.coord.check.maximum.frequency
//! server = "cdp-7.3"                 # the server's profile, as --server (docs/servers.md)
//! docs-url = "https://example.org/coordc/{code}.html"  # where rule pages are linked
//!
//! [check]                          # which rules run, as --select, --extend-select,
//! select = ["ALL"]                   # --ignore (those win); codes, families (DST)
//! ignore = ["DST002"]                # or prefixes (EL00); see `check::select`
//!
//! [rules]
//! TM002 = "warning"                  # error, warning, note or off
//!
//! [ignore]
//! "legacy/**" = ["XML004", "EL005"]  # paths relative to the folder; "*" is every code
//!
//! [map]                              # as --map: where remote paths are read locally
//! "hdfs://nn:8020/apps" = "apps"     # a folder relative to this file's
//! ```

use super::select::{Selection, Selector};
use crate::diag::Severity;
use crate::diag::rules::Code;
use crate::oozie::servers::Server;
use globset::{Glob, GlobMatcher};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// A rule's level as `coordc.toml` sets it.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Level {
    Error,
    Warning,
    Note,
    Off,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct File {
    processing_timezone: Option<String>,
    check_maximum_frequency: Option<bool>,
    server: Option<String>,
    docs_url: Option<String>,
    #[serde(default)]
    check: CheckTable,
    #[serde(default)]
    rules: BTreeMap<String, Level>,
    #[serde(default)]
    ignore: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    map: BTreeMap<String, String>,
}

/// `[check]`: the rule selection of the folder.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct CheckTable {
    select: Option<Vec<String>>,
    #[serde(default)]
    extend_select: Vec<String>,
    #[serde(default)]
    ignore: Vec<String>,
}

impl CheckTable {
    fn selection(&self) -> Result<Selection, String> {
        let parse = |key: &str, texts: &[String]| {
            texts
                .iter()
                .map(|t| Selector::parse(t).map_err(|e| format!("[check] {key}: {e}")))
                .collect::<Result<Vec<_>, _>>()
        };
        Ok(Selection {
            select: self
                .select
                .as_deref()
                .map(|s| parse("select", s))
                .transpose()?,
            extend_select: parse("extend-select", &self.extend_select)?,
            ignore: parse("ignore", &self.ignore)?,
        })
    }
}

/// The settings of one folder.
#[derive(Debug, Default)]
pub struct Settings {
    pub processing_timezone: Option<String>,
    /// Oozie's minimum-interval check of frequencies (default on).
    pub check_maximum_frequency: bool,
    /// The server checked against; without one, the newest Apache release.
    pub server: Option<Server>,
    /// `[check]`: the rules reported, before the command line's choice.
    pub selection: Selection,
    /// Where rule pages are linked (`{code}` in it), instead of
    /// [`crate::diag::rules::DEFAULT_DOCS_URL`].
    pub docs_url: Option<String>,
    levels: BTreeMap<String, Level>,
    ignores: Vec<(GlobMatcher, Vec<String>)>,
    /// `[map]`: remote prefixes and the local folders (relative to the
    /// settings' folder) they are read from, as `--map` gives them.
    pub maps: Vec<(String, String)>,
}

impl Settings {
    /// The defaults, as with no `coordc.toml`.
    pub(crate) fn none() -> Settings {
        Settings {
            check_maximum_frequency: true,
            ..Settings::default()
        }
    }

    /// Reads `coordc.toml` text; an error says what is wrong where.
    pub(crate) fn parse(text: &str) -> Result<Settings, String> {
        let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut ignores = Vec::new();
        for (pattern, codes) in file.ignore {
            let glob = Glob::new(&pattern).map_err(|e| format!("[ignore] \"{pattern}\": {e}"))?;
            ignores.push((
                glob.compile_matcher(),
                codes.iter().map(|c| c.to_ascii_uppercase()).collect(),
            ));
        }
        let levels = file
            .rules
            .into_iter()
            .map(|(code, level)| (code.to_ascii_uppercase(), level))
            .collect::<BTreeMap<_, _>>();
        for code in levels.keys() {
            if crate::diag::rules::rule(code).is_none() {
                return Err(format!(
                    "[rules] {code}: no such rule (`coordc rules` lists them)"
                ));
            }
        }
        let server = file
            .server
            .as_deref()
            .map(|name| Server::parse(name).map_err(|e| format!("server: {e}")))
            .transpose()?;
        if let Some(template) = &file.docs_url {
            crate::diag::rules::check_docs_url(template)?;
        }
        Ok(Settings {
            processing_timezone: file.processing_timezone,
            docs_url: file.docs_url,
            check_maximum_frequency: file.check_maximum_frequency.unwrap_or(true),
            server,
            selection: file.check.selection()?,
            levels,
            ignores,
            maps: file.map.into_iter().collect(),
        })
    }

    /// The severity a problem with `code` and `severity` gets in `path`
    /// (relative to the settings' folder); `None` when it is ignored or off.
    pub(crate) fn level(&self, path: &Path, code: Code, severity: Severity) -> Option<Severity> {
        let ignored = self.ignores.iter().any(|(glob, codes)| {
            glob.is_match(path) && codes.iter().any(|c| c == "*" || c == code.as_str())
        });
        if ignored {
            return None;
        }
        match self.levels.get(code.as_str()) {
            None => Some(severity),
            Some(Level::Off) => None,
            Some(Level::Error) => Some(Severity::Error),
            Some(Level::Warning) => Some(Severity::Warning),
            Some(Level::Note) => Some(Severity::Note),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::rules::{EL_UNKNOWN_VARIABLE, TIME_DATETIME, TIME_ZONE, XML_CONTENT};

    #[test]
    fn levels_ignores_and_server_settings() {
        let s = Settings::parse(
            "processing-timezone = \"GMT+0530\"\ncheck-maximum-frequency = false\n[rules]\ntm002 = \"warning\"\nEL005 = \"off\"\n[ignore]\n\"legacy/**\" = [\"XML004\"]\n\"old.xml\" = [\"*\"]\n",
        )
        .unwrap();
        assert_eq!(s.processing_timezone.as_deref(), Some("GMT+0530"));
        assert!(!s.check_maximum_frequency);
        let p = Path::new("apps/a.xml");
        assert_eq!(
            s.level(p, TIME_ZONE, Severity::Error),
            Some(Severity::Warning)
        );
        assert_eq!(s.level(p, EL_UNKNOWN_VARIABLE, Severity::Error), None);
        assert_eq!(
            s.level(p, XML_CONTENT, Severity::Error),
            Some(Severity::Error)
        );
        assert_eq!(
            s.level(Path::new("legacy/x/a.xml"), XML_CONTENT, Severity::Error),
            None
        );
        assert_eq!(
            s.level(Path::new("old.xml"), TIME_DATETIME, Severity::Error),
            None
        );
        assert!(Settings::none().check_maximum_frequency);
        // Mistakes in the file are reported, not ignored.
        assert!(
            Settings::parse("[rules]\nXX001 = \"off\"")
                .unwrap_err()
                .contains("no such rule")
        );
        assert!(
            Settings::parse("colour = 1")
                .unwrap_err()
                .contains("unknown field")
        );
        assert!(Settings::parse("[rules]\nTM001 = \"loud\"").is_err());
        let docs = Settings::parse("docs-url = \"https://example.org/{code}.html\"").unwrap();
        assert_eq!(
            docs.docs_url.as_deref(),
            Some("https://example.org/{code}.html")
        );
        assert!(
            Settings::parse("docs-url = \"https://example.org/rules\"")
                .unwrap_err()
                .contains("no `{code}`")
        );
        assert!(
            Settings::parse("[check]\nignore = [\"DST\", \"TM09\"]")
                .unwrap_err()
                .starts_with("[check] ignore: no rule or prefix TM09; did you mean")
        );
        assert_eq!(
            Settings::parse("server = \"cdp-7.3\"").unwrap().server,
            Some(Server::Cdp73)
        );
        assert_eq!(Settings::none().server, None);
        let unknown = Settings::parse("server = \"oozie-4.1\"").unwrap_err();
        assert!(
            unknown.starts_with(
                "server: no server profile `oozie-4.1`: the profiles are oozie-4.2, oozie-4.3"
            ),
            "{unknown}"
        );
    }

    #[test]
    fn the_check_table_selects_rules() {
        let s = Settings::parse(
            "[check]\nselect = [\"dst\"]\nextend-select = [\"TM005\"]\nignore = [\"DST002\"]\n",
        )
        .unwrap();
        assert_eq!(
            s.selection.select,
            Some(vec![Selector::Prefix("DST".into())])
        );
        assert_eq!(
            s.selection.extend_select,
            [Selector::Prefix("TM005".into())]
        );
        assert_eq!(s.selection.ignore, [Selector::Prefix("DST002".into())]);
        let none = Settings::none().selection;
        assert!(none.select.is_none() && none.extend_select.is_empty() && none.ignore.is_empty());
        assert!(Settings::parse("[check]\nchoose = []").is_err());
    }
}
