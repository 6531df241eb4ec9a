#!/usr/bin/env bash
# Installs the client libraries the integration tests run on this checkout's mxnet, GluonCV
# 0.10.5.post0 and GluonNLP 0.10.0, from PyPI, made once and reused:
#   - into a cached directory for this checkout's interpreter (${PYTHON:-python3}), with
#     `pip install --target` and without mxnet itself: the tests put this checkout's python/
#     first on PYTHONPATH and the directory after it, so the libraries import our mxnet;
#   - into the reference interpreter (MXNet 1.9.1, tools/reference_python.sh) when it is there,
#     so that the tests can compare with it. Its numpy is pinned: nothing here may move it.
# Only what `import gluoncv, gluonnlp` and their model-zoo code need is installed, with --no-deps
# (not matplotlib, pandas, opencv, ... that GluonCV declares): tqdm, Pillow and portalocker
# (GluonCV), packaging (GluonNLP), scipy (GluonCV's dataset modules import scipy.io), the last two
# only where the interpreter lacks them (scipy with its dependencies, numpy held where it is).
# GluonNLP 0.10.0 is an sdist with a Cython extension (its BERT tokenizer): it is built once into
# a wheel, with the interpreter's own Cython when it has one (else pip's isolated build fetches
# it). Prints the directory on success; with --cached it only reports an installed one (what the
# tests call). Offline, with nothing cached, it says so and exits 1; the tests that need the
# libraries then skip and say why. A directory set in $MXNET_CLIENT_LIBS_SITE is only checked,
# never made. The cache lives in $MXNET_CLIENT_LIBS_CACHE (default
# ${TMPDIR:-/tmp}/mxnet-client-libs): dist/ holds the downloaded and built files, site/ the
# installed tree.
set -uo pipefail
cache=$(realpath -m "${MXNET_CLIENT_LIBS_CACHE:-${TMPDIR:-/tmp}/mxnet-client-libs}")
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
GLUONCV=gluoncv==0.10.5.post0
GLUONNLP=gluonnlp==0.10.0
# Pure Python or independent of numpy's ABI (exact versions the tests were written against).
DEPS=(tqdm==4.70.1 pillow==13.0.0 portalocker==4.4.2)
STAMP="$GLUONCV $GLUONNLP ${DEPS[*]}"
IMPORTS='import tqdm, PIL.Image, portalocker, packaging.version, scipy.io, gluoncv, gluonnlp'
PIP_FLAGS=(-q --disable-pip-version-check --no-input --retries 1)

say() { echo "client libraries: $*" >&2; }
# Runs interpreter $1 in / with PYTHONPATH $2 (none when empty) and the remaining arguments.
run_py() {
  local py=$1 path=$2
  shift 2
  if [ -n "$path" ]; then
    (cd / && PYTHONPATH="$path" "$py" "$@")
  else
    (cd / && env -u PYTHONPATH "$py" "$@")
  fi
}
# Whether interpreter $1 imports the libraries with PYTHONPATH $2 (this checkout's mxnet first).
# gluoncv swallows ImportErrors of its own modules, so its mxnet flag is checked as well.
imports_ok() {
  run_py "$1" "$2" -c "$IMPORTS
import sys; sys.exit(not (gluoncv._found_mxnet and gluonnlp.__version__ == '0.10.0'))" \
    >/dev/null 2>&1
}

if [ -n "${MXNET_CLIENT_LIBS_SITE:-}" ]; then
  [ -f "$MXNET_CLIENT_LIBS_SITE/.installed" ] && { echo "$MXNET_CLIENT_LIBS_SITE"; exit 0; }
  say "$MXNET_CLIENT_LIBS_SITE was not made by this script (no .installed)"
  exit 1
fi

site=$cache/site
dist=$cache/dist
# Whether the installed tree is complete: made by this script for this list, and its packages
# import (the libraries themselves are checked with mxnet afterwards, never reinstalled for it).
site_ok() {
  [ -f "$site/.installed" ] && [ "$(cat "$site/.installed")" = "$STAMP" ] &&
    run_py "$PY" "$site" -c "${IMPORTS%, gluoncv, gluonnlp}" >/dev/null 2>&1
}
# --cached: only report an installed tree (what the tests do: no downloads while they run).
if [ "${1:-}" = "--cached" ]; then
  site_ok && { echo "$site"; exit 0; }
  say "not installed in $site; run tools/client_libs.sh (fetches from PyPI once)"
  exit 1
fi
mkdir -p "$dist" || exit 1
exec 9>"$cache/.lock" && flock 9  # one installer at a time

# The two libraries' files: downloaded from PyPI once (--no-deps), and GluonNLP's wheel built.
fetch() {
  ls "$dist"/gluoncv-0.10.5.post0-*.whl >/dev/null 2>&1 ||
    "$PY" -m pip download "${PIP_FLAGS[@]}" --no-deps --only-binary=:all: -d "$dist" \
      "$GLUONCV" >&2 ||
    return 1
  ls "$dist"/gluonnlp-0.10.0.tar.gz >/dev/null 2>&1 ||
    "$PY" -m pip download "${PIP_FLAGS[@]}" --no-deps --no-binary=:all: --no-build-isolation \
      -d "$dist" "$GLUONNLP" >&2 ||
    "$PY" -m pip download "${PIP_FLAGS[@]}" --no-deps --no-binary=:all: -d "$dist" \
      "$GLUONNLP" >&2 ||
    return 1
}
py_tag() { run_py "$1" "" -c 'import sys; print("cp%d%d" % sys.version_info[:2])'; }
# GluonNLP's wheel for interpreter $1 (its Cython extension compiled for that Python).
build_nlp() {
  local tag
  tag=$(py_tag "$1") || return 1
  ls "$dist"/gluonnlp-0.10.0-"$tag"-*.whl >/dev/null 2>&1 && return 0
  say "building GluonNLP's wheel (Cython extension) for $1"
  if run_py "$1" "" -c 'import Cython, setuptools' >/dev/null 2>&1; then
    run_py "$1" "" -m pip wheel "${PIP_FLAGS[@]}" --no-deps --no-build-isolation -w "$dist" \
      "$dist/gluonnlp-0.10.0.tar.gz" >&2
  else
    run_py "$1" "" -m pip wheel "${PIP_FLAGS[@]}" --no-deps -w "$dist" \
      "$dist/gluonnlp-0.10.0.tar.gz" >&2
  fi
}
# The packages interpreter $1 needs beyond the fixed list: packaging and scipy where it lacks
# them (scipy with its numpy held at the installed version, so a wheel built for it is chosen).
extra_deps() {
  run_py "$1" "" -c 'import packaging.version' >/dev/null 2>&1 || echo packaging
  run_py "$1" "" -c 'import scipy.io' >/dev/null 2>&1 || echo scipy
}

if ! site_ok; then
  say "installing $GLUONCV $GLUONNLP into $site"
  if ! fetch || ! build_nlp "$PY"; then
    say "could not fetch or build them (offline?); the tests that need them skip"
    exit 1
  fi
  tag=$(py_tag "$PY")
  mapfile -t extra < <(extra_deps "$PY")
  rm -rf "$site.new"
  if ! "$PY" -m pip install "${PIP_FLAGS[@]}" --no-deps --target "$site.new" \
         "$dist"/gluoncv-0.10.5.post0-*.whl "$dist"/gluonnlp-0.10.0-"$tag"-*.whl \
         "${DEPS[@]}" "${extra[@]}" >&2; then
    say "pip install --target $site.new failed (offline?); the tests that need them skip"
    rm -rf "$site.new"
    exit 1
  fi
  echo "$STAMP" > "$site.new/.installed"
  rm -rf "$site" && mv "$site.new" "$site"
  if ! imports_ok "$PY" "$PWD/python:$site"; then
    say "installed, but 'import gluoncv, gluonnlp' fails with this checkout's mxnet:"
    run_py "$PY" "$PWD/python:$site" -c "$IMPORTS" 2>&1 | tail -n 5 >&2
  fi
fi

# The reference interpreter: the same libraries into its own environment (its venv), so the
# tests run them on MXNet 1.9.1 as well. Its absence only makes the comparisons skip.
ref=${MXNET_REFERENCE_PYTHON:-${TMPDIR:-/tmp}/mxbench-refs/mx191/bin/python}
if [ -x "$ref" ] && ! imports_ok "$ref" ""; then
  say "installing $GLUONCV $GLUONNLP into the reference interpreter $ref"
  numpy_pin=$(run_py "$ref" "" -c 'import numpy; print("numpy==" + numpy.__version__)')
  mapfile -t extra < <(extra_deps "$ref")
  reftag=$(py_tag "$ref")
  if ! { build_nlp "$ref" &&
         run_py "$ref" "" -m pip install "${PIP_FLAGS[@]}" --no-deps \
           "$dist"/gluoncv-0.10.5.post0-*.whl "$dist"/gluonnlp-0.10.0-"$reftag"-*.whl \
           "${DEPS[@]}" >&2 &&
         { [ ${#extra[@]} -eq 0 ] ||
           run_py "$ref" "" -m pip install "${PIP_FLAGS[@]}" "${extra[@]}" "$numpy_pin" \
             >&2; } &&
         imports_ok "$ref" ""; }; then
    say "could not install them into $ref; the comparisons with MXNet 1.9.1 skip"
  fi
fi
echo "$site"
