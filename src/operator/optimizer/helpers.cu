/*!
 * \file helpers.cu
 * \brief reset_arrays, all_finite, multi_all_finite, multi_sum_sq and multi_lars on the GPU.
 *        The checks and sums read every array in place and write their one-element (or
 *        one-per-array) results on the device, so loss scaling and LARS never wait for the
 *        host. Arrays go to the kernels in batches of up to kBatch pointers passed by value.
 *        multi_sum_sq adds in double, in a fixed order (kChunks partial sums per array, then
 *        one block per array), so its result does not change from run to run.
 */
#include "./helpers-inl.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include <algorithm>

#include "../../common/cuda_utils.h"

namespace mxnet {
namespace op {
namespace {

using common::cuda::BlockSum;
constexpr int kThreads = common::cuda::kThreadsPerBlock;
constexpr int kChunks = 128;  // blocks per array; at most kThreads (one finishing block sums them)
constexpr int kBatch = 48;    // arrays per launch: the batch stays within the 4 KB of parameters

/*! \brief Up to kBatch float arrays of any real dtype, the kernels' argument by value. */
struct ArrayBatch {
  const void* ptr[kBatch];
  index_t size[kBatch];
  int dtype[kBatch];
  int first;  // the index of ptr[0] among all the op's inputs
};

__device__ __forceinline__ double LoadAsDouble(const void* p, int dtype, index_t i) {
  switch (dtype) {
    case mshadow::kFloat64: return static_cast<const double*>(p)[i];
    case mshadow::kFloat16:
      return static_cast<float>(static_cast<const mshadow::half::half_t*>(p)[i]);
    default: return static_cast<double>(static_cast<const float*>(p)[i]);
  }
}

/*! \brief Block (x, y): chunk x of array y of the batch; writes 0 into *flag on a non-finite. */
__global__ void FiniteCheckKernel(ArrayBatch b, float* flag) {
  const int a = blockIdx.y;
  const index_t n = b.size[a];
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    if (!HelperIsFinite(LoadAsDouble(b.ptr[a], b.dtype[a], i))) {
      *flag = 0.f;  // every writer writes the same value
      return;
    }
  }
}

/*! \brief Block (x, y): the sum of squares of chunk x of array y of the batch, into
 *         partial[(first + y) * kChunks + x]. */
__global__ void SumSqPartialKernel(ArrayBatch b, double* partial) {
  __shared__ double buf[kThreads];
  const int a = blockIdx.y;
  const index_t n = b.size[a];
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  double s = 0;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    const double v = LoadAsDouble(b.ptr[a], b.dtype[a], i);
    s += v * v;
  }
  s = BlockSum(buf, s);
  if (threadIdx.x == 0) partial[static_cast<index_t>(b.first + a) * kChunks + blockIdx.x] = s;
}

/*! \brief Block a: out[a] (req) = the sum of array a's kChunks partial sums. */
__global__ void SumSqFinishKernel(const double* partial, float* out, int req) {
  __shared__ double buf[kThreads];
  const double v = threadIdx.x < kChunks ? partial[static_cast<index_t>(blockIdx.x) * kChunks +
                                                   threadIdx.x]
                                         : 0.0;
  const double total = BlockSum(buf, v);
  if (threadIdx.x == 0) KERNEL_ASSIGN(out[blockIdx.x], req, static_cast<float>(total));
}

__global__ void SetFloatKernel(float* p, float v) {
  *p = v;
}

/*! \brief Calls launch(batch, count) for the arrays of `inputs`, kBatch at a time. */
template <typename Launch>
void ForEachBatch(const std::vector<TBlob>& inputs, Launch launch) {
  ArrayBatch b;
  int count = 0;
  b.first = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TBlob& x = inputs[i];
    if (count == 0) b.first = static_cast<int>(i);
    b.ptr[count] = x.dptr_;
    b.size[count] = static_cast<index_t>(x.Size());
    b.dtype[count] = x.type_flag_;
    if (++count == kBatch || i + 1 == inputs.size()) {
      launch(b, count);
      count = 0;
    }
  }
}

/*!
 * \brief The float arrays with elements among `inputs`: the integer dtypes the CPU accepts are
 *        always finite, empty arrays have nothing to check; other dtypes are the CPU's error.
 */
std::vector<TBlob> FloatArrays(const char* op, const std::vector<TBlob>& inputs) {
  std::vector<TBlob> kept;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TBlob& x = inputs[i];
    switch (x.type_flag_) {
      case mshadow::kFloat32: case mshadow::kFloat64: case mshadow::kFloat16:
        if (x.Size() > 0) kept.push_back(x);
        break;
      case mshadow::kUint8: case mshadow::kInt8: case mshadow::kInt32: case mshadow::kInt64:
        break;
      default:
        MX_THROW(::dmlc::TypeError) << op << ": unsupported dtype "
                                    << mshadow::dtype_string(x.type_flag_) << " at input " << i;
    }
  }
  return kept;
}

void FiniteCheckGPU(const char* op, const OpContext& ctx, const std::vector<TBlob>& inputs,
                    bool init, const TBlob& out) {
  const std::vector<TBlob> arrays = FloatArrays(op, inputs);
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  float* flag = out.dptr<float>();
  if (init) SetFloatKernel<<<1, 1, 0, stream>>>(flag, 1.f);
  ForEachBatch(arrays, [&](const ArrayBatch& b, int count) {
    FiniteCheckKernel<<<dim3(kChunks, count), kThreads, 0, stream>>>(b, flag);
  });
  CUDA_CALL(cudaGetLastError());
}

void AllFiniteGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& outputs) {
  FiniteCheckGPU("all_finite", ctx, inputs, nnvm::get<AllFiniteParam>(attrs.parsed).init_output,
                 outputs[0]);
}

void MultiAllFiniteGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  FiniteCheckGPU("multi_all_finite", ctx, inputs,
                 nnvm::get<MultiAllFiniteParam>(attrs.parsed).init_output, outputs[0]);
}

void MultiSumSqGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || inputs.empty()) return;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const int t = inputs[i].type_flag_;
    if (t != mshadow::kFloat32 && t != mshadow::kFloat64 && t != mshadow::kFloat16) {
      MX_THROW(::dmlc::TypeError) << "multi_sum_sq: expected floating-point arrays, got "
                                  << mshadow::dtype_string(t) << " at input " << i;
    }
  }
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  const size_t bytes = inputs.size() * kChunks * sizeof(double);
  // Every array gets kChunks blocks, so every partial sum is written (0 for an empty array).
  double* partial = static_cast<double*>(ctx.requested[0].get_space_internal(bytes));
  ForEachBatch(inputs, [&](const ArrayBatch& b, int count) {
    SumSqPartialKernel<<<dim3(kChunks, count), kThreads, 0, stream>>>(b, partial);
  });
  SumSqFinishKernel<<<static_cast<unsigned>(inputs.size()), kThreads, 0, stream>>>(
      partial, outputs[0].dptr<float>(), static_cast<int>(req[0]));
  CUDA_CALL(cudaGetLastError());
}

void ResetArraysGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(ctx.get_stream<gpu>());
  for (const TBlob& b : inputs) {
    if (b.Size() > 0) {
      CUDA_CALL(cudaMemsetAsync(b.dptr_, 0, b.Size() * mshadow::mshadow_sizeof(b.type_flag_),
                                stream));
    }
  }
}

}  // namespace

NNVM_REGISTER_OP(reset_arrays).set_attr<FCompute>("FCompute<gpu>", ResetArraysGPU);
NNVM_REGISTER_OP(all_finite).set_attr<FCompute>("FCompute<gpu>", AllFiniteGPU);
NNVM_REGISTER_OP(multi_all_finite).set_attr<FCompute>("FCompute<gpu>", MultiAllFiniteGPU);
NNVM_REGISTER_OP(multi_sum_sq).set_attr<FCompute>("FCompute<gpu>", MultiSumSqGPU);
NNVM_REGISTER_OP(multi_lars).set_attr<FCompute>("FCompute<gpu>", MultiLARSCompute<gpu>);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
