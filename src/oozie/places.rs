//! Which of Oozie's EL groups evaluates a value, from where the value is
//! written: the elements from the document's root to the one holding it,
//! and the attribute it is the value of (none for an element's text). The
//! group decides which functions and constants the value may use
//! (oozie-default.xml, `oozie.service.ELService.*`). The checks place the
//! coordinator's values with it ([`super::job::placed_texts`]), the
//! language server the value under the cursor.

use crate::el::library::Place;

/// The place of a value in a document whose root element is `elements[0]`
/// (local names, outermost first, ending with the element holding the
/// value); `None` in a document that is no Oozie application.
pub fn place(elements: &[&str], attribute: Option<&str>) -> Option<Place> {
    match *elements.first()? {
        "workflow-app" => Some(Place::Workflow),
        "bundle-app" => Some(Place::Bundle),
        "coordinator-app" | "datasets" => Some(coordinator_place(elements, attribute)),
        _ => None,
    }
}

/// The place of a value in a coordinator or datasets document (`elements`
/// as for [`place`]; the root may be left out).
pub fn coordinator_place(elements: &[&str], attribute: Option<&str>) -> Place {
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
