/*!
 * \file quantized_conv.cu
 * \brief quantized_fully_connected and quantized_conv on the GPU, int8/uint8 x int8 -> int32:
 *        FC as a shared-memory tiled GEMM accumulating exactly in int32 (wrapping like the CPU's
 *        int32 sums), conv as a direct convolution of one thread per output element
 *        (quantized_conv-inl.h). The output range and FC's bias scale come from the range
 *        inputs in device memory.
 */
#include "./quantized_conv-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include <vector>

#include "../../common/cuda_utils.h"
#include "../nn/convolution-inl.h"
#include "../nn/fully_connected-inl.h"

namespace mxnet {
namespace op {
namespace {

constexpr int kTile = 16;

/*!
 * \brief y[i, h] = sum_k x[i, k] w[h, k] (+ trunc(bias[h] * rescale)) for x (M, K) and w (H, K),
 *        one (kTile x kTile) output tile per block.
 */
template <typename Q>
__global__ void QuantizedFCKernel(const Q* x, const int8_t* w, const int8_t* bias,
                                  quant::FCBiasAccessor bacc, int32_t* y, index_t M, index_t H,
                                  index_t K) {
  __shared__ int32_t xs[kTile][kTile + 1];
  __shared__ int32_t ws[kTile][kTile + 1];
  const index_t row = static_cast<index_t>(blockIdx.y) * kTile + threadIdx.y;  // i
  const index_t col = static_cast<index_t>(blockIdx.x) * kTile + threadIdx.x;  // h
  const index_t wrow = static_cast<index_t>(blockIdx.x) * kTile + threadIdx.y;
  uint32_t acc = 0;
  for (index_t k0 = 0; k0 < K; k0 += kTile) {
    const index_t kx = k0 + threadIdx.x;
    xs[threadIdx.y][threadIdx.x] = row < M && kx < K ? static_cast<int32_t>(x[row * K + kx]) : 0;
    ws[threadIdx.y][threadIdx.x] = wrow < H && kx < K ? static_cast<int32_t>(w[wrow * K + kx]) : 0;
    __syncthreads();
#pragma unroll
    for (int t = 0; t < kTile; ++t) {
      acc += static_cast<uint32_t>(xs[threadIdx.y][t] * ws[threadIdx.x][t]);
    }
    __syncthreads();
  }
  if (row < M && col < H) {
    const int32_t b = bias != nullptr ? quant::FCBias(bias[col], bacc.get()) : 0;
    y[row * H + col] = static_cast<int32_t>(acc + static_cast<uint32_t>(b));
  }
}

void QuantizedFCComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const FullyConnectedParam& p = nnvm::get<FullyConnectedParam>(attrs.parsed);
  const size_t nd = p.no_bias ? 2 : 3;
  const TBlob& x = inputs[0];
  const index_t H = p.num_hidden, K = inputs[1].shape_[1];
  const index_t M = K > 0 ? x.Size() / K : 0;
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  const float* f = nullptr;
  const quant::FCBiasAccessor bacc{
      inputs[nd].dptr<float>(), inputs[nd + 1].dptr<float>(), inputs[nd + 2].dptr<float>(),
      inputs[nd + 3].dptr<float>(), p.no_bias ? f : inputs[nd + 4].dptr<float>(),
      p.no_bias ? f : inputs[nd + 5].dptr<float>(), quant::OneDnnRange(x.type_flag_)};
  if (M > 0 && H > 0) {
    const dim3 block(kTile, kTile);
    const dim3 grid(static_cast<unsigned>((H + kTile - 1) / kTile),
                    static_cast<unsigned>((M + kTile - 1) / kTile));
    if (grid.y > 65535) {
      MX_THROW(ValueError) << "_contrib_quantized_fully_connected: at most " << 65535 * kTile
                           << " rows of data on the GPU, got " << M << " (data " << x.shape_
                           << ")";
    }
    MXNET_QUANT_TYPE_SWITCH(x.type_flag_, Q, {
      QuantizedFCKernel<Q><<<grid, block, 0, mshadow::Stream<gpu>::GetStream(s)>>>(
          x.dptr<Q>(), inputs[1].dptr<int8_t>(), p.no_bias ? nullptr : inputs[2].dptr<int8_t>(),
          bacc, outputs[0].dptr<int32_t>(), M, H, K);
    });
    CUDA_CALL(cudaPeekAtLastError());
  }
  mxnet_op::Kernel<quant::int32_product_range, gpu>::Launch(
      s, 1, inputs[nd].dptr<float>(), inputs[nd + 1].dptr<float>(), inputs[nd + 2].dptr<float>(),
      inputs[nd + 3].dptr<float>(), quant::IntLimit(x.type_flag_), outputs[1].dptr<float>(),
      outputs[2].dptr<float>());
}

void QuantizedConvComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  const ConvolutionParam& p = nnvm::get<ConvolutionParam>(attrs.parsed);
  const size_t nd = p.no_bias ? 2 : 3;
  const TBlob& x = inputs[0];
  const ConvGeom g = MakeConvGeom(p, x.shape_);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  const int8_t* bias = p.no_bias ? nullptr : inputs[2].dptr<int8_t>();
  MXNET_QUANT_TYPE_SWITCH(x.type_flag_, Q, {
    mxnet_op::Kernel<quant::quantized_conv_direct, gpu>::Launch(
        s, outputs[0].Size(), g, x.dptr<Q>(), inputs[1].dptr<int8_t>(), bias,
        outputs[0].dptr<int32_t>());
  });
  mxnet_op::Kernel<quant::int32_product_range, gpu>::Launch(
      s, 1, inputs[nd].dptr<float>(), inputs[nd + 1].dptr<float>(), inputs[nd + 2].dptr<float>(),
      inputs[nd + 3].dptr<float>(), quant::kInt8Limit, outputs[1].dptr<float>(),
      outputs[2].dptr<float>());
}

}  // namespace

NNVM_REGISTER_OP(_contrib_quantized_fully_connected)
.set_attr<FCompute>("FCompute<gpu>", QuantizedFCComputeGPU);
NNVM_REGISTER_OP(_contrib_quantized_conv)
.set_attr<FCompute>("FCompute<gpu>", QuantizedConvComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
