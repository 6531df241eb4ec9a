/*!
 * \file custom-inl.h
 * \brief The `Custom` operator: operators written in a frontend language (Python CustomOp,
 *        API.md §4) and registered through MXCustomOpRegister.
 *
 * A node's attribute parser calls the registered creator of `op_type`, which returns the
 * property callbacks (list arguments/outputs/aux, infer shape/type, backward dependencies,
 * create operator). Forward and backward are asynchronous engine operations (FExecType
 * kAsync): the engine function queues the frontend callback on a dedicated worker pool
 * (CustomOperator) and returns, so a frontend callback that itself pushes operators, waits, or
 * copies to host cannot block an engine worker that its own work needs. The callback sees new
 * NDArrays over the operation's memory (with their own engine variables); when it returns, an
 * engine operation that waits for everything it pushed on those arrays completes the Custom
 * operation, reporting the callback's error (if any) on the outputs.
 */
#ifndef MXNET_OPERATOR_CUSTOM_CUSTOM_INL_H_
#define MXNET_OPERATOR_CUSTOM_CUSTOM_INL_H_

#include <mxnet/c_api.h>
#include <mxnet/ndarray.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace mxnet {
namespace op {
namespace custom {

/*! \brief The registry of custom operator creators and the worker pool running callbacks. */
class CustomOperator {
 public:
  static CustomOperator* Get();

  /*! \brief Register (or replace, with a warning) the creator of op_type. */
  void Register(const std::string& op_type, CustomOpPropCreator creator);
  /*! \brief The creator of op_type, or nullptr. */
  CustomOpPropCreator Find(const std::string& op_type);

  /*!
   * \brief Run `fn` on a worker thread with autograd recording off and
   *        training = `training`, then complete the asynchronous operation of `ctx` once every
   *        engine operation pushed on `arrays` has finished. An exception from fn, or an error
   *        left on one of the arrays, is reported through ctx.async_on_complete.
   */
  void Push(std::function<void()> fn, const OpContext& ctx, bool training,
            std::vector<NDArray> arrays);

  /*! \brief Frontend callbacks are unusable from now on (process shutdown). */
  void Stop() { stopped_.store(true); }
  bool stopped() const { return stopped_.load(); }

 private:
  CustomOperator();
  void WorkerLoop();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  static constexpr int kIdleWorkerSeconds = 10;
  size_t idle_{0};
  size_t num_workers_{0};
  size_t max_workers_{16};  // MXNET_CUSTOM_OP_NUM_THREADS
  std::atomic<bool> stopped_{false};
  std::mutex registry_mu_;
  std::unordered_map<std::string, CustomOpPropCreator> registry_;
};

/*! \brief What the attribute parser of `Custom` stores in NodeAttrs::parsed. */
struct CustomParam {
  std::string op_type;
  std::vector<std::string> arguments;
  std::vector<std::string> outputs;
  std::vector<std::string> aux_states;
  /*!
   * \brief The backward inputs as ids: out_grad [0, n_out), in_data [n_out, n_out + n_args),
   *        out_data [n_out + n_args, 2 n_out + n_args).
   */
  std::vector<int> bwd_idx;
  /*! \brief The property callbacks (frontend-owned); deleted with the last copy. */
  std::shared_ptr<MXCallbackList> info;

  size_t num_args() const { return arguments.size(); }
  size_t num_outs() const { return outputs.size(); }
  size_t num_auxs() const { return aux_states.size(); }
};

/*! \brief Stop using frontend callbacks (called by MXNotifyShutdown). */
void NotifyShutdown();

}  // namespace custom
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CUSTOM_CUSTOM_INL_H_
