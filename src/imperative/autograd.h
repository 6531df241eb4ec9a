/*!
 * \file autograd.h
 * \brief What autograd keeps on a recorded node (AGInfo, stored in Node::info) and the hooks of
 *        the custom autograd function (mx.autograd.Function).
 */
#ifndef MXNET_IMPERATIVE_AUTOGRAD_H_
#define MXNET_IMPERATIVE_AUTOGRAD_H_

#include <mxnet/base.h>
#include <mxnet/ndarray.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/node.h>

#include <vector>

namespace mxnet {

/*! \brief Autograd data of a recorded node. A node whose info is empty is not (or no longer) in
 *         a recorded graph. */
struct AGInfo {
  Context ctx;
  /*! \brief Variables: how their gradient is written (null/write/add). */
  OpReqType grad_req{kNullOp};
  /*! \brief Op nodes: the output values (kept for backward). Variables: the variable itself. */
  std::vector<NDArray> outputs;
  /*! \brief Variables: the attached gradient buffer. */
  std::vector<NDArray> out_grads;
  /*! \brief State of a stateful op (its backward runs on it). */
  OpStatePtr state;
  /*! \brief Set when backward wrote the gradient buffer (the "fresh gradient" flag). */
  bool fresh_out_grad{false};

  /*! \brief The AGInfo of `node`, or nullptr. */
  static AGInfo* Find(const nnvm::Node* node);
  /*! \brief Attach a new AGInfo to `node` (replacing any). */
  static AGInfo& Create(const nnvm::ObjectPtr& node);
};

namespace custom_function {
/*! \brief True for the backward op of a recorded autograd.Function. */
bool IsBackwardOp(const nnvm::Op* op);
/*!
 * \brief Run the frontend backward callback of a recorded Function synchronously on the calling
 *        thread: `inputs` are the output gradients, `outputs` (allocated here) the input
 *        gradients.
 */
void RunBackward(const nnvm::ObjectPtr& node, const std::vector<NDArray*>& inputs,
                 const std::vector<NDArray*>& outputs, bool is_train);
}  // namespace custom_function

}  // namespace mxnet

#endif  // MXNET_IMPERATIVE_AUTOGRAD_H_
