/*!
 * \file group_norm-inl.h
 * \brief GroupNorm's parameters and row geometry, shared by group_norm.cc and group_norm.cu.
 */
#ifndef MXNET_OPERATOR_NN_GROUP_NORM_INL_H_
#define MXNET_OPERATOR_NN_GROUP_NORM_INL_H_

#include <algorithm>

#include "./layer_norm-inl.h"

namespace mxnet {
namespace op {

struct GroupNormParam : public dmlc::Parameter<GroupNormParam> {
  int num_groups;
  float eps;
  bool output_mean_var;
  DMLC_DECLARE_PARAMETER(GroupNormParam) {
    DMLC_DECLARE_FIELD(num_groups).set_default(1).describe("Total number of groups.");
    DMLC_DECLARE_FIELD(eps).set_default(1e-5f)
        .describe("An `epsilon` parameter to prevent division by 0.");
    DMLC_DECLARE_FIELD(output_mean_var).set_default(false)
        .describe("Output the mean and std calculated along the given axis.");
  }
};

/*! \brief Rows (n, g): the channels of group g and their spatial elements, contiguous. */
inline NormRows GroupNormRows(const mxnet::TShape& shape, int groups) {
  NormRows g;
  g.rows = static_cast<index_t>(shape[0]) * groups;
  g.len = shape.Size() / std::max<index_t>(g.rows, 1);
  g.inner = 1;
  return g;
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_GROUP_NORM_INL_H_
