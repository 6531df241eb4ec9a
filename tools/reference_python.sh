#!/usr/bin/env bash
# Creates the reference interpreter the tests compare with: a venv with the real MXNet 1.9.1
# (which needs numpy<1.24), from PyPI, made once and reused. A path set in $MXNET_REFERENCE_PYTHON
# is only checked, never created or removed; otherwise the venv lives where
# tests/python/unittest/mx191_oracle.py looks by default. Prints the interpreter's path on success.
# Offline it says so and exits 1; the tests that need the reference then skip and say why.
set -uo pipefail
is_mx191() { "$1" -c 'import mxnet, sys; sys.exit(mxnet.__version__ != "1.9.1")' >/dev/null 2>&1; }
if [ -n "${MXNET_REFERENCE_PYTHON:-}" ]; then
  is_mx191 "$MXNET_REFERENCE_PYTHON" && { echo "$MXNET_REFERENCE_PYTHON"; exit 0; }
  echo "reference interpreter: $MXNET_REFERENCE_PYTHON does not import MXNet 1.9.1" >&2
  exit 1
fi
venv=${TMPDIR:-/tmp}/mxbench-refs/mx191
if ! is_mx191 "$venv/bin/python"; then
  echo "reference interpreter: creating $venv (mxnet==1.9.1, numpy<1.24)" >&2
  rm -rf "$venv"
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check \
           "mxnet==1.9.1" "numpy<1.24"; } >&2 2>&1 || ! is_mx191 "$venv/bin/python"; then
    echo "reference interpreter: could not install MXNet 1.9.1; the tests that compare with it skip" >&2
    rm -rf "$venv"
    exit 1
  fi
fi
echo "$venv/bin/python"
