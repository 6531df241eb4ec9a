// C API: sparse NDArray creation and part access (thin shims over NDArray's sparse methods).
#include <mxnet/c_api.h>
#include <mxnet/ndarray.h>

#include <string>
#include <vector>

#include "c_api_common.h"

using mxnet::Context;
using mxnet::NDArray;
using mxnet::TShape;

namespace {

NDArray* SparseND(NDArrayHandle h) {
  if (h == nullptr) mxnet::c_api::ThrowNullHandle("NDArray handle");
  return static_cast<NDArray*>(h);
}

template <typename DimT, typename NDimT>
int CreateSparse(int storage_type, const DimT* shape, int ndim, int dev_type, int dev_id,
                 int dtype, uint32_t num_aux, const int* aux_type, const NDimT* aux_ndims,
                 const DimT* aux_shape, NDArrayHandle* out) {
  API_BEGIN_HELPER();
  if (ndim < 0) throw mxnet::ValueError("ndim must be non-negative, got " + std::to_string(ndim));
  if (num_aux > 0 && (aux_type == nullptr || aux_ndims == nullptr)) {
    throw mxnet::ValueError("MXNDArrayCreateSparseEx: aux_type/aux_ndims are NULL");
  }
  for (int i = 0; i < ndim; ++i) {
    if (shape[i] < 0) throw mxnet::ValueError("negative dimension in shape");
  }
  TShape s(shape, shape + ndim);
  std::vector<int> types(aux_type, aux_type + num_aux);
  std::vector<TShape> aux_shapes;
  const DimT* dims = aux_shape;
  for (uint32_t i = 0; i < num_aux; ++i) {
    if (static_cast<int64_t>(aux_ndims[i]) < 0 || static_cast<int64_t>(aux_ndims[i]) > 32) {
      throw mxnet::ValueError("aux ndim " + std::to_string(aux_ndims[i]) + " out of range");
    }
    for (int64_t d = 0; d < static_cast<int64_t>(aux_ndims[i]); ++d) {
      if (dims[d] < 0) throw mxnet::ValueError("negative dimension in an aux shape");
    }
    aux_shapes.emplace_back(dims, dims + aux_ndims[i]);
    dims += aux_ndims[i];
  }
  Context ctx = Context::Create(static_cast<Context::DeviceType>(dev_type), dev_id);
  *out = new NDArray(storage_type, s, ctx, dtype, types, aux_shapes);
  API_END();
}

}  // namespace

int MXNDArrayCreateSparseEx(int storage_type, const uint32_t* shape, uint32_t ndim, int dev_type,
                            int dev_id, int, int dtype, uint32_t num_aux, int* aux_type,
                            uint32_t* aux_ndims, const uint32_t* aux_shape, NDArrayHandle* out) {
  API_FUNCTION_SCOPE();
  return CreateSparse(storage_type, shape, static_cast<int>(ndim), dev_type, dev_id, dtype, num_aux,
                      aux_type, aux_ndims, aux_shape, out);
}

int MXNDArrayCreateSparseEx64(int storage_type, const int64_t* shape, int ndim, int dev_type,
                              int dev_id, int, int dtype, uint32_t num_aux, int* aux_type,
                              int* aux_ndims, const int64_t* aux_shape, NDArrayHandle* out) {
  API_FUNCTION_SCOPE();
  return CreateSparse(storage_type, shape, ndim, dev_type, dev_id, dtype, num_aux, aux_type,
                      aux_ndims, aux_shape, out);
}

int MXNDArrayGetAuxType(NDArrayHandle handle, uint32_t i, int* out_type) {
  API_BEGIN();
  NDArray* arr = SparseND(handle);
  arr->WaitToRead();  // a pending op may still be replacing the aux arrays
  *out_type = arr->aux_type(i);
  API_END();
}

int MXNDArrayGetAuxType64(NDArrayHandle handle, int64_t i, int* out_type) {
  API_BEGIN();
  if (i < 0) throw mxnet::IndexError("aux index must be non-negative, got " + std::to_string(i));
  NDArray* arr = SparseND(handle);
  arr->WaitToRead();
  *out_type = arr->aux_type(static_cast<size_t>(i));
  API_END();
}

int MXNDArrayGetAuxNDArray(NDArrayHandle handle, uint32_t i, NDArrayHandle* out) {
  API_BEGIN();
  *out = new NDArray(SparseND(handle)->AuxNDArray(i));
  API_END();
}

int MXNDArrayGetAuxNDArray64(NDArrayHandle handle, int64_t i, NDArrayHandle* out) {
  API_BEGIN();
  if (i < 0) throw mxnet::IndexError("aux index must be non-negative, got " + std::to_string(i));
  *out = new NDArray(SparseND(handle)->AuxNDArray(static_cast<size_t>(i)));
  API_END();
}

int MXNDArrayGetDataNDArray(NDArrayHandle handle, NDArrayHandle* out) {
  API_BEGIN();
  *out = new NDArray(SparseND(handle)->DataNDArray());
  API_END();
}
