/*!
 * \file nnvm/graph_passes.h
 * \brief Passes over an IndexedGraph: shape and dtype inference, memory planning.
 *
 *   mxnet::ShapeVector shapes(idx.num_node_entries());        // TShape() = unknown
 *   shapes[idx.entry_id(idx.input_nodes()[0], 0)] = TShape({2, 3});
 *   size_t unknown = nnvm::pass::InferShape(idx, &shapes);     // throws on conflicts
 *
 *   nnvm::pass::MemoryPlan plan = nnvm::pass::PlanMemory(idx, shapes, dtypes, external, keep);
 *   // plan.storage_id[eid]: block of entry eid (kExternal: bound by the caller)
 *   // plan.inplace_input[eid]: entry id eid overwrites in place, or -1
 */
#ifndef NNVM_GRAPH_PASSES_H_
#define NNVM_GRAPH_PASSES_H_

#include <mxnet/tuple.h>
#include <nnvm/graph.h>

#include <cstdint>
#include <vector>

namespace nnvm {
namespace pass {

/*!
 * \brief Fill unknown shapes (forward and backward through the ops until nothing changes).
 *        Partial: entries that stay unknown keep unknown dims (-1) or ndim -1.
 * \return the number of entries whose shape is not fully known.
 * \throws dmlc::ValueError naming the node, the input/output and both shapes on a conflict.
 */
size_t InferShape(const IndexedGraph& idx, mxnet::ShapeVector* shapes);
/*! \brief Same for dtypes (-1 unknown). Throws dmlc::TypeError on a conflict. */
size_t InferType(const IndexedGraph& idx, std::vector<int>* dtypes);

/*! \brief Result of PlanMemory. */
struct MemoryPlan {
  static constexpr int kExternal = -1;
  /*! \brief Storage block per entry, or kExternal. */
  std::vector<int> storage_id;
  /*! \brief Bytes of each block (the largest entry placed in it). */
  std::vector<size_t> storage_bytes;
  /*! \brief Per entry: the input entry it overwrites in place, or -1. */
  std::vector<int> inplace_input;
};

/*!
 * \brief Assign storage blocks to the entries of idx, executed in node-id order.
 *        An output reuses its input's block when FInplaceOption allows it and no later reader
 *        needs the input (FInplaceIdentity: even with readers); an entry takes a released
 *        block when lifetimes do not overlap. External entries (variables, user-bound
 *        gradients) get no block; `keep` entries are never released (graph outputs).
 *        Inputs listed by FIgnoreInputs do not extend lifetimes.
 */
MemoryPlan PlanMemory(const IndexedGraph& idx, const mxnet::ShapeVector& shapes,
                      const std::vector<int>& dtypes, const std::vector<bool>& external,
                      const std::vector<bool>& keep);

}  // namespace pass
}  // namespace nnvm

#endif  // NNVM_GRAPH_PASSES_H_
