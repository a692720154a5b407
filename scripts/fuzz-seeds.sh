#!/usr/bin/env bash
# Fills the seed corpora of the cargo-fuzz targets, fuzz/corpus/TARGET/, from
#   - corpus/ (every .xml, .properties and simulate scenario),
# and, when it is there, the development corpus, kept outside this repository
# (COORDC_SHARED, default ../shared beside the project):
#   - the oracle case files ../shared/oracles/el_cases.jsonl and
#     el_wf_function_cases.jsonl (`expr`), cron_cases.jsonl (`cron`, `start`,
#     `timezone`, `end`),
#   - ../shared/realworld (its manifest.jsonl lists the apps: their .xml and
#     their job.properties).
# Seeds are generated, never committed (fuzz/.gitignore ignores fuzz/corpus);
# the realworld files belong to their authors and only ever land there.
# Each seed is named by the SHA-1 of its bytes, as libFuzzer names what it
# adds, so running this again adds nothing twice.
#
# Usage: scripts/fuzz-seeds.sh [TARGET...]   (default: every target)
# Environment: COORDC_SHARED (default ../shared, beside the project).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
shared="${COORDC_SHARED:-$root/../shared}"
all_targets=(el cron datetime_zone_frequency xml_check xml_check_structured properties dryrun simulate)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=("${all_targets[@]}")
fi

if ! command -v python3 >/dev/null 2>&1; then
    echo "fuzz-seeds: python3 is not installed: no seeds written (the fuzzer starts from an empty corpus)" >&2
    exit 0
fi
[ -d "$shared/oracles" ] || echo "fuzz-seeds: no $shared/oracles: the EL and cron seeds come from corpus/ only" >&2
[ -d "$shared/realworld" ] || echo "fuzz-seeds: no $shared/realworld: no real-world seeds" >&2

exec python3 - "$root" "$shared" "${targets[@]}" <<'PYTHON'
import glob, hashlib, json, os, random, re, sys

root, shared, targets = sys.argv[1], sys.argv[2], sys.argv[3:]
corpus_dir = os.path.join(root, "corpus")
oracles = os.path.join(shared, "oracles")
realworld = os.path.join(shared, "realworld")
counts = {}


def put(target, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not data or len(data) > 1_000_000:
        return
    d = os.path.join(root, "fuzz", "corpus", target)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, hashlib.sha1(data).hexdigest())
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
        counts[target] = counts.get(target, 0) + 1


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def jsonl(name):
    path = os.path.join(oracles, name)
    if not os.path.exists(path):
        return []
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
    return out


def corpus_files(ext):
    return sorted(glob.glob(os.path.join(corpus_dir, "**", "*" + ext), recursive=True))


# Real-world apps: (app text, job.properties text or None), by the manifest.
real_apps = []
real_properties = []
manifest = os.path.join(realworld, "manifest.jsonl")
if os.path.exists(manifest):
    with open(manifest, encoding="utf-8") as f:
        for line in f:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            app = read(os.path.join(realworld, entry.get("file") or ""))
            props = entry.get("properties")
            props = read(os.path.join(realworld, props)) if props else None
            if app is not None:
                real_apps.append((app, props))
    real_properties = [t for t in (read(p) for p in sorted(glob.glob(os.path.join(realworld, "files", "*.properties")))) if t]

corpus_apps = []
for path in corpus_files(".xml"):
    text = read(path)
    if text is None:
        continue
    props = read(os.path.join(os.path.dirname(path), "job.properties"))
    corpus_apps.append((text, props))
all_apps = corpus_apps + real_apps
all_xml = [a for a, _ in all_apps]

ATTR = re.compile(r'([\w:-]+)\s*=\s*"([^"]*)"')
TEXT = re.compile(r">([^<]*\$\{[^<]*)<")


def unescape(s):
    return (s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
            .replace("&apos;", "'").replace("&amp;", "&"))


def el_texts():
    for expr in (c.get("expr") for c in jsonl("el_cases.jsonl") + jsonl("el_wf_function_cases.jsonl")):
        if isinstance(expr, str):
            yield expr
    for text in all_xml:
        for _, value in ATTR.findall(text):
            if "${" in value:
                yield unescape(value)
        for value in TEXT.findall(text):
            yield unescape(value.strip())
    for props in [p for _, p in all_apps if p] + real_properties:
        for line in props.splitlines():
            if "${" in line and "=" in line:
                yield line.split("=", 1)[1].strip()


def frequencies():
    """(frequency, start or initial-instance, timezone) of every app and dataset element."""
    for text in all_xml:
        for tag in re.findall(r"<(?:[\w-]+:)?(?:coordinator-app|dataset)\b[^>]*>", text):
            attrs = {k: unescape(v) for k, v in ATTR.findall(tag)}
            if "frequency" in attrs:
                yield (attrs["frequency"], attrs.get("start") or attrs.get("initial-instance") or "",
                       attrs.get("timezone") or "")


def gen_el():
    for t in el_texts():
        put("el", t)


def gen_cron():
    for case in jsonl("cron_cases.jsonl"):
        lines = [case.get("cron") or "", case.get("start") or "", case.get("timezone") or "",
                 case.get("end") or ""]
        put("cron", "\n".join(lines))
    for freq, start, zone in frequencies():
        if " " in freq.strip() and "${" not in freq:
            put("cron", "\n".join([freq, start, zone]))


def gen_datetime():
    patterns = set()
    for case in jsonl("el_cases.jsonl"):
        expr = case.get("expr") or ""
        patterns.update(re.findall(r"formatTime\([^,]*,\s*'([^']*)'\)", expr))
    patterns = sorted(patterns) or ["yyyyMMdd"]
    for i, (freq, start, zone) in enumerate(frequencies()):
        if start.startswith("${"):
            start = ""
        put("datetime_zone_frequency",
            "\n".join([start, zone, freq, str([1, -1, 0, 24, 365][i % 5]), "UTC",
                       patterns[i % len(patterns)], ""]))
    for case in jsonl("cron_cases.jsonl"):
        put("datetime_zone_frequency",
            "\n".join([case.get("start") or "", case.get("timezone") or "", "${coord:days(1)}", "-1",
                       "UTC", "", case.get("end") or ""]))
    for p in patterns:
        put("datetime_zone_frequency", "\n".join(["2009-03-08T10:00Z", "America/Los_Angeles", "60", "1", "GMT+0530", p]))


def gen_xml_check():
    for app, props in all_apps:
        put("xml_check", app if props is None else app + "\0" + props)


def gen_properties():
    for path in corpus_files(".properties"):
        t = read(path)
        if t:
            put("properties", t)
    for t in real_properties:
        put("properties", t)
    for text in all_xml:
        if re.search(r"<configuration\b", text[:2000]) and not re.search(r"<(?:[\w-]+:)?(?:workflow|coordinator|bundle)-app\b", text):
            put("properties", text)


def gen_structured(target, extra):
    # `app` is the first byte; the rest decodes to the edits (none here, or
    # a few from random bytes: a fixed seed, the same files every run).
    rng = random.Random(23)
    for app in range(64):
        put(target, bytes([app]) + bytes(extra))
        put(target, bytes([app]) + bytes(rng.randrange(256) for _ in range(24)) + bytes(extra))


def gen_simulate():
    sim = os.path.join(corpus_dir, "simulate")
    if not os.path.isdir(sim):
        return
    for folder in sorted(os.listdir(sim)):
        path = os.path.join(sim, folder)
        for toml in sorted(glob.glob(os.path.join(path, "*.toml"))):
            t = read(toml)
            if t is not None:
                put("simulate", folder + "\n" + t)


generators = {
    "el": gen_el,
    "cron": gen_cron,
    "datetime_zone_frequency": gen_datetime,
    "xml_check": gen_xml_check,
    "xml_check_structured": lambda: gen_structured("xml_check_structured", []),
    "properties": gen_properties,
    # No more edits (a 0 ends the list), then the Input's last fields:
    # limit, from_hours, processing zone.
    "dryrun": lambda: gen_structured("dryrun", [0, 3, 0, 0]),
    "simulate": gen_simulate,
}
for target in targets:
    if target not in generators:
        sys.exit(f"fuzz-seeds: no such target: {target} (targets: {', '.join(generators)})")
    generators[target]()
    d = os.path.join(root, "fuzz", "corpus", target)
    total = len(os.listdir(d)) if os.path.isdir(d) else 0
    print(f"fuzz-seeds: {target}: {counts.get(target, 0)} new seeds, {total} in fuzz/corpus/{target}")
PYTHON
