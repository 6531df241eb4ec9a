/*!
 * \file mxnet/op_attr_types.h
 * \brief What operator kernels are written against: OpReqType, OpContext, OpStatePtr, and the
 *        types of the MXNet operator attributes (FCompute, FInferShape, FResourceRequest, ...).
 *
 *   template <typename xpu>
 *   void MyForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
 *                  const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
 *                  const std::vector<TBlob>& outputs) {
 *     mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
 *     if (req[0] == kNullOp) return;
 *     ...   // kWriteTo / kWriteInplace: overwrite outputs[0]; kAddTo: add to it
 *   }
 *   NNVM_REGISTER_OP(my_op).set_attr<FCompute>("FCompute<cpu>", MyForward<cpu>);
 *
 * Stateful ops keep per-node state in an OpStatePtr:
 *   OpStatePtr st = OpStatePtr::Create<MyState>(args...);
 *   st.get_state<MyState>().step += 1;
 */
#ifndef MXNET_OP_ATTR_TYPES_H_
#define MXNET_OP_ATTR_TYPES_H_

#include <mxnet/base.h>
#include <mxnet/engine.h>
#include <mxnet/tensor_blob.h>
#include <mxnet/tuple.h>
#include <nnvm/node.h>
#include <nnvm/op.h>
#include <nnvm/op_attr_types.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

/*! \brief Appended to op descriptions: "\n\nDefined in <file>:L<line>". */
#define ADD_FILELINE "\n\nDefined in " __FILE__ ":L" DMLC_STRINGIZE(__LINE__)

/*! \brief In an op builder chain: register the `_sparse_<name>` alias. */
#define MXNET_ADD_SPARSE_OP_ALIAS(__name$) .add_alias("_sparse_" #__name$)

namespace mxnet {

struct Resource;
struct ResourceRequest;
class NDArray;

using nnvm::NodeAttrs;

/*! \brief How an operator writes an output. */
enum OpReqType {
  /*! \brief Do not write. */
  kNullOp,
  /*! \brief Overwrite. */
  kWriteTo,
  /*! \brief Overwrite; the output shares memory with an input. */
  kWriteInplace,
  /*! \brief Add to the current content. */
  kAddTo
};

/*! \brief Everything an operator call gets besides its data. */
struct OpContext {
  /*! \brief Whether gradients will be computed (backward will run). */
  bool need_grad{false};
  /*! \brief Training mode (dropout active, batch-norm uses batch stats, ...). */
  bool is_train{false};
  /*! \brief Device and stream. */
  RunContext run_ctx;
  /*! \brief For kAsync ops: call when the operation completes. */
  engine::CallbackOnComplete async_on_complete;
  /*! \brief Resources asked for by FResourceRequest, in that order. */
  std::vector<Resource> requested;

  /*! \brief The stream to launch kernels on. */
  template <typename xpu>
  mshadow::Stream<xpu>* get_stream() const {
    return run_ctx.get_stream<xpu>();
  }
};

/*! \brief How the engine runs an op. */
enum class ExecType {
  /*! \brief Completes when the function returns. */
  kSync,
  /*! \brief Calls ctx.async_on_complete when done. */
  kAsync,
  /*! \brief Copy across devices. */
  kCrossDeviceCopy,
  /*! \brief Runs a subgraph itself (not pushed as one function). */
  kSubgraphExec,
};

/*! \brief Which compute function storage-type inference chose. */
enum class DispatchMode {
  kUndefined = -1,
  /*! \brief FCompute on dense TBlobs. */
  kFCompute,
  /*! \brief FComputeEx on NDArrays (sparse). */
  kFComputeEx,
  /*! \brief Densify inputs, then FCompute. */
  kFComputeFallback,
  /*! \brief Variable: nothing to run. */
  kVariable,
};

/*! \brief Name of a dispatch mode, for errors and verbose logs. */
inline const char* dispatch_mode_string(DispatchMode x) {
  switch (x) {
    case DispatchMode::kFCompute: return "fcompute";
    case DispatchMode::kFComputeEx: return "fcompute_ex";
    case DispatchMode::kFComputeFallback: return "fcompute_fallback";
    case DispatchMode::kVariable: return "variable";
    case DispatchMode::kUndefined: return "undefined";
  }
  return "unknown";
}

/*!
 * \brief Shared handle to an operator's per-node state (e.g. a cuDNN descriptor or an RNN
 *        workspace), with an engine variable that orders the calls using the state.
 *        The state is deleted with the last handle; the variable is created on first
 *        get_var() and then deleted through the engine.
 */
class OpStatePtr {
 public:
  /*! \brief A new state T(args...). */
  template <typename T, typename... Args>
  static OpStatePtr Create(Args&&... args) {
    OpStatePtr ret;
    ret.ptr_ = std::make_shared<OpState>(new T(std::forward<Args>(args)...), &typeid(T),
                                         [](void* p) { delete static_cast<T*>(p); });
    return ret;
  }
  /*! \brief The engine variable of this state (created on first call). */
  engine::VarHandle get_var() const {
    CHECK(ptr_) << "OpStatePtr::get_var on an empty state";
    std::call_once(ptr_->var_once, [this]() { ptr_->var = Engine::Get()->NewVariable(); });
    return ptr_->var;
  }
  /*! \brief The state; throws TypeError if it is not a T. */
  template <typename T>
  T& get_state() const {
    CHECK(ptr_) << "OpStatePtr::get_state on an empty state";
    if (*ptr_->type != typeid(T)) {
      MX_THROW(TypeError) << "OpStatePtr::get_state: the state is a " << ptr_->type->name()
                          << ", not a " << typeid(T).name();
    }
    return *static_cast<T*>(ptr_->state);
  }
  /*! \brief Drop this handle. */
  void reset() { ptr_.reset(); }
  /*! \brief True if this is the only handle. */
  bool unique() const { return ptr_.use_count() == 1; }
  explicit operator bool() const { return ptr_ ? true : false; }

 private:
  struct OpState {
    void* state;
    const std::type_info* type;
    void (*deleter)(void*);
    engine::VarHandle var{nullptr};
    std::once_flag var_once;
    OpState(void* s, const std::type_info* t, void (*d)(void*)) : state(s), type(t), deleter(d) {}
    OpState(const OpState&) = delete;
    OpState& operator=(const OpState&) = delete;
    ~OpState() {
      deleter(state);
      if (var != nullptr) Engine::Get()->DeleteVariable([](RunContext) {}, Context::CPU(), var);
    }
  };
  std::shared_ptr<OpState> ptr_;
};

/*! \brief Shape inference (unknown shape: ndim -1; unknown dim: -1). */
using FInferShape = nnvm::FInferNodeEntryAttr<mxnet::TShape>;

/*! \brief Create per-node state for a stateful op. */
using FCreateOpState = std::function<OpStatePtr(const NodeAttrs& attrs, Context ctx,
                                                const mxnet::ShapeVector& in_shape,
                                                const std::vector<int>& in_type)>;
/*! \brief Backward op that reuses the forward node's OpState. */
using TIsLayerOpBackward = bool;
/*! \brief Deterministic outputs (enables common-subexpression elimination). */
using THasDeterministicOutput = bool;
/*! \brief Dense compute: register as "FCompute<cpu>" / "FCompute<gpu>". */
using FCompute = std::function<void(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                    const std::vector<TBlob>& inputs,
                                    const std::vector<OpReqType>& req,
                                    const std::vector<TBlob>& outputs)>;
/*! \brief NDArray compute (sparse or otherwise special): "FComputeEx<cpu|gpu>". */
using FComputeEx = std::function<void(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                      const std::vector<NDArray>& inputs,
                                      const std::vector<OpReqType>& req,
                                      const std::vector<NDArray>& outputs)>;
/*! \brief Stateful dense compute: "FStatefulCompute<cpu|gpu>". */
using FStatefulCompute = std::function<void(const OpStatePtr& state, const OpContext& ctx,
                                            const std::vector<TBlob>& inputs,
                                            const std::vector<OpReqType>& req,
                                            const std::vector<TBlob>& outputs)>;
/*! \brief Stateful NDArray compute: "FStatefulComputeEx<cpu|gpu>". */
using FStatefulComputeEx = std::function<void(const OpStatePtr& state, const OpContext& ctx,
                                              const std::vector<NDArray>& inputs,
                                              const std::vector<OpReqType>& req,
                                              const std::vector<NDArray>& outputs)>;
/*! \brief Run directly on NDArrays, bypassing the engine push. */
using FNDArrayFunction = std::function<void(const nnvm::NodeAttrs& attrs,
                                            const std::vector<NDArray>& inputs,
                                            std::vector<NDArray>* outputs)>;
/*! \brief Resources (temp space, RNG, ...) the op needs, in OpContext::requested order. */
using FResourceRequest = std::function<std::vector<ResourceRequest>(const NodeAttrs& n)>;
/*! \brief Like FResourceRequest, knowing device and dispatch mode (wins over it). */
using FResourceRequestEx = std::function<std::vector<ResourceRequest>(
    const NodeAttrs& n, const int dev_mask, const DispatchMode dispatch_mode)>;
/*! \brief How the engine runs the op (default kSync). */
using FExecType = std::function<ExecType(const NodeAttrs& attrs)>;
/*!
 * \brief Storage-type inference: fill in/out storage types and set *dispatch_mode. Ops
 *        without it are dense only (kFCompute).
 */
using FInferStorageType = std::function<bool(const NodeAttrs& attrs, const int dev_mask,
                                             DispatchMode* dispatch_mode,
                                             std::vector<int>* in_attrs,
                                             std::vector<int>* out_attrs)>;

}  // namespace mxnet

#endif  // MXNET_OP_ATTR_TYPES_H_
