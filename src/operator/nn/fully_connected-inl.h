/*!
 * \file fully_connected-inl.h
 * \brief FullyConnected: out = data . weight^T + bias, with weight (num_hidden, K).
 *
 * flatten=True views data as (N, prod(shape[1:])) and gives (N, num_hidden); flatten=False
 * applies the layer to the last axis: (d0, ..., d_{n-2}, K) -> (d0, ..., d_{n-2}, num_hidden).
 * Forward and the two matrix gradients are single GEMMs on the blobs (OpenBLAS or cuBLAS);
 * the bias add is an element-wise kernel and the bias gradient a column-sum reduction.
 */
#ifndef MXNET_OPERATOR_NN_FULLY_CONNECTED_INL_H_
#define MXNET_OPERATOR_NN_FULLY_CONNECTED_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <sstream>
#include <string>
#include <vector>

#include "../blas_gemm.h"
#include "../tensor/broadcast_reduce_op-inl.h"
#include "../elemwise_op_common.h"
#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

namespace fullc {
enum FullyConnectedOpInputs { kData, kWeight, kBias };
enum FullyConnectedOpOutputs { kOut };
}  // namespace fullc

struct FullyConnectedParam : public dmlc::Parameter<FullyConnectedParam> {
  int num_hidden;
  bool no_bias;
  bool flatten;
  DMLC_DECLARE_PARAMETER(FullyConnectedParam) {
    DMLC_DECLARE_FIELD(num_hidden).set_lower_bound(1).describe("Number of hidden nodes of the output.");
    DMLC_DECLARE_FIELD(no_bias).set_default(false).describe("Whether to disable bias parameter.");
    DMLC_DECLARE_FIELD(flatten).set_default(true).describe(
        "Whether to collapse all but the first axis of the input data tensor.");
  }
  bool operator==(const FullyConnectedParam& other) const {
    return num_hidden == other.num_hidden && no_bias == other.no_bias && flatten == other.flatten;
  }
};

/*! \brief Rows (batch) and columns (in_features) of data's matrix view. */
inline void FCDataDims(const mxnet::TShape& dshape, bool flatten, index_t* rows, index_t* cols) {
  const int nd = dshape.ndim();
  if (flatten) {
    *rows = dshape[0];
    *cols = 1;
    for (int i = 1; i < nd; ++i) *cols *= dshape[i];
  } else {
    *cols = dshape[nd - 1];
    *rows = 1;
    for (int i = 0; i + 1 < nd; ++i) *rows *= dshape[i];
  }
}

/*! \brief "[H,K]" (K may be unknown: "[H,in_features]"). */
inline std::string FCWeightString(dim_t H, dim_t K) {
  std::ostringstream os;
  os << '[' << H << ',';
  if (K >= 0) os << K;
  else os << "in_features";
  os << ']';
  return os.str();
}

inline bool FullyConnectedShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                                mxnet::ShapeVector* out_shape) {
  const FullyConnectedParam& param = nnvm::get<FullyConnectedParam>(attrs.parsed);
  const size_t nin = param.no_bias ? 2 : 3;
  if (in_shape->size() != nin) {
    MX_THROW(ValueError) << "FullyConnected: expected " << nin << " inputs (data, weight"
                         << (param.no_bias ? "" : ", bias") << "), got " << in_shape->size();
  }
  CHECK_EQ(out_shape->size(), 1U);
  const mxnet::TShape dshape = (*in_shape)[fullc::kData];
  const mxnet::TShape wshape = (*in_shape)[fullc::kWeight];
  const dim_t H = param.num_hidden;
  // in_features from data (when known).
  dim_t K = -1;
  const int nd = dshape.ndim();
  if (ndim_is_known(dshape)) {
    if (nd < 1) {
      MX_THROW(ValueError) << "FullyConnected: expected data with at least 1 dimension, got "
                           << dshape;
    }
    if (param.flatten) {
      K = 1;  // (a 1-D input is a column: dshape[0] rows of one feature, as in MXNet)
      for (int i = 1; i < nd; ++i) {
        if (dshape[i] < 0) { K = -1; break; }
        K *= dshape[i];
      }
    } else {
      K = dshape[nd - 1];
    }
  }
  if (ndim_is_known(wshape)) {
    const bool bad = wshape.ndim() != 2 || (wshape[0] >= 0 && wshape[0] != H) ||
                     (K >= 0 && wshape[1] >= 0 && wshape[1] != K);
    if (bad) {
      std::ostringstream why;
      why << "num_hidden=" << H;
      if (K >= 0) why << ", in_features=" << K << " from data " << dshape;
      MX_THROW(ValueError) << "FullyConnected: expected weight of shape " << FCWeightString(H, K)
                           << " (" << why.str() << "), got " << wshape;
    }
    if (K < 0 && wshape[1] >= 0) K = wshape[1];
  }
  (*in_shape)[fullc::kWeight] = mxnet::TShape({H, K});
  if (!param.no_bias) {
    const mxnet::TShape& bshape = (*in_shape)[fullc::kBias];
    if (ndim_is_known(bshape) &&
        !(bshape.ndim() == 1 && (bshape[0] == H || bshape[0] < 0)) &&
        !(bshape.ndim() == 2 && bshape[0] == H && bshape[1] == 1)) {
      MX_THROW(ValueError) << "FullyConnected: expected bias of shape [" << H
                           << "] (num_hidden=" << H << "), got " << bshape;
    }
    if (!ndim_is_known(bshape)) (*in_shape)[fullc::kBias] = mxnet::TShape(1, H);
    else if (bshape.ndim() == 1) (*in_shape)[fullc::kBias][0] = H;
  }
  if (!ndim_is_known(dshape)) return false;
  mxnet::TShape oshape;
  if (param.flatten) {
    oshape = mxnet::TShape({dshape[0], H});
  } else {
    oshape = dshape;
    oshape[nd - 1] = H;
  }
  SHAPE_ASSIGN_CHECK(*out_shape, 0, oshape);
  return shape_is_known(dshape) && K >= 0;
}

/*! \brief out[i] += bias[i % H] over the (N, H) output. */
struct fc_add_bias {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* out, const DType* bias, index_t H) {
    out[i] += bias[i % H];
  }
};

template <typename xpu>
void FullyConnectedCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                           const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                           const std::vector<TBlob>& outputs) {
  const FullyConnectedParam& param = nnvm::get<FullyConnectedParam>(attrs.parsed);
  if (req[fullc::kOut] == kNullOp) return;
  index_t N, K;
  FCDataDims(inputs[fullc::kData].shape_, param.flatten, &N, &K);
  const index_t H = param.num_hidden;
  MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
    DType* out = outputs[0].dptr<DType>();
    const bool add = req[fullc::kOut] == kAddTo;
    Gemm<DType>(s, false, true, N, H, K, 1.0, inputs[fullc::kData].dptr<DType>(), K,
                inputs[fullc::kWeight].dptr<DType>(), K, add ? 1.0 : 0.0, out, H);
    if (!param.no_bias) {
      mxnet_op::Kernel<fc_add_bias, xpu>::Launch(s, N * H, out,
                                                 inputs[fullc::kBias].dptr<DType>(), H);
    }
  });
}

/*!
 * \brief inputs: out_grad, data, weight; outputs: data_grad, weight_grad[, bias_grad].
 *        data_grad = G . W, weight_grad = G^T . X, bias_grad = column sums of G.
 */
template <typename xpu>
void FullyConnectedGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                               const std::vector<TBlob>& inputs,
                               const std::vector<OpReqType>& req,
                               const std::vector<TBlob>& outputs) {
  const FullyConnectedParam& param = nnvm::get<FullyConnectedParam>(attrs.parsed);
  index_t N, K;
  FCDataDims(inputs[1].shape_, param.flatten, &N, &K);
  const index_t H = param.num_hidden;
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
    const DType* g = inputs[0].dptr<DType>();
    const DType* x = inputs[1].dptr<DType>();
    const DType* w = inputs[2].dptr<DType>();
    if (req[0] != kNullOp) {
      Gemm<DType>(s, false, false, N, K, H, 1.0, g, H, w, K, req[0] == kAddTo ? 1.0 : 0.0,
                  outputs[0].dptr<DType>(), K);
    }
    if (req[1] != kNullOp) {
      Gemm<DType>(s, true, false, H, K, N, 1.0, g, H, x, K, req[1] == kAddTo ? 1.0 : 0.0,
                  outputs[1].dptr<DType>(), K);
    }
    if (!param.no_bias && req[2] != kNullOp) {  // column sums of G: (N, H) -> (1, H)
      const ReducePlan p = MakeReducePlan(mxnet::TShape({N, H}), mxnet::TShape({1, H}));
      ReducePlanned<red::sum>(s, p, g, outputs[2].dptr<DType>(), req[2]);
    }
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_FULLY_CONNECTED_INL_H_
