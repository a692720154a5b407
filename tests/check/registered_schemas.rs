//! coordc has a schema for every namespace a stock Oozie server validates
//! workflows against: the list below is the value of
//! `oozie.service.SchemaService.wf.schemas`, copied from Oozie's
//! core/src/main/resources/oozie-default.xml:1742-1757 (apache/oozie
//! 8bdac8be). Each `NAME-VERSION.xsd` (without a leading `oozie-`) there
//! declares `targetNamespace="uri:oozie:NAME:VERSION"`, but for
//! oozie-common-1.0.xsd, which has none and which the 1.0 schemas include.

use coordc::xml::schema::{SCHEMA_FILES, schemas};

/// oozie-default.xml:1744-1756, as written there.
const REGISTERED: &str = "
            oozie-common-1.0.xsd,
            oozie-workflow-0.1.xsd,oozie-workflow-0.2.xsd,oozie-workflow-0.2.5.xsd,oozie-workflow-0.3.xsd,oozie-workflow-0.4.xsd,
            oozie-workflow-0.4.5.xsd,oozie-workflow-0.5.xsd,oozie-workflow-1.0.xsd,
            shell-action-0.1.xsd,shell-action-0.2.xsd,shell-action-0.3.xsd,shell-action-1.0.xsd,
            email-action-0.1.xsd,email-action-0.2.xsd,
            hive-action-0.2.xsd,hive-action-0.3.xsd,hive-action-0.4.xsd,hive-action-0.5.xsd,hive-action-0.6.xsd,hive-action-1.0.xsd,
            sqoop-action-0.2.xsd,sqoop-action-0.3.xsd,sqoop-action-0.4.xsd,sqoop-action-1.0.xsd,
            ssh-action-0.1.xsd,ssh-action-0.2.xsd,
            distcp-action-0.1.xsd,distcp-action-0.2.xsd,distcp-action-1.0.xsd,
            oozie-sla-0.1.xsd,oozie-sla-0.2.xsd,
            hive2-action-0.1.xsd,hive2-action-0.2.xsd,hive2-action-1.0.xsd,
            spark-action-0.1.xsd,spark-action-0.2.xsd,spark-action-1.0.xsd,
            git-action-1.0.xsd
        ";

fn registered() -> Vec<&'static str> {
    REGISTERED
        .split(',')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .collect()
}

/// `uri:oozie:NAME:VERSION` of a registered `[oozie-]NAME-VERSION.xsd`.
fn namespace_of(file: &str) -> String {
    let stem = file.strip_suffix(".xsd").unwrap();
    let stem = stem.strip_prefix("oozie-").unwrap_or(stem);
    let (name, version) = stem.rsplit_once('-').unwrap();
    format!("uri:oozie:{name}:{version}")
}

#[test]
fn every_registered_workflow_schema_is_embedded_under_its_namespace() {
    let files = registered();
    assert_eq!(files.len(), 39);
    let all = schemas();
    for file in files {
        assert!(
            SCHEMA_FILES.iter().any(|(name, _, _)| *name == file),
            "grammar/xsd/{file} is missing"
        );
        if file == "oozie-common-1.0.xsd" {
            continue;
        }
        let namespace = namespace_of(file);
        let schema = all
            .get(&namespace)
            .unwrap_or_else(|| panic!("no schema for {namespace}"));
        assert_eq!(schema.file, file, "{namespace}");
    }
}

/// And coordc has no workflow, action or SLA schema Oozie does not register.
#[test]
fn no_workflow_schema_beyond_the_registered_ones() {
    let registered = registered();
    for (file, _, _) in SCHEMA_FILES {
        let for_workflows = file.contains("-action-")
            || file.starts_with("oozie-workflow-")
            || file.starts_with("oozie-sla-")
            || *file == "oozie-common-1.0.xsd";
        assert!(
            !for_workflows || registered.contains(file),
            "grammar/xsd/{file} is not registered by Oozie"
        );
    }
}
