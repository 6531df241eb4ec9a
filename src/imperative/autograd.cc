/*!
 * \file autograd.cc
 * \brief Imperative autograd: every op invoked while recording becomes a node of an nnvm graph
 *        (the "tape"); NDArray::entry_ points at the node entry that produced the array and the
 *        node's info holds an AGInfo (the output values kept for backward, or for a variable its
 *        gradient buffer and request). Backward runs the gradient pass (nnvm/gradient.h) on that
 *        graph and executes the new nodes op by op, as Invoke does.
 */
#include "./autograd.h"
#include "./cached_op.h"

#include <mxnet/imperative.h>
#include <nnvm/gradient.h>
#include <nnvm/op_attr_types.h>

#include <algorithm>
#include <atomic>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace mxnet {

AGInfo* AGInfo::Find(const nnvm::Node* node) {
  if (node == nullptr) return nullptr;
  return std::any_cast<AGInfo>(&const_cast<nnvm::Node*>(node)->info);
}

AGInfo& AGInfo::Create(const nnvm::ObjectPtr& node) {
  node->info = AGInfo();
  return *std::any_cast<AGInfo>(&node->info);
}

namespace {

std::atomic<uint64_t> g_node_count{0};
std::atomic<uint64_t> g_var_count{0};

/*! \brief Restores the thread's recording/training flags when leaving a scope. */
class FlagGuard {
 public:
  FlagGuard(bool recording, bool training) {
    Imperative* imp = Imperative::Get();
    prev_recording_ = imp->set_is_recording(recording);
    prev_training_ = imp->set_is_training(training);
  }
  ~FlagGuard() {
    Imperative* imp = Imperative::Get();
    imp->set_is_recording(prev_recording_);
    imp->set_is_training(prev_training_);
  }

 private:
  bool prev_recording_;
  bool prev_training_;
};

/*! \brief A new variable node holding `value` (no gradient). */
nnvm::NodeEntry ConstantEntry(const NDArray& value, const char* prefix) {
  nnvm::ObjectPtr node = nnvm::Node::Create();
  node->attrs.name = prefix + std::to_string(g_var_count++);
  AGInfo& info = AGInfo::Create(node);
  info.ctx = value.ctx();
  info.outputs.push_back(value);
  info.outputs.back().entry_ = nnvm::NodeEntry();
  return nnvm::NodeEntry(node, 0, 0);
}

/*!
 * \brief Which inputs and outputs of the recorded `node` its gradient reads: found by running
 *        its FGradient on placeholder head gradients and walking the new nodes. Conservative
 *        (everything) for ops without FGradient, custom functions and multi-output ops (whose
 *        unused outputs get zeros_like gradients reading them).
 */
void ComputeBackwardDependencies(const nnvm::ObjectPtr& node, std::vector<bool>* save_inputs,
                                 std::vector<bool>* save_outputs) {
  static auto& fgradient = nnvm::Op::GetAttr<nnvm::FGradient>("FGradient");
  const uint32_t num_outputs = node->num_outputs();
  const nnvm::Op* op = node->op();
  if (op == nullptr || num_outputs != 1 || !fgradient.count(op) ||
      op->name == "_CustomFunction") {
    save_inputs->assign(node->inputs.size(), true);
    save_outputs->assign(num_outputs, true);
    return;
  }
  save_inputs->assign(node->inputs.size(), false);
  save_outputs->assign(num_outputs, false);
  std::vector<nnvm::NodeEntry> ograds;
  for (uint32_t i = 0; i < num_outputs; ++i) {
    nnvm::ObjectPtr v = nnvm::Node::Create();
    v->attrs.name = "dependency_probe_ograd";
    ograds.emplace_back(v, 0, 0);
  }
  std::vector<nnvm::NodeEntry> grads = fgradient[op](node, ograds);
  std::unordered_set<const nnvm::Node*> visited;
  std::vector<nnvm::NodeEntry> stack(grads.begin(), grads.end());
  while (!stack.empty()) {
    nnvm::NodeEntry e = stack.back();
    stack.pop_back();
    if (!e.node) continue;
    if (e.node == node) {
      if (e.index < num_outputs) (*save_outputs)[e.index] = true;
      continue;
    }
    bool forward_entry = false;
    for (size_t k = 0; k < node->inputs.size(); ++k) {
      if (node->inputs[k].node == e.node) {
        forward_entry = true;
        if (node->inputs[k].index == e.index) (*save_inputs)[k] = true;
      }
    }
    if (forward_entry || AGInfo::Find(e.node.get()) != nullptr) {
      if (!forward_entry) {  // another recorded node: unexpected, keep everything
        save_inputs->assign(node->inputs.size(), true);
        save_outputs->assign(num_outputs, true);
        return;
      }
      continue;
    }
    if (!visited.insert(e.node.get()).second) continue;
    for (const nnvm::NodeEntry& in : e.node->inputs) stack.push_back(in);
  }
}

/*! \brief BackwardDependencies with a per-thread cache keyed by (op, attributes, number of
 *         inputs): running FGradient for every recorded op costs microseconds. */
void BackwardDependencies(const nnvm::ObjectPtr& node, std::vector<bool>* save_inputs,
                          std::vector<bool>* save_outputs) {
  struct Entry {
    std::unordered_map<std::string, std::string> dict;
    size_t num_inputs;
    std::vector<bool> save_inputs, save_outputs;
  };
  thread_local std::unordered_map<const nnvm::Op*, std::vector<Entry>> cache;
  const nnvm::Op* op = node->op();
  std::vector<Entry>* entries = op != nullptr ? &cache[op] : nullptr;
  if (entries != nullptr) {
    for (const Entry& e : *entries) {
      if (e.num_inputs == node->inputs.size() && e.dict == node->attrs.dict) {
        *save_inputs = e.save_inputs;
        *save_outputs = e.save_outputs;
        return;
      }
    }
  }
  ComputeBackwardDependencies(node, save_inputs, save_outputs);
  if (entries != nullptr && entries->size() < 64) {
    entries->push_back(Entry{node->attrs.dict, node->inputs.size(), *save_inputs, *save_outputs});
  }
}

/*!
 * \brief Let `n` write an output over one of its inputs where its FInplaceOption allows it and
 *        the input is a value of this backward pass that nothing reads after `n` (e.g. ReLU's
 *        backward writes over the incoming gradient): one buffer fewer per such node.
 */
void WriteInPlace(const nnvm::ObjectPtr& n, const nnvm::NodeEntryMap<int>& read_entries,
                  const std::unordered_map<const nnvm::Node*, std::vector<NDArray>>& values,
                  const std::vector<bool>& into_buffer, std::vector<NDArray>* ins,
                  std::vector<NDArray>* outs) {
  static auto& finplace = nnvm::Op::GetAttr<nnvm::FInplaceOption>("FInplaceOption");
  if (n->op() == nullptr || !finplace.count(n->op())) return;
  std::vector<bool> taken(ins->size(), false);
  for (const auto& option : finplace[n->op()](n->attrs)) {
    const size_t in_idx = static_cast<size_t>(option.first);
    const size_t out_idx = static_cast<size_t>(option.second);
    if (in_idx >= ins->size() || out_idx >= outs->size() || taken[in_idx]) continue;
    NDArray& out = (*outs)[out_idx];
    NDArray& in = (*ins)[in_idx];
    // Only a planned, unallocated output of the input's shape and dtype (not a gradient buffer).
    if (into_buffer[out_idx] || out.is_none() || out.shape() != in.shape() ||
        out.dtype() != in.dtype()) {
      continue;
    }
    const nnvm::NodeEntry& entry = n->inputs[in_idx];
    auto reads = read_entries.find(entry);
    // A value computed by this pass (not a recorded one, not a custom function's result, which
    // may alias arrays the user holds) that this input is the only reader of.
    if (values.count(entry.node.get()) == 0 || reads == read_entries.end() || reads->second != 1 ||
        custom_function::IsBackwardOp(entry.node->op())) {
      continue;
    }
    out = in.Detach();
    taken[in_idx] = true;
  }
}

const char* kNotInGraph =
    "Cannot differentiate node because it is not in a computational graph. You need to set "
    "is_recording to true or use autograd.record() to save computational graphs for backward. "
    "If you want to differentiate the same graph twice, you need to pass retain_graph=True to "
    "backward.";

}  // namespace

bool Imperative::IsRecorded(const NDArray& arr) {
  return arr.entry_.node != nullptr && AGInfo::Find(arr.entry_.node.get()) != nullptr;
}

NDArray Imperative::GetGrad(const NDArray& arr) {
  AGInfo* info = AGInfo::Find(arr.entry_.node.get());
  if (info == nullptr || !arr.entry_.node->is_variable() || info->out_grads.empty()) {
    return NDArray();
  }
  return info->out_grads[0];
}

bool Imperative::GetGradState(const NDArray& arr) {
  AGInfo* info = AGInfo::Find(arr.entry_.node.get());
  return info != nullptr && info->fresh_out_grad;
}

void Imperative::SetGradState(const NDArray& arr, bool fresh) {
  AGInfo* info = AGInfo::Find(arr.entry_.node.get());
  if (info == nullptr || !arr.entry_.node->is_variable()) {
    MX_THROW(ValueError) << "set_grad_state: the array has no gradient attached (attach_grad)";
  }
  info->fresh_out_grad = fresh;
}

void Imperative::MarkVariables(const std::vector<NDArray*>& variables,
                               const std::vector<uint32_t>& grad_reqs,
                               const std::vector<NDArray*>& gradients) {
  if (variables.size() != grad_reqs.size() || variables.size() != gradients.size()) {
    MX_THROW(ValueError) << "mark_variables: " << variables.size() << " variables, "
                         << gradients.size() << " gradients and " << grad_reqs.size()
                         << " grad_reqs: the counts must match";
  }
  for (size_t i = 0; i < variables.size(); ++i) {
    NDArray* var = variables[i];
    NDArray* grad = gradients[i];
    const uint32_t req = grad_reqs[i];
    if (req != kNullOp && req != kWriteTo && req != kWriteInplace && req != kAddTo) {
      MX_THROW(ValueError) << "mark_variables: invalid grad_req code " << req << " for variable "
                           << i << " (0 null, 1 write, 2 inplace, 3 add)";
    }
    if (var->is_none() || grad->is_none()) {
      MX_THROW(ValueError) << "mark_variables: variable " << i << " or its gradient is empty";
    }
    if (var->shape() != grad->shape()) {
      MX_THROW(ValueError) << "mark_variables: variable " << i << " has shape " << var->shape()
                           << " but its gradient buffer has shape " << grad->shape();
    }
    nnvm::ObjectPtr node = nnvm::Node::Create();
    node->attrs.name = "var" + std::to_string(g_var_count++);
    AGInfo& info = AGInfo::Create(node);
    info.ctx = var->ctx();
    info.grad_req = static_cast<OpReqType>(req == kWriteInplace ? kWriteTo : req);
    info.outputs.push_back(var->Detach());
    info.out_grads.push_back(grad->Detach());
    var->entry_ = nnvm::NodeEntry(node, 0, 0);
  }
}

void Imperative::RecordOp(const nnvm::NodeAttrs& attrs, const std::vector<NDArray*>& inputs,
                          const std::vector<NDArray*>& outputs, const OpStatePtr& state) {
  bool need_grad = false;
  for (const NDArray* in : inputs) need_grad = need_grad || IsRecorded(*in);
  if (!need_grad) return;
  static auto& fnondiff = nnvm::Op::GetAttr<bool>("TNonDifferentiable");
  if (fnondiff.get(attrs.op, false)) return;  // its outputs are constants for autograd
  nnvm::ObjectPtr node = nnvm::Node::Create();
  node->attrs = attrs;
  node->attrs.name = "node_" + std::to_string(g_node_count++);
  AGInfo& info = AGInfo::Create(node);
  info.state = state;
  info.ctx = outputs.empty() ? inputs[0]->ctx() : outputs[0]->ctx();
  node->inputs.reserve(inputs.size());
  for (NDArray* in : inputs) {
    // An array that is not part of the graph is a constant: give it a variable node.
    if (!IsRecorded(*in)) in->entry_ = ConstantEntry(*in, "null");
    node->inputs.push_back(in->entry_);
  }
  // Keep only the values backward reads: an output nobody's gradient needs is kept as a
  // shape-only placeholder, so its buffer is freed as soon as the caller drops it (an FC
  // output consumed by relu, whose gradient reads relu's output, in a deep MLP).
  std::vector<bool> save_inputs, save_outputs;
  BackwardDependencies(node, &save_inputs, &save_outputs);
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (!save_inputs[k]) continue;
    const nnvm::NodeEntry& e = node->inputs[k];
    AGInfo* producer = AGInfo::Find(e.node.get());
    if (producer != nullptr && !e.node->is_variable() && e.index < producer->outputs.size()) {
      producer->outputs[e.index] = inputs[k]->Detach();
    }
  }
  info.outputs.reserve(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (save_outputs[i]) {
      info.outputs.push_back(outputs[i]->Detach());
    } else {
      info.outputs.emplace_back(outputs[i]->shape(), outputs[i]->ctx(), true,
                                outputs[i]->dtype());
    }
    outputs[i]->entry_ = nnvm::NodeEntry(node, static_cast<uint32_t>(i), 0);
  }
}

std::vector<NDArray> Imperative::Backward(const std::vector<NDArray*>& outputs,
                                          const std::vector<NDArray*>& ograds,
                                          const std::vector<NDArray*>& variables, bool is_train,
                                          bool retain_graph, bool create_graph) {
  if (outputs.empty()) MX_THROW(ValueError) << "backward: no heads given";
  if (!ograds.empty() && ograds.size() != outputs.size()) {
    MX_THROW(ValueError) << "backward: " << outputs.size() << " heads but " << ograds.size()
                         << " head gradients";
  }
  // Heads and their gradients (fresh variables: ones when not given).
  std::vector<nnvm::NodeEntry> ys, head_grads;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!IsRecorded(*outputs[i])) MX_THROW(ValueError) << kNotInGraph;
    ys.push_back(outputs[i]->entry_);
    const NDArray* og = ograds.empty() ? nullptr : ograds[i];
    if (og != nullptr && !og->is_none()) {
      if (og->shape() != outputs[i]->shape()) {
        MX_THROW(ValueError) << "backward: head gradient " << i << " has shape " << og->shape()
                             << " but the head has shape " << outputs[i]->shape();
      }
      head_grads.push_back(ConstantEntry(*og, "head_grad"));
    } else {
      NDArray ones(outputs[i]->shape(), outputs[i]->ctx(), true, outputs[i]->dtype());
      static const nnvm::Op* ones_like = nnvm::Op::Get("ones_like");
      auto attrs = std::make_shared<nnvm::NodeAttrs>();
      attrs->op = ones_like;
      NDArray head = outputs[i]->Detach();
      InvokeOp(*attrs, attrs, {&head}, {&ones});
      head_grads.push_back(ConstantEntry(ones, "head_grad"));
    }
  }

  // Every node of the recorded forward graph must still hold its values (a graph released by
  // an earlier backward without retain_graph cannot be differentiated again).
  const std::vector<nnvm::ObjectPtr> forward_nodes = nnvm::TopoSortNodes(ys);
  for (const nnvm::ObjectPtr& n : forward_nodes) {
    if (AGInfo::Find(n.get()) == nullptr) MX_THROW(ValueError) << kNotInGraph;
  }

  // Variables: the given ones (autograd.grad) or every marked variable the heads depend on.
  std::vector<nnvm::NodeEntry> xs;
  std::vector<AGInfo*> x_infos;
  if (!variables.empty()) {
    for (size_t i = 0; i < variables.size(); ++i) {
      AGInfo* info = AGInfo::Find(variables[i]->entry_.node.get());
      if (info == nullptr || !variables[i]->entry_.node->is_variable() ||
          info->grad_req == kNullOp || info->out_grads.empty()) {
        MX_THROW(ValueError) << "Cannot differentiate with respect to the " << (i + 1)
                             << "-th variable because it does not require gradient.";
      }
      xs.push_back(variables[i]->entry_);
      x_infos.push_back(info);
    }
  } else {
    for (const nnvm::ObjectPtr& n : forward_nodes) {
      if (!n->is_variable()) continue;
      AGInfo* info = AGInfo::Find(n.get());
      if (info == nullptr || info->grad_req == kNullOp || info->out_grads.empty()) continue;
      xs.emplace_back(n, 0, 0);
      x_infos.push_back(info);
    }
    if (xs.empty()) {
      MX_THROW(ValueError) << "There are no inputs in computation graph that require gradients: "
                              "call attach_grad() (or autograd.mark_variables) on the arrays to "
                              "differentiate with respect to before recording";
    }
  }

  std::vector<nnvm::NodeEntry> grads = nnvm::Gradient(ys, xs, head_grads);

  // Execute the new nodes (no AGInfo yet) in topological order; free values after last use.
  FlagGuard flags(false, is_train);
  std::vector<nnvm::ObjectPtr> order = nnvm::TopoSortNodes(grads);
  std::unordered_map<const nnvm::Node*, std::vector<NDArray>> values;
  std::unordered_map<const nnvm::Node*, int> pending_reads;
  for (const nnvm::ObjectPtr& n : order) {
    if (AGInfo::Find(n.get()) != nullptr) continue;
    for (const nnvm::NodeEntry& e : n->inputs) ++pending_reads[e.node.get()];
  }
  for (const nnvm::NodeEntry& g : grads) ++pending_reads[g.node.get()];  // read at the end
  auto value_of = [&values](const nnvm::NodeEntry& e) -> NDArray& {
    auto it = values.find(e.node.get());
    if (it != values.end()) return it->second.at(e.index);
    AGInfo* info = AGInfo::Find(e.node.get());
    if (info == nullptr || e.index >= info->outputs.size()) {
      MX_THROW(InternalError) << "autograd: no value for node " << e.node->attrs.name;
    }
    return info->outputs[e.index];
  };
  // A recorded forward value is dropped after its last backward reader (unless the graph is
  // retained): its memory returns while backward still runs, for the gradients still to come.
  // A shape-only placeholder stays, because later nodes may ask for its shape and dtype.
  const bool release_forward = !retain_graph && !create_graph;
  auto release = [&](const nnvm::Node* n) {
    auto it = pending_reads.find(n);
    if (it == pending_reads.end() || --it->second != 0) return;
    if (values.erase(n) != 0 || !release_forward) return;
    AGInfo* info = AGInfo::Find(n);
    if (info == nullptr || n->is_variable()) return;
    for (NDArray& value : info->outputs) {
      if (!value.is_none()) value = NDArray(value.shape(), value.ctx(), true, value.dtype());
    }
  };
  // Gradients written straight into the variables' buffers (grad_req write): saves a
  // temporary and a copy per variable. Only for entries no other executed node reads.
  std::vector<bool> written_directly(xs.size(), false);
  nnvm::NodeEntryMap<size_t> direct_target;
  if (variables.empty() && !create_graph) {
    nnvm::NodeEntryMap<int> entry_reads;
    std::unordered_set<engine::VarHandle> read_chunks;  // recorded values backward reads
    for (const nnvm::ObjectPtr& n : order) {
      if (AGInfo::Find(n.get()) != nullptr) continue;
      for (const nnvm::NodeEntry& e : n->inputs) {
        ++entry_reads[e];
        AGInfo* src = AGInfo::Find(e.node.get());
        if (src != nullptr && e.index < src->outputs.size()) {
          read_chunks.insert(src->outputs[e.index].var());
        }
      }
    }
    for (size_t j = 0; j < grads.size(); ++j) {
      if (x_infos[j]->grad_req != kWriteTo || AGInfo::Find(grads[j].node.get()) != nullptr ||
          entry_reads.count(grads[j]) || custom_function::IsBackwardOp(grads[j].node->op()) ||
          cached_op::IsBackwardOp(grads[j].node->op()) ||
          read_chunks.count(x_infos[j]->out_grads[0].var())) {
        continue;
      }
      direct_target.emplace(grads[j], j);
    }
  }
  // Outputs of executed nodes that nothing reads (e.g. FullyConnected's data gradient when the
  // data needs none) are requested as kNullOp, so their kernels can skip them (MXNet does too).
  nnvm::NodeEntryMap<int> read_entries;
  if (!create_graph) {
    for (const nnvm::ObjectPtr& n : order) {
      if (AGInfo::Find(n.get()) != nullptr) continue;
      for (const nnvm::NodeEntry& e : n->inputs) ++read_entries[e];
    }
    for (const nnvm::NodeEntry& g : grads) ++read_entries[g];
  }
  std::vector<bool> unused_outputs, into_buffer;
  static auto& fis_backward = nnvm::Op::GetAttr<nnvm::TIsBackward>("TIsBackward");
  std::vector<NDArray*> in_ptrs, out_ptrs;
  for (const nnvm::ObjectPtr& n : order) {
    if (AGInfo::Find(n.get()) != nullptr) continue;  // recorded forward value or a variable
    if (n->is_variable()) {
      MX_THROW(InternalError) << "autograd: variable " << n->attrs.name << " has no value";
    }
    std::vector<NDArray> ins;
    ins.reserve(n->inputs.size());
    for (const nnvm::NodeEntry& e : n->inputs) ins.push_back(value_of(e).Detach());
    std::vector<NDArray> outs(n->num_outputs());
    in_ptrs.clear();
    out_ptrs.clear();
    for (NDArray& a : ins) in_ptrs.push_back(&a);
    for (NDArray& a : outs) out_ptrs.push_back(&a);
    const OpStatePtr* fwd_state = nullptr;
    if (fis_backward.get(n->op(), false) && !n->control_deps.empty()) {
      const nnvm::ObjectPtr& fwd_node = n->control_deps[0];
      AGInfo* fwd = AGInfo::Find(fwd_node.get());
      if (fwd != nullptr && fwd->state) fwd_state = &fwd->state;
      // A backward op's outputs are the gradients of its forward node's inputs: their shapes
      // and dtypes come from those inputs (backward ops cannot always infer them).
      std::vector<int> fwd_input_of = nnvm::BackwardOutputToForwardInput(*n, fwd_node);
      for (size_t i = 0; i < outs.size(); ++i) {
        if (fwd_input_of[i] < 0) continue;
        const NDArray& like = value_of(fwd_node->inputs[fwd_input_of[i]]);
        outs[i] = NDArray(like.shape(), like.ctx(), true, like.dtype());
      }
      if (std::any_of(outs.begin(), outs.end(), [](const NDArray& a) { return a.is_none(); })) {
        for (NDArray& a : outs) a = NDArray();  // partial knowledge: let inference do it all
      }
    }
    into_buffer.assign(outs.size(), false);
    for (size_t i = 0; i < outs.size() && !direct_target.empty(); ++i) {
      auto it = direct_target.find(nnvm::NodeEntry(n, static_cast<uint32_t>(i), 0));
      if (it == direct_target.end()) continue;
      const NDArray& buffer = x_infos[it->second]->out_grads[0];
      const bool fits = outs[i].is_none() || (outs[i].shape() == buffer.shape() &&
                                              outs[i].dtype() == buffer.dtype());
      const bool aliases_input = std::any_of(ins.begin(), ins.end(), [&](const NDArray& in) {
        return in.SharesChunk(buffer);
      });
      if (!fits || aliases_input) continue;
      outs[i] = buffer.Detach();
      written_directly[it->second] = true;
      into_buffer[i] = true;
    }
    if (!create_graph) WriteInPlace(n, read_entries, values, into_buffer, &ins, &outs);
    if (custom_function::IsBackwardOp(n->op())) {
      custom_function::RunBackward(n, in_ptrs, out_ptrs, is_train);
    } else if (cached_op::IsBackwardOp(n->op())) {
      if (fwd_state == nullptr) {
        MX_THROW(InternalError) << "autograd: recorded CachedOp call " << n->attrs.name
                                << " has no forward state";
      }
      // The gradients are the executor's arrays unless they escape to the caller.
      CachedOp::Backward(*fwd_state, in_ptrs, out_ptrs, is_train,
                         !variables.empty() || create_graph);
    } else {
      unused_outputs.assign(outs.size(), false);
      if (!create_graph) {
        for (size_t i = 0; i < outs.size(); ++i) {
          unused_outputs[i] =
              read_entries.count(nnvm::NodeEntry(n, static_cast<uint32_t>(i), 0)) == 0;
        }
      }
      InvokeOp(n->attrs, n, in_ptrs, out_ptrs, fwd_state, nullptr, &unused_outputs);
    }
    if (create_graph) {
      // Keep the backward computation as part of the graph: its outputs can be differentiated.
      AGInfo& info = AGInfo::Create(n);
      info.ctx = outs.empty() ? Context::CPU() : outs[0].ctx();
      info.outputs = outs;
    } else {
      values.emplace(n.get(), std::move(outs));
    }
    for (const nnvm::NodeEntry& e : n->inputs) release(e.node.get());
  }

  std::vector<NDArray> result;
  if (!variables.empty()) {
    for (const nnvm::NodeEntry& g : grads) {
      NDArray out = value_of(g).Detach();
      if (create_graph) out.entry_ = g;
      result.push_back(std::move(out));
    }
  } else {
    static auto attrs_copy = [] {
      auto a = std::make_shared<nnvm::NodeAttrs>();
      a->op = nnvm::Op::Get("_copy");
      return a;
    }();
    static auto attrs_add = [] {
      auto a = std::make_shared<nnvm::NodeAttrs>();
      a->op = nnvm::Op::Get("elemwise_add");
      return a;
    }();
    for (size_t i = 0; i < grads.size(); ++i) {
      AGInfo* info = x_infos[i];
      NDArray value = value_of(grads[i]).Detach();
      NDArray& buffer = info->out_grads[0];
      NDArray target = buffer.Detach();
      if (written_directly[i]) {
        // already in place
      } else if (info->grad_req == kAddTo) {
        NDArray acc = buffer.Detach();
        InvokeOp(*attrs_add, attrs_add, {&acc, &value}, {&target});
      } else if (info->grad_req != kNullOp) {
        InvokeOp(*attrs_copy, attrs_copy, {&value}, {&target});
      }
      info->fresh_out_grad = true;
      // With create_graph the gradient buffer stays differentiable (its value came from grads[i]).
      buffer.entry_ = create_graph ? grads[i] : nnvm::NodeEntry();
    }
  }

  if (!retain_graph) {
    // Release the recorded forward graph: its saved values and states; heads can no longer be
    // differentiated. Variables keep their gradient buffers.
    for (const nnvm::ObjectPtr& n : forward_nodes) {
      if (n->is_variable()) continue;
      if (AGInfo::Find(n.get()) != nullptr) n->info = std::any();
    }
  }
  return result;
}

}  // namespace mxnet
