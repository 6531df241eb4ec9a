/*!
 * \file nnvm/op_attr_types.h
 * \brief Types of the graph-level operator attributes (inference, gradient, naming, in-place).
 *        Each is registered with Op::set_attr<Type>("Type", value).
 *
 *   NNVM_REGISTER_OP(my_op)
 *   .set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
 *     return std::vector<std::string>{"data", "weight"};
 *   })
 *   .set_attr<nnvm::FInplaceOption>("FInplaceOption", [](const nnvm::NodeAttrs&) {
 *     return std::vector<std::pair<int, int>>{{0, 0}};
 *   });
 */
#ifndef NNVM_OP_ATTR_TYPES_H_
#define NNVM_OP_ATTR_TYPES_H_

#include <mxnet/tuple.h>
#include <nnvm/node.h>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nnvm {

using mxnet::TShape;
using mxnet::Tuple;
using mxnet::ShapeVector;

/*! \brief Names of the inputs (auto-created variables are named <node>_<input>). */
using FListInputNames = std::function<std::vector<std::string>(const NodeAttrs& attrs)>;
/*! \brief Names of the outputs. */
using FListOutputNames = std::function<std::vector<std::string>(const NodeAttrs& attrs)>;
/*! \brief Number of user-visible outputs (the first k). */
using FNumVisibleOutputs = std::function<uint32_t(const NodeAttrs& attrs)>;
/*! \brief Indices of inputs the op writes (auxiliary states). */
using FMutateInputs = std::function<std::vector<uint32_t>(const NodeAttrs& attrs)>;
/*! \brief Indices of inputs whose values the op does not read. */
using FIgnoreInputs = std::function<std::vector<uint32_t>(const NodeAttrs& attrs)>;
/*! \brief Extra attributes of a node. */
using FGetAttrDict =
    std::function<std::unordered_map<std::string, std::string>(const NodeAttrs& attrs)>;
/*!
 * \brief Infer one attribute (shape, dtype, ...) of inputs and outputs from each other: fill
 *        what can be inferred, check consistency, return whether everything is known.
 */
template <typename AttrType>
using FInferNodeEntryAttr = std::function<bool(
    const NodeAttrs& attrs, std::vector<AttrType>* in_attrs, std::vector<AttrType>* out_attrs)>;
/*! \brief Shape inference (same type as mxnet::FInferShape). */
using FInferShape = FInferNodeEntryAttr<mxnet::TShape>;
/*! \brief dtype inference; -1 is unknown. */
using FInferType = FInferNodeEntryAttr<int>;
/*! \brief An explicit backward op: its first control dependency is the forward node. */
using TIsBackward = bool;
/*! \brief A ghost op (not executed). */
using TIsGhost = bool;
/*! \brief (input index, output index) pairs that may share memory. */
using FInplaceOption = std::function<std::vector<std::pair<int, int>>(const NodeAttrs& attrs)>;
/*! \brief Per inplace pair: the output equals the input (in-place even with other readers). */
using FInplaceIdentity = std::function<std::vector<bool>(const NodeAttrs& attrs)>;
/*!
 * \brief Gradient: given the node and the gradients of its outputs, the gradient entries of its
 *        inputs (one per input).
 */
using FGradient = std::function<std::vector<NodeEntry>(const ObjectPtr& nodeptr,
                                                       const std::vector<NodeEntry>& out_grads)>;
/*! \brief Set attributes of an input variable auto-created during compose. */
using FSetInputVarAttrOnCompose =
    std::function<void(const NodeAttrs& attrs, ObjectPtr var, const int index)>;
/*! \brief Indices of inputs that are subgraphs. */
using FInputGraph = std::function<std::vector<uint32_t>(const NodeAttrs& attrs)>;

}  // namespace nnvm

#endif  // NNVM_OP_ATTR_TYPES_H_
