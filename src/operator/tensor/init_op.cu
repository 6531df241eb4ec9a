/*!
 * \file init_op.cu
 * \brief GPU kernels of the init operators: the functors of init_op-inl.h on the GPU.
 */
#include "./init_op-inl.h"

namespace mxnet {
namespace op {

NNVM_REGISTER_OP(_zeros_without_dtype).set_attr<FCompute>("FCompute<gpu>", FillCompute<gpu, 0>);
NNVM_REGISTER_OP(_zeros).set_attr<FCompute>("FCompute<gpu>", FillCompute<gpu, 0>);
NNVM_REGISTER_OP(_ones).set_attr<FCompute>("FCompute<gpu>", FillCompute<gpu, 1>);
NNVM_REGISTER_OP(_full).set_attr<FCompute>("FCompute<gpu>", FullCompute<gpu>);
NNVM_REGISTER_OP(_arange).set_attr<FCompute>("FCompute<gpu>", RangeCompute<gpu>);
NNVM_REGISTER_OP(_linspace).set_attr<FCompute>("FCompute<gpu>", LinspaceCompute<gpu>);
NNVM_REGISTER_OP(_eye).set_attr<FCompute>("FCompute<gpu>", EyeCompute<gpu>);
NNVM_REGISTER_OP(zeros_like).set_attr<FCompute>("FCompute<gpu>", FillCompute<gpu, 0>);
NNVM_REGISTER_OP(ones_like).set_attr<FCompute>("FCompute<gpu>", FillCompute<gpu, 1>);

}  // namespace op
}  // namespace mxnet
