#!/usr/bin/env bash
# The GPU machine's check: build the CUDA variant (or use one carried in build-cuda/), run the
# GPU tests and the GPU benchmark against PyTorch, and write every log under $OUT.
#   OUT=/tmp/out tools/gpu_check.sh            # everything, one after the other
#   PHASE=build|test|bench OUT=... tools/gpu_check.sh
#                                              # one phase: a lent machine runs at most 600 s
#                                              # a command and keeps build-cuda/ between calls
#   SKIP_BUILD=1 OUT=... tools/gpu_check.sh    # use the carried build-cuda/libmxnet.so
#     (made here with MXNET_CUDA=1 CUDA_ARCHS=90 MXNET_NO_COPY=1 tools/setup.sh; cuBLAS then
#     comes from the machine's CUDA, found through LD_LIBRARY_PATH below)
#   QUICK=1 ...                                # benchmark smoke test only
#   BENCH_CASES=a,b ...                        # benchmark only these cases
# On a lent machine with 15 minutes (a start takes one or two), run the phases back to back
# (it goes back after a short idle time): build (about 5 min on 16 cores, one architecture),
# test (tests/python/gpu, up to 9 min), then bench with the acceptance cases of issue 15:
#   BENCH_CASES=lenet_train_b64,lenet_train_b1024,resnet18_train_b128_fp32,\
#   resnet50_train_b128_fp32,resnet50_train_b128_fp16
# Triage switches for failures in the test phase: MXNET_RNN_CUDNN=0 (RNN on the generic kernels
# instead of cuDNN), MXNET_ENGINE_SYNC_GPU=1 (a kernel fault names its operator exactly),
# MXNET_KVSTORE_USE_NCCL=0, MXNET_ENABLE_CUDA_GRAPHS=0.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu_check}
PHASE=${PHASE:-all}
mkdir -p "$OUT"
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
export MXNET_LIBRARY_PATH="$PWD/build-cuda/libmxnet.so" PYTHONPATH="$PWD/python"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/local/cuda-13.0/lib64:${LD_LIBRARY_PATH:-}"

if [ "${SKIP_BUILD:-0}" != "1" ] && { [ "$PHASE" = all ] || [ "$PHASE" = build ]; }; then
  start=$(date +%s)
  cmake -S . -B build-cuda -G Ninja -DMXNET_USE_CUDA=ON -DMXNET_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}" \
    > "$OUT/cmake.log" 2>&1 &&
    ninja -C build-cuda -j"$(nproc)" > "$OUT/build.log" 2>&1
  echo "build rc=$? in $(( $(date +%s) - start )) s" | tee -a "$OUT/summary.txt"
  grep -E "^-- (cudnn|nccl|MPI|cuBLAS|cublas|cusolver)" "$OUT/cmake.log" | tee -a "$OUT/summary.txt"
  python3 tools/build_times.py build-cuda/.ninja_log --limit 600 > "$OUT/build_times.txt" 2>&1
  python3 -c "import mxnet as mx; f = mx.runtime.Features(); print('num_gpus',
mx.context.num_gpus(), 'gpu ops', len(mx.runtime.operators_with_kernel('gpu')), 'NCCL',
f.is_enabled('NCCL'), 'CUDNN', f.is_enabled('CUDNN'))" 2>&1 | tee -a "$OUT/summary.txt"
fi

if [ "$PHASE" = all ] || [ "$PHASE" = test ]; then
  timeout "${TEST_TIMEOUT:-540}" python3 -m pytest -q --durations=10 tests/python/gpu \
    tests/python/unittest/test_exec_core.py > "$OUT/pytest_gpu.log" 2>&1
  tail -n 3 "$OUT/pytest_gpu.log" | tee -a "$OUT/summary.txt"
fi

if [ "$PHASE" = all ] || [ "$PHASE" = bench ]; then
  BENCH=../shared/bench/gpu
  [ -d "$BENCH" ] || BENCH=benchmark/gpu
  if [ -f "$BENCH/bench_gpu.py" ]; then
    q=(); [ "${QUICK:-0}" = "1" ] && q=(--quick)
    [ -n "${BENCH_CASES:-}" ] && q+=(--cases "$BENCH_CASES")
    (cd "$BENCH" && timeout 240 python3 bench_gpu.py --fw torch "${q[@]}" > "$OUT/torch.jsonl" 2> "$OUT/torch.err";
     timeout 240 python3 bench_gpu.py --fw mxnet "${q[@]}" > "$OUT/new.jsonl" 2> "$OUT/new.err";
     python3 compare.py "$OUT/new.jsonl" "$OUT/torch.jsonl" > "$OUT/compare.txt" 2>&1)
    tee -a "$OUT/summary.txt" < "$OUT/compare.txt"
  fi
fi
