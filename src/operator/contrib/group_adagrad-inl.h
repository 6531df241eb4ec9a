/*!
 * \file group_adagrad-inl.h
 * \brief _contrib_group_adagrad_update's parameters and its dense update for both devices:
 *        one thread per weight row (the row's mean squared gradient, then the row's step).
 */
#ifndef MXNET_OPERATOR_CONTRIB_GROUP_ADAGRAD_INL_H_
#define MXNET_OPERATOR_CONTRIB_GROUP_ADAGRAD_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <vector>

#include "../mxnet_op.h"
#include "../optimizer/optimizer_op-inl.h"

namespace mxnet {
namespace op {

struct GroupAdagradParam : public dmlc::Parameter<GroupAdagradParam> {
  float lr, rescale_grad, clip_gradient, epsilon;
  DMLC_DECLARE_PARAMETER(GroupAdagradParam) {
    MXNET_OPT_LR_FIELD
    MXNET_OPT_RESCALE_FIELD
    MXNET_OPT_CLIP_FIELD
    DMLC_DECLARE_FIELD(epsilon).set_default(1.0e-5f).describe("Epsilon for numerical stability");
  }
};

/*!
 * \brief Update one row of `out` (row length len) from gradient row `g`:
 *        h += mean(clip(rescale * g)^2); out = w - lr * clip(rescale * g) / sqrt(h + eps).
 */
template <typename DType>
MSHADOW_XINLINE void GroupAdagradRow(float lr, float rescale, float clip_gradient, float eps,
                                     int64_t len, DType* out, const DType* w, const DType* g,
                                     DType* hist, OpReqType req) {
  typedef OptAcc<DType> A;
  const A rs(rescale), clip(clip_gradient);
  A sum = 0;
  for (int64_t j = 0; j < len; ++j) {
    const A gj = OptClip(rs * static_cast<A>(g[j]), clip);
    sum += gj * gj;
  }
  const A h = static_cast<A>(*hist) + (len > 0 ? sum / A(len) : A(0));
  *hist = DType(h);
  // sqrt in double, rounded to A: the correctly rounded root for float too.
  const A scale = A(lr) / static_cast<A>(sqrt(static_cast<double>(
                              static_cast<A>(DType(h)) + A(eps))));
  for (int64_t j = 0; j < len; ++j) {
    const A gj = OptClip(rs * static_cast<A>(g[j]), clip);
    OptAssign(out, j, req, static_cast<A>(w[j]) - scale * gj);
  }
}

struct group_adagrad_row {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t r, float lr, float rescale, float clip, float eps,
                                  int64_t len, DType* out, const DType* w, const DType* g,
                                  DType* hist, OpReqType req) {
    GroupAdagradRow(lr, rescale, clip, eps, len, out + r * len, w + r * len, g + r * len,
                    hist + r, req);
  }
};

/*! \brief Dense gradient: every row is updated. */
template <typename xpu>
void GroupAdagradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& out) {
  if (req[0] == kNullOp) return;
  const GroupAdagradParam& p = nnvm::get<GroupAdagradParam>(attrs.parsed);
  const int64_t rows = in[0].shape_[0];
  const int64_t len = rows > 0 ? static_cast<int64_t>(in[0].Size()) / rows : 0;
  MSHADOW_REAL_TYPE_SWITCH(in[0].type_flag_, DType, {
    mxnet_op::Kernel<group_adagrad_row, xpu>::Launch(
        ctx.get_stream<xpu>(), rows, p.lr, p.rescale_grad, p.clip_gradient, p.epsilon, len,
        out[0].dptr<DType>(), in[0].dptr<DType>(), in[1].dptr<DType>(), in[2].dptr<DType>(),
        req[0]);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_GROUP_ADAGRAD_INL_H_
