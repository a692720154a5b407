//! Where an application path (`hdfs://nn:8020/user/etl/apps/daily`,
//! `${nameNode}/apps/daily/workflow.xml`) is in a local checkout, when no
//! `--map` says so: read by its name. Real repositories keep an
//! application in a folder named as on HDFS (`apps/daily/` is deployed to
//! `.../apps/daily`), so the path's last segments name the folder.

use super::files::Files;
use std::path::{Path, PathBuf};

/// The kinds of application a path can name, with the file a folder
/// stands for (Oozie reads `<folder>/workflow.xml`, `coordinator.xml` or
/// `bundle.xml` when the path is not a file: WorkflowAppService.java:123-126,
/// CoordSubmitXCommand.java:1208, BundleSubmitXCommand.java:296 at
/// release-5.2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AppKind {
    Workflow,
    Coordinator,
    Bundle,
}

impl AppKind {
    /// The file a folder application path stands for.
    pub(crate) fn default_file(self) -> &'static str {
        match self {
            AppKind::Workflow => "workflow.xml",
            AppKind::Coordinator => "coordinator.xml",
            AppKind::Bundle => "bundle.xml",
        }
    }

    /// The job property that names the application a job submits
    /// (OozieClient.java:103-107).
    pub(crate) fn path_property(self) -> &'static str {
        match self {
            AppKind::Workflow => "oozie.wf.application.path",
            AppKind::Coordinator => "oozie.coord.application.path",
            AppKind::Bundle => "oozie.bundle.application.path",
        }
    }

    /// The kind of an application document, by its root element.
    pub(crate) fn of_root(root: &str) -> Option<AppKind> {
        match root {
            "workflow-app" => Some(AppKind::Workflow),
            "coordinator-app" => Some(AppKind::Coordinator),
            "bundle-app" => Some(AppKind::Bundle),
            _ => None,
        }
    }
}

/// The segments of an application path, without its scheme and authority
/// (`hdfs://nn:8020/a/b/` is `a`, `b`).
fn segments(path: &str) -> Vec<&str> {
    let path = path.trim();
    let rest = match path.split_once("://") {
        Some((_, rest)) => rest.split_once('/').map_or("", |(_, p)| p),
        None => path,
    };
    rest.split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect()
}

/// `path` with the first `--map PREFIX=DIR` prefix it starts with replaced by
/// the local folder.
pub(crate) fn mapped(maps: &[(String, String)], path: &str) -> Option<PathBuf> {
    // (A prefix ends at a path segment: `hdfs://nn/apps` is not a prefix
    // of `hdfs://nn/apps2`.)
    let (prefix, local) = maps.iter().find(|(p, _)| {
        path.strip_prefix(p.as_str())
            .is_some_and(|rest| p.ends_with('/') || rest.is_empty() || rest.starts_with('/'))
    })?;
    // (A map onto a file stands for that file: joining nothing would
    // make it `FILE/`.)
    let rest = path[prefix.len()..].trim_start_matches('/');
    if rest.is_empty() {
        return Some(PathBuf::from(local));
    }
    Some(PathBuf::from(local).join(rest))
}

/// The local file of the application `app_path` names, read by a file
/// in `from` (a folder): mapped by `maps` (a folder stands for its
/// `kind`'s file), else found by name in the checkout, else (a path
/// without a scheme) relative to `from`; or none.
pub(crate) fn local_application(
    app_path: &str,
    from: &Path,
    kind: AppKind,
    maps: &[(String, String)],
    files: &Files,
) -> Option<PathBuf> {
    let app_path = app_path.trim();
    let local = match mapped(maps, app_path) {
        Some(local) => local,
        None if app_path.contains("://") => return by_name(app_path, from, Some(kind), files),
        None => from.join(app_path),
    };
    let file = if files.is_dir(&local) {
        local.join(kind.default_file())
    } else {
        local
    };
    files.is_file(&file).then_some(file)
}

/// Whether the application path `path` names the application file `app`
/// of `kind`: its folder by name (when `app` has the name a folder stands
/// for), or the file by its name.
pub(crate) fn names(path: &str, app: &Path, kind: AppKind) -> bool {
    let segments = segments(path);
    let file = app.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let folder = app
        .parent()
        .and_then(|p| std::path::absolute(p).ok())
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    match segments.as_slice() {
        // (A file named in full is this one when the names agree: real
        // checkouts often keep it in a folder named otherwise than on HDFS.)
        [.., last] if last.ends_with(".xml") => *last == file,
        [.., last] => *last == folder && file == kind.default_file(),
        [] => false,
    }
}

/// The file `path` names in the checkout around `from` (a folder): the
/// longest tail of its segments that is there, under `from` or a parent of
/// it up to the repository root (the first folder holding `.git`); a
/// folder stands for its `kind`'s file (without a kind, only files count).
pub(crate) fn by_name(
    path: &str,
    from: &Path,
    kind: Option<AppKind>,
    files: &Files,
) -> Option<PathBuf> {
    let segments = segments(path);
    let from = std::path::absolute(from).ok()?;
    for taken in (1..=segments.len()).rev() {
        let tail: PathBuf = segments.iter().skip(segments.len() - taken).collect();
        // A file's name alone (`datasets.xml`) is too common to tell: the
        // tail names a folder too.
        let names_a_folder = taken >= 2 || tail.extension().is_none_or(|e| e != "xml");
        if !names_a_folder || (kind.is_none() && taken < 2) {
            continue;
        }
        for dir in from.ancestors() {
            let candidate = dir.join(&tail);
            let file = match kind {
                Some(kind) if candidate.extension().is_none_or(|e| e != "xml") => {
                    candidate.join(kind.default_file())
                }
                _ => candidate,
            };
            if files.is_file(&file) {
                return Some(file);
            }
            if dir.join(".git").exists() {
                break;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_names_a_folder_by_its_name_or_a_file_by_its_names() {
        let app = Path::new("/repo/apps/daily/coordinator.xml");
        let kind = AppKind::Coordinator;
        assert!(names("hdfs://nn:8020/user/etl/apps/daily", app, kind));
        assert!(names("hdfs://nn:8020/user/etl/apps/daily/", app, kind));
        assert!(names("/apps/daily/coordinator.xml", app, kind));
        assert!(!names("hdfs://nn/apps/daily/other.xml", app, kind));
        assert!(names(
            "hdfs://nn/user/oozie/hive/coordinator.xml",
            app,
            kind
        ));
        assert!(!names("hdfs://nn/apps/weekly", app, kind));
        // A folder stands for the kind's file, not another.
        let named = Path::new("/repo/apps/daily/coord.xml");
        assert!(!names("hdfs://nn/apps/daily", named, kind));
        assert!(names("hdfs://nn/apps/daily/coord.xml", named, kind));
        assert!(!names("hdfs://nn", app, kind));
    }

    #[test]
    fn a_path_is_found_by_its_longest_tail_in_the_checkout() {
        let root = std::env::temp_dir().join(format!("coordc-locate-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in [
            "repo/.git",
            "repo/oozie/daily",
            "repo/oozie/wf",
            "repo/other/wf",
        ] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        std::fs::write(root.join("repo/oozie/wf/workflow.xml"), "<x/>").unwrap();
        std::fs::write(root.join("repo/other/wf/workflow.xml"), "<x/>").unwrap();
        std::fs::write(root.join("workflow.xml"), "<x/>").unwrap();
        let files = Files::default();
        let from = root.join("repo/oozie/daily");
        let kind = AppKind::Workflow;
        // `oozie/wf` is a longer tail than `wf` alone.
        assert_eq!(
            by_name("hdfs://nn/user/x/oozie/wf", &from, Some(kind), &files),
            Some(root.join("repo/oozie/wf/workflow.xml"))
        );
        assert_eq!(
            by_name(
                "${nameNode}/user/x/other/wf/workflow.xml",
                &from,
                None,
                &files
            ),
            Some(root.join("repo/other/wf/workflow.xml"))
        );
        // Nothing above the repository root is read.
        assert_eq!(
            by_name("hdfs://nn/nowhere", &from, Some(kind), &files),
            None
        );
        assert_eq!(by_name("hdfs://nn/oozie/wf", &from, None, &files), None);
        // A file's name alone does not say which one: `workflow.xml` is
        // above the repository and in two folders of it.
        assert_eq!(
            by_name("hdfs://nn/a/workflow.xml", &from, None, &files),
            None
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_map_prefix_ends_at_a_path_segment() {
        let maps = [("hdfs://nn/apps".to_string(), "local".to_string())];
        assert_eq!(
            mapped(&maps, "hdfs://nn/apps/c/coordinator.xml"),
            Some(PathBuf::from("local/c/coordinator.xml"))
        );
        assert_eq!(
            mapped(&maps, "hdfs://nn/apps"),
            Some(PathBuf::from("local"))
        );
        assert_eq!(mapped(&maps, "hdfs://nn/apps2/c"), None);
        let file = [(
            "hdfs://nn/apps/wf.xml".to_string(),
            "local/wf.xml".to_string(),
        )];
        assert_eq!(
            mapped(&file, "hdfs://nn/apps/wf.xml"),
            Some(PathBuf::from("local/wf.xml"))
        );
        let slash = [("hdfs://nn/".to_string(), "root".to_string())];
        assert_eq!(mapped(&slash, "hdfs://nn/a"), Some(PathBuf::from("root/a")));
    }
}
