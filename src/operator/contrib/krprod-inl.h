/*!
 * \file krprod-inl.h
 * \brief khatri_rao's parameters and kernel for both devices: one thread per output element
 *        multiplies the matching row entries of every input in double. The inputs travel to
 *        the kernel by value (at most KhatriRaoInputs::kMax of them).
 */
#ifndef MXNET_OPERATOR_CONTRIB_KRPROD_INL_H_
#define MXNET_OPERATOR_CONTRIB_KRPROD_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct KhatriRaoParam : public dmlc::Parameter<KhatriRaoParam> {
  int num_args;
  DMLC_DECLARE_PARAMETER(KhatriRaoParam) {
    DMLC_DECLARE_FIELD(num_args).set_lower_bound(1)
        .describe("Number of input matrices.");
  }
};


template <typename DType>
struct KhatriRaoInputs {
  static constexpr int kMax = 32;
  const DType* data[kMax];
  index_t rows[kMax];
  int n;
};

/*! \brief out[r, c] (req) prod_k A_k[i_k, c], with r = (i_1, ..., i_n) row-major. */
struct khatri_rao_kernel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, KhatriRaoInputs<DType> in, index_t cols, DType* o,
                                  int req) {
    const index_t c = e % cols;
    index_t rest = e / cols;
    double v = 1.0;
    for (int k = in.n - 1; k >= 0; --k) {  // the last matrix varies fastest
      v *= static_cast<double>(in.data[k][(rest % in.rows[k]) * cols + c]);
      rest /= in.rows[k];
    }
    o[e] = req == kAddTo ? static_cast<DType>(o[e] + v) : static_cast<DType>(v);
  }
};

template <typename xpu>
void KhatriRaoCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (inputs.size() > static_cast<size_t>(KhatriRaoInputs<float>::kMax)) {
    MX_THROW(ValueError) << "khatri_rao: at most " << KhatriRaoInputs<float>::kMax
                         << " input matrices are supported, got " << inputs.size();
  }
  const index_t cols = outputs[0].shape_[1];
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    KhatriRaoInputs<DType> in{};
    in.n = static_cast<int>(inputs.size());
    for (size_t k = 0; k < inputs.size(); ++k) {
      in.data[k] = inputs[k].dptr<DType>();
      in.rows[k] = inputs[k].shape_[0];
    }
    mxnet_op::Kernel<khatri_rao_kernel, xpu>::Launch(ctx.get_stream<xpu>(), outputs[0].Size(),
                                                     in, cols, outputs[0].dptr<DType>(),
                                                     static_cast<int>(req[0]));
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_KRPROD_INL_H_
