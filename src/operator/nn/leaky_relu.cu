/*!
 * \file leaky_relu.cu
 * \brief LeakyReLU and its gradient on the GPU with the CPU's semantics (leaky_relu-inl.h):
 *        leaky/elu/selu/gelu through the same LeakyForward/LeakyDerivative, prelu with gamma
 *        broadcast MXNet's way (its gradient summed in double), rrelu with a mask drawn per
 *        element from Philox streams seeded by mx.random.seed when training, the mean slope
 *        otherwise.
 */
#include "./leaky_relu-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>
#include <mxnet/random_generator.h>

#include <algorithm>

#include "../../common/cuda_utils.h"

namespace mxnet {
namespace op {
namespace {

using mxnet_op::Kernel;

struct leaky_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, int req, const DType* x, int act,
                                  double slope) {
    KERNEL_ASSIGN(y[i], req, DType(LeakyForward(act, static_cast<double>(x[i]), slope)));
  }
};

struct leaky_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* dx, int req, const DType* og,
                                  const DType* x, int act, double slope) {
    const double d = LeakyDerivative(act, static_cast<double>(x[i]), slope);
    KERNEL_ASSIGN(dx[i], req, DType(static_cast<double>(og[i]) * d));
  }
};

/*! \brief y = x > 0 ? x : a * x with a = slopes[map(i)] (prelu's gamma or rrelu's mask). */
struct slope_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, int req, const DType* x,
                                  const DType* slopes, BroadcastMap map) {
    const double v = static_cast<double>(x[i]);
    const double a = static_cast<double>(slopes[map.Of(i)]);
    KERNEL_ASSIGN(y[i], req, DType(v > 0 ? v : a * v));
  }
};

/*! \brief dx = og * (x > 0 ? 1 : slopes[map(i)]). */
struct slope_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* dx, int req, const DType* og,
                                  const DType* x, const DType* slopes, BroadcastMap map) {
    const double d = static_cast<double>(x[i]) > 0 ? 1.0 : static_cast<double>(slopes[map.Of(i)]);
    KERNEL_ASSIGN(dx[i], req, DType(static_cast<double>(og[i]) * d));
  }
};

struct rrelu_mask_philox {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* mask, uint32_t seed, uint64_t call,
                                  float lo, float hi) {
    common::random::PhiloxStream<float> rng(seed, call, i);
    mask[i] = DType(lo + (hi - lo) * rng.uniform());
  }
};

struct fill_value {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, float v) { out[i] = DType(v); }
};

struct assign_from_double {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, int req, const double* acc) {
    KERNEL_ASSIGN(out[i], req, DType(acc[i]));
  }
};

// gamma's gradient: each block sums in shared memory when gamma is this small (one slope per
// channel, usually), then adds its partial sums to the global accumulators.
constexpr index_t kSharedGamma = 2048;
constexpr int kGammaThreads = 256;

/*! \brief acc[map(i)] += og[i] * x[i] over the elements with x <= 0 (acc zeroed before). */
template <typename DType>
__global__ void PReLUGammaGradKernel(index_t n, const DType* og, const DType* x,
                                     BroadcastMap map, index_t gsize, double* acc) {
  extern __shared__ double part[];
  const bool shared = gsize <= kSharedGamma;
  if (shared) {
    for (index_t k = threadIdx.x; k < gsize; k += blockDim.x) part[k] = 0;
    __syncthreads();
  }
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const double v = static_cast<double>(x[i]);
    if (v > 0) continue;
    const double c = static_cast<double>(og[i]) * v;
    atomicAdd(shared ? &part[map.Of(i)] : &acc[map.Of(i)], c);
  }
  if (shared) {
    __syncthreads();
    for (index_t k = threadIdx.x; k < gsize; k += blockDim.x) {
      if (part[k] != 0) atomicAdd(&acc[k], part[k]);
    }
  }
}

void LeakyReLUComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  const LeakyReLUParam& param = nnvm::get<LeakyReLUParam>(attrs.parsed);
  const TBlob& data = inputs[leakyrelu::kData];
  const TBlob& out = outputs[leakyrelu::kOut];
  const int rq = static_cast<int>(req[leakyrelu::kOut]);
  const index_t n = data.Size();
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  MSHADOW_REAL_TYPE_SWITCH(data.type_flag_, DType, {
    switch (param.act_type) {
      case leakyrelu::kPReLU: {
        if (rq == kNullOp || n == 0) break;
        const TBlob& gamma = inputs[leakyrelu::kGamma];
        const mxnet::TShape gshape = PReLUGammaShape(gamma.shape_, data.shape_);
        Kernel<slope_forward, gpu>::Launch(s, n, out.dptr<DType>(), rq, data.dptr<DType>(),
                                           gamma.dptr<DType>(),
                                           MakeBroadcastMap(data.shape_, gshape, "LeakyReLU"));
        break;
      }
      case leakyrelu::kRReLU: {
        const TBlob& mask = outputs[leakyrelu::kMask];
        if (ctx.is_train) {
          auto* gen = ctx.requested[0].get_parallel_random<gpu, float>();
          Kernel<rrelu_mask_philox, gpu>::Launch(s, mask.Size(), mask.dptr<DType>(),
                                                 gen->seed(), gen->NextCall(),
                                                 param.lower_bound, param.upper_bound);
        } else {
          Kernel<fill_value, gpu>::Launch(s, mask.Size(), mask.dptr<DType>(),
                                          (param.lower_bound + param.upper_bound) / 2.0f);
        }
        if (rq == kNullOp || n == 0) break;
        Kernel<slope_forward, gpu>::Launch(s, n, out.dptr<DType>(), rq, data.dptr<DType>(),
                                           mask.dptr<DType>(), BroadcastMap());
        break;
      }
      default:
        if (rq == kNullOp || n == 0) break;
        Kernel<leaky_forward, gpu>::Launch(s, n, out.dptr<DType>(), rq, data.dptr<DType>(),
                                           param.act_type, static_cast<double>(param.slope));
    }
  });
}

/*! \brief inputs: out_grad, data, output[, gamma | mask]; outputs: data_grad[, gamma_grad]. */
void LeakyReLUGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  const LeakyReLUParam& param = nnvm::get<LeakyReLUParam>(attrs.parsed);
  const TBlob& ograd = inputs[0];
  const TBlob& data = inputs[1];
  const index_t n = data.Size();
  const int rq = static_cast<int>(req[0]);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  MSHADOW_REAL_TYPE_SWITCH(data.type_flag_, DType, {
    switch (param.act_type) {
      case leakyrelu::kPReLU: {
        const TBlob& gamma = inputs[3];
        const mxnet::TShape gshape = PReLUGammaShape(gamma.shape_, data.shape_);
        const BroadcastMap map = MakeBroadcastMap(data.shape_, gshape, "LeakyReLU");
        if (req[1] != kNullOp) {
          // gamma's gradient first: an in-place backward overwrites out_grad with data_grad.
          const index_t gsize = gamma.Size();
          double* acc = static_cast<double*>(
              ctx.requested[0].get_space_internal(std::max<index_t>(gsize, 1) * sizeof(double)));
          CUDA_CALL(cudaMemsetAsync(acc, 0, gsize * sizeof(double), stream));
          if (n > 0) {
            const int blocks = static_cast<int>(
                std::min<index_t>((n + kGammaThreads - 1) / kGammaThreads, 1024));
            const size_t shared_bytes = gsize <= kSharedGamma ? gsize * sizeof(double) : 0;
            PReLUGammaGradKernel<DType><<<blocks, kGammaThreads, shared_bytes, stream>>>(
                n, ograd.dptr<DType>(), data.dptr<DType>(), map, gsize, acc);
            CUDA_CALL(cudaGetLastError());
          }
          Kernel<assign_from_double, gpu>::Launch(s, gsize, outputs[1].dptr<DType>(),
                                                  static_cast<int>(req[1]), acc);
        }
        if (rq == kNullOp || n == 0) break;
        Kernel<slope_backward, gpu>::Launch(s, n, outputs[0].dptr<DType>(), rq,
                                            ograd.dptr<DType>(), data.dptr<DType>(),
                                            gamma.dptr<DType>(), map);
        break;
      }
      case leakyrelu::kRReLU:
        if (rq == kNullOp || n == 0) break;
        Kernel<slope_backward, gpu>::Launch(s, n, outputs[0].dptr<DType>(), rq,
                                            ograd.dptr<DType>(), data.dptr<DType>(),
                                            inputs[3].dptr<DType>(), BroadcastMap());
        break;
      default:
        if (rq == kNullOp || n == 0) break;
        Kernel<leaky_backward, gpu>::Launch(s, n, outputs[0].dptr<DType>(), rq,
                                            ograd.dptr<DType>(), data.dptr<DType>(),
                                            param.act_type, static_cast<double>(param.slope));
    }
  });
}

}  // namespace

NNVM_REGISTER_OP(LeakyReLU).set_attr<FCompute>("FCompute<gpu>", LeakyReLUComputeGPU);
NNVM_REGISTER_OP(_backward_LeakyReLU)
.set_attr<FCompute>("FCompute<gpu>", LeakyReLUGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
