/*!
 * \file moments.cu
 * \brief moments and its gradient on the GPU with the CPU's semantics (moments.cc): one block
 *        per moment sums its reduced elements in double (the mean, then the squared deviations
 *        from it); the gradient is one thread per data element.
 */
#include "./moments-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include <algorithm>

#include "../../common/cuda_utils.h"
#include "../mxnet_op.h"

namespace mxnet {
namespace op {
namespace {

constexpr int kThreads = common::cuda::kThreadsPerBlock;
constexpr int kMaxDims = 10;

/*!
 * \brief The data's axes split into kept and reduced ones: element offset = sum of each axis'
 *        coordinate times its stride. Kept axes in order give the moment's flat index.
 */
struct MomentsGeom {
  int nkept, nred;
  index_t kept_size[kMaxDims], kept_stride[kMaxDims];
  index_t red_size[kMaxDims], red_stride[kMaxDims];
  index_t count;  // reduced elements per moment
  int ndim;
  index_t shape[kMaxDims];
  bool reduced[kMaxDims];
};

MomentsGeom MakeGeom(const mxnet::TShape& shape, const std::vector<bool>& reduced) {
  if (shape.ndim() > kMaxDims) {
    MX_THROW(ValueError) << "moments: data of more than " << kMaxDims << " dimensions is not "
                         << "supported on the GPU, got " << shape;
  }
  MomentsGeom g;
  g.nkept = g.nred = 0;
  g.count = 1;
  g.ndim = shape.ndim();
  index_t stride = 1;
  for (int k = shape.ndim() - 1; k >= 0; --k) {
    g.shape[k] = shape[k];
    g.reduced[k] = reduced[k];
    if (reduced[k]) {
      g.red_size[g.nred] = shape[k];
      g.red_stride[g.nred++] = stride;
      g.count *= shape[k];
    } else {
      g.kept_size[g.nkept] = shape[k];
      g.kept_stride[g.nkept++] = stride;
    }
    stride *= shape[k];
  }
  return g;
}

/*! \brief Offset of element t (innermost reduced axis fastest) of the moment at `base`. */
__device__ __forceinline__ index_t ReducedOffset(const MomentsGeom& g, index_t base, index_t t) {
  for (int k = 0; k < g.nred; ++k) {
    base += (t % g.red_size[k]) * g.red_stride[k];
    t /= g.red_size[k];
  }
  return base;
}

template <typename DType>
__global__ void MomentsKernel(MomentsGeom g, index_t moments, const DType* x, DType* mean_out,
                              int req_mean, DType* var_out, int req_var) {
  __shared__ double buf[kThreads];
  const double n = static_cast<double>(g.count);
  for (index_t j = blockIdx.x; j < moments; j += gridDim.x) {
    index_t base = 0, rest = j;
    for (int k = 0; k < g.nkept; ++k) {
      base += (rest % g.kept_size[k]) * g.kept_stride[k];
      rest /= g.kept_size[k];
    }
    double s = 0;
    for (index_t t = threadIdx.x; t < g.count; t += blockDim.x) {
      s += static_cast<double>(x[ReducedOffset(g, base, t)]);
    }
    const double mean = common::cuda::BlockSum(buf, s) / n;
    double sq = 0;
    for (index_t t = threadIdx.x; t < g.count; t += blockDim.x) {
      const double c = static_cast<double>(x[ReducedOffset(g, base, t)]) - mean;
      sq += c * c;
    }
    const double var = common::cuda::BlockSum(buf, sq) / n;
    if (threadIdx.x == 0) {
      if (req_mean != kNullOp) KERNEL_ASSIGN(mean_out[j], req_mean, DType(mean));
      if (req_var != kNullOp) KERNEL_ASSIGN(var_out[j], req_var, DType(var));
    }
  }
}

/*! \brief gx[i] = (gmean[j] + 2 gvar[j] (x[i] - mean[j])) / n, j the moment of element i. */
struct moments_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* gx, const DType* gmean, const DType* gvar,
                                  const DType* x, const DType* mean, MomentsGeom g, double n,
                                  int req) {
    index_t rest = i, j = 0, jstride = 1;
    for (int k = g.ndim - 1; k >= 0; --k) {
      const index_t c = rest % g.shape[k];
      rest /= g.shape[k];
      if (!g.reduced[k]) {
        j += c * jstride;
        jstride *= g.shape[k];
      }
    }
    const double v = (static_cast<double>(gmean[j]) +
                      2.0 * static_cast<double>(gvar[j]) *
                          (static_cast<double>(x[i]) - static_cast<double>(mean[j]))) / n;
    KERNEL_ASSIGN(gx[i], req, DType(v));
  }
};

void MomentsComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const MomentsParam& p = nnvm::get<MomentsParam>(attrs.parsed);
  const mxnet::TShape& shape = inputs[0].shape_;
  const MomentsGeom g = MakeGeom(shape, ReducedAxes(p, shape));
  const index_t m = outputs[0].Size();
  if (m == 0 || (req[0] == kNullOp && req[1] == kNullOp)) return;
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    MomentsKernel<DType><<<static_cast<unsigned>(std::min<index_t>(m, 65535)), kThreads, 0,
                           stream>>>(g, m, inputs[0].dptr<DType>(), outputs[0].dptr<DType>(),
                                     static_cast<int>(req[0]), outputs[1].dptr<DType>(),
                                     static_cast<int>(req[1]));
  });
  CUDA_CALL(cudaGetLastError());
}

/*! \brief inputs: mean_grad, var_grad, data, mean; output: data_grad. */
void MomentsGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || inputs[2].Size() == 0) return;
  const MomentsParam& p = nnvm::get<MomentsParam>(attrs.parsed);
  const mxnet::TShape& shape = inputs[2].shape_;
  const MomentsGeom g = MakeGeom(shape, ReducedAxes(p, shape));
  MSHADOW_REAL_TYPE_SWITCH(inputs[2].type_flag_, DType, {
    mxnet_op::Kernel<moments_backward, gpu>::Launch(
        ctx.get_stream<gpu>(), inputs[2].Size(), outputs[0].dptr<DType>(),
        inputs[0].dptr<DType>(), inputs[1].dptr<DType>(), inputs[2].dptr<DType>(),
        inputs[3].dptr<DType>(), g, static_cast<double>(g.count), static_cast<int>(req[0]));
  });
}

}  // namespace

NNVM_REGISTER_OP(moments).set_attr<FCompute>("FCompute<gpu>", MomentsComputeGPU);
NNVM_REGISTER_OP(_backward_moments).set_attr<FCompute>("FCompute<gpu>", MomentsGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
