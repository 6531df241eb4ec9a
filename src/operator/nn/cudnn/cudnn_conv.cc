/*!
 * \file cudnn_conv.cc
 * \brief Convolution passes on cuDNN with a per-geometry algorithm cache (cudnn_conv.h).
 */
#include "./cudnn_conv.h"

#if MXNET_USE_CUDA && MXNET_USE_CUDNN
#include <cuda_runtime.h>
#include <dmlc/logging.h>

#include <algorithm>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "../../../common/cuda_utils.h"
#include "../../../common/env_util.h"
#include "../convolution-inl.h"
#include "./cudnn_utils.h"

namespace mxnet {
namespace op {
namespace {

using cudnn::FilterDesc;
using cudnn::Scale;
using cudnn::TensorDesc;

/*! \brief An algorithm chosen for one pass of one geometry. */
struct Choice {
  int algo;
  cudnnMathType_t math;
};

std::mutex g_cache_mu;
std::unordered_map<std::string, Choice>& Cache() {
  static auto* cache = new std::unordered_map<std::string, Choice>();  // outlives exit handlers
  return *cache;
}

bool EnforceDeterminism() {
  static const bool on = common::GetEnvInt("MXNET_ENFORCE_DETERMINISM", 0) != 0;
  return on;
}

/*! \brief An owning convolution descriptor for the geometry's spatial dims. */
class ConvDesc {
 public:
  ConvDesc(const std::vector<int>& pad, const std::vector<int>& stride,
           const std::vector<int>& dilate, int groups, int dtype, const std::string& op) {
    CUDNN_CALL(cudnnCreateConvolutionDescriptor(&desc_), op, "creating a convolution descriptor");
    const cudnnStatus_t st = cudnnSetConvolutionNdDescriptor(
        desc_, static_cast<int>(pad.size()), pad.data(), stride.data(), dilate.data(),
        CUDNN_CROSS_CORRELATION, cudnn::ComputeType(dtype));
    if (st != CUDNN_STATUS_SUCCESS) {
      cudnnDestroyConvolutionDescriptor(desc_);
      cudnn::ThrowCudnnError(st, "cudnnSetConvolutionNdDescriptor", op,
                             "describing pad, stride and dilate");
    }
    SetOrThrow(cudnnSetConvolutionGroupCount(desc_, groups), "cudnnSetConvolutionGroupCount",
               op);
    SetOrThrow(cudnnSetConvolutionMathType(desc_, cudnn::AllowedMath(dtype)),
               "cudnnSetConvolutionMathType", op);
  }
  ~ConvDesc() { cudnnDestroyConvolutionDescriptor(desc_); }
  ConvDesc(const ConvDesc&) = delete;
  ConvDesc& operator=(const ConvDesc&) = delete;
  cudnnConvolutionDescriptor_t get() const { return desc_; }

 private:
  void SetOrThrow(cudnnStatus_t st, const char* call, const std::string& op) {
    if (st == CUDNN_STATUS_SUCCESS) return;
    cudnnDestroyConvolutionDescriptor(desc_);
    cudnn::ThrowCudnnError(st, call, op, "configuring the convolution");
  }
  cudnnConvolutionDescriptor_t desc_{nullptr};
};

/*! \brief The first usable result (cuDNN sorts them fastest first): it ran, fits the
 *         workspace when limited, and is deterministic when that is enforced. */
template <typename Perf>
bool Pick(const std::vector<Perf>& perf, int count, bool limited, size_t limit, Choice* out) {
  for (int i = 0; i < count; ++i) {
    const Perf& p = perf[i];
    if (p.status != CUDNN_STATUS_SUCCESS) continue;
    if (limited && p.memory > limit) continue;
    if (EnforceDeterminism() && p.determinism != CUDNN_DETERMINISTIC) continue;
    *out = Choice{static_cast<int>(p.algo), p.mathType};
    return true;
  }
  return false;
}

/*!
 * \brief Chooses an algorithm: timing every one (`find`) unless tuning is off or timing failed
 *        (cuDNN's own allocation may fail when the memory pool holds the device), else cuDNN's
 *        heuristics (`heuristic`). Both fill `perf` and a count.
 */
template <typename Perf, typename Find, typename Heuristic>
Choice ChooseAlgo(int max_count, int tune, size_t limit, Find find, Heuristic heuristic,
                  const std::string& op, const std::string& what) {
  std::vector<Perf> perf(std::max(max_count, 1));
  int count = 0;
  Choice choice{0, CUDNN_DEFAULT_MATH};
  const bool limited = tune != conv::kFastest;
  if (tune != conv::kOff && find(static_cast<int>(perf.size()), &count, perf.data()) ==
                                CUDNN_STATUS_SUCCESS &&
      Pick(perf, count, limited, limit, &choice)) {
    return choice;
  }
  count = 0;
  CUDNN_CALL(heuristic(static_cast<int>(perf.size()), &count, perf.data()), op, what);
  if (!Pick(perf, count, limited, limit, &choice)) {
    MX_THROW(ValueError) << op << ": no cuDNN algorithm for " << what
                         << " fits in a workspace of " << (limit >> 20) << " MB"
                         << (EnforceDeterminism() ? " and is deterministic" : "")
                         << "; raise the layer's workspace or set cudnn_tune='fastest'";
  }
  return choice;
}

/*! \brief The cached choice for `key`, computing it with `choose` on a miss. */
template <typename Choose>
Choice CachedChoice(const std::string& key, Choose choose) {
  {
    std::lock_guard<std::mutex> lock(g_cache_mu);
    auto it = Cache().find(key);
    if (it != Cache().end()) return it->second;
  }
  const Choice c = choose();  // outside the lock: timing runs convolutions
  std::lock_guard<std::mutex> lock(g_cache_mu);
  Cache().emplace(key, c);
  return c;
}

size_t Elems(const std::vector<int>& dims) {
  size_t n = 1;
  for (int d : dims) n *= static_cast<size_t>(d);
  return n;
}

/*! \brief dst = beta * dst for the empty-batch passes (beta is 0 or 1 here). */
void ScaleOrZero(const OpContext& ctx, void* dst, size_t bytes, double beta) {
  if (beta != 0 || bytes == 0) return;
  CUDA_CALL(cudaMemsetAsync(
      dst, 0, bytes, mshadow::Stream<mshadow::gpu>::GetStream(ctx.get_stream<mshadow::gpu>())));
}

}  // namespace

int CudnnTuneMode(const dmlc::optional<int>& cudnn_tune) {
  if (cudnn_tune.has_value()) return cudnn_tune.value();
  static const int mode = [] {
    const int64_t v = common::GetEnvInt("MXNET_CUDNN_AUTOTUNE_DEFAULT", 1);
    if (v < 0 || v > 2) {
      MX_THROW(ValueError) << "MXNET_CUDNN_AUTOTUNE_DEFAULT=" << v
                           << ": expected 0 (off), 1 (limited workspace) or 2 (fastest)";
    }
    return static_cast<int>(v);
  }();
  return mode;
}

CudnnConv::CudnnConv(const ConvGeom& g, int dtype, int tune, size_t workspace_bytes,
                     std::string op)
    : g_(g), dtype_(dtype), tune_(tune), workspace_bytes_(workspace_bytes), op_(std::move(op)) {
  // 1-D and 2-D problems are 2-D for cuDNN (ConvGeom pads the leading spatial dims with 1).
  const int first = g.nsp == 3 ? 0 : 1;
  x_dims_ = {cudnn::Dim(g.N, op_), cudnn::Dim(g.C, op_)};
  y_dims_ = {cudnn::Dim(g.N, op_), cudnn::Dim(g.F, op_)};
  w_dims_ = {cudnn::Dim(g.F, op_), cudnn::Dim(g.C / g.G, op_)};
  for (int j = first; j < 3; ++j) {
    x_dims_.push_back(cudnn::Dim(g.in[j], op_));
    y_dims_.push_back(cudnn::Dim(g.out[j], op_));
    w_dims_.push_back(cudnn::Dim(g.k[j], op_));
    pad_.push_back(cudnn::Dim(g.p[j], op_));
    stride_.push_back(cudnn::Dim(g.s[j], op_));
    dilate_.push_back(cudnn::Dim(g.d[j], op_));
  }
}

std::string CudnnConv::Describe() const {
  std::ostringstream os;
  auto list = [&os](const std::vector<int>& v) {
    os << "(";
    for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
    os << ")";
  };
  os << "input ";
  list(x_dims_);
  os << ", weight ";
  list(w_dims_);
  os << ", output ";
  list(y_dims_);
  os << ", " << mshadow::dtype_string(dtype_) << ", groups " << g_.G;
  return os.str();
}

std::string CudnnConv::CacheKey(Pass pass, int dev) const {
  std::ostringstream os;
  os << pass << '|' << dev << '|' << dtype_ << '|' << tune_ << '|' << workspace_bytes_ << '|'
     << g_.G;
  for (const auto* v : {&x_dims_, &w_dims_, &y_dims_, &pad_, &stride_, &dilate_}) {
    os << '|';
    for (int d : *v) os << d << ',';
  }
  return os.str();
}

void CudnnConv::Forward(const OpContext& ctx, const void* x, const void* w, void* y,
                        double beta) const {
  if (Elems(x_dims_) == 0 || Elems(y_dims_) == 0) return;
  cudnnHandle_t h = cudnn::Handle(ctx.get_stream<mshadow::gpu>());
  TensorDesc xd(dtype_, x_dims_, op_), yd(dtype_, y_dims_, op_);
  FilterDesc wd(dtype_, w_dims_, op_);
  ConvDesc cd(pad_, stride_, dilate_, static_cast<int>(g_.G), dtype_, op_);
  // Described only when needed: on a failure or an algorithm search, not on every call.
  auto what = [this] { return "the forward pass of " + Describe(); };
  int dev = 0;
  CUDA_CALL(cudaGetDevice(&dev));
  const Choice c = CachedChoice(CacheKey(kForward, dev), [&] {
    int n = 0;
    CUDNN_CALL(cudnnGetConvolutionForwardAlgorithmMaxCount(h, &n), op_, what());
    return ChooseAlgo<cudnnConvolutionFwdAlgoPerf_t>(
        n, tune_, workspace_bytes_,
        [&](int req, int* got, cudnnConvolutionFwdAlgoPerf_t* p) {
          return cudnnFindConvolutionForwardAlgorithm(h, xd.get(), wd.get(), cd.get(), yd.get(),
                                                      req, got, p);
        },
        [&](int req, int* got, cudnnConvolutionFwdAlgoPerf_t* p) {
          return cudnnGetConvolutionForwardAlgorithm_v7(h, xd.get(), wd.get(), cd.get(),
                                                        yd.get(), req, got, p);
        },
        op_, what());
  });
  const auto algo = static_cast<cudnnConvolutionFwdAlgo_t>(c.algo);
  CUDNN_CALL(cudnnSetConvolutionMathType(cd.get(), c.math), op_, what());
  size_t ws = 0;
  CUDNN_CALL(cudnnGetConvolutionForwardWorkspaceSize(h, xd.get(), wd.get(), cd.get(), yd.get(),
                                                     algo, &ws),
             op_, what());
  void* space = ws > 0 ? ctx.requested[0].get_space_internal(ws) : nullptr;
  CUDNN_CALL(cudnnConvolutionForward(h, Scale(dtype_, 1).ptr(), xd.get(), x, wd.get(), w,
                                     cd.get(), algo, space, ws, Scale(dtype_, beta).ptr(),
                                     yd.get(), y),
             op_, what());
}

void CudnnConv::BackwardData(const OpContext& ctx, const void* w, const void* dy, void* dx,
                             double beta) const {
  if (Elems(x_dims_) == 0) return;
  if (Elems(y_dims_) == 0) {
    ScaleOrZero(ctx, dx, Elems(x_dims_) * mshadow::mshadow_sizeof(dtype_), beta);
    return;
  }
  cudnnHandle_t h = cudnn::Handle(ctx.get_stream<mshadow::gpu>());
  TensorDesc dxd(dtype_, x_dims_, op_), dyd(dtype_, y_dims_, op_);
  FilterDesc wd(dtype_, w_dims_, op_);
  ConvDesc cd(pad_, stride_, dilate_, static_cast<int>(g_.G), dtype_, op_);
  // Described only when needed: on a failure or an algorithm search, not on every call.
  auto what = [this] { return "the data gradient of " + Describe(); };
  int dev = 0;
  CUDA_CALL(cudaGetDevice(&dev));
  const Choice c = CachedChoice(CacheKey(kBackwardData, dev), [&] {
    int n = 0;
    CUDNN_CALL(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(h, &n), op_, what());
    return ChooseAlgo<cudnnConvolutionBwdDataAlgoPerf_t>(
        n, tune_, workspace_bytes_,
        [&](int req, int* got, cudnnConvolutionBwdDataAlgoPerf_t* p) {
          return cudnnFindConvolutionBackwardDataAlgorithm(h, wd.get(), dyd.get(), cd.get(),
                                                           dxd.get(), req, got, p);
        },
        [&](int req, int* got, cudnnConvolutionBwdDataAlgoPerf_t* p) {
          return cudnnGetConvolutionBackwardDataAlgorithm_v7(h, wd.get(), dyd.get(), cd.get(),
                                                             dxd.get(), req, got, p);
        },
        op_, what());
  });
  const auto algo = static_cast<cudnnConvolutionBwdDataAlgo_t>(c.algo);
  CUDNN_CALL(cudnnSetConvolutionMathType(cd.get(), c.math), op_, what());
  size_t ws = 0;
  CUDNN_CALL(cudnnGetConvolutionBackwardDataWorkspaceSize(h, wd.get(), dyd.get(), cd.get(),
                                                          dxd.get(), algo, &ws),
             op_, what());
  void* space = ws > 0 ? ctx.requested[0].get_space_internal(ws) : nullptr;
  CUDNN_CALL(cudnnConvolutionBackwardData(h, Scale(dtype_, 1).ptr(), wd.get(), w, dyd.get(), dy,
                                          cd.get(), algo, space, ws, Scale(dtype_, beta).ptr(),
                                          dxd.get(), dx),
             op_, what());
}

void CudnnConv::BackwardFilter(const OpContext& ctx, const void* x, const void* dy, void* dw,
                               double beta) const {
  if (Elems(w_dims_) == 0) return;
  if (Elems(x_dims_) == 0 || Elems(y_dims_) == 0) {  // an empty batch: the gradient is zero
    ScaleOrZero(ctx, dw, Elems(w_dims_) * mshadow::mshadow_sizeof(dtype_), beta);
    return;
  }
  cudnnHandle_t h = cudnn::Handle(ctx.get_stream<mshadow::gpu>());
  TensorDesc xd(dtype_, x_dims_, op_), dyd(dtype_, y_dims_, op_);
  FilterDesc dwd(dtype_, w_dims_, op_);
  ConvDesc cd(pad_, stride_, dilate_, static_cast<int>(g_.G), dtype_, op_);
  // Described only when needed: on a failure or an algorithm search, not on every call.
  auto what = [this] { return "the weight gradient of " + Describe(); };
  int dev = 0;
  CUDA_CALL(cudaGetDevice(&dev));
  const Choice c = CachedChoice(CacheKey(kBackwardFilter, dev), [&] {
    int n = 0;
    CUDNN_CALL(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(h, &n), op_, what());
    return ChooseAlgo<cudnnConvolutionBwdFilterAlgoPerf_t>(
        n, tune_, workspace_bytes_,
        [&](int req, int* got, cudnnConvolutionBwdFilterAlgoPerf_t* p) {
          return cudnnFindConvolutionBackwardFilterAlgorithm(h, xd.get(), dyd.get(), cd.get(),
                                                             dwd.get(), req, got, p);
        },
        [&](int req, int* got, cudnnConvolutionBwdFilterAlgoPerf_t* p) {
          return cudnnGetConvolutionBackwardFilterAlgorithm_v7(h, xd.get(), dyd.get(), cd.get(),
                                                               dwd.get(), req, got, p);
        },
        op_, what());
  });
  const auto algo = static_cast<cudnnConvolutionBwdFilterAlgo_t>(c.algo);
  CUDNN_CALL(cudnnSetConvolutionMathType(cd.get(), c.math), op_, what());
  size_t ws = 0;
  CUDNN_CALL(cudnnGetConvolutionBackwardFilterWorkspaceSize(h, xd.get(), dyd.get(), cd.get(),
                                                            dwd.get(), algo, &ws),
             op_, what());
  void* space = ws > 0 ? ctx.requested[0].get_space_internal(ws) : nullptr;
  CUDNN_CALL(cudnnConvolutionBackwardFilter(h, Scale(dtype_, 1).ptr(), xd.get(), x, dyd.get(),
                                            dy, cd.get(), algo, space, ws,
                                            Scale(dtype_, beta).ptr(), dwd.get(), dw),
             op_, what());
}

void CudnnAddBias(const OpContext& ctx, int dtype, index_t N, index_t channels, index_t spatial,
                  const void* bias, void* y, const std::string& op) {
  if (N == 0 || channels == 0 || spatial == 0) return;
  cudnnHandle_t h = cudnn::Handle(ctx.get_stream<mshadow::gpu>());
  TensorDesc bd(dtype, {1, cudnn::Dim(channels, op), 1, 1}, op);
  TensorDesc yd(dtype, {cudnn::Dim(N, op), cudnn::Dim(channels, op), cudnn::Dim(spatial, op), 1},
                op);
  CUDNN_CALL(cudnnAddTensor(h, Scale(dtype, 1).ptr(), bd.get(), bias, Scale(dtype, 1).ptr(),
                            yd.get(), y),
             op, "adding the bias");
}

void CudnnBiasGrad(const OpContext& ctx, int dtype, index_t N, index_t channels,
                   index_t spatial, const void* dy, void* db, double beta,
                   const std::string& op) {
  if (channels == 0) return;
  if (N == 0 || spatial == 0) {
    ScaleOrZero(ctx, db, static_cast<size_t>(channels) * mshadow::mshadow_sizeof(dtype), beta);
    return;
  }
  cudnnHandle_t h = cudnn::Handle(ctx.get_stream<mshadow::gpu>());
  TensorDesc dyd(dtype,
                 {cudnn::Dim(N, op), cudnn::Dim(channels, op), cudnn::Dim(spatial, op), 1}, op);
  TensorDesc dbd(dtype, {1, cudnn::Dim(channels, op), 1, 1}, op);
  CUDNN_CALL(cudnnConvolutionBackwardBias(h, Scale(dtype, 1).ptr(), dyd.get(), dy,
                                          Scale(dtype, beta).ptr(), dbd.get(), db),
             op, "the bias gradient");
}

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA && MXNET_USE_CUDNN
