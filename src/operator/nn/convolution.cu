/*!
 * \file convolution.cu
 * \brief Convolution and its gradient on the GPU: cuDNN (cudnn/cudnn_conv.h), bias added and
 *        summed by cuDNN too. Built only with cuDNN (MXNET_USE_CUDNN); without it the GPU
 *        reports that Convolution has no GPU kernel. cudnn_off=True still runs cuDNN, the
 *        only GPU convolution here, and says so once.
 */
#include "./convolution-inl.h"

#if MXNET_USE_CUDNN
#include "./cudnn/cudnn_conv.h"

namespace mxnet {
namespace op {

void ConvolutionComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const ConvolutionParam& param = nnvm::get<ConvolutionParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  NoteCudnnOff(param.cudnn_off, "Convolution");
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
