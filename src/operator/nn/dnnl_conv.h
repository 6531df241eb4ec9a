/*!
 * \file dnnl_conv.h
 * \brief oneDNN (float32) convolution and pooling used by Convolution, Deconvolution and
 *        Pooling when the library was built with MXNET_USE_ONEDNN=1.
 *
 *   if (DnnlEnabled() && DnnlConvForward(g, x, w, b, y)) return;   // else the native path
 *
 * Every function returns false when oneDNN is not compiled in, switched off
 * (MXNET_ONEDNN_ENABLED=0, read at every call so tests can compare both paths), or the case
 * is not supported (then the caller runs the native kernel). Primitives are cached per thread,
 * keyed by the geometry, so repeated calls with the same shapes reuse them. Arrays are the
 * operator's plain NC(D)(H)W buffers; reorders to oneDNN's preferred layouts happen inside.
 * Results are written (kWriteTo); callers handle kAddTo themselves.
 */
#ifndef MXNET_OPERATOR_NN_DNNL_CONV_H_
#define MXNET_OPERATOR_NN_DNNL_CONV_H_

#include "./conv_kernels.h"

namespace mxnet {
namespace op {

/*! \brief oneDNN is compiled in and not switched off by MXNET_ONEDNN_ENABLED=0. */
bool DnnlEnabled();

/*! \brief y = conv(x, w) (+ bias when non-null). */
bool DnnlConvForward(const ConvGeom& g, const float* x, const float* w, const float* bias,
                     float* y);
/*! \brief dx = conv^T(dy, w). */
bool DnnlConvBackwardData(const ConvGeom& g, const float* w, const float* dy, float* dx);
/*! \brief dw (and db when non-null) from x and dy. */
bool DnnlConvBackwardWeights(const ConvGeom& g, const float* x, const float* dy, float* dw,
                             float* db);

/*! \brief Pooling geometry: x (N, C, in) -> y (N, C, out); pad_r is the right/bottom pad. */
struct PoolGeom {
  index_t N = 0, C = 0;
  index_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  index_t k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0};
  int nsp = 2;
  int type = 0;             // 0 max, 1 avg, 2 sum, 3 lp (pool_enum::PoolType)
  bool count_include_pad = true;
};

/*! \brief Pooling forward (max, or avg with/without padding in the count). */
bool DnnlPoolForward(const PoolGeom& g, const float* x, float* y);
/*! \brief Pooling backward: dx from dy (max pooling recomputes the argmax workspace). */
bool DnnlPoolBackward(const PoolGeom& g, const float* x, const float* dy, float* dx);

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_DNNL_CONV_H_
