/*!
 * \file nnvm/gradient.h
 * \brief The gradient pass: builds the backward graph of a node DAG from the operators'
 *        FGradient attributes. Used by the graph executor (bind) and by autograd (Backward).
 *
 *   // y = f(x, w); dy is the head gradient (a variable, or any entry)
 *   std::vector<nnvm::NodeEntry> grads = nnvm::Gradient({y}, {x, w}, {dy});
 *   // grads[0] is an entry computing dL/dx, grads[1] dL/dw (a zeros_like node when w does
 *   // not influence y). Walk the DAG from grads to execute them.
 *
 * Rules: contributions of an entry read by several consumers are summed with one aggregation
 * node (ElementWiseSum); an output without gradient contributions gets zeros_like(output);
 * nodes not depending on any x are not differentiated; inputs an op mutates (FMutateInputs,
 * auxiliary states) receive no gradient; TNonDifferentiable ops (or ops without FGradient whose
 * output gradients are all zeros) pass none; an op without FGradient that needs one is an error
 * naming the operator and the node. The returned entries are distinct from each other and from
 * any variable (a copy node is inserted where a gradient would otherwise alias one).
 */
#ifndef NNVM_GRADIENT_H_
#define NNVM_GRADIENT_H_

#include <nnvm/node.h>

#include <functional>
#include <string>
#include <vector>

namespace nnvm {

/*! \brief Operator names and hooks used by Gradient. */
struct GradientOptions {
  /*! \brief Variadic op summing several contributions (alias of add_n, reads num_args). */
  std::string aggregate_op = "ElementWiseSum";
  /*! \brief Op making a zero array shaped like its input. */
  std::string zeros_op = "zeros_like";
  /*! \brief Identity op used to keep returned gradients distinct. */
  std::string copy_op = "_copy";
  /*!
   * \brief Optional: called for every node the pass creates (aggregation, zeros, copies) and for
   *        every backward node returned by FGradient, e.g. to attach attributes. May be empty.
   */
  std::function<void(const ObjectPtr& node)> on_new_node;
};

/*!
 * \brief The gradients of sum_i <ys[i], ys_out_grads[i]> with respect to each of xs.
 * \param ys the outputs (heads) to differentiate.
 * \param xs entries to differentiate with respect to (usually variables).
 * \param ys_out_grads one head gradient entry per y (same size as ys).
 * \return one gradient entry per x.
 * \throws dmlc::Error (NotImplementedError) naming the op when a needed FGradient is missing,
 *         ValueError on size mismatches.
 */
std::vector<NodeEntry> Gradient(const std::vector<NodeEntry>& ys, const std::vector<NodeEntry>& xs,
                                const std::vector<NodeEntry>& ys_out_grads,
                                const GradientOptions& options = GradientOptions());

/*!
 * \brief Every node reachable from `heads` (through inputs and control dependencies), each once,
 *        in topological order (a node after everything it reads). Iterative: deep graphs are fine.
 */
std::vector<ObjectPtr> TopoSortNodes(const std::vector<NodeEntry>& heads);

/*!
 * \brief For a backward node `bwd` whose forward node is `fwd` (bwd->control_deps[0]): the
 *        forward input each output of bwd is the gradient of (-1: none). Outputs map 1:1 when
 *        the counts agree; otherwise the forward op's FGradient is asked which outputs of a node
 *        of bwd's op it returns for each input (nnvm's rule for inferring backward shapes).
 */
std::vector<int> BackwardOutputToForwardInput(const Node& bwd, const ObjectPtr& fwd);

}  // namespace nnvm

#endif  // NNVM_GRADIENT_H_
