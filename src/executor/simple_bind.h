/*!
 * \file simple_bind.h
 * \brief simple_bind's planning: from the shapes, dtypes and storage types the caller names,
 *        infer the rest, allocate arguments, gradients and auxiliary states (reusing a shared
 *        executor's arrays and a shared buffer where they fit), and bind.
 */
#ifndef MXNET_EXECUTOR_SIMPLE_BIND_H_
#define MXNET_EXECUTOR_SIMPLE_BIND_H_

#include <mxnet/executor.h>
#include <mxnet/ndarray.h>
#include <nnvm/graph.h>
#include <nnvm/symbolic.h>

#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace mxnet {
namespace exec {

/*! \brief What the caller of simple_bind gives besides the symbol and the device. */
struct SimpleBindSpec {
  std::map<std::string, Context> group2ctx;
  std::unordered_map<std::string, TShape> arg_shapes;  // by variable name
  std::unordered_map<std::string, int> arg_dtypes;
  std::unordered_map<std::string, int> arg_stypes;
  std::vector<OpReqType> grad_reqs;  // one per argument (ListInputNames(kReadOnlyArgs))
  std::unordered_set<std::string> shared_arg_names;  // taken from shared_exec when they fit
  Executor* shared_exec{nullptr};
  // Arrays by name that executors of one module share (read and extended); null: none.
  std::unordered_map<std::string, NDArray>* shared_buffer{nullptr};
};

/*! \brief Allocate what `spec` describes and bind (the arrays are the executor's). */
Executor* SimpleBind(const nnvm::Symbol& symbol, const Context& ctx, const SimpleBindSpec& spec);

/*! \brief A shape in the legacy convention (ndim 0 or a dimension 0 = unknown), internal form. */
TShape LegacyToShape(const TShape& s);

/*! \brief Known shapes/dtypes of the graph's variables from their __shape__ / __dtype__ attrs. */
void ApplyVariableAttrs(const nnvm::IndexedGraph& idx, ShapeVector* shapes,
                        std::vector<int>* dtypes);

}  // namespace exec
}  // namespace mxnet

#endif  // MXNET_EXECUTOR_SIMPLE_BIND_H_
