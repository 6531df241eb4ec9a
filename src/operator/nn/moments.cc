/*!
 * \file moments.cc
 * \brief moments: mean and (biased) variance of data over `axes` (required, like 1.9.1; all axes reduced without keepdims gives (1,)), with
 *        optional kept dimensions. _backward_moments inputs (mean_grad, var_grad, data, mean);
 *        data_grad = mean_grad / N + var_grad * 2 * (x - mean) / N, N = reduced elements.
 *        GPU kernels: moments.cu.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "./moments-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(MomentsParam);

namespace {

/*! \brief The kept-dims shape of the moments (reduced axes set to 1). */
mxnet::TShape KeptShape(const mxnet::TShape& shape, const std::vector<bool>& reduced) {
  mxnet::TShape s = shape;
  for (int i = 0; i < shape.ndim(); ++i)
    if (reduced[i]) s[i] = 1;
  return s;
}

bool MomentsShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const MomentsParam& p = nnvm::get<MomentsParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  const std::vector<bool> reduced = ReducedAxes(p, d);
  mxnet::TShape oshape;
  if (p.keepdims) {
    oshape = KeptShape(d, reduced);
  } else {
    std::vector<dim_t> dims;
    for (int i = 0; i < d.ndim(); ++i)
      if (!reduced[i]) dims.push_back(d[i]);
    // Reducing every axis gives shape (1,), as MXNet's reductions do.
    if (dims.empty()) dims.push_back(1);
    oshape = mxnet::TShape(dims.begin(), dims.end());
  }
  SHAPE_ASSIGN_CHECK(*out, 0, oshape);
  SHAPE_ASSIGN_CHECK(*out, 1, oshape);
  return true;
}

/*! \brief For every input element, the flat index of its (kept-dims) moment. */
std::vector<index_t> MomentIndex(const mxnet::TShape& shape, const std::vector<bool>& reduced) {
  const mxnet::TShape kept = KeptShape(shape, reduced);
  std::vector<index_t> idx(shape.Size());
  std::vector<index_t> coord(shape.ndim(), 0);
  for (size_t flat = 0; flat < idx.size(); ++flat) {
    index_t o = 0;
    for (int k = 0; k < shape.ndim(); ++k) o = o * kept[k] + (reduced[k] ? 0 : coord[k]);
    idx[flat] = o;
    for (int k = shape.ndim() - 1; k >= 0; --k) {
      if (++coord[k] < shape[k]) break;
      coord[k] = 0;
    }
  }
  return idx;
}

template <typename DType>
void Assign(DType* dst, OpReqType req, double v) {
  if (req == kNullOp) return;
  *dst = req == kAddTo ? static_cast<DType>(*dst + v) : static_cast<DType>(v);
}

void MomentsCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const MomentsParam& p = nnvm::get<MomentsParam>(attrs.parsed);
  const mxnet::TShape& shape = inputs[0].shape_;
  const std::vector<bool> reduced = ReducedAxes(p, shape);
  const std::vector<index_t> idx = MomentIndex(shape, reduced);
  const size_t m = outputs[0].Size();
  const double n = m == 0 ? 0.0 : static_cast<double>(shape.Size()) / m;
  std::vector<double> mean(m, 0.0), var(m, 0.0);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* x = inputs[0].dptr<DType>();
    for (size_t i = 0; i < idx.size(); ++i) mean[idx[i]] += static_cast<double>(x[i]);
    for (double& v : mean) v /= n;
    for (size_t i = 0; i < idx.size(); ++i) {
      const double c = static_cast<double>(x[i]) - mean[idx[i]];
      var[idx[i]] += c * c;
    }
    for (size_t j = 0; j < m; ++j) {
      Assign(outputs[0].dptr<DType>() + j, req[0], mean[j]);
      Assign(outputs[1].dptr<DType>() + j, req[1], var[j] / n);
    }
  });
}

void MomentsGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  const MomentsParam& p = nnvm::get<MomentsParam>(attrs.parsed);
  const mxnet::TShape& shape = inputs[2].shape_;
  const std::vector<index_t> idx = MomentIndex(shape, ReducedAxes(p, shape));
  const double n = inputs[3].Size() == 0 ? 0.0
                                         : static_cast<double>(shape.Size()) / inputs[3].Size();
  MSHADOW_REAL_TYPE_SWITCH(inputs[2].type_flag_, DType, {
    const DType* gmean = inputs[0].dptr<DType>();
    const DType* gvar = inputs[1].dptr<DType>();
    const DType* x = inputs[2].dptr<DType>();
    const DType* mean = inputs[3].dptr<DType>();
    DType* gx = outputs[0].dptr<DType>();
    for (size_t i = 0; i < idx.size(); ++i) {
      const index_t j = idx[i];
      const double g = (static_cast<double>(gmean[j]) +
                        2.0 * static_cast<double>(gvar[j]) *
                            (static_cast<double>(x[i]) - static_cast<double>(mean[j]))) / n;
      Assign(gx + i, req[0], g);
    }
  });
}

}  // namespace

NNVM_REGISTER_OP(moments)
.describe(R"code(
Calculate the mean and variance of `data`.

The mean and variance are calculated by aggregating the contents of data across axes.
If x is 1-D and axes = [0] this is just the mean and variance of a vector.

Example:

     x = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
     mean, var = moments(data=x, axes=[0])
     mean = [4.0, 5.0, 6.0]
     var = [6.0, 6.0, 6.0]
     mean, var = moments(data=x, axes=[1])
     mean = [2.0, 5.0, 8.0]
     var = [0.66666667, 0.66666667, 0.66666667]
     mean, var = moments(data=x, axis=[0, 1])
     mean = [5.0]
     var = [6.66666667]

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(2)
.set_attr_parser(ParamParser<MomentsParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<nnvm::FListOutputNames>("FListOutputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"mean", "var"};
})
.set_attr<mxnet::FInferShape>("FInferShape", MomentsShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 2>)
.set_attr<FCompute>("FCompute<cpu>", MomentsCompute)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0], ograds[1], n->inputs[0],
                                       nnvm::NodeEntry{n, 0, 0}};
    return MakeGradNode("_backward_moments", n, heads, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input ndarray")
.add_arguments(MomentsParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_moments)
.describe("Backward of moments: (mean_grad, var_grad, data, mean) -> data_grad.")
.set_num_inputs(4)
.set_num_outputs(1)
.set_attr_parser(ParamParser<MomentsParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[2]);
  return shape_is_known((*out)[0]);
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                                              std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[2]);
  return (*out)[0] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", MomentsGradCompute)
.add_argument("mean_grad", "NDArray-or-Symbol", "Gradient of the mean output")
.add_argument("var_grad", "NDArray-or-Symbol", "Gradient of the var output")
.add_argument("data", "NDArray-or-Symbol", "Input data")
.add_argument("mean", "NDArray-or-Symbol", "The mean output of the forward moments")
.add_arguments(MomentsParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
