/*!
 * \file custom_function.cc
 * \brief mx.autograd.Function: the frontend computes the forward itself (not recorded) and
 *        records one `_CustomFunction` node linking inputs to outputs; its gradient is a
 *        `_backward_CustomFunction` node that calls the frontend's backward callback.
 *        The callback runs synchronously on the thread calling backward (it invokes NDArray
 *        operations itself, which must not wait inside an engine worker).
 */
#include <mxnet/imperative.h>
#include <nnvm/op_attr_types.h>

#include <memory>
#include <string>
#include <vector>

#include "./custom_function.h"
#include "./autograd.h"

namespace mxnet {
namespace custom_function {
namespace {

enum CallbackIndex { kBackward = 0, kDelete = 1 };
using BackwardFn = int (*)(int num_ograds, int num_igrads, void** ptrs, const int* reqs,
                           const int is_train, void* state);
using DeleteFn = int (*)(void* state);

/*! \brief The frontend callbacks; calls the delete callback when the last node using it dies. */
struct Callbacks {
  std::vector<int (*)(void)> fns;
  std::vector<void*> contexts;
  ~Callbacks() {
    if (fns.size() > kDelete && fns[kDelete] != nullptr) {
      reinterpret_cast<DeleteFn>(fns[kDelete])(contexts[kDelete]);
    }
  }
};

/*! \brief Parsed attributes of both ops (set directly, there are no string kwargs). */
struct FunctionInfo {
  std::shared_ptr<Callbacks> callbacks;
  uint32_t num_inputs{0};
  uint32_t num_outputs{0};
  std::vector<TShape> in_shapes, out_shapes;
  std::vector<int> in_dtypes, out_dtypes;
  Context ctx;
};

const FunctionInfo& InfoOf(const nnvm::NodeAttrs& attrs) {
  const FunctionInfo* info = std::any_cast<FunctionInfo>(&attrs.parsed);
  if (info == nullptr) {
    // Only MXCustomFunctionRecord fills the info in; a call by name has none.
    MX_THROW(NotImplementedError) << "Operator " << (attrs.op ? attrs.op->name : "_CustomFunction")
                                  << " is created by recording an mx.autograd.Function; it "
                                     "cannot be called by name";
  }
  return *info;
}

std::vector<nnvm::NodeEntry> FunctionGradient(const nnvm::ObjectPtr& n,
                                              const std::vector<nnvm::NodeEntry>& ograds) {
  nnvm::ObjectPtr bwd = nnvm::Node::Create();
  bwd->attrs.op = nnvm::Op::Get("_backward_CustomFunction");
  bwd->attrs.name = n->attrs.name + "_backward";
  bwd->attrs.parsed = n->attrs.parsed;
  bwd->inputs = ograds;
  bwd->control_deps.push_back(n);
  std::vector<nnvm::NodeEntry> ret;
  for (uint32_t i = 0; i < InfoOf(n->attrs).num_inputs; ++i) ret.emplace_back(bwd, i, 0);
  return ret;
}

bool InferShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const FunctionInfo& info = InfoOf(attrs);
  for (size_t i = 0; i < in->size(); ++i) (*in)[i] = info.in_shapes[i];
  for (size_t i = 0; i < out->size(); ++i) (*out)[i] = info.out_shapes[i];
  return true;
}

bool InferType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const FunctionInfo& info = InfoOf(attrs);
  for (size_t i = 0; i < in->size(); ++i) (*in)[i] = info.in_dtypes[i];
  for (size_t i = 0; i < out->size(); ++i) (*out)[i] = info.out_dtypes[i];
  return true;
}

/*! \brief Kernel of both ops outside autograd: the frontend computed the forward and only
 *         autograd can call the frontend backward, so a graph executor cannot run them. */
void OnlyThroughAutograd(const nnvm::NodeAttrs& attrs, const OpContext&,
                         const std::vector<TBlob>&, const std::vector<OpReqType>&,
                         const std::vector<TBlob>&) {
  MX_THROW(NotImplementedError) << "Operator " << attrs.op->name
                                << " (a recorded mx.autograd.Function) can only be executed by "
                                   "autograd backward, not by an executor or direct call";
}

}  // namespace

bool IsBackwardOp(const nnvm::Op* op) {
  static const nnvm::Op* backward = nnvm::Op::Get("_backward_CustomFunction");
  return op == backward;
}

void RunBackward(const nnvm::ObjectPtr& node, const std::vector<NDArray*>& inputs,
                 const std::vector<NDArray*>& outputs, bool is_train) {
  const FunctionInfo& info = InfoOf(node->attrs);
  std::vector<void*> handles;
  for (NDArray* ograd : inputs) handles.push_back(new NDArray(ograd->Detach()));
  for (size_t i = 0; i < outputs.size(); ++i) {
    *outputs[i] = NDArray(info.in_shapes[i], info.ctx, false, info.in_dtypes[i]);
    handles.push_back(new NDArray(*outputs[i]));
  }
  std::vector<int> reqs(outputs.size(), kWriteTo);
  // The frontend takes ownership of the handles (it frees them with MXNDArrayFree).
  auto fn = reinterpret_cast<BackwardFn>(info.callbacks->fns[kBackward]);
  if (!fn(static_cast<int>(inputs.size()), static_cast<int>(outputs.size()), handles.data(),
          reqs.data(), is_train ? 1 : 0, info.callbacks->contexts[kBackward])) {
    MX_THROW(ValueError) << "Error in autograd.Function.backward (node " << node->attrs.name
                         << "): the frontend callback failed (see the traceback printed above)";
  }
}

}  // namespace custom_function

NNVM_REGISTER_OP(_CustomFunction)
.describe("The recorded call of an mx.autograd.Function (created by MXCustomFunctionRecord; "
          "not callable directly).")
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  return custom_function::InfoOf(attrs).num_inputs;
})
.set_num_outputs([](const nnvm::NodeAttrs& attrs) {
  return custom_function::InfoOf(attrs).num_outputs;
})
.set_attr<mxnet::FInferShape>("FInferShape", custom_function::InferShape)
.set_attr<nnvm::FInferType>("FInferType", custom_function::InferType)
.set_attr<FCompute>("FCompute<cpu>", custom_function::OnlyThroughAutograd)
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", custom_function::OnlyThroughAutograd)
#endif
.set_attr<nnvm::FGradient>("FGradient", custom_function::FunctionGradient);

NNVM_REGISTER_OP(_backward_CustomFunction)
.describe("Backward of an mx.autograd.Function (runs its frontend backward callback).")
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  return custom_function::InfoOf(attrs).num_outputs;
})
.set_num_outputs([](const nnvm::NodeAttrs& attrs) {
  return custom_function::InfoOf(attrs).num_inputs;
})
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", custom_function::OnlyThroughAutograd)
#endif
.set_attr<FCompute>("FCompute<cpu>", custom_function::OnlyThroughAutograd);

namespace custom_function {

void Record(const std::vector<NDArray*>& inputs, const std::vector<NDArray*>& outputs,
            std::vector<int (*)(void)> callbacks, std::vector<void*> contexts) {
  Imperative* imp = Imperative::Get();
  if (!imp->is_recording()) {
    throw ValueError("MXCustomFunctionRecord: autograd is not recording");
  }
  if (callbacks.size() < 2 || contexts.size() != callbacks.size()) {
    throw ValueError(
        "MXCustomFunctionRecord: expected 2 callbacks (backward, delete) in the callback list");
  }
  auto cb = std::make_shared<Callbacks>();
  cb->fns = std::move(callbacks);
  cb->contexts = std::move(contexts);
  FunctionInfo info;
  info.callbacks = cb;
  info.num_inputs = static_cast<uint32_t>(inputs.size());
  info.num_outputs = static_cast<uint32_t>(outputs.size());
  for (const NDArray* in : inputs) {
    info.in_shapes.push_back(in->shape());
    info.in_dtypes.push_back(in->dtype());
  }
  for (const NDArray* out : outputs) {
    info.out_shapes.push_back(out->shape());
    info.out_dtypes.push_back(out->dtype());
  }
  info.ctx = inputs.empty() ? Context::CPU() : inputs[0]->ctx();
  nnvm::NodeAttrs attrs;
  attrs.op = nnvm::Op::Get("_CustomFunction");
  attrs.parsed = std::move(info);
  imp->RecordOp(attrs, inputs, outputs);
}

}  // namespace custom_function
}  // namespace mxnet
