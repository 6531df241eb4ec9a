/*!
 * \file ravel-inl.h
 * \brief _ravel_multi_index / _unravel_index kernels for both devices: one thread per index,
 *        with the target shape passed by value.
 */
#ifndef MXNET_OPERATOR_TENSOR_RAVEL_INL_H_
#define MXNET_OPERATOR_TENSOR_RAVEL_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct RavelParam : public dmlc::Parameter<RavelParam> {
  mxnet::TShape shape;
  DMLC_DECLARE_PARAMETER(RavelParam) {
    DMLC_DECLARE_FIELD(shape).set_default(mxnet::TShape())
        .describe("Shape of the array into which the multi-indices apply.");
  }
};


namespace ravel_kernel {

/*! \brief The target shape by value (at most kMax dimensions). */
struct Dims {
  static constexpr int kMax = 32;
  int64_t d[kMax];
  int nd;
};

inline Dims MakeDims(const char* op, const mxnet::TShape& target) {
  if (target.ndim() > Dims::kMax) {
    MX_THROW(ValueError) << op << ": at most " << Dims::kMax << " dimensions are supported, got "
                         << "shape=" << target;
  }
  Dims d{};
  d.nd = target.ndim();
  for (int k = 0; k < d.nd; ++k) d.d[k] = target[k];
  return d;
}

/*! \brief o[j] (req) the flat index of column j of x (nd, n). */
struct ravel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t j, Dims t, index_t n, const DType* x, DType* o,
                                  int req) {
    int64_t flat = 0;
    for (int k = 0; k < t.nd; ++k) flat = flat * t.d[k] + static_cast<int64_t>(x[k * n + j]);
    const DType v = static_cast<DType>(flat);
    o[j] = req == kAddTo ? static_cast<DType>(o[j] + v) : v;
  }
};

/*! \brief column j of o (nd, n) (req) the coordinates of flat index x[j]; the first one is
 *         not reduced (1.9.1's rule). */
struct unravel {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t j, Dims t, index_t n, const DType* x, DType* o,
                                  int req) {
    int64_t flat = static_cast<int64_t>(x[j]);
    for (int k = t.nd - 1; k >= 0; --k) {
      int64_t coord = flat;
      if (k > 0) {
        coord = flat % t.d[k];
        flat /= t.d[k];
      }
      const DType v = static_cast<DType>(coord);
      DType& dst = o[k * n + j];
      dst = req == kAddTo ? static_cast<DType>(dst + v) : v;
    }
  }
};

}  // namespace ravel_kernel

template <typename xpu>
void RavelCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                  const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                  const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const auto t = ravel_kernel::MakeDims(attrs.op->name.c_str(),
                                        nnvm::get<RavelParam>(attrs.parsed).shape);
  const index_t n = outputs[0].Size();
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<ravel_kernel::ravel, xpu>::Launch(
        ctx.get_stream<xpu>(), n, t, n, inputs[0].dptr<DType>(), outputs[0].dptr<DType>(),
        static_cast<int>(req[0]));
  });
}

template <typename xpu>
void UnravelCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const auto t = ravel_kernel::MakeDims(attrs.op->name.c_str(),
                                        nnvm::get<RavelParam>(attrs.parsed).shape);
  const index_t n = inputs[0].Size();
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<ravel_kernel::unravel, xpu>::Launch(
        ctx.get_stream<xpu>(), n, t, n, inputs[0].dptr<DType>(), outputs[0].dptr<DType>(),
        static_cast<int>(req[0]));
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_RAVEL_INL_H_
