/*!
 * \file np_alias_ops.cc
 * \brief MXNet 1.9.1's mx.np / mx.npx operator names for classic operators whose semantics are
 *        the NumPy ones once the Python front end has brought the inputs to one dtype (it
 *        promotes mixed dtypes and casts integers to float for the float-valued functions
 *        before calling them). A graph records the classic operator's name.
 */
#include <nnvm/op.h>

namespace mxnet {
namespace op {
NNVM_REGISTER_OP(exp).add_alias("_npi_exp");
NNVM_REGISTER_OP(log).add_alias("_npi_log");
NNVM_REGISTER_OP(log10).add_alias("_npi_log10");
NNVM_REGISTER_OP(log2).add_alias("_npi_log2");
NNVM_REGISTER_OP(log1p).add_alias("_npi_log1p");
NNVM_REGISTER_OP(expm1).add_alias("_npi_expm1");
NNVM_REGISTER_OP(sqrt).add_alias("_npi_sqrt");
NNVM_REGISTER_OP(cbrt).add_alias("_npi_cbrt");
NNVM_REGISTER_OP(square).add_alias("_npi_square");
NNVM_REGISTER_OP(reciprocal).add_alias("_npi_reciprocal");
NNVM_REGISTER_OP(abs).add_alias("_npi_abs").add_alias("_npi_absolute");
NNVM_REGISTER_OP(negative).add_alias("_npi_negative");
NNVM_REGISTER_OP(sign).add_alias("_npi_sign");
NNVM_REGISTER_OP(sin).add_alias("_npi_sin");
NNVM_REGISTER_OP(cos).add_alias("_npi_cos");
NNVM_REGISTER_OP(tan).add_alias("_npi_tan");
NNVM_REGISTER_OP(arcsin).add_alias("_npi_arcsin");
NNVM_REGISTER_OP(arccos).add_alias("_npi_arccos");
NNVM_REGISTER_OP(arctan).add_alias("_npi_arctan");
NNVM_REGISTER_OP(sinh).add_alias("_npi_sinh");
NNVM_REGISTER_OP(cosh).add_alias("_npi_cosh");
NNVM_REGISTER_OP(tanh).add_alias("_npi_tanh");
NNVM_REGISTER_OP(arcsinh).add_alias("_npi_arcsinh");
NNVM_REGISTER_OP(arccosh).add_alias("_npi_arccosh");
NNVM_REGISTER_OP(arctanh).add_alias("_npi_arctanh");
NNVM_REGISTER_OP(degrees).add_alias("_npi_degrees");
NNVM_REGISTER_OP(radians).add_alias("_npi_radians");
NNVM_REGISTER_OP(floor).add_alias("_npi_floor");
NNVM_REGISTER_OP(ceil).add_alias("_npi_ceil");
NNVM_REGISTER_OP(trunc).add_alias("_npi_trunc");
NNVM_REGISTER_OP(fix).add_alias("_npi_fix");
NNVM_REGISTER_OP(rint).add_alias("_npi_rint");
NNVM_REGISTER_OP(broadcast_add).add_alias("_npi_add");
NNVM_REGISTER_OP(broadcast_sub).add_alias("_npi_subtract");
NNVM_REGISTER_OP(broadcast_mul).add_alias("_npi_multiply");
NNVM_REGISTER_OP(broadcast_div).add_alias("_npi_true_divide");
NNVM_REGISTER_OP(broadcast_mod).add_alias("_npi_mod");
NNVM_REGISTER_OP(broadcast_power).add_alias("_npi_power");
NNVM_REGISTER_OP(broadcast_hypot).add_alias("_npi_hypot");
NNVM_REGISTER_OP(_plus_scalar).add_alias("_npi_add_scalar");
NNVM_REGISTER_OP(_minus_scalar).add_alias("_npi_subtract_scalar");
NNVM_REGISTER_OP(_rminus_scalar).add_alias("_npi_rsubtract_scalar");
NNVM_REGISTER_OP(_mul_scalar).add_alias("_npi_multiply_scalar");
NNVM_REGISTER_OP(_div_scalar).add_alias("_npi_true_divide_scalar");
NNVM_REGISTER_OP(_rdiv_scalar).add_alias("_npi_rtrue_divide_scalar");
NNVM_REGISTER_OP(_mod_scalar).add_alias("_npi_mod_scalar");
NNVM_REGISTER_OP(_rmod_scalar).add_alias("_npi_rmod_scalar");
NNVM_REGISTER_OP(_power_scalar).add_alias("_npi_power_scalar");
NNVM_REGISTER_OP(_rpower_scalar).add_alias("_npi_rpower_scalar");
NNVM_REGISTER_OP(_copy).add_alias("_np_copy");
NNVM_REGISTER_OP(transpose).add_alias("_np_transpose");
NNVM_REGISTER_OP(squeeze).add_alias("_np_squeeze");
NNVM_REGISTER_OP(Concat).add_alias("_npi_concatenate");
NNVM_REGISTER_OP(stack).add_alias("_npi_stack");
NNVM_REGISTER_OP(_zeros).add_alias("_npi_zeros");
NNVM_REGISTER_OP(_ones).add_alias("_npi_ones");
NNVM_REGISTER_OP(_arange).add_alias("_npi_arange");
NNVM_REGISTER_OP(_eye).add_alias("_npi_eye");
NNVM_REGISTER_OP(_random_randint).add_alias("_npi_random_randint");
NNVM_REGISTER_OP(relu).add_alias("_npx_relu");
NNVM_REGISTER_OP(sigmoid).add_alias("_npx_sigmoid");
NNVM_REGISTER_OP(softmax).add_alias("_npx_softmax");
NNVM_REGISTER_OP(log_softmax).add_alias("_npx_log_softmax");
NNVM_REGISTER_OP(BatchNorm).add_alias("_npx_batch_norm");
NNVM_REGISTER_OP(Convolution).add_alias("_npx_convolution");
NNVM_REGISTER_OP(Deconvolution).add_alias("_npx_deconvolution");
NNVM_REGISTER_OP(FullyConnected).add_alias("_npx_fully_connected");
NNVM_REGISTER_OP(Pooling).add_alias("_npx_pooling");
NNVM_REGISTER_OP(SequenceMask).add_alias("_npx_sequence_mask");
NNVM_REGISTER_OP(batch_dot).add_alias("_npx_batch_dot");
NNVM_REGISTER_OP(smooth_l1).add_alias("_npx_smooth_l1");
NNVM_REGISTER_OP(RNN).add_alias("_npx_rnn");
NNVM_REGISTER_OP(ROIPooling).add_alias("_npx_roi_pooling");
NNVM_REGISTER_OP(_contrib_MultiBoxPrior).add_alias("_npx_multibox_prior");
NNVM_REGISTER_OP(_contrib_MultiBoxTarget).add_alias("_npx_multibox_target");
NNVM_REGISTER_OP(_contrib_MultiBoxDetection).add_alias("_npx_multibox_detection");
NNVM_REGISTER_OP(broadcast_to).add_alias("_npi_broadcast_to");
NNVM_REGISTER_OP(reverse).add_alias("_npi_flip");

}  // namespace op
}  // namespace mxnet
