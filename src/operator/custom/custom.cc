/*!
 * \file custom.cc
 * \brief The `Custom` operator and `_backward_Custom` (see custom-inl.h).
 */
#include "./custom-inl.h"

#include <mxnet/engine.h>
#include <mxnet/imperative.h>
#include <nnvm/node.h>
#include <nnvm/op.h>
#include <nnvm/op_attr_types.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>
#include <utility>

#include "../../common/env_util.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {
namespace custom {

// ------------------------------------------------------------------------- CustomOperator

CustomOperator* CustomOperator::Get() {
  // Never destroyed: worker threads may still wait on its queue at process exit.
  static CustomOperator* inst = new CustomOperator();
  return inst;
}

CustomOperator::CustomOperator()
    : max_workers_(static_cast<size_t>(
          std::max<int64_t>(1, common::GetEnvInt("MXNET_CUSTOM_OP_NUM_THREADS", 16)))) {}

void CustomOperator::Register(const std::string& op_type, CustomOpPropCreator creator) {
  std::lock_guard<std::mutex> lock(registry_mu_);
  if (registry_.count(op_type)) {
    LOG(WARNING) << "New registration is overriding existing custom operator " << op_type;
  }
  registry_[op_type] = creator;
}

CustomOpPropCreator CustomOperator::Find(const std::string& op_type) {
  std::lock_guard<std::mutex> lock(registry_mu_);
  auto it = registry_.find(op_type);
  return it == registry_.end() ? nullptr : it->second;
}

void CustomOperator::WorkerLoop() {
  // Engine work waits on these threads (a custom op completes from here): never throttle them.
  Engine::SetThreadThrottleExempt(true);
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      ++idle_;
      // Workers beyond the first end after a quiet spell: a burst leaves no threads behind.
      const bool has_task = cv_.wait_for(lock, std::chrono::seconds(kIdleWorkerSeconds),
                                         [this]() { return !queue_.empty(); });
      --idle_;
      if (!has_task) {
        if (num_workers_ > 1) {
          --num_workers_;
          return;
        }
        continue;
      }
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

void CustomOperator::Push(std::function<void()> fn, const OpContext& ctx, bool training,
                          std::vector<NDArray> arrays) {
  auto task = [fn = std::move(fn), ctx, training, arrays = std::move(arrays)]() {
    Imperative* imp = Imperative::Get();
    const bool prev_recording = imp->set_is_recording(false);
    const bool prev_training = imp->set_is_training(training);
    std::shared_ptr<dmlc::Error> error;
    try {
      fn();
    } catch (const dmlc::Error& e) {
      error = std::make_shared<dmlc::Error>(e.what());
    } catch (const std::exception& e) {
      error = std::make_shared<dmlc::Error>(e.what());
    }
    imp->set_is_recording(prev_recording);
    imp->set_is_training(prev_training);
    // Complete once everything the callback pushed on the arrays has run (their memory is the
    // Custom operation's inputs/outputs, which stay locked until then).
    std::vector<engine::VarHandle> vars;
    for (const NDArray& a : arrays) {
      if (!a.is_none()) vars.push_back(a.var());
    }
    auto on_complete = ctx.async_on_complete;
    Engine::Get()->PushSync(
        [on_complete, error, vars, arrays](RunContext) {
          std::shared_ptr<dmlc::Error> err = error;
          for (engine::VarHandle v : vars) {
            try {
              Engine::Get()->Throw(v);
            } catch (const dmlc::Error& e) {
              if (!err) err = std::make_shared<dmlc::Error>(e.what());
            } catch (const std::exception& e) {
              if (!err) err = std::make_shared<dmlc::Error>(e.what());
            }
          }
          on_complete(err.get());
        },
        ctx.run_ctx.ctx, {}, vars, FnProperty::kNoSkip, 0, "CustomOperatorWait");
  };
  // Even with NaiveEngine the callback runs on a worker (the engine waits for completion):
  // running it inline would re-enter the calling thread's C API call, whose thread-local
  // argument and result buffers the callback's own mx.nd calls would overwrite.
  std::lock_guard<std::mutex> lock(mu_);
  queue_.push_back(std::move(task));
  // A free worker per queued callback (a callback may wait for another custom operator), up to
  // MXNET_CUSTOM_OP_NUM_THREADS as in MXNet 1.x; beyond that callbacks wait their turn.
  if (idle_ < queue_.size() && num_workers_ < max_workers_) {
    ++num_workers_;
    std::thread([this]() { WorkerLoop(); }).detach();
  }
  cv_.notify_one();
}

void NotifyShutdown() { CustomOperator::Get()->Stop(); }

namespace {

// ------------------------------------------------------------------------------ helpers

template <typename Fn>
Fn Callback(const MXCallbackList* list, int index) {
  return reinterpret_cast<Fn>(list->callbacks[index]);
}

bool HasCallback(const MXCallbackList* list, int index) {
  return list->num_callbacks > index && list->callbacks[index] != nullptr;
}

/*! \brief The text the frontend left with MXAPISetLastError, for an error message. */
std::string CallbackError() {
  const char* msg = MXGetLastError();
  return msg != nullptr && *msg ? std::string(msg) : std::string("(no message)");
}

/*! \brief Fail with the frontend's error text when a callback returned 0. */
#define CUSTOM_CHECK_CALLBACK(ok, op_type, what)                                           \
  if (!(ok)) {                                                                             \
    MX_THROW(dmlc::Error) << "Error in custom operator " << (op_type) << " " << (what)     \
                          << ": " << CallbackError();                                      \
  }

std::vector<std::string> ListNames(const MXCallbackList* info, int index,
                                   const std::string& op_type, const char* what) {
  char** names = nullptr;
  CUSTOM_CHECK_CALLBACK(Callback<CustomOpListFunc>(info, index)(&names, info->contexts[index]),
                        op_type, what);
  std::vector<std::string> ret;
  for (int i = 0; names != nullptr && names[i] != nullptr; ++i) ret.emplace_back(names[i]);
  return ret;
}

void DeletePropInfo(MXCallbackList* info) {
  if (!CustomOperator::Get()->stopped() && HasCallback(info, kCustomOpPropDelete)) {
    Callback<CustomOpDelFunc>(info, kCustomOpPropDelete)(info->contexts[kCustomOpPropDelete]);
  }
  delete info;
}

const CustomParam& Param(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<CustomParam>(attrs.parsed);
}

void AttrParser(nnvm::NodeAttrs* attrs) {
  CustomParam p;
  std::vector<const char*> keys, vals;
  for (const auto& kv : attrs->dict) {
    if (kv.first == "op_type") {
      p.op_type = kv.second;
    } else if (!(kv.first.size() > 4 && kv.first.compare(0, 2, "__") == 0)) {
      keys.push_back(kv.first.c_str());
      vals.push_back(kv.second.c_str());
    }
  }
  if (!attrs->dict.count("op_type")) {
    MX_THROW(dmlc::ParamError) << "Required argument `op_type` is missing.";
  }
  CustomOpPropCreator creator = CustomOperator::Get()->Find(p.op_type);
  if (creator == nullptr) {
    MX_THROW(dmlc::ValueError) << "Cannot find custom operator " << p.op_type;
  }
  MXAPISetLastError("");
  p.info = std::shared_ptr<MXCallbackList>(new MXCallbackList{0, nullptr, nullptr}, DeletePropInfo);
  CUSTOM_CHECK_CALLBACK(creator(p.op_type.c_str(), static_cast<int>(keys.size()), keys.data(),
                                vals.data(), p.info.get()),
                        p.op_type, "(creating the property)");
  MXCallbackList* info = p.info.get();
  CHECK_GE(info->num_callbacks, kCustomOpPropCreateOperator + 1)
      << "Custom operator " << p.op_type << ": the property gave too few callbacks";
  p.arguments = ListNames(info, kCustomOpPropListArguments, p.op_type, "list_arguments");
  p.outputs = ListNames(info, kCustomOpPropListOutputs, p.op_type, "list_outputs");
  p.aux_states = ListNames(info, kCustomOpPropListAuxiliaryStates, p.op_type,
                           "list_auxiliary_states");
  const int n_out = static_cast<int>(p.num_outs()), n_args = static_cast<int>(p.num_args());
  std::vector<int> og(n_out), id(n_args), od(n_out);
  for (int i = 0; i < n_out; ++i) og[i] = i;
  for (int i = 0; i < n_args; ++i) id[i] = n_out + i;
  for (int i = 0; i < n_out; ++i) od[i] = n_out + n_args + i;
  int num_deps = 0;
  int* deps = nullptr;
  CUSTOM_CHECK_CALLBACK(Callback<CustomOpBwdDepFunc>(info, kCustomOpPropDeclareBackwardDependency)(
                            og.data(), id.data(), od.data(), &num_deps, &deps,
                            info->contexts[kCustomOpPropDeclareBackwardDependency]),
                        p.op_type, "declare_backward_dependency");
  for (int i = 0; i < num_deps; ++i) {
    CHECK(deps[i] >= 0 && deps[i] < 2 * n_out + n_args)
        << "Custom operator " << p.op_type << ": declare_backward_dependency returned id "
        << deps[i];
    p.bwd_idx.push_back(deps[i]);
  }
  attrs->parsed = std::move(p);
}

/*! \brief Legacy shape convention of the callbacks: unknown shape = ndim 0, unknown dim = 0. */
void ShapeToCallback(const TShape& s, std::vector<int>* buf, int* ndim) {
  buf->clear();
  if (!ndim_is_known(s)) {
    *ndim = 0;
    return;
  }
  for (int i = 0; i < s.ndim(); ++i) buf->push_back(s[i] < 0 ? 0 : static_cast<int>(s[i]));
  *ndim = s.ndim();
}

/*!
 * \brief Call infer_shape with the argument shapes; fill *args, *outs, *aux. Returns false
 *        when an argument shape is unknown (the callback needs them all).
 */
bool CallInferShape(const CustomParam& p, ShapeVector* args, ShapeVector* outs, ShapeVector* aux) {
  for (const TShape& s : *args) {
    if (!shape_is_known(s)) return false;
  }
  const size_t total = p.num_args() + p.num_outs() + p.num_auxs();
  std::vector<std::vector<int>> bufs(total);
  std::vector<int> ndims(total, 0);
  std::vector<int*> shapes(total, nullptr);
  for (size_t i = 0; i < p.num_args(); ++i) {
    ShapeToCallback((*args)[i], &bufs[i], &ndims[i]);
    shapes[i] = bufs[i].data();
  }
  const MXCallbackList* info = p.info.get();
  CUSTOM_CHECK_CALLBACK(Callback<CustomOpInferShapeFunc>(info, kCustomOpPropInferShape)(
                            static_cast<int>(total), ndims.data(), shapes.data(),
                            info->contexts[kCustomOpPropInferShape]),
                        p.op_type, "infer_shape");
  auto get = [&](size_t i) {
    TShape s(ndims[i], -1);
    for (int d = 0; d < ndims[i]; ++d) s[d] = shapes[i][d];
    return s;
  };
  for (size_t i = 0; i < p.num_args(); ++i) (*args)[i] = get(i);
  for (size_t i = 0; i < p.num_outs(); ++i) (*outs)[i] = get(p.num_args() + i);
  for (size_t i = 0; i < p.num_auxs(); ++i) (*aux)[i] = get(p.num_args() + p.num_outs() + i);
  return true;
}

/*! \brief Call infer_type (or default to one dtype for everything). */
void CallInferType(const CustomParam& p, std::vector<int>* args, std::vector<int>* outs,
                   std::vector<int>* aux) {
  const MXCallbackList* info = p.info.get();
  std::vector<int> types(*args);
  types.insert(types.end(), outs->begin(), outs->end());
  types.insert(types.end(), aux->begin(), aux->end());
  if (HasCallback(info, kCustomOpPropInferType)) {
    CUSTOM_CHECK_CALLBACK(Callback<CustomOpInferTypeFunc>(info, kCustomOpPropInferType)(
                              static_cast<int>(types.size()), types.data(),
                              info->contexts[kCustomOpPropInferType]),
                          p.op_type, "infer_type");
  } else {
    int t = -1;
    for (int x : types) t = t == -1 ? x : t;
    for (int& x : types) x = t;
  }
  std::copy(types.begin(), types.begin() + args->size(), args->begin());
  std::copy(types.begin() + args->size(), types.begin() + args->size() + outs->size(),
            outs->begin());
  std::copy(types.begin() + args->size() + outs->size(), types.end(), aux->begin());
}

bool InferShape(const nnvm::NodeAttrs& attrs, ShapeVector* in, ShapeVector* out) {
  const CustomParam& p = Param(attrs);
  ShapeVector args(in->begin(), in->begin() + p.num_args());
  ShapeVector aux(p.num_auxs()), outs(p.num_outs());
  if (!CallInferShape(p, &args, &outs, &aux)) return false;
  for (size_t i = 0; i < p.num_args(); ++i) SHAPE_ASSIGN_CHECK(*in, i, args[i]);
  for (size_t i = 0; i < p.num_auxs(); ++i) SHAPE_ASSIGN_CHECK(*in, p.num_args() + i, aux[i]);
  for (size_t i = 0; i < p.num_outs(); ++i) SHAPE_ASSIGN_CHECK(*out, i, outs[i]);
  return true;
}

bool InferType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const CustomParam& p = Param(attrs);
  std::vector<int> args(in->begin(), in->begin() + p.num_args());
  std::vector<int> aux(in->begin() + p.num_args(), in->end()), outs(*out);
  CallInferType(p, &args, &outs, &aux);
  for (size_t i = 0; i < p.num_args(); ++i) TYPE_ASSIGN_CHECK(*in, i, args[i]);
  for (size_t i = 0; i < p.num_auxs(); ++i) TYPE_ASSIGN_CHECK(*in, p.num_args() + i, aux[i]);
  for (size_t i = 0; i < p.num_outs(); ++i) TYPE_ASSIGN_CHECK(*out, i, outs[i]);
  return std::all_of(out->begin(), out->end(), [](int t) { return t != -1; });
}

/*! \brief One frontend operator instance (create_operator's result). */
struct CustomOpState {
  CustomParam param;
  MXCallbackList* op_info{nullptr};
  CustomOpState(CustomParam p, MXCallbackList* info) : param(std::move(p)), op_info(info) {}
  CustomOpState(const CustomOpState&) = delete;
  ~CustomOpState() {
    if (op_info == nullptr) return;
    if (!CustomOperator::Get()->stopped() && HasCallback(op_info, kCustomOpDelete)) {
      Callback<CustomOpDelFunc>(op_info, kCustomOpDelete)(op_info->contexts[kCustomOpDelete]);
    }
    delete op_info;
  }
};

OpStatePtr CreateOperatorState(const CustomParam& p, Context ctx, const ShapeVector& in_shape,
                               const std::vector<int>& in_type) {
  std::ostringstream ctx_str;
  ctx_str << ctx;
  std::vector<std::vector<unsigned>> bufs(in_shape.size());
  std::vector<unsigned*> shapes(in_shape.size());
  std::vector<int> ndims(in_shape.size());
  for (size_t i = 0; i < in_shape.size(); ++i) {
    const TShape& s = in_shape[i];
    ndims[i] = ndim_is_known(s) ? s.ndim() : 0;
    for (int d = 0; d < ndims[i]; ++d) bufs[i].push_back(static_cast<unsigned>(std::max<int64_t>(s[d], 0)));
    shapes[i] = bufs[i].data();
  }
  const MXCallbackList* info = p.info.get();
  auto* op_info = new MXCallbackList{0, nullptr, nullptr};
  bool ok = Callback<CustomOpCreateFunc>(info, kCustomOpPropCreateOperator)(
      ctx_str.str().c_str(), static_cast<int>(in_shape.size()), shapes.data(), ndims.data(),
      in_type.data(), op_info, info->contexts[kCustomOpPropCreateOperator]);
  if (!ok) {
    delete op_info;
    CUSTOM_CHECK_CALLBACK(false, p.op_type, "create_operator");
  }
  return OpStatePtr::Create<CustomOpState>(p, op_info);
}

OpStatePtr CreateState(const nnvm::NodeAttrs& attrs, Context ctx, const ShapeVector& in_shape,
                       const std::vector<int>& in_type) {
  return CreateOperatorState(Param(attrs), ctx, in_shape, in_type);
}

/*! \brief A new NDArray over the blob's memory, with its own engine variable. */
NDArray Wrap(const TBlob& blob, const Context& ctx) {
  if (blob.dptr_ == nullptr) return NDArray();
  return NDArray(blob, ctx.dev_id);
}

/*! \brief Queue the frontend forward/backward call with `arrays` (tags, reqs) on the pool. */
void RunCallback(const OpStatePtr& state, const OpContext& ctx, int which,
                 std::vector<NDArray> arrays, std::vector<int> tags, std::vector<int> reqs) {
  const bool is_train = ctx.is_train;
  CustomOperator::Get()->Push(
      [state, which, arrays, tags, reqs, is_train]() mutable {
        CustomOpState& st = state.get_state<CustomOpState>();
        // The callee owns (frees) the handles it gets.
        std::vector<void*> ptrs;
        for (const NDArray& a : arrays) ptrs.push_back(new NDArray(a));
        MXAPISetLastError("");
        bool ok = Callback<CustomOpFBFunc>(st.op_info, which)(
            static_cast<int>(ptrs.size()), ptrs.data(), tags.data(), reqs.data(),
            is_train ? 1 : 0, st.op_info->contexts[which]);
        CUSTOM_CHECK_CALLBACK(ok, st.param.op_type,
                              which == kCustomOpForward ? "forward" : "backward");
      },
      ctx, is_train, arrays);
}

void Forward(const OpStatePtr& state, const OpContext& ctx, const std::vector<TBlob>& inputs,
             const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const CustomParam& p = state.get_state<CustomOpState>().param;
  const Context& dev = ctx.run_ctx.ctx;
  std::vector<NDArray> arrays;
  std::vector<int> tags;
  for (size_t i = 0; i < p.num_args(); ++i) arrays.push_back(Wrap(inputs[i], dev)), tags.push_back(0);
  for (const TBlob& o : outputs) arrays.push_back(Wrap(o, dev)), tags.push_back(1);
  for (size_t i = 0; i < p.num_auxs(); ++i) {
    arrays.push_back(Wrap(inputs[p.num_args() + i], dev));
    tags.push_back(4);
  }
  RunCallback(state, ctx, kCustomOpForward, std::move(arrays), std::move(tags),
              std::vector<int>(req.begin(), req.end()));
}

void Backward(const OpStatePtr& state, const OpContext& ctx, const std::vector<TBlob>& inputs,
              const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const CustomParam& p = state.get_state<CustomOpState>().param;
  const Context& dev = ctx.run_ctx.ctx;
  const size_t n_out = p.num_outs(), n_args = p.num_args();
  // Slots: out_grad x n_out, in_data x n_args, out_data x n_out (undeclared ones empty), then
  // in_grad x n_args, then aux.
  std::vector<NDArray> arrays(2 * n_out + n_args);
  std::vector<int> tags;
  for (size_t i = 0; i < n_out; ++i) tags.push_back(3);
  for (size_t i = 0; i < n_args; ++i) tags.push_back(0);
  for (size_t i = 0; i < n_out; ++i) tags.push_back(1);
  for (size_t k = 0; k < p.bwd_idx.size(); ++k) arrays[p.bwd_idx[k]] = Wrap(inputs[k], dev);
  for (const TBlob& g : outputs) arrays.push_back(Wrap(g, dev)), tags.push_back(2);
  for (size_t i = 0; i < p.num_auxs(); ++i) {
    arrays.push_back(Wrap(inputs[p.bwd_idx.size() + i], dev));
    tags.push_back(4);
  }
  RunCallback(state, ctx, kCustomOpBackward, std::move(arrays), std::move(tags),
              std::vector<int>(req.begin(), req.end()));
}

std::vector<nnvm::NodeEntry> Gradient(const nnvm::ObjectPtr& n,
                                      const std::vector<nnvm::NodeEntry>& ograds) {
  const CustomParam& p = Param(n->attrs);
  const size_t n_out = p.num_outs(), n_args = p.num_args();
  nnvm::ObjectPtr g = nnvm::Node::Create();
  g->attrs.op = nnvm::Op::Get("_backward_Custom");
  g->attrs.name = n->attrs.name + "_backward";
  g->attrs.dict = n->attrs.dict;
  g->attrs.parsed = n->attrs.parsed;
  g->control_deps.push_back(n);
  for (int dep : p.bwd_idx) {
    const size_t d = static_cast<size_t>(dep);
    if (d < n_out) {
      g->inputs.push_back(ograds[d]);
    } else if (d < n_out + n_args) {
      g->inputs.push_back(n->inputs[d - n_out]);
    } else {
      g->inputs.emplace_back(n, static_cast<uint32_t>(d - n_out - n_args), 0);
    }
  }
  g->inputs.insert(g->inputs.end(), n->inputs.begin() + n_args, n->inputs.end());
  std::vector<nnvm::NodeEntry> ret;
  for (size_t i = 0; i < n_args; ++i) ret.emplace_back(g, static_cast<uint32_t>(i), 0);
  for (size_t i = n_args; i < n->inputs.size(); ++i) {
    ret.push_back(nnvm::MakeNode("zeros_like", n->attrs.name + "_aux" +
                                                   std::to_string(i - n_args) + "_backward",
                                 {n->inputs[i]}));
  }
  return ret;
}

// ------------------------------------------------------------------ backward, called directly

/*! \brief Forward shapes from the backward op's inputs (declared deps, aux) and outputs. */
bool BackwardShapes(const CustomParam& p, const ShapeVector& in, const ShapeVector& out,
                    ShapeVector* args, ShapeVector* outs, ShapeVector* aux) {
  const size_t n_out = p.num_outs(), n_args = p.num_args();
  *args = out;
  args->resize(n_args);
  outs->assign(n_out, TShape());
  aux->assign(p.num_auxs(), TShape());
  for (size_t k = 0; k < p.bwd_idx.size(); ++k) {
    const size_t d = static_cast<size_t>(p.bwd_idx[k]);
    TShape* dst = d < n_out ? &(*outs)[d]
                  : d < n_out + n_args ? &(*args)[d - n_out] : &(*outs)[d - n_out - n_args];
    shape_assign(dst, in[k]);
  }
  for (size_t i = 0; i < p.num_auxs(); ++i) (*aux)[i] = in[p.bwd_idx.size() + i];
  return CallInferShape(p, args, outs, aux);
}

bool BackwardInferShape(const nnvm::NodeAttrs& attrs, ShapeVector* in, ShapeVector* out) {
  const CustomParam& p = Param(attrs);
  ShapeVector args, outs, aux;
  if (!BackwardShapes(p, *in, *out, &args, &outs, &aux)) return false;
  const size_t n_out = p.num_outs(), n_args = p.num_args();
  for (size_t i = 0; i < n_args; ++i) SHAPE_ASSIGN_CHECK(*out, i, args[i]);
  for (size_t k = 0; k < p.bwd_idx.size(); ++k) {
    const size_t d = static_cast<size_t>(p.bwd_idx[k]);
    const TShape& s = d < n_out ? outs[d] : d < n_out + n_args ? args[d - n_out] : outs[d - n_out - n_args];
    SHAPE_ASSIGN_CHECK(*in, k, s);
  }
  for (size_t i = 0; i < p.num_auxs(); ++i) SHAPE_ASSIGN_CHECK(*in, p.bwd_idx.size() + i, aux[i]);
  return true;
}

bool BackwardInferType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  // Gradients have the dtype of what they differentiate; take it from any known array.
  int t = -1;
  for (int x : *in) t = t == -1 ? x : t;
  for (int x : *out) t = t == -1 ? x : t;
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, t);
  return t != -1;
}

OpStatePtr CreateBackwardState(const nnvm::NodeAttrs& attrs, Context ctx,
                               const ShapeVector& in_shape, const std::vector<int>& in_type) {
  // Only when the backward op runs on its own; autograd/executors reuse the forward state.
  const CustomParam& p = Param(attrs);
  ShapeVector args, outs, aux;
  ShapeVector no_out(p.num_args());
  CHECK(BackwardShapes(p, in_shape, no_out, &args, &outs, &aux))
      << "_backward_Custom (" << p.op_type << "): cannot infer the forward input shapes";
  ShapeVector fwd_in = args;
  fwd_in.insert(fwd_in.end(), aux.begin(), aux.end());
  const int t = in_type.empty() ? mshadow::kFloat32 : in_type[0];
  return CreateOperatorState(p, ctx, fwd_in, std::vector<int>(fwd_in.size(), t));
}

}  // namespace

NNVM_REGISTER_OP(Custom)
.describe(R"code(Apply a custom operator implemented in a frontend language (like Python).

Custom operators should override required methods like `forward` and `backward`.
The custom operator must be registered before it can be used.
Please check the tutorial here: https://mxnet.incubator.apache.org/api/faq/new_op

)code" ADD_FILELINE)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  const CustomParam& p = Param(attrs);
  return static_cast<uint32_t>(p.num_args() + p.num_auxs());
})
.set_num_outputs([](const nnvm::NodeAttrs& attrs) {
  return static_cast<uint32_t>(Param(attrs).num_outs());
})
.set_attr_parser(AttrParser)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs& attrs) {
  const CustomParam& p = Param(attrs);
  std::vector<std::string> names = p.arguments;
  names.insert(names.end(), p.aux_states.begin(), p.aux_states.end());
  return names;
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const nnvm::NodeAttrs& attrs) {
  return Param(attrs).outputs;
})
.set_attr<nnvm::FMutateInputs>("FMutateInputs", [](const nnvm::NodeAttrs& attrs) {
  const CustomParam& p = Param(attrs);
  std::vector<uint32_t> idx;
  for (size_t i = 0; i < p.num_auxs(); ++i) idx.push_back(static_cast<uint32_t>(p.num_args() + i));
  return idx;
})
.set_attr<mxnet::FInferShape>("FInferShape", InferShape)
.set_attr<nnvm::FInferType>("FInferType", InferType)
.set_attr<FExecType>("FExecType", [](const nnvm::NodeAttrs&) { return ExecType::kAsync; })
.set_attr<FCreateOpState>("FCreateOpState", CreateState)
.set_attr<FStatefulCompute>("FStatefulCompute<cpu>", Forward)
#if MXNET_USE_CUDA
// The callback gets NDArrays on the op's device; what it pushes runs on that device's stream,
// after the inputs' producers.
.set_attr<FStatefulCompute>("FStatefulCompute<gpu>", Forward)
#endif
.set_attr<nnvm::FGradient>("FGradient", Gradient)
.add_argument("data", "NDArray-or-Symbol[]", "Input data for the custom operator.")
.add_argument("op_type", "string", "Name of the custom operator. "
              "This is the name that is passed to `mx.operator.register` "
              "to register the operator.");

NNVM_REGISTER_OP(_backward_Custom)
.describe("Backward of Custom: calls the operator's backward." ADD_FILELINE)
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  const CustomParam& p = Param(attrs);
  return static_cast<uint32_t>(p.bwd_idx.size() + p.num_auxs());
})
.set_num_outputs([](const nnvm::NodeAttrs& attrs) {
  return static_cast<uint32_t>(Param(attrs).num_args());
})
.set_attr_parser(AttrParser)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<TIsLayerOpBackward>("TIsLayerOpBackward", true)
.set_attr<nnvm::FMutateInputs>("FMutateInputs", [](const nnvm::NodeAttrs& attrs) {
  const CustomParam& p = Param(attrs);
  std::vector<uint32_t> idx;
  for (size_t i = 0; i < p.num_auxs(); ++i) idx.push_back(static_cast<uint32_t>(p.bwd_idx.size() + i));
  return idx;
})
.set_attr<mxnet::FInferShape>("FInferShape", BackwardInferShape)
.set_attr<nnvm::FInferType>("FInferType", BackwardInferType)
.set_attr<FExecType>("FExecType", [](const nnvm::NodeAttrs&) { return ExecType::kAsync; })
.set_attr<FCreateOpState>("FCreateOpState", CreateBackwardState)
#if MXNET_USE_CUDA
.set_attr<FStatefulCompute>("FStatefulCompute<gpu>", Backward)
#endif
.set_attr<FStatefulCompute>("FStatefulCompute<cpu>", Backward);

}  // namespace custom
}  // namespace op
}  // namespace mxnet
