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
 *        GEMM with a row stride and no copy. Gradients are the transposed products, written into
 *        the same interleaved layout; the parts of an input a product does not read (V in the qk
 *        ops, Q and K in the valatt ops) get a zero gradient.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <string>
#include <vector>

#include "../blas_gemm.h"
#include "../elemwise_op_common.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct InterleavedMatMulParam : public dmlc::Parameter<InterleavedMatMulParam> {
  int heads;
  DMLC_DECLARE_PARAMETER(InterleavedMatMulParam) {
    DMLC_DECLARE_FIELD(heads).set_lower_bound(1).describe("Set number of heads");
  }
};

DMLC_REGISTER_PARAMETER(InterleavedMatMulParam);

namespace {

enum class Attention { kSelfQK, kSelfValAtt, kEncDecQK, kEncDecValAtt };

const char* OpName(Attention kind) {
  switch (kind) {
    case Attention::kSelfQK: return "_contrib_interleaved_matmul_selfatt_qk";
    case Attention::kSelfValAtt: return "_contrib_interleaved_matmul_selfatt_valatt";
    case Attention::kEncDecQK: return "_contrib_interleaved_matmul_encdec_qk";
    case Attention::kEncDecValAtt: return "_contrib_interleaved_matmul_encdec_valatt";
  }
  return "";
}

/*! \brief The dimensions of one call: L* sequence lengths, B batch, H heads, D head size. */
struct AttentionDims {
  index_t lq = 0, lk = 0, batch = 0, heads = 0, head_dim = 0;
};

/*! \brief head_dim from a (L, B, H*parts*D) input, or throws naming the op and shape. */
index_t HeadDim(Attention kind, const char* arg, const mxnet::TShape& s, int heads, int parts) {
  if (s.ndim() != 3) {
    MX_THROW(ValueError) << OpName(kind) << ": expected " << arg
                         << " of shape (seq_length, batch_size, heads * " << parts
                         << " * head_dim), got shape " << s;
  }
  if (s[2] % (static_cast<index_t>(heads) * parts) != 0 || s[2] == 0) {
    MX_THROW(ValueError) << OpName(kind) << ": the last dimension of " << arg << " (" << s[2]
                         << ", shape " << s << ") must be a positive multiple of heads * "
                         << parts << " = " << heads * parts;
  }
  return s[2] / (static_cast<index_t>(heads) * parts);
}

void CheckAttention(Attention kind, const mxnet::TShape& att, const AttentionDims& d) {
  const mxnet::TShape want({d.batch * d.heads, d.lq, d.lk});
  if (att != want) {
    MX_THROW(ValueError) << OpName(kind) << ": expected attention of shape " << want
                         << " (batch_size * heads, query length, key length), got " << att;
  }
}

/*! \brief The dimensions of a call from its input shapes (all known), checked. */
AttentionDims Dims(Attention kind, int heads, const mxnet::TShape& a, const mxnet::TShape& b) {
  AttentionDims d;
  d.heads = heads;
  switch (kind) {
    case Attention::kSelfQK:
    case Attention::kSelfValAtt:
      d.head_dim = HeadDim(kind, "queries_keys_values", a, heads, 3);
      d.lq = d.lk = a[0];
      d.batch = a[1];
      if (kind == Attention::kSelfValAtt) CheckAttention(kind, b, d);
      break;
    case Attention::kEncDecQK:
      d.head_dim = HeadDim(kind, "queries", a, heads, 1);
      d.lq = a[0];
      d.batch = a[1];
      if (HeadDim(kind, "keys_values", b, heads, 2) != d.head_dim || b[1] != d.batch) {
        MX_THROW(ValueError) << OpName(kind) << ": queries " << a << " and keys_values " << b
                             << " disagree on batch size or head size for " << heads << " heads";
      }
      d.lk = b[0];
      break;
    case Attention::kEncDecValAtt:
      d.head_dim = HeadDim(kind, "keys_values", a, heads, 2);
      d.lk = a[0];
      d.batch = a[1];
      if (b.ndim() != 3) {
        MX_THROW(ValueError) << OpName(kind) << ": expected a 3-d attention, got shape " << b;
      }
      d.lq = b[1];
      CheckAttention(kind, b, d);
      break;
  }
  return d;
}

mxnet::TShape OutputShape(Attention kind, const AttentionDims& d) {
  if (kind == Attention::kSelfQK || kind == Attention::kEncDecQK)
    return mxnet::TShape({d.batch * d.heads, d.lq, d.lk});
  return mxnet::TShape({d.lq, d.batch, d.heads * d.head_dim});
}

template <Attention kind>
bool AttentionShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const int heads = nnvm::get<InterleavedMatMulParam>(attrs.parsed).heads;
  for (const mxnet::TShape& s : *in)
    if (!shape_is_known(s)) return false;
  const AttentionDims d = Dims(kind, heads, (*in)[0], in->size() > 1 ? (*in)[1] : (*in)[0]);
  SHAPE_ASSIGN_CHECK(*out, 0, OutputShape(kind, d));
  return true;
}

/*! \brief The (b, h) block of `part` in a (L, B, H*parts*D) interleaved tensor. */
template <typename DType>
DType* HeadPtr(DType* base, const AttentionDims& d, int parts, int part, index_t b, index_t h) {
  return base + ((b * d.heads + h) * parts + part) * d.head_dim;
}

/*! \brief Row stride of a (L, B, H*parts*D) interleaved tensor. */
index_t RowStride(const AttentionDims& d, int parts) {
  return d.batch * d.heads * parts * d.head_dim;
}

/*!
 * \brief Zeroes (for a write request) the `part` of every head of an interleaved gradient that
 *        no product reads, so the gradient of the whole input is defined; kAddTo leaves it.
 */
template <typename DType>
void ZeroPart(DType* grad, const AttentionDims& d, index_t rows, int parts, int part,
              OpReqType req) {
  if (req != kWriteTo && req != kWriteInplace) return;
  const index_t groups = rows * d.batch * d.heads;
  #pragma omp parallel for
  for (index_t g = 0; g < groups; ++g) {
    DType* p = grad + (g * parts + part) * d.head_dim;
    for (index_t k = 0; k < d.head_dim; ++k) p[k] = DType(0);
  }
}

/*! \brief Where Q and K (qk ops) or V (valatt ops) are: the tensor's parts and the part index. */
struct Layout {
  int q_parts, q_part, k_parts, k_part;  // qk ops
  int v_parts, v_part;                   // valatt ops
};

Layout LayoutOf(Attention kind) {
  if (kind == Attention::kSelfQK || kind == Attention::kSelfValAtt) return {3, 0, 3, 1, 3, 2};
  return {1, 0, 2, 0, 2, 1};
}

template <Attention kind>
void AttentionForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const int heads = nnvm::get<InterleavedMatMulParam>(attrs.parsed).heads;
  const AttentionDims d = Dims(kind, heads, inputs[0].shape_,
                               inputs.size() > 1 ? inputs[1].shape_ : inputs[0].shape_);
  const Layout lay = LayoutOf(kind);
  const bool qk = kind == Attention::kSelfQK || kind == Attention::kEncDecQK;
  MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    const DType beta = DType(req[0] == kAddTo ? 1 : 0);
    DType* out = outputs[0].dptr<DType>();
    for (index_t b = 0; b < d.batch; ++b) {
      for (index_t h = 0; h < d.heads; ++h) {
        const index_t bh = b * d.heads + h;
        if (qk) {
          // Self attention reads Q and K from input 0; encoder-decoder reads K from input 1.
          const DType* q = HeadPtr(inputs[0].dptr<DType>(), d, lay.q_parts, lay.q_part, b, h);
          const DType* k = HeadPtr(inputs[inputs.size() - 1].dptr<DType>(), d, lay.k_parts,
                                   lay.k_part, b, h);
          const DType alpha = DType(1.0 / std::sqrt(static_cast<double>(d.head_dim)));
          BlasGemm<DType>(false, true, d.lq, d.lk, d.head_dim, alpha, q,
                          RowStride(d, lay.q_parts), k, RowStride(d, lay.k_parts), beta,
                          out + bh * d.lq * d.lk, d.lk);
        } else {
          const DType* v = HeadPtr(inputs[0].dptr<DType>(), d, lay.v_parts, lay.v_part, b, h);
          const DType* att = inputs[1].dptr<DType>() + bh * d.lq * d.lk;
          BlasGemm<DType>(false, false, d.lq, d.head_dim, d.lk, DType(1), att, d.lk, v,
                          RowStride(d, lay.v_parts), beta, HeadPtr(out, d, 1, 0, b, h),
                          RowStride(d, 1));
        }
      }
    }
  });
}

/*!
 * \brief Backward: inputs are (out grad, forward inputs...), outputs the forward inputs' grads.
 *        The qk ops: dQ = alpha dS . K, dK = alpha dS^T . Q. The valatt ops: dAtt = dO . V^T,
 *        dV = Att^T . dO.
 */
template <Attention kind>
void AttentionBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const int heads = nnvm::get<InterleavedMatMulParam>(attrs.parsed).heads;
  const AttentionDims d = Dims(kind, heads, inputs[1].shape_,
                               inputs.size() > 2 ? inputs[2].shape_ : inputs[1].shape_);
  if (inputs[1].Size() == 0) return;
  const Layout lay = LayoutOf(kind);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* dout = inputs[0].dptr<DType>();
    auto beta = [&](size_t i) { return DType(req[i] == kAddTo ? 1 : 0); };
    if (kind == Attention::kSelfQK || kind == Attention::kEncDecQK) {
      const bool self = kind == Attention::kSelfQK;
      const size_t kin = self ? 0 : 1;  // which output/input holds K
      const DType alpha = DType(1.0 / std::sqrt(static_cast<double>(d.head_dim)));
      if (self && req[0] != kNullOp) ZeroPart(outputs[0].dptr<DType>(), d, d.lq, 3, 2, req[0]);
      if (!self && req[1] != kNullOp) ZeroPart(outputs[1].dptr<DType>(), d, d.lk, 2, 1, req[1]);
      for (index_t b = 0; b < d.batch; ++b) {
        for (index_t h = 0; h < d.heads; ++h) {
          const DType* ds = dout + (b * d.heads + h) * d.lq * d.lk;
          const index_t ldq = RowStride(d, lay.q_parts), ldk = RowStride(d, lay.k_parts);
          const DType* q = HeadPtr(inputs[1].dptr<DType>(), d, lay.q_parts, lay.q_part, b, h);
          const DType* k =
              HeadPtr(inputs[1 + kin].dptr<DType>(), d, lay.k_parts, lay.k_part, b, h);
          if (req[0] != kNullOp) {
            BlasGemm<DType>(false, false, d.lq, d.head_dim, d.lk, alpha, ds, d.lk, k, ldk,
                            beta(0),
                            HeadPtr(outputs[0].dptr<DType>(), d, lay.q_parts, lay.q_part, b, h),
                            ldq);
          }
          if (req[kin] != kNullOp) {
            BlasGemm<DType>(true, false, d.lk, d.head_dim, d.lq, alpha, ds, d.lk, q, ldq,
                            beta(kin),
                            HeadPtr(outputs[kin].dptr<DType>(), d, lay.k_parts, lay.k_part, b,
                                    h),
                            ldk);
          }
        }
      }
    } else {
      if (req[0] != kNullOp) {
        for (int part = 0; part < lay.v_parts; ++part) {
          if (part != lay.v_part)
            ZeroPart(outputs[0].dptr<DType>(), d, d.lk, lay.v_parts, part, req[0]);
        }
      }
      const index_t ldv = RowStride(d, lay.v_parts), ldo = RowStride(d, 1);
      for (index_t b = 0; b < d.batch; ++b) {
        for (index_t h = 0; h < d.heads; ++h) {
          const index_t bh = b * d.heads + h;
          const DType* dob = HeadPtr(dout, d, 1, 0, b, h);
          const DType* v = HeadPtr(inputs[1].dptr<DType>(), d, lay.v_parts, lay.v_part, b, h);
          const DType* att = inputs[2].dptr<DType>() + bh * d.lq * d.lk;
          if (req[0] != kNullOp) {
            BlasGemm<DType>(true, false, d.lk, d.head_dim, d.lq, DType(1), att, d.lk, dob, ldo,
                            beta(0),
                            HeadPtr(outputs[0].dptr<DType>(), d, lay.v_parts, lay.v_part, b, h),
                            ldv);
          }
          if (req[1] != kNullOp) {
            BlasGemm<DType>(false, true, d.lq, d.lk, d.head_dim, DType(1), dob, ldo, v, ldv,
                            beta(1), outputs[1].dptr<DType>() + bh * d.lq * d.lk, d.lk);
          }
        }
      }
    }
  });
}

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
  .set_attr<FCompute>("FCompute<cpu>", AttentionBackward<KIND>);                              \
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
  .set_attr<FCompute>("FCompute<cpu>", AttentionForward<KIND>)                                \
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
