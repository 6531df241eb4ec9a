// C API: NDArray creation, copies, views, queries, save/load. Each function is a thin shim.
#include <mxnet/c_api.h>
#include <mxnet/imperative.h>
#include <mxnet/ndarray.h>

#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>

#include "c_api_common.h"
#include "../common/file_replace.h"

using mxnet::Context;
using mxnet::NDArray;
using mxnet::TShape;

namespace {

inline NDArray* ND(NDArrayHandle h) {
  if (h == nullptr) mxnet::c_api::ThrowNullHandle("NDArray handle");
  return static_cast<NDArray*>(h);
}

template <typename DimT>
TShape ShapeFrom(const DimT* dims, int ndim) {
  if (ndim < 0) throw mxnet::ValueError("ndim must be non-negative, got " + std::to_string(ndim));
  if (ndim > 0 && dims == nullptr) throw mxnet::ValueError("the shape pointer is NULL");
  TShape shape(ndim, 0);
  for (int i = 0; i < ndim; ++i) {
    if (dims[i] < 0) {
      throw mxnet::ValueError("negative dimension " + std::to_string(dims[i]) + " in shape");
    }
    shape[i] = static_cast<int64_t>(dims[i]);
  }
  return shape;
}

Context MakeContext(int dev_type, int dev_id) {
  if (dev_type != Context::kCPU && dev_type != Context::kGPU && dev_type != Context::kCPUPinned &&
      dev_type != Context::kCPUShared) {
    throw mxnet::ValueError("unknown device type " + std::to_string(dev_type));
  }
  return Context::Create(static_cast<Context::DeviceType>(dev_type), dev_id);
}

NDArray* CreateArray(const TShape& shape, int dev_type, int dev_id, int delay_alloc, int dtype) {
  if (mshadow::mshadow_sizeof(dtype) == 0) {
    throw mxnet::TypeError("unknown dtype code " + std::to_string(dtype));
  }
  return new NDArray(shape, MakeContext(dev_type, dev_id), delay_alloc != 0, dtype);
}

void ReturnShape(const NDArray& arr, int* out_dim) {
  // A none array has ndim 0 in legacy shape mode, -1 in NumPy shape mode.
  *out_dim = arr.is_none() ? (mxnet::c_api::IsNumpyShape() ? -1 : 0) : arr.shape().ndim();
}

}  // namespace

int MXNDArrayCreateNone(NDArrayHandle* out) {
  API_BEGIN();
  API_NOT_NULL(out);
  *out = new NDArray();
  API_END();
}

int MXNDArrayCreate(const uint32_t* shape, uint32_t ndim, int dev_type, int dev_id,
                    int delay_alloc, NDArrayHandle* out) {
  API_BEGIN();
  API_NOT_NULL(out);
  *out = CreateArray(ShapeFrom(shape, static_cast<int>(ndim)), dev_type, dev_id, delay_alloc,
                     mshadow::kFloat32);
  API_END();
}

int MXNDArrayCreateEx(const uint32_t* shape, uint32_t ndim, int dev_type, int dev_id,
                      int delay_alloc, int dtype, NDArrayHandle* out) {
  API_BEGIN();
  API_NOT_NULL(out);
  *out = CreateArray(ShapeFrom(shape, static_cast<int>(ndim)), dev_type, dev_id, delay_alloc,
                     dtype);
  API_END();
}

int MXNDArrayCreateEx64(const int64_t* shape, int ndim, int dev_type, int dev_id, int delay_alloc,
                        int dtype, NDArrayHandle* out) {
  API_BEGIN();
  API_NOT_NULL(out);
  *out = CreateArray(ShapeFrom(shape, ndim), dev_type, dev_id, delay_alloc, dtype);
  API_END();
}

int MXNDArrayFree(NDArrayHandle handle) {
  API_BEGIN();
  delete static_cast<NDArray*>(handle);
  API_END();
}

int MXShallowCopyNDArray(NDArrayHandle src, NDArrayHandle* out) {
  API_BEGIN();
  API_NOT_NULL(out);
  *out = new NDArray(*ND(src));
  API_END();
}

int MXNDArraySyncCopyFromCPU(NDArrayHandle handle, const void* data, size_t size) {
  API_BEGIN();
  if (size != 0) API_NOT_NULL(data);
  ND(handle)->SyncCopyFromCPU(data, size);
  API_END();
}

int MXNDArraySyncCopyToCPU(NDArrayHandle handle, void* data, size_t size) {
  API_BEGIN();
  if (size != 0) API_NOT_NULL(data);
  ND(handle)->SyncCopyToCPU(data, size);
  API_END();
}

int MXNDArraySyncCopyFromNDArray(NDArrayHandle handle_dst, NDArrayHandle handle_src, int i) {
  API_BEGIN();
  ND(handle_dst)->SyncCopyFromNDArray(*ND(handle_src), i);
  API_END();
}

int MXNDArraySyncCheckFormat(NDArrayHandle handle, bool full_check) {
  API_BEGIN();
  ND(handle)->SyncCheckFormat(full_check);  // dense arrays are always well-formed
  API_END();
}

int MXNDArrayWaitToRead(NDArrayHandle handle) {
  API_BEGIN();
  ND(handle)->WaitToRead();
  API_END();
}

int MXNDArrayWaitToWrite(NDArrayHandle handle) {
  API_BEGIN();
  ND(handle)->WaitToWrite();
  API_END();
}

int MXNDArrayWaitAll() {
  API_BEGIN();
  mxnet::WaitAll();
  API_END();
}

int MXNDArrayWaitAllFor(int timeout_ms, int* finished) {
  API_BEGIN();
  API_NOT_NULL(finished);
  *finished = mxnet::WaitAllFor(timeout_ms) ? 1 : 0;
  API_END();
}

namespace {

/*!
 * \brief While autograd records, a view of a recorded array is recorded as the op computing
 *        the same values (slice_axis / Reshape), so gradients flow through views.
 */
void RecordView(const char* op_name, std::unordered_map<std::string, std::string> kwargs,
                NDArray* src, NDArray* view) {
  mxnet::Imperative* imp = mxnet::Imperative::Get();
  if (!imp->is_recording() || !mxnet::Imperative::IsRecorded(*src)) return;
  nnvm::NodeAttrs attrs;
  attrs.op = nnvm::Op::Get(op_name);
  attrs.dict = std::move(kwargs);
  if (attrs.op->attr_parser) attrs.op->attr_parser(&attrs);
  imp->RecordOp(attrs, {src}, {view});
}

std::string ShapeString(const TShape& shape) {
  std::ostringstream os;
  os << "(";
  for (int i = 0; i < shape.ndim(); ++i) os << (i ? "," : "") << shape[i];
  os << (shape.ndim() == 1 ? ",)" : ")");
  return os.str();
}

NDArray SliceWithRecord(NDArray* src, int64_t begin, int64_t end) {
  NDArray ret = src->Slice(begin, end);
  RecordView("slice_axis",
             {{"axis", "0"}, {"begin", std::to_string(begin)}, {"end", std::to_string(end)}},
             src, &ret);
  return ret;
}

NDArray ReshapeWithRecord(NDArray* src, const TShape& shape) {
  NDArray ret = src->Reshape(shape);
  RecordView("Reshape", {{"shape", ShapeString(shape)}}, src, &ret);
  return ret;
}

}  // namespace

int MXNDArraySlice(NDArrayHandle handle, uint32_t begin, uint32_t end, NDArrayHandle* out) {
  return MXNDArraySlice64(handle, begin, end, out);
}

int MXNDArraySlice64(NDArrayHandle handle, int64_t begin, int64_t end, NDArrayHandle* out) {
  API_BEGIN();
  *out = new NDArray(SliceWithRecord(ND(handle), begin, end));
  API_END();
}

int MXNDArrayAt(NDArrayHandle handle, uint32_t idx, NDArrayHandle* out) {
  return MXNDArrayAt64(handle, idx, out);
}

int MXNDArrayAt64(NDArrayHandle handle, int64_t idx, NDArrayHandle* out) {
  API_BEGIN();
  NDArray* src = ND(handle);
  NDArray ret = src->At(idx);  // validates idx
  if (mxnet::Imperative::Get()->is_recording() && mxnet::Imperative::IsRecorded(*src)) {
    NDArray row = SliceWithRecord(src, idx, idx + 1);
    ret = row.shape() == ret.shape() ? row : ReshapeWithRecord(&row, ret.shape());
  }
  *out = new NDArray(ret);
  API_END();
}

int MXNDArrayReshape(NDArrayHandle handle, int ndim, int* dims, NDArrayHandle* out) {
  API_BEGIN();
  if (ndim > 0) API_NOT_NULL(dims);
  std::vector<int64_t> d(dims, dims + ndim);
  return MXNDArrayReshape64(handle, ndim, d.data(), false, out);
  API_END();
}

int MXNDArrayReshape64(NDArrayHandle handle, int ndim, dim_t* dims, bool reverse,
                       NDArrayHandle* out) {
  API_BEGIN();
  NDArray* arr = ND(handle);
  TShape target = mxnet::InferReshapeShape(arr->shape(), TShape(dims, dims + ndim), reverse);
  *out = new NDArray(ReshapeWithRecord(arr, target));
  API_END();
}

int MXNDArrayGetStorageType(NDArrayHandle handle, int* out_storage_type) {
  API_BEGIN();
  API_NOT_NULL(out_storage_type);
  *out_storage_type = ND(handle)->storage_type();
  API_END();
}

int MXNDArrayGetShape(NDArrayHandle handle, uint32_t* out_dim, const uint32_t** out_pdata) {
  API_BEGIN();
  API_NOT_NULL(out_dim);
  API_NOT_NULL(out_pdata);
  const NDArray* arr = ND(handle);
  int ndim;
  ReturnShape(*arr, &ndim);
  auto* ret = mxnet::c_api::GetThreadLocalReturn();
  ret->ret_uint.assign(ndim, 0);
  for (int i = 0; i < ndim; ++i) ret->ret_uint[i] = static_cast<uint32_t>(arr->shape()[i]);
  *out_dim = ndim;
  *out_pdata = ret->ret_uint.data();
  API_END();
}

int MXNDArrayGetShapeEx(NDArrayHandle handle, int* out_dim, const int** out_pdata) {
  API_BEGIN();
  API_NOT_NULL(out_dim);
  API_NOT_NULL(out_pdata);
  const NDArray* arr = ND(handle);
  ReturnShape(*arr, out_dim);
  auto* ret = mxnet::c_api::GetThreadLocalReturn();
  ret->ret_shape32.assign(*out_dim, 0);
  for (int i = 0; i < *out_dim; ++i) ret->ret_shape32[i] = static_cast<int>(arr->shape()[i]);
  *out_pdata = ret->ret_shape32.data();
  API_END();
}

int MXNDArrayGetShapeEx64(NDArrayHandle handle, int* out_dim, const int64_t** out_pdata) {
  API_BEGIN();
  API_NOT_NULL(out_dim);
  API_NOT_NULL(out_pdata);
  const NDArray* arr = ND(handle);
  ReturnShape(*arr, out_dim);
  auto* ret = mxnet::c_api::GetThreadLocalReturn();
  ret->ret_shape64.assign(*out_dim, 0);
  for (int i = 0; i < *out_dim; ++i) ret->ret_shape64[i] = arr->shape()[i];
  *out_pdata = ret->ret_shape64.data();
  API_END();
}

int MXNDArrayGetData(NDArrayHandle handle, void** out_pdata) {
  API_BEGIN();
  API_NOT_NULL(out_pdata);
  NDArray* arr = ND(handle);
  *out_pdata = arr->is_none() ? nullptr : arr->data().dptr_;
  API_END();
}

int MXNDArrayGetDType(NDArrayHandle handle, int* out_dtype) {
  API_BEGIN();
  API_NOT_NULL(out_dtype);
  NDArray* arr = ND(handle);
  *out_dtype = arr->is_none() ? -1 : arr->dtype();
  API_END();
}

int MXNDArrayGetContext(NDArrayHandle handle, int* out_dev_type, int* out_dev_id) {
  API_BEGIN();
  API_NOT_NULL(out_dev_type);
  API_NOT_NULL(out_dev_id);
  NDArray* arr = ND(handle);
  if (arr->is_none()) {
    *out_dev_type = 0;
    *out_dev_id = 0;
  } else {
    *out_dev_type = arr->ctx().dev_type;
    *out_dev_id = arr->ctx().dev_id;
  }
  API_END();
}

int MXNDArraySave(const char* fname, uint32_t num_args, NDArrayHandle* args, const char** keys) {
  API_BEGIN();
  API_NOT_NULL(fname);
  API_NO_NULL_IN(args, num_args);
  if (keys != nullptr) API_NO_NULL_IN(keys, num_args);
  std::vector<NDArray> data;
  std::vector<std::string> names;
  for (uint32_t i = 0; i < num_args; ++i) {
    data.push_back(*ND(args[i]));
    if (keys != nullptr) names.emplace_back(keys[i]);
  }
  mxnet::common::WriteFileReplacing(fname, [&](std::ostream* out) {
    NDArray::Save(out, data, names);
  });
  API_END();
}

namespace {

int ReturnLoaded(std::istream* in, uint32_t* out_size, NDArrayHandle** out_arr,
                 uint32_t* out_name_size, const char*** out_names) {
  API_BEGIN_HELPER();
  API_NOT_NULL(out_size);
  API_NOT_NULL(out_arr);
  API_NOT_NULL(out_name_size);
  API_NOT_NULL(out_names);
  std::vector<NDArray> data;
  std::vector<std::string> names;
  NDArray::Load(in, &data, &names);
  auto* ret = mxnet::c_api::GetThreadLocalReturn();
  ret->ret_handles.clear();
  for (const NDArray& arr : data) ret->ret_handles.push_back(new NDArray(arr));
  ret->ret_vec_str = std::move(names);
  ret->ret_vec_charp.clear();
  for (const std::string& s : ret->ret_vec_str) ret->ret_vec_charp.push_back(s.c_str());
  *out_size = static_cast<uint32_t>(data.size());
  *out_arr = ret->ret_handles.data();
  *out_name_size = static_cast<uint32_t>(ret->ret_vec_str.size());
  *out_names = ret->ret_vec_charp.data();
  API_END();
}

}  // namespace

int MXNDArrayLoad(const char* fname, uint32_t* out_size, NDArrayHandle** out_arr,
                  uint32_t* out_name_size, const char*** out_names) {
  API_BEGIN();
  API_NOT_NULL(fname);
  std::ifstream in(fname, std::ios::binary);
  if (!in) throw mxnet::ValueError(std::string("cannot open '") + fname + "' for reading");
  API_FUNCTION_SCOPE();
  return ReturnLoaded(&in, out_size, out_arr, out_name_size, out_names);
  API_END();
}

int MXNDArrayLoadFromBuffer(const void* buf, size_t size, uint32_t* out_size,
                            NDArrayHandle** out_arr, uint32_t* out_name_size,
                            const char*** out_names) {
  API_BEGIN();
  if (size > 0) API_NOT_NULL(buf);
  API_NOT_NULL(out_size);
  API_NOT_NULL(out_arr);
  API_NOT_NULL(out_name_size);
  API_NOT_NULL(out_names);
  std::istringstream in(std::string(static_cast<const char*>(buf), size));
  API_FUNCTION_SCOPE();
  return ReturnLoaded(&in, out_size, out_arr, out_name_size, out_names);
  API_END();
}

int MXNDArraySaveRawBytes(NDArrayHandle handle, size_t* out_size, const char** out_buf) {
  API_BEGIN();
  std::ostringstream out;
  ND(handle)->Save(&out);
  auto* ret = mxnet::c_api::GetThreadLocalReturn();
  ret->ret_str = out.str();
  *out_size = ret->ret_str.size();
  *out_buf = ret->ret_str.data();
  API_END();
}

int MXNDArrayLoadFromRawBytes(const void* buf, size_t size, NDArrayHandle* out) {
  API_BEGIN();
  if (size > 0) API_NOT_NULL(buf);
  API_NOT_NULL(out);
  std::istringstream in(std::string(static_cast<const char*>(buf), size));
  NDArray arr;
  try {
    arr.Load(&in);
  } catch (const dmlc::Error& e) {
    throw dmlc::Error(std::string("Invalid NDArray serialization format: ") + e.what());
  }
  *out = new NDArray(arr);
  API_END();
}
