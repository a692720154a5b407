//! EL values and the JSP 2.0 coercions (JSP.2.8) exactly as commons-el 1.0
//! (`Coercions`) applies them. Error texts follow commons-el's wording so users
//! who know Oozie's messages recognise them.

use super::java_double::{parse_java_double, write_java};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::Arc;

/// A runtime value. Oozie's variables are strings (job properties) or null;
/// functions add longs, doubles, booleans, and the maps of a running workflow.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    Long(i64),
    Double(f64),
    Str(Cow<'a, str>),
    /// A `java.util.Map` (`wf:actionData`, `hadoop:counters`), read with
    /// `m['key']` or `m.key`. Shared: a map is handed out whole at each call.
    Map(Arc<ElMap>),
}

/// A map's entries, in the order they were given (coordc's stand-in for the
/// hash order Java would print them in).
pub(crate) type ElMap = Vec<(String, Value<'static>)>;

/// The type names `coordc eval --format json` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueType {
    Null,
    Boolean,
    Long,
    Double,
    String,
    Map,
}

impl<'a> Value<'a> {
    pub(crate) fn value_type(&self) -> ValueType {
        match self {
            Value::Null => ValueType::Null,
            Value::Bool(_) => ValueType::Boolean,
            Value::Long(_) => ValueType::Long,
            Value::Double(_) => ValueType::Double,
            Value::Str(_) => ValueType::String,
            Value::Map(_) => ValueType::Map,
        }
    }

    /// The Java class commons-el names in its messages.
    pub(crate) fn java_class(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "java.lang.Boolean",
            Value::Long(_) => "java.lang.Long",
            Value::Double(_) => "java.lang.Double",
            Value::Str(_) => "java.lang.String",
            Value::Map(_) => "java.util.HashMap",
        }
    }

    pub(crate) fn into_owned(self) -> Value<'static> {
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Long(l) => Value::Long(l),
            Value::Double(d) => Value::Double(d),
            Value::Str(s) => Value::Str(Cow::Owned(s.into_owned())),
            Value::Map(m) => Value::Map(m),
        }
    }

    /// Coerce to String (JSP.2.8.2): null is "", numbers print as Java prints them.
    pub(crate) fn write_to(&self, out: &mut String) {
        match self {
            Value::Null => {}
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Long(l) => out.push_str(itoa::Buffer::new().format(*l)),
            Value::Double(d) => write_java(*d, out),
            Value::Str(s) => out.push_str(s),
            // AbstractMap.toString: {k1=v1, k2=v2}
            Value::Map(m) => {
                out.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push('=');
                    v.write_to(out);
                }
                out.push('}');
            }
        }
    }

    /// `value[key]` / `value.key` (commons-el ArraySuffix, PropertySuffix): a
    /// map's entry, null when absent or when the key is not a string (a Java
    /// map compares keys with `equals`, so `m[1]` never finds `"1"`); `None`
    /// for a value that has no entries.
    pub(crate) fn entry(&self, key: &Value) -> Option<Value<'static>> {
        let Value::Map(m) = self else { return None };
        let Value::Str(key) = key else {
            return Some(Value::Null);
        };
        Some(
            m.iter()
                .find(|(k, _)| k == key)
                .map_or(Value::Null, |(_, v)| v.clone()),
        )
    }

    /// [`Value::to_text`], taking an owned string rather than copying it.
    pub(crate) fn into_text(self) -> String {
        match self {
            Value::Str(s) => s.into_owned(),
            other => other.to_text().into_owned(),
        }
    }

    pub(crate) fn to_text(&self) -> Cow<'_, str> {
        match self {
            Value::Str(s) => Cow::Borrowed(s),
            other => {
                let mut out = String::new();
                other.write_to(&mut out);
                Cow::Owned(out)
            }
        }
    }

    /// Coerce to Boolean (JSP.2.8.5): null and "" are false, a string is true iff it
    /// equals "true" ignoring case, a number is an error.
    pub(crate) fn to_bool(&self) -> Result<bool, String> {
        match self {
            Value::Null => Ok(false),
            Value::Bool(b) => Ok(*b),
            Value::Str(s) => Ok(s.eq_ignore_ascii_case("true")),
            v => Err(format!(
                "Attempt to coerce a value of type \"{}\" to Boolean",
                v.java_class()
            )),
        }
    }

    /// Coerce to Long (JSP.2.8.3): null and "" are 0, a Double is truncated, a
    /// string must be a plain integer (`Long.valueOf`), a boolean is an error.
    pub(crate) fn to_long(&self) -> Result<i64, String> {
        match self {
            Value::Null => Ok(0),
            Value::Long(l) => Ok(*l),
            // Java's (long) cast saturates and maps NaN to 0, as Rust's `as` does.
            Value::Double(d) => Ok(*d as i64),
            Value::Bool(b) => Err(bool_to_number(*b, "java.lang.Long")),
            Value::Str(s) if s.is_empty() => Ok(0),
            Value::Str(s) => s
                .parse::<i64>()
                .map_err(|_| string_to_number(s, "java.lang.Long")),
            Value::Map(_) => Err(object_to_number(self, "java.lang.Long")),
        }
    }

    /// Coerce to Double: as [`Value::to_long`], but strings go through `Double.valueOf`.
    pub(crate) fn to_double(&self) -> Result<f64, String> {
        match self {
            Value::Null => Ok(0.0),
            Value::Long(l) => Ok(*l as f64),
            Value::Double(d) => Ok(*d),
            Value::Bool(b) => Err(bool_to_number(*b, "java.lang.Double")),
            Value::Str(s) if s.is_empty() => Ok(0.0),
            Value::Str(s) => {
                parse_java_double(s).ok_or_else(|| string_to_number(s, "java.lang.Double"))
            }
            Value::Map(_) => Err(object_to_number(self, "java.lang.Double")),
        }
    }

    /// Coerce to a Java `int` function parameter (`Number.intValue()` semantics).
    pub(crate) fn to_int(&self) -> Result<i32, String> {
        match self {
            Value::Null => Ok(0),
            Value::Long(l) => Ok(*l as i32),
            Value::Double(d) => Ok(*d as i32),
            Value::Bool(b) => Err(bool_to_number(*b, "java.lang.Integer")),
            Value::Str(s) if s.is_empty() => Ok(0),
            Value::Str(s) => s
                .parse::<i32>()
                .map_err(|_| string_to_number(s, "java.lang.Integer")),
            Value::Map(_) => Err(object_to_number(self, "java.lang.Integer")),
        }
    }

    fn is_double(&self) -> bool {
        matches!(self, Value::Double(_))
    }

    /// commons-el's `isFloatingPointString`: a string with `.`, `e` or `E`.
    fn is_floating_string(&self) -> bool {
        matches!(self, Value::Str(s) if s.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')))
    }
}

/// The number the string `s` is as an arithmetic operand (a Double with `.`,
/// `e` or `E`, else a Long), when that number prints back as `s` exactly, so
/// that it stands for the string in every arithmetic result and message.
pub(super) fn arithmetic_number(s: &str) -> Option<Value<'static>> {
    let text = Value::Str(Cow::Borrowed(s));
    let number = if text.is_floating_string() {
        Value::Double(text.to_double().ok()?)
    } else {
        Value::Long(text.to_long().ok()?)
    };
    (number.to_text() == s).then_some(number)
}

fn bool_to_number(b: bool, class: &str) -> String {
    format!("Attempt to coerce a boolean value \"{b}\" to type \"{class}\"")
}

/// commons-el's COERCE_TO_NUMBER, for a value that is neither a number nor a string.
fn object_to_number(v: &Value, class: &str) -> String {
    format!(
        "Attempt to coerce a value of type \"{}\" to type \"{class}\"",
        v.java_class()
    )
}

fn string_to_number(s: &str, class: &str) -> String {
    format!("An exception occured trying to convert String \"{s}\" to type \"{class}\"")
}

/// `+ - * %` (JSP.2.3.5): both null gives 0; a Double, or a string holding `.`,
/// `e` or `E`, makes it a Double operation; otherwise Long, wrapping at 64 bits.
pub(crate) fn arithmetic(op: ArithOp, a: &Value, b: &Value) -> Result<Value<'static>, String> {
    if matches!((a, b), (Value::Null, Value::Null)) {
        return Ok(Value::Long(0));
    }
    if op == ArithOp::Div {
        return Ok(Value::Double(a.to_double()? / b.to_double()?));
    }
    if a.is_double() || b.is_double() || a.is_floating_string() || b.is_floating_string() {
        let (x, y) = (a.to_double()?, b.to_double()?);
        return Ok(Value::Double(match op {
            ArithOp::Add => x + y,
            ArithOp::Sub => x - y,
            ArithOp::Mul => x * y,
            // Rust's f64 `%` is C fmod, the same as Java's double remainder.
            ArithOp::Mod => x % y,
            ArithOp::Div => unreachable!("handled above"),
        }));
    }
    let (x, y) = (a.to_long()?, b.to_long()?);
    Ok(Value::Long(match op {
        ArithOp::Add => x.wrapping_add(y),
        ArithOp::Sub => x.wrapping_sub(y),
        ArithOp::Mul => x.wrapping_mul(y),
        ArithOp::Mod if y == 0 => {
            return Err(format!(
                "An error occurred applying operator \"%\" to operands \"{}\" and \"{}\"",
                a.to_text(),
                b.to_text()
            ));
        }
        ArithOp::Mod => x.wrapping_rem(y),
        ArithOp::Div => unreachable!("handled above"),
    }))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

/// Unary `-`: null is 0, a string becomes a Double or a Long as in arithmetic,
/// a boolean is an error.
pub(crate) fn negate(v: &Value) -> Result<Value<'static>, String> {
    match v {
        Value::Null => Ok(Value::Long(0)),
        Value::Long(l) => Ok(Value::Long(l.wrapping_neg())),
        Value::Double(d) => Ok(Value::Double(-d)),
        Value::Str(_) if v.is_floating_string() => Ok(Value::Double(-v.to_double()?)),
        Value::Str(_) => Ok(Value::Long(v.to_long()?.wrapping_neg())),
        Value::Bool(_) | Value::Map(_) => Err(format!(
            "Attempt to apply operator \"-\" to arguments of type \"{}\"",
            v.java_class()
        )),
    }
}

/// `empty A`: true for null, "" and an empty map.
pub(crate) fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Str(s) => s.is_empty(),
        Value::Map(m) => m.is_empty(),
        _ => false,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RelOp {
    Lt,
    Gt,
    Le,
    Ge,
}

impl RelOp {
    fn symbol(self) -> &'static str {
        match self {
            RelOp::Lt => "<",
            RelOp::Gt => ">",
            RelOp::Le => "<=",
            RelOp::Ge => ">=",
        }
    }
}

/// `< > <= >=` (JSP.2.3.5.6): null compares false (but `null <= null` is true,
/// the same object); Double, then Long, then String comparison; booleans compare
/// with each other (false < true).
pub(crate) fn relational(op: RelOp, a: &Value, b: &Value) -> Result<bool, String> {
    let ordering = match (a, b) {
        (Value::Null, Value::Null) => return Ok(matches!(op, RelOp::Le | RelOp::Ge)),
        (Value::Null, _) | (_, Value::Null) => return Ok(false),
        _ if a.is_double() || b.is_double() => match a.to_double()?.partial_cmp(&b.to_double()?) {
            Some(o) => o,
            None => return Ok(false), // NaN: every comparison is false
        },
        (Value::Long(_), _) | (_, Value::Long(_)) => a.to_long()?.cmp(&b.to_long()?),
        (Value::Str(_), _) | (_, Value::Str(_)) => java_compare(&a.to_text(), &b.to_text()),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        // A map against a map or a boolean: not Comparable to each other.
        _ => {
            return Err(format!(
                "Attempt to apply operator \"{}\" to arguments of type \"{}\" and \"{}\"",
                op.symbol(),
                a.java_class(),
                b.java_class()
            ));
        }
    };
    Ok(match op {
        RelOp::Lt => ordering == Ordering::Less,
        RelOp::Gt => ordering == Ordering::Greater,
        RelOp::Le => ordering != Ordering::Greater,
        RelOp::Ge => ordering != Ordering::Less,
    })
}

/// `String.compareTo`: by UTF-16 code units, which differs from Rust's byte order
/// for characters above U+FFFF against U+E000..U+FFFF.
fn java_compare(a: &str, b: &str) -> Ordering {
    if a.is_ascii() && b.is_ascii() {
        return a.cmp(b);
    }
    a.encode_utf16().cmp(b.encode_utf16())
}

/// `==` (JSP.2.3.5.7): null equals only null; then Double, Long, Boolean and String
/// comparison, coercing the other side to that type.
pub(crate) fn equals(a: &Value, b: &Value) -> Result<bool, String> {
    Ok(match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Null, _) | (_, Value::Null) => false,
        _ if a.is_double() || b.is_double() => a.to_double()? == b.to_double()?,
        (Value::Long(_), _) | (_, Value::Long(_)) => a.to_long()? == b.to_long()?,
        (Value::Bool(_), _) | (_, Value::Bool(_)) => a.to_bool()? == b.to_bool()?,
        (Value::Str(x), Value::Str(y)) => x == y,
        // A string against a map compares the map's text; two maps, their entries.
        (Value::Str(_), _) | (_, Value::Str(_)) => a.to_text() == b.to_text(),
        (Value::Map(x), Value::Map(y)) => x == y,
        _ => unreachable!("every pair of value kinds is covered above"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value<'_> {
        Value::Str(Cow::Borrowed(x))
    }

    #[test]
    fn string_coercions_follow_java_parsers() {
        assert_eq!(s("+5").to_long(), Ok(5));
        assert!(
            s(" 7").to_long().is_err(),
            "Long.valueOf allows no whitespace"
        );
        assert_eq!(s(" 1.5 ").to_double(), Ok(1.5), "Double.valueOf trims");
        assert_eq!(s("").to_long(), Ok(0));
        assert_eq!(s("TRUE").to_bool(), Ok(true));
        assert_eq!(s("yes").to_bool(), Ok(false));
        assert!(Value::Long(1).to_bool().is_err());
    }

    #[test]
    fn maps_as_commons_el_treats_a_java_map() {
        let inner: ElMap = vec![("n".to_string(), Value::Long(4))];
        let map = Value::Map(Arc::new(vec![
            ("count".to_string(), s("0").into_owned()),
            ("group".to_string(), Value::Map(Arc::new(inner))),
        ]));
        assert_eq!(map.entry(&s("count")), Some(s("0").into_owned()));
        assert_eq!(map.entry(&s("absent")), Some(Value::Null));
        // A Java map compares keys with equals: 1 is not "1".
        assert_eq!(map.entry(&Value::Long(1)), Some(Value::Null));
        assert_eq!(s("x").entry(&s("count")), None);
        assert_eq!(map.to_text(), "{count=0, group={n=4}}");
        assert!(!is_empty(&map));
        assert!(is_empty(&Value::Map(Arc::new(Vec::new()))));
        assert_eq!(
            map.to_long(),
            Err("Attempt to coerce a value of type \"java.util.HashMap\" to type \"java.lang.Long\"".to_string())
        );
        assert!(map.to_bool().is_err());
        assert!(relational(RelOp::Lt, &map, &map).is_err());
        assert_eq!(equals(&map, &map.clone()), Ok(true));
        assert_eq!(equals(&map, &s("{count=0, group={n=4}}")), Ok(true));
    }

    #[test]
    fn utf16_order() {
        // U+FFFF sorts after U+1F600 in UTF-16 (surrogates are 0xD83D...).
        assert_eq!(java_compare("\u{ffff}", "\u{1f600}"), Ordering::Greater);
        assert_eq!(java_compare("é", "\u{1f600}"), Ordering::Less);
    }
}
