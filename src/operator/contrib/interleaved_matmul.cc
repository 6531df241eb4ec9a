/*!
 * \file interleaved_matmul.cc
 * \brief The fused multi-head attention products of MXNet 1.x's contrib namespace, on inputs
 *        whose projections are interleaved per head in the last dimension (time-major layout):
 *
 *   _contrib_interleaved_matmul_selfatt_qk(qkv (L, B, H*3*D)) -> (B*H, L, L)
 *       out[b*H+h] = (Q_bh / sqrt(D)) . K_bh^T      qkv[l, b, h*3*D + {0, D, 2D} + d] = Q, K, V
 *   _contrib_interleaved_matmul_selfatt_valatt(qkv, att (B*H, L, L)) -> (L, B, H*D)
 *       out[:, b, h*D:(h+1)*D] = att[b*H+h] . V_bh
 *   _contrib_interleaved_matmul_encdec_qk(q (Lq, B, H*D), kv (Lk, B, H*2*D)) -> (B*H, Lq, Lk)
 *       out[b*H+h] = (Q_bh / sqrt(D)) . K_bh^T      kv[l, b, h*2*D + {0, D} + d] = K, V
 *   _contrib_interleaved_matmul_encdec_valatt(kv, att (B*H, Lq, Lk)) -> (Lq, B, H*D)
 *       out[:, b, h*D:(h+1)*D] = att[b*H+h] . V_bh
 *
 *        Every per-(batch, head) matrix is a strided view of the input, so each product is one
 *        GEMM batched over the (batch, head) pairs, with row and batch strides and no copy
 *        (interleaved_matmul-inl.h, for both devices). Gradients are the transposed products, written into
 *        the same interleaved layout; the parts of an input a product does not read (V in the qk
 *        ops, Q and K in the valatt ops) get a zero gradient.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "./interleaved_matmul-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(InterleavedMatMulParam);

using interleaved::Attention;
using interleaved::AttentionBackward;
using interleaved::AttentionForward;
using interleaved::AttentionShape;

namespace {

/*! \brief The backward op's outputs have the forward inputs' shapes (inputs 1..n). */
bool AttentionBackwardShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                            mxnet::ShapeVector* out) {
  for (size_t i = 0; i < out->size(); ++i) {
    if (!shape_is_known((*in)[1 + i])) return false;
    SHAPE_ASSIGN_CHECK(*out, i, (*in)[1 + i]);
  }
  return true;
}

bool AttentionBackwardType(const nnvm::NodeAttrs& attrs, std::vector<int>* in,
                           std::vector<int>* out) {
  for (size_t i = 0; i < out->size(); ++i) TYPE_ASSIGN_CHECK(*out, i, (*in)[0]);
  return (*in)[0] != -1;
}

}  // namespace

// The backward op first, so that the arguments chained after the macro go to the forward op.
#define MXNET_REGISTER_INTERLEAVED_MATMUL(NAME, KIND, NIN, ARGS, DOC)                         \
  NNVM_REGISTER_OP(_backward_interleaved_matmul_##NAME)                                       \
  .set_num_inputs(NIN + 1)                                                                    \
  .set_num_outputs(NIN)                                                                       \
  .set_attr_parser(ParamParser<InterleavedMatMulParam>)                                       \
  .set_attr<nnvm::TIsBackward>("TIsBackward", true)                                           \
  .set_attr<mxnet::FInferShape>("FInferShape", AttentionBackwardShape)                        \
  .set_attr<nnvm::FInferType>("FInferType", AttentionBackwardType)                            \
  .set_attr<FCompute>("FCompute<cpu>", (AttentionBackward<cpu, KIND>));                              \
  NNVM_REGISTER_OP(_contrib_interleaved_matmul_##NAME)                                        \
  .describe(DOC ADD_FILELINE)                                                                 \
  .set_num_inputs(NIN)                                                                        \
  .set_num_outputs(1)                                                                         \
  .set_attr_parser(ParamParser<InterleavedMatMulParam>)                                       \
  .set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {            \
    return std::vector<std::string> ARGS;                                                     \
  })                                                                                          \
  .set_attr<mxnet::FInferShape>("FInferShape", AttentionShape<KIND>)                          \
  .set_attr<nnvm::FInferType>("FInferType", ElemwiseType<NIN, 1>)                             \
  .set_attr<FCompute>("FCompute<cpu>", (AttentionForward<cpu, KIND>))                                \
  .set_attr<nnvm::FGradient>("FGradient",                                                     \
                             ElemwiseGradUseIn{"_backward_interleaved_matmul_" #NAME})

MXNET_REGISTER_INTERLEAVED_MATMUL(selfatt_qk, Attention::kSelfQK, 1, {"queries_keys_values"},
    R"code(Attention scores of self attention from queries, keys and values interleaved per head.

queries_keys_values has shape (seq_length, batch_size, heads * 3 * head_dim); for each head its
last dimension holds the head's query, key and value projections in that order. The output,
of shape (batch_size * heads, seq_length, seq_length), is Q . K^T / sqrt(head_dim) per head.
)code")
.add_argument("queries_keys_values", "NDArray-or-Symbol", "Interleaved queries, keys and values")
.add_arguments(InterleavedMatMulParam::__FIELDS__());

MXNET_REGISTER_INTERLEAVED_MATMUL(selfatt_valatt, Attention::kSelfValAtt, 2,
                                  ({"queries_keys_values", "attention"}),
    R"code(Self-attention output: the attention maps applied to the interleaved values.

attention has shape (batch_size * heads, seq_length, seq_length); the output, of shape
(seq_length, batch_size, heads * head_dim), is attention . V per head.
)code")
.add_argument("queries_keys_values", "NDArray-or-Symbol", "Queries, keys and values interleaved")
.add_argument("attention", "NDArray-or-Symbol", "Attention maps")
.add_arguments(InterleavedMatMulParam::__FIELDS__());

MXNET_REGISTER_INTERLEAVED_MATMUL(encdec_qk, Attention::kEncDecQK, 2,
                                  ({"queries", "keys_values"}),
    R"code(Attention scores of encoder-decoder attention.

queries has shape (query_length, batch_size, heads * head_dim); keys_values has shape
(key_length, batch_size, heads * 2 * head_dim) with each head's key and value interleaved. The
output, of shape (batch_size * heads, query_length, key_length), is Q . K^T / sqrt(head_dim).
)code")
.add_argument("queries", "NDArray-or-Symbol", "Queries")
.add_argument("keys_values", "NDArray-or-Symbol", "Keys and values interleaved")
.add_arguments(InterleavedMatMulParam::__FIELDS__());

MXNET_REGISTER_INTERLEAVED_MATMUL(encdec_valatt, Attention::kEncDecValAtt, 2,
                                  ({"keys_values", "attention"}),
    R"code(Encoder-decoder attention output: the attention maps applied to the values.

attention has shape (batch_size * heads, query_length, key_length); the output, of shape
(query_length, batch_size, heads * head_dim), is attention . V per head.
)code")
.add_argument("keys_values", "NDArray-or-Symbol", "Keys and values interleaved")
.add_argument("attention", "NDArray-or-Symbol", "Attention maps")
.add_arguments(InterleavedMatMulParam::__FIELDS__());

#undef MXNET_REGISTER_INTERLEAVED_MATMUL

}  // namespace op
}  // namespace mxnet
