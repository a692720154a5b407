#!/usr/bin/env python3
"""Seeded, deterministic case generators for the differential fuzzer.

  scripts/difffuzz/gen.py KIND N SEED > cases.jsonl      (KIND: el | cron | calendar)

Each line is a question in the input shape of one JVM oracle in
../shared/oracles/ (the development corpus, kept outside this repository;
README.md there), which `examples/difffuzz.rs` reads too:

el        {"id","expr","vars":{name: string|null},"functions":"wf"?}
          Grammar-based random text values: literals of every type (longs and
          doubles at their edges, strings with escapes), every operator in both
          spellings, comparisons, `empty`, ternaries, nesting, property access,
          the workflow functions the oracle has (concat, trim, urlEncode,
          firstNotNull) and unknown ones, mixed text with `$`, `{`, `\\`; random
          variables defined with a value, with null, or not at all; 10% mutated
          by character edits (syntax errors). 40% use the workflow library.
cron      {"id","cron","timezone","start","end","max"}
          Random 5-field crons (valid and invalid items, ranges, steps, lists,
          names, L, W, #, ?, odd spacing), start times near DST transitions of
          random zones (and malformed ones), windows from minutes to years.
calendar  {"id","op":"add","tz","t","unit","n"}   Calendar.add across DST
          {"id","op":"format","tz","t","pattern"}  SimpleDateFormat = coord:formatTime
          {"id","op":"local","tz","t"}             offset, DST, days in month
          {"id","op":"zone","id_text"}             zone IDs Oozie accepts

The same N and SEED always give the same cases (zone transitions are read
from the system's /usr/share/zoneinfo, zone names from java_zone_ids.txt).
"""
import datetime
import json
import os
import random
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
JAVA_IDS = [l.strip() for l in open(os.path.join(HERE, "java_zone_ids.txt")) if l.strip()]
DST_ZONES = ["America/Los_Angeles", "America/New_York", "America/Chicago", "America/Denver",
             "America/Phoenix", "Europe/London", "Europe/Paris", "Europe/Berlin", "Europe/Moscow",
             "Australia/Sydney", "Australia/Lord_Howe", "Australia/Adelaide", "Pacific/Auckland",
             "Pacific/Chatham", "America/Sao_Paulo", "America/Santiago", "America/St_Johns",
             "America/Havana", "Asia/Tehran", "Asia/Jerusalem", "Asia/Amman", "Asia/Beirut",
             "Africa/Cairo", "America/Asuncion", "Atlantic/Azores", "America/Godthab",
             "America/Nuuk", "Europe/Dublin", "Antarctica/Troll", "America/Mexico_City",
             "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Apia", "Pacific/Kiritimati", "PST", "EST",
             "CST", "AET", "America/Caracas", "Europe/Kiev", "Europe/Kyiv", "Asia/Gaza",
             "America/Whitehorse", "Asia/Almaty", "America/Ciudad_Juarez", "UTC", "GMT"]


def zone_transitions(name):
    """UTC seconds of the transitions in the system tzdb file of `name`."""
    path = os.path.join("/usr/share/zoneinfo", name)
    try:
        data = open(path, "rb").read()
    except OSError:
        return []
    if data[:4] != b"TZif":
        return []
    isut, isstd, leap, timecnt, typecnt, charcnt = struct.unpack(">6l", data[20:44])
    if data[4:5] in (b"2", b"3", b"4"):
        skip = 44 + timecnt * 5 + typecnt * 6 + charcnt + leap * 8 + isstd + isut
        isut, isstd, leap, timecnt, typecnt, charcnt = struct.unpack(">6l", data[skip + 20:skip + 44])
        return list(struct.unpack(">%dq" % timecnt, data[skip + 44:skip + 44 + 8 * timecnt]))
    return list(struct.unpack(">%dl" % timecnt, data[44:44 + 4 * timecnt]))


_TRANSITIONS = {}


def transitions(zone):
    if zone not in _TRANSITIONS:
        real = {"PST": "America/Los_Angeles", "CST": "America/Chicago", "AET": "Australia/Sydney"}.get(zone, zone)
        _TRANSITIONS[zone] = [t for t in zone_transitions(real) if -2208988800 <= t <= 4102444800]
    return _TRANSITIONS[zone]


EPOCH = datetime.datetime(1970, 1, 1)


def fmt(seconds):
    t = EPOCH + datetime.timedelta(seconds=seconds)
    return "%04d-%02d-%02dT%02d:%02dZ" % (t.year, t.month, t.day, t.hour, t.minute)


def random_instant(rng, zone):
    """Seconds since the epoch (whole minutes): near a DST transition of `zone`,
    or anywhere, mostly 1970-2037."""
    ts = transitions(zone)
    r = rng.random()
    if ts and r < 0.6:
        base = rng.choice([t for t in ts if t >= 0] or ts)
        delta = rng.choice([rng.randint(-180, 180), rng.randint(-48 * 60, 48 * 60), rng.randint(-40, 40) * 30])
        return (base // 60 + delta) * 60
    if r < 0.88:
        lo, hi = 0, 2145916800          # 1970 .. 2038
    elif r < 0.97:
        lo, hi = 2145916800, 4102444800  # 2038 .. 2100
    elif r < 0.99:
        lo, hi = -2208988800, 0          # 1900 .. 1970
    else:
        lo, hi = -62135596800, 253402300740  # 0001 .. 9999
    t = rng.randint(lo // 60, hi // 60) * 60
    if rng.random() < 0.5:
        t -= t % rng.choice([900, 3600, 86400])
    return t


# ---------------------------------------------------------------- EL ---------

VAR_NAMES = ["a", "b", "x", "y", "s", "n", "foo", "bar_1", "v2", "_u", "$d", "camelCase", "A", "ab$",
             "é", "x1y"]
RESERVED = ["and", "or", "not", "eq", "ne", "lt", "gt", "le", "ge", "true", "false", "null",
            "empty", "div", "mod", "instanceof"]
VAR_VALUES = ["", "0", "1", "-1", "7", "1.5", "-2.5", "1e3", "1E3", "1e-3", " 7", "7 ", " 1.5 ", "abc",
              "true", "false", "TRUE", "True", "null", "9223372036854775807", "9223372036854775808",
              "-9223372036854775808", "2147483648", "0x10", "010", "1.0", "NaN", "Infinity", "-Infinity",
              "-0", "-0.0", "+5", "+1.5", "1_000", "\u0661", "1d", "1f", "1L", ".5", "5.", "1e400",
              "4.9e-324", "1e-400", "0.1", "hello world", "a'b", "a\"b", "\\", "${x}", "é", "\t1",
              "1\n", "00", "1.7976931348623157E308", "\u00a01", "1,5", "5 5"]
NUMERIC_VALUES = ["0", "1", "-1", "7", "42", "1.5", "-2.5", "1e3", "0.1", "3", "10", "100", "2.0", "true", "false",
                  "9223372036854775807", "-9223372036854775808", "1E-5", " 2", "1.0"]
INTS = ["0", "1", "2", "3", "7", "10", "42", "100", "007", "00", "2147483647", "2147483648",
        "4294967296", "9223372036854775807", "9223372036854775806", "9223372036854775808",
        "99999999999999999999", "1000000007", "65536", "255"]
FLOATS = ["1.5", "0.0", "0.5", "2.5", "1e3", "1E3", "1e+3", "1e-3", ".5", "5.", "1.", "0.1", "0.2", "0.3",
          "1e308", "1.7976931348623157e308", "1e309", "4.9e-324", "1e-400", "2.5e-5", "123456789.123",
          "1e7", "1e-3", "0.001", "9007199254740993.0", "1e16", "1e21", "1e22", "1.0E-5", "100.0",
          "9.223372036854776E18", "3.0", "1e0", "0e0", ".0", "0.", "2.2250738585072014E-308", "1e-7",
          "12345678.9", "1234567.0", "1.e5", "1E+05", "00.5", "1e-0", "5e-324", "1.0e-323", "0.30000000000000004",
          "1e23", "8.41e21", "2e-3", "1.0E7", "9999999.999999998", "1e-5"]
STRING_CHARS = ["a", "b", "Z", "0", "1", " ", "-", ".", "$", "{", "}", "#", "é", "\u20ac", "\\\\", "%",
                "/", "&", "=", "+", "?", ":", "~", "*", "\u0661", "\t", "x"]


def el_string(rng):
    q = rng.choice("'\"")
    parts = []
    for _ in range(rng.choice([0, 1, 1, 2, 3, 5])):
        r = rng.random()
        if r < 0.08:
            parts.append("\\" + q)
        elif r < 0.12:
            parts.append("\\" + ("'" if q == '"' else '"'))  # the other quote escaped
        elif r < 0.14:
            parts.append("'" if q == '"' else '"')
        elif r < 0.16:
            parts.append(rng.choice(["\\n", "\\t", "\\$", "\\u0041", "\\x"]))
        else:
            parts.append(rng.choice(STRING_CHARS))
    if rng.random() < 0.15:
        parts.append(rng.choice(VAR_VALUES).replace("\\", "\\\\").replace(q, "\\" + q))
    return q + "".join(parts) + q


def el_number(rng):
    r = rng.random()
    if r < 0.35:
        return rng.choice(INTS)
    if r < 0.5:
        return str(rng.randint(0, 10 ** rng.randint(1, 19)))
    if r < 0.75:
        return rng.choice(FLOATS)
    if r < 0.9:
        d = rng.uniform(0, 10) * 10 ** rng.randint(-10, 25)
        return repr(d)
    bits = rng.getrandbits(63)
    d = struct.unpack("<d", struct.pack("<Q", bits))[0]
    if d != d or d == float("inf"):
        return "1.0"
    return repr(d)


class ElGen:
    def __init__(self, rng, wf, names):
        self.rng = rng
        self.wf = wf
        self.names = names

    def sp(self):
        r = self.rng.random()
        if r < 0.6:
            return ""
        if r < 0.93:
            return " "
        return self.rng.choice(["  ", "\t", "\n", "\r\n", " \t"])

    def wsp(self):  # around word operators: at least one blank
        return self.rng.choice([" ", " ", " ", "  ", "\t", "\n"])

    def atom(self):
        r = self.rng.random()
        if r < 0.28:
            return el_number(self.rng)
        if r < 0.45:
            return el_string(self.rng)
        if r < 0.55:
            return self.rng.choice(["true", "false", "null", "true", "false", "null"])
        if r < 0.97:
            return self.rng.choice(self.names)
        return self.rng.choice(RESERVED + ["True", "NULL", "Empty", "nil"])

    def expr(self, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            return self.atom()
        r = rng.random()
        if r < 0.45:
            op = rng.choice(["+", "-", "*", "/", "div", "%", "mod", "==", "eq", "!=", "ne", "<", "lt",
                             ">", "gt", "<=", "le", ">=", "ge", "&&", "and", "||", "or",
                             "+", "-", "*", "/", "==", "<", ">", "&&", "||"])
            a, b = self.expr(depth - 1), self.expr(depth - 1)
            if op[0].isalpha():
                return a + self.wsp() + op + self.wsp() + b
            return a + self.sp() + op + self.sp() + b
        if r < 0.6:
            op = rng.choice(["-", "-", "!", "not", "empty", "empty", "- -", "!!"])
            inner = self.expr(depth - 1)
            if op[0].isalpha():
                return op + self.wsp() + inner
            return op + self.sp() + inner
        if r < 0.72:
            return "(" + self.sp() + self.expr(depth - 1) + self.sp() + ")"
        if r < 0.82:
            return (self.expr(depth - 1) + self.sp() + "?" + self.sp() + self.expr(depth - 1) + self.sp()
                    + ":" + self.sp() + self.expr(depth - 1))
        if r < 0.95:
            if self.wf or rng.random() < 0.2:
                return self.call(depth)
            return self.atom()
        # property access and indexing (coordc refuses them on non-null bases:
        # docs/el.md)
        base = rng.choice(self.names + ["null", "(null)", el_string(rng), "1"])
        if rng.random() < 0.5:
            return base + "." + rng.choice(["y", "empty", "length", "class", "bytes", "a"])
        return base + "[" + self.expr(depth - 1) + "]"

    def call(self, depth):
        rng = self.rng
        r = rng.random()
        if r < 0.22:
            name, args = "concat", 2
        elif r < 0.4:
            name, args = "trim", 1
        elif r < 0.58:
            name, args = "urlEncode", 1
        elif r < 0.76:
            name, args = "firstNotNull", 2
        else:
            name, args = rng.choice([("foo", 1), ("fn:length", 1), ("wf:nope", 0), ("coord:nope", 1),
                                     ("Concat", 2), ("concat", 1), ("trim", 2), ("urlEncode", 0),
                                     ("firstNotNull", 3)])
        if rng.random() < 0.05:
            args = max(0, args + rng.choice([-1, 1]))
        inner = ("," + self.sp()).join(self.expr(depth - 1) for _ in range(args))
        return name + "(" + self.sp() + inner + self.sp() + ")"


TEXTS = ["", "a", "hdfs://nn/data/", " ", "$", "{", "}", "\\", "\\${", "#{x}", "$${", "x}y", "$ {", "\\\\",
         "-", "/", "${", "'", "\"", "}}", "é", "\n", "$$", "#", "\\#{", "{}"]


def mutate(rng, s):
    for _ in range(rng.randint(1, 2)):
        op = rng.random()
        i = rng.randint(0, len(s))
        if op < 0.35 and s:
            i = min(i, len(s) - 1)
            s = s[:i] + s[i + 1:]
        elif op < 0.75:
            s = s[:i] + rng.choice("(){}$'\".?:!-+*/%<>=&|[], \\#e0") + s[i:]
        elif s:
            i = min(i, len(s) - 1)
            s = s[:i] + s[i] + s[i:]
    return s


def el_case(rng, i):
    wf = rng.random() < 0.4
    # Names this case can use; each is defined with a value, null, or not at all.
    names = rng.sample(VAR_NAMES, rng.randint(1, 4))
    variables = {}
    for n in names:
        r = rng.random()
        if r < 0.7:
            r = rng.random()
            if r < 0.45:
                variables[n] = rng.choice(NUMERIC_VALUES) if rng.random() < 0.7 else el_number(rng)
            elif r < 0.9:
                variables[n] = rng.choice(VAR_VALUES)
            else:
                variables[n] = el_string(rng)[1:-1]
        elif r < 0.85:
            variables[n] = None
    g = ElGen(rng, wf, names)
    depth = rng.choice([1, 2, 2, 3, 3, 4, 5, 6])
    r = rng.random()
    if r < 0.6:
        expr = "${" + g.sp() + g.expr(depth) + g.sp() + "}"
    else:
        parts = []
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.55:
                parts.append("${" + g.sp() + g.expr(depth - 1) + g.sp() + "}")
            else:
                parts.append(rng.choice(TEXTS))
        expr = "".join(parts)
    if rng.random() < 0.1:
        expr = mutate(rng, expr)
    case = {"id": i, "expr": expr, "vars": variables}
    if wf:
        case["functions"] = "wf"
    return case


# ---------------------------------------------------------------- cron -------

MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]
FIELDS = [(0, 59, None), (0, 23, None), (1, 31, None), (1, 12, MONTHS), (1, 7, DAYS)]


def cron_value(rng, lo, hi, names, bad, name=None):
    if bad and rng.random() < 0.5:
        return str(rng.choice([lo - 1, hi + 1, hi + 2, 60, 99, 100, 1000]))
    if name is None:
        name = names and rng.random() < 0.35
    if name:
        n = rng.choice(names)
        r = rng.random()
        if r < 0.08:
            n = n.lower()
        elif r < 0.12:
            n = {"MON": "MONDAY", "JAN": "JANUARY", "TUE": "Tues", "SUN": "SUNDAY"}.get(n, n + "X")
        return n
    v = rng.randint(lo, hi)
    return ("0" + str(v)) if rng.random() < 0.03 else str(v)


def cron_range(rng, lo, hi, names, bad):
    # Mostly both numbers or both names (Quartz refuses a mix).
    name = bool(names) and rng.random() < 0.35
    second = name if rng.random() < 0.95 else not name
    return cron_value(rng, lo, hi, names, bad, name) + "-" + cron_value(rng, lo, hi, names, bad, second and bool(names))


def cron_item(rng, field, plain=False):
    lo, hi, names = FIELDS[field]
    bad = rng.random() < 0.02
    r = rng.random()
    if r < 0.25:
        return "*"
    if r < 0.45:
        return cron_value(rng, lo, hi, names, bad)
    if r < 0.6:
        return cron_range(rng, lo, hi, names, bad)
    if r < 0.75:
        base = rng.choice(["*", cron_value(rng, lo, hi, names, bad), cron_range(rng, lo, hi, names, bad)])
        step = rng.randint(1, hi) if rng.random() < 0.9 else rng.choice([0, hi, hi + 1, rng.randint(1, 70)])
        return base + "/" + str(step)
    if plain:
        return cron_value(rng, lo, hi, names, False)
    if r < 0.88 and field == 2:
        if rng.random() < 0.002:
            return "0W"  # Quartz accepts it and then loops forever: rare, each costs a timeout
        return rng.choice(["L", "LW", "%dW" % rng.randint(1, 31), "L-%d" % rng.randint(0, 31), "W", "1W",
                           "31W", "15W", "L-3", "32W", "L-30", "L-31", "LW-1", "L1", "5L"])
    if r < 0.88 and field == 4:
        return rng.choice(["L", "%dL" % rng.randint(1, 7), "%d#%d" % (rng.randint(1, 7), rng.randint(1, 5)),
                           "MON#2", "FRI#5", "6#6", "8#1", "1#0", "SATL", "L#1", "2-4#1", "7L", "0L"])
    if r < 0.93 and field in (2, 4):
        return "?"
    if r < 0.985:
        return cron_value(rng, lo, hi, names, False)
    if r < 0.99:
        return "?"
    return rng.choice(["", "x", "1-", "-1", "/5", "5/", "1,,2", ",1", "1,", "**", "*/", "1/2/3", "a-b", "1--2",
                       "#", "L", "W", "1 ", "?/2", "*-5", "5-*", "1.5", "+1"])


def cron_field(rng, field):
    if rng.random() < 0.75:
        return cron_item(rng, field)
    plain = rng.random() < 0.9
    return ",".join(cron_item(rng, field, plain) for _ in range(rng.randint(2, 4)))


def cron_text(rng):
    fields = [cron_field(rng, f) for f in range(5)]
    r = rng.random()
    if r < 0.3:
        fields[rng.choice([2, 4])] = "?"
    elif r < 0.5:
        fields[2] = "*"
    elif r < 0.6:
        fields[4] = "*"
    if rng.random() < 0.02:
        fields = fields[:4] if rng.random() < 0.5 else fields + [rng.choice(["0", "*", "2020"])]
    seps = [" " if rng.random() < 0.995 else rng.choice(["  ", "\t", " \t"]) for _ in fields[1:]]
    text = fields[0] + "".join(s + f for s, f in zip(seps, fields[1:]))
    if rng.random() < 0.03:
        text = rng.choice([" ", "\t", "\n", "\u00a0", "\u0001", "\u2003"]) + text
    if rng.random() < 0.03:
        text = text + rng.choice([" ", "\t", "\n", "\u00a0", "\u0001", "\u2003"])
    if rng.random() < 0.005:
        text = rng.choice(["60", "0", " 5 ", "@daily", "", " ", "-1", "1e3"])
    return text


def malformed_datetime(rng, good):
    return rng.choice([
        good[:-1], good + "x", good.replace("T", " "), good.replace("Z", "+0000"), " " + good + " ",
        good.replace(":00Z", ":00:00Z"), good.replace("-0", "-"), "2009-02-29T00:00Z", "2012-02-29T00:00Z",
        "2009-13-01T00:00Z", "2009-00-10T00:00Z", "2009-01-32T00:00Z", "2009-01-01T24:00Z", "2009-01-01T23:60Z",
        "2009-1-1T1:5Z", "02009-01-01T00:00Z", "0000000002009-01-01T00:00Z", "2009-01-01T00:00z", "",
        "0000-01-01T00:00Z", "2009-01-01T-1:00Z", "2009-01-01T00:00Z\n", "+2009-01-01T00:00Z",
        "2009-01-0" + "\u0661" + "T00:00Z", "\u00a0" + good, "10000-01-01T00:00Z", "\t" + good,
        "2009-001-01T00:00Z", "2009-01-01T0000:00Z", "2009-01-01T00:0Z"])


def cron_case(rng, i):
    r = rng.random()
    if r < 0.6:
        zone = rng.choice(DST_ZONES)
    elif r < 0.95:
        zone = rng.choice(JAVA_IDS)
    else:
        zone = rng.choice(["GMT+0530", "GMT+05:30", "GMT-0800", "GMT+5", "Americas/Los_Angeles", "utc", "Z",
                           "GMT+0", "UTC+1", "", "Etc/GMT+5", "SystemV/PST8PDT", "Factory", "ROC"])
    start = random_instant(rng, zone)
    if start < -2208988800 or start > 4102444800:
        start = random_instant(rng, "UTC") % 4102444800
    span = rng.choice([rng.randint(1, 120) * 60, rng.randint(1, 72) * 3600, rng.randint(1, 60) * 86400,
                       rng.randint(1, 60) * 86400, rng.randint(60, 2000) * 86400, rng.randint(60, 2000) * 86400,
                       rng.randint(60, 2000) * 86400, rng.randint(1, 40) * 86400 * 365])
    if rng.random() < 0.02:
        span = rng.choice([0, -60, -86400])
    s, e = fmt(start), fmt(start + span)
    if rng.random() < 0.03:
        if rng.random() < 0.5:
            s = malformed_datetime(rng, s)
        else:
            e = malformed_datetime(rng, e)
    return {"id": i, "cron": cron_text(rng), "timezone": zone, "start": s, "end": e,
            "max": rng.choice([3, 10, 10, 30, 100, 300])}


# ---------------------------------------------------------------- calendar ---

UNITS = ["MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "YEAR"]
LETTERS = "GyMdkHmsSEDFwWahKzZYuXL"
BAD_LETTERS = "bcefgijlnopqrtvxABCIJNOPQRTUV"


def add_case(rng):
    r = rng.random()
    zone = rng.choice(DST_ZONES) if r < 0.75 else rng.choice(JAVA_IDS)
    t = random_instant(rng, zone)
    unit = rng.choice(UNITS)
    r = rng.random()
    if r < 0.5:
        n = rng.randint(-10, 10)
    elif r < 0.8:
        n = rng.randint(-1000, 1000)
    elif r < 0.95:
        n = rng.choice([1, -1]) * rng.randint(1000, 10 ** rng.randint(4, 9))
    else:
        n = rng.choice([2147483647, -2147483648, 2147483646, -2147483647, 10 ** 9, -10 ** 9, 1 << 30,
                        525600, -525600, 8760, 365, 366, -366, 1200, 12000])
    return {"op": "add", "tz": zone, "t": fmt(t), "unit": unit, "n": n}


def pattern(rng):
    parts = []
    for _ in range(rng.randint(1, 6)):
        r = rng.random()
        if r < 0.6:
            c = rng.choice(LETTERS)
            parts.append(c * rng.choice([1, 1, 2, 2, 3, 4, 5, 6]))
        elif r < 0.8:
            parts.append(rng.choice([" ", "-", ":", "/", ".", ",", "T", "_", "'T'", "''", "'at' ", "'o''clock'",
                                     "é", "[", "]", "#", "\u20ac", "1", "'", "'a", "''''", "'Z'", "%", "\\"]))
        elif r < 0.93:
            parts.append(rng.choice(["yyyy-MM-dd", "yyyyMMdd", "HH:mm", "yyyy-MM-dd'T'HH:mm'Z'", "EEE, d MMM yyyy",
                                     "hh 'o''clock' a, zzzz", "K:mm a, z", "yyyyy.MMMMM.dd GGG hh:mm aaa",
                                     "YYYY-'W'ww-u", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "D", "w W F", "k K h H"]))
        else:
            parts.append(rng.choice(BAD_LETTERS))
    return "".join(parts)


def format_zone(rng):
    r = rng.random()
    if r < 0.5:
        return "UTC"
    if r < 0.97:
        return "GMT%s%02d%02d" % (rng.choice("+-"), rng.randint(0, 14), rng.choice([0, 0, 0, 30, 45, rng.randint(0, 59)]))
    return rng.choice(["GMT+0000", "GMT-0000", "GMT+2359", "GMT-2359"])


def format_case(rng):
    r = rng.random()
    if r < 0.3:
        # around a year end (week-based fields)
        y = rng.randint(1971, 2099)
        t = int((datetime.datetime(y, 1, 1) - EPOCH).total_seconds()) + rng.randint(-10 * 1440, 10 * 1440) * 60
    else:
        t = random_instant(rng, "UTC")
    return {"op": "format", "tz": format_zone(rng), "t": fmt(t), "pattern": pattern(rng)}


def local_case(rng):
    zone = rng.choice(DST_ZONES) if rng.random() < 0.5 else rng.choice(JAVA_IDS)
    return {"op": "local", "tz": zone, "t": fmt(random_instant(rng, zone))}


def zone_case(rng):
    r = rng.random()
    if r < 0.5:
        z = rng.choice(JAVA_IDS)
    elif r < 0.6:
        z = rng.choice(JAVA_IDS)
        z = rng.choice([z.lower(), z.upper(), z + " ", z.replace("/", "//"), z[:-1]])
    elif r < 0.9:
        sign = rng.choice("+-")
        h, m = rng.randint(0, 25), rng.choice([0, 30, 45, 59, 60, 99])
        z = rng.choice(["GMT%s%02d%02d", "GMT%s%02d:%02d", "GMT%s%d:%02d", "GMT%s%d", "UTC%s%02d:%02d",
                        "GMT%s%02d%02d"])
        z = z % ((sign, h, m) if z.count("%") == 3 else (sign, h))
    else:
        z = rng.choice(["GMT+0", "GMT-0", "ROC", "Factory", "localtime", "Etc/GMT+5", "Etc/GMT-14", "Etc/GMT+13",
                        "Etc/UTC", "Etc/Zulu", "Z", "", "GMT", "UT", "UCT", "Zulu", "Universal", "US/Pacific-New",
                        "America/Coyhaique", "EST5EDT", "CST6CDT", "MET", "WET", "CET", "EET", "HST", "MST",
                        "PST8PDT", "Asia/Riyadh87", "America/Argentina/ComodRivadavia", "Europe/Kyiv",
                        "America/Ciudad_Juarez", "Pacific/Kanton", "Asia/Calcutta", "NZ-CHAT", "GB-Eire"])
    return {"op": "zone", "id_text": z}


def calendar_case(rng, i):
    r = rng.random()
    if r < 0.5:
        c = add_case(rng)
    elif r < 0.85:
        c = format_case(rng)
    elif r < 0.95:
        c = local_case(rng)
    else:
        c = zone_case(rng)
    c["id"] = i
    return c


KINDS = {"el": el_case, "cron": cron_case, "calendar": calendar_case}


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in KINDS:
        sys.exit("usage: gen.py el|cron|calendar N [SEED]")
    kind, n = sys.argv[1], int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = random.Random("%s-%d" % (kind, seed))
    gen = KINDS[kind]
    out = sys.stdout
    for i in range(n):
        out.write(json.dumps(gen(rng, i), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
