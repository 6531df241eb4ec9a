#!/usr/bin/env bash
# Runs the test suites on a library built with AddressSanitizer (LeakSanitizer included) and
# UndefinedBehaviorSanitizer: ctest, then pytest with the sanitizer runtime preloaded into Python.
#   tools/sanitize.sh                  # both suites
#   tools/sanitize.sh ctest            # or: pytest [pytest args...]
# Any report fails the run: UBSan halts on its first finding, ASan on any memory error, LSan at
# exit on any leak not covered by tools/sanitizers/lsan.supp (the Python interpreter's own).
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/sanitizer_build.sh
build_sanitized
ninja -C "$BUILD_DIR" -j"${BUILD_JOBS:-2}"

root=$PWD
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:detect_odr_violation=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$root/tools/sanitizers/ubsan.supp"
export LSAN_OPTIONS="suppressions=$root/tools/sanitizers/lsan.supp:print_suppressions=0"
what=${1:-all}
[ $# -gt 0 ] && shift
status=0
if [ "$what" = all ] || [ "$what" = ctest ]; then
  echo "== ctest (ASan+UBSan+LSan) =="
  (cd "$BUILD_DIR" && ctest --output-on-failure -j2 2>&1 | tail -n 60) || status=1
fi
if [ "$what" = all ] || [ "$what" = pytest ]; then
  echo "== pytest (ASan+UBSan+LSan, runtime preloaded) =="
  # The interpreter itself, not a wrapper script (pyenv's shims are bash, which LSan would judge).
  py=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')
  # PYTHONMALLOC=malloc: objects live in malloc'd blocks LeakSanitizer can see and scan, not in
  # pymalloc's mmap'd arenas (whose contents it would not scan, reporting false leaks).
  # The tests that compare with MXNet 1.9.1 skip: its library is not instrumented, and the
  # preloaded runtime would be inherited by the reference interpreter they start.
  MXNET_REFERENCE_PYTHON=/nonexistent/mx191-python \
  LD_PRELOAD="$(clang++ -print-resource-dir)/lib/linux/libclang_rt.asan-x86_64.so" \
    PYTHONMALLOC=malloc MXNET_LIBRARY_PATH="$root/$BUILD_DIR/libmxnet.so" \
    PYTHONPATH="$root/python" "$py" -m pytest -q -p no:cacheprovider \
    "${@:-tests/python}" 2>&1 | tail -n 60 || status=1
fi
exit $status
