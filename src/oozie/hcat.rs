//! HCatalog partition URIs and the coordinator functions that read them
//! (spec §6.8; Oozie's HCatELFunctions, HCatURI, HCatURIParser), for the URIs
//! of a materialized action's data-ins and data-outs.
//!
//! An HCatalog URI is `hcat://server:port/db/table/key1=value1;key2=value2`;
//! a dataset may name several servers (`hcat://h1:1,hcat://h2:2/db/...`).

use regex::Regex;
use std::sync::LazyLock;

/// `oozie.hcat.uri.regex.pattern` (oozie-default.xml): how Oozie finds the
/// URIs in a data-in's comma-joined list, since a URI may hold commas.
#[allow(
    clippy::expect_used,
    reason = "a constant pattern, which the tests compile"
)]
static HCAT_URIS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"([a-z]+://[\w\.\-]+:\d+[,]*)+/\w+/\w+/[\w+=;\-]*").expect("a valid pattern")
});

/// `HCatURIParser.splitHCatUris`: the URIs the pattern finds, in order.
pub(crate) fn split(uris: &str) -> Vec<&str> {
    HCAT_URIS.find_iter(uris).map(|m| m.as_str()).collect()
}

/// A parsed HCatalog URI (HCatURI.parse).
#[derive(Debug, PartialEq)]
pub(crate) struct HCatUri {
    pub db: String,
    pub table: String,
    /// In the URI's order; a repeated key keeps its first place and its last
    /// value (a `LinkedHashMap`).
    pub partitions: Vec<(String, String)>,
}

impl HCatUri {
    /// Parses as HCatURI does, after HCatURIParser.parseURI has removed the
    /// repeated `scheme://` of a multi-server authority. Errors carry Oozie's
    /// message.
    pub(crate) fn parse(uri: &str) -> Result<HCatUri, String> {
        let fail = |why: &str| format!("HCat URI can't be parsed: {why}: {uri}");
        let Some((scheme, rest)) = uri.split_once("://") else {
            return Err(fail("Server host and port are missing"));
        };
        let rest = rest.replace(&format!("{scheme}://"), "");
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        if authority.is_empty() {
            return Err(fail("Server host and port are missing"));
        }
        let [_, db, table, raw] = java_split(path, '/')[..] else {
            return Err(fail("URI path is not in expected format"));
        };
        if db.is_empty() {
            return Err(fail("DB name is missing"));
        }
        if table.is_empty() {
            return Err(fail("Table name is missing"));
        }
        let mut partitions: Vec<(String, String)> = Vec::new();
        for part in raw.split(';').filter(|p| !p.is_empty()) {
            let [key, value] = java_split(part, '=')[..] else {
                return Err(fail(&format!(
                    "Partition key value pair is not specified properly in ({part})"
                )));
            };
            match partitions.iter_mut().find(|(k, _)| k == key) {
                Some(entry) => entry.1 = value.to_string(),
                None => partitions.push((key.to_string(), value.to_string())),
            }
        }
        Ok(HCatUri {
            db: db.to_string(),
            table: table.to_string(),
            partitions,
        })
    }

    pub(crate) fn value(&self, key: &str) -> Option<&str> {
        self.partitions
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// `toPartitionFilter(type)`: `(k1=='v1' AND k2=='v2')` for pig, with `=`
    /// for any other type.
    pub(crate) fn filter(&self, kind: &str) -> String {
        let comparator = if kind.eq_ignore_ascii_case("pig") {
            "=="
        } else {
            "="
        };
        let terms: Vec<String> = self
            .partitions
            .iter()
            .map(|(k, v)| format!("{k}{comparator}'{v}'"))
            .collect();
        format!("({})", terms.join(" AND "))
    }

    /// `toPartitionString()`: `'k1=v1,k2=v2'`, quotes included (HCatStorer's argument).
    pub(crate) fn partition_string(&self) -> String {
        let pairs: Vec<String> = self
            .partitions
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!("'{}'", pairs.join(","))
    }

    /// `toPartitionValueString("hive-export")`: `k1='v1',k2='v2'`.
    pub(crate) fn hive_export(&self) -> String {
        let pairs: Vec<String> = self
            .partitions
            .iter()
            .map(|(k, v)| format!("{k}='{v}'"))
            .collect();
        pairs.join(",")
    }
}

/// Java's `String.split(String.valueOf(separator))`: the pieces, trailing
/// empty ones dropped (all of them when the text is only separators).
pub(crate) fn java_split(text: &str, separator: char) -> Vec<&str> {
    let mut pieces: Vec<&str> = text.split(separator).collect();
    while pieces.len() > 1 && pieces.last() == Some(&"") {
        pieces.pop();
    }
    if pieces == [""] && !text.is_empty() {
        pieces.clear();
    }
    pieces
}

/// An HCatalog function of the action configuration or SLA, evaluated on
/// the URIs of the event it names. `uris` is `None` when the name is not an
/// event of the function's kind (Oozie's `.datain.X` is then null), and
/// `unresolved` says the data-in still waits on `latest`/`future`. `None`
/// when `function` is not an HCatalog function.
pub(crate) fn call(
    function: &str,
    args: &[String],
    uris: Option<&[String]>,
    unresolved: bool,
) -> Option<Result<String, String>> {
    let arg = |i: usize| args.get(i).map_or("", String::as_str);
    let joined = uris.map(|u| u.join(","));
    let all = || joined.as_deref().map(split).unwrap_or_default();
    let first = || -> Result<Option<HCatUri>, String> {
        match all().first() {
            Some(uri) => HCatUri::parse(uri).map(Some),
            None => match joined.as_deref() {
                Some("") => Err(format!("{} has no URI for this action", arg(0))),
                Some(uris) => Err(format!(
                    "HCat URI can't be parsed: {uris} is not an HCatalog URI (hcat://server:port/db/table/key=value;...)"
                )),
                None => Ok(None),
            },
        }
    };
    // HCatELFunctions: with unresolved instances, the call itself; `Max`
    // echoes `Min`, as Oozie's does.
    let echo = |name: &str, with_second: bool| {
        if with_second {
            format!("${{coord:{name}('{}', '{}')}}", arg(0), arg(1))
        } else {
            format!("${{coord:{name}('{}')}}", arg(0))
        }
    };
    Some(match function {
        "databaseIn" | "databaseOut" => first().map(|u| u.map_or_else(String::new, |u| u.db)),
        "tableIn" | "tableOut" => first().map(|u| u.map_or_else(String::new, |u| u.table)),
        "dataInPartitionFilter" if unresolved => Ok(echo(function, true)),
        "dataInPartitionFilter" => match &joined {
            None => Err(format!("{} is not a data-in of this action", arg(0))),
            Some(_) => all()
                .iter()
                .map(|u| HCatUri::parse(u).map(|u| u.filter(arg(1))))
                .collect::<Result<Vec<_>, _>>()
                .map(|f| f.join(" OR ")),
        },
        "dataInPartitionMin" | "dataInPartitionMax" if unresolved => {
            Ok(echo("dataInPartitionMin", true))
        }
        "dataInPartitionMin" | "dataInPartitionMax" => {
            if joined.is_none() {
                return Some(Ok(String::new()));
            }
            let key = arg(1);
            let values = all()
                .iter()
                .map(|u| HCatUri::parse(u).map(|u| u.value(key).map(str::to_string)))
                .collect::<Result<Vec<_>, _>>();
            values.and_then(|values| {
                let mut values = values.into_iter();
                match values.next().flatten() {
                    Some(first) if !first.is_empty() => values.try_fold(first, |best, v| {
                        let v = v.ok_or_else(|| {
                            format!("No value in data-in uri for partition key: {key}")
                        })?;
                        let better = if function == "dataInPartitionMin" {
                            v < best
                        } else {
                            v > best
                        };
                        Ok(if better { v } else { best })
                    }),
                    _ => Err(format!("No value in data-in uri for partition key: {key}")),
                }
            })
        }
        "dataInPartitions" if unresolved => Ok(echo(function, true)),
        "dataInPartitions" => match &joined {
            None => Ok(String::new()),
            Some(_) if arg(1) != "hive-export" => Err(format!(
                "Unsupported type: {} dataset name: {}",
                arg(1),
                arg(0)
            )),
            Some(joined) if all().len() > 1 => Err(format!(
                "Multiple partitions not supported for hive-export type. Dataset name: {} URI: {joined}",
                arg(0)
            )),
            Some(joined) => HCatUri::parse(joined).map(|u| u.hive_export()),
        },
        "dataOutPartitions" => match &joined {
            None => Err(format!("{} is not a data-out of this action", arg(0))),
            Some(joined) => HCatUri::parse(joined).map(|u| u.partition_string()),
        },
        "dataOutPartitionValue" => match &joined {
            None => Err(format!("{} is not a data-out of this action", arg(0))),
            Some(joined) => {
                HCatUri::parse(joined).map(|u| u.value(arg(1)).unwrap_or_default().to_string())
            }
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_split_drops_trailing_empty_pieces() {
        // String.split drops trailing empty pieces: "A=" is one piece.
        assert_eq!(java_split("A=1", '='), ["A", "1"]);
        assert_eq!(java_split("A=", '='), ["A"]);
        assert_eq!(java_split("=v", '='), ["", "v"]);
        assert_eq!(java_split("==", '='), Vec::<&str>::new());
        assert_eq!(java_split("", '='), [""]);
        assert_eq!(java_split("a,b,", ','), ["a", "b"]);
    }

    #[test]
    fn uris_are_split_as_oozies_pattern_splits_them() {
        // TestHCatURIParser.
        let uris = "hcat://hostname1:1000,hcat://hostname2:2000/mydb/clicks/datastamp=12;region=us,scheme://hostname3:3000,scheme://hostname4:4000,scheme://hostname5:5000/db/table/p1=12;p2=us,scheme://hostname4:4000/d/t/p=1";
        assert_eq!(
            split(uris),
            [
                "hcat://hostname1:1000,hcat://hostname2:2000/mydb/clicks/datastamp=12;region=us",
                "scheme://hostname3:3000,scheme://hostname4:4000,scheme://hostname5:5000/db/table/p1=12;p2=us",
                "scheme://hostname4:4000/d/t/p=1"
            ]
        );
        assert_eq!(
            split("hcat://10.10.10.10:9083/default/invites/ds=2010-01-01;region=usa"),
            ["hcat://10.10.10.10:9083/default/invites/ds=2010-01-01;region=usa"]
        );
    }

    #[test]
    fn parsing_follows_hcaturi() {
        let u = HCatUri::parse("hcat://h1:1000,hcat://h2:2000/mydb/clicks/datastamp=12;region=us")
            .unwrap();
        assert_eq!((u.db.as_str(), u.table.as_str()), ("mydb", "clicks"));
        assert_eq!(u.value("region"), Some("us"));
        assert_eq!(u.partitions.len(), 2);
        assert_eq!(u.filter("pig"), "(datastamp=='12' AND region=='us')");
        assert_eq!(u.filter("hive"), "(datastamp='12' AND region='us')");
        assert_eq!(u.partition_string(), "'datastamp=12,region=us'");
        assert_eq!(u.hive_export(), "datastamp='12',region='us'");
        for (bad, why) in [
            ("hcat://h:1/db/table", "URI path is not in expected format"),
            ("hcat://h:1/db/t/a=1=2", "not specified properly in (a=1=2)"),
            ("hcat://h:1/db//a=1", "Table name is missing"),
            ("hdfs:///db/t/a=1", "Server host and port are missing"),
        ] {
            let e = HCatUri::parse(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn functions_on_an_actions_uris() {
        // As HCatELFunctions computes them.
        let ins = [
            "hcat://hcat.server.com:5080/mydb/clicks/datastamp=20090102;region=us".to_string(),
            "hcat://hcat.server.com:5080/mydb/clicks/datastamp=20090101;region=us".to_string(),
        ];
        let run = |f: &str, args: &[&str], uris: Option<&[String]>, unresolved| {
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            call(f, &args, uris, unresolved).unwrap()
        };
        let ok = |f, args: &[&str]| run(f, args, Some(&ins), false).unwrap();
        assert_eq!(ok("databaseIn", &["in"]), "mydb");
        assert_eq!(ok("tableIn", &["in"]), "clicks");
        assert_eq!(
            ok("dataInPartitionFilter", &["in", "pig"]),
            "(datastamp=='20090102' AND region=='us') OR (datastamp=='20090101' AND region=='us')"
        );
        assert_eq!(ok("dataInPartitionMin", &["in", "datastamp"]), "20090101");
        assert_eq!(ok("dataInPartitionMax", &["in", "datastamp"]), "20090102");
        assert!(
            run(
                "dataInPartitions",
                &["in", "hive-export"],
                Some(&ins),
                false
            )
            .unwrap_err()
            .starts_with("Multiple partitions not supported")
        );
        assert_eq!(
            run(
                "dataInPartitions",
                &["in", "hive-export"],
                Some(&ins[..1]),
                false
            )
            .unwrap(),
            "datastamp='20090102',region='us'"
        );
        assert_eq!(
            run("dataOutPartitions", &["out"], Some(&ins[..1]), false).unwrap(),
            "'datastamp=20090102,region=us'"
        );
        assert_eq!(
            run(
                "dataOutPartitionValue",
                &["out", "region"],
                Some(&ins[..1]),
                false
            )
            .unwrap(),
            "us"
        );
        // Unresolved inputs leave the call; Max echoes Min, as Oozie's does.
        assert_eq!(
            run("dataInPartitionMax", &["in", "datastamp"], Some(&ins), true).unwrap(),
            "${coord:dataInPartitionMin('in', 'datastamp')}"
        );
        assert!(
            run("dataInPartitionMin", &["in", "nope"], Some(&ins), false)
                .unwrap_err()
                .contains("No value in data-in uri for partition key: nope")
        );
        assert!(call("dataIn", &[], None, false).is_none());
    }
}
