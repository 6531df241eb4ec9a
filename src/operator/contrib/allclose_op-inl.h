/*!
 * \file allclose_op-inl.h
 * \brief _contrib_allclose(a, b): 1 when |a - b| <= atol + rtol * |b| everywhere (NaNs equal
 *        when equal_nan), else 0, as a one-element float32 array. Used by
 *        test_utils.assert_almost_equal to compare arrays without copying them to NumPy.
 */
#ifndef MXNET_OPERATOR_CONTRIB_ALLCLOSE_OP_INL_H_
#define MXNET_OPERATOR_CONTRIB_ALLCLOSE_OP_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <type_traits>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct AllCloseParam : public dmlc::Parameter<AllCloseParam> {
  float rtol, atol;
  bool equal_nan;
  DMLC_DECLARE_PARAMETER(AllCloseParam) {
    DMLC_DECLARE_FIELD(rtol).set_default(1e-05f).describe("Relative tolerance.");
    DMLC_DECLARE_FIELD(atol).set_default(1e-08f).describe("Absolute tolerance.");
    DMLC_DECLARE_FIELD(equal_nan).set_default(true).describe(
        "Whether to compare NaN's as equal. If True, NaN's in A will be considered equal to "
        "NaN's in B in the output array.");
  }
};

inline bool AllCloseShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                          mxnet::ShapeVector* out_attrs) {
  CHECK_EQ(in_attrs->size(), 2U) << "_contrib_allclose: expected inputs [a, b]";
  const mxnet::TShape& a = (*in_attrs)[0];
  const mxnet::TShape& b = (*in_attrs)[1];
  if (ndim_is_known(a) && ndim_is_known(b) && a != b) {
    MX_THROW(ValueError) << "_contrib_allclose: expected b to have the shape of a " << a
                         << ", got " << b;
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, mxnet::TShape(1, 1));
  return shape_is_known(a) || shape_is_known(b);
}

inline bool AllCloseType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                         std::vector<int>* out_attrs) {
  TYPE_ASSIGN_CHECK(*out_attrs, 0, mshadow::kFloat32);
  return (*in_attrs)[0] >= 0 && (*in_attrs)[1] >= 0;
}

/*! \brief numpy.isclose of one pair, in double. */
MSHADOW_XINLINE bool IsCloseValue(double x, double y, double rtol, double atol, bool equal_nan) {
  const bool xnan = x != x, ynan = y != y;
  if (xnan || ynan) return equal_nan && xnan && ynan;
  const double inf = 1.0 / 0.0;
  if (x == inf || x == -inf || y == inf || y == -inf) return x == y;
  const double d = x - y, ay = y < 0 ? -y : y;
  return (d < 0 ? -d : d) <= atol + rtol * ay;
}

template <typename AType, typename BType>
inline bool AllCloseLoop(const AType* a, const BType* b, index_t n, double rtol, double atol,
                         bool equal_nan) {
  int bad = 0;
#pragma omp parallel for reduction(| : bad) if (n > 65536)
  for (index_t i = 0; i < n; ++i) {
    bad |= IsCloseValue(static_cast<double>(a[i]), static_cast<double>(b[i]), rtol, atol,
                        equal_nan) ? 0 : 1;
  }
  return bad == 0;
}

/*! \brief GPU: out starts at 1 and every pair that is not close writes 0 (the same value, so
 *         the concurrent writes agree). */
struct allclose_clear_if_far {
  template <typename AType, typename BType>
  MSHADOW_XINLINE static void Map(index_t i, const AType* a, const BType* b, double rtol,
                                  double atol, bool equal_nan, float* out) {
    if (!IsCloseValue(static_cast<double>(a[i]), static_cast<double>(b[i]), rtol, atol,
                      equal_nan)) {
      *out = 0.f;
    }
  }
};

template <typename xpu>
void AllCloseCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  const AllCloseParam& param = nnvm::get<AllCloseParam>(attrs.parsed);
  const index_t n = inputs[0].Size();
  const double rtol = param.rtol, atol = param.atol;
  const bool equal_nan = param.equal_nan;
  float* out = outputs[0].dptr<float>();
  MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, AType, {
    MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[1].type_flag_, BType, {
      if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
        out[0] = AllCloseLoop(inputs[0].dptr<AType>(), inputs[1].dptr<BType>(), n, rtol, atol,
                              equal_nan) ? 1.f : 0.f;
      } else {
        mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
        mxnet_op::Kernel<mxnet_op::set_to_value<kWriteTo>, xpu>::Launch(s, 1, out, 1.f);
        mxnet_op::Kernel<allclose_clear_if_far, xpu>::Launch(
            s, n, inputs[0].dptr<AType>(), inputs[1].dptr<BType>(), rtol, atol, equal_nan, out);
      }
    });
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_ALLCLOSE_OP_INL_H_
