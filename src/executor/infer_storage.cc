/*!
 * \file infer_storage.cc
 * \brief Storage-type inference pass of the graph executor (see infer_storage.h).
 */
#include "infer_storage.h"

#include "exec_core.h"

#include <mxnet/ndarray.h>

#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_set>

namespace mxnet {
namespace exec {

namespace {

const char* StypeName(int stype) {
  return stype == kCSRStorage ? "csr" : stype == kRowSparseStorage ? "row_sparse" : "default";
}

std::string StypeList(const std::vector<int>& stypes) {
  std::ostringstream os;
  for (size_t i = 0; i < stypes.size(); ++i) os << (i ? ", " : "") << StypeName(stypes[i]);
  return os.str();
}

/*! \brief Same warning as an imperative call's fallback, once per operator and process. */
void LogStorageFallback(const nnvm::Op* op, const std::vector<int>& in_stypes,
                        const std::vector<int>& out_stypes) {
  static std::mutex mu;
  static std::unordered_set<const nnvm::Op*> logged;
  const char* env = std::getenv("MXNET_STORAGE_FALLBACK_LOG_VERBOSE");
  if (env != nullptr && std::string(env) == "0") return;
  std::lock_guard<std::mutex> lock(mu);
  if (!logged.insert(op).second) return;
  LOG(WARNING) << "Storage type fallback detected: operator = " << op->name
               << ", input storage types = [" << StypeList(in_stypes)
               << "], output storage types = [" << StypeList(out_stypes)
               << "]. Temporary dense arrays are used to run it; the result is dense. Set "
                  "MXNET_STORAGE_FALLBACK_LOG_VERBOSE=0 to suppress this message.";
}

}  // namespace

int VariableStorageType(const nnvm::Node* n) {
  auto it = n->attrs.dict.find("__storage_type__");
  if (it == n->attrs.dict.end()) return kUndefinedStorage;
  const int s = std::atoi(it->second.c_str());
  return s == kRowSparseStorage || s == kCSRStorage ? s : kDefaultStorage;
}

size_t InferStorageTypes(const nnvm::IndexedGraph& idx, int dev_mask, std::vector<int>* stypes,
                         std::vector<DispatchMode>* modes, const std::vector<int>* same_as) {
  CHECK_EQ(stypes->size(), idx.num_node_entries());
  modes->assign(idx.num_nodes(), DispatchMode::kUndefined);
  size_t fallbacks = 0;
  for (uint32_t nid = 0; nid < idx.num_nodes(); ++nid) {
    const auto& inode = idx[nid];
    const nnvm::Node* n = inode.source;
    if (n->is_variable()) {
      const uint32_t eid = idx.entry_id(nid, 0);
      int& s = (*stypes)[eid];
      if (s == kUndefinedStorage && same_as != nullptr && (*same_as)[eid] >= 0) {
        s = (*stypes)[(*same_as)[eid]];
      }
      if (s == kUndefinedStorage) s = VariableStorageType(n);
      if (s == kUndefinedStorage) s = kDefaultStorage;
      (*modes)[nid] = DispatchMode::kVariable;
      continue;
    }
    const nnvm::Op* op = n->op();
    std::vector<int> in_st, out_st;
    for (const auto& e : inode.inputs) in_st.push_back((*stypes)[idx.entry_id(e)]);
    for (uint32_t i = 0; i < n->num_outputs(); ++i) {
      out_st.push_back((*stypes)[idx.entry_id(nid, i)]);
    }
    std::vector<int> ins = in_st, inferred = out_st;
    const DispatchMode mode = InferDispatch(n->attrs, dev_mask, &ins, &inferred);
    // The sparse kernel keeps what it inferred; a dense kernel writes dense results and bound
    // sparse outputs get a cast afterwards. Outputs left undecided are dense either way.
    if (mode != DispatchMode::kFComputeEx) inferred = out_st;
    for (int& s : inferred) {
      if (s == kUndefinedStorage) s = kDefaultStorage;
    }
    if (mode == DispatchMode::kFComputeFallback) {
      ++fallbacks;
      LogStorageFallback(op, in_st, inferred);
    }
    for (uint32_t i = 0; i < n->num_outputs(); ++i) (*stypes)[idx.entry_id(nid, i)] = inferred[i];
    (*modes)[nid] = mode;
  }
  return fallbacks;
}

std::vector<int> HeadGradStorageSources(const nnvm::IndexedGraph& idx,
                                        const std::vector<nnvm::ObjectPtr>& head_grads) {
  std::vector<int> same_as(idx.num_node_entries(), -1);
  for (size_t i = 0; i < head_grads.size() && i < idx.outputs().size(); ++i) {
    if (!head_grads[i] || !idx.exist(head_grads[i].get())) continue;
    same_as[idx.entry_id(idx.node_id(head_grads[i].get()), 0)] =
        static_cast<int>(idx.entry_id(idx.outputs()[i]));
  }
  return same_as;
}

}  // namespace exec
}  // namespace mxnet
