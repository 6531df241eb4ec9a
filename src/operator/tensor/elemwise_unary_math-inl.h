/*!
 * \file elemwise_unary_math-inl.h
 * \brief Registration helpers shared by the unary math operator files
 *        (elemwise_unary_op_math.cc, elemwise_unary_op_hyperbolic.cc).
 */
#ifndef MXNET_OPERATOR_TENSOR_ELEMWISE_UNARY_MATH_INL_H_
#define MXNET_OPERATOR_TENSOR_ELEMWISE_UNARY_MATH_INL_H_

#include "./elemwise_unary_op-inl.h"
#include "./higher_order_grad-inl.h"

/*! \brief A unary math op whose gradient op reads the forward input x. */
#define MXNET_UNARY_MATH_USE_IN(name, functor, doc)                                     \
  MXNET_OPERATOR_REGISTER_UNARY(name)                                                   \
  .describe(doc ADD_FILELINE)                                                           \
  .set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, functor>)                  \
  .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseIn{"_backward_" #name})

/*! \brief A unary math op whose gradient op reads the forward output y. */
#define MXNET_UNARY_MATH_USE_OUT(name, functor, doc)                                    \
  MXNET_OPERATOR_REGISTER_UNARY(name)                                                   \
  .describe(doc ADD_FILELINE)                                                           \
  .set_attr<FCompute>("FCompute<cpu>", UnaryOp::Compute<cpu, functor>)                  \
  .set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseOut{"_backward_" #name})

#endif  // MXNET_OPERATOR_TENSOR_ELEMWISE_UNARY_MATH_INL_H_
