/*!
 * \file dropout.cu
 * \brief Dropout and its gradient on the GPU, with the CPU's semantics (dropout-inl.h): the
 *        mask holds 0 or 1/(1-p) per element (ones when inactive), shared along `axes`; the
 *        output and the gradient are the data times the broadcast mask. Mask element i draws
 *        from its own Philox stream seeded by mx.random.seed, as the GPU samplers do.
 */
#include "./dropout-inl.h"

#if MXNET_USE_CUDA
#include <mxnet/random_generator.h>

namespace mxnet {
namespace op {
namespace {

struct fill_one {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out) { out[i] = DType(1.0f); }
};

/*! \brief out[i] (req) a[i] * mask[map(i)]. */
struct times_mask {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, int req, const DType* a,
                                  const DType* mask, BroadcastMap map) {
    KERNEL_ASSIGN(out[i], req, DType(a[i] * mask[map.Of(i)]));
  }
};

void DropoutComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  using mxnet_op::Kernel;
  const DropoutParam& param = nnvm::get<DropoutParam>(attrs.parsed);
  const TBlob& data = inputs[dropout::kData];
  const TBlob& out = outputs[dropout::kOut];
  const TBlob& mask = outputs[dropout::kMask];
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  const bool active = (ctx.is_train || param.mode == dropout::kAlways) && param.p > 0;
  MSHADOW_REAL_TYPE_SWITCH(data.type_flag_, DType, {
    if (!active) {
      Kernel<fill_one, gpu>::Launch(s, mask.Size(), mask.dptr<DType>());
      const OpReqType r = req[dropout::kOut];
      if (r != kNullOp && !(r == kWriteInplace && out.dptr_ == data.dptr_)) {
        Kernel<mxnet_op::copy_with_req, gpu>::Launch(s, data.Size(), out.dptr<DType>(),
                                                     data.dptr<DType>(), static_cast<int>(r));
      }
      return;
    }
    const double pkeep = 1.0 - static_cast<double>(param.p);
    const DType kept(static_cast<float>(pkeep > 0 ? 1.0 / pkeep : 0.0));
    auto* gen = ctx.requested[0].get_parallel_random<gpu, float>();
    Kernel<dropout_mask_philox, gpu>::Launch(s, mask.Size(), mask.dptr<DType>(), gen->seed(),
                                             gen->NextCall(), static_cast<float>(pkeep), kept);
    if (req[dropout::kOut] != kNullOp) {
      Kernel<times_mask, gpu>::Launch(s, data.Size(), out.dptr<DType>(),
                                      static_cast<int>(req[dropout::kOut]), data.dptr<DType>(),
                                      mask.dptr<DType>(),
                                      MakeBroadcastMap(data.shape_, mask.shape_, "Dropout"));
    }
  });
}

/*! \brief inputs: out_grad, mask; output: data_grad = out_grad * mask (broadcast). */
void DropoutGradComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<times_mask, gpu>::Launch(
        ctx.get_stream<gpu>(), inputs[0].Size(), outputs[0].dptr<DType>(),
        static_cast<int>(req[0]), inputs[0].dptr<DType>(), inputs[1].dptr<DType>(),
        MakeBroadcastMap(inputs[0].shape_, inputs[1].shape_, "Dropout"));
  });
}

}  // namespace

NNVM_REGISTER_OP(Dropout).set_attr<FCompute>("FCompute<gpu>", DropoutComputeGPU);
NNVM_REGISTER_OP(_backward_Dropout).set_attr<FCompute>("FCompute<gpu>", DropoutGradComputeGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
