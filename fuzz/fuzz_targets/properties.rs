//! `properties`: arbitrary text as a job's `.properties` file and as a Hadoop
//! XML configuration file, each parsed and merged into a job configuration
//! (`JobConfig::build`: trimming, `${name}` substitution, reserved names),
//! alone and together with `-D` definitions taken from the text's own
//! properties. Every property's spans lie within the text; every diagnostic
//! renders.
#![no_main]

mod common;

use coordc::config::{JobConfig, Property, Source, parse_hadoop_xml, properties};
use coordc::diag::Diagnostic;
use libfuzzer_sys::fuzz_target;

fn check_properties(props: &[Property], text: &str) {
    for p in props {
        for span in [p.name_span, p.value_span] {
            let (s, e) = (span.start as usize, span.end as usize);
            assert!(
                s <= e && e <= text.len() && text.is_char_boundary(s) && text.is_char_boundary(e),
                "property {:?} has span {s}..{e} in a text of {} bytes",
                p.name,
                text.len()
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut defines = Vec::new();
    let readers: [fn(&str) -> Result<Vec<Property>, Diagnostic>; 2] =
        [properties::parse, parse_hadoop_xml];
    for read in readers {
        match read(text) {
            Ok(props) => {
                check_properties(&props, text);
                defines.extend(props.iter().map(|p| (p.name.clone(), p.value.clone())));
            }
            Err(d) => {
                common::assert_span_in(&d, text);
                common::render(&d, text);
            }
        }
    }
    defines.truncate(64);
    let sources = [
        Source::File {
            path: "job.properties",
            text,
        },
        Source::File {
            path: "config-default.xml",
            text,
        },
        Source::Definitions(&defines),
    ];
    for (sources, user) in [
        (&sources[..1], None),
        (&sources[1..2], Some("fuzz")),
        (&sources[..], Some("fuzz")),
    ] {
        let (config, problems) = JobConfig::build(sources, user);
        for p in problems {
            if p.file != coordc::diag::FileRef::CommandLine {
                common::render(&p.diagnostic, text);
            }
        }
        // Every property came from somewhere (found by reading the sources
        // again, so only a few are looked up).
        for (name, value) in config.vars().iter().take(8) {
            let origin = JobConfig::origin(sources, user, name);
            assert!(origin.is_some(), "no origin for {name:?}");
            std::hint::black_box((origin, value));
        }
    }
});
