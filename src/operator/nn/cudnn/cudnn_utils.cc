/*!
 * \file cudnn_utils.cc
 * \brief The cuDNN error check, per-thread handles and descriptor wrappers (cudnn_utils.h).
 */
#include "./cudnn_utils.h"

#if MXNET_USE_CUDA && MXNET_USE_CUDNN
#include <cuda_runtime.h>
#include <dmlc/logging.h>

#include <climits>
#include <sstream>
#include <unordered_map>

#include "../../../common/cuda_utils.h"
#include "../../../common/env_util.h"

namespace mxnet {
namespace op {
namespace cudnn {

void ThrowCudnnError(cudnnStatus_t status, const char* call, const std::string& op,
                     const std::string& context) {
  int dev = -1;
  cudaGetDevice(&dev);
  std::string name(call);
  name = name.substr(0, name.find('('));  // the function, not its argument list
  std::ostringstream os;
  os << op << " on gpu(" << dev << "): cuDNN " << name << " failed: "
     << cudnnGetErrorString(status) << (context.empty() ? "" : " (" + context + ")");
  throw ::dmlc::Error(os.str());
}

cudnnHandle_t Handle(mshadow::Stream<mshadow::gpu>* s) {
  thread_local std::unordered_map<int, cudnnHandle_t> handles;
  int dev = 0;
  CUDA_CALL(cudaGetDevice(&dev));
  cudnnHandle_t h = nullptr;
  auto it = handles.find(dev);
  if (it != handles.end()) {
    h = it->second;
  } else {
    CUDNN_CALL(cudnnCreate(&h), "cuDNN", "creating a handle");
    handles.emplace(dev, h);
  }
  CUDNN_CALL(cudnnSetStream(h, mshadow::Stream<mshadow::gpu>::GetStream(s)), "cuDNN",
             "binding the handle to the operator's stream");
  return h;
}

cudnnDataType_t DataType(int dtype, const std::string& op) {
  switch (dtype) {
    case mshadow::kFloat32: return CUDNN_DATA_FLOAT;
    case mshadow::kFloat64: return CUDNN_DATA_DOUBLE;
    case mshadow::kFloat16: return CUDNN_DATA_HALF;
    case mshadow::kBfloat16: return CUDNN_DATA_BFLOAT16;
    default:
      break;
  }
  MX_THROW(TypeError) << op << ": dtype " << mshadow::dtype_string(dtype)
                      << " is not supported on the GPU (float16, bfloat16, float32 and "
                      << "float64 are)";
  return CUDNN_DATA_FLOAT;  // not reached: MX_THROW throws
}

cudnnDataType_t ComputeType(int dtype) {
  return dtype == mshadow::kFloat64 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
}

cudnnMathType_t AllowedMath(int dtype) {
  static const bool tensor_cores = common::GetEnvInt("MXNET_CUDA_ALLOW_TENSOR_CORE", 1) != 0;
  static const bool tf32 =
      common::GetEnvInt("MXNET_CUDA_TENSOR_OP_MATH_ALLOW_CONVERSION", 0) != 0;
  switch (dtype) {
    case mshadow::kFloat16:
    case mshadow::kBfloat16:
      return tensor_cores ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH;
    case mshadow::kFloat32:
      return tf32 ? CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION : CUDNN_FMA_MATH;
    default:
      return CUDNN_DEFAULT_MATH;
  }
}

int Dim(index_t v, const std::string& op) {
  if (v < 0 || v > INT_MAX) {
    MX_THROW(ValueError) << op << ": size " << v << " is beyond cuDNN's 32-bit limit";
  }
  return static_cast<int>(v);
}

TensorDesc::TensorDesc(int dtype, const std::vector<int>& dims, const std::string& op) {
  const cudnnDataType_t type = DataType(dtype, op);  // may throw: before anything is created
  CUDNN_CALL(cudnnCreateTensorDescriptor(&desc_), op, "creating a tensor descriptor");
  std::vector<int> strides(dims.size());
  int64_t stride = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    if (stride > INT_MAX) {
      cudnnDestroyTensorDescriptor(desc_);
      MX_THROW(ValueError) << op << ": a tensor of " << stride * dims[i]
                           << " elements is beyond cuDNN's 32-bit strides";
    }
    strides[i] = static_cast<int>(stride);
    stride *= dims[i];
  }
  const cudnnStatus_t st = cudnnSetTensorNdDescriptor(desc_, type,
                                                      static_cast<int>(dims.size()), dims.data(),
                                                      strides.data());
  if (st != CUDNN_STATUS_SUCCESS) {
    cudnnDestroyTensorDescriptor(desc_);
    ThrowCudnnError(st, "cudnnSetTensorNdDescriptor", op, "describing a tensor");
  }
}

TensorDesc::~TensorDesc() { cudnnDestroyTensorDescriptor(desc_); }

FilterDesc::FilterDesc(int dtype, const std::vector<int>& dims, const std::string& op) {
  const cudnnDataType_t type = DataType(dtype, op);
  CUDNN_CALL(cudnnCreateFilterDescriptor(&desc_), op, "creating a filter descriptor");
  const cudnnStatus_t st =
      cudnnSetFilterNdDescriptor(desc_, type, CUDNN_TENSOR_NCHW,
                                 static_cast<int>(dims.size()), dims.data());
  if (st != CUDNN_STATUS_SUCCESS) {
    cudnnDestroyFilterDescriptor(desc_);
    ThrowCudnnError(st, "cudnnSetFilterNdDescriptor", op, "describing the weight");
  }
}

FilterDesc::~FilterDesc() { cudnnDestroyFilterDescriptor(desc_); }

}  // namespace cudnn
}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA && MXNET_USE_CUDNN
