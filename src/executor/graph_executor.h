/*!
 * \file graph_executor.h
 * \brief GraphExecutor: the Executor implementation. One OpNode per operator node holds
 *        everything a step needs (blobs, reqs, resources, state, engine operators), so a
 *        forward or backward pass is a loop of Engine::Push calls. The engine operators own
 *        their OpNode (shared), so deleting an executor with runs pending is safe.
 */
#ifndef MXNET_EXECUTOR_GRAPH_EXECUTOR_H_
#define MXNET_EXECUTOR_GRAPH_EXECUTOR_H_

#include <mxnet/executor.h>
#include <mxnet/resource.h>
#include <nnvm/graph.h>
#include <nnvm/graph_passes.h>

#include "./exec_core.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mxnet {
namespace exec {

/*! \brief What one operator node needs on every run. */
struct OpNode {
  const nnvm::Node* node{nullptr};
  /*! \brief Keeps `node` alive while runs are pending after the executor is deleted. */
  nnvm::ObjectPtr node_ref;
  /*! \brief What runs, chosen by the execution core; FComputeEx runs on in/out_arrays. */
  OpKernel kernel;
  std::vector<NDArray> in_arrays, out_arrays;
  /*!
   * \brief Storage fallback: (sparse input, dense copy) cast before the dense kernel and
   *        (dense result, sparse output) cast after it.
   */
  std::vector<std::pair<NDArray, NDArray>> pre_casts, post_casts;
  OpStatePtr state;
  std::vector<TBlob> in_blobs, out_blobs;
  /*! \brief References keeping the blobs' memory alive while runs are pending. */
  std::vector<NDArray> arrays;
  std::vector<OpReqType> req;
  OpContext opctx;  // requested resources filled at bind; run_ctx/is_train set per run
  std::vector<engine::VarHandle> read_vars, write_vars;
  /*! \brief Engine operators: [0] training run, [1] inference run (backward uses [0]). */
  engine::OprHandle opr[2]{nullptr, nullptr};
};

class SegmentGraph;  // cuda_graphs.h

/*!
 * \brief Consecutive synchronous operator nodes pushed as one engine operator (MXNet's op
 *        bulking): one dependency check and one worker hand-off instead of one per node.
 *        The segment reads and writes the union of its members' variables. On a GPU with
 *        MXNET_ENABLE_CUDA_GRAPHS=1 it runs as a CUDA graph (cuda_graphs.h).
 */
struct OpSegment {
  uint32_t begin{0}, end{0};  // node ids [begin, end)
  engine::OprHandle opr{nullptr};
};

class GraphExecutor : public Executor {
 public:
  GraphExecutor() = default;
  ~GraphExecutor() override;

  /*! \brief Bind: the arrays' shapes and dtypes seed the graph's inference. */
  void Init(const nnvm::Symbol& symbol, const Context& ctx, const std::vector<NDArray>& in_args,
            const std::vector<NDArray>& arg_grads, const std::vector<OpReqType>& grad_reqs,
            const std::vector<NDArray>& aux_states, GraphExecutor* shared_exec);

  /*!
   * \brief simple_bind's first half: the graph (gradients where grad_reqs is not null) and
   *        its shapes and dtypes, inferred once from what `seed` fills in on its entries
   *        (argument and aux dtypes still unknown after a first pass become float32). The
   *        arguments' and aux states' results are then read with arg_attrs / aux_attrs.
   */
  using SeedFn =
      std::function<void(const nnvm::IndexedGraph&, ShapeVector*, std::vector<int>*)>;
  void Plan(const nnvm::Symbol& symbol, const Context& ctx,
            const std::vector<OpReqType>& grad_reqs, const SeedFn& seed);
  /*! \brief After Plan: (shape, dtype) of argument i / aux state i. */
  std::pair<TShape, int> arg_attrs(size_t i) const { return EntryAttrs(arg_nodes_[i]); }
  std::pair<TShape, int> aux_attrs(size_t i) const { return EntryAttrs(aux_nodes_[i]); }
  /*!
   * \brief simple_bind's second half: bind the arrays allocated from Plan's results (their
   *        shapes and dtypes are not inferred again), then as Init.
   */
  void Finish(const std::vector<NDArray>& in_args, const std::vector<NDArray>& arg_grads,
              const std::vector<NDArray>& aux_states, GraphExecutor* shared_exec);

  void Forward(bool is_train) override;
  void Backward(const std::vector<NDArray>& head_grads, bool is_train) override;
  void Print(std::ostream& os) const override;
  const std::vector<NDArray>& outputs() const override { return outputs_; }
  const std::vector<NDArray>& arg_arrays() const override { return in_args_; }
  const std::vector<NDArray>& grad_arrays() const override { return arg_grads_; }
  const std::vector<NDArray>& aux_arrays() const override { return aux_states_; }
  const std::vector<OpReqType>& grad_reqs() const override { return grad_reqs_; }
  const nnvm::Symbol& symbol() const override { return symbol_; }
  void SetMonitorCallback(std::function<void(const char*, const NDArray&)> callback,
                          bool monitor_all) override;
  void SetBulkSizes(int forward, int backward) override;
  /*!
   * \brief Storage types of the gradients of `symbol`'s arguments (undefined where grad_reqs
   *        is null) when its arguments have `arg_stypes` (undefined: the variable's
   *        __storage_type__ attribute, else dense): what simple_bind allocates.
   */
  static std::vector<int> InferGradStorageTypes(const nnvm::Symbol& symbol,
                                                const std::vector<int>& arg_stypes,
                                                const std::vector<OpReqType>& grad_reqs);
  /*! \brief Storage type of each node entry (for tests and debug_str). */
  const std::vector<int>& entry_storage_types() const { return stypes_; }
  /*! \brief The memory blocks of the plan (lent to executors bound with shared_exec). */
  const std::vector<NDArray>& memory_pool() const { return pool_; }

 private:
  /*! \brief The symbol and its argument / aux variable nodes. */
  void SetSymbol(const nnvm::Symbol& symbol, const Context& ctx);
  /*! \brief Checks and keeps the bound arrays (a req with no gradient array becomes null). */
  void SetArrays(const std::vector<NDArray>& in_args, const std::vector<NDArray>& arg_grads,
                 const std::vector<OpReqType>& grad_reqs,
                 const std::vector<NDArray>& aux_states);
  void BuildGraph();
  /*!
   * \brief shapes_/dtypes_ of every entry from those already set (forward outputs first, then
   *        the head gradients take their shapes, then everything). default_float32: argument
   *        and aux dtypes unknown after the first pass become float32 (simple_bind).
   */
  void InferShapesTypes(bool default_float32);
  /*! \brief Storage types and dispatch modes; throws if a shape or dtype stayed unknown. */
  void InferStorage();
  std::pair<TShape, int> EntryAttrs(const nnvm::ObjectPtr& var) const;
  void AllocateEntries(GraphExecutor* shared_exec);
  void CreateOpNodes();
  /*! \brief Group nodes into bulk segments (MXNET_EXEC_BULK_EXEC_* settings). */
  void CreateSegments();
  void BuildSegments(uint32_t begin, uint32_t end, int max_nodes, bool is_train,
                     std::vector<OpSegment>* segments);
  std::shared_ptr<SegmentGraph> MakeSegmentGraph(const std::vector<std::shared_ptr<OpNode>>& nodes,
                                                 bool is_train) const;
  /*! \brief Push nodes [begin, end) of one pass, bulked when nothing needs per-node pushes. */
  void PushNodes(uint32_t begin, uint32_t end, int variant,
                 const std::vector<OpSegment>& segments);
  /*! \brief Report node nid's arrays to the monitor callback. */
  void RunMonitor(uint32_t nid);

  Context ctx_;
  nnvm::Symbol symbol_;
  nnvm::Graph graph_;
  std::vector<nnvm::ObjectPtr> arg_nodes_, aux_nodes_;
  std::vector<NDArray> in_args_, arg_grads_, aux_states_, outputs_;
  std::vector<OpReqType> grad_reqs_;
  /*! \brief Per output: the head-gradient variable node (null when not needed). */
  std::vector<nnvm::ObjectPtr> head_grad_nodes_;
  std::vector<NDArray> head_grad_arrays_;
  /*! \brief Per output: produced by a loss op (its head gradient defaults to ones). */
  std::vector<bool> head_is_loss_;
  /*! \brief Per output: the head-gradient array currently holds the default ones. */
  std::vector<bool> head_holds_ones_;
  /*! \brief Argument index of each gradient output of the graph. */
  std::vector<uint32_t> grad_arg_index_;
  size_t num_forward_outputs_{0};
  uint32_t num_forward_nodes_{0};
  mxnet::ShapeVector shapes_;
  std::vector<int> dtypes_;
  /*! \brief Storage type per entry and dispatch mode per node (infer_storage.h). */
  std::vector<int> stypes_;
  std::vector<DispatchMode> dispatch_modes_;
  nnvm::pass::MemoryPlan plan_;
  std::vector<NDArray> data_entry_;
  std::vector<NDArray> pool_;
  std::vector<std::shared_ptr<OpNode>> op_nodes_;
  /*! \brief Bulk segments of two or more nodes, in node order, per kind of pass. */
  std::vector<OpSegment> train_forward_segments_, inference_segments_, backward_segments_;
  std::function<void(const char*, const NDArray&)> monitor_callback_;
  bool monitor_all_{false};  // indexed by node id (null for variables)
};

/*! \brief Throws unless the executor can run on ctx with group2ctx (one device only). */
void CheckBindDevice(const Context& ctx, const std::map<std::string, Context>& group2ctx);

}  // namespace exec
}  // namespace mxnet

#endif  // MXNET_EXECUTOR_GRAPH_EXECUTOR_H_
