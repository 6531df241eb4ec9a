/*!
 * \file c_predict_api.cc
 * \brief The predict API (include/mxnet/c_predict_api.h): a Predictor is a bound inference
 *        executor plus the parameters it was built from, so that MXPredReshape and
 *        MXPredCreateMultiThread can bind again over the same parameter arrays (inference never
 *        writes them, so sharing them is safe).
 */
#include <mxnet/c_predict_api.h>
#include <mxnet/executor.h>
#include <mxnet/ndarray.h>
#include <nnvm/graph.h>
#include <nnvm/graph_passes.h>
#include <nnvm/symbolic.h>

#include <memory>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "./c_api_common.h"

namespace {

using mxnet::Context;
using mxnet::Executor;
using mxnet::NDArray;
using mxnet::TShape;

/*! \brief Parameters read from a .params file, shared by the predictors made from it. */
struct ParamSet {
  std::unordered_map<std::string, NDArray> args, aux;
};

struct Predictor {
  nnvm::Symbol symbol;
  Context ctx;
  std::shared_ptr<const ParamSet> params;
  std::unordered_map<std::string, int> arg_dtypes;  // dtypes the caller gave (MXPredCreateEx)
  std::vector<std::string> input_keys;
  std::unordered_map<std::string, NDArray> inputs;  // input key -> bound argument
  std::unique_ptr<Executor> exec;
  std::vector<mx_uint> shape_buffer;  // MXPredGetOutputShape's result
};

struct NDList {
  std::vector<std::string> keys;
  std::vector<std::vector<mx_float>> data;
  std::vector<std::vector<mx_uint>> shapes;
};

Predictor* PredFromHandle(PredictorHandle h) {
  if (h == nullptr) mxnet::c_api::ThrowNullHandle("predictor handle");
  return static_cast<Predictor*>(h);
}

std::shared_ptr<const ParamSet> LoadParams(const void* bytes, int size) {
  auto params = std::make_shared<ParamSet>();
  if (size == 0) return params;
  if (bytes == nullptr || size < 0) {
    MX_THROW(dmlc::ValueError) << "MXPredCreate: invalid parameter buffer (" << size << " bytes)";
  }
  std::istringstream in(std::string(static_cast<const char*>(bytes), size));
  std::vector<NDArray> arrays;
  std::vector<std::string> names;
  NDArray::Load(&in, &arrays, &names);
  for (size_t i = 0; i < names.size() && i < arrays.size(); ++i) {
    const std::string& key = names[i];
    if (key.compare(0, 4, "arg:") == 0) params->args[key.substr(4)] = arrays[i];
    if (key.compare(0, 4, "aux:") == 0) params->aux[key.substr(4)] = arrays[i];
  }
  return params;
}

/*! \brief (key, shape) of each input from the CSR-style arrays of the C API. */
std::vector<std::pair<std::string, TShape>> InputShapes(mx_uint n, const char** keys,
                                                        const mx_uint* indptr,
                                                        const mx_uint* data) {
  std::vector<std::pair<std::string, TShape>> out;
  for (mx_uint i = 0; i < n; ++i) {
    if (keys == nullptr || keys[i] == nullptr) {
      MX_THROW(dmlc::ValueError) << "MXPredCreate: input key " << i << " is NULL";
    }
    if (indptr[i + 1] < indptr[i]) {
      MX_THROW(dmlc::ValueError) << "MXPredCreate: input_shape_indptr is not increasing at input "
                                 << keys[i];
    }
    TShape s(indptr[i + 1] - indptr[i], 0);
    for (mx_uint k = indptr[i]; k < indptr[i + 1]; ++k) s[k - indptr[i]] = data[k];
    out.emplace_back(keys[i], s);
  }
  return out;
}

/*! \brief The outputs named by output_keys (an output name, or "<node>" for "<node>_output"). */
nnvm::Symbol SelectOutputs(const nnvm::Symbol& sym, mx_uint n, const char** output_keys) {
  if (n == 0) return sym;
  const nnvm::Symbol internals = sym.GetInternals();
  const std::vector<std::string> names = internals.ListOutputNames();
  std::vector<nnvm::Symbol> picked;
  for (mx_uint i = 0; i < n; ++i) {
    const std::string key = output_keys[i];
    size_t found = names.size();
    for (size_t j = 0; j < names.size() && found == names.size(); ++j) {
      if (names[j] == key || names[j] == key + "_output") found = j;
    }
    if (found == names.size()) {
      MX_THROW(dmlc::ValueError) << "MXPredCreatePartialOut: the symbol has no output named \""
                                 << key << "\" (nor \"" << key << "_output\")";
    }
    picked.push_back(internals[found]);
  }
  return nnvm::Symbol::CreateGroup(picked);
}

NDArray Zeros(const TShape& shape, const Context& ctx, int dtype) {
  NDArray a(shape, ctx, false, dtype);
  std::vector<char> zeros(shape.Size() * mshadow::mshadow_sizeof(dtype), 0);
  a.SyncCopyFromCPU(zeros.data(), shape.Size());
  return a;
}

/*! \brief `arr` itself on its context, else a copy on `ctx`. */
NDArray OnContext(const NDArray& arr, const Context& ctx) {
  if (arr.ctx() == ctx) return arr;
  NDArray copy(arr.shape(), ctx, false, arr.dtype());
  mxnet::CopyFromTo(arr, copy);
  return copy;
}

/*! \brief Infers every argument's shape and dtype, then binds pred->exec for inference. */
void Bind(Predictor* pred, const std::vector<std::pair<std::string, TShape>>& input_shapes) {
  const nnvm::Symbol& sym = pred->symbol;
  const std::vector<std::string> arg_names = sym.ListInputNames(nnvm::Symbol::kReadOnlyArgs);
  const std::vector<std::string> aux_names = sym.ListInputNames(nnvm::Symbol::kAuxiliaryStates);
  std::unordered_map<std::string, TShape> given;
  for (const auto& kv : input_shapes) {
    if (std::find(arg_names.begin(), arg_names.end(), kv.first) == arg_names.end()) {
      MX_THROW(dmlc::ValueError) << "MXPredCreate: input \"" << kv.first << "\" is not an "
                                 << "argument of the symbol";
    }
    given[kv.first] = kv.second;
  }
  nnvm::Graph g;
  g.outputs = sym.outputs;
  const nnvm::IndexedGraph& idx = g.indexed_graph();
  mxnet::ShapeVector shapes(idx.num_node_entries());
  std::vector<int> dtypes(idx.num_node_entries(), -1);
  std::vector<nnvm::ObjectPtr> arg_nodes = sym.ListInputs(nnvm::Symbol::kReadOnlyArgs);
  std::vector<nnvm::ObjectPtr> aux_nodes = sym.ListInputs(nnvm::Symbol::kAuxiliaryStates);
  auto eid_of = [&](const nnvm::ObjectPtr& n) { return idx.entry_id(idx.node_id(n.get()), 0); };
  for (size_t i = 0; i < arg_nodes.size(); ++i) {
    const std::string& name = arg_names[i];
    const uint32_t eid = eid_of(arg_nodes[i]);
    auto param = pred->params->args.find(name);
    if (given.count(name)) {
      shapes[eid] = given[name];
    } else if (param != pred->params->args.end()) {
      shapes[eid] = param->second.shape();
      dtypes[eid] = param->second.dtype();
    }
    auto dt = pred->arg_dtypes.find(name);
    if (dt != pred->arg_dtypes.end()) dtypes[eid] = dt->second;
    if (given.count(name) && dtypes[eid] == -1) dtypes[eid] = mshadow::kFloat32;
  }
  for (size_t i = 0; i < aux_nodes.size(); ++i) {
    auto param = pred->params->aux.find(aux_names[i]);
    if (param != pred->params->aux.end()) {
      shapes[eid_of(aux_nodes[i])] = param->second.shape();
      dtypes[eid_of(aux_nodes[i])] = param->second.dtype();
    }
  }
  nnvm::pass::InferShape(idx, &shapes);
  nnvm::pass::InferType(idx, &dtypes);
  auto known = [&](const std::string& name, const nnvm::ObjectPtr& node, const char* what) {
    const uint32_t eid = eid_of(node);
    if (!mxnet::shape_is_known(shapes[eid])) {
      MX_THROW(dmlc::ValueError) << "MXPredCreate: cannot infer the shape of " << what << " \""
                                 << name << "\" (got " << shapes[eid] << "); give it as an "
                                 << "input or in the parameters";
    }
    return std::make_pair(shapes[eid], dtypes[eid] == -1 ? mshadow::kFloat32 : dtypes[eid]);
  };
  std::vector<NDArray> args, grads(arg_nodes.size()), aux;
  std::vector<mxnet::OpReqType> reqs(arg_nodes.size(), mxnet::kNullOp);
  pred->inputs.clear();
  for (size_t i = 0; i < arg_nodes.size(); ++i) {
    const std::string& name = arg_names[i];
    const auto sd = known(name, arg_nodes[i], "argument");
    auto param = pred->params->args.find(name);
    if (given.count(name)) {
      args.push_back(Zeros(sd.first, pred->ctx, sd.second));
      pred->inputs[name] = args.back();
    } else if (param != pred->params->args.end()) {
      args.push_back(OnContext(param->second, pred->ctx));
    } else {
      // Not an input and not a parameter (a loss layer's label): unused by inference.
      args.push_back(Zeros(sd.first, pred->ctx, sd.second));
    }
  }
  for (size_t i = 0; i < aux_nodes.size(); ++i) {
    auto param = pred->params->aux.find(aux_names[i]);
    if (param == pred->params->aux.end()) {
      MX_THROW(dmlc::ValueError) << "MXPredCreate: auxiliary state \"" << aux_names[i]
                                 << "\" is not in the parameters (expected an \"aux:"
                                 << aux_names[i] << "\" entry)";
    }
    known(aux_names[i], aux_nodes[i], "auxiliary state");
    aux.push_back(OnContext(param->second, pred->ctx));
  }
  pred->exec.reset(Executor::Bind(sym, pred->ctx, {}, args, grads, reqs, aux));
}

Predictor* CreatePredictor(const char* symbol_json, std::shared_ptr<const ParamSet> params,
                           int dev_type, int dev_id,
                           const std::vector<std::pair<std::string, TShape>>& inputs,
                           mx_uint num_output_nodes, const char** output_keys,
                           std::unordered_map<std::string, int> arg_dtypes) {
  if (symbol_json == nullptr) throw dmlc::ValueError("MXPredCreate: symbol JSON is NULL");
  if (dev_type != Context::kCPU && dev_type != Context::kCPUPinned) {
    MX_THROW(dmlc::ValueError) << "MXPredCreate: dev_type " << dev_type << " is not available "
                               << "(this build runs on cpu, dev_type 1)";
  }
  std::unique_ptr<Predictor> pred(new Predictor());
  pred->symbol = SelectOutputs(nnvm::LoadJSON(symbol_json), num_output_nodes, output_keys);
  pred->ctx = Context::Create(static_cast<Context::DeviceType>(dev_type), dev_id);
  pred->params = std::move(params);
  pred->arg_dtypes = std::move(arg_dtypes);
  for (const auto& kv : inputs) pred->input_keys.push_back(kv.first);
  Bind(pred.get(), inputs);
  return pred.release();
}

}  // namespace

int MXPredCreateEx(const char* symbol_json_str, const void* param_bytes, int param_size,
                   int dev_type, int dev_id, const mx_uint num_input_nodes,
                   const char** input_keys, const mx_uint* input_shape_indptr,
                   const mx_uint* input_shape_data, const mx_uint num_provided_arg_dtypes,
                   const char** provided_arg_dtype_names, const int* provided_arg_dtypes,
                   PredictorHandle* out) {
  API_BEGIN();
  API_NO_NULL_IN(provided_arg_dtype_names, num_provided_arg_dtypes);
  if (num_provided_arg_dtypes > 0) API_NOT_NULL(provided_arg_dtypes);
  API_NOT_NULL(out);
  std::unordered_map<std::string, int> dtypes;
  for (mx_uint i = 0; i < num_provided_arg_dtypes; ++i)
    dtypes[provided_arg_dtype_names[i]] = provided_arg_dtypes[i];
  *out = CreatePredictor(symbol_json_str, LoadParams(param_bytes, param_size), dev_type, dev_id,
                         InputShapes(num_input_nodes, input_keys, input_shape_indptr,
                                     input_shape_data),
                         0, nullptr, std::move(dtypes));
  API_END();
}

int MXPredCreate(const char* symbol_json_str, const void* param_bytes, int param_size,
                 int dev_type, int dev_id, mx_uint num_input_nodes, const char** input_keys,
                 const mx_uint* input_shape_indptr, const mx_uint* input_shape_data,
                 PredictorHandle* out) {
  return MXPredCreateEx(symbol_json_str, param_bytes, param_size, dev_type, dev_id,
                        num_input_nodes, input_keys, input_shape_indptr, input_shape_data, 0,
                        nullptr, nullptr, out);
}

int MXPredCreatePartialOut(const char* symbol_json_str, const void* param_bytes, int param_size,
                           int dev_type, int dev_id, mx_uint num_input_nodes,
                           const char** input_keys, const mx_uint* input_shape_indptr,
                           const mx_uint* input_shape_data, mx_uint num_output_nodes,
                           const char** output_keys, PredictorHandle* out) {
  API_BEGIN();
  *out = CreatePredictor(symbol_json_str, LoadParams(param_bytes, param_size), dev_type, dev_id,
                         InputShapes(num_input_nodes, input_keys, input_shape_indptr,
                                     input_shape_data),
                         num_output_nodes, output_keys, {});
  API_END();
}

int MXPredCreateMultiThread(const char* symbol_json_str, const void* param_bytes,
                            int param_size, int dev_type, int dev_id, mx_uint num_input_nodes,
                            const char** input_keys, const mx_uint* input_shape_indptr,
                            const mx_uint* input_shape_data, int num_threads,
                            PredictorHandle* out) {
  std::vector<Predictor*> made;
  API_BEGIN();
  if (num_threads < 1) {
    MX_THROW(dmlc::ValueError) << "MXPredCreateMultiThread: num_threads must be at least 1, got "
                               << num_threads;
  }
  std::shared_ptr<const ParamSet> params = LoadParams(param_bytes, param_size);
  const auto inputs = InputShapes(num_input_nodes, input_keys, input_shape_indptr,
                                  input_shape_data);
  for (int i = 0; i < num_threads; ++i) {
    made.push_back(CreatePredictor(symbol_json_str, params, dev_type, dev_id, inputs, 0, nullptr,
                                   {}));
  }
  for (int i = 0; i < num_threads; ++i) out[i] = made[i];
  API_END_HANDLE_ERROR(for (Predictor* p : made) delete p);
}

int MXPredReshape(mx_uint num_input_nodes, const char** input_keys,
                  const mx_uint* input_shape_indptr, const mx_uint* input_shape_data,
                  PredictorHandle handle, PredictorHandle* out) {
  API_BEGIN();
  const Predictor* old = PredFromHandle(handle);
  std::unique_ptr<Predictor> pred(new Predictor());
  pred->symbol = old->symbol;
  pred->ctx = old->ctx;
  pred->params = old->params;
  pred->arg_dtypes = old->arg_dtypes;
  auto inputs = InputShapes(num_input_nodes, input_keys, input_shape_indptr, input_shape_data);
  // Inputs not given keep their current shapes.
  for (const std::string& key : old->input_keys) {
    bool listed = false;
    for (const auto& kv : inputs) listed = listed || kv.first == key;
    if (!listed) inputs.emplace_back(key, old->inputs.at(key).shape());
  }
  for (const auto& kv : inputs) pred->input_keys.push_back(kv.first);
  Bind(pred.get(), inputs);
  *out = pred.release();
  API_END();
}

int MXPredGetOutputShape(PredictorHandle handle, mx_uint index, mx_uint** shape_data,
                         mx_uint* shape_ndim) {
  API_BEGIN();
  Predictor* pred = PredFromHandle(handle);
  const auto& outputs = pred->exec->outputs();
  if (index >= outputs.size()) {
    MX_THROW(dmlc::IndexError) << "MXPredGetOutputShape: output index " << index
                               << " out of range (the predictor has " << outputs.size()
                               << " outputs)";
  }
  const TShape& s = outputs[index].shape();
  pred->shape_buffer.assign(s.begin(), s.end());
  *shape_data = pred->shape_buffer.data();
  *shape_ndim = static_cast<mx_uint>(s.ndim());
  API_END();
}

int MXPredGetOutputType(PredictorHandle handle, mx_uint out_index, int* out_dtype) {
  API_BEGIN();
  const auto& outputs = PredFromHandle(handle)->exec->outputs();
  if (out_index >= outputs.size()) {
    MX_THROW(dmlc::IndexError) << "MXPredGetOutputType: output index " << out_index
                               << " out of range (the predictor has " << outputs.size()
                               << " outputs)";
  }
  *out_dtype = outputs[out_index].dtype();
  API_END();
}

int MXPredSetInput(PredictorHandle handle, const char* key, const mx_float* data, mx_uint size) {
  API_BEGIN();
  Predictor* pred = PredFromHandle(handle);
  auto it = pred->inputs.find(key == nullptr ? "" : key);
  if (it == pred->inputs.end()) {
    std::ostringstream known;
    for (const std::string& k : pred->input_keys) known << " \"" << k << "\"";
    MX_THROW(dmlc::ValueError) << "MXPredSetInput: \"" << (key ? key : "(null)")
                               << "\" is not an input of this predictor (inputs:" << known.str()
                               << ")";
  }
  const NDArray& arr = it->second;
  if (size != arr.shape().Size()) {
    MX_THROW(dmlc::ValueError) << "MXPredSetInput: input \"" << key << "\" of shape "
                               << arr.shape() << " holds " << arr.shape().Size()
                               << " values, got " << size;
  }
  MSHADOW_TYPE_SWITCH(arr.dtype(), DType, {
    std::vector<DType> converted(data, data + size);
    arr.SyncCopyFromCPU(converted.data(), size);
  });
  API_END();
}

int MXPredForward(PredictorHandle handle) {
  API_BEGIN();
  Predictor* pred = PredFromHandle(handle);
  pred->exec->Forward(false);
  for (const NDArray& out : pred->exec->outputs()) out.WaitToRead();
  API_END();
}

int MXPredPartialForward(PredictorHandle handle, int step, int* step_left) {
  API_BEGIN();
  API_NOT_NULL(handle);
  API_NOT_NULL(step_left);
  if (step < 0) {
    MX_THROW(dmlc::ValueError) << "MXPredPartialForward: step must be >= 0, got " << step;
  }
  if (step == 0) {
    Predictor* pred = PredFromHandle(handle);
    pred->exec->Forward(false);
    for (const NDArray& out : pred->exec->outputs()) out.WaitToRead();
  }
  *step_left = 0;
  API_END();
}

int MXPredGetOutput(PredictorHandle handle, mx_uint index, mx_float* data, mx_uint size) {
  API_BEGIN();
  const auto& outputs = PredFromHandle(handle)->exec->outputs();
  if (index >= outputs.size()) {
    MX_THROW(dmlc::IndexError) << "MXPredGetOutput: output index " << index
                               << " out of range (the predictor has " << outputs.size()
                               << " outputs)";
  }
  const NDArray& arr = outputs[index];
  if (size != arr.shape().Size()) {
    MX_THROW(dmlc::ValueError) << "MXPredGetOutput: output " << index << " of shape "
                               << arr.shape() << " holds " << arr.shape().Size()
                               << " values, the buffer holds " << size;
  }
  MSHADOW_TYPE_SWITCH(arr.dtype(), DType, {
    std::vector<DType> host(size);
    arr.SyncCopyToCPU(host.data(), size);
    for (mx_uint i = 0; i < size; ++i) data[i] = static_cast<mx_float>(host[i]);
  });
  API_END();
}

int MXPredFree(PredictorHandle handle) {
  API_BEGIN();
  delete static_cast<Predictor*>(handle);
  API_END();
}

int MXPredSetMonitorCallback(PredictorHandle handle, PredMonitorCallback callback,
                             void* callback_handle, bool monitor_all) {
  API_BEGIN();
  Executor* ex = PredFromHandle(handle)->exec.get();
  if (callback == nullptr) {
    ex->SetMonitorCallback(nullptr, false);
  } else {
    ex->SetMonitorCallback(
        [callback, callback_handle](const char* name, const NDArray& arr) {
          callback(name, new NDArray(arr), callback_handle);
        },
        monitor_all);
  }
  API_END();
}

int MXNDListCreate(const char* nd_file_bytes, int nd_file_size, NDListHandle* out,
                   mx_uint* out_length) {
  API_BEGIN();
  if (nd_file_bytes == nullptr || nd_file_size < 0) {
    MX_THROW(dmlc::ValueError) << "MXNDListCreate: invalid buffer (" << nd_file_size
                               << " bytes)";
  }
  std::istringstream in(std::string(nd_file_bytes, nd_file_size));
  std::vector<NDArray> arrays;
  std::vector<std::string> names;
  NDArray::Load(&in, &arrays, &names);
  std::unique_ptr<NDList> list(new NDList());
  for (size_t i = 0; i < arrays.size(); ++i) {
    const NDArray& arr = arrays[i];
    list->keys.push_back(i < names.size() ? names[i] : std::string());
    std::vector<mx_float> values(arr.shape().Size());
    MSHADOW_TYPE_SWITCH(arr.dtype(), DType, {
      std::vector<DType> host(values.size());
      arr.SyncCopyToCPU(host.data(), host.size());
      for (size_t k = 0; k < host.size(); ++k) values[k] = static_cast<mx_float>(host[k]);
    });
    list->data.push_back(std::move(values));
    list->shapes.emplace_back(arr.shape().begin(), arr.shape().end());
  }
  *out_length = static_cast<mx_uint>(arrays.size());
  *out = list.release();
  API_END();
}

int MXNDListGet(NDListHandle handle, mx_uint index, const char** out_key,
                const mx_float** out_data, const mx_uint** out_shape, mx_uint* out_ndim) {
  API_BEGIN();
  if (handle == nullptr) throw dmlc::ValueError("MXNDListGet: list handle is NULL");
  const NDList* list = static_cast<const NDList*>(handle);
  if (index >= list->data.size()) {
    MX_THROW(dmlc::IndexError) << "MXNDListGet: index " << index << " out of range (the list "
                               << "has " << list->data.size() << " arrays)";
  }
  *out_key = list->keys[index].c_str();
  *out_data = list->data[index].data();
  *out_shape = list->shapes[index].data();
  *out_ndim = static_cast<mx_uint>(list->shapes[index].size());
  API_END();
}

int MXNDListFree(NDListHandle handle) {
  API_BEGIN();
  delete static_cast<NDList*>(handle);
  API_END();
}
