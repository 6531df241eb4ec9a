/*!
 * \file multisample_op.cu
 * \brief GPU kernels of the _sample_* operators (one distribution per element of the parameter
 *        arrays): the samplers of sampler.h on per-element Philox streams, as _random_* do.
 */
#include <vector>

#include "../tensor/broadcast_reduce_op-inl.h"
#include "./sample_op-inl.h"

namespace mxnet {
namespace op {
namespace {

struct params_to_double {
  template <typename PType>
  MSHADOW_XINLINE static void Map(index_t i, const PType* p, double* out) {
    out[i] = static_cast<double>(p[i]);
  }
};

/*! \brief out[i] = a draw of Dist(a[i / each], b[i / each]). */
template <typename Dist>
struct multi_sample {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const double* a, const double* b,
                                  index_t each, uint32_t seed, uint64_t call) {
    typedef typename std::conditional<std::is_same<DType, double>::value, double, float>::type
        A;
    common::random::PhiloxStream<A> rng(seed, call, i);
    const index_t j = i / each;
    out[i] = DType(Dist::Draw(&rng, a[j], b != nullptr ? b[j] : 0.0));
  }
};

/*!
 * \brief The parameters are converted to doubles on the device and also read back, so that an
 *        invalid one is an error naming the operator (as on the CPU), not a NaN sample.
 */
template <typename Dist>
void MultiSampleComputeGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const TBlob& out = outputs[0];
  const index_t nparam = inputs[0].Size();
  if (nparam == 0 || out.Size() == 0) return;
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  const size_t nin = inputs.size() > 1 ? 2 : 1;
  reduce_gpu::Scratch dev(nin * nparam * sizeof(double));
  double* a = dev.get<double>();
  double* b = nin > 1 ? a + nparam : nullptr;
  for (size_t k = 0; k < nin; ++k) {
    MSHADOW_TYPE_SWITCH(inputs[k].type_flag_, PType, {
      mxnet_op::Kernel<params_to_double, gpu>::Launch(
          s, nparam, static_cast<const PType*>(inputs[k].dptr<PType>()), a + k * nparam);
    });
  }
  std::vector<double> host(nin * nparam);
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  CUDA_CALL(cudaMemcpyAsync(host.data(), a, host.size() * sizeof(double),
                            cudaMemcpyDeviceToHost, stream));
  CUDA_CALL(cudaStreamSynchronize(stream));
  for (index_t j = 0; j < nparam; ++j) {
    Dist::Check(attrs.op->name.c_str(), host[j], nin > 1 ? host[nparam + j] : 0.0);
  }
  auto* gen = ctx.requested[0].get_parallel_random<gpu, float>();
  const uint64_t call = gen->NextCall();
  MSHADOW_REAL_TYPE_SWITCH(out.type_flag_, DType, {
    mxnet_op::Kernel<multi_sample<Dist>, gpu>::Launch(
        s, out.Size(), out.dptr<DType>(), static_cast<const double*>(a),
        static_cast<const double*>(b), static_cast<index_t>(out.Size() / nparam), gen->seed(),
        call);
  });
}

}  // namespace

#define MXNET_MULTISAMPLE_GPU(name, Dist) \
  NNVM_REGISTER_OP(name).set_attr<FCompute>("FCompute<gpu>", MultiSampleComputeGPU<Dist>)

MXNET_MULTISAMPLE_GPU(_sample_uniform, UniformDist);
MXNET_MULTISAMPLE_GPU(_sample_normal, NormalDist);
MXNET_MULTISAMPLE_GPU(_sample_gamma, GammaDist);
MXNET_MULTISAMPLE_GPU(_sample_exponential, ExponentialDist);
MXNET_MULTISAMPLE_GPU(_sample_poisson, PoissonDist);
MXNET_MULTISAMPLE_GPU(_sample_negative_binomial, NegBinomialDist);
MXNET_MULTISAMPLE_GPU(_sample_generalized_negative_binomial, GenNegBinomialDist);

}  // namespace op
}  // namespace mxnet
