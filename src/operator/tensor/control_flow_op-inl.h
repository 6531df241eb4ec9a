/*!
 * \file control_flow_op-inl.h
 * \brief `where(condition, x, y)`: elements of x where condition is non-zero, else of y.
 *        condition has x's shape, or is 1-D of length x.shape[0] (selects whole rows).
 *        Its backward `_backward_where` routes the output gradient to x or y.
 */
#ifndef MXNET_OPERATOR_TENSOR_CONTROL_FLOW_OP_INL_H_
#define MXNET_OPERATOR_TENSOR_CONTROL_FLOW_OP_INL_H_

#include <string>
#include <vector>

#include "./elemwise_unary_op-inl.h"

namespace mxnet {
namespace op {

inline bool WhereOpShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                         mxnet::ShapeVector* out_attrs) {
  mxnet::TShape tshape = (*in_attrs)[1];
  if (!shape_assign(&tshape, (*in_attrs)[2]) || !shape_assign(&tshape, (*out_attrs)[0])) {
    MX_THROW(ValueError) << "where: expected x and y of the same shape, got x " << (*in_attrs)[1]
                         << " and y " << (*in_attrs)[2];
  }
  SHAPE_ASSIGN_CHECK(*in_attrs, 1, tshape);
  SHAPE_ASSIGN_CHECK(*in_attrs, 2, tshape);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, tshape);
  const mxnet::TShape& cond = (*in_attrs)[0];
  if (!mxnet::shape_is_known(cond) || !mxnet::shape_is_known(tshape)) return false;
  if (cond == tshape) return true;
  if (cond.ndim() == 1 && tshape.ndim() >= 1 && cond[0] == tshape[0]) return true;
  MX_THROW(ValueError) << "where: expected condition of shape " << tshape
                       << " (the shape of x) or (" << (tshape.ndim() > 0 ? tshape[0] : 0)
                       << ",) (one value per row of x), got " << cond;
  return false;
}

inline bool WhereOpType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_attrs,
                        std::vector<int>* out_attrs) {
  int t = (*in_attrs)[1];
  for (int v : {(*in_attrs)[2], (*out_attrs)[0]}) {
    if (v == -1) continue;
    if (t == -1) {
      t = v;
    } else if (v != t) {
      MX_THROW(TypeError) << "where: expected x, y (and the output) of the same dtype, got x "
                          << mshadow::dtype_string((*in_attrs)[1]) << " and y "
                          << mshadow::dtype_string((*in_attrs)[2]);
    }
  }
  if (t == -1) return false;
  (*in_attrs)[1] = (*in_attrs)[2] = (*out_attrs)[0] = t;
  return (*in_attrs)[0] != -1;
}

/*! \brief Elements per condition value: 1 (same shape) or the row size (1-D condition). */
inline index_t WhereGroup(const TBlob& cond, const TBlob& x) {
  return cond.Size() == x.Size() ? 1 : (cond.Size() == 0 ? 1 : x.Size() / cond.Size());
}

/*! \brief o[i] (req) = c[i / group] != 0 ? x[i] : y[i]. */
struct where_forward {
  template <typename DType, typename CType>
  MSHADOW_XINLINE static void Map(index_t i, const CType* c, const DType* x, const DType* y,
                                  DType* o, index_t group, int req) {
    KERNEL_ASSIGN(o[i], req, static_cast<double>(c[i / group]) != 0 ? x[i] : y[i]);
  }
};

/*! \brief dx[i], dy[i] (req) from ograd g: the gradient goes to the chosen side. */
struct where_backward {
  template <typename DType, typename CType>
  MSHADOW_XINLINE static void Map(index_t i, const CType* c, const DType* g, DType* dx,
                                  DType* dy, index_t group, int req_x, int req_y) {
    const bool take_x = static_cast<double>(c[i / group]) != 0;
    const DType gv = g[i];  // read before writing: dx/dy may share memory with ograd
    if (dx) KERNEL_ASSIGN(dx[i], req_x, take_x ? gv : DType(0));
    if (dy) KERNEL_ASSIGN(dy[i], req_y, take_x ? DType(0) : gv);
  }
};

template <typename xpu>
void WhereOpForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const TBlob& cond = inputs[0];
  const index_t n = static_cast<index_t>(outputs[0].Size());
  const index_t group = WhereGroup(cond, inputs[1]);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    MSHADOW_TYPE_SWITCH_WITH_BOOL(cond.type_flag_, CType, {
      mxnet_op::Kernel<where_forward, xpu>::Launch(
          ctx.get_stream<xpu>(), n, static_cast<const CType*>(cond.dptr<CType>()),
          static_cast<const DType*>(inputs[1].dptr<DType>()),
          static_cast<const DType*>(inputs[2].dptr<DType>()), outputs[0].dptr<DType>(), group,
          static_cast<int>(req[0]));
    });
  });
}

/*! \brief inputs (ograd, condition) -> (dx, dy). */
template <typename xpu>
void WhereOpBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  const TBlob& og = inputs[0];
  const TBlob& cond = inputs[1];
  const index_t n = static_cast<index_t>(og.Size());
  const index_t group = WhereGroup(cond, og);
  MSHADOW_TYPE_SWITCH(og.type_flag_, DType, {
    MSHADOW_TYPE_SWITCH_WITH_BOOL(cond.type_flag_, CType, {
      DType* dx = req[0] == kNullOp ? nullptr : outputs[0].dptr<DType>();
      DType* dy = req[1] == kNullOp ? nullptr : outputs[1].dptr<DType>();
      mxnet_op::Kernel<where_backward, xpu>::Launch(
          ctx.get_stream<xpu>(), n, static_cast<const CType*>(cond.dptr<CType>()),
          static_cast<const DType*>(og.dptr<DType>()), dx, dy, group, static_cast<int>(req[0]),
          static_cast<int>(req[1]));
    });
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_CONTROL_FLOW_OP_INL_H_
