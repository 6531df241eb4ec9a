/*!
 * \file graph_executor.cc
 * \brief Bind: gradient graph, shape/dtype inference, memory plan, one engine operator per
 *        node. Forward/Backward: push the prepared operators.
 */
#include "graph_executor.h"

#include "cuda_graphs.h"
#include "exec_core.h"
#include "infer_storage.h"

#include <mxnet/profiler.h>
#include <nnvm/op_attr_types.h>

#if __has_include(<nnvm/gradient.h>)
#include <nnvm/gradient.h>
#define MXNET_HAVE_GRADIENT_PASS 1
#else
#define MXNET_HAVE_GRADIENT_PASS 0
#endif

#include <algorithm>
#include <sstream>
#include <unordered_set>

#include "../common/env_util.h"

namespace mxnet {
namespace exec {

namespace {

/*! \brief Loss operators: their backward ignores the head gradient (MXNet needs none). */
bool IsLossOp(const nnvm::Node* n) {
  if (n->is_variable()) return false;
  static const std::unordered_set<std::string> losses = {
      "SoftmaxOutput", "Softmax", "LinearRegressionOutput", "MAERegressionOutput",
      "LogisticRegressionOutput", "MakeLoss", "make_loss", "SVMOutput"};
  return losses.count(n->op()->name) != 0;
}

void FillOnes(const NDArray& a) {
  NDArray arr = a;
  Engine::Get()->PushSync(
      [arr](RunContext) {
        TBlob b = arr.data();
        if (b.type_flag_ == mshadow::kBfloat16) {  // raw bits: 1.0 is 0x3F80
          std::fill_n(static_cast<uint16_t*>(b.dptr_), b.shape_.Size(), uint16_t{0x3F80});
          return;
        }
        MSHADOW_TYPE_SWITCH(b.type_flag_, DType, {
          DType* p = b.dptr<DType>();
          const size_t n = b.shape_.Size();
          for (size_t i = 0; i < n; ++i) p[i] = DType(1);
        });
      },
      arr.ctx(), {}, {arr.var()}, FnProperty::kNormal, 0, "head_grad_ones");
}

/*! \brief Run one prepared node on the calling engine worker. */
void RunOpNode(OpNode* p, RunContext rctx, bool is_train) {
  p->opctx.run_ctx = rctx;
  p->opctx.is_train = is_train;
  if (p->kernel.kind == KernelKind::kFComputeEx) {
    p->kernel.RunEx(p->node->attrs, p->opctx, p->in_arrays, p->req, p->out_arrays);
    return;
  }
  for (const auto& c : p->pre_casts) CastStorageInto(c.first, c.second);
  p->kernel.Run(p->node->attrs, p->state, p->opctx, p->in_blobs, p->req, p->out_blobs);
  for (size_t i = 0; i < p->post_casts.size(); ++i) {
    CastStorageInto(p->post_casts[i].first, p->post_casts[i].second);
  }
}

std::string NameList(const std::vector<nnvm::ObjectPtr>& nodes) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < nodes.size(); ++i) os << (i ? ", " : "") << nodes[i]->attrs.name;
  os << ']';
  return os.str();
}

/*!
 * \brief The largest entry planned into memory block `sid`, described by its node for errors:
 *        "output 0 of node 'fc1' (FullyConnected), shape [..], float32".
 */
std::string DescribeBlockUser(const nnvm::IndexedGraph& idx, const nnvm::pass::MemoryPlan& plan,
                              const mxnet::ShapeVector& shapes, const std::vector<int>& dtypes,
                              int sid) {
  uint32_t best_nid = 0, best_out = 0;
  size_t best_size = 0;
  bool found = false;
  for (uint32_t nid = 0; nid < idx.num_nodes(); ++nid) {
    for (uint32_t i = 0; i < idx[nid].source->num_outputs(); ++i) {
      const uint32_t eid = idx.entry_id(nid, i);
      if (plan.storage_id[eid] != sid) continue;
      const size_t size = shapes[eid].ndim() >= 0 ? shapes[eid].Size() : 0;
      if (!found || size > best_size) {
        found = true;
        best_nid = nid, best_out = i, best_size = size;
      }
    }
  }
  if (!found) return "memory block " + std::to_string(sid);
  const nnvm::Node* n = idx[best_nid].source;
  const uint32_t eid = idx.entry_id(best_nid, best_out);
  std::ostringstream os;
  os << "output " << best_out << " of node '" << n->attrs.name << "' ("
     << (n->is_variable() ? std::string("variable") : n->op()->name) << "), shape "
     << shapes[eid] << ", " << mshadow::dtype_string(dtypes[eid]);
  return os.str();
}

}  // namespace

GraphExecutor::~GraphExecutor() {
  for (auto& op : op_nodes_) {
    if (!op) continue;
    for (auto* opr : op->opr) {
      if (opr != nullptr) Engine::Get()->DeleteOperator(opr);
    }
  }
  for (auto* segments : {&train_forward_segments_, &inference_segments_, &backward_segments_}) {
    for (OpSegment& seg : *segments) Engine::Get()->DeleteOperator(seg.opr);
  }
}

void GraphExecutor::SetSymbol(const nnvm::Symbol& symbol, const Context& ctx) {
  ctx_ = ctx;
  symbol_ = symbol;
  arg_nodes_ = symbol.ListInputs(nnvm::Symbol::kReadOnlyArgs);
  aux_nodes_ = symbol.ListInputs(nnvm::Symbol::kAuxiliaryStates);
}

void GraphExecutor::SetArrays(const std::vector<NDArray>& in_args,
                              const std::vector<NDArray>& arg_grads,
                              const std::vector<OpReqType>& grad_reqs,
                              const std::vector<NDArray>& aux_states) {
  if (in_args.size() != arg_nodes_.size()) {
    MX_THROW(ValueError) << "bind: the symbol has " << arg_nodes_.size() << " arguments "
                         << NameList(arg_nodes_) << ", got " << in_args.size() << " arrays";
  }
  if (aux_states.size() != aux_nodes_.size()) {
    MX_THROW(ValueError) << "bind: the symbol has " << aux_nodes_.size()
                         << " auxiliary states " << NameList(aux_nodes_) << ", got "
                         << aux_states.size() << " arrays";
  }
  if (arg_grads.size() != in_args.size() || grad_reqs.size() != in_args.size()) {
    MX_THROW(ValueError) << "bind: " << in_args.size() << " arguments but " << arg_grads.size()
                         << " gradient arrays and " << grad_reqs.size() << " grad_req values";
  }
  for (size_t i = 0; i < in_args.size(); ++i) {
    if (in_args[i].is_none()) {
      MX_THROW(ValueError) << "bind: argument " << arg_nodes_[i]->attrs.name << " has no array";
    }
  }
  for (size_t i = 0; i < aux_states.size(); ++i) {
    if (aux_states[i].is_none()) {
      MX_THROW(ValueError) << "bind: auxiliary state " << aux_nodes_[i]->attrs.name
                           << " has no array";
    }
  }
  in_args_ = in_args;
  arg_grads_ = arg_grads;
  aux_states_ = aux_states;
  grad_reqs_ = grad_reqs;
  for (size_t i = 0; i < grad_reqs_.size(); ++i) {
    if (arg_grads_[i].is_none()) grad_reqs_[i] = kNullOp;
  }
}

void GraphExecutor::Init(const nnvm::Symbol& symbol, const Context& ctx,
                         const std::vector<NDArray>& in_args,
                         const std::vector<NDArray>& arg_grads,
                         const std::vector<OpReqType>& grad_reqs,
                         const std::vector<NDArray>& aux_states, GraphExecutor* shared_exec) {
  SetSymbol(symbol, ctx);
  SetArrays(in_args, arg_grads, grad_reqs, aux_states);
  BuildGraph();
  const nnvm::IndexedGraph& idx = graph_.indexed_graph();
  shapes_.assign(idx.num_node_entries(), TShape());
  dtypes_.assign(idx.num_node_entries(), -1);
  for (size_t i = 0; i < arg_nodes_.size(); ++i) {
    const uint32_t eid = idx.entry_id(idx.node_id(arg_nodes_[i].get()), 0);
    shapes_[eid] = in_args_[i].shape();
    dtypes_[eid] = in_args_[i].dtype();
  }
  for (size_t i = 0; i < aux_nodes_.size(); ++i) {
    const uint32_t eid = idx.entry_id(idx.node_id(aux_nodes_[i].get()), 0);
    shapes_[eid] = aux_states_[i].shape();
    dtypes_[eid] = aux_states_[i].dtype();
  }
  InferShapesTypes(false);
  InferStorage();
  AllocateEntries(shared_exec);
  CreateOpNodes();
  CreateSegments();
}

void GraphExecutor::Plan(const nnvm::Symbol& symbol, const Context& ctx,
                         const std::vector<OpReqType>& grad_reqs, const SeedFn& seed) {
  SetSymbol(symbol, ctx);
  grad_reqs_ = grad_reqs;
  BuildGraph();
  const nnvm::IndexedGraph& idx = graph_.indexed_graph();
  shapes_.assign(idx.num_node_entries(), TShape());
  dtypes_.assign(idx.num_node_entries(), -1);
  seed(idx, &shapes_, &dtypes_);
  InferShapesTypes(true);
}

std::pair<TShape, int> GraphExecutor::EntryAttrs(const nnvm::ObjectPtr& var) const {
  const nnvm::IndexedGraph& idx = graph_.indexed_graph();
  const uint32_t eid = idx.entry_id(idx.node_id(var.get()), 0);
  return {shapes_[eid], dtypes_[eid]};
}

void GraphExecutor::Finish(const std::vector<NDArray>& in_args,
                           const std::vector<NDArray>& arg_grads,
                           const std::vector<NDArray>& aux_states,
                           GraphExecutor* shared_exec) {
  const std::vector<OpReqType> planned = grad_reqs_;
  SetArrays(in_args, arg_grads, planned, aux_states);
  if (grad_reqs_ != planned) {
    MX_THROW(InternalError) << "simple_bind: a gradient array is missing for a gradient the "
                               "graph computes (this is a bug)";
  }
  InferStorage();
  AllocateEntries(shared_exec);
  CreateOpNodes();
  CreateSegments();
}

void GraphExecutor::BuildGraph() {
  num_forward_outputs_ = symbol_.outputs.size();
  graph_.outputs = symbol_.outputs;
  {
    uint32_t count = 0;
    nnvm::DFSVisit(symbol_.outputs, [&](const nnvm::ObjectPtr&) { ++count; });
    num_forward_nodes_ = count;
  }
  std::vector<nnvm::NodeEntry> xs;
  for (size_t i = 0; i < arg_nodes_.size(); ++i) {
    if (grad_reqs_[i] == kNullOp) continue;
    xs.emplace_back(arg_nodes_[i], 0, 0);
    grad_arg_index_.push_back(static_cast<uint32_t>(i));
  }
  head_grad_nodes_.assign(num_forward_outputs_, nullptr);
  if (xs.empty()) return;
#if MXNET_HAVE_GRADIENT_PASS
  std::vector<nnvm::NodeEntry> head_grads;
  std::vector<std::string> out_names = symbol_.ListOutputNames();
  for (size_t i = 0; i < num_forward_outputs_; ++i) {
    nnvm::ObjectPtr v = nnvm::Node::Create();
    v->attrs.name = out_names[i] + "_head_grad";
    v->attrs.parsed = nnvm::VariableParam();
    head_grad_nodes_[i] = v;
    head_grads.emplace_back(v, 0, 0);
  }
  std::vector<nnvm::NodeEntry> grads = nnvm::Gradient(symbol_.outputs, xs, head_grads);
  for (const nnvm::NodeEntry& g : grads) graph_.outputs.push_back(g);
#else
  MX_THROW(NotImplementedError) << "bind: gradients requested but this build has no gradient pass";
#endif
}

std::vector<int> GraphExecutor::InferGradStorageTypes(const nnvm::Symbol& symbol,
                                                      const std::vector<int>& arg_stypes,
                                                      const std::vector<OpReqType>& grad_reqs) {
  std::vector<nnvm::ObjectPtr> args = symbol.ListInputs(nnvm::Symbol::kReadOnlyArgs);
  std::vector<int> result(args.size(), kUndefinedStorage);
  std::vector<nnvm::NodeEntry> xs;
  std::vector<size_t> which;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i < grad_reqs.size() && grad_reqs[i] == kNullOp) continue;
    xs.emplace_back(args[i], 0, 0);
    which.push_back(i);
  }
  if (xs.empty()) return result;
#if MXNET_HAVE_GRADIENT_PASS
  std::vector<nnvm::NodeEntry> head_grads;
  std::vector<nnvm::ObjectPtr> head_nodes;
  for (size_t i = 0; i < symbol.outputs.size(); ++i) {
    nnvm::ObjectPtr v = nnvm::Node::Create();
    v->attrs.name = "head_grad" + std::to_string(i);
    v->attrs.parsed = nnvm::VariableParam();
    head_grads.emplace_back(v, 0, 0);
    head_nodes.push_back(v);
  }
  nnvm::Graph g;
  g.outputs = symbol.outputs;
  std::vector<nnvm::NodeEntry> grads = nnvm::Gradient(symbol.outputs, xs, head_grads);
  for (const nnvm::NodeEntry& e : grads) g.outputs.push_back(e);
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  std::vector<int> stypes(idx.num_node_entries(), kUndefinedStorage);
  for (size_t i = 0; i < args.size() && i < arg_stypes.size(); ++i) {
    if (idx.exist(args[i].get())) {
      stypes[idx.entry_id(idx.node_id(args[i].get()), 0)] = arg_stypes[i];
    }
  }
  std::vector<DispatchMode> modes;
  const std::vector<int> same_as = HeadGradStorageSources(idx, head_nodes);
  InferStorageTypes(idx, cpu::kDevMask, &stypes, &modes, &same_as);
  for (size_t k = 0; k < which.size(); ++k) {
    result[which[k]] = stypes[idx.entry_id(idx.outputs()[symbol.outputs.size() + k])];
  }
#endif
  return result;
}

void GraphExecutor::InferShapesTypes(bool default_float32) {
  const nnvm::IndexedGraph& idx = graph_.indexed_graph();
  nnvm::pass::InferShape(idx, &shapes_);
  nnvm::pass::InferType(idx, &dtypes_);
  if (default_float32) {
    // MXNet's simple_bind passes float32 for every argument whose dtype nothing decides.
    bool defaulted = false;
    for (const auto* nodes : {&arg_nodes_, &aux_nodes_}) {
      for (const nnvm::ObjectPtr& n : *nodes) {
        int& dtype = dtypes_[idx.entry_id(idx.node_id(n.get()), 0)];
        if (dtype < 0) {
          dtype = mshadow::kFloat32;
          defaulted = true;
        }
      }
    }
    if (defaulted) nnvm::pass::InferType(idx, &dtypes_);
  }
  for (size_t i = 0; i < num_forward_outputs_; ++i) {
    if (!head_grad_nodes_[i] || !idx.exist(head_grad_nodes_[i].get())) continue;
    const uint32_t eid = idx.entry_id(idx.node_id(head_grad_nodes_[i].get()), 0);
    const uint32_t oid = idx.entry_id(idx.outputs()[i]);
    shapes_[eid] = shapes_[oid];
    dtypes_[eid] = dtypes_[oid];
  }
  nnvm::pass::InferShape(idx, &shapes_);
  nnvm::pass::InferType(idx, &dtypes_);
}

void GraphExecutor::InferStorage() {
  const nnvm::IndexedGraph& idx = graph_.indexed_graph();
  // Storage types: the bound arrays' (arguments, aux states, gradients), then the pass.
  stypes_.assign(idx.num_node_entries(), kUndefinedStorage);
  for (size_t i = 0; i < arg_nodes_.size(); ++i) {
    stypes_[idx.entry_id(idx.node_id(arg_nodes_[i].get()), 0)] = in_args_[i].storage_type();
  }
  for (size_t i = 0; i < aux_nodes_.size(); ++i) {
    stypes_[idx.entry_id(idx.node_id(aux_nodes_[i].get()), 0)] = aux_states_[i].storage_type();
  }
  for (size_t k = 0; k < grad_arg_index_.size(); ++k) {
    const auto& e = idx.outputs()[num_forward_outputs_ + k];
    if (idx[e.node_id].source->is_variable()) continue;  // a gradient that is an input
    stypes_[idx.entry_id(e)] = arg_grads_[grad_arg_index_[k]].storage_type();
  }
  const std::vector<int> same_as = HeadGradStorageSources(idx, head_grad_nodes_);
  InferStorageTypes(idx, ctx_.dev_mask(), &stypes_, &dispatch_modes_, &same_as);
  for (uint32_t nid = 0; nid < idx.num_nodes(); ++nid) {
    const nnvm::Node* n = idx[nid].source;
    for (uint32_t i = 0; i < n->num_outputs(); ++i) {
      const uint32_t eid = idx.entry_id(nid, i);
      if (!shape_is_known(shapes_[eid]) || dtypes_[eid] < 0) {
        MX_THROW(ValueError) << "bind: cannot infer the " << (dtypes_[eid] < 0 && shape_is_known(shapes_[eid]) ? "dtype" : "shape")
                             << " of output " << i << " of node " << n->attrs.name << " ("
                             << (n->is_variable() ? "variable" : n->op()->name)
                             << "), got " << shapes_[eid];
      }
    }
  }
}

void GraphExecutor::AllocateEntries(GraphExecutor* shared_exec) {
  const nnvm::IndexedGraph& idx = graph_.indexed_graph();
  const size_t num_entries = idx.num_node_entries();
  data_entry_.assign(num_entries, NDArray());
  std::vector<bool> external(num_entries, false), keep(num_entries, false);
  for (uint32_t nid : idx.input_nodes()) external[idx.entry_id(nid, 0)] = true;
  for (size_t i = num_forward_outputs_; i < idx.outputs().size(); ++i) {
    external[idx.entry_id(idx.outputs()[i])] = true;
  }
  for (size_t i = 0; i < num_forward_outputs_; ++i) keep[idx.entry_id(idx.outputs()[i])] = true;
  // Sparse entries own their (resizable) parts: they are not placed in the shared blocks.
  for (uint32_t eid = 0; eid < num_entries; ++eid) {
    if (stypes_[eid] != kDefaultStorage && stypes_[eid] != kUndefinedStorage) external[eid] = true;
  }

  // Bound arrays.
  for (size_t i = 0; i < arg_nodes_.size(); ++i) {
    if (idx.exist(arg_nodes_[i].get())) {
      data_entry_[idx.entry_id(idx.node_id(arg_nodes_[i].get()), 0)] = in_args_[i];
    }
  }
  for (size_t i = 0; i < aux_nodes_.size(); ++i) {
    data_entry_[idx.entry_id(idx.node_id(aux_nodes_[i].get()), 0)] = aux_states_[i];
  }
  head_grad_arrays_.assign(num_forward_outputs_, NDArray());
  head_holds_ones_.assign(num_forward_outputs_, false);
  head_is_loss_.clear();
  for (size_t i = 0; i < num_forward_outputs_; ++i) {
    head_is_loss_.push_back(IsLossOp(symbol_.outputs[i].node.get()));
  }
  for (size_t i = 0; i < num_forward_outputs_; ++i) {
    if (!head_grad_nodes_[i] || !idx.exist(head_grad_nodes_[i].get())) continue;
    const uint32_t eid = idx.entry_id(idx.node_id(head_grad_nodes_[i].get()), 0);
    // The gradient of a sparse output is sparse too (the caller's head gradient is cast).
    head_grad_arrays_[i] = stypes_[eid] == kRowSparseStorage || stypes_[eid] == kCSRStorage
                               ? NDArray(stypes_[eid], shapes_[eid], ctx_, dtypes_[eid])
                               : NDArray(shapes_[eid], ctx_, false, dtypes_[eid]);
    data_entry_[eid] = head_grad_arrays_[i];
  }
  for (size_t k = 0; k < grad_arg_index_.size(); ++k) {
    const uint32_t eid = idx.entry_id(idx.outputs()[num_forward_outputs_ + k]);
    const NDArray& g = arg_grads_[grad_arg_index_[k]];
    if (g.dtype() != dtypes_[eid]) {
      MX_THROW(TypeError) << "bind: gradient array of "
                          << arg_nodes_[grad_arg_index_[k]]->attrs.name << " has dtype "
                          << mshadow::dtype_string(g.dtype()) << ", expected "
                          << mshadow::dtype_string(dtypes_[eid]);
    }
    if (g.shape() != shapes_[eid]) {
      MX_THROW(ValueError) << "bind: gradient array of "
                           << arg_nodes_[grad_arg_index_[k]]->attrs.name << " has shape "
                           << g.shape() << ", expected " << shapes_[eid];
    }
    data_entry_[eid] = g;
  }

  // Planned entries: views of shared blocks.
  plan_ = nnvm::pass::PlanMemory(idx, shapes_, dtypes_, external, keep);
  std::vector<bool> lent(shared_exec ? shared_exec->pool_.size() : 0, false);
  pool_.resize(plan_.storage_bytes.size());
  for (size_t sid = 0; sid < plan_.storage_bytes.size(); ++sid) {
    const size_t bytes = std::max<size_t>(plan_.storage_bytes[sid], 1);
    if (shared_exec != nullptr) {
      for (size_t j = 0; j < lent.size(); ++j) {
        const NDArray& blk = shared_exec->pool_[j];
        if (!lent[j] && blk.shape().Size() >= bytes) {
          lent[j] = true;
          pool_[sid] = blk;
          break;
        }
      }
    }
    if (pool_[sid].is_none()) {
      try {
        pool_[sid] = NDArray(TShape({static_cast<dim_t>(bytes)}), ctx_, false, mshadow::kUint8);
      } catch (const dmlc::Error& e) {
        throw dmlc::ContextError(
            "bind: " + DescribeBlockUser(idx, plan_, shapes_, dtypes_, sid) + ": " + e.what(),
            e.type_name());
      }
    }
  }
  for (uint32_t eid = 0; eid < num_entries; ++eid) {
    if (data_entry_[eid].is_none() && stypes_[eid] != kDefaultStorage &&
        stypes_[eid] != kUndefinedStorage) {
      data_entry_[eid] = NDArray(stypes_[eid], shapes_[eid], ctx_, dtypes_[eid]);
      continue;
    }
    const int sid = plan_.storage_id[eid];
    if (sid < 0) continue;
    if (shapes_[eid].Size() == 0) {
      data_entry_[eid] = NDArray(shapes_[eid], ctx_, false, dtypes_[eid]);
    } else {
      data_entry_[eid] = pool_[sid].AsArray(shapes_[eid], dtypes_[eid]);
    }
  }
  outputs_.clear();
  for (size_t i = 0; i < num_forward_outputs_; ++i) {
    outputs_.push_back(data_entry_[idx.entry_id(idx.outputs()[i])]);
  }
}

void GraphExecutor::CreateOpNodes() {
  static auto& fcreate_state = nnvm::Op::GetAttr<FCreateOpState>("FCreateOpState");
  static auto& fresource = nnvm::Op::GetAttr<FResourceRequest>("FResourceRequest");
  static auto& fmutate = nnvm::Op::GetAttr<nnvm::FMutateInputs>("FMutateInputs");
  static auto& is_layer_backward = nnvm::Op::GetAttr<TIsLayerOpBackward>("TIsLayerOpBackward");
  const nnvm::IndexedGraph& idx = graph_.indexed_graph();
  std::vector<OpReqType> entry_req(idx.num_node_entries(), kWriteTo);
  for (uint32_t eid = 0; eid < idx.num_node_entries(); ++eid) {
    if (plan_.inplace_input[eid] >= 0) entry_req[eid] = kWriteInplace;
  }
  // Backward outputs nobody reads (e.g. the gradient of data with grad_req null) are skipped.
  std::vector<uint32_t> readers(idx.num_node_entries(), 0);
  for (uint32_t nid = 0; nid < idx.num_nodes(); ++nid) {
    for (const auto& e : idx[nid].inputs) ++readers[idx.entry_id(e)];
  }
  for (const auto& e : idx.outputs()) ++readers[idx.entry_id(e)];
  for (uint32_t nid = num_forward_nodes_; nid < idx.num_nodes(); ++nid) {
    for (uint32_t i = 0; i < idx[nid].source->num_outputs(); ++i) {
      if (readers[idx.entry_id(nid, i)] == 0) entry_req[idx.entry_id(nid, i)] = kNullOp;
    }
  }
  for (size_t k = 0; k < grad_arg_index_.size(); ++k) {
    entry_req[idx.entry_id(idx.outputs()[num_forward_outputs_ + k])] =
        grad_reqs_[grad_arg_index_[k]];
  }
  const bool need_grad = !grad_arg_index_.empty();
  op_nodes_.clear();
  op_nodes_.resize(idx.num_nodes());
  for (uint32_t nid = 0; nid < idx.num_nodes(); ++nid) {
    const auto& inode = idx[nid];
    const nnvm::Node* n = inode.source;
    if (n->is_variable()) continue;
    const nnvm::Op* op = n->op();
    auto opn = std::make_shared<OpNode>();
    opn->node = n;
    opn->node_ref = inode.weak_ref.lock();
    std::vector<NDArray> ins, outs;
    for (const auto& e : inode.inputs) ins.push_back(data_entry_[idx.entry_id(e)]);
    for (uint32_t i = 0; i < n->num_outputs(); ++i) {
      const uint32_t eid = idx.entry_id(nid, i);
      outs.push_back(data_entry_[eid]);
      opn->req.push_back(entry_req[eid]);
    }
    const DispatchMode mode = dispatch_modes_[nid];
    // A layer's backward runs on its forward node's state (the forward node comes first).
    const bool state_from_forward = is_layer_backward.get(op, false) &&
                                    !inode.control_deps.empty() &&
                                    op_nodes_[inode.control_deps[0]] != nullptr;
    opn->kernel = SelectKernel(n->attrs, ctx_, mode,
                               state_from_forward || fcreate_state.count(op), "executor");
    std::vector<int> in_dtypes, out_dtypes;
    for (const NDArray& a : ins) in_dtypes.push_back(a.dtype());
    for (const NDArray& a : outs) out_dtypes.push_back(a.dtype());
    ApplyBF16Fallback(n->attrs, in_dtypes, out_dtypes, &opn->kernel);
    for (const NDArray& a : ins) {
      if (mode == DispatchMode::kFComputeEx) {
        // the sparse kernel reads the arrays
      } else if (a.is_sparse()) {
        NDArray dense(a.shape(), ctx_, false, a.dtype());
        opn->pre_casts.emplace_back(a, dense);
        opn->in_blobs.push_back(dense.data());
        opn->arrays.push_back(dense);
      } else {
        opn->in_blobs.push_back(a.data());
      }
      opn->read_vars.push_back(a.var());
    }
    for (size_t i = 0; i < outs.size(); ++i) {
      const NDArray& a = outs[i];
      if (mode == DispatchMode::kFComputeEx) {
        // written by the sparse kernel
      } else if (a.is_sparse()) {
        NDArray dense(a.shape(), ctx_, false, a.dtype());
        if (opn->req[i] != kNullOp) opn->post_casts.emplace_back(dense, a);
        if (opn->req[i] == kAddTo) {
          MX_THROW(NotImplementedError) << "bind: operator " << op->name << " (node "
                                        << n->attrs.name << ") writes output " << i
                                        << " with grad_req 'add' into a sparse array";
        }
        opn->out_blobs.push_back(dense.data());
        opn->arrays.push_back(dense);
      } else {
        opn->out_blobs.push_back(a.data());
      }
      opn->write_vars.push_back(a.var());
    }
    if (mode == DispatchMode::kFComputeEx || opn->kernel.kind == KernelKind::kSubgraph) {
      opn->in_arrays = ins;
      opn->out_arrays = outs;
    }
    opn->arrays.insert(opn->arrays.end(), ins.begin(), ins.end());
    opn->arrays.insert(opn->arrays.end(), outs.begin(), outs.end());
    if (fmutate.count(op)) {
      for (uint32_t i : fmutate[op](n->attrs)) {
        if (i < ins.size()) opn->write_vars.push_back(ins[i].var());
      }
    }
    if (fresource.count(op)) {
      for (const ResourceRequest& r : fresource[op](n->attrs)) {
        opn->opctx.requested.push_back(ResourceManager::Get()->Request(ctx_, r));
        opn->write_vars.push_back(opn->opctx.requested.back().var);
      }
    }
    opn->opctx.need_grad = need_grad;
    if (opn->kernel.kind == KernelKind::kStateful || opn->kernel.kind == KernelKind::kSubgraph) {
      if (state_from_forward) {
        opn->state = op_nodes_[inode.control_deps[0]]->state;
      } else {
        ShapeVector in_shapes;
        std::vector<int> in_types;
        for (const NDArray& a : ins) {
          in_shapes.push_back(a.shape());
          in_types.push_back(a.dtype());
        }
        // a bfloat16 fallback op's state serves its float32 kernel
        if (NeedsBF16Fallback(n->attrs, in_dtypes, out_dtypes)) in_types = BF16AsFloat32(in_types);
        opn->state = fcreate_state[op](n->attrs, ctx_, in_shapes, in_types);
      }
      if (!opn->state) {
        MX_THROW(NotImplementedError) << "bind: stateful operator " << op->name << " (node "
                                      << n->attrs.name << ") has no state to run with";
      }
      opn->write_vars.push_back(opn->state.get_var());
    }
    Engine::DeduplicateVarHandle(&opn->read_vars, &opn->write_vars);
    if (opn->kernel.kind == KernelKind::kSubgraph) {
      // Runs its graphs itself on the calling thread (PushNodes): no engine operator.
      op_nodes_[nid] = std::move(opn);
      continue;
    }
    std::shared_ptr<OpNode> p = opn;
    const int num_oprs = nid < num_forward_nodes_ ? 2 : 1;
    for (int k = 0; k < num_oprs; ++k) {
      const bool is_train = k == 0;
      Engine::AsyncFn fn = [p, is_train](RunContext rctx, Engine::CallbackOnComplete on_complete) {
        if (p->kernel.is_async) p->opctx.async_on_complete = on_complete;
        RunOpNode(p.get(), rctx, is_train);
        if (!p->kernel.is_async) on_complete();
      };
      p->opr[k] = Engine::Get()->NewOperator(std::move(fn), p->read_vars, p->write_vars,
                                             FnProperty::kNormal, op->name.c_str());
    }
    op_nodes_[nid] = std::move(opn);
  }
}

void GraphExecutor::CreateSegments() {
  // MXNet 1.x's settings: bulking is on by default, training segments hold at most 15 nodes
  // (forward and backward may differ), inference bulks the whole forward pass.
  const bool bulk_train = common::GetEnvInt("MXNET_EXEC_BULK_EXEC_TRAIN", 1) != 0;
  const bool bulk_inference = common::GetEnvInt("MXNET_EXEC_BULK_EXEC_INFERENCE", 1) != 0;
  const int max_train = common::GetEnvInt("MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN", 15);
  const int max_fwd = common::GetEnvInt("MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN_FWD", max_train);
  const int max_bwd = common::GetEnvInt("MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN_BWD", max_train);
  const uint32_t num_nodes = static_cast<uint32_t>(op_nodes_.size());
  if (bulk_train) {
    BuildSegments(0, num_forward_nodes_, max_fwd, true, &train_forward_segments_);
    BuildSegments(num_forward_nodes_, num_nodes, max_bwd, true, &backward_segments_);
  }
  if (bulk_inference) {
    BuildSegments(0, num_forward_nodes_, num_nodes, false, &inference_segments_);
  }
}

void GraphExecutor::SetBulkSizes(int forward, int backward) {
  for (auto* segments : {&train_forward_segments_, &inference_segments_, &backward_segments_}) {
    for (OpSegment& seg : *segments) Engine::Get()->DeleteOperator(seg.opr);
    segments->clear();
  }
  if (common::GetEnvInt("MXNET_EXEC_BULK_EXEC_TRAIN", 1) != 0) {
    BuildSegments(0, num_forward_nodes_, forward, true, &train_forward_segments_);
    BuildSegments(num_forward_nodes_, static_cast<uint32_t>(op_nodes_.size()), backward, true,
                  &backward_segments_);
  }
  if (common::GetEnvInt("MXNET_EXEC_BULK_EXEC_INFERENCE", 1) != 0) {
    BuildSegments(0, num_forward_nodes_, forward, false, &inference_segments_);
  }
}

/*!
 * \brief The CUDA graph of a bulk segment on a GPU (MXNET_ENABLE_CUDA_GRAPHS=1), or null when
 *        graphs are off or a member cannot be replayed from a capture (cuda_graphs.h).
 */
std::shared_ptr<SegmentGraph> GraphExecutor::MakeSegmentGraph(
    const std::vector<std::shared_ptr<OpNode>>& nodes, bool is_train) const {
  if (!CudaGraphsEnabled() || ctx_.dev_mask() != gpu::kDevMask) return nullptr;
  std::vector<Resource> requested;
  for (const std::shared_ptr<OpNode>& p : nodes) {
    const bool dense = p->kernel.kind == KernelKind::kFCompute ||
                       p->kernel.kind == KernelKind::kStateful;
    if (!dense || !p->pre_casts.empty() || !p->post_casts.empty() ||
        !ResourcesCapturable(p->opctx.requested)) {
      if (CudaGraphsVerbose()) {
        LOG(INFO) << "CUDA graphs: no graph for the segment holding node '"
                  << p->node->attrs.name << "' (" << p->node->op()->name << "): it "
                  << (dense ? "draws random numbers or casts storage" : "is not a dense kernel");
      }
      return nullptr;
    }
    requested.insert(requested.end(), p->opctx.requested.begin(), p->opctx.requested.end());
  }
  const std::string name = "'" + nodes.front()->node->attrs.name + "'..'" +
                           nodes.back()->node->attrs.name + "'" +
                           (is_train ? " (training)" : " (inference)");
  return std::make_shared<SegmentGraph>(name, requested);
}

void GraphExecutor::BuildSegments(uint32_t begin, uint32_t end, int max_nodes, bool is_train,
                                  std::vector<OpSegment>* segments) {
  if (max_nodes < 2) return;
  std::vector<uint32_t> members;
  auto close_segment = [&]() {
    if (members.size() >= 2) {
      std::vector<std::shared_ptr<OpNode>> nodes;
      std::vector<engine::VarHandle> reads, writes;
      for (uint32_t nid : members) {
        const std::shared_ptr<OpNode>& p = op_nodes_[nid];
        nodes.push_back(p);
        reads.insert(reads.end(), p->read_vars.begin(), p->read_vars.end());
        writes.insert(writes.end(), p->write_vars.begin(), p->write_vars.end());
      }
      Engine::DeduplicateVarHandle(&reads, &writes);
      std::shared_ptr<SegmentGraph> graph = MakeSegmentGraph(nodes, is_train);
      // Errors keep the failing member's operator name, as an unbulked run reports them.
      Engine::SyncFn fn = [nodes, is_train, graph](RunContext rctx) {
        auto run = [&nodes, is_train](const RunContext& on) {
          for (const std::shared_ptr<OpNode>& p : nodes) {
            try {
              RunOpNode(p.get(), on, is_train);
            } catch (...) {
              std::rethrow_exception(engine::NameOperatorError(std::current_exception(),
                                                               p->node->op()->name.c_str()));
            }
          }
        };
        if (graph) {
          graph->Run(rctx, run);
        } else {
          run(rctx);
        }
      };
      OpSegment seg;
      seg.begin = members.front();
      seg.end = members.back() + 1;
      seg.opr = Engine::Get()->NewOperator(
          [fn](RunContext rctx, Engine::CallbackOnComplete on_complete) {
            fn(rctx);
            on_complete();
          },
          reads, writes, FnProperty::kNormal, nullptr);
      segments->push_back(seg);
    }
    members.clear();
  };
  for (uint32_t nid = begin; nid < end; ++nid) {
    const OpNode* p = op_nodes_[nid].get();
    if (p == nullptr) continue;
    if (p->kernel.is_async || p->kernel.kind == KernelKind::kSubgraph) {
      // An asynchronous operator completes on its own, a control-flow operator runs its
      // graphs from the calling thread: either runs alone.
      close_segment();
      continue;
    }
    members.push_back(nid);
    if (members.size() >= static_cast<size_t>(max_nodes)) close_segment();
  }
  close_segment();
}

void GraphExecutor::PushNodes(uint32_t begin, uint32_t end, int variant,
                              const std::vector<OpSegment>& segments) {
  Engine* engine = Engine::Get();
  // The monitor reads every node's outputs, and the profiler times every node: both need
  // one engine operator per node.
  const bool bulk = !monitor_callback_ && !(profiler::RecordingMask() & profiler::kSymbolic);
  size_t s = 0;
  for (uint32_t nid = begin; nid < end;) {
    if (bulk) {
      while (s < segments.size() && segments[s].end <= nid) ++s;
      if (s < segments.size() && segments[s].begin == nid) {
        engine->Push(segments[s].opr, ctx_);
        nid = segments[s].end;
        continue;
      }
    }
    OpNode* p = op_nodes_[nid].get();
    if (p != nullptr && p->kernel.kind == KernelKind::kSubgraph) {
      // Control flow: its kernel pushes the operators of its subgraphs (ordered after this
      // pass's earlier nodes by the arrays' engine variables) and may wait for a condition.
      p->opctx.is_train = variant == 0;
      p->kernel.RunSubgraph(p->state, p->opctx, p->in_arrays, p->req, p->out_arrays);
      if (monitor_callback_) RunMonitor(nid);
    } else if (p != nullptr) {
      engine->Push(p->opr[variant], ctx_);
      if (monitor_callback_) RunMonitor(nid);
    }
    ++nid;
  }
}

void GraphExecutor::Forward(bool is_train) {
  Engine::Get()->WaitForCapacity();
  PushNodes(0, num_forward_nodes_, is_train ? 0 : 1,
            is_train ? train_forward_segments_ : inference_segments_);
}

void GraphExecutor::SetMonitorCallback(std::function<void(const char*, const NDArray&)> callback,
                                       bool monitor_all) {
  monitor_callback_ = std::move(callback);
  monitor_all_ = monitor_all;
}

void GraphExecutor::RunMonitor(uint32_t nid) {
  const nnvm::IndexedGraph& idx = graph_.indexed_graph();
  const auto& inode = idx[nid];
  const nnvm::Node* n = inode.source;
  if (monitor_all_) {
    // As MXNet 1.9.1: an input that is a variable is reported under its own name first;
    // every input is then reported as <node>_<input name>, the name coming from
    // FListInputNames, else "input<i>".
    static auto& flist_inputs = nnvm::Op::GetAttr<nnvm::FListInputNames>("FListInputNames");
    std::vector<std::string> names;
    if (flist_inputs.count(n->op())) names = flist_inputs[n->op()](n->attrs);
    for (size_t i = 0; i < inode.inputs.size(); ++i) {
      const NDArray& arr = data_entry_[idx.entry_id(inode.inputs[i])];
      const nnvm::Node* src = idx[inode.inputs[i].node_id].source;
      if (src->is_variable()) monitor_callback_(src->attrs.name.c_str(), arr);
      const std::string name =
          n->attrs.name + "_" + (i < names.size() ? names[i] : "input" + std::to_string(i));
      monitor_callback_(name.c_str(), arr);
    }
  }
  // Every output, hidden ones included (BatchNorm's mean/var), as 1.9.1 reports them.
  nnvm::Symbol single;
  const uint32_t nout = n->num_outputs();
  for (uint32_t i = 0; i < nout; ++i) single.outputs.emplace_back(inode.weak_ref.lock(), i, 0);
  std::vector<std::string> out_names = single.ListOutputNames();
  for (uint32_t i = 0; i < nout; ++i) {
    monitor_callback_(out_names[i].c_str(), data_entry_[idx.entry_id(nid, i)]);
  }
}

void GraphExecutor::Backward(const std::vector<NDArray>& head_grads, bool is_train) {
  (void)is_train;
  if (grad_arg_index_.empty()) return;
  if (!head_grads.empty() && head_grads.size() != num_forward_outputs_) {
    MX_THROW(ValueError) << "backward: got " << head_grads.size()
                         << " head gradients for a symbol with " << num_forward_outputs_
                         << " outputs";
  }
  std::vector<std::string> out_names;
  for (size_t i = 0; i < num_forward_outputs_; ++i) {
    if (head_grad_arrays_[i].is_none()) continue;
    if ((head_grads.empty() || head_grads[i].is_none()) && head_is_loss_[i] &&
        !head_grad_arrays_[i].is_sparse()) {
      if (!head_holds_ones_[i]) FillOnes(head_grad_arrays_[i]);
      head_holds_ones_[i] = true;
      continue;
    }
    if (head_grads.empty() || head_grads[i].is_none()) {
      if (out_names.empty()) out_names = symbol_.ListOutputNames();
      MX_THROW(ValueError)
          << "Because the last operator is not Loss function, head_gradient is required "
             "when calling backward (output " << out_names[i] << " needs one)";
    }
    if (head_grads[i].shape() != head_grad_arrays_[i].shape()) {
      MX_THROW(ValueError) << "backward: head gradient " << i << " has shape "
                           << head_grads[i].shape() << ", expected "
                           << head_grad_arrays_[i].shape();
    }
    CopyFromTo(head_grads[i], head_grad_arrays_[i]);
    head_holds_ones_[i] = false;
  }
  PushNodes(num_forward_nodes_, static_cast<uint32_t>(op_nodes_.size()), 0, backward_segments_);
}

void GraphExecutor::Print(std::ostream& os) const {
  symbol_.Print(os);
  size_t total = 0;
  for (size_t b : plan_.storage_bytes) total += b;
  os << "Total " << (total >> 20) << " MB allocated\n";
  const nnvm::IndexedGraph& idx = graph_.indexed_graph();
  for (uint32_t nid = 0; nid < idx.num_nodes(); ++nid) {
    const nnvm::Node* n = idx[nid].source;
    if (n->is_variable()) continue;
    os << "Op:" << n->op()->name << ", Name=" << n->attrs.name << '\n';
    for (uint32_t i = 0; i < n->num_outputs(); ++i) {
      const uint32_t eid = idx.entry_id(nid, i);
      os << "\toutput[" << i << "] shape=" << shapes_[eid];
      if (plan_.storage_id[eid] >= 0) os << " block=" << plan_.storage_id[eid];
      if (plan_.inplace_input[eid] >= 0) os << " inplace";
      os << '\n';
    }
  }
  const std::pair<const char*, const std::vector<OpSegment>*> passes[] = {
      {"training forward", &train_forward_segments_},
      {"inference", &inference_segments_},
      {"backward", &backward_segments_}};
  for (const auto& pass : passes) {
    for (const OpSegment& seg : *pass.second) {
      os << "Bulk segment (" << pass.first << "):";
      for (uint32_t nid = seg.begin; nid < seg.end; ++nid) {
        if (op_nodes_[nid]) os << ' ' << idx[nid].source->attrs.name;
      }
      os << '\n';
    }
  }
}

void CheckBindDevice(const Context& ctx, const std::map<std::string, Context>& group2ctx) {
  // One executor runs on one device: a group placed elsewhere would silently run on ctx.
  for (const auto& kv : group2ctx) {
    if (kv.second.dev_mask() != ctx.dev_mask() || kv.second.real_dev_id() != ctx.real_dev_id()) {
      MX_THROW(NotImplementedError) << "bind: group2ctx maps " << kv.first << " to "
                                    << kv.second << " but the executor runs on " << ctx
                                    << "; model parallelism across devices is not supported";
    }
  }
  Context::CheckGPU(ctx, "bind");
}

}  // namespace exec

std::vector<int> Executor::InferGradStorageTypes(const nnvm::Symbol& symbol,
                                                 const std::vector<int>& arg_stypes,
                                                 const std::vector<OpReqType>& grad_reqs) {
  return exec::GraphExecutor::InferGradStorageTypes(symbol, arg_stypes, grad_reqs);
}

Executor* Executor::Bind(const nnvm::Symbol& symbol, const Context& ctx,
                         const std::map<std::string, Context>& group2ctx,
                         const std::vector<NDArray>& in_args,
                         const std::vector<NDArray>& arg_grads,
                         const std::vector<OpReqType>& grad_reqs,
                         const std::vector<NDArray>& aux_states, Executor* shared_exec) {
  exec::CheckBindDevice(ctx, group2ctx);
  auto ex = std::make_unique<exec::GraphExecutor>();
  ex->Init(symbol, ctx, in_args, arg_grads, grad_reqs, aux_states,
           dynamic_cast<exec::GraphExecutor*>(shared_exec));
  return ex.release();
}

}  // namespace mxnet
