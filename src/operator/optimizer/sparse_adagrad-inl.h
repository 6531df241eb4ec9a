/*!
 * \file sparse_adagrad-inl.h
 * \brief _sparse_adagrad_update: the parameter and the per-element step on the rows a row_sparse
 *        gradient lists, shared by the CPU kernel (sparse.cc) and the GPU one (sparse.cu).
 */
#ifndef MXNET_OPERATOR_OPTIMIZER_SPARSE_ADAGRAD_INL_H_
#define MXNET_OPERATOR_OPTIMIZER_SPARSE_ADAGRAD_INL_H_

#include <cmath>

#include "./optimizer_op-inl.h"

namespace mxnet {
namespace op {

struct SparseAdagradParam : public dmlc::Parameter<SparseAdagradParam> {
  float lr, epsilon, wd, rescale_grad, clip_gradient;
  DMLC_DECLARE_PARAMETER(SparseAdagradParam) {
    MXNET_OPT_LR_FIELD
    DMLC_DECLARE_FIELD(epsilon).set_default(1.0e-7f).describe("epsilon");
    MXNET_OPT_WD_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
  }
};

/*!
 * \brief One element of a stored gradient row: grad element `gi` updates weight/history element
 *        `wi`. Map(i, ...) runs element i of the gradient's values, its row from `rows`.
 */
struct sparse_adagrad_step {
  template <typename DType>
  MSHADOW_XINLINE static void Step(int64_t wi, int64_t gi, DType* out, DType* hist,
                                   const DType* g, float lr, float eps, float rescale,
                                   float clip) {
    typedef OptAcc<DType> A;
    const A grad = OptClip(A(rescale) * static_cast<A>(g[gi]), A(clip));
    const A h = static_cast<A>(hist[wi]) + grad * grad;
    hist[wi] = DType(h);
#ifdef __CUDA_ARCH__
    const A root = sqrt(h + A(eps));
#else
    const A root = std::sqrt(h + A(eps));
#endif
    out[wi] = DType(static_cast<A>(out[wi]) - A(lr) * grad / root);
  }
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const int64_t* rows, int64_t len, DType* out,
                                  DType* hist, const DType* g, float lr, float eps,
                                  float rescale, float clip) {
    const int64_t k = i / len, j = i % len;
    Step(rows[k] * len + j, static_cast<int64_t>(i), out, hist, g, lr, eps, rescale, clip);
  }
};

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_OPTIMIZER_SPARSE_ADAGRAD_INL_H_
