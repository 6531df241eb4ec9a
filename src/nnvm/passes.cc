/*!
 * \file passes.cc
 * \brief Shape/dtype inference to a fixed point and memory planning over an IndexedGraph.
 */
#include <mxnet/infer_error.h>
#include <mxnet/op_attr_types.h>
#include <nnvm/gradient.h>
#include <nnvm/graph_passes.h>
#include <nnvm/op_attr_types.h>
#include <nnvm/symbolic.h>

#include <map>
#include <sstream>


namespace nnvm {
namespace pass {

namespace {

bool IsKnown(const mxnet::TShape& s) { return mxnet::shape_is_known(s); }
bool IsKnown(int t) { return t >= 0; }
bool IsNone(const mxnet::TShape& s) { return !mxnet::ndim_is_known(s); }
bool IsNone(int t) { return t < 0; }

/*! \brief Number of known dims (ndim + 1 when the rank is known), to detect progress. */
int Knowledge(const mxnet::TShape& s) {
  if (!mxnet::ndim_is_known(s)) return 0;
  int k = 1;
  for (int i = 0; i < s.ndim(); ++i) k += s[i] >= 0;
  return k;
}
int Knowledge(int t) { return t >= 0; }

std::string ToStr(const mxnet::TShape& s) {
  std::ostringstream os;
  os << s;
  return os.str();
}
std::string ToStr(int t) { return t < 0 ? "unknown" : mshadow::dtype_string(t); }

template <typename AttrType>
std::string AttrList(const std::vector<AttrType>& v) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << ToStr(v[i]);
  os << ']';
  return os.str();
}

template <typename AttrType>
std::string DescribeError(const Node* n, const IndexedGraph::Node& inode, const std::string& msg,
                          int index, const std::vector<AttrType>& ins,
                          const std::vector<AttrType>& outs, const char* attr_name) {
  std::ostringstream os;
  os << "Error in operator " << n->attrs.name << " (" << n->op()->name << "): ";
  const bool is_output = msg.rfind("out", 0) == 0 || msg.rfind("*out", 0) == 0 ||
                         msg.rfind("(*out", 0) == 0;
  if (!is_output && index >= 0 && index < static_cast<int>(inode.inputs.size())) {
    std::vector<std::string> names = ListOpInputNames(n->attrs, inode.inputs.size());
    const Node* src = n->inputs[index].node.get();
    os << "input '" << (index < static_cast<int>(names.size()) ? names[index] : std::to_string(index))
       << "' (from " << src->attrs.name << ") ";
  } else if (is_output && index >= 0) {
    os << "output " << index << " ";
  }
  os << msg << "; input " << attr_name << "s " << AttrList(ins) << ", output " << attr_name
     << "s " << AttrList(outs);
  return os.str();
}

/*!
 * \brief One fixed-point inference. `attr_name` is "shape" or "dtype" (for messages);
 *        FInfer is the op attribute key.
 */
template <typename AttrType, typename ErrorT>
size_t InferAttr(const IndexedGraph& idx, std::vector<AttrType>* attrs, const char* finfer_key,
                 const char* attr_name) {
  static auto& is_backward = Op::GetAttr<TIsBackward>("TIsBackward");
  auto& finfer = Op::GetAttr<FInferNodeEntryAttr<AttrType>>(finfer_key);
  std::vector<AttrType>& rattr = *attrs;
  std::vector<AttrType> ins, outs;

  auto infer_node = [&](uint32_t nid) {
    const auto& inode = idx[nid];
    const Node* n = inode.source;
    if (n->is_variable()) return;
    const uint32_t nin = inode.inputs.size();
    const uint32_t nout = n->num_outputs();
    // Backward op: its outputs are the gradients of the forward node's inputs.
    if (is_backward.get(n->op(), false) && !inode.control_deps.empty()) {
      const auto& fnode = idx[inode.control_deps[0]];
      if (!fnode.source->is_variable()) {
        // Not always 1:1 (e.g. _backward_pick has one output for pick's two inputs).
        const std::vector<int> fwd_input_of = BackwardOutputToForwardInput(*n, n->control_deps[0]);
        for (uint32_t i = 0; i < nout; ++i) {
          if (fwd_input_of[i] < 0) continue;
          const uint32_t eid = idx.entry_id(nid, i);
          const uint32_t fid = idx.entry_id(fnode.inputs[fwd_input_of[i]]);
          if (Knowledge(rattr[eid]) < Knowledge(rattr[fid])) rattr[eid] = rattr[fid];
        }
      }
    }
    if (!finfer.count(n->op())) {
      bool all_known = true;
      for (uint32_t i = 0; i < nout; ++i) all_known &= IsKnown(rattr[idx.entry_id(nid, i)]);
      if (all_known || is_backward.get(n->op(), false)) return;
      MX_THROW(dmlc::NotImplementedError) << "Operator " << n->op()->name << " (node "
                                          << n->attrs.name << ") has no " << finfer_key;
    }
    ins.resize(nin);
    outs.resize(nout);
    for (uint32_t i = 0; i < nin; ++i) ins[i] = rattr[idx.entry_id(inode.inputs[i])];
    for (uint32_t i = 0; i < nout; ++i) outs[i] = rattr[idx.entry_id(nid, i)];
    const std::vector<AttrType> given_ins = ins, given_outs = outs;
    try {
      finfer[n->op()](n->attrs, &ins, &outs);
    } catch (const mxnet::InferShapeError& e) {
      throw ErrorT(DescribeError(n, inode, e.msg, e.index, given_ins, given_outs, attr_name));
    } catch (const mxnet::InferTypeError& e) {
      throw ErrorT(DescribeError(n, inode, e.msg, e.index, given_ins, given_outs, attr_name));
    } catch (const dmlc::Error& e) {
      std::ostringstream os;
      os << "Error in operator " << n->attrs.name << " (" << n->op()->name << "): " << e.what()
         << " (input " << attr_name << "s " << AttrList(given_ins) << ")";
      throw ErrorT(os.str());
    }
    for (uint32_t i = 0; i < nin && i < ins.size(); ++i) {
      AttrType& slot = rattr[idx.entry_id(inode.inputs[i])];
      if (Knowledge(ins[i]) > Knowledge(slot)) slot = ins[i];
    }
    for (uint32_t i = 0; i < nout && i < outs.size(); ++i) {
      AttrType& slot = rattr[idx.entry_id(nid, i)];
      if (Knowledge(outs[i]) > Knowledge(slot)) slot = outs[i];
    }
  };

  auto total_knowledge = [&]() {
    size_t k = 0;
    for (const AttrType& a : rattr) k += Knowledge(a);
    return k;
  };
  size_t last = total_knowledge();
  const uint32_t num_nodes = idx.num_nodes();
  for (int iter = 0; iter < 32; ++iter) {
    for (uint32_t nid = 0; nid < num_nodes; ++nid) infer_node(nid);
    for (uint32_t nid = num_nodes; nid-- > 0;) infer_node(nid);
    const size_t now = total_knowledge();
    if (now == last) break;
    last = now;
  }
  size_t unknown = 0;
  for (const AttrType& a : rattr) unknown += !IsKnown(a);
  return unknown;
}

size_t DTypeBytes(int dtype) { return dtype >= 0 ? mshadow::mshadow_sizeof(dtype) : 4; }

}  // namespace

size_t InferShape(const IndexedGraph& idx, mxnet::ShapeVector* shapes) {
  return InferAttr<mxnet::TShape, dmlc::ValueError>(idx, shapes, "FInferShape", "shape");
}

size_t InferType(const IndexedGraph& idx, std::vector<int>* dtypes) {
  return InferAttr<int, dmlc::TypeError>(idx, dtypes, "FInferType", "dtype");
}

MemoryPlan PlanMemory(const IndexedGraph& idx, const mxnet::ShapeVector& shapes,
                      const std::vector<int>& dtypes, const std::vector<bool>& external,
                      const std::vector<bool>& keep) {
  static auto& finplace = Op::GetAttr<FInplaceOption>("FInplaceOption");
  static auto& fidentity = Op::GetAttr<FInplaceIdentity>("FInplaceIdentity");
  static auto& fignore = Op::GetAttr<FIgnoreInputs>("FIgnoreInputs");
  const size_t num_entries = idx.num_node_entries();
  MemoryPlan plan;
  plan.storage_id.assign(num_entries, MemoryPlan::kExternal);
  plan.inplace_input.assign(num_entries, -1);

  // How many op inputs still read each entry (ignored inputs do not count).
  std::vector<uint32_t> entry_refs(num_entries, 0);
  auto ignored_inputs = [&](const Node* n) {
    std::vector<uint32_t> ign;
    if (n->op() != nullptr && fignore.count(n->op())) ign = fignore[n->op()](n->attrs);
    return ign;
  };
  for (uint32_t nid = 0; nid < idx.num_nodes(); ++nid) {
    const auto& inode = idx[nid];
    if (inode.source->is_variable()) continue;
    std::vector<uint32_t> ign = ignored_inputs(inode.source);
    for (uint32_t i = 0; i < inode.inputs.size(); ++i) {
      if (std::find(ign.begin(), ign.end(), i) != ign.end()) continue;
      ++entry_refs[idx.entry_id(inode.inputs[i])];
    }
  }
  for (uint32_t eid = 0; eid < num_entries; ++eid) {
    if (keep[eid]) entry_refs[eid] += 1u << 30;  // never released
  }
  auto bytes_of = [&](uint32_t eid) {
    const mxnet::TShape& s = shapes[eid];
    const size_t n = mxnet::shape_is_known(s) ? s.Size() : 0;
    return n * DTypeBytes(dtypes[eid]);
  };

  std::vector<uint32_t> storage_refs;
  std::multimap<size_t, int> free_blocks;  // bytes -> block id
  auto release = [&](int sid) { free_blocks.emplace(plan.storage_bytes[sid], sid); };
  auto allocate = [&](size_t bytes) {
    // Smallest free block that fits; else grow the largest smaller one; else a new block.
    auto it = free_blocks.lower_bound(bytes);
    if (it == free_blocks.end() && !free_blocks.empty()) {
      it = std::prev(free_blocks.end());
      plan.storage_bytes[it->second] = bytes;
    }
    if (it != free_blocks.end()) {
      const int sid = it->second;
      free_blocks.erase(it);
      return sid;
    }
    plan.storage_bytes.push_back(bytes);
    storage_refs.push_back(0);
    return static_cast<int>(plan.storage_bytes.size() - 1);
  };

  for (uint32_t nid = 0; nid < idx.num_nodes(); ++nid) {
    const auto& inode = idx[nid];
    const Node* n = inode.source;
    if (n->is_variable()) continue;
    const uint32_t nout = n->num_outputs();
    std::vector<bool> taken(inode.inputs.size(), false);
    if (finplace.count(n->op())) {
      std::vector<std::pair<int, int>> pairs = finplace[n->op()](n->attrs);
      std::vector<bool> identity;
      if (fidentity.count(n->op())) identity = fidentity[n->op()](n->attrs);
      for (size_t k = 0; k < pairs.size(); ++k) {
        const int in = pairs[k].first, out = pairs[k].second;
        if (in < 0 || in >= static_cast<int>(inode.inputs.size()) || out < 0 ||
            out >= static_cast<int>(nout) || taken[in]) {
          continue;
        }
        const uint32_t eid_in = idx.entry_id(inode.inputs[in]);
        const uint32_t eid_out = idx.entry_id(nid, out);
        const int sid_in = plan.storage_id[eid_in];
        if (external[eid_out] || plan.storage_id[eid_out] != MemoryPlan::kExternal || sid_in < 0) {
          continue;
        }
        const bool is_identity = k < identity.size() && identity[k];
        if ((storage_refs[sid_in] == 1 || is_identity) && entry_refs[eid_out] > 0 &&
            bytes_of(eid_out) == bytes_of(eid_in) && dtypes[eid_out] == dtypes[eid_in]) {
          taken[in] = true;
          plan.storage_id[eid_out] = sid_in;
          plan.inplace_input[eid_out] = static_cast<int>(eid_in);
          storage_refs[sid_in] += entry_refs[eid_out];
        }
      }
    }
    for (uint32_t i = 0; i < nout; ++i) {
      const uint32_t eid = idx.entry_id(nid, i);
      if (external[eid] || plan.storage_id[eid] != MemoryPlan::kExternal) continue;
      const int sid = allocate(bytes_of(eid));
      plan.storage_id[eid] = sid;
      storage_refs[sid] = entry_refs[eid];
    }
    // The op is done with its inputs.
    std::vector<uint32_t> ign = ignored_inputs(n);
    for (uint32_t i = 0; i < inode.inputs.size(); ++i) {
      if (std::find(ign.begin(), ign.end(), i) != ign.end()) continue;
      const int sid = plan.storage_id[idx.entry_id(inode.inputs[i])];
      if (sid < 0) continue;
      if (--storage_refs[sid] == 0) release(sid);
    }
    // Outputs nobody reads are free right after the op.
    for (uint32_t i = 0; i < nout; ++i) {
      const uint32_t eid = idx.entry_id(nid, i);
      const int sid = plan.storage_id[eid];
      if (sid >= 0 && storage_refs[sid] == 0 && plan.inplace_input[eid] < 0) release(sid);
    }
  }
  return plan;
}

}  // namespace pass
}  // namespace nnvm
