/*!
 * \file lib_api.cc
 * \brief Compiled into every extension library (not into libmxnet): the C side of the library
 *        interface. Converts the C arguments MXNet passes into the authoring types of
 *        mxnet/lib_api.h, calls the author's functions, and turns MX_FAIL or an escaping C++
 *        exception into a status code plus a message (no exception crosses the interface).
 */
#include "mxnet/lib_api.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace mxnet {
namespace ext {
namespace {

using Attrs = std::unordered_map<std::string, std::string>;

Attrs ToMap(const MXExtAttrs* attrs) {
  Attrs out;
  if (attrs == nullptr) return out;
  for (int32_t i = 0; i < attrs->num; ++i) out[attrs->keys[i]] = attrs->vals[i];
  return out;
}

int32_t Status(MXReturnValue ret) { return ret == MX_SUCCESS ? MX_EXT_OK : MX_EXT_FAILED; }

/*! \brief Run `body` (returning a status), turning exceptions into MX_EXT_EXCEPTION + message. */
template <typename F>
int32_t Guard(const char* what, F body) {
  try {
    return body();
  } catch (const std::exception& e) {
    MX_ERROR_MSG << "exception in " << what << ": " << e.what();
  } catch (...) {
    MX_ERROR_MSG << "unknown exception in " << what;
  }
  return MX_EXT_EXCEPTION;
}

MXContext DevContext(int32_t dev_type, int32_t dev_id) {
  return MXContext(dev_type == MX_EXT_GPU ? "gpu" : "cpu", dev_id);
}

std::vector<MXTensor> ToTensors(const MXExtTensor* arrays, int32_t n,
                                std::vector<MXSparse>* sparse) {
  std::vector<MXTensor> out(n);
  sparse->resize(n);
  for (int32_t i = 0; i < n; ++i) {
    const MXExtTensor& a = arrays[i];
    void* data = a.data;
    if (a.stype != kDefaultStorage) {
      MXSparse& s = (*sparse)[i];
      s.data = a.data;
      s.data_len = a.data_len;
      s.indices = a.indices;
      s.indices_len = a.indices_len;
      s.indptr = a.indptr;
      s.indptr_len = a.indptr_len;
      data = &s;
    }
    out[i].setTensor(data, static_cast<MXDType>(a.dtype), a.shape, a.ndim, a.version,
                     DevContext(a.dev_type, a.dev_id), static_cast<MXStorageType>(a.stype));
  }
  return out;
}

/*! \brief 64-bit dims to the unsigned ints of the 1.9 inferShape signature. */
bool ToUnsignedShapes(int32_t n, const int32_t* ndims, const int64_t* const* dims,
                      std::vector<std::vector<unsigned int>>* out) {
  out->assign(n, {});
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t j = 0; j < ndims[i]; ++j) {
      const int64_t d = dims[i][j];
      if (d < 0 || d > static_cast<int64_t>(std::numeric_limits<unsigned int>::max())) {
        MX_ERROR_MSG << "input " << i << " dimension " << j << " = " << d
                     << " does not fit the unsigned int shapes of the inferShape signature";
        return false;
      }
      (*out)[i].push_back(static_cast<unsigned int>(d));
    }
  }
  return true;
}

CustomOp* AsOp(void* op) { return static_cast<CustomOp*>(op); }

int32_t Initialize(int32_t version) {
  return Guard("initialize", [&] { return Status(::initialize(version)); });
}

int32_t MessageCount() { return MXerrorMsgs::get()->size(); }
const char* MessageGet(int32_t idx) { return MXerrorMsgs::get()->get(idx); }
void MessageClear() { MXerrorMsgs::get()->clear(); }

int32_t OpCount() { return Registry<CustomOp>::get()->size(); }

int32_t OpInfo(int32_t idx, MXExtOpInfo* out) {
  if (idx < 0 || idx >= OpCount() || out == nullptr) return MX_EXT_BAD_CALL;
  CustomOp& op = Registry<CustomOp>::get()->get(idx);
  out->name = op.name;
  out->op = &op;
  out->is_subgraph_op = op.isSGop;
  out->has_parse_attrs = op.parse_attrs != nullptr;
  out->has_infer_type = op.infer_type != nullptr;
  out->has_infer_stype = op.infer_storage_type != nullptr;
  out->has_infer_shape = op.infer_shape != nullptr;
  out->has_mutate_inputs = op.mutate_inputs != nullptr;
  out->forward_devs = op.devMask(0);
  out->backward_devs = op.devMask(1);
  out->create_state_devs = op.devMask(2);
  out->registration_error = op.registration_error.empty() ? nullptr : op.registration_error.c_str();
  return MX_EXT_OK;
}

int32_t ParseAttrs(void* op, const MXExtAttrs* attrs, int32_t* num_in, int32_t* num_out) {
  if (AsOp(op)->parse_attrs == nullptr) return MX_EXT_BAD_CALL;
  return Guard("parseAttrs", [&] {
    int in = 0, out = 0;
    int32_t st = Status(AsOp(op)->parse_attrs(ToMap(attrs), &in, &out));
    *num_in = in;
    *num_out = out;
    return st;
  });
}

int32_t InferShape(void* op, const MXExtAttrs* attrs, int32_t num_in, const int32_t* in_ndims,
                   const int64_t* const* in_dims, int32_t num_out, MXExtShapeSink sink,
                   void* sink_ctx) {
  if (AsOp(op)->infer_shape == nullptr) return MX_EXT_BAD_CALL;
  return Guard("inferShape", [&] {
    std::vector<std::vector<unsigned int>> in, out(num_out);
    if (!ToUnsignedShapes(num_in, in_ndims, in_dims, &in)) return int32_t(MX_EXT_FAILED);
    if (AsOp(op)->infer_shape(ToMap(attrs), &in, &out) != MX_SUCCESS) {
      return int32_t(MX_EXT_FAILED);
    }
    if (static_cast<int32_t>(in.size()) != num_in || static_cast<int32_t>(out.size()) != num_out) {
      MX_ERROR_MSG << "inferShape changed the number of shapes (" << in.size() << " inputs, "
                   << out.size() << " outputs; expected " << num_in << " and " << num_out << ")";
      return int32_t(MX_EXT_FAILED);
    }
    std::vector<int64_t> dims;
    for (int32_t which = 0; which < 2; ++which) {
      const auto& shapes = which == 0 ? in : out;
      for (size_t i = 0; i < shapes.size(); ++i) {
        dims.assign(shapes[i].begin(), shapes[i].end());
        sink(sink_ctx, which, static_cast<int32_t>(i), static_cast<int32_t>(dims.size()),
             dims.data());
      }
    }
    return int32_t(MX_EXT_OK);
  });
}

int32_t InferTypeLike(const char* what, inferType_t fn, const MXExtAttrs* attrs, int32_t num_in,
                      int32_t* in_types, int32_t num_out, int32_t* out_types) {
  if (fn == nullptr) return MX_EXT_BAD_CALL;
  return Guard(what, [&] {
    std::vector<int> in(in_types, in_types + num_in), out(out_types, out_types + num_out);
    if (fn(ToMap(attrs), &in, &out) != MX_SUCCESS) return int32_t(MX_EXT_FAILED);
    if (static_cast<int32_t>(in.size()) != num_in || static_cast<int32_t>(out.size()) != num_out) {
      MX_ERROR_MSG << what << " changed the number of entries";
      return int32_t(MX_EXT_FAILED);
    }
    for (int32_t i = 0; i < num_in; ++i) in_types[i] = in[i];
    for (int32_t i = 0; i < num_out; ++i) out_types[i] = out[i];
    return int32_t(MX_EXT_OK);
  });
}

int32_t InferType(void* op, const MXExtAttrs* attrs, int32_t num_in, int32_t* in_types,
                  int32_t num_out, int32_t* out_types) {
  return InferTypeLike("inferType", AsOp(op)->infer_type, attrs, num_in, in_types, num_out,
                       out_types);
}

int32_t InferSType(void* op, const MXExtAttrs* attrs, int32_t num_in, int32_t* in_stypes,
                   int32_t num_out, int32_t* out_stypes) {
  return InferTypeLike("inferSType", AsOp(op)->infer_storage_type, attrs, num_in, in_stypes,
                       num_out, out_stypes);
}

int32_t MutateInputs(void* op, const MXExtAttrs* attrs, MXExtIndexSink sink, void* sink_ctx) {
  if (AsOp(op)->mutate_inputs == nullptr) return MX_EXT_BAD_CALL;
  return Guard("mutateInputs", [&] {
    std::vector<int> idx;
    if (AsOp(op)->mutate_inputs(ToMap(attrs), &idx) != MX_SUCCESS) return int32_t(MX_EXT_FAILED);
    for (int i : idx) sink(sink_ctx, i);
    return int32_t(MX_EXT_OK);
  });
}

int32_t Compute(void* op, int32_t is_forward, int32_t dev_type, const MXExtAttrs* attrs,
                const MXExtTensor* inputs, int32_t num_in, const MXExtTensor* outputs,
                int32_t num_out, const MXExtResource* res) {
  fcomp_t fn = is_forward ? AsOp(op)->forward(dev_type) : AsOp(op)->backward(dev_type);
  if (fn == nullptr) return MX_EXT_BAD_CALL;
  return Guard(is_forward ? "forward" : "backward", [&] {
    std::vector<MXSparse> in_sparse, out_sparse;
    std::vector<MXTensor> in = ToTensors(inputs, num_in, &in_sparse);
    std::vector<MXTensor> out = ToTensors(outputs, num_out, &out_sparse);
    return Status(fn(ToMap(attrs), &in, &out, OpResource(res)));
  });
}

int32_t CreateState(void* op, int32_t dev_type, int32_t dev_id, const MXExtAttrs* attrs,
                    int32_t num_in, const int32_t* in_ndims, const int64_t* const* in_dims,
                    const int32_t* in_types, void** state) {
  createOpState_t fn = AsOp(op)->createOpState(dev_type);
  if (fn == nullptr) return MX_EXT_BAD_CALL;
  return Guard("createOpState", [&] {
    std::vector<std::vector<unsigned int>> shapes;
    if (!ToUnsignedShapes(num_in, in_ndims, in_dims, &shapes)) return int32_t(MX_EXT_FAILED);
    std::vector<int> types(in_types, in_types + num_in);
    CustomStatefulOp* inst = nullptr;
    if (fn(ToMap(attrs), DevContext(dev_type, dev_id), shapes, types, &inst) != MX_SUCCESS) {
      delete inst;
      return int32_t(MX_EXT_FAILED);
    }
    if (inst == nullptr) {
      MX_ERROR_MSG << "createOpState returned MX_SUCCESS but set no operator instance";
      return int32_t(MX_EXT_FAILED);
    }
    if (!inst->wasCreated() && !inst->ignore_warn) {
      // Reported by MXNet as a warning: the instance is still used.
      MX_ERROR_MSG << "warning: operator " << AsOp(op)->name
                   << " created its state without CustomStatefulOp::create; MXNet deletes it "
                      "with delete (set ignore_warn to silence this)";
    }
    *state = inst;
    return int32_t(MX_EXT_OK);
  });
}

int32_t StateCompute(void* state, int32_t is_forward, const MXExtTensor* inputs, int32_t num_in,
                     const MXExtTensor* outputs, int32_t num_out, const MXExtResource* res) {
  if (state == nullptr) return MX_EXT_BAD_CALL;
  auto* inst = static_cast<CustomStatefulOp*>(state);
  return Guard(is_forward ? "Forward" : "Backward", [&] {
    std::vector<MXSparse> in_sparse, out_sparse;
    std::vector<MXTensor> in = ToTensors(inputs, num_in, &in_sparse);
    std::vector<MXTensor> out = ToTensors(outputs, num_out, &out_sparse);
    OpResource r(res);
    return Status(is_forward ? inst->Forward(&in, &out, r) : inst->Backward(&in, &out, r));
  });
}

void StateDestroy(void* state) {
  try {
    delete static_cast<CustomStatefulOp*>(state);
  } catch (...) {
    // A throwing destructor must not cross into MXNet.
  }
}

}  // namespace
}  // namespace ext
}  // namespace mxnet

extern "C" const MXExtLibrary* MXExtGetLibrary(void) {
  using namespace mxnet::ext;  // NOLINT(build/namespaces)
  static const MXExtLibrary table = {
      MX_EXT_ABI_VERSION, static_cast<int32_t>(sizeof(MXExtLibrary)),
      Initialize,         MessageCount,
      MessageGet,         MessageClear,
      OpCount,            OpInfo,
      ParseAttrs,         InferShape,
      InferType,          InferSType,
      MutateInputs,       Compute,
      CreateState,        StateCompute,
      StateDestroy,
  };
  return &table;
}
