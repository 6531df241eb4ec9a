#!/usr/bin/env bash
# Sets up, builds, and runs every test: googletest through ctest, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
status=0
echo "== ctest =="
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure -j2 2>&1 | tail -n 40) || status=1
echo "== pytest =="
PYTHONPATH="$PWD/python" "${PYTHON:-python3}" -m pytest -q tests/python 2>&1 | tail -n 40 || status=1
exit $status
