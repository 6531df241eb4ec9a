// Global C API functions: version, features.
#include <mxnet/base.h>
#include <mxnet/c_api.h>

#include "c_api_common.h"

namespace {

// Order as the MXNet 1.9.1 wheel lists them; Python asks for TVM_OP and INT64_TENSOR_SIZE.
const LibFeature kFeatures[] = {
    {"CUDA", MXNET_USE_CUDA != 0},
    {"CUDNN", false},
    {"NCCL", false},
    {"CUDA_RTC", false},
    {"TENSORRT", false},
#if defined(__SSE__)
    {"CPU_SSE", true},
#else
    {"CPU_SSE", false},
#endif
#if defined(__SSE2__)
    {"CPU_SSE2", true},
#else
    {"CPU_SSE2", false},
#endif
#if defined(__SSE3__)
    {"CPU_SSE3", true},
#else
    {"CPU_SSE3", false},
#endif
#if defined(__SSE4_1__)
    {"CPU_SSE4_1", true},
#else
    {"CPU_SSE4_1", false},
#endif
#if defined(__SSE4_2__)
    {"CPU_SSE4_2", true},
#else
    {"CPU_SSE4_2", false},
#endif
    {"CPU_SSE4A", false},
#if defined(__AVX__)
    {"CPU_AVX", true},
#else
    {"CPU_AVX", false},
#endif
#if defined(__AVX2__)
    {"CPU_AVX2", true},
#else
    {"CPU_AVX2", false},
#endif
    {"OPENMP", MXNET_USE_OPENMP != 0},
    {"SSE", false},
    {"F16C", false},
    {"JEMALLOC", false},
#if defined(MXNET_USE_BLAS_OPEN)
    {"BLAS_OPEN", true},
#else
    {"BLAS_OPEN", false},
#endif
    {"BLAS_ATLAS", false},
    {"BLAS_MKL", false},
    {"BLAS_APPLE", false},
    {"LAPACK", false},
    {"MKLDNN", MXNET_USE_ONEDNN != 0},
    {"OPENCV", false},
    {"CAFFE", false},
    {"PROFILER", false},
    {"DIST_KVSTORE", false},
    {"CXX14", true},
    {"INT64_TENSOR_SIZE", true},
    {"SIGNAL_HANDLER", false},
    {"DEBUG", false},
    {"TVM_OP", false},
};

}  // namespace

int MXGetVersion(int* out) {
  API_BEGIN();
  *out = MXNET_VERSION;
  API_END();
}

int MXLibInfoFeatures(const struct LibFeature** lib_features, size_t* size) {
  API_BEGIN();
  *lib_features = kFeatures;
  *size = sizeof(kFeatures) / sizeof(kFeatures[0]);
  API_END();
}
