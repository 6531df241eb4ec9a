/*!
 * \file convolution.cu
 * \brief Convolution and its gradient on the GPU: cuDNN (cudnn/cudnn_conv.h), bias added and
 *        summed by cuDNN too. Built only with cuDNN (MXNET_USE_CUDNN); without it the GPU
 *        reports that Convolution has no GPU kernel. cudnn_off=True runs im2col + cuBLAS
 *        instead, one image at a time: im2col-inl.h's kernels build the image's column matrix
 *        in temp space and one GEMM batched over the groups multiplies it (the CPU's
 *        ConvForwardNative in GPU terms); the gradients are the transposed GEMMs and col2im.
 */
#include "./convolution-inl.h"

#if MXNET_USE_CUDNN
#include <algorithm>

#include "../blas_gemm.h"
#include "./conv_gemm_common-inl.h"
#include "./cudnn/cudnn_conv.h"
#include "./im2col-inl.h"

namespace mxnet {
namespace op {
namespace {

using mxnet_op::Kernel;

/*! \brief Group sizes of the per-image GEMMs: M = F/G filters, K = (C/G)*kernel, L positions. */
struct GroupGemm {
  index_t FG, CRG, L, G;
  explicit GroupGemm(const ConvGeom& g)
      : FG(g.F / g.G), CRG(g.ColRowsPerGroup()), L(g.OutSpatial()), G(g.G) {}
};

void ConvolutionForwardIm2col(const ConvolutionParam& param, const OpContext& ctx,
                              const std::vector<TBlob>& inputs, OpReqType req,
                              const TBlob& out) {
  const ConvGeom g = MakeConvGeom(param, inputs[conv::kData].shape_);
  const GroupGemm gg(g);
  const BlockKernelGeom cg = ConvColumnGeom(g);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  MSHADOW_REAL_TYPE_SWITCH(out.type_flag_, DType, {
    DType* col = ctx.requested[0].get_space_typed_ptr<DType>(
        std::max<index_t>(g.C * g.KernelSize() * gg.L, 1));
    const DType* x = inputs[conv::kData].dptr<DType>();
    const DType* w = inputs[conv::kWeight].dptr<DType>();
    DType* y = out.dptr<DType>();
    for (index_t n = 0; n < g.N; ++n) {
      Kernel<blocks_to_cols, gpu>::Launch(s, g.C * g.KernelSize() * gg.L, x + n * g.C * cg.plane,
                                          col, cg, static_cast<int>(kWriteTo));
      Gemm<DType>(s, false, false, gg.FG, gg.L, gg.CRG, 1.0, w, gg.CRG, col, gg.L,
                  req == kAddTo ? 1.0 : 0.0, y + n * g.F * gg.L, gg.L, gg.G, gg.FG * gg.CRG,
                  gg.CRG * gg.L, gg.FG * gg.L);
    }
    if (!param.no_bias) {
      Kernel<add_channel_bias, gpu>::Launch(s, g.N * g.F * gg.L, y,
                                            inputs[conv::kBias].dptr<DType>(), g.F, gg.L);
    }
  });
}

/*! \brief inputs: out_grad, data, weight; outputs: data_grad, weight_grad[, bias_grad]. */
void ConvolutionBackwardIm2col(const ConvolutionParam& param, const OpContext& ctx,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  const ConvGeom g = MakeConvGeom(param, inputs[1].shape_);
  const GroupGemm gg(g);
  const BlockKernelGeom cg = ConvColumnGeom(g);
  const index_t col_size = g.C * g.KernelSize() * gg.L;
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    DType* col = ctx.requested[0].get_space_typed_ptr<DType>(std::max<index_t>(col_size, 1));
    const DType* dy = inputs[0].dptr<DType>();
    const DType* x = inputs[1].dptr<DType>();
    const DType* w = inputs[2].dptr<DType>();
    for (index_t n = 0; n < g.N; ++n) {
      const DType* dyn = dy + n * g.F * gg.L;
      if (req[1] != kNullOp) {  // dW_g += dy_g . col_g^T
        Kernel<blocks_to_cols, gpu>::Launch(s, col_size, x + n * g.C * cg.plane, col, cg,
                                            static_cast<int>(kWriteTo));
        const double beta = (n > 0 || req[1] == kAddTo) ? 1.0 : 0.0;
        Gemm<DType>(s, false, true, gg.FG, gg.CRG, gg.L, 1.0, dyn, gg.L, col, gg.L, beta,
                    outputs[1].dptr<DType>(), gg.CRG, gg.G, gg.FG * gg.L, gg.CRG * gg.L,
                    gg.FG * gg.CRG);
      }
      if (req[0] != kNullOp) {  // col_g = W_g^T . dy_g, then col2im
        Gemm<DType>(s, true, false, gg.CRG, gg.L, gg.FG, 1.0, w, gg.CRG, dyn, gg.L, 0.0, col,
                    gg.L, gg.G, gg.FG * gg.CRG, gg.FG * gg.L, gg.CRG * gg.L);
        Kernel<cols_to_image, gpu>::Launch(s, g.C * cg.plane,
                                           outputs[0].dptr<DType>() + n * g.C * cg.plane, col,
                                           cg, static_cast<int>(req[0]));
      }
    }
    if (!param.no_bias && req[2] != kNullOp) {
      Kernel<channel_bias_grad, gpu>::Launch(s, g.F, outputs[2].dptr<DType>(), dy, g.N, g.F,
                                             gg.L, static_cast<int>(req[2]));
    }
  });
}

}  // namespace

void ConvolutionComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const ConvolutionParam& param = nnvm::get<ConvolutionParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  if (param.cudnn_off) {
    ConvolutionForwardIm2col(param, ctx, inputs, req[0], outputs[0]);
    return;
  }
  const ConvGeom g = MakeConvGeom(param, inputs[conv::kData].shape_);
  const int dtype = outputs[0].type_flag_;
  const CudnnConv conv(g, dtype, CudnnTuneMode(param.cudnn_tune), param.workspace << 20,
                       "Convolution");
  conv.Forward(ctx, inputs[conv::kData].dptr_, inputs[conv::kWeight].dptr_, outputs[0].dptr_,
               CudnnBeta(req[0]));
  if (!param.no_bias) {
    CudnnAddBias(ctx, dtype, g.N, g.F, g.OutSpatial(), inputs[conv::kBias].dptr_,
                 outputs[0].dptr_, "Convolution");
  }
}

/*! \brief inputs: out_grad, data, weight; outputs: data_grad, weight_grad[, bias_grad]. */
void ConvolutionGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  const ConvolutionParam& param = nnvm::get<ConvolutionParam>(attrs.parsed);
  if (param.cudnn_off) {
    ConvolutionBackwardIm2col(param, ctx, inputs, req, outputs);
    return;
  }
  const ConvGeom g = MakeConvGeom(param, inputs[1].shape_);
  const int dtype = inputs[0].type_flag_;
  const CudnnConv conv(g, dtype, CudnnTuneMode(param.cudnn_tune), param.workspace << 20,
                       "Convolution");
  const void* dy = inputs[0].dptr_;
  if (req[0] != kNullOp) {
    conv.BackwardData(ctx, inputs[2].dptr_, dy, outputs[0].dptr_, CudnnBeta(req[0]));
  }
  if (req[1] != kNullOp) {
    conv.BackwardFilter(ctx, inputs[1].dptr_, dy, outputs[1].dptr_, CudnnBeta(req[1]));
  }
  if (!param.no_bias && req[2] != kNullOp) {
    CudnnBiasGrad(ctx, dtype, g.N, g.F, g.OutSpatial(), dy, outputs[2].dptr_,
                  CudnnBeta(req[2]), "Convolution");
  }
}

NNVM_REGISTER_OP(Convolution).set_attr<FCompute>("FCompute<gpu>", ConvolutionComputeGPU);
NNVM_REGISTER_OP(_backward_Convolution)
.set_attr<FCompute>("FCompute<gpu>", ConvolutionGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDNN
