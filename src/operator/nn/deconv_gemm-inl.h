/*!
 * \file deconv_gemm-inl.h
 * \brief Deconvolution by im2col / col2im + GEMM on either device, one image at a time with
 *        the column buffer supplied by the caller (the GPU's cudnn_off=True path).
 *
 * In the terms of MakeDeconvGeom (g.C = num_filter, the deconvolution's output channels over
 * g.in; g.F = its input channels over g.out), per image and per group g:
 *   forward:          col_g = W_g^T . x_g,  y = col2im(col)         (convolution data gradient)
 *   data gradient:    col = im2col(dy),     dx_g = W_g . col_g      (convolution forward)
 *   weight gradient:  col = im2col(dy),     dW_g += x_g . col_g^T   (summed over the images)
 *   bias:             y[:, c] += b[c];      db[c] = sum of dy[:, c]
 * The backward builds im2col(dy) once per image for both gradients. Usage:
 *
 *   DType* col = ctx.requested[0].get_space_typed_ptr<DType>(DeconvColumnElems(g));
 *   DeconvForwardGemm<gpu, DType>(s, g, x, w, bias_or_null, y, req, col);
 */
#ifndef MXNET_OPERATOR_NN_DECONV_GEMM_INL_H_
#define MXNET_OPERATOR_NN_DECONV_GEMM_INL_H_

#include <algorithm>

#include "../blas_gemm.h"
#include "../mxnet_op.h"
#include "./conv_gemm_common-inl.h"
#include "./conv_kernels.h"
#include "./im2col-inl.h"

namespace mxnet {
namespace op {

/*! \brief Elements of the column buffer of one image (at least 1). */
inline index_t DeconvColumnElems(const ConvGeom& g) {
  return std::max<index_t>(g.C * g.KernelSize() * g.OutSpatial(), 1);
}

/*!
 * \brief y (req) the deconvolution of x (N, F, *out) with w (F, C/G, *kernel), plus bias b
 *        (C,) unless null. col holds DeconvColumnElems(g) elements on the device of s.
 */
template <typename xpu, typename DType>
void DeconvForwardGemm(mshadow::Stream<xpu>* s, const ConvGeom& g, const DType* x,
                       const DType* w, const DType* b, DType* y, OpReqType req, DType* col) {
  using mxnet_op::Kernel;
  if (req == kNullOp) return;
  const index_t FG = g.F / g.G, CRG = g.ColRowsPerGroup(), L = g.OutSpatial();
  const index_t plane = g.InSpatial();
  const BlockKernelGeom cg = ConvColumnGeom(g);
  for (index_t n = 0; n < g.N; ++n) {
    Gemm<DType>(s, true, false, CRG, L, FG, 1.0, w, CRG, x + n * g.F * L, L, 0.0, col, L, g.G,
                FG * CRG, FG * L, CRG * L);
    Kernel<cols_to_image, xpu>::Launch(s, g.C * plane, y + n * g.C * plane, col, cg,
                                       static_cast<int>(req));
  }
  if (b != nullptr) {
    Kernel<add_channel_bias, xpu>::Launch(s, g.N * g.C * plane, y, b, g.C, plane);
  }
}

/*!
 * \brief The gradients of DeconvForwardGemm from dy (N, C, *in): dx (req_dx) of x, dw (req_dw)
 *        of w, db (req_db) of the bias when db is not null. col as for the forward.
 */
template <typename xpu, typename DType>
void DeconvBackwardGemm(mshadow::Stream<xpu>* s, const ConvGeom& g, const DType* dy,
                        const DType* x, const DType* w, DType* dx, OpReqType req_dx, DType* dw,
                        OpReqType req_dw, DType* db, OpReqType req_db, DType* col) {
  using mxnet_op::Kernel;
  const index_t FG = g.F / g.G, CRG = g.ColRowsPerGroup(), L = g.OutSpatial();
  const index_t plane = g.InSpatial();
  const BlockKernelGeom cg = ConvColumnGeom(g);
  if (req_dx != kNullOp || req_dw != kNullOp) {
    for (index_t n = 0; n < g.N; ++n) {
      Kernel<blocks_to_cols, xpu>::Launch(s, g.C * g.KernelSize() * L, dy + n * g.C * plane,
                                          col, cg, static_cast<int>(kWriteTo));
      if (req_dx != kNullOp) {  // dx_g = W_g . col_g
        Gemm<DType>(s, false, false, FG, L, CRG, 1.0, w, CRG, col, L,
                    req_dx == kAddTo ? 1.0 : 0.0, dx + n * g.F * L, L, g.G, FG * CRG, CRG * L,
                    FG * L);
      }
      if (req_dw != kNullOp) {  // dW_g += x_g . col_g^T
        const double beta = (n > 0 || req_dw == kAddTo) ? 1.0 : 0.0;
        Gemm<DType>(s, false, true, FG, CRG, L, 1.0, x + n * g.F * L, L, col, L, beta, dw, CRG,
                    g.G, FG * L, CRG * L, FG * CRG);
      }
    }
  }
  if (g.N == 0 && (req_dw == kWriteTo || req_dw == kWriteInplace)) {
    Kernel<mxnet_op::set_zero, xpu>::Launch(s, g.F * CRG, dw);  // an empty sum
  }
  if (db != nullptr && req_db != kNullOp) {
    Kernel<channel_bias_grad, xpu>::Launch(s, g.C, db, dy, g.N, g.C, plane,
                                          static_cast<int>(req_db));
  }
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_DECONV_GEMM_INL_H_
