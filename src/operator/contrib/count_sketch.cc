/*!
 * \file count_sketch.cc
 * \brief _contrib_count_sketch: project d-dimensional rows to out_dim dimensions with a count
 *        sketch, out[n, h[j]] += s[j] * data[n, j]. MXNet 1.9.1 registers it on the GPU only;
 *        this build has both (count_sketch-inl.h). h (bucket per input column) and s (sign per input column) are
 *        2-D (k, d) arrays of which the first row is used, as in 1.9.1.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./count_sketch-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(CountSketchParam);

namespace {

bool CountSketchShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                      mxnet::ShapeVector* out) {
  const CountSketchParam& p = nnvm::get<CountSketchParam>(attrs.parsed);
  if (p.out_dim <= 0) {
    MX_THROW(ValueError) << count_sketch::kOpName << ": expected out_dim > 0, got " << p.out_dim;
  }
  if (p.processing_batch_size <= 0) {
    MX_THROW(ValueError) << count_sketch::kOpName << ": expected processing_batch_size > 0, got "
                         << p.processing_batch_size;
  }
  const TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (d.ndim() < 2) {
    MX_THROW(ValueError) << count_sketch::kOpName << ": expected data of shape (N, d) or (N1, N2, N3, d), got "
                         << d;
  }
  const int64_t dim = d[d.ndim() - 1];
  static const char* names[] = {"data", "h", "s"};
  for (int i = 1; i < 3; ++i) {
    TShape& hs = (*in)[i];
    if (!shape_is_known(hs)) {
      hs = TShape(2, 1);
      hs[1] = dim;
    } else if (hs.ndim() != 2 || hs[1] != dim || hs[0] < 1) {
      MX_THROW(ValueError) << count_sketch::kOpName << ": expected " << names[i] << " of shape (1, " << dim
                           << ") for data shape " << d << ", got " << hs;
    }
  }
  TShape o = d;
  o[d.ndim() - 1] = p.out_dim;
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  return true;
}

bool CountSketchType(const nnvm::NodeAttrs&, std::vector<int>* in, std::vector<int>* out) {
  int t = (*in)[0] >= 0 ? (*in)[0] : (*out)[0];
  if (t < 0) return false;
  static const char* names[] = {"data", "h", "s"};
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i] >= 0 && (*in)[i] != t) {
      MX_THROW(TypeError) << count_sketch::kOpName << ": expected " << names[i] << " of dtype "
                          << mshadow::dtype_string(t) << " (one dtype for all inputs), got "
                          << mshadow::dtype_string((*in)[i]);
    }
    (*in)[i] = t;
  }
  TYPE_ASSIGN_CHECK(*out, 0, t);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_contrib_count_sketch)
.describe(R"code(Apply CountSketch to input: map a d-dimension data to k-dimension data"

Assume input data has shape (N, d), sign hash table s has shape (1, d),
index hash table h has shape (1, d) and mapping dimension out_dim = k,
each element in s is either +1 or -1, each element in h is random integer from 0 to k-1.
Then the operator computs:

.. math::
   out[h[i]] += data[i] * s[i]

Data of shape (N1, N2, N3, d) (any leading dimensions) is mapped row by row to
(N1, N2, N3, k). h and s may have more than one row; only the first is used. The gradient
flows to ``data`` only (``h`` and ``s`` get zero gradients). (MXNet 1.9.1 runs this operator
on GPU only; this build also runs it on CPU.)

Example::

   out_dim = 5
   x = [[1.2, 2.5, 3.4],[3.2, 5.7, 6.6]]
   h = [[0, 3, 4]]
   s = [[1, -1, 1]]
   mx.contrib.ndarray.count_sketch(data=x, h=h, s=s, out_dim = 5) = [[1.2, 0, 0, -2.5, 3.4],
                                                                     [3.2, 0, 0, -5.7, 6.6]]

)code" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr_parser(ParamParser<CountSketchParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"data", "h", "s"};
})
.set_attr<mxnet::FInferShape>("FInferShape", CountSketchShape)
.set_attr<nnvm::FInferType>("FInferType", CountSketchType)
.set_attr<FCompute>("FCompute<cpu>", CountSketchCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", [](const nnvm::ObjectPtr& n,
                                           const std::vector<nnvm::NodeEntry>& ograds) {
  return MakeGradNode("_backward__contrib_count_sketch", n,
                      {ograds[0], n->inputs[1], n->inputs[2]}, n->attrs.dict);
})
.add_argument("data", "NDArray-or-Symbol", "Input data to the CountSketchOp.")
.add_argument("h", "NDArray-or-Symbol", "The index vector")
.add_argument("s", "NDArray-or-Symbol", "The sign vector")
.add_arguments(CountSketchParam::__FIELDS__());

NNVM_REGISTER_OP(_backward__contrib_count_sketch)
.describe("Backward of _contrib_count_sketch: (out_grad, h, s) -> (data_grad, h_grad, s_grad) "
          "with data_grad[n, j] = s[j] * out_grad[n, h[j]] and zero h_grad, s_grad.")
.set_num_inputs(3)
.set_num_outputs(3)
.set_attr_parser(ParamParser<CountSketchParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", [](const nnvm::NodeAttrs& attrs,
                                                 mxnet::ShapeVector* in,
                                                 mxnet::ShapeVector* out) {
  const TShape& g = (*in)[0];
  if (!shape_is_known(g) || !shape_is_known((*in)[1])) return false;
  TShape d = g;
  d[g.ndim() - 1] = (*in)[1][1];
  SHAPE_ASSIGN_CHECK(*out, 0, d);
  SHAPE_ASSIGN_CHECK(*out, 1, (*in)[1]);
  SHAPE_ASSIGN_CHECK(*out, 2, (*in)[2]);
  return true;
})
.set_attr<nnvm::FInferType>("FInferType", [](const nnvm::NodeAttrs&, std::vector<int>* in,
                                              std::vector<int>* out) {
  for (auto& v : *out) v = (*in)[0];
  return (*in)[0] != -1;
})
.set_attr<FCompute>("FCompute<cpu>", CountSketchGradCompute<cpu>);

}  // namespace op
}  // namespace mxnet
