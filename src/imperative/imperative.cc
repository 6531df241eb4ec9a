// Eager operator invocation: parse (cached) -> infer shape/type -> allocate -> push one function.
#include <mxnet/data_dependent_shape.h>
#include <mxnet/imperative.h>
#include <mxnet/resource.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <unordered_set>
#include <unordered_map>

#include "../common/checked_size.h"
#include "../executor/exec_core.h"

namespace mxnet {

thread_local bool Imperative::is_recording_ = false;
thread_local bool Imperative::is_train_ = false;

Imperative* Imperative::Get() {
  static Imperative inst;
  return &inst;
}

uint32_t Imperative::NumInputs(const nnvm::NodeAttrs& attrs) {
  const nnvm::Op* op = attrs.op;
  return op->get_num_inputs ? op->get_num_inputs(attrs) : op->num_inputs;
}

uint32_t Imperative::NumOutputs(const nnvm::NodeAttrs& attrs) {
  const nnvm::Op* op = attrs.op;
  return op->get_num_outputs ? op->get_num_outputs(attrs) : op->num_outputs;
}

uint32_t Imperative::NumVisibleOutputs(const nnvm::NodeAttrs& attrs) {
  static auto& fvisible = nnvm::Op::GetAttr<nnvm::FNumVisibleOutputs>("FNumVisibleOutputs");
  if (fvisible.count(attrs.op)) return fvisible[attrs.op](attrs);
  return NumOutputs(attrs);
}

namespace {

/*! \brief Per-thread cache of parsed attributes, keyed by op and the raw kwarg strings. */
struct AttrCache {
  static constexpr size_t kMaxEntries = 4096;
  std::unordered_map<const nnvm::Op*, std::shared_ptr<const nnvm::NodeAttrs>> no_params;
  std::unordered_map<std::string, std::shared_ptr<const nnvm::NodeAttrs>> with_params;
  std::string key;  // reused buffer
};

AttrCache* GetAttrCache() {
  static thread_local AttrCache cache;
  return &cache;
}

std::shared_ptr<const nnvm::NodeAttrs> BuildAttrs(const nnvm::Op* op, int num_inputs,
                                                  int num_params, const char** keys,
                                                  const char** vals) {
  auto attrs = std::make_shared<nnvm::NodeAttrs>();
  attrs->op = op;
  for (int i = 0; i < num_params; ++i) attrs->dict[keys[i]] = vals[i];
  if (!op->key_var_num_args.empty() && !attrs->dict.count(op->key_var_num_args)) {
    attrs->dict[op->key_var_num_args] = std::to_string(num_inputs);
  }
  if (op->attr_parser) {
    try {
      op->attr_parser(attrs.get());
    } catch (const dmlc::Error& e) {
      dmlc::RethrowNamingOperator(e, op->name);
    }
  }
  return attrs;
}

std::string ShapeList(const ShapeVector& shapes) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < shapes.size(); ++i) os << (i ? ", " : "") << shapes[i];
  os << "]";
  return os.str();
}

std::string TypeList(const std::vector<int>& types) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < types.size(); ++i) os << (i ? ", " : "") << mshadow::dtype_string(types[i]);
  os << "]";
  return os.str();
}

Context PickContext(const nnvm::NodeAttrs& attrs, const std::vector<NDArray*>& inputs,
                    const std::vector<NDArray*>& outputs) {
  for (NDArray* in : inputs) {
    if (!in->is_none()) return in->ctx();
  }
  for (NDArray* out : outputs) {
    if (!out->is_none()) return out->ctx();
  }
  auto it = attrs.dict.find("ctx");
  if (it != attrs.dict.end() && !it->second.empty() && it->second != "None") {
    return Context::FromString(it->second);
  }
  return Context::CPU();
}

std::vector<TBlob> BlobsOf(const std::vector<NDArray>& arrays) {
  std::vector<TBlob> blobs(arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i) blobs[i] = arrays[i].data();
  return blobs;
}

const char* StypeName(int stype) {
  return stype == kCSRStorage ? "csr" : stype == kRowSparseStorage ? "row_sparse" : "default";
}

/*! \brief Warn once per operator that sparse inputs were densified for it. */
void LogStorageFallback(const nnvm::Op* op, const std::vector<int>& in_stypes) {
  static std::mutex mu;
  static std::unordered_set<const nnvm::Op*> logged;
  const char* env = std::getenv("MXNET_STORAGE_FALLBACK_LOG_VERBOSE");
  if (env != nullptr && std::string(env) == "0") return;
  std::lock_guard<std::mutex> lock(mu);
  if (!logged.insert(op).second) return;
  std::ostringstream os;
  for (size_t i = 0; i < in_stypes.size(); ++i) os << (i ? ", " : "") << StypeName(in_stypes[i]);
  LOG(WARNING) << "Storage type fallback detected: operator = " << op->name
               << ", input storage types = [" << os.str()
               << "]. Temporary dense arrays are used to run it; the result is dense. Set "
                  "MXNET_STORAGE_FALLBACK_LOG_VERBOSE=0 to suppress this message.";
}

}  // namespace

std::shared_ptr<const nnvm::NodeAttrs> Imperative::ParseAttrs(const nnvm::Op* op, int num_inputs,
                                                              int num_params, const char** keys,
                                                              const char** vals) {
  AttrCache* cache = GetAttrCache();
  const bool var_args = !op->key_var_num_args.empty();
  if (num_params == 0 && !var_args) {
    auto it = cache->no_params.find(op);
    if (it != cache->no_params.end()) return it->second;
    auto attrs = BuildAttrs(op, num_inputs, 0, keys, vals);
    cache->no_params.emplace(op, attrs);
    return attrs;
  }
  std::string& key = cache->key;
  key.assign(reinterpret_cast<const char*>(&op), sizeof(op));
  if (var_args) key.append(std::to_string(num_inputs)).push_back('\x01');
  for (int i = 0; i < num_params; ++i) {
    key.append(keys[i]).push_back('\x00');
    key.append(vals[i]).push_back('\x00');
  }
  auto it = cache->with_params.find(key);
  if (it != cache->with_params.end()) return it->second;
  auto attrs = BuildAttrs(op, num_inputs, num_params, keys, vals);
  if (cache->with_params.size() >= AttrCache::kMaxEntries) cache->with_params.clear();
  cache->with_params.emplace(key, attrs);
  return attrs;
}

void Imperative::Invoke(const std::shared_ptr<const nnvm::NodeAttrs>& attrs_ptr,
                        const std::vector<NDArray*>& inputs, const std::vector<NDArray*>& outputs) {
  if (!is_recording_) {
    InvokeOp(*attrs_ptr, attrs_ptr, inputs, outputs);
    return;
  }
  // Check before running: an op must not overwrite an array the recorded graph refers to.
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (IsRecorded(*outputs[i])) {
      MX_THROW(ValueError)
          << "Operator " << attrs_ptr->op->name << ": output " << i
          << " is an NDArray that is already in a computational graph. Assigning to it would "
             "make its gradient undefined. Call backward first to clear the graph or do this "
             "outside of a record section; in-place operations like +=, *=, relu(x, out=x), "
             "y[idx]=x cannot be used inside a record section.";
    }
  }
  OpStatePtr state;
  InvokeOp(*attrs_ptr, attrs_ptr, inputs, outputs, nullptr, &state);
  RecordOp(*attrs_ptr, inputs, outputs, state);
}

void Imperative::InvokeOp(const nnvm::NodeAttrs& attrs, std::shared_ptr<const void> keep_alive,
                          const std::vector<NDArray*>& inputs, const std::vector<NDArray*>& outputs,
                          const OpStatePtr* backward_state, OpStatePtr* created_state,
                          const std::vector<bool>* unused_outputs) {
  const nnvm::Op* op = attrs.op;
  Engine::Get()->WaitForCapacity();
  const uint32_t num_inputs = NumInputs(attrs);
  if (inputs.size() != num_inputs) {
    MX_THROW(ValueError) << "Operator " << op->name << " expects " << num_inputs
                         << " input(s), got " << inputs.size();
  }
  const uint32_t num_outputs = NumOutputs(attrs);
  CHECK_EQ(outputs.size(), num_outputs) << "Imperative::Invoke of " << op->name
                                        << ": output count (a bug in the caller)";
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i]->is_none()) {
      MX_THROW(ValueError) << "Operator " << op->name << ": input " << i << " is an empty (none) NDArray";
    }
  }
  // copyto / as_in_context between devices: an asynchronous engine copy, not a kernel.
  static const nnvm::Op* copyto_op = nnvm::Op::Get("_copyto");
  if (op == copyto_op && !outputs[0]->is_none() && inputs[0]->ctx() != outputs[0]->ctx()) {
    CopyFromTo(*inputs[0], *outputs[0]);
    return;
  }
  const Context ctx = PickContext(attrs, inputs, outputs);
  if (ctx.dev_mask() == gpu::kDevMask && ctx.dev_id >= Context::GetGPUCount()) {
    Context::CheckGPU(ctx, "Operator " + op->name);  // throws, naming the operator
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i]->ctx().dev_mask() != ctx.dev_mask()) {
      MX_THROW(ValueError) << "Operator " << op->name << ": input " << i << " is on "
                           << inputs[i]->ctx() << " but the operator runs on " << ctx;
    }
  }
  // Storage dispatch (see FInferStorageType): the dense path below is unchanged otherwise.
  bool any_sparse = false;
  for (NDArray* in : inputs) any_sparse |= in->is_sparse();
  for (NDArray* out : outputs) any_sparse |= (!out->is_none() && out->is_sparse());
  DispatchMode mode = DispatchMode::kFCompute;
  std::vector<int> out_stypes;
  // Ops that can make sparse outputs from dense inputs (cast_storage, Embedding's backward
  // with sparse_grad) say so with TSparseFromDense; all other dense calls skip the inference.
  static auto& fsparse_from_dense = nnvm::Op::GetAttr<bool>("TSparseFromDense");
  if (any_sparse || fsparse_from_dense.get(op, false)) {
    std::vector<int> in_stypes(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) in_stypes[i] = inputs[i]->storage_type();
    out_stypes.assign(outputs.size(), kUndefinedStorage);
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (!outputs[i]->is_none()) out_stypes[i] = outputs[i]->storage_type();
    }
    mode = exec::InferDispatch(attrs, ctx.dev_mask(), &in_stypes, &out_stypes);
    if (mode == DispatchMode::kFComputeFallback) {
      LogStorageFallback(op, in_stypes);
      InvokeWithStorageFallback(attrs, std::move(keep_alive), inputs, outputs, backward_state,
                                created_state, unused_outputs);
      return;
    }
  }
  const bool dispatch_ex = mode == DispatchMode::kFComputeEx;
  // The kernel is chosen before any output is allocated: no GPU kernel fails cleanly here.
  static auto& fcreate_state = nnvm::Op::GetAttr<FCreateOpState>("FCreateOpState");
  exec::OpKernel kernel =
      exec::SelectKernel(attrs, ctx, mode, fcreate_state.count(op) || backward_state != nullptr,
                         "imperative");

  // Shape and type inference (errors are raised here, synchronously).
  ShapeVector in_shapes(num_inputs), out_shapes(num_outputs);
  std::vector<int> in_types(num_inputs), out_types(num_outputs, -1);
  for (uint32_t i = 0; i < num_inputs; ++i) {
    in_shapes[i] = inputs[i]->shape();
    in_types[i] = inputs[i]->dtype();
  }
  for (uint32_t i = 0; i < num_outputs; ++i) {
    if (!outputs[i]->is_none()) {
      out_shapes[i] = outputs[i]->shape();
      out_types[i] = outputs[i]->dtype();
    }
  }
  static auto& finfer_shape = nnvm::Op::GetAttr<mxnet::FInferShape>("FInferShape");
  static auto& finfer_type = nnvm::Op::GetAttr<nnvm::FInferType>("FInferType");
  // Output shapes that depend on input values: wait for the inputs and read them now.
  static auto& fdata_shape = nnvm::Op::GetAttr<FDataDependentShape>("FDataDependentShape");
  if (fdata_shape.count(op)) {
    // The shape function reads values on the host: device inputs are read from host copies.
    std::vector<TBlob> in_blobs;
    std::vector<NDArray> host_copies;
    host_copies.reserve(inputs.size());
    for (NDArray* in : inputs) {
      in->WaitToRead();
      if (!in->is_none() && in->ctx().dev_mask() != cpu::kDevMask) {
        host_copies.emplace_back(in->shape(), Context::CPU(), false, in->dtype());
        if (in->shape().Size() > 0) host_copies.back().SyncCopyFromNDArray(*in);
        in_blobs.push_back(host_copies.back().data());
      } else {
        in_blobs.push_back(in->data());
      }
    }
    try {
      fdata_shape[op](attrs, in_blobs, &out_shapes);
    } catch (const dmlc::Error& e) {
      dmlc::RethrowNamingOperator(e, op->name);
    }
  }
  // A backward op run by autograd may have no inference functions: its outputs then come
  // allocated with the shapes/dtypes of its forward node's inputs.
  const bool outputs_given = std::none_of(outputs.begin(), outputs.end(),
                                          [](const NDArray* o) { return o->is_none(); });
  if (!finfer_shape.count(op) && !outputs_given) {
    MX_THROW(NotImplementedError) << "Operator " << op->name << " has no FInferShape";
  }
  // Errors of an operator's inference functions name it; so does an inferred shape with a
  // dimension below -1 (shape_is_known refuses it).
  bool shapes_inferred = true, types_inferred = true;
  try {
    if (finfer_shape.count(op)) shapes_inferred = finfer_shape[op](attrs, &in_shapes, &out_shapes);
    shapes_inferred = shapes_inferred &&
                      std::all_of(out_shapes.begin(), out_shapes.end(),
                                  [](const TShape& s) { return shape_is_known(s); });
  } catch (const dmlc::Error& e) {
    dmlc::RethrowNamingOperator(e, op->name);
  }
  if (!shapes_inferred) {
    MX_THROW(ValueError) << "Operator " << op->name << ": cannot infer output shapes from input shapes "
                         << ShapeList(in_shapes) << " (got " << ShapeList(out_shapes) << ")";
  }
  if (!finfer_type.count(op) && !outputs_given) {
    MX_THROW(NotImplementedError) << "Operator " << op->name << " has no FInferType";
  }
  try {
    if (finfer_type.count(op)) types_inferred = finfer_type[op](attrs, &in_types, &out_types);
  } catch (const dmlc::Error& e) {
    dmlc::RethrowNamingOperator(e, op->name);
  }
  if (!types_inferred ||
      std::any_of(out_types.begin(), out_types.end(), [](int t) { return t < 0; })) {
    MX_THROW(TypeError) << "Operator " << op->name << ": cannot infer output dtypes from input dtypes "
                        << TypeList(in_types) << " (got " << TypeList(out_types) << ")";
  }
  // bfloat16 without a bfloat16 kernel runs the float32 one (exec_core.h); its state, if any,
  // is created for float32.
  std::vector<int> f32_types;
  const std::vector<int>* state_types = &in_types;
  if (exec::NeedsBF16Fallback(attrs, in_types, out_types)) {
    exec::ApplyBF16Fallback(attrs, in_types, out_types, &kernel);
    f32_types = exec::BF16AsFloat32(in_types);
    state_types = &f32_types;
  }

  for (uint32_t i = 0; i < num_outputs; ++i) {
    int64_t bytes = 0;
    if (!common::CheckedBytes(out_shapes[i], mshadow::mshadow_sizeof(out_types[i]), &bytes)) {
      MX_THROW(ValueError) << "Operator " << op->name << ": output " << i << " would have shape "
                           << out_shapes[i] << " (" << mshadow::dtype_string(out_types[i])
                           << "), more bytes than an array can address (2^63); inputs "
                           << ShapeList(in_shapes);
    }
  }

  // Outputs: allocate none ones; check the caller's.
  std::vector<OpReqType> req(num_outputs, kWriteTo);
  std::vector<bool> created(num_outputs, false);
  for (uint32_t i = 0; i < num_outputs; ++i) {
    NDArray* out = outputs[i];
    if (out->is_none()) {
      if (dispatch_ex && out_stypes[i] != kDefaultStorage && out_stypes[i] != kUndefinedStorage) {
        *out = NDArray(out_stypes[i], out_shapes[i], ctx, out_types[i]);
      } else {
        *out = NDArray(out_shapes[i], ctx, true, out_types[i]);
      }
      created[i] = true;
    } else {
      if (out->shape() != out_shapes[i]) {
        MX_THROW(ValueError) << "Operator " << op->name << ": output " << i << " has shape "
                             << out->shape() << ", expected " << out_shapes[i];
      }
      if (out->dtype() != out_types[i]) {
        MX_THROW(TypeError) << "Operator " << op->name << ": output " << i << " has dtype "
                            << mshadow::dtype_string(out->dtype()) << ", expected "
                            << mshadow::dtype_string(out_types[i]);
      }
      for (NDArray* in : inputs) {
        if (in->IsSame(*out)) req[i] = kWriteInplace;
      }
    }
    if (unused_outputs != nullptr && i < unused_outputs->size() && (*unused_outputs)[i]) {
      req[i] = kNullOp;
    }
  }

  // Engine dependencies: inputs read, outputs (and mutated inputs) written, resources written.
  std::vector<engine::VarHandle> read_vars, write_vars;
  read_vars.reserve(num_inputs);
  write_vars.reserve(num_outputs + 1);
  for (NDArray* in : inputs) read_vars.push_back(in->var());
  for (NDArray* out : outputs) write_vars.push_back(out->var());
  static auto& fmutate = nnvm::Op::GetAttr<nnvm::FMutateInputs>("FMutateInputs");
  if (fmutate.count(op)) {
    for (uint32_t idx : fmutate[op](attrs)) write_vars.push_back(inputs.at(idx)->var());
  }
  std::vector<Resource> requested;
  static auto& fresource = nnvm::Op::GetAttr<FResourceRequest>("FResourceRequest");
  if (fresource.count(op)) {
    for (const ResourceRequest& r : fresource[op](attrs)) {
      requested.push_back(ResourceManager::Get()->Request(ctx, r));
      write_vars.push_back(requested.back().var);
    }
  }
  Engine::DeduplicateVarHandle(&read_vars, &write_vars);

  // The arrays travel with the function and become TBlobs when it runs: outputs get their
  // memory then (not at push time), so pushing far ahead does not hold memory early.
  std::vector<NDArray> in_arrays(num_inputs), out_arrays(num_outputs);
  for (uint32_t i = 0; i < num_inputs; ++i) in_arrays[i] = inputs[i]->Detach();
  for (uint32_t i = 0; i < num_outputs; ++i) out_arrays[i] = outputs[i]->Detach();
  const bool is_train = is_train_;
  // Recording: a backward may follow, so ops that keep something for it (cuDNN's RNN) must.
  const bool need_grad = is_recording_;

  // An output created here may take over an input's memory where the op can write in place,
  // if by the time it runs nothing else refers to that input (an intermediate the frontend has
  // dropped, e.g. the FullyConnected output in relu(fc(x))): one buffer instead of two.
  std::vector<std::pair<int, int>> donations;
  static auto& finplace = nnvm::Op::GetAttr<nnvm::FInplaceOption>("FInplaceOption");
  if (finplace.count(op) && !fmutate.count(op) && !dispatch_ex) {
    for (const auto& pair : finplace[op](attrs)) {
      const uint32_t in = static_cast<uint32_t>(pair.first);
      const uint32_t out = static_cast<uint32_t>(pair.second);
      if (in < num_inputs && out < num_outputs && created[out] && req[out] == kWriteTo &&
          inputs[in]->shape() == out_shapes[out] && inputs[in]->dtype() == out_types[out]) {
        donations.push_back(pair);
      }
    }
  }

  if (kernel.kind == exec::KernelKind::kSubgraph) {
    // Control flow (_foreach, _while_loop, _cond and their backward): the kernel runs its
    // subgraphs from this thread, pushing their operators; it never runs inside a worker.
    OpStatePtr state = backward_state != nullptr ? *backward_state
                                                 : fcreate_state[op](attrs, ctx, in_shapes, *state_types);
    if (created_state != nullptr && backward_state == nullptr) *created_state = state;
    OpContext opctx;
    opctx.need_grad = is_recording_;
    opctx.is_train = is_train;
    kernel.RunSubgraph(state, opctx, in_arrays, req, out_arrays);
    return;
  }
  if (kernel.kind == exec::KernelKind::kFComputeEx) {
    FComputeEx fn = std::move(kernel.fcompute_ex);
    const nnvm::NodeAttrs* attrs_raw = &attrs;
    for (const NDArray& a : out_arrays) {
      if (!a.is_sparse()) a.CheckAndAlloc();
    }
    Engine::Get()->PushSync(
        [keep_alive = std::move(keep_alive), attrs_raw, fn, in_arrays = std::move(in_arrays),
         out_arrays = std::move(out_arrays), req = std::move(req),
         requested = std::move(requested), is_train, need_grad](RunContext rctx) {
          OpContext opctx;
          opctx.need_grad = need_grad;
          opctx.is_train = is_train;
          opctx.run_ctx = rctx;
          opctx.requested = requested;
          fn(*attrs_raw, opctx, in_arrays, req, out_arrays);
        },
        ctx, read_vars, write_vars, FnProperty::kNormal, 0, op->name.c_str());
    return;
  }
  if (kernel.kind == exec::KernelKind::kFCompute) {
    FCompute fn = std::move(kernel.fcompute);
    const nnvm::NodeAttrs* attrs_raw = &attrs;
    Engine::Get()->PushSync(
        [keep_alive = std::move(keep_alive), attrs_raw, fn, in_arrays = std::move(in_arrays),
         out_arrays = std::move(out_arrays), req = std::move(req),
         requested = std::move(requested), donations = std::move(donations),
         is_train, need_grad](RunContext rctx) mutable {
          for (const auto& d : donations) {
            if (out_arrays[d.second].AdoptStorageOf(&in_arrays[d.first])) {
              in_arrays[d.first] = out_arrays[d.second];
              req[d.second] = kWriteInplace;
            }
          }
          std::vector<TBlob> in_blobs = BlobsOf(in_arrays), out_blobs = BlobsOf(out_arrays);
          OpContext opctx;
          opctx.need_grad = need_grad;
          opctx.is_train = is_train;
          opctx.run_ctx = rctx;
          opctx.requested = requested;
          fn(*attrs_raw, opctx, in_blobs, req, out_blobs);
        },
        ctx, read_vars, write_vars, FnProperty::kNormal, 0, op->name.c_str());
  } else {
    // A forward op creates its state; a backward op runs on its forward node's state.
    OpStatePtr state = backward_state != nullptr ? *backward_state
                                                 : fcreate_state[op](attrs, ctx, in_shapes, *state_types);
    if (created_state != nullptr && backward_state == nullptr) *created_state = state;
    FStatefulCompute fn = std::move(kernel.fstateful);
    write_vars.push_back(state.get_var());
    Engine::DeduplicateVarHandle(&read_vars, &write_vars);
    if (kernel.is_async) {
      // The op completes by calling opctx.async_on_complete (e.g. Custom, which runs its
      // frontend callback on its own worker threads).
      Engine::Get()->PushAsync(
          [state, fn, in_arrays = std::move(in_arrays), out_arrays = std::move(out_arrays),
           req = std::move(req), requested = std::move(requested),
           is_train, need_grad](RunContext rctx, engine::CallbackOnComplete on_complete) {
            std::vector<TBlob> in_blobs = BlobsOf(in_arrays), out_blobs = BlobsOf(out_arrays);
            OpContext opctx;
            opctx.need_grad = need_grad;
            opctx.is_train = is_train;
            opctx.run_ctx = rctx;
            opctx.async_on_complete = on_complete;
            opctx.requested = requested;
            fn(state, opctx, in_blobs, req, out_blobs);
          },
          ctx, read_vars, write_vars, FnProperty::kAsync, 0, op->name.c_str());
    } else {
      Engine::Get()->PushSync(
          [state, fn, in_arrays = std::move(in_arrays), out_arrays = std::move(out_arrays),
           req = std::move(req), requested = std::move(requested), is_train,
           need_grad](RunContext rctx) {
            std::vector<TBlob> in_blobs = BlobsOf(in_arrays), out_blobs = BlobsOf(out_arrays);
            OpContext opctx;
            opctx.need_grad = need_grad;
            opctx.is_train = is_train;
            opctx.run_ctx = rctx;
            opctx.requested = requested;
            fn(state, opctx, in_blobs, req, out_blobs);
          },
          ctx, read_vars, write_vars, FnProperty::kNormal, 0, op->name.c_str());
    }
  }
}

}  // namespace mxnet

namespace mxnet {

void Imperative::InvokeWithStorageFallback(const nnvm::NodeAttrs& attrs,
                                           std::shared_ptr<const void> keep_alive,
                                           const std::vector<NDArray*>& inputs,
                                           const std::vector<NDArray*>& outputs,
                                           const OpStatePtr* backward_state,
                                           OpStatePtr* created_state,
                                           const std::vector<bool>* unused_outputs) {
  // Dense copies of sparse inputs (pushed, not waited for); dense temporaries for sparse outputs.
  std::vector<NDArray> dense_in(inputs.size()), dense_out(outputs.size());
  std::vector<NDArray*> in_ptrs(inputs.size()), out_ptrs(outputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i]->is_sparse()) {
      dense_in[i] = NDArray(inputs[i]->shape(), inputs[i]->ctx(), true, inputs[i]->dtype());
      CopyFromTo(*inputs[i], dense_in[i]);
      in_ptrs[i] = &dense_in[i];
    } else {
      in_ptrs[i] = inputs[i];
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i]->is_none() && outputs[i]->is_sparse()) {
      dense_out[i] = NDArray(outputs[i]->shape(), outputs[i]->ctx(), true, outputs[i]->dtype());
      // An output that is also an input (in place) starts from the input's values.
      for (size_t j = 0; j < inputs.size(); ++j) {
        if (inputs[j]->IsSame(*outputs[i])) dense_out[i] = dense_in[j];
      }
      out_ptrs[i] = &dense_out[i];
    } else {
      out_ptrs[i] = outputs[i];
    }
  }
  InvokeOp(attrs, std::move(keep_alive), in_ptrs, out_ptrs, backward_state, created_state,
           unused_outputs);
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (out_ptrs[i] != outputs[i]) CopyFromTo(*out_ptrs[i], *outputs[i]);
  }
  // Inputs the op mutates (optimizer states) are written back to their sparse originals.
  static auto& fmutate = nnvm::Op::GetAttr<nnvm::FMutateInputs>("FMutateInputs");
  if (fmutate.count(attrs.op)) {
    for (uint32_t idx : fmutate[attrs.op](attrs)) {
      if (idx < inputs.size() && in_ptrs[idx] != inputs[idx]) CopyFromTo(*in_ptrs[idx], *inputs[idx]);
    }
  }
}

}  // namespace mxnet
