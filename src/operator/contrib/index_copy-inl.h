/*!
 * \file index_copy-inl.h
 * \brief _contrib_index_copy and its gradient for both devices. The index vector is checked
 *        on the host, which also resolves repeated indices (the last one wins, as the CPU's
 *        sequential copy did) into a table row -> source row of new_tensor (-1: kept), put in
 *        temp space; every kernel then reads that table, one thread per element.
 */
#ifndef MXNET_OPERATOR_CONTRIB_INDEX_COPY_INL_H_
#define MXNET_OPERATOR_CONTRIB_INDEX_COPY_INL_H_

#include <mxnet/op_attr_types.h>
#include <mxnet/resource.h>

#include <algorithm>
#include <vector>

#include "../host_copy.h"
#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

namespace index_copy {

/*! \brief The table (old rows,): the new_tensor row copied into each row, or -1; in temp. */
template <typename xpu>
const index_t* SourceRows(const OpContext& ctx, const TBlob& index, index_t rows) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const std::vector<double> idx = BlobValuesOnHost(s, index);
  std::vector<index_t> source(rows, -1);
  for (size_t i = 0; i < idx.size(); ++i) {
    const int64_t r = static_cast<int64_t>(idx[i]);
    if (r < 0 || r >= rows) {
      MX_THROW(IndexError) << "_contrib_index_copy: index_vector[" << i << "]=" << r
                           << " is out of range for old_tensor with " << rows << " rows";
    }
    source[r] = static_cast<index_t>(i);
  }
  index_t* dev = ctx.requested[0].get_space_typed_ptr<index_t>(std::max<index_t>(rows, 1));
  CopyHostToDevice(s, dev, source.data(), source.size() * sizeof(index_t));
  return dev;
}

/*! \brief out[e] = the new_tensor element when its row is copied, else old[e]. */
struct copy_rows {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, DType* out, const DType* old, const DType* fresh,
                                  const index_t* source, index_t row_size) {
    const index_t i = source[e / row_size];
    if (i >= 0) {
      out[e] = fresh[i * row_size + e % row_size];
    } else if (out != old) {
      out[e] = old[e];
    }
  }
};

/*! \brief old_grad[e] (req): out_grad where the row was kept, 0 (or unchanged) where not. */
struct old_grad {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, DType* g, const DType* og, const index_t* source,
                                  index_t row_size, int req) {
    if (source[e / row_size] >= 0) {
      if (req != kAddTo) g[e] = DType(0);
    } else {
      KERNEL_ASSIGN(g[e], req, og[e]);
    }
  }
};

/*! \brief new_grad[i, j] (req) out_grad[index[i], j]. */
struct new_grad {
  template <typename DType, typename IType>
  MSHADOW_XINLINE static void Map(index_t e, DType* g, const DType* og, const IType* index,
                                  index_t row_size, int req) {
    const index_t r = static_cast<index_t>(index[e / row_size]);
    KERNEL_ASSIGN(g[e], req, og[r * row_size + e % row_size]);
  }
};

}  // namespace index_copy

template <typename xpu>
void IndexCopyCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << "_contrib_index_copy: req=add is not supported";
  }
  const TBlob& old = inputs[0];
  const index_t rows = old.shape_[0];
  const index_t* source = index_copy::SourceRows<xpu>(ctx, inputs[1], rows);
  if (old.Size() == 0) return;
  const index_t row_size = old.Size() / rows;
  MSHADOW_TYPE_SWITCH(old.type_flag_, DType, {
    mxnet_op::Kernel<index_copy::copy_rows, xpu>::Launch(
        ctx.get_stream<xpu>(), old.Size(), outputs[0].dptr<DType>(), old.dptr<DType>(),
        inputs[2].dptr<DType>(), source, row_size);
  });
}

/*! \brief inputs (out_grad, old_tensor, index_vector, new_tensor) -> (old_grad, index_grad,
 *         new_grad). */
template <typename xpu>
void IndexCopyGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                          const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                          const std::vector<TBlob>& outputs) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const TBlob& og = inputs[0];
  const TBlob& index = inputs[2];
  const index_t rows = og.shape_[0];
  const index_t* source = index_copy::SourceRows<xpu>(ctx, index, rows);
  const index_t row_size = rows == 0 ? 0 : og.Size() / rows;
  MSHADOW_TYPE_SWITCH(og.type_flag_, DType, {
    if (req[0] != kNullOp && og.Size() > 0) {
      mxnet_op::Kernel<index_copy::old_grad, xpu>::Launch(
          s, og.Size(), outputs[0].dptr<DType>(), og.dptr<DType>(), source, row_size,
          static_cast<int>(req[0]));
    }
    if (req[2] != kNullOp && outputs[2].Size() > 0) {
      MSHADOW_TYPE_SWITCH(index.type_flag_, IType, {
        mxnet_op::Kernel<index_copy::new_grad, xpu>::Launch(
            s, outputs[2].Size(), outputs[2].dptr<DType>(), og.dptr<DType>(),
            index.dptr<IType>(), row_size, static_cast<int>(req[2]));
      });
    }
  });
  if (req[1] == kWriteTo || req[1] == kWriteInplace) {
    MSHADOW_TYPE_SWITCH(outputs[1].type_flag_, GType, {
      mxnet_op::Kernel<mxnet_op::set_zero, xpu>::Launch(s, outputs[1].Size(),
                                                        outputs[1].dptr<GType>());
    });
  }
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_INDEX_COPY_INL_H_
