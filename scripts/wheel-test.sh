#!/usr/bin/env bash
# Tests coordc's wheels as users get them (.ci/run runs it after
# scripts/build-wheels.sh and cargo test): for each wheel of WHEELS (default
# target/wheels), its tags (file name and WHEEL file) and what its binary
# needs of the system (glibc 2.17 at most, or nothing: static); installed
# offline into a fresh virtual environment, its coordc answers as the cargo
# build of this checkout does, byte for byte, on every application of
# corpus/; the pre-commit hook of this checkout's HEAD, from a local
# repository, and the GitHub Action's script, each installing the wheel with
# pip; and, offline, action.yml and .github/workflows/*.yml against their
# JSON schemas and shellcheck on scripts/*.sh and .ci/run.
# The cargo build compared is COORDC_CARGO_BIN, else target/debug/coordc.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
wheels="$(cd "${1:-$root/target/wheels}" && pwd)"
tools="$root/.venv-tools/bin"
cd "$root"
work="$(mktemp -d "${TMPDIR:-/tmp}/coordc-wheel-test.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() {
    echo "wheel-test: FAILED: $*" >&2
    exit 1
}

echo "== check-jsonschema: action.yml, .github/workflows/*.yml"
"$tools/check-jsonschema" --builtin-schema vendor.github-actions action.yml
"$tools/check-jsonschema" --builtin-schema vendor.github-workflows .github/workflows/*.yml
echo "== shellcheck: scripts/*.sh .ci/run"
"$tools/shellcheck" scripts/*.sh .ci/run
echo "shellcheck: no findings"

version="$(sed -n 's/^version = "\([^"]*\)"$/\1/p' Cargo.toml | head -n 1)"
cargo_bin="${COORDC_CARGO_BIN:-$root/target/debug/coordc}"
[ -x "$cargo_bin" ] || cargo build --quiet
[ -x "$cargo_bin" ] || fail "no cargo-built coordc at $cargo_bin"

# Prints the Tag lines of wheel $1's WHEEL file, sorted.
wheel_tags() {
    python3 - "$1" <<'EOF'
import sys, zipfile
path = sys.argv[1]
with zipfile.ZipFile(path) as wheel:
    name = next(n for n in wheel.namelist() if n.endswith(".dist-info/WHEEL"))
    text = wheel.read(name).decode()
print("\n".join(sorted(l.split(": ", 1)[1].strip() for l in text.splitlines() if l.startswith("Tag: "))))
EOF
}

# The tags a wheel's file name stands for (py3-none-A.B: py3-none-A and
# py3-none-B), sorted.
name_tags() {
    local tags="${1%.whl}"
    tags="${tags#coordc-"$version"-py3-none-}"
    tr '.' '\n' <<<"$tags" | sed 's/^/py3-none-/' | sort
}

gnu_tags="py3-none-manylinux2014_x86_64
py3-none-manylinux_2_17_x86_64"
# manylinux1 is the one Linux tag pip 8.1 to 19.2 accept (CentOS 7's pip 9).
static_tags="py3-none-manylinux1_x86_64
py3-none-manylinux_2_5_x86_64
py3-none-musllinux_1_1_x86_64"
seen_gnu=false
seen_static=false
for wheel in "$wheels"/coordc-*.whl; do
    [ -e "$wheel" ] || fail "no coordc-*.whl in $wheels (scripts/build-wheels.sh)"
    name="$(basename "$wheel")"
    echo "== $name"
    case "$name" in
        "coordc-$version-py3-none-"*) ;;
        *) fail "$name: not coordc $version (Cargo.toml) for any Python 3" ;;
    esac
    tags="$(wheel_tags "$wheel")"
    [ "$tags" = "$(name_tags "$name")" ] || fail "$name: its WHEEL file says $tags"
    python3 -m zipfile -e "$wheel" "$work/unpacked-$name"
    binary="$work/unpacked-$name/coordc-$version.data/scripts/coordc"
    [ -f "$binary" ] || fail "$name: no coordc-$version.data/scripts/coordc"
    if [ "$tags" = "$gnu_tags" ]; then
        seen_gnu=true
        newest="$(objdump -T "$binary" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)"
        echo "tags: $(echo "$tags" | paste -sd ' ' -); newest glibc symbol version: $newest"
        [ "$(printf '%s\n' "$newest" GLIBC_2.17 | sort -V | tail -n 1)" = GLIBC_2.17 ] \
            || fail "$name needs $newest, newer than manylinux2014's GLIBC_2.17"
    elif [ "$tags" = "$static_tags" ]; then
        seen_static=true
        readelf -l "$binary" | grep -q INTERP && fail "$name: its binary is not static (it has an interpreter)"
        readelf -d "$binary" | grep -q NEEDED && fail "$name: its binary needs shared libraries"
        echo "tags: $(echo "$tags" | paste -sd ' ' -); static: no interpreter, no shared libraries"
    else
        fail "$name: unexpected tags $tags"
    fi
done
$seen_gnu || fail "no manylinux2014 wheel in $wheels"
if ! $seen_static; then
    [ -z "${CI:-}" ] || fail "no static musl wheel in $wheels (scripts/build-wheels.sh builds it where the Rust target x86_64-unknown-linux-musl can be installed)"
    echo "skipped: the static musl wheel's checks (no musl wheel in $wheels)"
fi

# Runs the coordc of $1 and the cargo build on the same arguments in the
# checkout and requires the same stdout, stderr and exit code.
same_as_cargo() {
    local installed="$1" what
    shift
    what="coordc $*"
    "$installed" "$@" >"$work/wheel.out" 2>"$work/wheel.err" && echo 0 >"$work/wheel.rc" || echo $? >"$work/wheel.rc"
    "$cargo_bin" "$@" >"$work/cargo.out" 2>"$work/cargo.err" && echo 0 >"$work/cargo.rc" || echo $? >"$work/cargo.rc"
    for stream in out err rc; do
        cmp -s "$work/wheel.$stream" "$work/cargo.$stream" \
            || fail "$what: the wheel's $stream differs from cargo's ($(diff "$work/wheel.$stream" "$work/cargo.$stream" | head -n 5))"
    done
    echo "identical ($(wc -c <"$work/wheel.out") bytes of output, exit $(cat "$work/wheel.rc")): $what"
}

# Installs with pip, offline, into the fresh virtual environment $1 what
# the other arguments name; prints the environment's coordc.
install_offline() {
    local venv="$work/$1"
    shift
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$@" >&2
    echo "$venv/bin/coordc"
}

# By name, pip picks the wheel for this machine; every wheel by its path.
by_name="$(install_offline by-name --find-links "$wheels" "coordc==$version")"
echo "== pip install --no-index --find-links $wheels coordc==$version: $("$by_name" --version), $(file -bL "$by_name" | cut -d, -f1-5)"
installed=("$by_name")
for wheel in "$wheels"/coordc-*.whl; do
    name="$(basename "$wheel")"
    case "$name" in *musllinux*) installed+=("$(install_offline static --no-deps "$wheel")") ;; esac
done
bundle=corpus/bundle/daily-pipeline
for coordc in "${installed[@]}"; do
    echo "== $coordc against $cargo_bin"
    same_as_cargo "$coordc" --version
    same_as_cargo "$coordc" check --format json corpus/
    same_as_cargo "$coordc" check corpus/
    same_as_cargo "$coordc" check --format sarif corpus/
    same_as_cargo "$coordc" dryrun "$bundle/bundle.xml" --map "hdfs://nn:8020/user/etl/daily-pipeline=$bundle"
done

# pip offline for pre-commit and the Action: the wheels, and the setuptools
# that builds the pre-commit stub (the one virtualenv seeds).
setuptools="$("$tools/python" -c 'import virtualenv.seed.wheels.embed as e; print(e.BUNDLE_FOLDER)')"
export PIP_NO_INDEX=1 PIP_FIND_LINKS="$wheels $setuptools" PIP_DISABLE_PIP_VERSION_CHECK=1

echo "== pre-commit: the hooks of $root at HEAD, from a local repository"
rev="$(git rev-parse HEAD)"
git diff --quiet HEAD -- .pre-commit-hooks.yaml pyproject.toml setup.cfg \
    || echo "(note: uncommitted changes to the hooks or the stub are not what runs: pre-commit takes $rev)"
project="$work/project"
mkdir -p "$project"
cp corpus/invalid/WF001/workflow.xml "$project/bad.xml"
cp corpus/wf/spec-4.1.5-fork-join.xml "$project/good.xml"
cat >"$project/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $root
    rev: $rev
    hooks:
      - id: coordc-check
EOF
(
    cd "$project"
    export PRE_COMMIT_HOME="$work/pre-commit-home"
    # (A checkout owned by another user is still this project.)
    export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*'
    git init -q
    git config user.email wheel-test@example.invalid
    git config user.name wheel-test
    git add .
    "$tools/pre-commit" install >/dev/null
    if git commit -q -m "a workflow with a mistake" >"$work/commit.out" 2>&1; then
        cat "$work/commit.out"
        fail "pre-commit let a commit with a WF001 error through"
    fi
    grep -q 'error\[WF001\]' "$work/commit.out" || { cat "$work/commit.out"; fail "the hook did not report WF001"; }
    grep -q 'bad.xml:17:17' "$work/commit.out" || { cat "$work/commit.out"; fail "the hook did not point at bad.xml:17:17"; }
    grep -E '^coordc check|^- (hook id|exit code)|^error\[WF001\]|bad.xml:17:17|^checked' "$work/commit.out"
    git rm -q --cached bad.xml
    git commit -q -m "a good workflow" >"$work/commit.out" 2>&1 \
        || { cat "$work/commit.out"; fail "pre-commit refused a commit without errors"; }
    grep -E '^coordc check' "$work/commit.out"
    echo "pre-commit: the commit with WF001 was refused, the one without was made"
)

echo "== the GitHub Action's script, installing the wheel with pip"
action_path=""
IFS=: read -ra dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
    [ -x "$dir/coordc" ] || action_path="$action_path${action_path:+:}$dir"
done
set +e
(
    cd "$project"
    PATH="$action_path" RUNNER_TEMP="$work/runner" GITHUB_ACTION_PATH="$root" \
        INPUT_PATHS="bad.xml good.xml" INPUT_ARGS="" INPUT_VERSION="" \
        "$root/scripts/github-action.sh"
) >"$work/action.out" 2>&1
code=$?
set -e
[ -x "$work/runner/coordc-venv/bin/coordc" ] || { cat "$work/action.out"; fail "the action did not install coordc with pip"; }
[ "$code" = 1 ] || { cat "$work/action.out"; fail "the action exited $code, not 1, on a WF001 error"; }
grep -q '^::error file=bad.xml,line=17,.*WF001' "$work/action.out" || { cat "$work/action.out"; fail "no WF001 annotation"; }
grep '^::error' "$work/action.out" | cut -c1-100
echo "action: coordc $version from the wheel, exit 1, annotations as above"
echo "wheel-test: passed"
