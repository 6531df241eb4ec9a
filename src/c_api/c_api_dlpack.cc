// C API: DLPack exchange and the autograd-related NDArray queries.
#include <mxnet/c_api.h>
#include <mxnet/imperative.h>
#include <mxnet/ndarray.h>

#include <memory>

#include "c_api_common.h"

using mxnet::NDArray;

namespace {

/*! \brief Owner of an exported tensor: keeps the array (and so its memory) alive. */
struct DLPackExport {
  NDArray array;
  std::vector<int64_t> shape;
  DLManagedTensor managed;
};

void DeleteExport(DLManagedTensor* self) {
  delete static_cast<DLPackExport*>(self->manager_ctx);
}

bool IsCompact(const DLTensor& t) {
  if (t.strides == nullptr) return true;
  int64_t expected = 1;
  for (int i = t.ndim - 1; i >= 0; --i) {
    if (t.shape[i] != 1 && t.strides[i] != expected) return false;
    expected *= t.shape[i];
  }
  return true;
}

NDArray* Arr(NDArrayHandle h) {
  if (h == nullptr) mxnet::c_api::ThrowNullHandle("NDArray handle");
  return static_cast<NDArray*>(h);
}

}  // namespace

int MXNDArrayToDLPack(NDArrayHandle handle, DLManagedTensorHandle* out_dlpack) {
  API_BEGIN();
  NDArray* arr = Arr(handle);
  if (arr->is_none()) throw mxnet::ValueError("cannot export a none NDArray through DLPack");
  auto* exp = new DLPackExport{*arr, {}, {}};
  exp->shape.assign(arr->shape().begin(), arr->shape().end());
  exp->managed.dl_tensor = exp->array.data().dltensor();
  exp->managed.dl_tensor.shape = exp->shape.data();
  exp->managed.dl_tensor.strides = nullptr;
  exp->managed.manager_ctx = exp;
  exp->managed.deleter = DeleteExport;
  *out_dlpack = &exp->managed;
  API_END();
}

int MXNDArrayFromDLPackEx(DLManagedTensorHandle dlpack, const bool transient_handle,
                          NDArrayHandle* out_handle) {
  API_BEGIN();
  auto* managed = static_cast<DLManagedTensor*>(dlpack);
  if (managed == nullptr) mxnet::c_api::ThrowNullHandle("DLPack tensor");
  const DLTensor& t = managed->dl_tensor;
  if (!IsCompact(t)) {
    throw mxnet::ValueError("DLPack tensor is not C-contiguous; make a contiguous copy first");
  }
  mxnet::TBlob blob(t);
  std::function<void()> deleter;
  if (managed->deleter != nullptr) {
    if (transient_handle) {
      // The caller's struct goes away after this call: the deleter gets a copy of it (what
      // deleters read, manager_ctx, is in the copy), as in MXNet 1.x.
      auto copy = std::make_shared<DLManagedTensor>(*managed);
      deleter = [copy]() { copy->deleter(copy.get()); };
    } else {
      deleter = [managed]() { managed->deleter(managed); };
    }
  }
  *out_handle = new NDArray(blob, t.device.device_id, std::move(deleter));
  API_END();
}

int MXNDArrayFromDLPack(DLManagedTensorHandle dlpack, NDArrayHandle* out_handle) {
  return MXNDArrayFromDLPackEx(dlpack, false, out_handle);
}

int MXNDArrayCallDLPackDeleter(DLManagedTensorHandle dlpack) {
  API_BEGIN();
  auto* managed = static_cast<DLManagedTensor*>(dlpack);
  if (managed != nullptr && managed->deleter != nullptr) managed->deleter(managed);
  API_END();
}

int MXNDArrayDetach(NDArrayHandle handle, NDArrayHandle* out) {
  API_BEGIN();
  *out = new NDArray(Arr(handle)->Detach());
  API_END();
}

int MXNDArrayGetGrad(NDArrayHandle handle, NDArrayHandle* out) {
  API_BEGIN();
  NDArray grad = mxnet::Imperative::GetGrad(*Arr(handle));
  *out = grad.is_none() ? nullptr : new NDArray(std::move(grad));
  API_END();
}
