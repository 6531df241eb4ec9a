/*!
 * \file sequence_mask.cc
 * \brief Registration of SequenceMask (legacy OperatorProperty).
 */
#include "./sequence_mask-inl.h"

namespace mxnet {
namespace op {

Operator* SequenceMaskProp::CreateOperator(Context ctx) const {
#if MXNET_USE_CUDA
  if (ctx.dev_mask() == gpu::kDevMask) return CreateSequenceMaskGPU(param_);
#endif
  if (ctx.dev_mask() != cpu::kDevMask) {
    MX_THROW(NotImplementedError) << "SequenceMask: no implementation for " << ctx;
  }
  return new SequenceMaskOp<cpu>(param_);
}

DMLC_REGISTER_PARAMETER(SequenceMaskParam);

MXNET_REGISTER_OP_PROPERTY(SequenceMask, SequenceMaskProp)
.describe(R"code(Sets all elements outside the sequence to a constant value.

This function takes an n-dimensional input array of the form
[max_sequence_length, batch_size, other_feature_dims] and returns an array of the same shape.

Parameter `sequence_length` is used to handle variable-length sequences. `sequence_length`
should be an input array of positive ints of dimension [batch_size].
To use this parameter, set `use_sequence_length` to `True`,
otherwise each example in the batch is assumed to have the max sequence length and
this operator works as the `identity` operator.

Example::

   x = [[[  1.,   2.,   3.],
         [  4.,   5.,   6.]],
        [[  7.,   8.,   9.],
         [ 10.,  11.,  12.]]]

   SequenceMask(x, sequence_length=[1,1], use_sequence_length=True, value=1) =
        [[[  1.,   2.,   3.],
          [  4.,   5.,   6.]],
         [[  1.,   1.,   1.],
          [  1.,   1.,   1.]]]
)code" ADD_FILELINE)
.add_argument("data", "NDArray-or-Symbol",
              "n-dimensional input array of the form [max_sequence_length, batch_size, "
              "other_feature_dims] where n>2")
.add_argument("sequence_length", "NDArray-or-Symbol",
              "vector of sequence lengths of the form [batch_size]")
.add_arguments(SequenceMaskParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
