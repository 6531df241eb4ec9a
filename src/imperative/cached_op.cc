/*!
 * \file cached_op.cc
 * \brief CachedOp: flag parsing, per-signature bound executors, forward, recorded backward and
 *        the `_CachedOp` / `_backward_CachedOp` autograd nodes.
 */
#include "./cached_op.h"

#include <mxnet/data_dependent_shape.h>
#include <nnvm/graph.h>
#include <nnvm/graph_passes.h>
#include <nnvm/op_attr_types.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <unordered_map>

#include "./autograd.h"

namespace mxnet {

namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ParseBool(const std::string& key, const std::string& value) {
  const std::string v = Lower(value);
  if (v == "1" || v == "true") return true;
  if (v == "0" || v == "false") return false;
  MX_THROW(ValueError) << "CachedOp flag " << key << ": expected a boolean (True/False/1/0), got '"
                       << value << "'";
  return false;
}

uint32_t ParseUint(const std::string& key, const std::string& value) {
  char* end = nullptr;
  const long long v = std::strtoll(value.c_str(), &end, 10);
  if (end == value.c_str() || *end != '\0' || v < 0) {
    MX_THROW(ValueError) << "CachedOp flag " << key << ": expected a non-negative integer, got '"
                         << value << "'";
  }
  return static_cast<uint32_t>(v);
}

/*! \brief "[0, 2]", "(0, 2)", "(0,)" or "0,2" -> {0, 2}. */
std::vector<uint32_t> ParseIndexList(const std::string& key, const std::string& value) {
  std::vector<uint32_t> ret;
  std::string token;
  auto flush = [&]() {
    if (token.empty()) return;
    ret.push_back(ParseUint(key, token));
    token.clear();
  };
  for (char c : value) {
    if (c == '[' || c == ']' || c == '(' || c == ')' || c == ' ') continue;
    if (c == ',') {
      flush();
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      token.push_back(c);
    } else {
      MX_THROW(ValueError) << "CachedOp flag " << key
                           << ": expected a list of input indices like [0, 1], got '" << value
                           << "'";
    }
  }
  flush();
  return ret;
}

uint32_t EnvUint(const char* name, uint32_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  return static_cast<uint32_t>(std::strtoul(v, nullptr, 10));
}

/*! \brief Rethrow `e` with `prefix` in front of its message, keeping its Python error type. */
[[noreturn]] void RethrowWithPrefix(const std::exception& e, const std::string& prefix) {
  const std::string msg = prefix + e.what();
  const auto* err = dynamic_cast<const dmlc::Error*>(&e);
  const std::string type = err != nullptr ? err->type_name() : "MXNetError";
  if (type == "ValueError") throw ValueError(msg);
  if (type == "TypeError") throw TypeError(msg);
  if (type == "NotImplementedError") throw NotImplementedError(msg);
  if (type == "IndexError") throw IndexError(msg);
  if (type == "InternalError") throw InternalError(msg);
  throw dmlc::Error(msg);
}

/*!
 * \brief Whether the gradient of `arr` can be needed: a marked variable with a gradient request,
 *        or the output of a recorded op. Arrays autograd turned into constants (inputs of an
 *        earlier recorded call that needed no gradient) and aux states need none.
 */
bool RequiresGrad(const NDArray& arr) {
  const nnvm::Node* node = arr.entry_.node.get();
  const AGInfo* info = AGInfo::Find(node);
  if (info == nullptr) return false;
  if (!node->is_variable()) return true;
  return info->grad_req != kNullOp && !info->out_grads.empty();
}

const nnvm::Op* CachedOpNode() {
  static const nnvm::Op* op = nnvm::Op::Get("_CachedOp");
  return op;
}

}  // namespace

/*! \brief One executor bound for a shape signature, with the arrays it is bound to. */
struct CachedOp::Bound {
  std::unique_ptr<Executor> exec;
  std::vector<TShape> shapes;
  std::vector<int> dtypes;
  std::vector<bool> need_grad;
  /*! \brief Per input: the caller's array bound by reference (none when copied). */
  std::vector<NDArray> borrowed;
  /*! \brief Per input: the private array the input is copied into (none when borrowed). */
  std::vector<NDArray> owned;
  /*! \brief Per input: its gradient array (none when it needs no gradient). */
  std::vector<NDArray> grads;
  Context ctx;
};

/*! \brief The state autograd keeps for a recorded call: the executor holding its values. */
struct CachedOp::RecordedCall {
  std::shared_ptr<CachedOp> op;
  std::shared_ptr<Bound> bound;
  /*! \brief Per input: part of a recorded graph but not differentiated by the executor (an
   *         auxiliary state): its gradient is zero. */
  std::vector<bool> zero_grad;
};

CachedOp::CachedOp(const nnvm::Symbol& sym, const Flags& flags) : sym_(sym.Copy()) {
  config_.forward_bulk_size =
      EnvUint("MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN_FWD",
              EnvUint("MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN", 15));
  config_.backward_bulk_size =
      EnvUint("MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN_BWD",
              EnvUint("MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN", 15));
  for (const auto& kv : flags) {
    const std::string& k = kv.first;
    const std::string& v = kv.second;
    if (k == "static_alloc") {
      config_.static_alloc = ParseBool(k, v);
    } else if (k == "static_shape") {
      config_.static_shape = ParseBool(k, v);
    } else if (k == "is_dynamic") {
      config_.is_dynamic = ParseBool(k, v);
    } else if (k == "inline_limit") {
      config_.inline_limit = ParseUint(k, v);
    } else if (k == "forward_bulk_size") {
      config_.forward_bulk_size = ParseUint(k, v);
    } else if (k == "backward_bulk_size") {
      config_.backward_bulk_size = ParseUint(k, v);
    } else if (k == "data_indices") {
      config_.data_indices = ParseIndexList(k, v);
    } else if (k == "param_indices") {
      config_.param_indices = ParseIndexList(k, v);
    } else if (k == "subgraph") {
      config_.subgraph = v;
    } else {
      MX_THROW(ValueError) << "CachedOp: unknown flag '" << k
                           << "'; valid flags are static_alloc, static_shape, inline_limit, "
                              "forward_bulk_size, backward_bulk_size, data_indices, "
                              "param_indices, subgraph, is_dynamic";
    }
  }
  if (config_.static_shape && !config_.static_alloc) {
    MX_THROW(ValueError) << "CachedOp: static_shape=True requires static_alloc=True";
  }
  std::vector<nnvm::ObjectPtr> inputs = sym_.ListInputs(nnvm::Symbol::kAll);
  std::vector<nnvm::ObjectPtr> args = sym_.ListInputs(nnvm::Symbol::kReadOnlyArgs);
  std::vector<nnvm::ObjectPtr> aux = sym_.ListInputs(nnvm::Symbol::kAuxiliaryStates);
  num_args_ = static_cast<uint32_t>(args.size());
  num_aux_ = static_cast<uint32_t>(aux.size());
  for (const nnvm::ObjectPtr& n : inputs) {
    input_names_.push_back(n->attrs.name);
    auto a = std::find(args.begin(), args.end(), n);
    if (a != args.end()) {
      input_is_aux_.push_back(false);
      input_pos_.push_back(static_cast<uint32_t>(a - args.begin()));
    } else {
      auto x = std::find(aux.begin(), aux.end(), n);
      CHECK(x != aux.end()) << "CachedOp: input " << n->attrs.name
                            << " is neither an argument nor an auxiliary state";
      input_is_aux_.push_back(true);
      input_pos_.push_back(static_cast<uint32_t>(x - aux.begin()));
    }
  }
  for (uint32_t i : config_.data_indices) {
    if (i >= inputs.size()) {
      MX_THROW(ValueError) << "CachedOp flag data_indices: index " << i << " out of range, the "
                           << "symbol has " << inputs.size() << " inputs";
    }
  }
  for (uint32_t i : config_.param_indices) {
    if (i >= inputs.size()) {
      MX_THROW(ValueError) << "CachedOp flag param_indices: index " << i << " out of range, the "
                           << "symbol has " << inputs.size() << " inputs";
    }
  }
  // Data inputs change on every call: copy them into private arrays from the start.
  copy_input_.assign(inputs.size(), false);
  for (uint32_t i : config_.data_indices) copy_input_[i] = true;
  static auto& fdata_shape = nnvm::Op::GetAttr<FDataDependentShape>("FDataDependentShape");
  nnvm::DFSVisit(sym_.outputs, [this](const nnvm::ObjectPtr& n) {
    if (n->is_variable()) return;
    ++num_op_nodes_;
    has_data_dependent_shape_ = has_data_dependent_shape_ || fdata_shape.count(n->op());
  });
}

std::string CachedOp::DisplayName() const {
  std::ostringstream os;
  os << "CachedOp(";
  std::vector<std::string> names = sym_.ListOutputNames();
  for (size_t i = 0; i < names.size(); ++i) os << (i ? ", " : "") << names[i];
  os << ')';
  return os.str();
}

void CachedOp::CheckInputs(const std::vector<NDArray*>& inputs) const {
  if (inputs.size() != input_names_.size()) {
    std::ostringstream os;
    for (size_t i = 0; i < input_names_.size(); ++i) os << (i ? ", " : "") << input_names_[i];
    MX_THROW(ValueError) << DisplayName() << " expects " << input_names_.size()
                         << " input(s) [" << os.str() << "], got " << inputs.size();
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr || inputs[i]->is_none()) {
      MX_THROW(ValueError) << DisplayName() << ": input " << i << " (" << input_names_[i]
                           << ") is an empty (none) NDArray";
    }
  }
}

std::shared_ptr<CachedOp::Bound> CachedOp::GetBound(const std::vector<NDArray*>& inputs,
                                                    const std::vector<bool>& need_grad) {
  std::lock_guard<std::mutex> lock(mutex_);
  const Context ctx = inputs.empty() ? Context::CPU() : inputs[0]->ctx();
  std::vector<bool> changed(inputs.size(), false);
  for (const std::shared_ptr<Bound>& b : bound_) {
    if (b.use_count() != 1) continue;  // a pending backward still needs its values
    if (b->need_grad != need_grad || b->ctx != ctx) continue;
    bool match = true;
    for (size_t i = 0; i < inputs.size() && match; ++i) {
      match = b->shapes[i] == inputs[i]->shape() && b->dtypes[i] == inputs[i]->dtype();
    }
    if (!match) continue;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!b->borrowed[i].is_none() && !b->borrowed[i].IsSame(*inputs[i])) {
        changed[i] = true;
        match = false;
      }
    }
    if (match) return b;
  }
  // A slot whose array differs from the bound one gets copied from now on; executors bound
  // to the old array by reference would never match again.
  bool any_changed = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (changed[i]) {
      copy_input_[i] = true;
      any_changed = true;
    }
  }
  if (any_changed) {
    std::vector<std::shared_ptr<Bound>> keep;
    for (std::shared_ptr<Bound>& b : bound_) {
      bool stale = false;
      for (size_t i = 0; i < inputs.size(); ++i) {
        stale = stale || (copy_input_[i] && !b->borrowed[i].is_none());
      }
      if (!stale) keep.push_back(std::move(b));
    }
    bound_.swap(keep);
  }
  // Bound the cache: drop the oldest free executors beyond a few dozen signatures.
  const size_t kMaxBound = 32;
  for (auto it = bound_.begin(); bound_.size() >= kMaxBound && it != bound_.end();) {
    if (it->use_count() == 1) {
      it = bound_.erase(it);
    } else {
      ++it;
    }
  }
  std::shared_ptr<Bound> b = BindNew(inputs, need_grad);
  bound_.push_back(b);
  return b;
}

std::shared_ptr<CachedOp::Bound> CachedOp::BindNew(const std::vector<NDArray*>& inputs,
                                                   const std::vector<bool>& need_grad) {
  auto b = std::make_shared<Bound>();
  const size_t n = inputs.size();
  b->ctx = n == 0 ? Context::CPU() : inputs[0]->ctx();
  b->need_grad = need_grad;
  b->borrowed.resize(n);
  b->owned.resize(n);
  b->grads.resize(n);
  std::vector<NDArray> args(num_args_), aux(num_aux_), arg_grads(num_args_);
  std::vector<OpReqType> reqs(num_args_, kNullOp);
  for (size_t i = 0; i < n; ++i) {
    const NDArray& in = *inputs[i];
    b->shapes.push_back(in.shape());
    b->dtypes.push_back(in.dtype());
    NDArray arr;
    // Sparse inputs are bound as dense copies (the graph runs dense kernels on them).
    if (copy_input_[i] || in.is_sparse()) {
      arr = NDArray(in.shape(), b->ctx, false, in.dtype());
      b->owned[i] = arr;
    } else {
      arr = in.Detach();
      b->borrowed[i] = arr;
    }
    if (input_is_aux_[i]) {
      aux[input_pos_[i]] = arr;
    } else {
      args[input_pos_[i]] = arr;
      if (need_grad[i]) {
        arg_grads[input_pos_[i]] = NDArray(in.shape(), b->ctx, false, in.dtype());
        reqs[input_pos_[i]] = kWriteTo;
        b->grads[i] = arg_grads[input_pos_[i]];
      }
    }
  }
  try {
    b->exec.reset(Executor::Bind(sym_, b->ctx, {}, args, arg_grads, reqs, aux));
    auto to_int = [](uint32_t v) { return static_cast<int>(std::min<uint32_t>(v, 1u << 30)); };
    b->exec->SetBulkSizes(to_int(config_.forward_bulk_size), to_int(config_.backward_bulk_size));
  } catch (const std::exception& e) {
    std::ostringstream os;
    os << DisplayName() << ": cannot run the graph on inputs ";
    for (size_t i = 0; i < n; ++i) {
      os << (i ? ", " : "") << input_names_[i] << inputs[i]->shape() << ' '
         << mshadow::dtype_string(inputs[i]->dtype());
    }
    os << ": ";
    RethrowWithPrefix(e, os.str());
  }
  InstallHook(b.get());
  return b;
}

void CachedOp::InstallHook(Bound* b) const {
  if (!hook_) {
    b->exec->SetMonitorCallback(nullptr, false);
    return;
  }
  std::shared_ptr<HookState> hook = hook_;
  b->exec->SetMonitorCallback(
      [hook](const char* name, const NDArray& arr) {
        // Executor monitor names are "<node>_<output>" (or "<node>_<input>"): the longest node
        // name that prefixes it is the node, which gives the operator name.
        const std::string s(name);
        size_t best = 0;
        const std::string* op_name = nullptr;
        for (const auto& kv : hook->op_of_node) {
          if (kv.first.size() > best && s.compare(0, kv.first.size(), kv.first) == 0) {
            best = kv.first.size();
            op_name = &kv.second;
          }
        }
        hook->fn(name, op_name != nullptr ? op_name->c_str() : "", arr);
      },
      hook->monitor_all);
}

void CachedOp::RegisterOpHook(Hook hook, bool monitor_all) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (hook) {
    auto state = std::make_shared<HookState>();
    state->fn = std::move(hook);
    state->monitor_all = monitor_all;
    nnvm::DFSVisit(sym_.outputs, [&](const nnvm::ObjectPtr& node) {
      if (!node->is_variable()) state->op_of_node[node->attrs.name] = node->op()->name;
    });
    hook_ = std::move(state);
  } else {
    hook_.reset();
  }
  // Gluon registers the hook again before every call: update the bound executors in place.
  for (const std::shared_ptr<Bound>& b : bound_) InstallHook(b.get());
}

void CachedOp::InvokeInline(const std::vector<NDArray*>& inputs,
                            const std::vector<NDArray*>& outputs) {
  // Small graphs under autograd are recorded op by op (MXNet's inline_limit): backward then
  // needs no executor, and the result is exactly the imperative one.
  Imperative* imp = Imperative::Get();
  std::unordered_map<const nnvm::Node*, std::vector<NDArray>> values;
  std::vector<nnvm::ObjectPtr> in_nodes = sym_.ListInputs(nnvm::Symbol::kAll);
  for (size_t i = 0; i < in_nodes.size(); ++i) values[in_nodes[i].get()] = {*inputs[i]};
  std::vector<nnvm::ObjectPtr> order;
  nnvm::DFSVisit(sym_.outputs, [&](const nnvm::ObjectPtr& n) { order.push_back(n); });
  for (const nnvm::ObjectPtr& n : order) {
    if (n->is_variable()) continue;
    std::vector<NDArray*> ins, outs;
    for (const nnvm::NodeEntry& e : n->inputs) ins.push_back(&values.at(e.node.get()).at(e.index));
    std::vector<NDArray>& res = values[n.get()];
    res.resize(n->num_outputs());
    for (NDArray& a : res) outs.push_back(&a);
    std::shared_ptr<const nnvm::NodeAttrs> attrs(n, &n->attrs);  // aliases the node
    imp->Invoke(attrs, ins, outs);
    // Aux states mutated in place by the op are the caller's arrays already (values hold them).
  }
  static const nnvm::Op* copy_op = nnvm::Op::Get("_copy");
  for (size_t i = 0; i < outputs.size(); ++i) {
    const nnvm::NodeEntry& e = sym_.outputs[i];
    NDArray& result = values.at(e.node.get()).at(e.index);
    if (outputs[i]->is_none() && !e.node->is_variable()) {
      *outputs[i] = result;
      continue;
    }
    // A given output array, or an output that is an input: copied, as an op so autograd sees it.
    auto attrs = std::make_shared<nnvm::NodeAttrs>();
    attrs->op = copy_op;
    attrs->name = "_copy";
    imp->Invoke(attrs, {&result}, {outputs[i]});
  }
}

void CachedOp::Forward(const std::vector<NDArray*>& inputs, const std::vector<NDArray*>& outputs) {
  CheckInputs(inputs);
  if (outputs.size() != num_outputs()) {
    MX_THROW(ValueError) << DisplayName() << " has " << num_outputs() << " output(s), got "
                         << outputs.size() << " output arrays";
  }
  Imperative* imp = Imperative::Get();
  const bool recording = imp->is_recording();
  const bool is_train = imp->is_training();
  std::vector<bool> need_grad(inputs.size(), false);
  bool any_grad = false;
  if (recording) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      need_grad[i] = !input_is_aux_[i] && RequiresGrad(*inputs[i]);
      any_grad = any_grad || need_grad[i];
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (Imperative::IsRecorded(*outputs[i])) {
        MX_THROW(ValueError) << DisplayName() << ": output " << i
                             << " is an NDArray that is already in a computational graph; "
                                "assigning to it inside a record section is not allowed";
      }
    }
  }
  bool outputs_from_ops = true;
  for (const nnvm::NodeEntry& e : sym_.outputs) {
    outputs_from_ops = outputs_from_ops && !e.node->is_variable();
  }
  bool outputs_free = true;
  for (NDArray* o : outputs) outputs_free = outputs_free && o->is_none();
  if (any_grad && num_op_nodes_ <= config_.inline_limit && outputs_from_ops && outputs_free) {
    InvokeInline(inputs, outputs);
    return;
  }
  if (has_data_dependent_shape_) {
    // MXNet 1.x's dynamic-shape path: shapes are known only as the values are computed.
    InvokeInline(inputs, outputs);
    return;
  }

  std::shared_ptr<Bound> b = GetBound(inputs, need_grad);
  const std::vector<NDArray>& results = b->exec->outputs();
  for (size_t i = 0; i < outputs.size(); ++i) {
    const NDArray& src = results[i];
    if (!outputs[i]->is_none() &&
        (outputs[i]->shape() != src.shape() || outputs[i]->dtype() != src.dtype())) {
      MX_THROW(ValueError) << DisplayName() << ": output array " << i << " has shape "
                           << outputs[i]->shape() << ' '
                           << mshadow::dtype_string(outputs[i]->dtype()) << ", the result has "
                           << src.shape() << ' ' << mshadow::dtype_string(src.dtype());
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!b->owned[i].is_none()) CopyFromTo(*inputs[i], b->owned[i]);
  }
  b->exec->Forward(is_train);
  if (is_train) {
    // Auxiliary states bound as private copies were updated there: write them back.
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (input_is_aux_[i] && !b->owned[i].is_none()) CopyFromTo(b->owned[i], *inputs[i]);
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const NDArray& src = results[i];
    if (outputs[i]->is_none()) *outputs[i] = NDArray(src.shape(), src.ctx(), false, src.dtype());
    CopyFromTo(src, *outputs[i]);
  }
  if (any_grad) {
    std::vector<bool> zero_grad(inputs.size(), false);
    for (size_t i = 0; i < inputs.size(); ++i) {
      zero_grad[i] = input_is_aux_[i] && RequiresGrad(*inputs[i]);
    }
    OpStatePtr state = OpStatePtr::Create<RecordedCall>(
        RecordedCall{shared_from_this(), b, std::move(zero_grad)});
    nnvm::NodeAttrs attrs;
    attrs.op = CachedOpNode();
    attrs.name = "_cachedop";
    attrs.parsed = shared_from_this();
    imp->RecordOp(attrs, inputs, outputs, state);
  }
}

void CachedOp::Backward(const OpStatePtr& state, const std::vector<NDArray*>& ograds,
                        const std::vector<NDArray*>& igrads, bool is_train, bool fresh_grads) {
  const RecordedCall& call = state.get_state<RecordedCall>();
  Bound& b = *call.bound;
  if (igrads.size() != b.need_grad.size()) {
    MX_THROW(InternalError) << call.op->DisplayName() << " backward: " << igrads.size()
                            << " gradient outputs for " << b.need_grad.size() << " inputs";
  }
  std::vector<NDArray> heads;
  for (NDArray* g : ograds) heads.push_back(g == nullptr ? NDArray() : g->Detach());
  b.exec->Backward(heads, is_train);
  for (size_t i = 0; i < igrads.size(); ++i) {
    if (call.zero_grad[i]) {
      const TShape shape = b.shapes[i];
      NDArray zeros(shape, b.ctx, false, b.dtypes[i]);
      Engine::Get()->PushSync(
          [zeros](RunContext) {
            TBlob blob = zeros.data();
            std::memset(blob.dptr_, 0, blob.Size() * mshadow::mshadow_sizeof(blob.type_flag_));
          },
          b.ctx, {}, {zeros.var()}, FnProperty::kNormal, 0, "cached_op_zero_grad");
      *igrads[i] = zeros;
    }
    if (!b.need_grad[i]) continue;
    const NDArray& g = b.grads[i];
    if (fresh_grads) {
      *igrads[i] = NDArray(g.shape(), g.ctx(), false, g.dtype());
      CopyFromTo(g, *igrads[i]);
    } else {
      *igrads[i] = g;
    }
  }
}

namespace cached_op {

bool IsBackwardOp(const nnvm::Op* op) {
  static const nnvm::Op* backward = nnvm::Op::Get("_backward_CachedOp");
  return op == backward;
}

namespace {

const CachedOp& OpOf(const nnvm::NodeAttrs& attrs) {
  const auto* op = std::any_cast<std::shared_ptr<CachedOp>>(&attrs.parsed);
  if (op == nullptr || *op == nullptr) {
    // Only a CachedOp's own graph nodes carry it; a call by name has none.
    MX_THROW(NotImplementedError) << "Operator " << (attrs.op ? attrs.op->name : "_CachedOp")
                                  << " belongs to a CachedOp's recorded graph; it cannot be "
                                     "called by name";
  }
  return **op;
}

std::vector<nnvm::NodeEntry> Gradient(const nnvm::ObjectPtr& n,
                                      const std::vector<nnvm::NodeEntry>& ograds) {
  nnvm::ObjectPtr bwd = nnvm::Node::Create();
  bwd->attrs.op = nnvm::Op::Get("_backward_CachedOp");
  bwd->attrs.name = n->attrs.name + "_backward";
  bwd->attrs.parsed = n->attrs.parsed;
  bwd->inputs = ograds;
  bwd->control_deps.push_back(n);
  std::vector<nnvm::NodeEntry> ret;
  for (uint32_t i = 0; i < OpOf(n->attrs).num_inputs(); ++i) ret.emplace_back(bwd, i, 0);
  return ret;
}

/*! \brief Shape (or dtype) inference of the whole graph from the node's inputs. */
template <typename Attr, typename Pass>
bool InferGraphAttr(const nnvm::NodeAttrs& attrs, std::vector<Attr>* in, std::vector<Attr>* out,
                    const Attr& unknown, Pass pass) {
  const CachedOp& op = OpOf(attrs);
  nnvm::Graph g;
  g.outputs = op.symbol().outputs;
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  std::vector<Attr> values(idx.num_node_entries(), unknown);
  std::vector<nnvm::ObjectPtr> inputs = op.symbol().ListInputs(nnvm::Symbol::kAll);
  for (size_t i = 0; i < inputs.size() && i < in->size(); ++i) {
    values[idx.entry_id(idx.node_id(inputs[i].get()), 0)] = (*in)[i];
  }
  pass(idx, &values);
  bool known = true;
  for (size_t i = 0; i < inputs.size() && i < in->size(); ++i) {
    (*in)[i] = values[idx.entry_id(idx.node_id(inputs[i].get()), 0)];
  }
  for (size_t i = 0; i < out->size(); ++i) {
    (*out)[i] = values[idx.entry_id(idx.outputs()[i])];
    known = known && !((*out)[i] == unknown);
  }
  return known;
}

bool InferShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  return InferGraphAttr<TShape>(attrs, in, out, TShape(), [](const nnvm::IndexedGraph& idx,
                                                             mxnet::ShapeVector* v) {
    nnvm::pass::InferShape(idx, v);
  });
}

bool InferType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  return InferGraphAttr<int>(attrs, in, out, -1, [](const nnvm::IndexedGraph& idx,
                                                    std::vector<int>* v) {
    nnvm::pass::InferType(idx, v);
  });
}

void OnlyThroughCachedOp(const nnvm::NodeAttrs& attrs, const OpContext&, const std::vector<TBlob>&,
                         const std::vector<OpReqType>&, const std::vector<TBlob>&) {
  MX_THROW(NotImplementedError) << "Operator " << attrs.op->name
                                << " (a recorded CachedOp call) runs only through the CachedOp "
                                   "and autograd, not in an executor or as a direct call";
}

}  // namespace
}  // namespace cached_op

NNVM_REGISTER_OP(_CachedOp)
.describe("A recorded CachedOp call (created by MXInvokeCachedOp under autograd; not callable "
          "directly).")
.set_num_inputs([](const nnvm::NodeAttrs& attrs) { return cached_op::OpOf(attrs).num_inputs(); })
.set_num_outputs([](const nnvm::NodeAttrs& attrs) {
  return cached_op::OpOf(attrs).num_outputs();
})
.set_attr<mxnet::FInferShape>("FInferShape", cached_op::InferShape)
.set_attr<nnvm::FInferType>("FInferType", cached_op::InferType)
.set_attr<FCompute>("FCompute<cpu>", cached_op::OnlyThroughCachedOp)
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", cached_op::OnlyThroughCachedOp)
#endif
.set_attr<nnvm::FGradient>("FGradient", cached_op::Gradient);

NNVM_REGISTER_OP(_backward_CachedOp)
.describe("Backward of a recorded CachedOp call (runs the bound executor's backward).")
.set_num_inputs([](const nnvm::NodeAttrs& attrs) {
  return cached_op::OpOf(attrs).num_outputs();
})
.set_num_outputs([](const nnvm::NodeAttrs& attrs) {
  return cached_op::OpOf(attrs).num_inputs();
})
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
#if MXNET_USE_CUDA
.set_attr<FCompute>("FCompute<gpu>", cached_op::OnlyThroughCachedOp)
#endif
.set_attr<FCompute>("FCompute<cpu>", cached_op::OnlyThroughCachedOp);

}  // namespace mxnet
