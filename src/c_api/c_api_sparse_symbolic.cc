// C API: storage-type inference of symbols (forward graph, and simple_bind's gradient types).
#include <mxnet/c_api.h>
#include <mxnet/executor.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "../executor/infer_storage.h"
#include "c_api_common.h"
#include "c_api_symbolic_util.h"

namespace {

struct StypeReturn {
  std::vector<int> in, out, aux, grad;
};

StypeReturn* GetStypeReturn() {
  static thread_local StypeReturn r;
  return &r;
}

/*! \brief Storage type per argument of `sym`: given by name, else the variable attribute. */
std::vector<int> ArgStypes(const nnvm::Symbol& sym, uint32_t num, const char** keys,
                           const int* stypes) {
  std::unordered_map<std::string, int> given;
  for (uint32_t i = 0; i < num; ++i) {
    const int s = stypes[i];
    if (s != mxnet::kDefaultStorage && s != mxnet::kRowSparseStorage && s != mxnet::kCSRStorage) {
      MX_THROW(dmlc::ValueError) << "infer_storage_type: unknown storage type code " << s
                                 << " for " << keys[i];
    }
    given[keys[i]] = s;
  }
  std::vector<int> out;
  for (const nnvm::ObjectPtr& n : sym.ListInputs(nnvm::Symbol::kReadOnlyArgs)) {
    auto it = given.find(n->attrs.name);
    int s = it != given.end() ? it->second : mxnet::exec::VariableStorageType(n.get());
    out.push_back(s == mxnet::kUndefinedStorage ? mxnet::kDefaultStorage : s);
  }
  return out;
}

}  // namespace

int MXSymbolInferStorageTypeEx(SymbolHandle sym_handle, uint32_t num_args, const char** keys,
                               const int* stypes, uint32_t* in_size, const int** in_stypes,
                               uint32_t* out_size, const int** out_stypes, uint32_t* aux_size,
                               const int** aux_stypes) {
  API_BEGIN();
  const nnvm::Symbol* sym = mxnet::c_api::SymbolFromHandle(sym_handle);
  std::vector<int> args = ArgStypes(*sym, num_args, keys, stypes);
  nnvm::Graph g;
  g.outputs = sym->outputs;
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  std::vector<int> entry(idx.num_node_entries(), mxnet::kUndefinedStorage);
  std::vector<nnvm::ObjectPtr> arg_nodes = sym->ListInputs(nnvm::Symbol::kReadOnlyArgs);
  std::vector<nnvm::ObjectPtr> aux_nodes = sym->ListInputs(nnvm::Symbol::kAuxiliaryStates);
  for (size_t i = 0; i < arg_nodes.size(); ++i) {
    entry[idx.entry_id(idx.node_id(arg_nodes[i].get()), 0)] = args[i];
  }
  std::vector<mxnet::DispatchMode> modes;
  mxnet::exec::InferStorageTypes(idx, mxnet::cpu::kDevMask, &entry, &modes);
  StypeReturn* r = GetStypeReturn();
  r->in = args;
  r->out.clear();
  r->aux.clear();
  for (const auto& e : idx.outputs()) r->out.push_back(entry[idx.entry_id(e)]);
  for (const nnvm::ObjectPtr& n : aux_nodes) {
    r->aux.push_back(entry[idx.entry_id(idx.node_id(n.get()), 0)]);
  }
  *in_size = static_cast<uint32_t>(r->in.size());
  *in_stypes = r->in.data();
  *out_size = static_cast<uint32_t>(r->out.size());
  *out_stypes = r->out.data();
  *aux_size = static_cast<uint32_t>(r->aux.size());
  *aux_stypes = r->aux.data();
  API_END();
}

int MXSymbolInferGradStorageType(SymbolHandle sym_handle, uint32_t num_args, const char** keys,
                                 const int* stypes, uint32_t num_reqs, const uint32_t* grad_reqs,
                                 uint32_t* out_size, const int** grad_stypes) {
  API_BEGIN();
  const nnvm::Symbol* sym = mxnet::c_api::SymbolFromHandle(sym_handle);
  std::vector<int> args = ArgStypes(*sym, num_args, keys, stypes);
  if (num_reqs != args.size()) {
    MX_THROW(dmlc::ValueError) << "infer_storage_type: " << num_reqs << " grad_req values for "
                               << args.size() << " arguments";
  }
  std::vector<mxnet::OpReqType> reqs;
  for (uint32_t i = 0; i < num_reqs; ++i) {
    reqs.push_back(grad_reqs[i] == 0 ? mxnet::kNullOp
                                     : grad_reqs[i] == 3 ? mxnet::kAddTo : mxnet::kWriteTo);
  }
  StypeReturn* r = GetStypeReturn();
  r->grad = mxnet::Executor::InferGradStorageTypes(*sym, args, reqs);
  *out_size = static_cast<uint32_t>(r->grad.size());
  *grad_stypes = r->grad.data();
  API_END();
}
