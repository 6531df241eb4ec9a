/*!
 * \file mxnet/executor.h
 * \brief A symbol bound to arrays: forward and backward over a planned, pre-built graph.
 *
 *   std::vector<NDArray> args = {data, weight}, grads = {NDArray(), wgrad};
 *   std::vector<OpReqType> reqs = {kNullOp, kWriteTo};
 *   std::unique_ptr<Executor> ex(Executor::Bind(sym, Context::CPU(), {}, args, grads, reqs, {}));
 *   ex->Forward(true);
 *   ex->Backward({head_grad});          // fills wgrad
 *   NDArray out = ex->outputs()[0];
 *
 * Bind infers every shape and dtype, builds the gradient graph for arguments whose req is not
 * kNullOp, plans memory (in-place and shared buffers) and creates one engine operator per node;
 * Forward/Backward only push those operators.
 */
#ifndef MXNET_EXECUTOR_H_
#define MXNET_EXECUTOR_H_

#include <mxnet/base.h>
#include <mxnet/ndarray.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/symbolic.h>

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace mxnet {

class MXNET_DLL Executor {
 public:
  virtual ~Executor() = default;
  /*! \brief Push the forward operators (is_train: training mode for dropout, batch norm...). */
  virtual void Forward(bool is_train) = 0;
  /*!
   * \brief Push the backward operators. head_grads: one per output, or empty when every
   *        output whose gradient is needed comes from a loss operator.
   */
  virtual void Backward(const std::vector<NDArray>& head_grads, bool is_train = true) = 0;
  /*! \brief Symbol, memory and operator summary (debug_str). */
  virtual void Print(std::ostream& os) const = 0;
  virtual const std::vector<NDArray>& outputs() const = 0;
  virtual const std::vector<NDArray>& arg_arrays() const = 0;
  virtual const std::vector<NDArray>& grad_arrays() const = 0;
  virtual const std::vector<NDArray>& aux_arrays() const = 0;
  virtual const std::vector<OpReqType>& grad_reqs() const = 0;
  virtual const nnvm::Symbol& symbol() const = 0;
  /*!
   * \brief Call `callback(name, array)` after each operator is pushed during Forward/Backward,
   *        for its outputs ("<node>_<output>") and, with monitor_all, its inputs
   *        ("<node>_<input>"). The array is a new reference; reading it waits for the op.
   */
  virtual void SetMonitorCallback(std::function<void(const char*, const NDArray&)> callback,
                                  bool monitor_all) = 0;
  /*!
   * \brief Segment sizes other than the MXNET_EXEC_BULK_EXEC_* settings (a CachedOp's
   *        forward_bulk_size/backward_bulk_size flags). Forward applies to training and
   *        inference runs; below 2 turns bulking off for that direction.
   */
  virtual void SetBulkSizes(int forward, int backward) = 0;

  /*!
   * \brief Bind `symbol` to arrays given in list_arguments / list_auxiliary_states order.
   *        arg_grads[i] may be none when grad_req[i] is kNullOp. shared_exec (may be null)
   *        lends its internal memory blocks.
   */
  /*!
   * \brief Storage types simple_bind gives the gradient arrays: inferred over the gradient
   *        graph with arguments of `arg_stypes` (kUndefinedStorage: the variable's stype
   *        attribute, else dense); undefined where grad_reqs is kNullOp.
   */
  static std::vector<int> InferGradStorageTypes(const nnvm::Symbol& symbol,
                                                const std::vector<int>& arg_stypes,
                                                const std::vector<OpReqType>& grad_reqs);
  static Executor* Bind(const nnvm::Symbol& symbol, const Context& ctx,
                        const std::map<std::string, Context>& group2ctx,
                        const std::vector<NDArray>& in_args,
                        const std::vector<NDArray>& arg_grads,
                        const std::vector<OpReqType>& grad_reqs,
                        const std::vector<NDArray>& aux_states, Executor* shared_exec = nullptr);
};

}  // namespace mxnet

#endif  // MXNET_EXECUTOR_H_
