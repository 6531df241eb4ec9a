#!/usr/bin/env bash
# ThreadSanitizer over the parts of the library that run on several threads: the googletest
# suites of the engine, storage, resources, KVStore and data iterators, then the Python tests of
# KVStore, data iterators, RecordIO, DataLoader, engine, custom operators and profiler.
#   tools/tsan.sh              # build (build-tsan/), then the googletest suites
#   tools/tsan.sh pytest [pytest args...]
# The pytest mode runs Python through a small launcher built here with -fsanitize=thread that
# embeds libpython (Py_BytesMain): TSan's runtime must be linked into the executable, since
# preloading its shared runtime into an uninstrumented program segfaults at start (clang 14;
# even /bin/true). Python and NumPy themselves are not instrumented: races inside them go unseen.
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
  echo "== pytest (TSan, Python through an instrumented launcher) =="
  py="$BUILD_DIR/python-tsan"
  "${PYTHON:-python3}" - "$py" <<'PYEOF'
import subprocess, sys, sysconfig
launcher = sys.argv[1]
source = launcher + ".c"
with open(source, "w") as f:
    f.write("#include <Python.h>\n"
            "int main(int argc, char** argv) { return Py_BytesMain(argc, argv); }\n")
libdir = sysconfig.get_config_var("LIBDIR")
version = sysconfig.get_config_var("LDVERSION")
subprocess.check_call(["clang", "-fsanitize=thread", "-I" + sysconfig.get_paths()["include"],
                       source, "-o", launcher, "-L" + libdir, "-Wl,-rpath," + libdir,
                       "-lpython" + version, "-ldl", "-lm", "-Xlinker", "-export-dynamic"])
PYEOF
  tests=("$@")
  # Not test_gluon_dataloader_v1.py: its forked workers start threads, which TSan refuses in a
  # child of a threaded process (and with die_after_fork=0 the children deadlock in its runtime).
  if [ ${#tests[@]} -eq 0 ]; then
    tests=(tests/python/unittest/test_kvstore.py tests/python/unittest/test_kvstore_sparse.py
           tests/python/unittest/test_io.py tests/python/unittest/test_io_parts.py
           tests/python/unittest/test_recordio.py tests/python/unittest/test_gluon_data.py
           tests/python/unittest/test_engine.py
           tests/python/unittest/test_exec_core.py tests/python/unittest/test_custom_op.py
           tests/python/unittest/test_profiler.py)
  fi
  # The 1.9.1 comparisons skip: the reference interpreter is not instrumented.
  MXNET_REFERENCE_PYTHON=/nonexistent/mx191-python \
    MXNET_LIBRARY_PATH="$root/$BUILD_DIR/libmxnet.so" PYTHONPATH="$root/python" \
    "$py" -m pytest -q -p no:cacheprovider "${tests[@]}" 2>&1 | tail -n 40 || status=1
fi
exit $status
