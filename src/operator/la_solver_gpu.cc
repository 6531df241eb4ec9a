/*!
 * \file la_solver_gpu.cc
 * \brief The GPU forms of la_solver.h's factorizations on cuSOLVER's dense API (CUDA builds
 *        only): one cusolverDn call per matrix of the batch, all on the operation's stream, with
 *        the matrices' info codes left in device memory for LaInfoOnHost.
 *
 * As with cuBLAS (blas_gemm_gpu.cc), each engine thread keeps one cuSOLVER handle per device (a
 * handle must not be used by two threads at once) and points it at the stream of the operation
 * before every call.
 */
#if MXNET_USE_CUDA
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <climits>
#include <string>
#include <unordered_map>
#include <vector>

#include "../common/cuda_utils.h"
#include "./la_solver.h"

namespace mxnet {
namespace op {
namespace {

const char* CusolverStatusName(cusolverStatus_t st) {
  switch (st) {
    case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    default: return "cuSOLVER error";
  }
}

void ThrowCusolver(cusolverStatus_t st, const char* what) {
  int dev = -1;
  cudaGetDevice(&dev);
  MX_THROW(::dmlc::Error) << what << " on gpu(" << dev << ") failed: " << CusolverStatusName(st)
                          << " (" << static_cast<int>(st) << ")";
}

#define CUSOLVER_CALL(expr, what)                                  \
  do {                                                             \
    const cusolverStatus_t st_ = (expr);                           \
    if (st_ != CUSOLVER_STATUS_SUCCESS) ThrowCusolver(st_, what);  \
  } while (0)

/*!
 * \brief This thread's handle for the current device, bound to the stream of `s`. Handles are
 *        never destroyed: engine threads live as long as the process, and destroying a handle
 *        after the CUDA driver has shut down at exit would fail.
 */
cusolverDnHandle_t Handle(mshadow::Stream<mshadow::gpu>* s) {
  thread_local std::unordered_map<int, cusolverDnHandle_t> handles;
  int dev = 0;
  CUDA_CALL(cudaGetDevice(&dev));
  auto it = handles.find(dev);
  if (it == handles.end()) {
    cusolverDnHandle_t h = nullptr;
    CUSOLVER_CALL(cusolverDnCreate(&h), "cusolverDnCreate");
    it = handles.emplace(dev, h).first;
  }
  CUSOLVER_CALL(cusolverDnSetStream(it->second, mshadow::Stream<mshadow::gpu>::GetStream(s)),
                "cusolverDnSetStream");
  return it->second;
}

int Lwork(index_t lwork) {
  if (lwork > INT_MAX) {
    MX_THROW(::dmlc::Error) << "cuSOLVER workspace of " << lwork
                            << " elements is beyond its 32-bit limit (this is a bug)";
  }
  return static_cast<int>(lwork);
}

/*! \brief Info codes of an empty problem: all 0. */
void ZeroInfo(mshadow::Stream<mshadow::gpu>* s, int* info, index_t batch) {
  CUDA_CALL(cudaMemsetAsync(info, 0, batch * sizeof(int),
                            mshadow::Stream<mshadow::gpu>::GetStream(s)));
}

/*! \brief The single- and double-precision cusolverDn entry points, by element type. */
template <typename DType>
struct Dn;

#define LA_DN_ROUTINES(T, P)                                                             \
  template <>                                                                            \
  struct Dn<T> {                                                                         \
    static constexpr auto potrf_buffer = cusolverDn##P##potrf_bufferSize;                \
    static constexpr auto potrf = cusolverDn##P##potrf;                                  \
    static constexpr auto potri_buffer = cusolverDn##P##potri_bufferSize;                \
    static constexpr auto potri = cusolverDn##P##potri;                                  \
    static constexpr auto geqrf_buffer = cusolverDn##P##geqrf_bufferSize;                \
    static constexpr auto geqrf = cusolverDn##P##geqrf;                                  \
    static constexpr auto orgqr_buffer = cusolverDn##P##orgqr_bufferSize;                \
    static constexpr auto orgqr = cusolverDn##P##orgqr;                                  \
    static constexpr auto syevd_buffer = cusolverDn##P##syevd_bufferSize;                \
    static constexpr auto syevd = cusolverDn##P##syevd;                                  \
    static constexpr auto getrf_buffer = cusolverDn##P##getrf_bufferSize;                \
    static constexpr auto getrf = cusolverDn##P##getrf;                                  \
    static constexpr auto getrs = cusolverDn##P##getrs;                                  \
  };
LA_DN_ROUTINES(float, S)
LA_DN_ROUTINES(double, D)
#undef LA_DN_ROUTINES

// The row-major lower triangle is the column-major upper one (la_solver.h).
constexpr cublasFillMode_t kUpper = CUBLAS_FILL_MODE_UPPER;

}  // namespace

template <typename DType>
index_t LaSolverWork(mshadow::Stream<mshadow::gpu>* s, LaRoutine routine, int m, int n) {
  if (m == 0 || n == 0) return 0;
  cusolverDnHandle_t h = Handle(s);
  int lwork = 0;
  // The size queries read the dimensions only: no matrix is passed.
  switch (routine) {
    case LaRoutine::kPotrf:
      CUSOLVER_CALL(Dn<DType>::potrf_buffer(h, kUpper, n, nullptr, n, &lwork),
                    "cusolverDn potrf_bufferSize");
      break;
    case LaRoutine::kPotri:
      CUSOLVER_CALL(Dn<DType>::potri_buffer(h, kUpper, n, nullptr, n, &lwork),
                    "cusolverDn potri_bufferSize");
      break;
    case LaRoutine::kGeqrf:
      CUSOLVER_CALL(Dn<DType>::geqrf_buffer(h, n, m, nullptr, n, &lwork),
                    "cusolverDn geqrf_bufferSize");
      break;
    case LaRoutine::kOrgqr:
      CUSOLVER_CALL(Dn<DType>::orgqr_buffer(h, n, m, m, nullptr, n, nullptr, &lwork),
                    "cusolverDn orgqr_bufferSize");
      break;
    case LaRoutine::kSyevd:
      CUSOLVER_CALL(Dn<DType>::syevd_buffer(h, CUSOLVER_EIG_MODE_VECTOR, kUpper, n, nullptr, n,
                                            nullptr, &lwork),
                    "cusolverDn syevd_bufferSize");
      break;
    case LaRoutine::kGetrf:
      CUSOLVER_CALL(Dn<DType>::getrf_buffer(h, n, n, nullptr, n, &lwork),
                    "cusolverDn getrf_bufferSize");
      break;
  }
  return lwork;
}

template <typename DType>
void LaPotrf(mshadow::Stream<mshadow::gpu>* s, index_t batch, int n, DType* a, int* info,
             DType* work, index_t lwork) {
  if (n == 0) {
    return ZeroInfo(s, info, batch);
  }
  cusolverDnHandle_t h = Handle(s);
  for (index_t b = 0; b < batch; ++b) {
    CUSOLVER_CALL(Dn<DType>::potrf(h, kUpper, n, a + b * n * n, n, work, Lwork(lwork), info + b),
                  "cusolverDn potrf");
  }
}

template <typename DType>
void LaPotri(mshadow::Stream<mshadow::gpu>* s, index_t batch, int n, DType* a, int* info,
             DType* work, index_t lwork) {
  if (n == 0) {
    return ZeroInfo(s, info, batch);
  }
  cusolverDnHandle_t h = Handle(s);
  for (index_t b = 0; b < batch; ++b) {
    CUSOLVER_CALL(Dn<DType>::potri(h, kUpper, n, a + b * n * n, n, work, Lwork(lwork), info + b),
                  "cusolverDn potri");
  }
}

template <typename DType>
void LaGeqrf(mshadow::Stream<mshadow::gpu>* s, index_t batch, int m, int n, DType* a, DType* tau,
             int* info, DType* work, index_t lwork) {
  if (m == 0) {
    return ZeroInfo(s, info, batch);
  }
  cusolverDnHandle_t h = Handle(s);
  for (index_t b = 0; b < batch; ++b) {
    CUSOLVER_CALL(Dn<DType>::geqrf(h, n, m, a + b * m * n, n, tau + b * m, work, Lwork(lwork),
                                   info + b),
                  "cusolverDn geqrf");
  }
}

template <typename DType>
void LaOrgqr(mshadow::Stream<mshadow::gpu>* s, index_t batch, int m, int n, DType* a,
             const DType* tau, int* info, DType* work, index_t lwork) {
  if (m == 0) {
    return ZeroInfo(s, info, batch);
  }
  cusolverDnHandle_t h = Handle(s);
  for (index_t b = 0; b < batch; ++b) {
    CUSOLVER_CALL(Dn<DType>::orgqr(h, n, m, m, a + b * m * n, n, tau + b * m, work, Lwork(lwork),
                                   info + b),
                  "cusolverDn orgqr");
  }
}

template <typename DType>
void LaSyevd(mshadow::Stream<mshadow::gpu>* s, index_t batch, int n, DType* a, DType* w,
             int* info, DType* work, index_t lwork) {
  if (n == 0) {
    return ZeroInfo(s, info, batch);
  }
  cusolverDnHandle_t h = Handle(s);
  for (index_t b = 0; b < batch; ++b) {
    CUSOLVER_CALL(Dn<DType>::syevd(h, CUSOLVER_EIG_MODE_VECTOR, kUpper, n, a + b * n * n, n,
                                   w + b * n, work, Lwork(lwork), info + b),
                  "cusolverDn syevd");
  }
}

template <typename DType>
void LaGetrf(mshadow::Stream<mshadow::gpu>* s, index_t batch, int n, DType* a, int* ipiv,
             int* info, DType* work, index_t lwork) {
  if (n == 0) {
    return ZeroInfo(s, info, batch);
  }
  cusolverDnHandle_t h = Handle(s);
  (void)lwork;  // getrf takes no workspace size: it is LaSolverWork(kGetrf) by contract
  for (index_t b = 0; b < batch; ++b) {
    CUSOLVER_CALL(Dn<DType>::getrf(h, n, n, a + b * n * n, n, work, ipiv + b * n, info + b),
                  "cusolverDn getrf");
  }
}

template <typename DType>
void LaGetrs(mshadow::Stream<mshadow::gpu>* s, index_t batch, int n, const DType* lu,
             const int* ipiv, DType* b, int* info) {
  if (n == 0) {
    return ZeroInfo(s, info, batch);
  }
  cusolverDnHandle_t h = Handle(s);
  for (index_t i = 0; i < batch; ++i) {
    CUSOLVER_CALL(Dn<DType>::getrs(h, CUBLAS_OP_N, n, n, lu + i * n * n, n, ipiv + i * n,
                                   b + i * n * n, n, info + i),
                  "cusolverDn getrs");
  }
}

std::vector<int> LaInfoOnHost(mshadow::Stream<mshadow::gpu>* s, const int* info, index_t n) {
  std::vector<int> host(n);
  if (n == 0) return host;
  cudaStream_t stream = mshadow::Stream<mshadow::gpu>::GetStream(s);
  CUDA_CALL(cudaMemcpyAsync(host.data(), info, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CUDA_CALL(cudaStreamSynchronize(stream));
  return host;
}

#define LA_INSTANTIATE(T)                                                                      \
  template index_t LaSolverWork<T>(mshadow::Stream<mshadow::gpu>*, LaRoutine, int, int);       \
  template void LaPotrf<T>(mshadow::Stream<mshadow::gpu>*, index_t, int, T*, int*, T*, index_t); \
  template void LaPotri<T>(mshadow::Stream<mshadow::gpu>*, index_t, int, T*, int*, T*, index_t); \
  template void LaGeqrf<T>(mshadow::Stream<mshadow::gpu>*, index_t, int, int, T*, T*, int*, T*, \
                           index_t);                                                           \
  template void LaOrgqr<T>(mshadow::Stream<mshadow::gpu>*, index_t, int, int, T*, const T*,    \
                           int*, T*, index_t);                                                 \
  template void LaSyevd<T>(mshadow::Stream<mshadow::gpu>*, index_t, int, T*, T*, int*, T*,     \
                           index_t);                                                           \
  template void LaGetrf<T>(mshadow::Stream<mshadow::gpu>*, index_t, int, T*, int*, int*, T*,   \
                           index_t);                                                           \
  template void LaGetrs<T>(mshadow::Stream<mshadow::gpu>*, index_t, int, const T*, const int*, \
                           T*, int*);
LA_INSTANTIATE(float)
LA_INSTANTIATE(double)
#undef LA_INSTANTIATE

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
