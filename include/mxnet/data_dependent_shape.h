/*!
 * \file data_dependent_shape.h
 * \brief FDataDependentShape: the op attribute of operators whose output shapes depend on input
 *        values (e.g. _contrib_boolean_mask). An imperative call waits for the inputs, calls it
 *        with their data, then runs FInferShape with these output shapes filled in. Symbolic
 *        graphs cannot infer such shapes.
 */
#ifndef MXNET_DATA_DEPENDENT_SHAPE_H_
#define MXNET_DATA_DEPENDENT_SHAPE_H_

#include <mxnet/tensor_blob.h>
#include <mxnet/tuple.h>
#include <nnvm/node.h>

#include <functional>
#include <vector>

namespace mxnet {

using FDataDependentShape = std::function<void(const nnvm::NodeAttrs& attrs,
                                               const std::vector<TBlob>& inputs,
                                               mxnet::ShapeVector* out_shapes)>;

}  // namespace mxnet

#endif  // MXNET_DATA_DEPENDENT_SHAPE_H_
