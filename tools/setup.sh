#!/usr/bin/env bash
# Installs what the build needs (Debian packages as root, Python packages with pip), then builds
# libmxnet.so into build/ and places it inside python/mxnet/ so `import mxnet` works from the tree.
#   tools/setup.sh            # Release build
#   BUILD_DIR=build-dbg CMAKE_ARGS="-DCMAKE_BUILD_TYPE=Debug" tools/setup.sh
#   MXNET_CUDA=1 tools/setup.sh   # the CUDA variant in build-cuda/ (nvcc from /usr/local/cuda;
#                                 # CUDA_ARCHS="80;90" by default; no GPU needed to build)
#   MXNET_NO_COPY=1 ...           # build only; leave python/mxnet/libmxnet.so as it is
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for pkg in g++ ninja-build libopenblas-dev libopenblas0-openmp libgtest-dev libdnnl-dev libjpeg62-turbo-dev libpng-dev libopenmpi-dev openmpi-bin; do
  have_pkg "$pkg" || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "Installing Debian packages: ${need_apt[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "Missing Debian packages (run as root to install): ${need_apt[*]}" >&2
    exit 1
  fi
fi

PY=${PYTHON:-python3}
"$PY" -c "import numpy, pytest" 2>/dev/null || "$PY" -m pip install -q numpy pytest
command -v cmake >/dev/null 2>&1 || "$PY" -m pip install -q cmake
command -v ninja >/dev/null 2>&1 || "$PY" -m pip install -q ninja

CUDA_ARGS=()
if [ "${MXNET_CUDA:-0}" = "1" ]; then
  NVCC=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  if [ ! -x "$NVCC" ]; then
    echo "MXNET_CUDA=1: nvcc not found (install CUDA 13's compiler, or set CUDACXX)" >&2
    exit 1
  fi
  # cuBLAS headers and library from PyPI when the toolkit has none (CMake finds the wheel).
  if [ ! -e "$(dirname "$NVCC")/../include/cublas_v2.h" ] &&
     ! "$PY" -c "import nvidia.cu13, os, sys; sys.exit(not os.path.exists(list(nvidia.cu13.__path__)[0] + '/include/cublas_v2.h'))" 2>/dev/null; then
    "$PY" -m pip install -q nvidia-cublas
  fi
  # cuSOLVER likewise (the linalg factorizations on the GPU; it pulls nvidia-cusparse and
  # nvidia-nvjitlink).
  if [ ! -e "$(dirname "$NVCC")/../include/cusolverDn.h" ] &&
     ! "$PY" -c "import nvidia.cu13, os, sys; sys.exit(not os.path.exists(list(nvidia.cu13.__path__)[0] + '/include/cusolverDn.h'))" 2>/dev/null; then
    "$PY" -m pip install -q nvidia-cusolver
  fi
  # cuDNN likewise (Convolution/Deconvolution on the GPU), unless the system has it.
  if [ ! -e "$(dirname "$NVCC")/../include/cudnn.h" ] &&
     [ ! -e "/usr/include/$(gcc -print-multiarch 2>/dev/null)/cudnn.h" ] &&
     ! "$PY" -c "import nvidia.cudnn" 2>/dev/null; then
    "$PY" -m pip install -q nvidia-cudnn-cu13
  fi
  # curand's device headers likewise (the GPU random states of extension operators).
  if [ ! -e "$(dirname "$NVCC")/../include/curand_kernel.h" ] &&
     ! "$PY" -c "import nvidia.cu13, os, sys; sys.exit(not os.path.exists(list(nvidia.cu13.__path__)[0] + '/include/curand_kernel.h'))" 2>/dev/null; then
    "$PY" -m pip install -q nvidia-curand
  fi
  # NCCL likewise (the 'nccl' KVStore, dist_device_sync on GPUs), unless the system has it.
  if [ ! -e "/usr/include/$(gcc -print-multiarch 2>/dev/null)/nccl.h" ] &&
     [ ! -e "$(dirname "$NVCC")/../include/nccl.h" ] &&
     ! "$PY" -c "import nvidia.nccl" 2>/dev/null; then
    "$PY" -m pip install -q nvidia-nccl-cu13
  fi
  CUDA_ARGS=(-DMXNET_USE_CUDA=ON "-DCMAKE_CUDA_COMPILER=$NVCC"
             "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS:-80;90}")
  BUILD_DIR=${BUILD_DIR:-build-cuda}
fi
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja ${CMAKE_ARGS:-} "${CUDA_ARGS[@]}" >/dev/null
ninja -C "$BUILD_DIR" -j"${BUILD_JOBS:-2}"
if [ "${MXNET_NO_COPY:-0}" = "1" ]; then
  echo "built $BUILD_DIR/libmxnet.so"
else
  cp "$BUILD_DIR/libmxnet.so" python/mxnet/libmxnet.so
  echo "built $BUILD_DIR/libmxnet.so (also copied to python/mxnet/)"
fi
