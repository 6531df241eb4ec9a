/*!
 * \file deconvolution.cu
 * \brief Deconvolution and its gradient on the GPU, on cuDNN's convolution passes in the terms of
 *        MakeDeconvGeom: the forward is the convolution's data gradient, the data gradient the
 *        convolution's forward, the weight gradient the convolution's weight gradient with the
 *        roles of input and output gradient swapped (as on the CPU). Built only with cuDNN, as
 *        Convolution's GPU kernels are. cudnn_off=True runs im2col / col2im + cuBLAS instead
 *        (deconv_gemm-inl.h), one image at a time with the column buffer in temp space.
 */
#include "./deconvolution-inl.h"

#if MXNET_USE_CUDNN
#include "./cudnn/cudnn_conv.h"
#include "./deconv_gemm-inl.h"

namespace mxnet {
namespace op {
namespace {

void DeconvolutionForwardIm2col(const DeconvolutionParam& param, const OpContext& ctx,
                                const std::vector<TBlob>& inputs, OpReqType req,
                                const TBlob& out) {
  const ConvGeom g = MakeDeconvGeom(param, inputs[conv::kData].shape_);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  MSHADOW_REAL_TYPE_SWITCH(out.type_flag_, DType, {
    DType* col = ctx.requested[0].get_space_typed_ptr<DType>(DeconvColumnElems(g));
    DeconvForwardGemm<gpu, DType>(s, g, inputs[conv::kData].dptr<DType>(),
                                  inputs[conv::kWeight].dptr<DType>(),
                                  param.no_bias ? nullptr : inputs[conv::kBias].dptr<DType>(),
                                  out.dptr<DType>(), req, col);
  });
}

/*! \brief inputs: out_grad, data, weight; outputs: data_grad, weight_grad[, bias_grad]. */
void DeconvolutionBackwardIm2col(const DeconvolutionParam& param, const OpContext& ctx,
                                 const std::vector<TBlob>& inputs,
                                 const std::vector<OpReqType>& req,
                                 const std::vector<TBlob>& outputs) {
  const ConvGeom g = MakeDeconvGeom(param, inputs[1].shape_);
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    DType* col = ctx.requested[0].get_space_typed_ptr<DType>(DeconvColumnElems(g));
    DeconvBackwardGemm<gpu, DType>(s, g, inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
                                   inputs[2].dptr<DType>(), outputs[0].dptr<DType>(), req[0],
                                   outputs[1].dptr<DType>(), req[1],
                                   param.no_bias ? nullptr : outputs[2].dptr<DType>(),
                                   param.no_bias ? kNullOp : req[2], col);
  });
}

}  // namespace

void DeconvolutionComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  const DeconvolutionParam& param = nnvm::get<DeconvolutionParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  if (param.cudnn_off) {
    DeconvolutionForwardIm2col(param, ctx, inputs, req[0], outputs[0]);
    return;
  }
  const ConvGeom g = MakeDeconvGeom(param, inputs[conv::kData].shape_);
  const int dtype = outputs[0].type_flag_;
  const CudnnConv conv(g, dtype, CudnnTuneMode(param.cudnn_tune), param.workspace << 20,
                       "Deconvolution");
  conv.BackwardData(ctx, inputs[conv::kWeight].dptr_, inputs[conv::kData].dptr_,
                    outputs[0].dptr_, CudnnBeta(req[0]));
  if (!param.no_bias) {
    CudnnAddBias(ctx, dtype, g.N, g.C, g.InSpatial(), inputs[conv::kBias].dptr_,
                 outputs[0].dptr_, "Deconvolution");
  }
}

/*! \brief inputs: out_grad, data, weight; outputs: data_grad, weight_grad[, bias_grad]. */
void DeconvolutionGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                 const std::vector<TBlob>& inputs,
                                 const std::vector<OpReqType>& req,
                                 const std::vector<TBlob>& outputs) {
  const DeconvolutionParam& param = nnvm::get<DeconvolutionParam>(attrs.parsed);
  if (param.cudnn_off) {
    DeconvolutionBackwardIm2col(param, ctx, inputs, req, outputs);
    return;
  }
  const ConvGeom g = MakeDeconvGeom(param, inputs[1].shape_);
  const int dtype = inputs[0].type_flag_;
  const CudnnConv conv(g, dtype, CudnnTuneMode(param.cudnn_tune), param.workspace << 20,
                       "Deconvolution");
  const void* dy = inputs[0].dptr_;  // the gradient of the deconvolution's output
  if (req[0] != kNullOp) {
    conv.Forward(ctx, dy, inputs[2].dptr_, outputs[0].dptr_, CudnnBeta(req[0]));
  }
  if (req[1] != kNullOp) {
    conv.BackwardFilter(ctx, dy, inputs[1].dptr_, outputs[1].dptr_, CudnnBeta(req[1]));
  }
  if (!param.no_bias && req[2] != kNullOp) {
    CudnnBiasGrad(ctx, dtype, g.N, g.C, g.InSpatial(), dy, outputs[2].dptr_,
                  CudnnBeta(req[2]), "Deconvolution");
  }
}

NNVM_REGISTER_OP(Deconvolution).set_attr<FCompute>("FCompute<gpu>", DeconvolutionComputeGPU);
NNVM_REGISTER_OP(_backward_Deconvolution)
.set_attr<FCompute>("FCompute<gpu>", DeconvolutionGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDNN
