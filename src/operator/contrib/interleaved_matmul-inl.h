/*!
 * \file interleaved_matmul-inl.h
 * \brief The fused multi-head attention products (interleaved_matmul.cc describes them) for
 *        every device: each product is one GEMM batched over the (batch, head) pairs, strided
 *        views of the inputs with no copy (OpenBLAS per pair on the CPU, cuBLAS's strided
 *        batched GEMM on a GPU, registered in interleaved_matmul.cu).
 */
#ifndef MXNET_OPERATOR_CONTRIB_INTERLEAVED_MATMUL_INL_H_
#define MXNET_OPERATOR_CONTRIB_INTERLEAVED_MATMUL_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <vector>

#include "../blas_gemm.h"
#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct InterleavedMatMulParam : public dmlc::Parameter<InterleavedMatMulParam> {
  int heads;
  DMLC_DECLARE_PARAMETER(InterleavedMatMulParam) {
    DMLC_DECLARE_FIELD(heads).set_lower_bound(1).describe("Set number of heads");
  }
};

namespace interleaved {

enum class Attention { kSelfQK, kSelfValAtt, kEncDecQK, kEncDecValAtt };

inline const char* OpName(Attention kind) {
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
inline index_t HeadDim(Attention kind, const char* arg, const mxnet::TShape& s, int heads, int parts) {
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

inline void CheckAttention(Attention kind, const mxnet::TShape& att, const AttentionDims& d) {
  const mxnet::TShape want({d.batch * d.heads, d.lq, d.lk});
  if (att != want) {
    MX_THROW(ValueError) << OpName(kind) << ": expected attention of shape " << want
                         << " (batch_size * heads, query length, key length), got " << att;
  }
}

/*! \brief The dimensions of a call from its input shapes (all known), checked. */
inline AttentionDims Dims(Attention kind, int heads, const mxnet::TShape& a, const mxnet::TShape& b) {
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

inline mxnet::TShape OutputShape(Attention kind, const AttentionDims& d) {
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
inline DType* HeadPtr(DType* base, const AttentionDims& d, int parts, int part, index_t b, index_t h) {
  return base + ((b * d.heads + h) * parts + part) * d.head_dim;
}

/*! \brief Row stride of a (L, B, H*parts*D) interleaved tensor. */
inline index_t RowStride(const AttentionDims& d, int parts) {
  return d.batch * d.heads * parts * d.head_dim;
}

/*!
 * \brief Zeroes (for a write request) the `part` of every head of an interleaved gradient that
 *        no product reads, so the gradient of the whole input is defined; kAddTo leaves it.
 */
struct zero_part {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t g, DType* grad, index_t head_dim, int parts,
                                  int part) {
    DType* p = grad + (g * parts + part) * head_dim;
    for (index_t k = 0; k < head_dim; ++k) p[k] = DType(0);
  }
};

template <typename xpu, typename DType>
void ZeroPart(mshadow::Stream<xpu>* s, DType* grad, const AttentionDims& d, index_t rows,
              int parts, int part, OpReqType req) {
  if (req != kWriteTo && req != kWriteInplace) return;
  mxnet_op::Kernel<zero_part, xpu>::Launch(s, rows * d.batch * d.heads, grad, d.head_dim, parts,
                                           part);
}

/*! \brief Where Q and K (qk ops) or V (valatt ops) are: the tensor's parts and the part index. */
struct Layout {
  int q_parts, q_part, k_parts, k_part;  // qk ops
  int v_parts, v_part;                   // valatt ops
};

inline Layout LayoutOf(Attention kind) {
  if (kind == Attention::kSelfQK || kind == Attention::kSelfValAtt) return {3, 0, 3, 1, 3, 2};
  return {1, 0, 2, 0, 2, 1};
}

/*!
 * \brief Forward: one GEMM batched over the B*H (batch, head) pairs: the heads' blocks of an
 *        interleaved tensor lie `parts * head_dim` elements apart, the per-head matrices of
 *        the attention `lq * lk` apart.
 */
template <typename xpu, Attention kind>
void AttentionForward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const int heads = nnvm::get<InterleavedMatMulParam>(attrs.parsed).heads;
  const AttentionDims d = Dims(kind, heads, inputs[0].shape_,
                               inputs.size() > 1 ? inputs[1].shape_ : inputs[0].shape_);
  const Layout lay = LayoutOf(kind);
  const bool qk = kind == Attention::kSelfQK || kind == Attention::kEncDecQK;
  const index_t bh = d.batch * d.heads, mat = d.lq * d.lk;
  const double beta = req[0] == kAddTo ? 1.0 : 0.0;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    DType* out = outputs[0].dptr<DType>();
    if (qk) {
      // Self attention reads Q and K from input 0; encoder-decoder reads K from input 1.
      const DType* q = HeadPtr(inputs[0].dptr<DType>(), d, lay.q_parts, lay.q_part, 0, 0);
      const DType* k = HeadPtr(inputs[inputs.size() - 1].dptr<DType>(), d, lay.k_parts,
                               lay.k_part, 0, 0);
      const double alpha = 1.0 / std::sqrt(static_cast<double>(d.head_dim));
      Gemm<DType>(s, false, true, d.lq, d.lk, d.head_dim, alpha, q, RowStride(d, lay.q_parts),
                  k, RowStride(d, lay.k_parts), beta, out, d.lk, bh, lay.q_parts * d.head_dim,
                  lay.k_parts * d.head_dim, mat);
    } else {
      const DType* v = HeadPtr(inputs[0].dptr<DType>(), d, lay.v_parts, lay.v_part, 0, 0);
      Gemm<DType>(s, false, false, d.lq, d.head_dim, d.lk, 1.0, inputs[1].dptr<DType>(), d.lk,
                  v, RowStride(d, lay.v_parts), beta, out, RowStride(d, 1), bh, mat,
                  lay.v_parts * d.head_dim, d.head_dim);
    }
  });
}

/*!
 * \brief Backward: inputs are (out grad, forward inputs...), outputs the forward inputs' grads.
 *        The qk ops: dQ = alpha dS . K, dK = alpha dS^T . Q. The valatt ops: dAtt = dO . V^T,
 *        dV = Att^T . dO. Each is one GEMM batched over the (batch, head) pairs.
 */
template <typename xpu, Attention kind>
void AttentionBackward(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  const int heads = nnvm::get<InterleavedMatMulParam>(attrs.parsed).heads;
  const AttentionDims d = Dims(kind, heads, inputs[1].shape_,
                               inputs.size() > 2 ? inputs[2].shape_ : inputs[1].shape_);
  if (inputs[1].Size() == 0) return;
  const Layout lay = LayoutOf(kind);
  const index_t bh = d.batch * d.heads, mat = d.lq * d.lk;
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  auto beta = [&](size_t i) { return req[i] == kAddTo ? 1.0 : 0.0; };
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    const DType* dout = inputs[0].dptr<DType>();
    if (kind == Attention::kSelfQK || kind == Attention::kEncDecQK) {
      const bool self = kind == Attention::kSelfQK;
      const size_t kin = self ? 0 : 1;  // which output/input holds K
      const double alpha = 1.0 / std::sqrt(static_cast<double>(d.head_dim));
      if (self && req[0] != kNullOp) ZeroPart(s, outputs[0].dptr<DType>(), d, d.lq, 3, 2, req[0]);
      if (!self && req[1] != kNullOp) {
        ZeroPart(s, outputs[1].dptr<DType>(), d, d.lk, 2, 1, req[1]);
      }
      const index_t ldq = RowStride(d, lay.q_parts), ldk = RowStride(d, lay.k_parts);
      const index_t sq = lay.q_parts * d.head_dim, sk = lay.k_parts * d.head_dim;
      const DType* q = HeadPtr(inputs[1].dptr<DType>(), d, lay.q_parts, lay.q_part, 0, 0);
      const DType* k = HeadPtr(inputs[1 + kin].dptr<DType>(), d, lay.k_parts, lay.k_part, 0, 0);
      if (req[0] != kNullOp) {
        Gemm<DType>(s, false, false, d.lq, d.head_dim, d.lk, alpha, dout, d.lk, k, ldk, beta(0),
                    HeadPtr(outputs[0].dptr<DType>(), d, lay.q_parts, lay.q_part, 0, 0), ldq,
                    bh, mat, sk, sq);
      }
      if (req[kin] != kNullOp) {
        Gemm<DType>(s, true, false, d.lk, d.head_dim, d.lq, alpha, dout, d.lk, q, ldq,
                    beta(kin),
                    HeadPtr(outputs[kin].dptr<DType>(), d, lay.k_parts, lay.k_part, 0, 0), ldk,
                    bh, mat, sq, sk);
      }
    } else {
      if (req[0] != kNullOp) {
        for (int part = 0; part < lay.v_parts; ++part) {
          if (part != lay.v_part) {
            ZeroPart(s, outputs[0].dptr<DType>(), d, d.lk, lay.v_parts, part, req[0]);
          }
        }
      }
      const index_t ldv = RowStride(d, lay.v_parts), ldo = RowStride(d, 1);
      const index_t sv = lay.v_parts * d.head_dim;
      const DType* v = HeadPtr(inputs[1].dptr<DType>(), d, lay.v_parts, lay.v_part, 0, 0);
      const DType* att = inputs[2].dptr<DType>();
      if (req[0] != kNullOp) {
        Gemm<DType>(s, true, false, d.lk, d.head_dim, d.lq, 1.0, att, d.lk, dout, ldo, beta(0),
                    HeadPtr(outputs[0].dptr<DType>(), d, lay.v_parts, lay.v_part, 0, 0), ldv,
                    bh, mat, d.head_dim, sv);
      }
      if (req[1] != kNullOp) {
        Gemm<DType>(s, false, true, d.lq, d.lk, d.head_dim, 1.0, dout, ldo, v, ldv, beta(1),
                    outputs[1].dptr<DType>(), d.lk, bh, d.head_dim, sv, mat);
      }
    }
  });
}

}  // namespace interleaved
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_INTERLEAVED_MATMUL_INL_H_
