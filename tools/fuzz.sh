#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, with AddressSanitizer and UBSan over the whole
# library) and runs each one for a bounded time, starting from its committed seed corpus.
#   tools/fuzz.sh                      # every target, FUZZ_SECONDS (default 30) each
#   FUZZ_SECONDS=600 tools/fuzz.sh fuzz_symbol_json
#   FUZZ_BUILD_ONLY=1 tools/fuzz.sh    # build the targets, run nothing
# A crash, a sanitizer report, a leak or a hang (FUZZ_TIMEOUT s on one input) fails the run; the
# input that did it is left in $BUILD_DIR/fuzz-artifacts/ and the command to replay it is printed.
# New interesting inputs go to $BUILD_DIR/fuzz-corpus/<target>/, never into the committed corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/sanitizer_build.sh
build_sanitized

seconds=${FUZZ_SECONDS:-30}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for src in tests/fuzz/fuzz_*.cc; do targets+=("$(basename "$src" .cc)"); done
fi
ninja -C "$BUILD_DIR" -j"${BUILD_JOBS:-2}" "${targets[@]}"
[ "${FUZZ_BUILD_ONLY:-0}" = "1" ] && exit 0

artifacts="$BUILD_DIR/fuzz-artifacts"
mkdir -p "$artifacts"
# One target per core at a time (FUZZ_JOBS, default 2); the reports follow in target order.
run_target() {
  local target=$1 work="$BUILD_DIR/fuzz-corpus/$1"
  mkdir -p "$work"
  "$BUILD_DIR/$target" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-20}" \
      -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$artifacts/$target-" "$work" "tests/fuzz/corpus/$target" \
      > "$BUILD_DIR/$target.log" 2>&1 && echo 0 > "$BUILD_DIR/$target.rc" ||
    echo 1 > "$BUILD_DIR/$target.rc"
}
running=0
for target in "${targets[@]}"; do
  rm -f "$BUILD_DIR/$target.rc"
  if [ "$running" -ge "${FUZZ_JOBS:-2}" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "$target" &
  running=$((running + 1))
done
wait || true
status=0
for target in "${targets[@]}"; do
  echo "== $target: ${seconds} s from tests/fuzz/corpus/$target =="
  if [ "$(cat "$BUILD_DIR/$target.rc" 2>/dev/null)" = "0" ]; then
    grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$BUILD_DIR/$target.log" |
      tr '\n' ' '
    echo
  else
    status=1
    tail -n 60 "$BUILD_DIR/$target.log"
    echo "$target FAILED; replay: $BUILD_DIR/$target $artifacts/$target-*"
  fi
done
exit $status
