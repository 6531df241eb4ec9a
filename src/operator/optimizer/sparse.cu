/*!
 * \file sparse.cu
 * \brief _sparse_adagrad_update on the GPU: out = weight (copied unless in place), then one
 *        thread per element of the gradient's stored rows runs sparse_adagrad_step (the CPU's
 *        arithmetic). Row ids are range-checked on the device and reported by the host.
 */
#if MXNET_USE_CUDA
#include <vector>

#include "../../ndarray/sparse_gpu.h"
#include "../sparse/sparse_ops-inl.h"
#include "./sparse_adagrad-inl.h"

namespace mxnet {
namespace op {

namespace {

/*! \brief bad[0] = 1 + the position of a row id outside [0, nrow) (any one), else unchanged. */
struct find_bad_row {
  MSHADOW_XINLINE static void Map(index_t k, const int64_t* rows, int64_t nrow, int64_t* bad) {
    if (rows[k] < 0 || rows[k] >= nrow) bad[0] = k + 1;
  }
};

void AdagradRspComputeExGPU(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<NDArray>& in, const std::vector<OpReqType>& req,
                            const std::vector<NDArray>& out) {
  const SparseAdagradParam& p = nnvm::get<SparseAdagradParam>(attrs.parsed);
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) {
    MX_THROW(NotImplementedError) << "_sparse_adagrad_update: req 'add' is not supported with a "
                                     "row_sparse grad";
  }
  mshadow::Stream<gpu>* s = ctx.get_stream<gpu>();
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  const NDArray& grad = in[1];
  const int64_t len = RowLength(in[0].shape());
  const int64_t nrow = in[0].shape()[0];
  const NDArray rows = sparse_gpu::Int64On(grad.sparse_aux(0), s);
  const int64_t n_rows = static_cast<int64_t>(rows.Size());
  if (grad.sparse_data().Size() != static_cast<size_t>(n_rows * len)) {
    MX_THROW(ValueError) << "row_sparse NDArray of shape " << grad.shape() << ": data shape "
                         << grad.sparse_data().shape() << " does not match " << n_rows
                         << " indices";
  }
  const TBlob w = in[0].data(), o = out[0].data();
  if (o.dptr_ != w.dptr_ && o.Size()) {
    CUDA_CALL(cudaMemcpyAsync(o.dptr_, w.dptr_, o.Size() * mshadow::mshadow_sizeof(o.type_flag_),
                              cudaMemcpyDeviceToDevice, stream));
  }
  if (n_rows == 0) return;
  NDArray bad = sparse_gpu::NewOn(TShape(1, 1), in[0].ctx(), mshadow::kInt64);
  CUDA_CALL(cudaMemsetAsync(bad.data().dptr_, 0, sizeof(int64_t), stream));
  mxnet_op::Kernel<find_bad_row, gpu>::Launch(s, n_rows, rows.data().dptr<int64_t>(), nrow,
                                              bad.data().dptr<int64_t>());
  const int64_t at = sparse_gpu::ReadInt64(bad.data().dptr<int64_t>(), s);
  if (at != 0) {
    const std::vector<int64_t> ids = SparseAuxAsInt64(grad, 0);
    MX_THROW(IndexError) << "_sparse_adagrad_update: gradient row index " << ids[at - 1]
                         << " is out of range [0, " << nrow << ")";
  }
  MSHADOW_REAL_TYPE_SWITCH(in[0].dtype(), DType, {
    mxnet_op::Kernel<sparse_adagrad_step, gpu>::Launch(
        s, n_rows * len, static_cast<const int64_t*>(rows.data().dptr<int64_t>()), len,
        o.dptr<DType>(), in[2].data().dptr<DType>(),
        static_cast<const DType*>(grad.sparse_data().data().dptr<DType>()), p.lr, p.epsilon,
        p.rescale_grad, p.clip_gradient);
  });
}

}  // namespace

NNVM_REGISTER_OP(_sparse_adagrad_update)
.set_attr<FComputeEx>("FComputeEx<gpu>", AdagradRspComputeExGPU);

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
