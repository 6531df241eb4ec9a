/*!
 * \file cudnn_utils.h
 * \brief What the cuDNN layers share (CUDA builds with cuDNN only, MXNET_USE_CUDNN): the error
 *        check, this thread's handle bound to the op's stream, dtype mapping, scaling factors and
 *        owning descriptor wrappers.
 *
 *   cudnnHandle_t h = cudnn::Handle(ctx.get_stream<gpu>());
 *   cudnn::TensorDesc x(dtype, {N, C, H, W});
 *   CUDNN_CALL(cudnnAddTensor(h, one.ptr(), b.get(), bias, one.ptr(), x.get(), y), "Convolution");
 */
#ifndef MXNET_OPERATOR_NN_CUDNN_CUDNN_UTILS_H_
#define MXNET_OPERATOR_NN_CUDNN_CUDNN_UTILS_H_

#if MXNET_USE_CUDA && MXNET_USE_CUDNN
#include <cudnn.h>
#include <mshadow/base.h>
#include <mxnet/base.h>

#include <cstdint>
#include <string>
#include <vector>

namespace mxnet {
namespace op {
namespace cudnn {

/*! \brief Throws MXNetError: "<op> on gpu(<dev>): <call> failed: <status> (<context>)". */
[[noreturn]] void ThrowCudnnError(cudnnStatus_t status, const char* call, const std::string& op,
                                  const std::string& context);

/*! \brief This thread's cuDNN handle for the current device, pointed at `s`'s stream. Handles
 *         are kept for the life of the thread (destroying one after the driver has shut down at
 *         exit fails). */
cudnnHandle_t Handle(mshadow::Stream<mshadow::gpu>* s);

/*! \brief cuDNN's type for an MXNet dtype; throws TypeError naming `op` for the others. */
cudnnDataType_t DataType(int dtype, const std::string& op);

/*! \brief The type convolutions accumulate in: double for float64, float otherwise (float16 and
 *         bfloat16 data compute in float, as MXNet 1.x's default for cuDNN). */
cudnnDataType_t ComputeType(int dtype);

/*! \brief The math a descriptor may use for `dtype`: Tensor Cores for float16 and bfloat16
 *         unless MXNET_CUDA_ALLOW_TENSOR_CORE=0; for float32 only with
 *         MXNET_CUDA_TENSOR_OP_MATH_ALLOW_CONVERSION=1 (TF32); plain math for float64. */
cudnnMathType_t AllowedMath(int dtype);

/*! \brief `v` as a cuDNN int dimension; throws ValueError naming `op` beyond INT_MAX. */
int Dim(index_t v, const std::string& op);

/*! \brief alpha/beta as cuDNN reads them: a double for float64 data, a float otherwise. */
class Scale {
 public:
  Scale(int dtype, double v) : d_(v), f_(static_cast<float>(v)), dbl_(dtype == mshadow::kFloat64) {}
  const void* ptr() const { return dbl_ ? static_cast<const void*>(&d_) : &f_; }

 private:
  double d_;
  float f_;
  bool dbl_;
};

/*! \brief A packed (row-major) tensor descriptor of 4 or 5 dimensions. */
class TensorDesc {
 public:
  TensorDesc(int dtype, const std::vector<int>& dims, const std::string& op);
  ~TensorDesc();
  TensorDesc(const TensorDesc&) = delete;
  TensorDesc& operator=(const TensorDesc&) = delete;
  cudnnTensorDescriptor_t get() const { return desc_; }

 private:
  cudnnTensorDescriptor_t desc_{nullptr};
};

/*! \brief A filter descriptor (K, C/groups, *kernel), NCHW order. */
class FilterDesc {
 public:
  FilterDesc(int dtype, const std::vector<int>& dims, const std::string& op);
  ~FilterDesc();
  FilterDesc(const FilterDesc&) = delete;
  FilterDesc& operator=(const FilterDesc&) = delete;
  cudnnFilterDescriptor_t get() const { return desc_; }

 private:
  cudnnFilterDescriptor_t desc_{nullptr};
};

}  // namespace cudnn
}  // namespace op
}  // namespace mxnet

/*! \brief Runs a cuDNN call; a failure throws naming the operator and what it was doing. */
#define CUDNN_CALL(expr, op_name, context)                                             \
  do {                                                                                 \
    const cudnnStatus_t cudnn_status_ = (expr);                                        \
    if (cudnn_status_ != CUDNN_STATUS_SUCCESS) {                                       \
      ::mxnet::op::cudnn::ThrowCudnnError(cudnn_status_, #expr, (op_name), (context)); \
    }                                                                                  \
  } while (0)

#endif  // MXNET_USE_CUDA && MXNET_USE_CUDNN
#endif  // MXNET_OPERATOR_NN_CUDNN_CUDNN_UTILS_H_
