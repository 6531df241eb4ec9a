/*!
 * \file fill_element_0index-inl.h
 * \brief fill_element_0index for both devices: a copy of lhs, then one thread per row writes
 *        mhs[i] at column rhs[i] (the columns are checked on the host first).
 */
#ifndef MXNET_OPERATOR_TENSOR_FILL_ELEMENT_0INDEX_INL_H_
#define MXNET_OPERATOR_TENSOR_FILL_ELEMENT_0INDEX_INL_H_

#include <mxnet/op_attr_types.h>

#include <vector>

#include "../host_copy.h"
#include "../mxnet_op.h"
#include "../operator_common.h"
#include "./matrix_op-inl.h"

namespace mxnet {
namespace op {

struct fill_row_element {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* o, const DType* mhs, const DType* rhs,
                                  index_t cols) {
    o[i * cols + static_cast<index_t>(rhs[i])] = mhs[i];
  }
};

template <typename xpu>
void FillElementCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << "fill_element_0index: req=add is not supported";
  }
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const index_t rows = inputs[0].shape_[0], cols = inputs[0].shape_[1];
  const std::vector<double> columns = BlobValuesOnHost(s, inputs[2]);
  for (index_t i = 0; i < rows; ++i) {
    const int64_t c = static_cast<int64_t>(columns[i]);
    if (c < 0 || c >= cols) {
      MX_THROW(IndexError) << "fill_element_0index: rhs[" << i << "]=" << c
                           << " is out of range for lhs of shape " << inputs[0].shape_;
    }
  }
  CopyBlobPlanned(s, inputs[0], outputs[0], kWriteTo);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    mxnet_op::Kernel<fill_row_element, xpu>::Launch(s, rows, outputs[0].dptr<DType>(),
                                                    inputs[1].dptr<DType>(),
                                                    inputs[2].dptr<DType>(), cols);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_FILL_ELEMENT_0INDEX_INL_H_
