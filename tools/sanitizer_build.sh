# Sourced by tools/fuzz.sh and tools/sanitize.sh: installs clang and configures one build of the
# library with AddressSanitizer + UndefinedBehaviorSanitizer and libFuzzer's coverage hooks.
# OpenMP is off (clang's libomp and the libgomp of OpenBLAS would be two runtimes in one
# process) and so is MPI (its launcher cannot carry the sanitizer runtime into its processes).
BUILD_DIR=${BUILD_DIR:-build-san}

build_sanitized() {
  local need=()
  command -v clang++ >/dev/null 2>&1 || need+=(clang)
  [ -e "$(clang++ -print-resource-dir 2>/dev/null)/lib/linux/libclang_rt.fuzzer-x86_64.a" ] ||
    need+=(libfuzzer-14-dev libclang-rt-14-dev)
  if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    else
      echo "Missing Debian packages (run as root to install): ${need[*]}" >&2
      exit 1
    fi
  fi
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DMXNET_SANITIZE=address,undefined -DMXNET_FUZZ=ON -DMXNET_USE_OPENMP=OFF \
    -DMXNET_USE_MPI=OFF ${CMAKE_ARGS:-} >/dev/null
}
