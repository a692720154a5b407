//! Which of Oozie's EL groups evaluates a value, from where the value is
//! written: the elements from the document's root to the one holding it,
//! and the attribute it is the value of (none for an element's text). The
//! group decides which functions and constants the value may use
//! (oozie-default.xml, `oozie.service.ELService.*`). A coordinator's values
//! are placed with it here ([`placed_texts`]), and those that use what their
//! place does not define found (EL009); the language server places the
//! value under the cursor.

use crate::diag::rules::EL_MISPLACED;
use crate::diag::{Diagnostic, FileRef, Located};
use crate::el::eval::Variables;
use crate::el::library::Place;
use crate::ir::{Coordinator, Dataset, ElText, Instances};
use crate::oozie::input_logic;

/// The place of a value in a document whose root element is `elements[0]`
/// (local names, outermost first, ending with the element holding the
/// value); `None` in a document that is no Oozie application.
pub(crate) fn place(elements: &[&str], attribute: Option<&str>) -> Option<Place> {
    match *elements.first()? {
        "workflow-app" => Some(Place::Workflow),
        "bundle-app" => Some(Place::Bundle),
        "coordinator-app" | "datasets" => Some(coordinator_place(elements, attribute)),
        _ => None,
    }
}

/// The place of a value in a coordinator or datasets document (`elements`
/// as for [`place`]; the root may be left out).
pub(crate) fn coordinator_place(elements: &[&str], attribute: Option<&str>) -> Place {
    let element = elements.last().copied().unwrap_or_default();
    let within = |name: &str| elements.contains(&name);
    match (element, attribute) {
        (_, Some("frequency")) => Place::Frequency,
        ("dataset", Some("initial-instance")) => Place::InitialInstance,
        // The input check's min and wait are evaluated with the action's
        // data evaluator (CoordCommandUtils.evaluateInputCheck).
        (_, Some("min" | "wait")) if within("input-logic") => Place::ActionConfig,
        (_, Some(_)) => Place::Submit,
        ("instance", None) => Place::Instance,
        ("start-instance" | "end-instance", None) => Place::RangeInstance,
        ("timeout", None) => Place::Timeout,
        _ if within("configuration") => Place::ActionConfig,
        // `<sla:info>` and the SLA elements in it.
        _ if within("info") => Place::Sla,
        _ => Place::Submit,
    }
}

/// A dataset's values with their places (the EL group each is evaluated
/// with); its frequency is read by [`super::datasets::dataset_frequency`].
pub(crate) fn dataset_texts(dataset: &Dataset) -> impl Iterator<Item = (FileRef, &ElText, Place)> {
    let attribute = |name| coordinator_place(&["dataset"], Some(name));
    [
        (&dataset.initial_instance, attribute("initial-instance")),
        (&dataset.timezone, attribute("timezone")),
        (
            &dataset.uri_template,
            coordinator_place(&["dataset", "uri-template"], None),
        ),
    ]
    .into_iter()
    .chain(
        (dataset.done_flag.iter()).map(|d| (d, coordinator_place(&["dataset", "done-flag"], None))),
    )
    .map(|(text, place)| (dataset.file, text, place))
}

/// Every value Oozie evaluates at submission or materialization, with the file
/// it is in (`None`: the application) and its place, whose EL group decides
/// which functions and constants it may use (oozie-default.xml, `oozie.service.ELService.*`).
pub(crate) fn placed_texts<'a>(
    app: &'a Coordinator,
    included: &'a [Dataset],
) -> Vec<(FileRef, &'a ElText, Place)> {
    // (Sized for the usual values up front: the list is made twice a file.)
    let mut texts: Vec<(FileRef, &ElText, Place)> = Vec::with_capacity(
        4 + 4 * (app.datasets.len() + included.len())
            + 2 * app.inputs.len()
            + app.outputs.len()
            + 2 * app.action.configuration.len(),
    );
    // (Each place read from where its value is written; below the root.)
    let app_attribute = |name| coordinator_place(&[], Some(name));
    texts.extend([
        (FileRef::App, &app.start, app_attribute("start")),
        (FileRef::App, &app.end, app_attribute("end")),
        (FileRef::App, &app.timezone, app_attribute("timezone")),
        (
            FileRef::App,
            &app.action.app_path,
            coordinator_place(&["action", "workflow", "app-path"], None),
        ),
    ]);
    for dataset in app.datasets.iter().chain(included) {
        texts.extend(dataset_texts(dataset));
    }
    let instance = coordinator_place(&["input-events", "data-in", "instance"], None);
    let range = coordinator_place(&["input-events", "data-in", "start-instance"], None);
    for data_in in &app.inputs {
        match &data_in.instances {
            Instances::List(list) => texts.extend(list.iter().map(|t| (FileRef::App, t, instance))),
            Instances::Range { start, end } => {
                texts.push((FileRef::App, start, range));
                texts.push((FileRef::App, end, range));
            }
        }
    }
    let instance = coordinator_place(&["output-events", "data-out", "instance"], None);
    texts.extend(
        app.outputs
            .iter()
            .map(|d| (FileRef::App, &d.instance, instance)),
    );
    let property = coordinator_place(
        &["action", "workflow", "configuration", "property", "value"],
        None,
    );
    for p in &app.action.configuration {
        texts.push((FileRef::App, &p.name, property));
        texts.push((FileRef::App, &p.value, property));
    }
    let sla = coordinator_place(&["action", "info", "nominal-time"], None);
    texts.extend(
        app.action
            .sla
            .iter()
            .flat_map(|s| &s.fields)
            .map(|(_, v)| (FileRef::App, v, sla)),
    );
    let input_check = coordinator_place(&["input-logic", "and"], Some("min"));
    texts.extend(
        app.input_logic
            .iter()
            .flat_map(|l| &l.roots)
            .flat_map(input_logic::values)
            .map(|t| (FileRef::App, t, input_check)),
    );
    texts
}

/// The values that use a function or constant their place does not define
/// (EL009).
pub(crate) fn misplaced(
    app: &Coordinator,
    included: &[Dataset],
    vars: &dyn Variables,
) -> Vec<Located> {
    misplaced_in(placed_texts(app, included), vars)
}

/// Those of `texts` that use a function or constant their place does not
/// define (EL009).
pub(crate) fn misplaced_in<'a>(
    texts: impl IntoIterator<Item = (FileRef, &'a ElText, Place)>,
    vars: &dyn Variables,
) -> Vec<Located> {
    let mut problems = Vec::new();
    for (file, text, place) in texts {
        if let Some(m) = text.shared().first_misplaced(place, vars) {
            let kind = if m.is_function {
                "function"
            } else {
                "constant"
            };
            problems.push(Located {
                file,
                diagnostic: Diagnostic::error(
                    EL_MISPLACED,
                    text.file_span(m.span),
                    format!(
                        "{} cannot be used in {}: Oozie's EL there has no such {kind}",
                        m.what,
                        place.describe()
                    ),
                ),
            });
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_placed_by_their_element_and_attribute() {
        let coordinator = |path: &[&str], attribute| coordinator_place(path, attribute);
        assert_eq!(
            coordinator(&["coordinator-app"], Some("frequency")),
            Place::Frequency
        );
        assert_eq!(
            coordinator(&["datasets", "dataset"], Some("initial-instance")),
            Place::InitialInstance
        );
        assert_eq!(
            coordinator(&["input-events", "data-in", "start-instance"], None),
            Place::RangeInstance
        );
        assert_eq!(
            coordinator(&["input-logic", "or"], Some("min")),
            Place::ActionConfig
        );
        assert_eq!(
            coordinator(
                &["action", "workflow", "configuration", "property", "value"],
                None
            ),
            Place::ActionConfig
        );
        assert_eq!(
            coordinator(&["action", "info", "should-end"], None),
            Place::Sla
        );
        assert_eq!(
            coordinator(&["dataset", "uri-template"], None),
            Place::Submit
        );
        assert_eq!(
            place(&["workflow-app", "action"], Some("name")),
            Some(Place::Workflow)
        );
        assert_eq!(place(&["configuration"], None), None);
        assert_eq!(place(&[], None), None);
    }
}
