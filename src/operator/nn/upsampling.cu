/*!
 * \file upsampling.cu
 * \brief UpSampling and its gradient on the GPU with the CPU's semantics (upsampling-inl.h):
 *        one thread per output element for the forward passes and per input element for the
 *        data gradients (gathers, no atomics); the bilinear weight gradient takes one block
 *        per weight element, summing in double.
 */
#include "./upsampling-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include "../../common/cuda_utils.h"

namespace mxnet {
namespace op {
namespace {

using mxnet_op::Kernel;
constexpr int kThreads = common::cuda::kThreadsPerBlock;

/*! \brief NCHW extents of one tensor. */
struct Dims4 {
  index_t n, c, h, w;
};

inline Dims4 DimsOf(const TBlob& b) {
  return Dims4{b.shape_[0], b.shape_[1], b.shape_[2], b.shape_[3]};
}

/*!
 * \brief Output element (n, c0 + c, oy, ox) for every element of input x (channels C): writes
 *        (req) or adds the repeated value. `o` is the output's extent.
 */
struct nearest_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, Dims4 o, const DType* x, Dims4 in,
                                  index_t c0, index_t scale, int req) {
    const index_t ox = i % o.w, oy = (i / o.w) % o.h;
    const index_t c = (i / (o.w * o.h)) % in.c, n = i / (o.w * o.h * in.c);
    const DType v = x[((n * in.c + c) * in.h + oy / scale) * in.w + ox / scale];
    KERNEL_ASSIGN(y[((n * o.c + c0 + c) * o.h + oy) * o.w + ox], req, v);
  }
};

/*! \brief Input element (n, c, iy, ix): the sum of its scale x scale block of out_grad. */
struct nearest_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* dx, Dims4 in, const DType* og, Dims4 o,
                                  index_t c0, index_t scale, int req) {
    const index_t ix = i % in.w, iy = (i / in.w) % in.h;
    const index_t c = (i / (in.w * in.h)) % in.c, n = i / (in.w * in.h * in.c);
    const DType* plane = og + (n * o.c + c0 + c) * o.h * o.w;
    double acc = 0;
    for (index_t dy = 0; dy < scale; ++dy) {
      for (index_t dxx = 0; dxx < scale; ++dxx) {
        acc += static_cast<double>(plane[(iy * scale + dy) * o.w + ix * scale + dxx]);
      }
    }
    KERNEL_ASSIGN(dx[i], req, DType(acc));
  }
};

/*! \brief out[n,c,oy,ox] = sum x[n,c,iy,ix] * w[c, oy + p - iy*s, ox + p - ix*s]. */
struct bilinear_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, Dims4 o, const DType* x, Dims4 in,
                                  const DType* w, index_t s, index_t k, index_t p, int req) {
    const index_t ox = i % o.w, oy = (i / o.w) % o.h, nc = i / (o.w * o.h);
    const index_t c = nc % in.c;
    const DType* xp = x + nc * in.h * in.w;
    const DType* wp = w + c * k * k;
    const index_t iy_hi = (oy + p) / s < in.h - 1 ? (oy + p) / s : in.h - 1;
    const index_t ix_hi = (ox + p) / s < in.w - 1 ? (ox + p) / s : in.w - 1;
    double v = 0;
    for (index_t iy = iy_hi; iy >= 0; --iy) {
      const index_t ky = oy + p - iy * s;
      if (ky >= k) break;
      for (index_t ix = ix_hi; ix >= 0; --ix) {
        const index_t kx = ox + p - ix * s;
        if (kx >= k) break;
        v += static_cast<double>(xp[iy * in.w + ix]) * static_cast<double>(wp[ky * k + kx]);
      }
    }
    KERNEL_ASSIGN(y[i], req, DType(v));
  }
};

/*! \brief dx[n,c,iy,ix] = sum over the kernel of og[n,c,iy*s-p+ky,ix*s-p+kx] * w[c,ky,kx]. */
struct bilinear_backward_data {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* dx, Dims4 in, const DType* og, Dims4 o,
                                  const DType* w, index_t s, index_t k, index_t p, int req) {
    const index_t ix = i % in.w, iy = (i / in.w) % in.h, nc = i / (in.w * in.h);
    const DType* gp = og + nc * o.h * o.w;
    const DType* wp = w + (nc % in.c) * k * k;
    double acc = 0;
    for (index_t ky = 0; ky < k; ++ky) {
      const index_t oy = iy * s - p + ky;
      if (oy < 0 || oy >= o.h) continue;
      for (index_t kx = 0; kx < k; ++kx) {
        const index_t ox = ix * s - p + kx;
        if (ox < 0 || ox >= o.w) continue;
        acc += static_cast<double>(gp[oy * o.w + ox]) * static_cast<double>(wp[ky * k + kx]);
      }
    }
    KERNEL_ASSIGN(dx[i], req, DType(acc));
  }
};

/*! \brief Block (c, ky, kx): dw = sum over n, iy, ix of og[n,c,iy*s-p+ky,ix*s-p+kx] * x. */
template <typename DType>
__global__ void BilinearWeightGradKernel(const DType* og, Dims4 o, const DType* x, Dims4 in,
                                         index_t s, index_t k, index_t p, DType* dw, int req) {
  __shared__ double buf[kThreads];
  const index_t count = in.c * k * k;
  const index_t per = in.n * in.h * in.w;
  for (index_t widx = blockIdx.x; widx < count; widx += gridDim.x) {
    const index_t kx = widx % k, ky = (widx / k) % k, c = widx / (k * k);
    double acc = 0;
    for (index_t j = threadIdx.x; j < per; j += blockDim.x) {
      const index_t ix = j % in.w, iy = (j / in.w) % in.h, n = j / (in.w * in.h);
      const index_t oy = iy * s - p + ky, ox = ix * s - p + kx;
      if (oy < 0 || oy >= o.h || ox < 0 || ox >= o.w) continue;
      acc += static_cast<double>(og[((n * in.c + c) * o.h + oy) * o.w + ox]) *
             static_cast<double>(x[((n * in.c + c) * in.h + iy) * in.w + ix]);
    }
    acc = common::cuda::BlockSum(buf, acc);
    if (threadIdx.x == 0) KERNEL_ASSIGN(dw[widx], req, DType(acc));
  }
}

void UpSamplingComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const UpSamplingParam& param = nnvm::get<UpSamplingParam>(attrs.parsed);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  const Dims4 o = DimsOf(outputs[0]);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    DType* y = outputs[0].dptr<DType>();
    if (param.sample_type == up_enum::kBilinear) {
      Kernel<bilinear_forward, gpu>::Launch(
          s, outputs[0].Size(), y, o, inputs[0].dptr<DType>(), DimsOf(inputs[0]),
          inputs[1].dptr<DType>(), static_cast<index_t>(param.scale),
          static_cast<index_t>(BilinearKernel(param.scale)),
          static_cast<index_t>(BilinearPad(param.scale)), static_cast<int>(req[0]));
    } else {
      // concat: input i fills its channel range; sum: the first input writes (req), the
      // others add.
      const bool sum = param.multi_input_mode == up_enum::kSum;
      index_t c0 = 0;
      for (size_t i = 0; i < inputs.size(); ++i) {
        const Dims4 in = DimsOf(inputs[i]);
        const int rq = (sum && i > 0) ? static_cast<int>(kAddTo) : static_cast<int>(req[0]);
        Kernel<nearest_forward, gpu>::Launch(s, in.n * in.c * o.h * o.w, y, o,
                                             inputs[i].dptr<DType>(), in, c0, o.h / in.h, rq);
        if (!sum) c0 += in.c;
      }
    }
  });
}

/*! \brief inputs: out_grad, forward inputs...; outputs: one gradient per forward input. */
void UpSamplingGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  const UpSamplingParam& param = nnvm::get<UpSamplingParam>(attrs.parsed);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  const TBlob& og = inputs[0];
  const Dims4 o = DimsOf(og);
  MSHADOW_REAL_TYPE_SWITCH(og.type_flag_, DType, {
    if (param.sample_type == up_enum::kBilinear) {
      const Dims4 in = DimsOf(inputs[1]);
      const index_t sc = param.scale, k = BilinearKernel(param.scale),
                    p = BilinearPad(param.scale);
      if (req[1] != kNullOp && outputs[1].Size() > 0) {
        const unsigned blocks =
            static_cast<unsigned>(std::min<index_t>(outputs[1].Size(), 65535));
        cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
        BilinearWeightGradKernel<DType><<<blocks, kThreads, 0, stream>>>(
            og.dptr<DType>(), o, inputs[1].dptr<DType>(), in, sc, k, p,
            outputs[1].dptr<DType>(), static_cast<int>(req[1]));
        CUDA_CALL(cudaGetLastError());
      }
      if (req[0] != kNullOp) {
        Kernel<bilinear_backward_data, gpu>::Launch(
            s, outputs[0].Size(), outputs[0].dptr<DType>(), in, og.dptr<DType>(), o,
            inputs[2].dptr<DType>(), sc, k, p, static_cast<int>(req[0]));
      }
    } else {
      const bool sum = param.multi_input_mode == up_enum::kSum;
      index_t c0 = 0;
      for (size_t i = 0; i < outputs.size(); ++i) {
        const Dims4 in = DimsOf(outputs[i]);
        if (req[i] != kNullOp && in.h > 0) {
          Kernel<nearest_backward, gpu>::Launch(s, outputs[i].Size(), outputs[i].dptr<DType>(),
                                                in, og.dptr<DType>(), o, c0, o.h / in.h,
                                                static_cast<int>(req[i]));
        }
        if (!sum) c0 += in.c;
      }
    }
  });
}

}  // namespace

NNVM_REGISTER_OP(UpSampling).set_attr<FCompute>("FCompute<gpu>", UpSamplingComputeGPU);
NNVM_REGISTER_OP(_backward_UpSampling)
.set_attr<FCompute>("FCompute<gpu>", UpSamplingGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
