/*!
 * \file mxnet/imperative.h
 * \brief Eager operator invocation (what mx.nd.<op> calls) and the thread-local autograd flags.
 *
 *   const nnvm::Op* add = nnvm::Op::Get("elemwise_add");
 *   NDArray c;                                   // none: allocated by Invoke
 *   auto attrs = Imperative::Get()->ParseAttrs(add, 2, 0, nullptr, nullptr);
 *   Imperative::Get()->Invoke(attrs, {&a, &b}, {&c});
 *
 * Invoke parses and validates parameters, infers shapes and dtypes, allocates the outputs from
 * the pooled storage and pushes one engine function; it returns before the kernel runs. Errors
 * in parameters or inference throw here; kernel errors surface at the next wait.
 */
#ifndef MXNET_IMPERATIVE_H_
#define MXNET_IMPERATIVE_H_

#include <mxnet/ndarray.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/node.h>
#include <nnvm/op.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mxnet {

class MXNET_DLL Imperative {
 public:
  static Imperative* Get();

  /*!
   * \brief Parse string kwargs into NodeAttrs for `op` (runs the op's attribute parser; adds
   *        key_var_num_args from num_inputs unless given). Identical kwargs on repeated calls
   *        hit a per-thread cache instead of being parsed again.
   */
  std::shared_ptr<const nnvm::NodeAttrs> ParseAttrs(const nnvm::Op* op, int num_inputs,
                                                    int num_params, const char** keys,
                                                    const char** vals);

  /*!
   * \brief Run `attrs.op` on `inputs`, writing `*outputs`. If outputs is empty, every output is
   *        allocated; otherwise it must hold the total or visible output count (none arrays
   *        are allocated in place).
   * \param outputs exactly NumOutputs(attrs) arrays; none arrays get allocated.
   */
  void Invoke(const std::shared_ptr<const nnvm::NodeAttrs>& attrs,
              const std::vector<NDArray*>& inputs, const std::vector<NDArray*>& outputs);

  /*!
   * \brief Invoke without recording, for attributes owned by something else (a graph node):
   *        `keep_alive` is held until the pushed kernel has run. `state` is the forward state
   *        for a stateful backward op (nullptr otherwise); a stateful forward op stores the
   *        state it creates in `*created_state` when that is not nullptr. Outputs flagged in
   *        `*unused_outputs` get request kNullOp (nobody reads them: e.g. autograd's gradient of
   *        an input that needs none), so the kernel may skip computing them.
   */
  void InvokeOp(const nnvm::NodeAttrs& attrs, std::shared_ptr<const void> keep_alive,
                const std::vector<NDArray*>& inputs, const std::vector<NDArray*>& outputs,
                const OpStatePtr* state = nullptr, OpStatePtr* created_state = nullptr,
                const std::vector<bool>* unused_outputs = nullptr);

  /*!
   * \brief InvokeOp for an op that cannot compute on the given sparse arrays: runs it on dense
   *        copies, then casts results back into sparse outputs / mutated sparse inputs.
   */
  void InvokeWithStorageFallback(const nnvm::NodeAttrs& attrs,
                                 std::shared_ptr<const void> keep_alive,
                                 const std::vector<NDArray*>& inputs,
                                 const std::vector<NDArray*>& outputs,
                                 const OpStatePtr* state, OpStatePtr* created_state,
                                 const std::vector<bool>* unused_outputs);

  // ---- autograd (src/imperative/autograd.cc)

  /*!
   * \brief Record one op call on the autograd tape when an input is part of a recorded graph:
   *        a node with `attrs`, entries of the inputs (constants become new variables) and the
   *        outputs' entries set on `outputs`. No-op if no input needs a gradient.
   */
  void RecordOp(const nnvm::NodeAttrs& attrs, const std::vector<NDArray*>& inputs,
                const std::vector<NDArray*>& outputs, const OpStatePtr& state = OpStatePtr());
  /*!
   * \brief Make each array a variable of the autograd graph with a gradient buffer and request
   *        (grad_reqs: 0 null, 1 write, 3 add; as OpReqType).
   */
  void MarkVariables(const std::vector<NDArray*>& variables, const std::vector<uint32_t>& grad_reqs,
                     const std::vector<NDArray*>& gradients);
  /*!
   * \brief Backpropagate from `outputs` (head gradients `ograds`, nullptr = ones). With empty
   *        `variables`, gradients go into the marked variables' buffers (per request) and an empty
   *        vector is returned; otherwise new arrays with the gradients of `variables` are
   *        returned. `create_graph` records the backward computation (higher order);
   *        `retain_graph` false releases the recorded forward graph.
   */
  std::vector<NDArray> Backward(const std::vector<NDArray*>& outputs,
                                const std::vector<NDArray*>& ograds,
                                const std::vector<NDArray*>& variables, bool is_train,
                                bool retain_graph, bool create_graph);
  /*! \brief The gradient buffer attached to `arr` (none array if it is not a marked variable). */
  static NDArray GetGrad(const NDArray& arr);
  /*! \brief The "fresh gradient" flag of a marked variable (false if not marked). */
  static bool GetGradState(const NDArray& arr);
  static void SetGradState(const NDArray& arr, bool fresh);
  /*! \brief True when arr is part of a recorded graph (a variable or a recorded op's output). */
  static bool IsRecorded(const NDArray& arr);

  /*! \brief Number of visible outputs of a node (FNumVisibleOutputs). */
  static uint32_t NumVisibleOutputs(const nnvm::NodeAttrs& attrs);
  static uint32_t NumOutputs(const nnvm::NodeAttrs& attrs);
  static uint32_t NumInputs(const nnvm::NodeAttrs& attrs);

  bool is_recording() const { return is_recording_; }
  bool set_is_recording(bool on) {
    bool prev = is_recording_;
    is_recording_ = on;
    return prev;
  }
  bool is_training() const { return is_train_; }
  bool set_is_training(bool on) {
    bool prev = is_train_;
    is_train_ = on;
    return prev;
  }

 private:
  static thread_local bool is_recording_;
  static thread_local bool is_train_;
};

}  // namespace mxnet

#endif  // MXNET_IMPERATIVE_H_
