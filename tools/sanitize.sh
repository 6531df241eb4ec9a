#!/usr/bin/env bash
# Runs the test suites on a library built with AddressSanitizer (LeakSanitizer included) and
# UndefinedBehaviorSanitizer: ctest, then pytest with the sanitizer runtime preloaded into Python.
#   tools/sanitize.sh                  # both suites
#   tools/sanitize.sh ctest            # or: pytest [pytest args...]
#   tools/sanitize.sh files [test files or folders...]
#                                      # pytest once per file, each in its own interpreter
#                                      # (default: every test file under tests/python), logs in
#                                      # $SANITIZE_LOGS (build-san/pytest-logs), a summary line
#                                      # per file; a file already passed there is skipped, so an
#                                      # interrupted run resumes. Per-file limit: $SANITIZE_FILE_TIMEOUT.
#   tools/sanitize.sh campaign         # the bad-input campaign, imperative and bound, with any
#                                      # sanitizer report counted as a crash of its probe
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
# The interpreter itself, not a wrapper script (pyenv's shims are bash, which LSan would judge).
py=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')
preload="$(clang++ -print-resource-dir)/lib/linux/libclang_rt.asan-x86_64.so"
# PYTHONMALLOC=malloc: objects live in malloc'd blocks LeakSanitizer can see and scan, not in
# pymalloc's mmap'd arenas (whose contents it would not scan, reporting false leaks).
# The tests that compare with MXNet 1.9.1 skip: its library is not instrumented, and the
# preloaded runtime would be inherited by the reference interpreter they start.
sanitized=(env MXNET_REFERENCE_PYTHON=/nonexistent/mx191-python LD_PRELOAD="$preload"
           PYTHONMALLOC=malloc MXNET_LIBRARY_PATH="$root/$BUILD_DIR/libmxnet.so"
           PYTHONPATH="$root/python" "$py")
pytest_cmd=("${sanitized[@]}" -m pytest -q -p no:cacheprovider)
if [ "$what" = campaign ]; then
  # The probes' children inherit the preloaded runtime; a report ends a child with status 1,
  # which the campaign counts as a crash (CAMPAIGN_DEBUG=1 shows the report).
  for mode in "" --bind; do
    "${sanitized[@]}" tools/bad_input_campaign.py --per-op 0 --timeout 300 $mode |
      tail -n 40 || status=1
  done
  exit $status
fi
if [ "$what" = files ]; then
  logs=${SANITIZE_LOGS:-$BUILD_DIR/pytest-logs}
  mkdir -p "$logs"
  mapfile -t files < <(find "${@:-tests/python}" -name 'test_*.py' | sort)
  echo "== pytest file by file (ASan+UBSan+LSan): ${#files[@]} files, logs in $logs =="
  for f in "${files[@]}"; do
    log="$logs/$(echo "$f" | tr / _).log"
    [ -f "$log.passed" ] && continue
    start=$(date +%s)
    rc=0
    timeout "${SANITIZE_FILE_TIMEOUT:-1800}" "${pytest_cmd[@]}" "$f" > "$log" 2>&1 || rc=$?
    # A sanitizer report after the last test (LSan runs at exit) fails the file too.
    if [ $rc -eq 0 ] && ! grep -q "Sanitizer" "$log"; then touch "$log.passed"; else status=1; fi
    echo "$f rc=$rc $(( $(date +%s) - start ))s: $(grep -E 'passed|failed|skipped|SUMMARY' "$log" | tail -n 1)"
  done
  exit $status
fi
if [ "$what" = all ] || [ "$what" = pytest ]; then
  echo "== pytest (ASan+UBSan+LSan, runtime preloaded) =="
  "${pytest_cmd[@]}" "${@:-tests/python}" 2>&1 | tail -n 60 || status=1
fi
exit $status
