/*!
 * \file v1_aliases.cc
 * \brief The first-generation layers MXNet 1.9.1 still registers as Convolution_v1, Pooling_v1
 *        and BatchNorm_v1, so that symbol files written by MXNet 0.x load and run. Their
 *        parameters are a subset of today's operators' and they compute the same function, so
 *        here they are names of the current operators.
 */
#include <nnvm/op.h>

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(Convolution).add_alias("Convolution_v1");
NNVM_REGISTER_OP(Pooling).add_alias("Pooling_v1");
NNVM_REGISTER_OP(BatchNorm).add_alias("BatchNorm_v1");

}  // namespace op
}  // namespace mxnet
