/*!
 * \file c_api_rtc.cc
 * \brief C API shims for mx.rtc (CUDA runtime compilation, src/common/rtc.h).
 */
#include <mxnet/c_api.h>
#include <mxnet/ndarray.h>

#include <memory>
#include <string>
#include <vector>

#include "../common/rtc.h"
#include "./c_api_common.h"

namespace {

using mxnet::rtc::CudaModule;

std::vector<std::string> Strings(const char** array, int count, const char* function,
                                 const char* name) {
  if (count < 0) throw dmlc::ValueError(std::string(function) + ": the count of " + name +
                                        " is negative");
  mxnet::c_api::NoNullIn(array, static_cast<size_t>(count), function, name);
  return std::vector<std::string>(array, array + count);
}

[[noreturn]] void RemovedApi(const char* function) {
  throw dmlc::NotImplementedError(
      std::string(function) + ": the pre-1.0 runtime-compilation API was removed in MXNet "
      "1.x; use MXRtcCudaModuleCreate (mx.rtc.CudaModule)");
}

}  // namespace

int MXRtcCreate(char*, uint32_t, uint32_t, char**, char**, NDArrayHandle*, NDArrayHandle*, char*,
                RtcHandle*) {
  API_BEGIN();
  RemovedApi(__func__);
  API_END();
}

int MXRtcPush(RtcHandle, uint32_t, uint32_t, NDArrayHandle*, NDArrayHandle*, uint32_t, uint32_t,
              uint32_t, uint32_t, uint32_t, uint32_t) {
  API_BEGIN();
  RemovedApi(__func__);
  API_END();
}

int MXRtcFree(RtcHandle) {
  API_BEGIN();
  RemovedApi(__func__);
  API_END();
}

int MXRtcCudaModuleCreate(const char* source, int num_options, const char** options,
                          int num_exports, const char** exports, CudaModuleHandle* out) {
  API_BEGIN();
  API_NOT_NULL(source);
  API_NOT_NULL(out);
  *out = new CudaModule(source, Strings(options, num_options, __func__, "options"),
                        Strings(exports, num_exports, __func__, "exports"));
  API_END();
}

int MXRtcCudaModuleFree(CudaModuleHandle handle) {
  API_BEGIN();
  delete static_cast<CudaModule*>(handle);
  API_END();
}

int MXRtcCudaKernelCreate(CudaModuleHandle handle, const char* name, int num_args,
                          int* is_ndarray, int* is_const, int* arg_types, CudaKernelHandle* out) {
  API_BEGIN();
  if (handle == nullptr) mxnet::c_api::ThrowNullHandle("module handle");
  API_NOT_NULL(name);
  API_NOT_NULL(out);
  if (num_args < 0) throw dmlc::ValueError("MXRtcCudaKernelCreate: num_args is negative");
  if (num_args > 0) {
    API_NOT_NULL(is_ndarray);
    API_NOT_NULL(is_const);
    API_NOT_NULL(arg_types);
  }
  std::vector<mxnet::rtc::KernelParam> signature;
  for (int i = 0; i < num_args; ++i) {
    signature.push_back({is_ndarray[i] != 0, is_const[i] != 0, arg_types[i]});
  }
  auto kernel = static_cast<CudaModule*>(handle)->GetKernel(name, signature);
  *out = new std::shared_ptr<CudaModule::Kernel>(kernel);
  API_END();
}

int MXRtcCudaKernelFree(CudaKernelHandle handle) {
  API_BEGIN();
  delete static_cast<std::shared_ptr<CudaModule::Kernel>*>(handle);
  API_END();
}

int MXRtcCudaKernelCall(CudaKernelHandle handle, int dev_id, void** args, uint32_t grid_dim_x,
                        uint32_t grid_dim_y, uint32_t grid_dim_z, uint32_t block_dim_x,
                        uint32_t block_dim_y, uint32_t block_dim_z, uint32_t shared_mem) {
  API_BEGIN();
  if (handle == nullptr) mxnet::c_api::ThrowNullHandle("kernel handle");
  auto& kernel = *static_cast<std::shared_ptr<CudaModule::Kernel>*>(handle);
  // The kernel knows its parameter count (args may be NULL only for none); NDArray handles
  // become NDArray pointers, scalar pointers pass as they are.
  const size_t n = kernel->signature().size();
  if (n > 0) API_NO_NULL_IN(args, n);
  std::vector<const void*> arguments(args, args + n);
  kernel->Launch(dev_id, arguments, {grid_dim_x, grid_dim_y, grid_dim_z},
                 {block_dim_x, block_dim_y, block_dim_z}, shared_mem);
  API_END();
}
