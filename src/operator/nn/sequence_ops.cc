/*!
 * \file sequence_ops.cc
 * \brief SequenceLast and SequenceReverse (SequenceMask is in legacy/sequence_mask.cc).
 *
 *        Data is (max_len, batch, ...) for axis=0 or (batch, max_len, ...) for axis=1; the
 *        optional sequence_length input is (batch,) in any dtype (fractions are truncated, as in
 *        MXNet 1.9.1). SequenceLast picks step len-1 of every sequence (output: data without the
 *        sequence axis); SequenceReverse reverses the first len steps of every sequence and
 *        keeps the rest (axis=0 only, like 1.9.1). Their backwards route the output gradient
 *        back to the positions it came from; sequence_length gets gradient 0. The kernels,
 *        for both devices, are in sequence_ops-inl.h.
 */
#include <string>
#include <vector>

#include "./sequence_ops-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(SequenceOpParam);

namespace {

bool SequenceShapeCommon(const char* op, const SequenceOpParam& p, mxnet::ShapeVector* in) {
  const TShape& d = (*in)[0];
  if (!ndim_is_known(d)) return false;
  if (d.ndim() < 2) {
    MX_THROW(ValueError) << op << ": data must have at least 2 dimensions, got " << d;
  }
  if (p.use_sequence_length) {
    const TShape& s = (*in)[1];
    if (ndim_is_known(s) && (s.ndim() != 1 || (s[0] >= 0 && d[1 - p.axis] >= 0 &&
                                               s[0] != d[1 - p.axis]))) {
      MX_THROW(ValueError) << op << ": sequence_length must have shape (batch_size,) = ("
                           << d[1 - p.axis] << ",) for data " << d << " with axis=" << p.axis
                           << ", got " << s;
    }
    SHAPE_ASSIGN_CHECK(*in, 1, TShape({d[1 - p.axis]}));
  }
  return true;
}

bool SequenceType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  if (!out->empty() && (*out)[0] >= 0) TYPE_ASSIGN_CHECK(*in, 0, (*out)[0]);
  const int dtype = (*in)[0];
  if (dtype < 0) return false;
  if (in->size() > 1 && (*in)[1] < 0) (*in)[1] = dtype;  // lengths keep their own dtype
  TYPE_ASSIGN_CHECK(*out, 0, dtype);
  return true;
}

std::vector<std::string> SequenceInputNames(const NodeAttrs& attrs) {
  return nnvm::get<SequenceOpParam>(attrs.parsed).use_sequence_length
             ? std::vector<std::string>{"data", "sequence_length"}
             : std::vector<std::string>{"data"};
}

uint32_t SequenceNumInputs(const NodeAttrs& attrs) {
  return nnvm::get<SequenceOpParam>(attrs.parsed).use_sequence_length ? 2 : 1;
}

// ---- SequenceLast ------------------------------------------------------------------------

bool SequenceLastShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                       mxnet::ShapeVector* out) {
  const SequenceOpParam& p = CheckedSequenceParam("SequenceLast", attrs, 1);
  if (!SequenceShapeCommon("SequenceLast", p, in)) return false;
  const TShape& d = (*in)[0];
  std::vector<dim_t> dims;
  for (int i = 0; i < d.ndim(); ++i) if (i != p.axis) dims.push_back(d[i]);
  const TShape out_shape(dims.begin(), dims.end());
  if (d[p.axis] == 0 && shape_is_known(out_shape) && out_shape.Size() != 0) {
    MX_THROW(ValueError) << "SequenceLast: data " << d << " has no steps along axis " << p.axis
                         << ", so its sequences have no last element";
  }
  SHAPE_ASSIGN_CHECK(*out, 0, out_shape);
  return shape_is_known(d);
}

// ---- SequenceReverse ---------------------------------------------------------------------

bool SequenceReverseShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                          mxnet::ShapeVector* out) {
  const SequenceOpParam& p = CheckedSequenceParam("SequenceReverse", attrs, 0);
  if (!out->empty() && ndim_is_known((*out)[0])) SHAPE_ASSIGN_CHECK(*in, 0, (*out)[0]);
  if (!SequenceShapeCommon("SequenceReverse", p, in)) return false;
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return shape_is_known((*in)[0]);
}

nnvm::FGradient SequenceGradient(const char* backward_op) {
  return [backward_op](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads{ograds[0]};
    if (n->inputs.size() > 1) heads.push_back(n->inputs[1]);
    return MakeGradNode(backward_op, n, heads, n->attrs.dict);
  };
}

}  // namespace

NNVM_REGISTER_OP(SequenceLast)
.describe(R"code(Takes the last element of a sequence.

This function takes an n-dimensional input array of the form
[max_sequence_length, batch_size, other_feature_dims] and returns a (n-1)-dimensional array
of the form [batch_size, other_feature_dims].

Parameter `sequence_length` is used to handle variable-length sequences. `sequence_length` should be
an input array of positive ints of dimension [batch_size]. To use this parameter,
set `use_sequence_length` to `True`, otherwise each example in the batch is assumed
to have the max sequence length.

Example::

   x = [[[  1.,   2.,   3.],
         [  4.,   5.,   6.],
         [  7.,   8.,   9.]],

        [[ 10.,   11.,   12.],
         [ 13.,   14.,   15.],
         [ 16.,   17.,   18.]],

        [[  19.,   20.,   21.],
         [  22.,   23.,   24.],
         [  25.,   26.,   27.]]]

   // returns last sequence when sequence_length parameter is not used
   SequenceLast(x) = [[  19.,   20.,   21.],
                      [  22.,   23.,   24.],
                      [  25.,   26.,   27.]]

   // sequence_length is used
   SequenceLast(x, sequence_length=[1,1,1], use_sequence_length=True) =
            [[  1.,   2.,   3.],
             [  4.,   5.,   6.],
             [  7.,   8.,   9.]]

   // sequence_length is used
   SequenceLast(x, sequence_length=[1,2,3], use_sequence_length=True) =
            [[  1.,    2.,   3.],
             [  13.,  14.,  15.],
             [  25.,  26.,  27.]]

)code" ADD_FILELINE)
.set_num_inputs(SequenceNumInputs)
.set_num_outputs(1)
.set_attr_parser(ParamParser<SequenceOpParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", SequenceInputNames)
.set_attr<mxnet::FInferShape>("FInferShape", SequenceLastShape)
.set_attr<nnvm::FInferType>("FInferType", SequenceType)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};  // the GPU's lengths
})
.set_attr<FCompute>("FCompute<cpu>", SequenceLastCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", SequenceGradient("_backward_SequenceLast"))
.add_argument("data", "NDArray-or-Symbol",
              "n-dimensional input array of the form [max_sequence_length, batch_size, "
              "other_feature_dims] where n>2")
.add_argument("sequence_length", "NDArray-or-Symbol",
              "vector of sequence lengths of the form [batch_size]")
.add_arguments(SequenceOpParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_SequenceLast)
.describe("Backward of SequenceLast: (out_grad[, sequence_length]) -> (data_grad"
          "[, sequence_length_grad = 0]).")
.set_num_inputs(SequenceNumInputs)
.set_num_outputs(SequenceNumInputs)
.set_attr_parser(ParamParser<SequenceOpParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};  // the GPU's lengths
})
.set_attr<FCompute>("FCompute<cpu>", SequenceLastGradCompute<cpu>)
.add_arguments(SequenceOpParam::__FIELDS__());

NNVM_REGISTER_OP(SequenceReverse)
.describe(R"code(Reverses the elements of each sequence.

This function takes an n-dimensional input array of the form [max_sequence_length, batch_size, other_feature_dims]
and returns an array of the same shape.

Parameter `sequence_length` is used to handle variable-length sequences.
`sequence_length` should be an input array of positive ints of dimension [batch_size].
To use this parameter, set `use_sequence_length` to `True`,
otherwise each example in the batch is assumed to have the max sequence length.

Example::

   x = [[[  1.,   2.,   3.],
         [  4.,   5.,   6.]],

        [[  7.,   8.,   9.],
         [ 10.,  11.,  12.]],

        [[ 13.,  14.,   15.],
         [ 16.,  17.,   18.]]]

   // Batch 1
   B1 = [[  1.,   2.,   3.],
         [  7.,   8.,   9.],
         [ 13.,  14.,  15.]]

   // Batch 2
   B2 = [[  4.,   5.,   6.],
         [ 10.,  11.,  12.],
         [ 16.,  17.,  18.]]

   // returns reverse sequence when sequence_length parameter is not used
   SequenceReverse(x) = [[[ 13.,  14.,   15.],
                          [ 16.,  17.,   18.]],

                         [[  7.,   8.,   9.],
                          [ 10.,  11.,  12.]],

                         [[  1.,   2.,   3.],
                          [  4.,   5.,   6.]]]

   // sequence_length [2,2] means 2 rows of
   // both batch B1 and B2 will be reversed.
   SequenceReverse(x, sequence_length=[2,2], use_sequence_length=True) =
                     [[[  7.,   8.,   9.],
                       [ 10.,  11.,  12.]],

                      [[  1.,   2.,   3.],
                       [  4.,   5.,   6.]],

                      [[ 13.,  14.,   15.],
                       [ 16.,  17.,   18.]]]

)code" ADD_FILELINE)
.set_num_inputs(SequenceNumInputs)
.set_num_outputs(1)
.set_attr_parser(ParamParser<SequenceOpParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", SequenceInputNames)
.set_attr<mxnet::FInferShape>("FInferShape", SequenceReverseShape)
.set_attr<nnvm::FInferType>("FInferType", SequenceType)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};  // the GPU's lengths
})
.set_attr<FCompute>("FCompute<cpu>", SequenceReverseCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", SequenceGradient("_backward_SequenceReverse"))
.add_argument("data", "NDArray-or-Symbol",
              "n-dimensional input array of the form [max_sequence_length, batch_size, other "
              "dims] where n>2 ")
.add_argument("sequence_length", "NDArray-or-Symbol",
              "vector of sequence lengths of the form [batch_size]")
.add_arguments(SequenceOpParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_SequenceReverse)
.describe("Backward of SequenceReverse: (out_grad[, sequence_length]) -> (data_grad"
          "[, sequence_length_grad = 0]).")
.set_num_inputs(SequenceNumInputs)
.set_num_outputs(SequenceNumInputs)
.set_attr_parser(ParamParser<SequenceOpParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<FResourceRequest>("FResourceRequest", [](const NodeAttrs& attrs) {
  return std::vector<ResourceRequest>{ResourceRequest::kTempSpace};  // the GPU's lengths
})
.set_attr<FCompute>("FCompute<cpu>", SequenceReverseGradCompute<cpu>)
.add_arguments(SequenceOpParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
