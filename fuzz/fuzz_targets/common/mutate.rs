//! Structure-aware mutation of valid applications: an `arbitrary`-derived
//! list of edits, each applied to one file of an embedded corpus
//! application (see `apps.rs`) at a "site" the XML tree gives (an attribute
//! value, an element's text, an element, a number written in a value), so
//! that the result stays well-formed XML and mostly passes the schema, and
//! the fuzzer reaches lowering, the job, the checks and the interpreter.
//!
//! Sites are found with coordc's own XML reader after each edit; an edit
//! that leaves the file not well-formed (a duplicated attribute) stops the
//! edits of that input, and the file is checked as it is.

use super::apps::App;
use arbitrary::Arbitrary;
use std::fmt::Write;

/// Values that reach the corners: frequencies and offsets at the limits of
/// Java's `int`, crons that never fire, datetimes at the ends of the
/// calendar, zones with DST and odd offsets, EL that does not parse.
const KNOWN: &[&str] = &[
    "0",
    "-1",
    "1",
    "5",
    "2147483647",
    "-2147483648",
    "2147483648",
    "9223372036854775807",
    "-9223372036854775808",
    "${coord:minutes(0)}",
    "${coord:minutes(1)}",
    "${coord:minutes(2147483647)}",
    "${coord:hours(35791395)}",
    "${coord:days(2147483647)}",
    "${coord:months(-1)}",
    "${coord:endOfDays(1)}",
    "${coord:endOfWeeks(1)}",
    "${coord:endOfMonths(1)}",
    "${coord:current(-2147483648)}",
    "${coord:current(2147483647)}",
    "${coord:current(0)}",
    "${coord:current(-1000000000)}",
    "${coord:latest(0)}",
    "${coord:latest(-2147483648)}",
    "${coord:future(0, 2147483647)}",
    "${coord:offset(-1, 'DAY')}",
    "${coord:offset(2147483647, 'MONTH')}",
    "${coord:absoluteRange('1970-01-01T00:00Z', 1000000000)}",
    "${coord:endOfDays(-2147483648)}",
    "${coord:endOfMonths(-1)}",
    "${coord:hoursInDay(-2147483648)}",
    "${coord:daysInMonth(2147483647)}",
    "${coord:dateOffset(coord:nominalTime(), -2147483648, 'YEAR')}",
    "${coord:dateTzOffset(coord:nominalTime(), 'Pacific/Kiritimati')}",
    "${coord:formatTime(coord:nominalTime(), 'yyyyyyyyyyyyyyyyyyyy')}",
    "${coord:epochTime(coord:actualTime(), true)}",
    "${coord:dataIn('input')}",
    "${coord:dataOut('output')}",
    "${coord:tzOffset()}",
    "${wf:id()}",
    "${1/0}",
    "${9223372036854775807 + 1}",
    "${",
    "}",
    "$",
    "",
    " ",
    "0 0 31 2 *",
    "0 0 30 2 ?",
    "* * * * *",
    "*/0 * * * *",
    "59 23 31 12 SAT#5",
    "0 0 L * ?",
    "0 0 ? * 6L",
    "0 0 LW * ?",
    "0 0 15W * ?",
    "1970-01-01T00:00Z",
    "0001-01-01T00:00Z",
    "9999-12-31T23:59Z",
    "2999-12-31T23:59Z",
    "2009-02-29T00:00Z",
    "2012-02-29T00:00Z",
    "2009-03-08T02:30Z",
    "2009-01-01T24:00Z",
    "2009-01-01T00:00+0530",
    "UTC",
    "GMT",
    "GMT+05:30",
    "GMT-23:59",
    "America/Los_Angeles",
    "Europe/London",
    "Australia/Lord_Howe",
    "Pacific/Apia",
    "Asia/Kathmandu",
    "America/Sao_Paulo",
    "PST",
    "EST5EDT",
    "FIFO",
    "LIFO",
    "LAST_ONLY",
    "NONE",
    "true",
    "false",
    "hdfs://nn:8020/app/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}",
    "hcat://hcat:11002/db/table/dt=${YEAR}${MONTH}${DAY}",
    "_SUCCESS",
    "input",
    "output",
    "logs",
];

/// Functions a generated call names.
const FUNCTIONS: &[&str] = &[
    "coord:minutes",
    "coord:hours",
    "coord:days",
    "coord:months",
    "coord:endOfDays",
    "coord:endOfWeeks",
    "coord:endOfMonths",
    "coord:current",
    "coord:latest",
    "coord:future",
    "coord:offset",
    "coord:hoursInDay",
    "coord:daysInMonth",
    "coord:absoluteRange",
    "coord:currentRange",
    "coord:latestRange",
    "coord:futureRange",
    "coord:dateOffset",
    "coord:dataIn",
    "coord:nominalTime",
    "coord:actualTime",
];

/// Attribute names an edit adds.
const ATTRIBUTES: &[&str] = &[
    "frequency",
    "start",
    "end",
    "timezone",
    "initial-instance",
    "name",
    "dataset",
    "critical",
    "app-path",
    "xmlns",
    "xmlns:sla",
    "x",
];

/// A number written in place of one.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Number {
    Small(i8),
    Int(i32),
    Long(i64),
    /// One of the `int`/`long` limits and their neighbours.
    Edge(u8),
}

impl Number {
    pub fn value(self) -> i128 {
        const EDGES: &[i128] = &[
            0,
            1,
            -1,
            i32::MAX as i128,
            i32::MIN as i128,
            i32::MAX as i128 + 1,
            i32::MIN as i128 - 1,
            i64::MAX as i128,
            i64::MIN as i128,
            i64::MAX as i128 + 1,
            1_000_000_000,
            10_000_000,
            9999,
            10000,
            60,
            1440,
        ];
        match self {
            Number::Small(n) => n.into(),
            Number::Int(n) => n.into(),
            Number::Long(n) => n.into(),
            Number::Edge(i) => EDGES[i as usize % EDGES.len()],
        }
    }
}

/// A value written in place of an attribute's value or an element's text.
#[derive(Arbitrary, Debug, Clone)]
pub enum Value {
    Known(u8),
    Number(Number),
    /// `${FUNCTION(ARGS)}`.
    Call {
        function: u8,
        args: Vec<Number>,
    },
    Datetime {
        year: u16,
        month: u8,
        day: u8,
        hour: u8,
        minute: u8,
    },
    Text(String),
}

impl Value {
    pub fn render(&self) -> String {
        match self {
            Value::Known(i) => KNOWN[*i as usize % KNOWN.len()].to_string(),
            Value::Number(n) => n.value().to_string(),
            Value::Call { function, args } => {
                let mut s = format!("${{{}(", FUNCTIONS[*function as usize % FUNCTIONS.len()]);
                for (i, a) in args.iter().take(3).enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    let _ = write!(s, "{}", a.value());
                }
                s.push_str(")}");
                s
            }
            Value::Datetime {
                year,
                month,
                day,
                hour,
                minute,
            } => format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}Z",
                year % 10000,
                month % 14,
                day % 33,
                hour % 26,
                minute % 61
            ),
            Value::Text(t) => t.clone(),
        }
    }
}

/// One edit of one file.
#[derive(Arbitrary, Debug, Clone)]
pub enum Edit {
    /// An attribute's value replaced.
    Attribute { site: u16, value: Value },
    /// A text replaced (an element's character data).
    Text { site: u16, value: Value },
    /// A number written in a value (a run of digits, with its sign) replaced.
    Number { site: u16, value: Number },
    /// An element written twice.
    Duplicate { site: u16 },
    /// An element taken out.
    Delete { site: u16 },
    /// An element moved before another.
    Move { site: u16, before: u16 },
    /// An attribute added to an element.
    AddAttribute { site: u16, name: u8, value: Value },
}

#[derive(Arbitrary, Debug, Clone)]
pub struct FileEdit {
    /// Which file of the application (the application itself most often).
    pub file: u8,
    pub edit: Edit,
}

/// Most edits applied per input.
pub const MAX_EDITS: usize = 8;

/// Where edits go in one text: byte ranges and positions.
#[derive(Default)]
struct Sites {
    attributes: Vec<(usize, usize)>,
    texts: Vec<(usize, usize)>,
    elements: Vec<(usize, usize)>,
    numbers: Vec<(usize, usize)>,
    /// Just after an element's name in its start tag.
    tag_ends: Vec<usize>,
}

fn range(s: coordc::span::Span) -> (usize, usize) {
    (s.start as usize, s.end as usize)
}

fn collect(e: &coordc::xml::Element, root: bool, sites: &mut Sites) {
    if !root {
        sites.elements.push(range(e.span));
    }
    sites.tag_ends.push(e.name_span.end as usize);
    for a in e.attributes {
        sites.attributes.push(range(a.value_span));
    }
    for t in e.text {
        if !t.text.trim().is_empty() {
            sites.texts.push(range(t.span));
        }
    }
    for c in e.children {
        collect(c, false, sites);
    }
}

/// The sites of `text`: `None` when it is not well-formed XML. Numbers are
/// found in the whole text of a file that is not XML (job.properties).
fn sites(text: &str, xml: bool) -> Option<Sites> {
    let mut sites = Sites::default();
    let value_ranges = if xml {
        let arena = coordc::xml::Arena::new();
        let doc = coordc::xml::parse(text, &arena).ok()?;
        collect(&doc.root, true, &mut sites);
        let mut r = sites.attributes.clone();
        r.extend(&sites.texts);
        r
    } else {
        vec![(0, text.len())]
    };
    let bytes = text.as_bytes();
    for (s, e) in value_ranges {
        let mut i = s;
        while i < e {
            if bytes[i].is_ascii_digit() {
                let start = if i > s && bytes[i - 1] == b'-' {
                    i - 1
                } else {
                    i
                };
                let mut j = i;
                while j < e && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                sites.numbers.push((start, j));
                i = j;
            } else {
                i += 1;
            }
        }
    }
    Some(sites)
}

fn pick<T: Copy>(list: &[T], site: u16) -> Option<T> {
    (!list.is_empty()).then(|| list[site as usize % list.len()])
}

fn escape(value: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\'' if attribute => out.push_str("&apos;"),
            // Not characters XML allows.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// Applies `edit` to `text`; `false` when it found no site.
fn apply(text: &mut String, edit: &Edit, xml: bool) -> bool {
    let Some(sites) = sites(text, xml) else {
        return false;
    };
    let replace = |text: &mut String, (s, e): (usize, usize), with: &str| {
        text.replace_range(s..e, with);
        true
    };
    match edit {
        Edit::Number { site, value } => match pick(&sites.numbers, *site) {
            Some(r) => replace(text, r, &value.value().to_string()),
            None => false,
        },
        _ if !xml => false,
        Edit::Attribute { site, value } => match pick(&sites.attributes, *site) {
            Some(r) => replace(text, r, &escape(&value.render(), true)),
            None => false,
        },
        Edit::Text { site, value } => match pick(&sites.texts, *site) {
            Some(r) => replace(text, r, &escape(&value.render(), false)),
            None => false,
        },
        Edit::Duplicate { site } => match pick(&sites.elements, *site) {
            Some((s, e)) => {
                let copy = text[s..e].to_string();
                text.insert_str(e, &copy);
                true
            }
            None => false,
        },
        Edit::Delete { site } => match pick(&sites.elements, *site) {
            Some(r) => replace(text, r, ""),
            None => false,
        },
        Edit::Move { site, before } => {
            let (Some((s, e)), Some((to, _))) =
                (pick(&sites.elements, *site), pick(&sites.elements, *before))
            else {
                return false;
            };
            if (s..=e).contains(&to) {
                return false;
            }
            let moved = text[s..e].to_string();
            text.replace_range(s..e, "");
            let at = if to > e { to - (e - s) } else { to };
            text.insert_str(at, &moved);
            true
        }
        Edit::AddAttribute { site, name, value } => match pick(&sites.tag_ends, *site) {
            Some(at) => {
                let name = ATTRIBUTES[*name as usize % ATTRIBUTES.len()];
                let attribute = format!(" {name}=\"{}\"", escape(&value.render(), true));
                text.insert_str(at, &attribute);
                true
            }
            None => false,
        },
    }
}

/// The files of `app` with `edits` applied (at most [`MAX_EDITS`]), by
/// their path relative to the application's folder.
pub fn mutate(app: &App, edits: &[FileEdit]) -> Vec<(&'static str, String)> {
    let mut files: Vec<(&'static str, String)> =
        app.files.iter().map(|(p, t)| (*p, t.to_string())).collect();
    for fe in edits.iter().take(MAX_EDITS) {
        // The application itself half of the time, else any of its files.
        let i = if fe.file % 2 == 0 {
            0
        } else {
            (fe.file as usize / 2) % files.len()
        };
        let (path, text) = &mut files[i];
        let xml = path.ends_with(".xml");
        if !apply(text, &fe.edit, xml)
            && xml
            && coordc::xml::parse(text, &coordc::xml::Arena::new()).is_err()
        {
            break;
        }
    }
    files
}
