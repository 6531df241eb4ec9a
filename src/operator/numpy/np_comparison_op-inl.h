/*!
 * \file np_comparison_op-inl.h
 * \brief The NumPy comparisons (_npi_equal, ..., and their `_scalar` forms) for both devices:
 *        the result is a bool array. The CPU walks broadcast rows; the GPU runs one thread per
 *        output element with the broadcast plan passed by value.
 */
#ifndef MXNET_OPERATOR_NUMPY_NP_COMPARISON_OP_INL_H_
#define MXNET_OPERATOR_NUMPY_NP_COMPARISON_OP_INL_H_

#include <type_traits>
#include <vector>

#include "../elemwise_op_common.h"
#include "../mshadow_op.h"
#include "../mxnet_op.h"
#include "../operator_common.h"
#include "../tensor/elemwise_binary_broadcast_op-inl.h"
#include "../tensor/elemwise_binary_scalar_op-inl.h"

namespace mxnet {
namespace op {

inline bool NumpyCompareType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                             std::vector<int>* out_attrs) {
  const int lhs = (*in_attrs)[0];
  const int rhs = in_attrs->size() > 1 ? (*in_attrs)[1] : lhs;
  if (lhs != -1 && rhs != -1 && lhs != rhs) {
    MX_THROW(TypeError) << attrs.op->name << ": both operands must have the same dtype, got "
                        << "dtype codes " << lhs << " and " << rhs
                        << " (mx.np promotes them before calling)";
  }
  TYPE_ASSIGN_CHECK(*out_attrs, 0, mshadow::kBool);
  return lhs != -1 && rhs != -1;
}

namespace np_compare {

/*! \brief out[i] = OP(a, b) != 0 at output element i of a broadcast plan. */
template <typename OP>
struct broadcast_kernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, bool* out, const DType* a, const DType* b,
                                  BroadcastPlan p) {
    index_t ia, ib;
    p.Offsets(i, &ia, &ib);
    out[i] = OP::Map(a[ia], b[ib]) != DType(0);
  }
};

/*! \brief out[i] = OP(x[i], scalar) != 0, compared in double. */
template <typename OP>
struct scalar_kernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, bool* out, const DType* x, double scalar) {
    out[i] = OP::Map(static_cast<double>(x[i]), scalar) != 0.0;
  }
};

}  // namespace np_compare

/*! \brief out[i] = OP(a, b) != 0 with broadcasting; out is bool. */
template <typename xpu, typename OP>
void NumpyCompareCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                         const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                         const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const TBlob& lhs = inputs[0];
  const TBlob& rhs = inputs[1];
  const TBlob& out = outputs[0];
  const BroadcastPlan plan(out.shape_, lhs.shape_, rhs.shape_);
  bool* y = out.dptr<bool>();
  MSHADOW_TYPE_SWITCH_WITH_BOOL(lhs.type_flag_, DType, {
    const DType* a = lhs.dptr<DType>();
    const DType* b = rhs.dptr<DType>();
    if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
      const index_t inner = plan.ndim == 0 ? 1 : plan.shape[plan.ndim - 1];
      const index_t rows = inner == 0 ? 0 : plan.size / inner;
      ForEachRow(plan, 0, rows,
                 [&](index_t o, index_t ia, index_t ib, index_t n, index_t sa, index_t sb) {
                   for (index_t j = 0; j < n; ++j) {
                     y[o + j] = OP::Map(a[ia + j * sa], b[ib + j * sb]) != DType(0);
                   }
                 });
    } else {
      mxnet_op::Kernel<np_compare::broadcast_kernel<OP>, xpu>::Launch(ctx.get_stream<xpu>(),
                                                                      plan.size, y, a, b, plan);
    }
  });
}

/*! \brief out[i] = OP(x[i], scalar) != 0 (compared in double); out is bool. */
template <typename xpu, typename OP>
void NumpyCompareScalarCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const double scalar = nnvm::get<NumpyBinaryScalarParam>(attrs.parsed).scalar;
  const TBlob& in = inputs[0];
  MSHADOW_TYPE_SWITCH_WITH_BOOL(in.type_flag_, DType, {
    mxnet_op::Kernel<np_compare::scalar_kernel<OP>, xpu>::Launch(
        ctx.get_stream<xpu>(), in.Size(), outputs[0].dptr<bool>(), in.dptr<DType>(), scalar);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NUMPY_NP_COMPARISON_OP_INL_H_
