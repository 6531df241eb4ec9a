#!/usr/bin/env bash
# Sets up, builds, and runs every test: googletest through ctest, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
status=0
elapsed() { printf '%dm%02ds' $((SECONDS / 60)) $((SECONDS % 60)); }
# A head start for the fuzz build (clang, ASan, -O0): it runs at the lowest priority on what
# ctest and pytest leave of the two cores (about half of it gets done), and stops when pytest
# ends so that the CUDA variant gets both cores; the fuzz stage resumes it at -j2 (ninja keeps
# what was finished). It runs in its own process group so that stopping it stops its compilers.
rm -f build-fuzz.pgid
setsid bash -c 'echo $$ > build-fuzz.pgid; exec nice -n 19 env BUILD_DIR=build-fuzz BUILD_JOBS=1 \
  FUZZ_BUILD_ONLY=1 CMAKE_ARGS="-DMXNET_BUILD_TESTS=OFF -DMXNET_SANITIZE_OPT=-O0" tools/fuzz.sh' \
  > build-fuzz.log 2>&1 &
stop_fuzz_head_start() {
  local pgid
  pgid=$(cat build-fuzz.pgid 2>/dev/null) || return 0
  kill -TERM -- "-$pgid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -f build-fuzz.pgid
}
echo "== slowest compile units (tools/build_times.py; limit 60 s) == $(elapsed)"
python3 tools/build_times.py "${BUILD_DIR:-build}/.ninja_log" -n 5 || true
echo "== ctest == $(elapsed)"
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure -j2 2>&1 | tail -n 40) || status=1
# The tests that compare with the real MXNet 1.9.1 need its interpreter: made once from PyPI.
echo "== reference interpreter (MXNet 1.9.1) == $(elapsed)"
if ref=$(tools/reference_python.sh); then export MXNET_REFERENCE_PYTHON="$ref"; echo "$ref"; fi
# GluonCV and GluonNLP for tests/python/integration: from PyPI once, into a cached directory
# (and into the reference interpreter); the tests read it from here and download nothing.
echo "== client libraries (GluonCV, GluonNLP) == $(elapsed)"
if site=$(tools/client_libs.sh); then export MXNET_CLIENT_LIBS_SITE="$site"; echo "$site"; fi
echo "== pytest == $(elapsed)"
PYTHONPATH="$PWD/python" "${PYTHON:-python3}" -m pytest -q tests/python 2>&1 | tail -n 40 || status=1
stop_fuzz_head_start
# The CUDA variant is compiled too (no GPU needed), so GPU code cannot rot; on a machine
# without a GPU its tests check that CPU work is unaffected and that gpu(0) fails clearly.
# A compile check, not a release: host code unoptimized (build type CompileCheck has no -O),
# device code for one virtual architecture (PTX only, no ptxas) at nvcc's fastest-compile level,
# and the C++ units that read no CUDA macro linked from the CPU build above, not compiled again
# (MXNET_HOST_OBJECTS_DIR, cmake/cuda.cmake).
echo "== CUDA variant == $(elapsed)"
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  if MXNET_CUDA=1 MXNET_NO_COPY=1 CUDA_ARCHS="${CI_CUDA_ARCHS:-90-virtual}" \
      CMAKE_ARGS="-DMXNET_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=${CI_CUDA_BUILD_TYPE:-CompileCheck} \
                  -DMXNET_HOST_OBJECTS_DIR=$PWD/${BUILD_DIR:-build}" \
      tools/setup.sh > build-cuda.log 2>&1; then
    python3 tools/build_times.py build-cuda/.ninja_log -n 5 || true
    # MXNET_TEST_GPU_AS_CPU: without a GPU the GPU operator tests run on cpu(0), checking them.
    MXNET_TEST_GPU_AS_CPU=1 MXNET_LIBRARY_PATH="$PWD/build-cuda/libmxnet.so" PYTHONPATH="$PWD/python" \
      "${PYTHON:-python3}" -m pytest -q tests/python/gpu tests/python/unittest/test_exec_core.py \
      tests/python/unittest/test_ndarray.py 2>&1 | tail -n 5 || status=1
  else
    echo "CUDA variant: build failed"
    tail -n 40 build-cuda.log
    status=1
  fi
else
  echo "CUDA variant: skipped (no nvcc on this machine)"
fi
# The parsers under libFuzzer (clang, ASan + UBSan over the whole library, built at -O0 to keep
# the build short), a bounded time per target from the committed seed corpora.
echo "== fuzz (tools/fuzz.sh) == $(elapsed)"
if BUILD_DIR=build-fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-20}" \
    CMAKE_ARGS="-DMXNET_BUILD_TESTS=OFF -DMXNET_SANITIZE_OPT=-O0" tools/fuzz.sh >> build-fuzz.log 2>&1; then
  grep -E "^== |stat::" build-fuzz.log || true
else
  echo "fuzz: failed"
  tail -n 60 build-fuzz.log
  status=1
fi
echo "== done == $(elapsed)"
exit $status
