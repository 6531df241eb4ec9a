/*!
 * \file pooling.cu
 * \brief Pooling and its gradient on the GPU, on cuDNN (built only with cuDNN): max (its
 *        deterministic mode), avg with or without the padding in the count, and sum (an
 *        average that includes the padding, scaled by the window size); 1-D as 2-D. cuDNN pads
 *        both ends alike, so 'full' and 'same' run when their output equals the 'valid' one for
 *        the resolved padding; the other shapes, and lp pooling, raise naming what is missing.
 */
#include "./pooling-inl.h"

#if MXNET_USE_CUDNN
#include "./cudnn/cudnn_conv.h"
#include "./cudnn/cudnn_utils.h"

namespace mxnet {
namespace op {
namespace {

/*! \brief An owning cuDNN pooling descriptor for a PoolGeom, and the tensor dims it pools. */
class CudnnPooling {
 public:
  CudnnPooling(const PoolingParam& param, const PoolGeom& g) : g_(g) {
    if (g.type == pool_enum::kLp) {
      MX_THROW(NotImplementedError) << "Pooling: pool_type='lp' has no GPU kernel (max, avg and "
                                    << "sum do)";
    }
    const int first = g.nsp == 3 ? 0 : 1;  // 1-D and 2-D pool as 2-D
    std::vector<int> window, pad, stride;
    x_dims_ = {cudnn::Dim(g.N, kOp), cudnn::Dim(g.C, kOp)};
    y_dims_ = x_dims_;
    for (int j = first; j < 3; ++j) {
      const index_t valid_out = 1 + (g.in[j] + 2 * g.p[j] - g.k[j]) / g.s[j];
      if (valid_out != g.out[j]) {
        MX_THROW(NotImplementedError)
            << "Pooling: on the GPU, pooling_convention='"
            << (param.pooling_convention == pool_enum::kFull ? "full" : "same")
            << "' needs uneven padding for input size " << g.in[j] << ", kernel " << g.k[j]
            << ", stride " << g.s[j] << " (output " << g.out[j] << ", 'valid' gives "
            << valid_out << "); cuDNN pads both ends alike";
      }
      window.push_back(cudnn::Dim(g.k[j], kOp));
      pad.push_back(cudnn::Dim(g.p[j], kOp));
      stride.push_back(cudnn::Dim(g.s[j], kOp));
      x_dims_.push_back(cudnn::Dim(g.in[j], kOp));
      y_dims_.push_back(cudnn::Dim(g.out[j], kOp));
    }
    cudnnPoolingMode_t mode = CUDNN_POOLING_MAX_DETERMINISTIC;
    if (g.type == pool_enum::kSum || (g.type == pool_enum::kAvg && g.count_include_pad)) {
      mode = CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
    } else if (g.type == pool_enum::kAvg) {
      mode = CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
    }
    // Sum pooling is the average over the whole window, padding included, times its size.
    scale_ = g.type == pool_enum::kSum ? static_cast<double>(g.k[0] * g.k[1] * g.k[2]) : 1.0;
    CUDNN_CALL(cudnnCreatePoolingDescriptor(&desc_), kOp, "creating a pooling descriptor");
    const cudnnStatus_t st =
        cudnnSetPoolingNdDescriptor(desc_, mode, CUDNN_NOT_PROPAGATE_NAN,
                                    static_cast<int>(window.size()), window.data(), pad.data(),
                                    stride.data());
    if (st != CUDNN_STATUS_SUCCESS) {
      cudnnDestroyPoolingDescriptor(desc_);
      cudnn::ThrowCudnnError(st, "cudnnSetPoolingNdDescriptor", kOp, Describe());
    }
  }
  ~CudnnPooling() { cudnnDestroyPoolingDescriptor(desc_); }
  CudnnPooling(const CudnnPooling&) = delete;
  CudnnPooling& operator=(const CudnnPooling&) = delete;

  bool Empty() const { return g_.N == 0 || g_.C == 0; }

  void Forward(const OpContext& ctx, int dtype, const void* x, void* y, double beta) const {
    if (Empty()) return;
    cudnnHandle_t h = cudnn::Handle(ctx.get_stream<mshadow::gpu>());
    cudnn::TensorDesc xd(dtype, x_dims_, kOp), yd(dtype, y_dims_, kOp);
    CUDNN_CALL(cudnnPoolingForward(h, desc_, cudnn::Scale(dtype, scale_).ptr(), xd.get(), x,
                                   cudnn::Scale(dtype, beta).ptr(), yd.get(), y),
               kOp, Describe());
  }

  void Backward(const OpContext& ctx, int dtype, const void* dy, const void* x, const void* y,
                void* dx, double beta) const {
    if (Empty()) return;
    cudnnHandle_t h = cudnn::Handle(ctx.get_stream<mshadow::gpu>());
    cudnn::TensorDesc xd(dtype, x_dims_, kOp), yd(dtype, y_dims_, kOp);
    CUDNN_CALL(cudnnPoolingBackward(h, desc_, cudnn::Scale(dtype, scale_).ptr(), yd.get(), y,
                                    yd.get(), dy, xd.get(), x, cudnn::Scale(dtype, beta).ptr(),
                                    xd.get(), dx),
               kOp, "the gradient of " + Describe());
  }

 private:
  static constexpr const char* kOp = "Pooling";
  std::string Describe() const {
    std::ostringstream os;
    os << "data (" << g_.N << ", " << g_.C;
    for (size_t i = 2; i < x_dims_.size(); ++i) os << ", " << x_dims_[i];
    os << "), kernel (" << g_.k[0] << ", " << g_.k[1] << ", " << g_.k[2] << ")";
    return os.str();
  }

  PoolGeom g_;
  std::vector<int> x_dims_, y_dims_;
  double scale_ = 1.0;
  cudnnPoolingDescriptor_t desc_{nullptr};
};

void PoolingComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const PoolingParam& param = nnvm::get<PoolingParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  const CudnnPooling pool(param, MakePoolGeom(param, inputs[0].shape_));
  pool.Forward(ctx, inputs[0].type_flag_, inputs[0].dptr_, outputs[0].dptr_, CudnnBeta(req[0]));
}

/*! \brief inputs: out_grad, data, output; outputs: data_grad. */
void PoolingGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const PoolingParam& param = nnvm::get<PoolingParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  const CudnnPooling pool(param, MakePoolGeom(param, inputs[1].shape_));
  pool.Backward(ctx, inputs[0].type_flag_, inputs[0].dptr_, inputs[1].dptr_, inputs[2].dptr_,
                outputs[0].dptr_, CudnnBeta(req[0]));
}

}  // namespace

NNVM_REGISTER_OP(Pooling).set_attr<FCompute>("FCompute<gpu>", PoolingComputeGPU);
NNVM_REGISTER_OP(_backward_Pooling).set_attr<FCompute>("FCompute<gpu>", PoolingGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDNN
