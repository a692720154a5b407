//! Which rules a check reports: `--select`, `--extend-select` and `--ignore`
//! (and the same keys of a coordc.toml's `[check]` table), with ruff's
//! semantics. A selector is `ALL`, a family (`DST`, `EL`), a family and the
//! first digits of its codes (`EL00`), or a code (`EL005`). Each layer (the
//! file, then the command line) starts from what the one before enabled, or
//! from its own `select` when it has one; within a layer the selectors are
//! applied from the least specific to the most, a level's selects before its
//! ignores, so `--select EL --ignore EL005` is every EL rule but EL005 and
//! `--select EL005 --ignore EL` is EL005 alone.

use crate::diag::closest;
use crate::diag::rules::{Code, RULES, Rule};

/// One selector, checked against the registry.
#[derive(Debug, Clone, PartialEq)]
pub enum Selector {
    All,
    /// A code or a prefix of codes, upper case.
    Prefix(String),
}

impl Selector {
    /// Reads `text` (any case); an unknown code or prefix says the closest.
    pub(crate) fn parse(text: &str) -> Result<Selector, String> {
        let upper = text.trim().to_ascii_uppercase();
        if upper == "ALL" {
            return Ok(Selector::All);
        }
        let family = upper.trim_end_matches(|c: char| c.is_ascii_digit());
        let known = !family.is_empty()
            && RULES.iter().any(|r| {
                self::family(r.code.as_str()) == family && r.code.as_str().starts_with(&upper)
            });
        if known {
            Ok(Selector::Prefix(upper))
        } else {
            Err(format!(
                "no rule or prefix {text}{}",
                suggestion(&upper, true)
            ))
        }
    }

    /// How specific it is: ALL, then a family, then each digit more.
    fn specificity(&self) -> usize {
        match self {
            Selector::All => 0,
            Selector::Prefix(p) => 1 + p.len() - family(p).len(),
        }
    }

    fn matches(&self, rule: &Rule) -> bool {
        match self {
            Selector::All => true,
            Selector::Prefix(p) => {
                family(rule.code.as_str()) == family(p) && rule.code.as_str().starts_with(p)
            }
        }
    }
}

/// The letters a code starts with: its family (`DST` of `DST001`).
fn family(code: &str) -> &str {
    code.trim_end_matches(|c: char| c.is_ascii_digit())
}

/// "; did you mean X?" for a code (or, `with_prefixes`, a selector) not in
/// the registry; else the codes of its family, or the families there are.
pub(crate) fn suggestion(text: &str, with_prefixes: bool) -> String {
    let mut families: Vec<&str> = RULES.iter().map(|r| family(r.code.as_str())).collect();
    families.sort_unstable();
    families.dedup();
    let codes = RULES.iter().map(|r| r.code.as_str());
    let candidates: Vec<&str> = if with_prefixes {
        codes.chain(families.iter().copied()).collect()
    } else {
        codes.collect()
    };
    if let Some(close) = closest(text, candidates.iter().map(|c| c.to_string())) {
        return format!("; did you mean {close}?");
    }
    let upper = text.to_ascii_uppercase();
    let same: Vec<&str> = RULES
        .iter()
        .map(|r| r.code.as_str())
        .filter(|c| family(c) == family(&upper))
        .collect();
    if same.is_empty() {
        format!(
            " (the families are {}; `coordc rules` lists the codes)",
            families.join(", ")
        )
    } else {
        format!(" (the {} rules are {})", family(&upper), same.join(", "))
    }
}

/// One layer of selection: a coordc.toml's `[check]`, or the command line.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Replaces what the layers before enabled.
    pub select: Option<Vec<Selector>>,
    pub extend_select: Vec<Selector>,
    pub ignore: Vec<Selector>,
}

/// The rules enabled, one flag per rule of [`RULES`].
#[derive(Debug, Clone, PartialEq)]
pub struct RuleSet {
    on: Vec<bool>,
}

impl Default for RuleSet {
    /// Every rule, as with no selection.
    fn default() -> Self {
        RuleSet {
            on: vec![true; RULES.len()],
        }
    }
}

impl RuleSet {
    /// This set with `layer` applied over it.
    pub(crate) fn with(mut self, layer: &Selection) -> RuleSet {
        if layer.select.is_some() {
            self.on.fill(false);
        }
        let selects: Vec<&Selector> = layer
            .select
            .iter()
            .flatten()
            .chain(&layer.extend_select)
            .collect();
        let most = selects
            .iter()
            .copied()
            .chain(&layer.ignore)
            .map(Selector::specificity)
            .max()
            .unwrap_or(0);
        for specificity in 0..=most {
            for (selectors, on) in [(&selects, true), (&layer.ignore.iter().collect(), false)] {
                for selector in selectors.iter().filter(|s| s.specificity() == specificity) {
                    for (flag, rule) in self.on.iter_mut().zip(RULES) {
                        if selector.matches(rule) {
                            *flag = on;
                        }
                    }
                }
            }
        }
        self
    }

    /// Whether problems with `code` are reported. (A code outside the
    /// registry is.)
    pub(crate) fn contains(&self, code: Code) -> bool {
        RULES
            .iter()
            .position(|r| r.code == code)
            .is_none_or(|i| self.on.get(i).copied().unwrap_or(true))
    }

    pub(crate) fn is_empty(&self) -> bool {
        !self.on.contains(&true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::rules::{EL_SYNTAX, WF_LOOP, XML_SYNTAX};

    fn selectors(texts: &[&str]) -> Vec<Selector> {
        texts.iter().map(|t| Selector::parse(t).unwrap()).collect()
    }

    fn layer(select: Option<&[&str]>, extend: &[&str], ignore: &[&str]) -> Selection {
        Selection {
            select: select.map(selectors),
            extend_select: selectors(extend),
            ignore: selectors(ignore),
        }
    }

    fn enabled(set: &RuleSet) -> Vec<&'static str> {
        RULES
            .iter()
            .filter(|r| set.contains(r.code))
            .map(|r| r.code.as_str())
            .collect()
    }

    #[test]
    fn selectors_are_codes_families_and_their_prefixes() {
        assert_eq!(Selector::parse("all"), Ok(Selector::All));
        assert_eq!(Selector::parse("dst"), Ok(Selector::Prefix("DST".into())));
        assert_eq!(Selector::parse("EL00"), Ok(Selector::Prefix("EL00".into())));
        assert_eq!(Selector::parse("XML001").unwrap().specificity(), 4);
        // A family is its whole letters: `C` is no family, `EL9` no code's prefix.
        for wrong in ["C", "EL9", "XX999", "", "TM001X", "D5T001"] {
            assert!(Selector::parse(wrong).is_err(), "{wrong}");
        }
        let said = Selector::parse("TM01").unwrap_err();
        assert!(
            said.starts_with("no rule or prefix TM01; did you mean TM0"),
            "{said}"
        );
        let said = Selector::parse("QQQQ").unwrap_err();
        assert!(said.contains("the families are BU, CF, CO,"), "{said}");
    }

    #[test]
    fn the_most_specific_selector_wins() {
        let all = RuleSet::default();
        let el = enabled(&all.clone().with(&layer(Some(&["EL"]), &[], &["EL005"])));
        assert_eq!(el.len(), 9);
        assert!(!el.contains(&"EL005") && el.contains(&"EL001"));
        // The code is more specific than the family that ignores it.
        let one = enabled(&all.clone().with(&layer(Some(&["EL005"]), &[], &["EL"])));
        assert_eq!(one, ["EL005"]);
        // At the same specificity, the ignore wins.
        let none = all.clone().with(&layer(Some(&["DST"]), &[], &["DST"]));
        assert!(none.is_empty());
        // A prefix of digits is between the family and the code.
        let el00 = enabled(&all.clone().with(&layer(Some(&["EL"]), &[], &["EL00"])));
        assert_eq!(el00, ["EL010"]);
        // Without `select`, the layer starts from the one before.
        let file = all
            .clone()
            .with(&layer(Some(&["DST", "TM"]), &[], &["TM005"]));
        let cli = enabled(&file.clone().with(&layer(None, &["CR001"], &["DST002"])));
        assert_eq!(
            cli,
            [
                "TM001", "TM002", "TM003", "TM004", "TM006", "DST001", "DST003", "CR001"
            ]
        );
        // With it, the file's choices (its ignores too) are replaced.
        let cli = enabled(&file.with(&layer(Some(&["TM005"]), &[], &[])));
        assert_eq!(cli, ["TM005"]);
        // ALL, then ignores.
        let most = all.with(&layer(Some(&["ALL"]), &[], &["XML", "WF"]));
        assert!(most.contains(EL_SYNTAX) && !most.contains(XML_SYNTAX) && !most.contains(WF_LOOP));
    }
}
