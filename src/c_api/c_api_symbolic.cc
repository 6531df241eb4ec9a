// C API: symbols (creation, composition, listing, attributes, JSON, shape/type inference).
#include <mxnet/c_api.h>
#include <mxnet/ndarray.h>
#include <nnvm/graph_passes.h>
#include <nnvm/symbolic.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "c_api_common.h"
#include "../common/file_replace.h"
#include "../executor/simple_bind.h"
#include "../nnvm/subgraph_cut.h"
#include "c_api_symbolic_util.h"

using nnvm::Symbol;

namespace mxnet {
namespace c_api {

Symbol* SymbolFromHandle(SymbolHandle h) {
  if (h == nullptr) mxnet::c_api::ThrowNullHandle("symbol handle");
  return static_cast<Symbol*>(h);
}

bool IsHiddenKey(const std::string& key) {
  const auto& keys = nnvm::HiddenKeys();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

/*! \brief "__k__" for a hidden key k, else empty. */
std::string StripHidden(const std::string& key) {
  if (key.size() > 4 && key.compare(0, 2, "__") == 0 && key.compare(key.size() - 2, 2, "__") == 0) {
    std::string k = key.substr(2, key.size() - 4);
    if (IsHiddenKey(k)) return k;
  }
  return std::string();
}

}  // namespace c_api
}  // namespace mxnet

using mxnet::c_api::SymbolFromHandle;
using mxnet::c_api::GetThreadLocalReturn;

namespace {

void ReturnStrings(const std::vector<std::string>& v, uint32_t* out_size, const char*** out) {
  auto* ret = GetThreadLocalReturn();
  ret->ret_vec_str = v;
  ret->ret_vec_charp.clear();
  for (const std::string& s : ret->ret_vec_str) ret->ret_vec_charp.push_back(s.c_str());
  *out_size = static_cast<uint32_t>(ret->ret_vec_charp.size());
  *out = ret->ret_vec_charp.data();
}

}  // namespace

int MXSymbolCreateVariable(const char* name, SymbolHandle* out) {
  API_BEGIN();
  API_NOT_NULL(name);
  API_NOT_NULL(out);
  *out = new Symbol(Symbol::CreateVariable(name));
  API_END();
}

int MXSymbolCreateAtomicSymbol(AtomicSymbolCreator creator, uint32_t num_param, const char** keys,
                               const char** vals, SymbolHandle* out) {
  API_BEGIN();
  if (creator == nullptr) mxnet::c_api::ThrowNullHandle("operator handle");
  const nnvm::Op* op = static_cast<const nnvm::Op*>(creator);
  std::unordered_map<std::string, std::string> kwargs;
  for (uint32_t i = 0; i < num_param; ++i) {
    std::string key(keys[i]);
    bool hidden = false;
    for (const std::string& k : nnvm::HiddenKeys()) {
      if (key == k) {
        kwargs["__" + key + "__"] = vals[i];
        hidden = true;
        break;
      }
      if (key.size() > k.size() && key.compare(key.size() - k.size(), k.size(), k) == 0 &&
          key[key.size() - k.size() - 1] == '_') {
        MX_THROW(dmlc::ValueError) << "Operator " << op->name << ": setting variable attributes "
                                   << "with " << key << " is deprecated. Please use "
                                   << "Variable(..., " << k << "=...) instead";
      }
    }
    if (!hidden) kwargs[key] = vals[i];
  }
  *out = new Symbol(Symbol::CreateFunctor(op, std::move(kwargs)));
  API_END();
}

int MXSymbolCreateGroup(uint32_t num_symbols, SymbolHandle* symbols, SymbolHandle* out) {
  API_BEGIN();
  API_NO_NULL_IN(symbols, num_symbols);
  API_NOT_NULL(out);
  std::vector<Symbol> syms;
  for (uint32_t i = 0; i < num_symbols; ++i) syms.push_back(*SymbolFromHandle(symbols[i]));
  *out = new Symbol(Symbol::CreateGroup(syms));
  API_END();
}

int MXSymbolCompose(SymbolHandle sym, const char* name, uint32_t num_args, const char** keys,
                    SymbolHandle* args) {
  API_BEGIN();
  Symbol* s = SymbolFromHandle(sym);
  std::vector<const Symbol*> pos;
  std::unordered_map<std::string, const Symbol*> kw;
  for (uint32_t i = 0; i < num_args; ++i) {
    const Symbol* a = SymbolFromHandle(args[i]);
    if (keys == nullptr || keys[i] == nullptr) {
      pos.push_back(a);
    } else {
      kw[keys[i]] = a;
    }
  }
  s->Compose(pos, kw, name == nullptr ? std::string() : std::string(name));
  API_END();
}

int NNSymbolCompose(SymbolHandle sym, const char* name, nn_uint num_args, const char** keys,
                    SymbolHandle* args) {
  return MXSymbolCompose(sym, name, num_args, keys, args);
}

int MXSymbolCopy(SymbolHandle symbol, SymbolHandle* out) {
  API_BEGIN();
  *out = new Symbol(SymbolFromHandle(symbol)->Copy());
  API_END();
}

int MXSymbolRemoveAmpCast(SymbolHandle sym_handle, SymbolHandle* ret_sym_handle) {
  API_BEGIN();
  static const nnvm::Op* amp_cast = nnvm::Op::Get("amp_cast");
  static const nnvm::Op* amp_multicast = nnvm::Op::Get("amp_multicast");
  // The copy owns fresh nodes, so rewiring their inputs leaves the caller's symbol untouched.
  // A cast that is itself an output of the symbol stays (as in 1.9.1): the outputs keep dtypes.
  Symbol copy = SymbolFromHandle(sym_handle)->Copy();
  auto skip_casts = [&](nnvm::NodeEntry e) {
    while (e.node->op() == amp_cast || e.node->op() == amp_multicast) {
      e = e.node->inputs[e.node->op() == amp_cast ? 0 : e.index];
    }
    return e;
  };
  nnvm::DFSVisit(copy.outputs, [&](const nnvm::ObjectPtr& node) {
    for (nnvm::NodeEntry& in : node->inputs) in = skip_casts(in);
  });
  *ret_sym_handle = new Symbol(copy);
  API_END();
}

int MXShallowCopySymbol(SymbolHandle src, SymbolHandle* out) {
  API_BEGIN();
  *out = new Symbol(*SymbolFromHandle(src));
  API_END();
}

int MXSymbolFree(SymbolHandle symbol) {
  API_BEGIN();
  delete static_cast<Symbol*>(symbol);
  API_END();
}

int NNSymbolFree(SymbolHandle symbol) { return MXSymbolFree(symbol); }

int MXSymbolPrint(SymbolHandle symbol, const char** out_str) {
  API_BEGIN();
  std::ostringstream os;
  SymbolFromHandle(symbol)->Print(os);
  auto* ret = GetThreadLocalReturn();
  ret->ret_str = os.str();
  *out_str = ret->ret_str.c_str();
  API_END();
}

int MXSymbolGetName(SymbolHandle symbol, const char** out, int* success) {
  API_BEGIN();
  auto* ret = GetThreadLocalReturn();
  if (SymbolFromHandle(symbol)->GetAttr("name", &ret->ret_str)) {
    *out = ret->ret_str.c_str();
    *success = 1;
  } else {
    *out = nullptr;
    *success = 0;
  }
  API_END();
}

int MXSymbolGetAttr(SymbolHandle symbol, const char* key, const char** out, int* success) {
  API_BEGIN();
  Symbol* s = SymbolFromHandle(symbol);
  auto* ret = GetThreadLocalReturn();
  std::string k(key);
  if (s->GetAttr(k, &ret->ret_str) ||
      (mxnet::c_api::IsHiddenKey(k) && s->GetAttr("__" + k + "__", &ret->ret_str))) {
    *out = ret->ret_str.c_str();
    *success = 1;
  } else {
    *out = nullptr;
    *success = 0;
  }
  API_END();
}

int MXSymbolSetAttr(SymbolHandle symbol, const char* key, const char* value) {
  API_BEGIN();
  API_NOT_NULL(symbol);
  API_NOT_NULL(key);
  API_NOT_NULL(value);
  std::string k(key);
  if (mxnet::c_api::IsHiddenKey(k)) k = "__" + k + "__";
  SymbolFromHandle(symbol)->SetAttrs({{k, value}});
  API_END();
}

int MXSymbolListAttr(SymbolHandle symbol, uint32_t* out_size, const char*** out) {
  API_BEGIN();
  std::vector<std::string> flat;
  for (const auto& t : SymbolFromHandle(symbol)->ListAttrsRecursive()) {
    flat.push_back(std::get<0>(t) + '$' + std::get<1>(t));
    flat.push_back(std::get<2>(t));
    std::string plain = mxnet::c_api::StripHidden(std::get<1>(t));
    if (!plain.empty()) {
      flat.push_back(std::get<0>(t) + '$' + plain);
      flat.push_back(std::get<2>(t));
    }
  }
  uint32_t n;
  ReturnStrings(flat, &n, out);
  *out_size = n / 2;
  API_END();
}

int MXSymbolListAttrShallow(SymbolHandle symbol, uint32_t* out_size, const char*** out) {
  API_BEGIN();
  std::vector<std::string> flat;
  for (const auto& kv : SymbolFromHandle(symbol)->ListAttrs(Symbol::kShallow)) {
    flat.push_back(kv.first);
    flat.push_back(kv.second);
    std::string plain = mxnet::c_api::StripHidden(kv.first);
    if (!plain.empty()) {
      flat.push_back(plain);
      flat.push_back(kv.second);
    }
  }
  uint32_t n;
  ReturnStrings(flat, &n, out);
  *out_size = n / 2;
  API_END();
}

int MXSymbolListArguments(SymbolHandle symbol, uint32_t* out_size, const char*** out_str_array) {
  API_BEGIN();
  ReturnStrings(SymbolFromHandle(symbol)->ListInputNames(Symbol::kReadOnlyArgs), out_size,
                out_str_array);
  API_END();
}

int MXSymbolListAuxiliaryStates(SymbolHandle symbol, uint32_t* out_size,
                                const char*** out_str_array) {
  API_BEGIN();
  ReturnStrings(SymbolFromHandle(symbol)->ListInputNames(Symbol::kAuxiliaryStates), out_size,
                out_str_array);
  API_END();
}

int NNSymbolListInputNames(SymbolHandle symbol, int option, nn_uint* out_size,
                           const char*** out_str_array) {
  API_BEGIN();
  ReturnStrings(SymbolFromHandle(symbol)->ListInputNames(static_cast<Symbol::ListInputOption>(option)),
                out_size, out_str_array);
  API_END();
}

int MXSymbolListOutputs(SymbolHandle symbol, uint32_t* out_size, const char*** out_str_array) {
  API_BEGIN();
  ReturnStrings(SymbolFromHandle(symbol)->ListOutputNames(), out_size, out_str_array);
  API_END();
}

int MXSymbolGetNumOutputs(SymbolHandle symbol, uint32_t* output_count) {
  API_BEGIN();
  *output_count = static_cast<uint32_t>(SymbolFromHandle(symbol)->outputs.size());
  API_END();
}

int NNSymbolGetNumOutputs(SymbolHandle symbol, nn_uint* output_count) {
  return MXSymbolGetNumOutputs(symbol, output_count);
}

int MXSymbolGetInternals(SymbolHandle symbol, SymbolHandle* out) {
  API_BEGIN();
  *out = new Symbol(SymbolFromHandle(symbol)->GetInternals());
  API_END();
}

int MXSymbolGetChildren(SymbolHandle symbol, SymbolHandle* out) {
  API_BEGIN();
  *out = new Symbol(SymbolFromHandle(symbol)->GetChildren());
  API_END();
}

int MXSymbolGetOutput(SymbolHandle symbol, uint32_t index, SymbolHandle* out) {
  API_BEGIN();
  *out = new Symbol((*SymbolFromHandle(symbol))[index]);
  API_END();
}

int MXSymbolGetInputSymbols(SymbolHandle sym, SymbolHandle** inputs, int* input_size) {
  API_BEGIN();
  auto* ret = GetThreadLocalReturn();
  ret->ret_handles.clear();
  for (const nnvm::ObjectPtr& n : SymbolFromHandle(sym)->ListInputs(Symbol::kAll)) {
    Symbol* s = new Symbol();
    s->outputs.emplace_back(n, 0, 0);
    ret->ret_handles.push_back(s);
  }
  *input_size = static_cast<int>(ret->ret_handles.size());
  *inputs = reinterpret_cast<SymbolHandle*>(ret->ret_handles.data());
  API_END();
}

int MXSymbolCutSubgraph(SymbolHandle sym, SymbolHandle** inputs, int* input_size) {
  API_BEGIN();
  API_NOT_NULL(inputs);
  API_NOT_NULL(input_size);
  auto* ret = GetThreadLocalReturn();
  ret->ret_handles.clear();
  for (const Symbol& s : nnvm::CutSubgraphInputs(SymbolFromHandle(sym))) {
    ret->ret_handles.push_back(new Symbol(s));
  }
  *input_size = static_cast<int>(ret->ret_handles.size());
  *inputs = reinterpret_cast<SymbolHandle*>(ret->ret_handles.data());
  API_END();
}

int MXSymbolSaveToJSON(SymbolHandle symbol, const char** out_json) {
  API_BEGIN();
  auto* ret = GetThreadLocalReturn();
  ret->ret_str = nnvm::SaveJSON(*SymbolFromHandle(symbol));
  *out_json = ret->ret_str.c_str();
  API_END();
}

int MXSymbolCreateFromJSON(const char* json, SymbolHandle* out) {
  API_BEGIN();
  API_NOT_NULL(json);
  API_NOT_NULL(out);
  *out = new Symbol(nnvm::LoadJSON(json));
  API_END();
}

int MXSymbolSaveToFile(SymbolHandle symbol, const char* fname) {
  API_BEGIN();
  API_NOT_NULL(fname);
  const std::string json = nnvm::SaveJSON(*SymbolFromHandle(symbol));
  mxnet::common::WriteFileReplacing(fname, [&](std::ostream* os) { *os << json; });
  API_END();
}

int MXSymbolCreateFromFile(const char* fname, SymbolHandle* out) {
  API_BEGIN();
  API_NOT_NULL(fname);
  API_NOT_NULL(out);
  std::ifstream is(fname);
  if (!is) MX_THROW(dmlc::ValueError) << "cannot open symbol file " << fname;
  std::stringstream ss;
  ss << is.rdbuf();
  *out = new Symbol(nnvm::LoadJSON(ss.str()));
  API_END();
}

int MXSymbolGrad(SymbolHandle sym, uint32_t num_wrt, const char** wrt, SymbolHandle* out) {
  API_BEGIN();
  (void)sym;
  (void)num_wrt;
  (void)wrt;
  (void)out;
  MX_THROW(dmlc::NotImplementedError) << "MXSymbolGrad is not implemented (as in MXNet 1.x)";
  API_END();
}

// ---------------------------------------------------------------- shape / type inference

namespace {

/*! \brief Per-thread result buffers of the inference functions. */
struct InferReturn {
  std::vector<std::vector<int64_t>> shapes64[3];
  std::vector<std::vector<int>> shapes32[3];
  std::vector<int> ndims[3];
  std::vector<const int64_t*> ptr64[3];
  std::vector<const int*> ptr32[3];
  std::vector<int> types[3];
};

InferReturn* GetInferReturn() {
  static thread_local InferReturn r;
  return &r;
}

/*!
 * \brief Shared implementation: known shapes in (CSR), inferred shapes of arguments, outputs
 *        and aux states out. Returns whether everything is known.
 */
template <typename IdxT, typename DimT>
bool InferShapeImpl(Symbol* s, uint32_t num_args, const char** keys, const IdxT* arg_ind_ptr,
                    const DimT* arg_shape_data, ShapeVectorTriple* result) {
  nnvm::Graph g;
  g.outputs = s->outputs;
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  std::vector<nnvm::ObjectPtr> args = s->ListInputs(Symbol::kReadOnlyArgs);
  std::vector<nnvm::ObjectPtr> aux = s->ListInputs(Symbol::kAuxiliaryStates);
  mxnet::ShapeVector shapes(idx.num_node_entries());
  auto arg_eid = [&](const nnvm::ObjectPtr& n) { return idx.entry_id(idx.node_id(n.get()), 0); };
  for (uint32_t i = 0; i < num_args; ++i) {
    mxnet::TShape shape(arg_shape_data + arg_ind_ptr[i], arg_shape_data + arg_ind_ptr[i + 1]);
    shape = mxnet::exec::LegacyToShape(shape);
    if (keys == nullptr) {
      if (i >= args.size()) {
        MX_THROW(dmlc::ValueError) << "infer_shape: " << num_args << " positional shapes for "
                                   << args.size() << " arguments";
      }
      shapes[arg_eid(args[i])] = shape;
    } else {
      bool found = false;
      for (const auto* list : {&args, &aux}) {
        for (const nnvm::ObjectPtr& n : *list) {
          if (n->attrs.name == keys[i]) {
            shapes[arg_eid(n)] = shape;
            found = true;
          }
        }
      }
      if (!found) {
        std::ostringstream os;
        for (size_t j = 0; j < args.size(); ++j) os << (j ? ", " : "") << args[j]->attrs.name;
        MX_THROW(dmlc::ValueError) << "infer_shape: " << keys[i] << " is not an argument of "
                                   << "the symbol; arguments are [" << os.str() << "]";
      }
    }
  }
  mxnet::exec::ApplyVariableAttrs(idx, &shapes, nullptr);
  nnvm::pass::InferShape(idx, &shapes);
  bool complete = true;
  for (const nnvm::ObjectPtr& n : args) {
    result->args.push_back(shapes[arg_eid(n)]);
    complete &= mxnet::shape_is_known(result->args.back());
  }
  for (const auto& e : idx.outputs()) {
    result->outs.push_back(shapes[idx.entry_id(e)]);
    complete &= mxnet::shape_is_known(result->outs.back());
  }
  for (const nnvm::ObjectPtr& n : aux) {
    result->aux.push_back(shapes[arg_eid(n)]);
    complete &= mxnet::shape_is_known(result->aux.back());
  }
  return complete;
}

/*! \brief Fill the per-thread buffers (legacy convention: unknown shape ndim 0, dims 0). */
template <typename DimT, typename SizeT>
void ReturnShapes(const mxnet::ShapeVector* lists[3], SizeT* sizes[3], const int** ndims[3],
                  const DimT*** datas[3]) {
  InferReturn* r = GetInferReturn();
  for (int k = 0; k < 3; ++k) {
    const mxnet::ShapeVector& v = *lists[k];
    r->ndims[k].clear();
    r->shapes64[k].assign(v.size(), {});
    r->shapes32[k].assign(v.size(), {});
    r->ptr64[k].clear();
    r->ptr32[k].clear();
    for (size_t i = 0; i < v.size(); ++i) {
      const mxnet::TShape& s = v[i];
      const int nd = mxnet::ndim_is_known(s) ? s.ndim() : 0;
      r->ndims[k].push_back(nd);
      for (int d = 0; d < nd; ++d) {
        const int64_t dim = s[d] < 0 ? 0 : s[d];
        r->shapes64[k][i].push_back(dim);
        r->shapes32[k][i].push_back(static_cast<int>(dim));
      }
    }
    for (size_t i = 0; i < v.size(); ++i) {
      r->ptr64[k].push_back(r->shapes64[k][i].data());
      r->ptr32[k].push_back(r->shapes32[k][i].data());
    }
    *sizes[k] = static_cast<SizeT>(v.size());
    *ndims[k] = r->ndims[k].data();
    if constexpr (sizeof(DimT) == 8) {
      *datas[k] = reinterpret_cast<const DimT**>(r->ptr64[k].data());
    } else {
      *datas[k] = reinterpret_cast<const DimT**>(r->ptr32[k].data());
    }
  }
}

template <typename IdxT, typename DimT, typename SizeT>
int InferShapeAPI(SymbolHandle sym, uint32_t num_args, const char** keys, const IdxT* arg_ind_ptr,
                  const DimT* arg_shape_data, SizeT* in_size, const int** in_ndim,
                  const DimT*** in_data, SizeT* out_size, const int** out_ndim,
                  const DimT*** out_data, SizeT* aux_size, const int** aux_ndim,
                  const DimT*** aux_data, int* complete, bool partial) {
  API_BEGIN_HELPER();
  ShapeVectorTriple result;
  bool done = InferShapeImpl(SymbolFromHandle(sym), num_args, keys, arg_ind_ptr, arg_shape_data,
                             &result);
  const mxnet::ShapeVector* lists[3] = {&result.args, &result.outs, &result.aux};
  SizeT* sizes[3] = {in_size, out_size, aux_size};
  const int** ndims[3] = {in_ndim, out_ndim, aux_ndim};
  const DimT*** datas[3] = {in_data, out_data, aux_data};
  ReturnShapes<DimT, SizeT>(lists, sizes, ndims, datas);
  *complete = (done || partial) ? 1 : 0;
  API_END();
}

}  // namespace

int MXSymbolInferShape(SymbolHandle sym, uint32_t num_args, const char** keys,
                       const uint32_t* arg_ind_ptr, const uint32_t* arg_shape_data,
                       uint32_t* in_shape_size, const uint32_t** in_shape_ndim,
                       const uint32_t*** in_shape_data, uint32_t* out_shape_size,
                       const uint32_t** out_shape_ndim, const uint32_t*** out_shape_data,
                       uint32_t* aux_shape_size, const uint32_t** aux_shape_ndim,
                       const uint32_t*** aux_shape_data, int* complete) {
  API_FUNCTION_SCOPE();
  return InferShapeAPI<uint32_t, int, uint32_t>(
      sym, num_args, keys, arg_ind_ptr, reinterpret_cast<const int*>(arg_shape_data),
      in_shape_size, reinterpret_cast<const int**>(in_shape_ndim),
      reinterpret_cast<const int***>(in_shape_data), out_shape_size,
      reinterpret_cast<const int**>(out_shape_ndim), reinterpret_cast<const int***>(out_shape_data),
      aux_shape_size, reinterpret_cast<const int**>(aux_shape_ndim),
      reinterpret_cast<const int***>(aux_shape_data), complete, false);
}

int MXSymbolInferShapePartial(SymbolHandle sym, uint32_t num_args, const char** keys,
                              const uint32_t* arg_ind_ptr, const uint32_t* arg_shape_data,
                              uint32_t* in_shape_size, const uint32_t** in_shape_ndim,
                              const uint32_t*** in_shape_data, uint32_t* out_shape_size,
                              const uint32_t** out_shape_ndim, const uint32_t*** out_shape_data,
                              uint32_t* aux_shape_size, const uint32_t** aux_shape_ndim,
                              const uint32_t*** aux_shape_data, int* complete) {
  API_FUNCTION_SCOPE();
  return InferShapeAPI<uint32_t, int, uint32_t>(
      sym, num_args, keys, arg_ind_ptr, reinterpret_cast<const int*>(arg_shape_data),
      in_shape_size, reinterpret_cast<const int**>(in_shape_ndim),
      reinterpret_cast<const int***>(in_shape_data), out_shape_size,
      reinterpret_cast<const int**>(out_shape_ndim), reinterpret_cast<const int***>(out_shape_data),
      aux_shape_size, reinterpret_cast<const int**>(aux_shape_ndim),
      reinterpret_cast<const int***>(aux_shape_data), complete, true);
}

int MXSymbolInferShapeEx(SymbolHandle sym, uint32_t num_args, const char** keys,
                         const uint32_t* arg_ind_ptr, const int* arg_shape_data,
                         uint32_t* in_shape_size, const int** in_shape_ndim,
                         const int*** in_shape_data, uint32_t* out_shape_size,
                         const int** out_shape_ndim, const int*** out_shape_data,
                         uint32_t* aux_shape_size, const int** aux_shape_ndim,
                         const int*** aux_shape_data, int* complete) {
  API_FUNCTION_SCOPE();
  return InferShapeAPI<uint32_t, int, uint32_t>(sym, num_args, keys, arg_ind_ptr, arg_shape_data,
                                                in_shape_size, in_shape_ndim, in_shape_data,
                                                out_shape_size, out_shape_ndim, out_shape_data,
                                                aux_shape_size, aux_shape_ndim, aux_shape_data,
                                                complete, false);
}

int MXSymbolInferShapePartialEx(SymbolHandle sym, uint32_t num_args, const char** keys,
                                const uint32_t* arg_ind_ptr, const int* arg_shape_data,
                                uint32_t* in_shape_size, const int** in_shape_ndim,
                                const int*** in_shape_data, uint32_t* out_shape_size,
                                const int** out_shape_ndim, const int*** out_shape_data,
                                uint32_t* aux_shape_size, const int** aux_shape_ndim,
                                const int*** aux_shape_data, int* complete) {
  API_FUNCTION_SCOPE();
  return InferShapeAPI<uint32_t, int, uint32_t>(sym, num_args, keys, arg_ind_ptr, arg_shape_data,
                                                in_shape_size, in_shape_ndim, in_shape_data,
                                                out_shape_size, out_shape_ndim, out_shape_data,
                                                aux_shape_size, aux_shape_ndim, aux_shape_data,
                                                complete, true);
}

int MXSymbolInferShapeEx64(SymbolHandle sym, uint32_t num_args, const char** keys,
                           const int64_t* arg_ind_ptr, const int64_t* arg_shape_data,
                           size_t* in_shape_size, const int** in_shape_ndim,
                           const int64_t*** in_shape_data, size_t* out_shape_size,
                           const int** out_shape_ndim, const int64_t*** out_shape_data,
                           size_t* aux_shape_size, const int** aux_shape_ndim,
                           const int64_t*** aux_shape_data, int* complete) {
  API_FUNCTION_SCOPE();
  return InferShapeAPI<int64_t, int64_t, size_t>(sym, num_args, keys, arg_ind_ptr, arg_shape_data,
                                                 in_shape_size, in_shape_ndim, in_shape_data,
                                                 out_shape_size, out_shape_ndim, out_shape_data,
                                                 aux_shape_size, aux_shape_ndim, aux_shape_data,
                                                 complete, false);
}

int MXSymbolInferShapePartialEx64(SymbolHandle sym, uint32_t num_args, const char** keys,
                                  const int64_t* arg_ind_ptr, const int64_t* arg_shape_data,
                                  size_t* in_shape_size, const int** in_shape_ndim,
                                  const int64_t*** in_shape_data, size_t* out_shape_size,
                                  const int** out_shape_ndim, const int64_t*** out_shape_data,
                                  size_t* aux_shape_size, const int** aux_shape_ndim,
                                  const int64_t*** aux_shape_data, int* complete) {
  API_FUNCTION_SCOPE();
  return InferShapeAPI<int64_t, int64_t, size_t>(sym, num_args, keys, arg_ind_ptr, arg_shape_data,
                                                 in_shape_size, in_shape_ndim, in_shape_data,
                                                 out_shape_size, out_shape_ndim, out_shape_data,
                                                 aux_shape_size, aux_shape_ndim, aux_shape_data,
                                                 complete, true);
}

namespace {

int InferTypeAPI(SymbolHandle sym, uint32_t num_args, const char** keys, const int* arg_type_data,
                 uint32_t* in_type_size, const int** in_type_data, uint32_t* out_type_size,
                 const int** out_type_data, uint32_t* aux_type_size, const int** aux_type_data,
                 int* complete, bool partial) {
  API_BEGIN_HELPER();
  Symbol* s = SymbolFromHandle(sym);
  nnvm::Graph g;
  g.outputs = s->outputs;
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  std::vector<nnvm::ObjectPtr> args = s->ListInputs(Symbol::kReadOnlyArgs);
  std::vector<nnvm::ObjectPtr> aux = s->ListInputs(Symbol::kAuxiliaryStates);
  std::vector<int> types(idx.num_node_entries(), -1);
  auto eid_of = [&](const nnvm::ObjectPtr& n) { return idx.entry_id(idx.node_id(n.get()), 0); };
  for (uint32_t i = 0; i < num_args; ++i) {
    if (keys == nullptr) {
      if (i >= args.size()) {
        MX_THROW(dmlc::ValueError) << "infer_type: " << num_args << " positional types for "
                                   << args.size() << " arguments";
      }
      types[eid_of(args[i])] = arg_type_data[i];
    } else {
      bool found = false;
      for (const auto* list : {&args, &aux}) {
        for (const nnvm::ObjectPtr& n : *list) {
          if (n->attrs.name == keys[i]) {
            types[eid_of(n)] = arg_type_data[i];
            found = true;
          }
        }
      }
      if (!found) {
        MX_THROW(dmlc::ValueError) << "infer_type: " << keys[i] << " is not an argument of the symbol";
      }
    }
  }
  mxnet::exec::ApplyVariableAttrs(idx, nullptr, &types);
  nnvm::pass::InferType(idx, &types);
  InferReturn* r = GetInferReturn();
  bool done = true;
  for (int k = 0; k < 3; ++k) r->types[k].clear();
  for (const auto& n : args) r->types[0].push_back(types[eid_of(n)]);
  for (const auto& e : idx.outputs()) r->types[1].push_back(types[idx.entry_id(e)]);
  for (const auto& n : aux) r->types[2].push_back(types[eid_of(n)]);
  for (int k = 0; k < 3; ++k) {
    for (int t : r->types[k]) done &= t >= 0;
  }
  *in_type_size = static_cast<uint32_t>(r->types[0].size());
  *in_type_data = r->types[0].data();
  *out_type_size = static_cast<uint32_t>(r->types[1].size());
  *out_type_data = r->types[1].data();
  *aux_type_size = static_cast<uint32_t>(r->types[2].size());
  *aux_type_data = r->types[2].data();
  *complete = (done || partial) ? 1 : 0;
  API_END();
}

}  // namespace

int MXSymbolInferType(SymbolHandle sym, uint32_t num_args, const char** keys,
                      const int* arg_type_data, uint32_t* in_type_size, const int** in_type_data,
                      uint32_t* out_type_size, const int** out_type_data, uint32_t* aux_type_size,
                      const int** aux_type_data, int* complete) {
  API_FUNCTION_SCOPE();
  return InferTypeAPI(sym, num_args, keys, arg_type_data, in_type_size, in_type_data,
                      out_type_size, out_type_data, aux_type_size, aux_type_data, complete, false);
}

int MXSymbolInferTypePartial(SymbolHandle sym, uint32_t num_args, const char** keys,
                             const int* arg_type_data, uint32_t* in_type_size,
                             const int** in_type_data, uint32_t* out_type_size,
                             const int** out_type_data, uint32_t* aux_type_size,
                             const int** aux_type_data, int* complete) {
  API_FUNCTION_SCOPE();
  return InferTypeAPI(sym, num_args, keys, arg_type_data, in_type_size, in_type_data,
                      out_type_size, out_type_data, aux_type_size, aux_type_data, complete, true);
}
