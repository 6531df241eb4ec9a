#!/usr/bin/env bash
# ThreadSanitizer over the parts of the library that run on several threads: the googletest
# suites of the engine, storage, resources, KVStore and data iterators, then the Python tests of
# KVStore, data iterators, RecordIO and DataLoader with the TSan runtime preloaded into Python.
#   tools/tsan.sh              # build (build-tsan/), then the googletest suites
#   tools/tsan.sh pytest [pytest args...]
# Not working yet: the pytest mode. CPython with the TSan runtime preloaded segfaults at start
# (clang 14, this kernel), before any test runs; the googletest suites run clean.
# Any report fails the run (halt_on_error). OpenMP is off (libgomp is not instrumented, so its
# barriers would look like races) and so is MPI (mpirun cannot carry the runtime).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-tsan}
if ! command -v clang++ >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null
  else
    echo "Missing Debian package (run as root to install): clang" >&2
    exit 1
  fi
fi
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DMXNET_SANITIZE=thread -DMXNET_USE_OPENMP=OFF -DMXNET_USE_MPI=OFF ${CMAKE_ARGS:-} >/dev/null
ninja -C "$BUILD_DIR" -j"${BUILD_JOBS:-2}"

root=$PWD
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/tools/sanitizers/tsan.supp:${TSAN_OPTIONS:-}"
what=${1:-ctest}
[ $# -gt 0 ] && shift
status=0
if [ "$what" = all ] || [ "$what" = ctest ]; then
  for suite in engine storage resource kvstore io; do
    echo "== test_$suite (TSan) =="
    "$BUILD_DIR/tests/cpp/test_$suite" 2>&1 | tail -n 30 || status=1
  done
fi
if [ "$what" = all ] || [ "$what" = pytest ]; then
  echo "== pytest (TSan, runtime preloaded) =="
  py=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')
  tests=("$@")
  if [ ${#tests[@]} -eq 0 ]; then
    tests=(tests/python/unittest/test_kvstore.py tests/python/unittest/test_kvstore_sparse.py
           tests/python/unittest/test_io.py tests/python/unittest/test_io_parts.py
           tests/python/unittest/test_recordio.py tests/python/unittest/test_gluon_data.py)
  fi
  LD_PRELOAD="$(clang++ -print-resource-dir)/lib/linux/libclang_rt.tsan-x86_64.so" \
    MXNET_LIBRARY_PATH="$root/$BUILD_DIR/libmxnet.so" PYTHONPATH="$root/python" \
    "$py" -m pytest -q -p no:cacheprovider "${tests[@]}" 2>&1 | tail -n 40 || status=1
fi
exit $status
