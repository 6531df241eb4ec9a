/*!
 * \file moments-inl.h
 * \brief moments' parameters and axis check, shared by moments.cc and moments.cu.
 */
#ifndef MXNET_OPERATOR_NN_MOMENTS_INL_H_
#define MXNET_OPERATOR_NN_MOMENTS_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <vector>

#include "../operator_common.h"

namespace mxnet {
namespace op {

struct MomentsParam : public dmlc::Parameter<MomentsParam> {
  dmlc::optional<mxnet::TShape> axes;
  bool keepdims;
  DMLC_DECLARE_PARAMETER(MomentsParam) {
    DMLC_DECLARE_FIELD(axes).set_default(dmlc::optional<mxnet::TShape>())
        .describe("Array of ints. Axes along which to compute mean and variance.");
    DMLC_DECLARE_FIELD(keepdims).set_default(false)
        .describe("produce moments with the same dimensionality as the input.");
  }
};

/*! \brief Which axes of `shape` are reduced (validated, negatives resolved). */
inline std::vector<bool> ReducedAxes(const MomentsParam& p, const mxnet::TShape& shape) {
  if (!p.axes.has_value() || p.axes.value().ndim() <= 0) {
    MX_THROW(ValueError) << "moments: empty axes is not supported; for global moments pass "
                         << "every axis in axes (data shape " << shape << ")";
  }
  std::vector<bool> reduced(shape.ndim(), false);
  {
    for (dim_t a : p.axes.value()) {
      const dim_t axis = a < 0 ? a + shape.ndim() : a;
      if (axis < 0 || axis >= shape.ndim()) {
        MX_THROW(ValueError) << "moments: axis " << a << " is out of range for data of shape "
                             << shape;
      }
      if (reduced[axis]) {
        MX_THROW(ValueError) << "moments: axis " << a << " is given twice in axes="
                             << p.axes.value();
      }
      reduced[axis] = true;
    }
  }
  return reduced;
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_MOMENTS_INL_H_
