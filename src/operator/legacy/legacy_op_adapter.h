/*!
 * \file legacy_op_adapter.h
 * \brief How a legacy OperatorProperty becomes an nnvm::Op: the parsed node attribute
 *        (ParsedOpProp) and the per-node state holding the Operator (LegacyOpState).
 *
 * RegisterLegacyOp(reg) (called from OperatorPropertyReg::check_name) registers
 *   <name>:            parser -> ParsedOpProp; inputs = arguments + aux states; FListInputNames,
 *                      FListOutputNames, FNumVisibleOutputs, FInferShape, FInferType,
 *                      FMutateInputs (aux), FInplaceOption, FResourceRequest, FExecType,
 *                      FCreateOpState, FStatefulCompute<cpu>, FGradient.
 *   _backward_<name>:  inputs = the arrays DeclareBackwardDependency names, then the aux
 *                      states; outputs = one gradient per argument; TIsBackward,
 *                      TIsLayerOpBackward, its own FResourceRequest/FInplaceOption, and shape/
 *                      type inference + FCreateOpState so it can also be called directly.
 */
#ifndef MXNET_OPERATOR_LEGACY_LEGACY_OP_ADAPTER_H_
#define MXNET_OPERATOR_LEGACY_LEGACY_OP_ADAPTER_H_

#include <mxnet/operator.h>
#include <nnvm/node.h>

#include <memory>
#include <string>
#include <vector>

namespace mxnet {
namespace op {

/*! \brief What the attribute parser of a legacy op stores in NodeAttrs::parsed. */
struct ParsedOpProp {
  std::shared_ptr<OperatorProperty> ptr;
  std::vector<std::string> arguments;
  std::vector<std::string> aux_states;
  std::vector<std::string> outputs;
  int num_outputs{0};
  int num_visible_outputs{0};
  /*!
   * \brief The backward dependencies as ids: out_grad [0, n_vis), in_data
   *        [n_vis, n_vis + n_args), out_data [n_vis + n_args, n_vis + n_args + n_out).
   */
  std::vector<int> backward_deps;
  int out_grad_id(int i) const { return i; }
  int in_data_id(int i) const { return num_visible_outputs + i; }
  int out_data_id(int i) const { return num_visible_outputs + static_cast<int>(arguments.size()) + i; }
};

/*! \brief Per-node state: the Operator created by the property. */
struct LegacyOpState {
  std::shared_ptr<Operator> opr;
};

/*! \brief Register the nnvm ops of a legacy operator. */
void RegisterLegacyOp(OperatorPropertyReg* reg);

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_LEGACY_LEGACY_OP_ADAPTER_H_
