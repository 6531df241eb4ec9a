/*!
 * \file embedding_grad.cc
 * \brief Embedding's row_sparse weight gradient (sparse_grad=True): the rows of the indices
 *        seen, summed; what the lazy optimizer updates consume.
 */
#include <algorithm>
#include <cstring>
#include <vector>

#include "../tensor/indexing_op-inl.h"
#include "./sparse_ops-inl.h"

namespace mxnet {
namespace op {

namespace {

bool EmbeddingBackwardStype(const nnvm::NodeAttrs& attrs, const int, DispatchMode* mode,
                            std::vector<int>* in, std::vector<int>* out) {
  const EmbeddingParam& p = nnvm::get<EmbeddingParam>(attrs.parsed);
  if (!p.sparse_grad || (*in)[0] != kDefaultStorage || (*in)[1] != kDefaultStorage) return false;
  if ((*out)[1] != kUndefinedStorage && (*out)[1] != kRowSparseStorage) return false;
  if ((*out)[0] != kUndefinedStorage && (*out)[0] != kDefaultStorage) return false;
  (*out)[0] = kDefaultStorage;
  (*out)[1] = kRowSparseStorage;
  *mode = DispatchMode::kFComputeEx;
  return true;
}

// Inputs: (output gradient, indices). Outputs: (indices gradient = 0, weight gradient).
void EmbeddingBackwardComputeEx(const nnvm::NodeAttrs& attrs, const OpContext&,
                                const std::vector<NDArray>& in,
                                const std::vector<OpReqType>& req,
                                const std::vector<NDArray>& out) {
  const EmbeddingParam& p = nnvm::get<EmbeddingParam>(attrs.parsed);
  if (req[0] == kWriteTo || req[0] == kWriteInplace) {
    TBlob d = out[0].data();
    std::memset(d.dptr_, 0, d.Size() * mshadow::mshadow_sizeof(d.type_flag_));
  }
  if (req[1] == kNullOp) return;
  if (req[1] == kAddTo) {
    MX_THROW(NotImplementedError) << "Embedding: grad_req 'add' into a row_sparse weight "
                                     "gradient is not supported";
  }
  const TBlob idx = in[1].data();
  const int64_t dim = p.output_dim, vocab = p.input_dim;
  std::vector<int64_t> ids(idx.Size());
  MSHADOW_TYPE_SWITCH(idx.type_flag_, IType, {
    const IType* q = idx.dptr<IType>();
    for (size_t k = 0; k < ids.size(); ++k) {
      // Out-of-range indices are clipped, as in the forward pass.
      const int64_t v = static_cast<int64_t>(q[k]);
      ids[k] = std::min<int64_t>(std::max<int64_t>(v, 0), vocab - 1);
    }
  });
  std::vector<int64_t> rows(ids);
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  NDArray data = NewPart(TShape({static_cast<int64_t>(rows.size()), dim}), out[1].dtype());
  MSHADOW_TYPE_SWITCH(out[1].dtype(), DType, {
    DType* d = rows.empty() ? nullptr : data.data().dptr<DType>();
    if (d != nullptr) std::fill(d, d + rows.size() * dim, DType(0));
    const DType* og = in[0].data().dptr<DType>();
    for (size_t k = 0; k < ids.size(); ++k) {
      const int64_t pos = std::lower_bound(rows.begin(), rows.end(), ids[k]) - rows.begin();
      DType* drow = d + pos * dim;
      const DType* grow = og + k * dim;
      for (int64_t j = 0; j < dim; ++j) drow[j] += grow[j];
    }
  });
  out[1].SetSparseParts(data, {Int64Part(rows)});
}

}  // namespace

NNVM_REGISTER_OP(_backward_Embedding)
.set_attr<FInferStorageType>("FInferStorageType", EmbeddingBackwardStype)
.set_attr<FComputeEx>("FComputeEx<cpu>", EmbeddingBackwardComputeEx)
.set_attr<bool>("TSparseFromDense", true);

}  // namespace op
}  // namespace mxnet
