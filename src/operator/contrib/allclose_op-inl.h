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

#include <atomic>
#include <cmath>
#include <vector>

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

template <typename AType, typename BType>
inline bool AllCloseLoop(const AType* a, const BType* b, index_t n, double rtol, double atol,
                         bool equal_nan) {
  int bad = 0;
#pragma omp parallel for reduction(| : bad) if (n > 65536)
  for (index_t i = 0; i < n; ++i) {
    const double x = static_cast<double>(a[i]), y = static_cast<double>(b[i]);
    bool ok;
    if (std::isnan(x) || std::isnan(y)) {
      ok = equal_nan && std::isnan(x) && std::isnan(y);
    } else if (std::isinf(x) || std::isinf(y)) {
      ok = x == y;
    } else {
      ok = std::fabs(x - y) <= atol + rtol * std::fabs(y);
    }
    bad |= ok ? 0 : 1;
  }
  return bad == 0;
}

template <typename xpu>
void AllCloseCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  const AllCloseParam& param = nnvm::get<AllCloseParam>(attrs.parsed);
  const index_t n = inputs[0].Size();
  const double rtol = param.rtol, atol = param.atol;
  const bool equal_nan = param.equal_nan;
  bool close = true;
  MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[0].type_flag_, AType, {
    MSHADOW_TYPE_SWITCH_WITH_BOOL(inputs[1].type_flag_, BType, {
      close = AllCloseLoop(inputs[0].dptr<AType>(), inputs[1].dptr<BType>(), n, rtol, atol,
                           equal_nan);
    });
  });
  float* out = outputs[0].dptr<float>();
  out[0] = close ? 1.f : 0.f;
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_ALLCLOSE_OP_INL_H_
