/*!
 * \file cudnn_conv.h
 * \brief Convolutions on cuDNN, in the terms of ConvGeom (conv_kernels.h), for Convolution and
 *        Deconvolution on the GPU (CUDA builds with cuDNN only):
 *
 *   CudnnConv conv(g, dtype, tune, workspace_bytes, "Convolution");
 *   conv.Forward(ctx, x, w, y, req == kAddTo ? 1 : 0);       // y = conv(x, w) + beta * y
 *   conv.BackwardData(ctx, w, dy, dx, beta);                   // dx = conv^T(dy, w) + beta * dx
 *   conv.BackwardFilter(ctx, x, dy, dw, beta);                 // dw = dconv/dw + beta * dw
 *
 * Algorithms are chosen once per geometry, dtype and device and cached (1.9.1's rules): `tune`
 * kOff asks cuDNN's heuristics, kLimited times every algorithm and takes the fastest whose
 * workspace fits `workspace_bytes`, kFastest the fastest whatever its workspace. Workspace
 * comes from the op's temp-space resource. MXNET_ENFORCE_DETERMINISM=1 keeps deterministic
 * algorithms only. float16/bfloat16 compute in float, on tensor cores unless
 * MXNET_CUDA_ALLOW_TENSOR_CORE=0; float32 uses TF32 tensor cores only with
 * MXNET_CUDA_TENSOR_OP_MATH_ALLOW_CONVERSION=1 (as the GEMMs).
 */
#ifndef MXNET_OPERATOR_NN_CUDNN_CUDNN_CONV_H_
#define MXNET_OPERATOR_NN_CUDNN_CUDNN_CONV_H_

#if MXNET_USE_CUDA && MXNET_USE_CUDNN
#include <dmlc/optional.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../conv_kernels.h"

namespace mxnet {
namespace op {

/*! \brief The tuning mode of a layer: its cudnn_tune when given, else
 *         MXNET_CUDNN_AUTOTUNE_DEFAULT (0 off, 1 limited workspace (default), 2 fastest). */
int CudnnTuneMode(const dmlc::optional<int>& cudnn_tune);

/*! \brief beta of a cuDNN call writing under `req`: 1 accumulates (kAddTo), 0 overwrites. */
inline double CudnnBeta(OpReqType req) { return req == kAddTo ? 1.0 : 0.0; }

class CudnnConv {
 public:
  CudnnConv(const ConvGeom& g, int dtype, int tune, size_t workspace_bytes, std::string op);

  void Forward(const OpContext& ctx, const void* x, const void* w, void* y, double beta) const;
  void BackwardData(const OpContext& ctx, const void* w, const void* dy, void* dx,
                    double beta) const;
  void BackwardFilter(const OpContext& ctx, const void* x, const void* dy, void* dw,
                      double beta) const;

 private:
  enum Pass { kForward, kBackwardData, kBackwardFilter };
  std::string CacheKey(Pass pass, int dev) const;
  std::string Describe() const;

  ConvGeom g_;
  int dtype_;
  int tune_;
  size_t workspace_bytes_;
  std::string op_;
  std::vector<int> x_dims_, y_dims_, w_dims_;
  std::vector<int> pad_, stride_, dilate_;
};

/*! \brief y[n, c, :] += bias[c] for y (N, channels, spatial). */
void CudnnAddBias(const OpContext& ctx, int dtype, index_t N, index_t channels, index_t spatial,
                  const void* bias, void* y, const std::string& op);

/*! \brief db = sum over n and spatial of dy[n, c, :] + beta * db. */
void CudnnBiasGrad(const OpContext& ctx, int dtype, index_t N, index_t channels,
                   index_t spatial, const void* dy, void* db, double beta,
                   const std::string& op);

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_USE_CUDA && MXNET_USE_CUDNN
#endif  // MXNET_OPERATOR_NN_CUDNN_CUDNN_CONV_H_
