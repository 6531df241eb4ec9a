/*!
 * \file conv_gemm_common-inl.h
 * \brief What the GEMM paths of Convolution (convolution.cu) and Deconvolution
 *        (deconv_gemm-inl.h) share: the column geometry of one image and the per-channel bias
 *        kernels.
 */
#ifndef MXNET_OPERATOR_NN_CONV_GEMM_COMMON_INL_H_
#define MXNET_OPERATOR_NN_CONV_GEMM_COMMON_INL_H_

#include "../mxnet_op.h"
#include "./conv_kernels.h"
#include "./im2col-inl.h"

namespace mxnet {
namespace op {

/*! \brief The column geometry of one image: g.C channels over g.in, blocks over g.out (all
 *         three axes; unused ones are 1). */
inline BlockKernelGeom ConvColumnGeom(const ConvGeom& g) {
  BlockKernelGeom b;
  b.nd = 3;
  b.batch = 1;
  b.channels = g.C;
  b.ksize = g.KernelSize();
  b.blocks = g.OutSpatial();
  b.plane = g.InSpatial();
  for (int a = 0; a < 3; ++a) {
    b.in[a] = g.in[a];
    b.kernel[a] = g.k[a];
    b.stride[a] = g.s[a];
    b.dilate[a] = g.d[a];
    b.pad[a] = g.p[a];
    b.out[a] = g.out[a];
  }
  return b;
}

/*! \brief y[n, c, l] += bias[c] over (N, C, L). */
struct add_channel_bias {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, const DType* bias, index_t C,
                                  index_t L) {
    y[i] = y[i] + bias[(i / L) % C];
  }
};

/*! \brief db[c] (req) the sum of dy[n, c, l] over n and l, in that order. */
struct channel_bias_grad {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t c, DType* db, const DType* dy, index_t N, index_t C,
                                  index_t L, int req) {
    double acc = 0;
    for (index_t n = 0; n < N; ++n) {
      const DType* p = dy + (n * C + c) * L;
      for (index_t l = 0; l < L; ++l) acc += static_cast<double>(p[l]);
    }
    KERNEL_ASSIGN(db[c], req, DType(acc));
  }
};

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_CONV_GEMM_COMMON_INL_H_
