/*!
 * \file cached_op.h
 * \brief CachedOp: a symbol run as one operator (the engine of Gluon's hybridize).
 *
 *   auto op = std::make_shared<CachedOp>(sym, {{"static_alloc", "true"}});
 *   std::vector<NDArray> outs = op->Forward({&data, &weight, &bias});   // list_inputs order
 *
 * Each call is executed by a GraphExecutor bound for the call's shape signature (input shapes,
 * dtypes and which inputs need a gradient): shape/type inference, the gradient graph and the
 * nnvm memory plan are done once per signature and the bound executor is reused by later calls.
 * A bound executor that autograd still holds (its forward values are needed by a pending
 * backward) is never reused; another one is bound instead, as MXNet's CachedOp does.
 *
 * Inputs are bound by reference when the caller passes the same arrays on every call
 * (parameters, auxiliary states: BatchNorm updates its moving statistics in place); a slot whose
 * array changes between calls (the data batch) is bound to a private array the input is copied
 * into. Under autograd.record() the call is recorded as one `_CachedOp` node whose gradient
 * node `_backward_CachedOp` runs the executor's backward (see autograd.cc).
 */
#ifndef MXNET_IMPERATIVE_CACHED_OP_H_
#define MXNET_IMPERATIVE_CACHED_OP_H_

#include <mxnet/executor.h>
#include <mxnet/imperative.h>
#include <mxnet/ndarray.h>
#include <nnvm/symbolic.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mxnet {

/*! \brief The flags of MXCreateCachedOpEx (MXNet 1.x names and defaults). */
struct CachedOpConfig {
  bool static_alloc{false};
  bool static_shape{false};
  bool is_dynamic{false};
  uint32_t inline_limit{2};
  uint32_t forward_bulk_size{15};
  uint32_t backward_bulk_size{15};
  std::vector<uint32_t> data_indices;
  std::vector<uint32_t> param_indices;
  std::string subgraph;
};

class CachedOp : public std::enable_shared_from_this<CachedOp> {
 public:
  using Flags = std::vector<std::pair<std::string, std::string>>;
  /*! \brief Monitor hook: (node name, op name, array) after each operator. */
  using Hook = std::function<void(const char*, const char*, const NDArray&)>;

  /*! \brief Throws ValueError for an unknown flag name or a malformed value. */
  CachedOp(const nnvm::Symbol& sym, const Flags& flags);

  uint32_t num_inputs() const { return static_cast<uint32_t>(input_names_.size()); }
  uint32_t num_outputs() const { return static_cast<uint32_t>(sym_.outputs.size()); }
  const nnvm::Symbol& symbol() const { return sym_; }
  const CachedOpConfig& config() const { return config_; }
  /*! \brief "CachedOp(out1, out2)": how error messages name this op. */
  std::string DisplayName() const;

  /*!
   * \brief Run the graph on `inputs` (sym.list_inputs() order). `outputs` holds num_outputs()
   *        arrays: none ones are allocated, others are written. Records the call when autograd
   *        is recording and an input is part of a recorded graph.
   */
  void Forward(const std::vector<NDArray*>& inputs, const std::vector<NDArray*>& outputs);

  /*!
   * \brief Run the backward of the recorded call whose state is `state`: `ograds` are the
   *        output gradients, `igrads` receive the input gradients (none for inputs that need
   *        none). `fresh_grads`: return copies that outlive later calls (the gradients escape to
   *        the user) instead of the bound executor's gradient arrays.
   */
  static void Backward(const OpStatePtr& state, const std::vector<NDArray*>& ograds,
                       const std::vector<NDArray*>& igrads, bool is_train, bool fresh_grads);

  void RegisterOpHook(Hook hook, bool monitor_all);

 private:
  struct Bound;
  struct RecordedCall;
  std::shared_ptr<Bound> GetBound(const std::vector<NDArray*>& inputs,
                                  const std::vector<bool>& need_grad);
  std::shared_ptr<Bound> BindNew(const std::vector<NDArray*>& inputs,
                                 const std::vector<bool>& need_grad);
  void CheckInputs(const std::vector<NDArray*>& inputs) const;
  void InvokeInline(const std::vector<NDArray*>& inputs, const std::vector<NDArray*>& outputs);

  nnvm::Symbol sym_;
  CachedOpConfig config_;
  std::vector<std::string> input_names_;
  /*! \brief Per input (list_inputs order): auxiliary state or argument, and its index there. */
  std::vector<bool> input_is_aux_;
  std::vector<uint32_t> input_pos_;
  uint32_t num_args_{0}, num_aux_{0};
  size_t num_op_nodes_{0};
  /*! \brief The graph has an operator whose output shape depends on input values
   *         (FDataDependentShape): it cannot be bound ahead, so it runs op by op. */
  bool has_data_dependent_shape_{false};
  /*! \brief Per input: bind a private copy (the caller passes different arrays per call). */
  std::vector<bool> copy_input_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<Bound>> bound_;
  /*! \brief The registered hook, shared with the executors' monitor callbacks. */
  struct HookState {
    Hook fn;
    bool monitor_all{false};
    std::unordered_map<std::string, std::string> op_of_node;
  };
  void InstallHook(Bound* b) const;
  std::shared_ptr<HookState> hook_;
};

namespace cached_op {
/*! \brief True for `_backward_CachedOp` (autograd runs it through CachedOp::Backward). */
bool IsBackwardOp(const nnvm::Op* op);
}  // namespace cached_op

}  // namespace mxnet

#endif  // MXNET_IMPERATIVE_CACHED_OP_H_
