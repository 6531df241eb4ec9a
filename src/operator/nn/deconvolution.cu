/*!
 * \file deconvolution.cu
 * \brief Deconvolution and its gradient on the GPU, on cuDNN's convolution passes in the terms of
 *        MakeDeconvGeom: the forward is the convolution's data gradient, the data gradient the
 *        convolution's forward, the weight gradient the convolution's weight gradient with the
 *        roles of input and output gradient swapped (as on the CPU). Built only with cuDNN.
 */
#include "./deconvolution-inl.h"

#if MXNET_USE_CUDNN
#include "./cudnn/cudnn_conv.h"

namespace mxnet {
namespace op {

void DeconvolutionComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                             const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                             const std::vector<TBlob>& outputs) {
  const DeconvolutionParam& param = nnvm::get<DeconvolutionParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  NoteCudnnOff(param.cudnn_off, "Deconvolution");
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
