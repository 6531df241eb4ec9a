/*!
 * \file dgl_graph-inl.h
 * \brief The GPU kernels of _contrib_edge_id and _contrib_getnnz (dgl_graph.cu), registered in
 *        dgl_graph.cc next to the CPU ones. The other graph ops of dgl_graph.cc are sequential,
 *        data-dependent walks and run their CPU kernels on host copies for GPU arrays.
 */
#ifndef MXNET_OPERATOR_CONTRIB_DGL_GRAPH_INL_H_
#define MXNET_OPERATOR_CONTRIB_DGL_GRAPH_INL_H_

#include <mxnet/ndarray.h>
#include <mxnet/op_attr_types.h>

namespace mxnet {
namespace op {

#if MXNET_USE_CUDA
/*! \brief out[i] (req) = the value stored at (u[i], v[i]) of the csr graph, -1 where none. */
void EdgeIdGPU(const OpContext& ctx, const NDArray& csr, const NDArray& u, const NDArray& v,
               OpReqType req, const NDArray& out);

/*! \brief Stored values of the csr matrix: axis -100 in all, 1 per row, 0 per column (int64). */
void GetnnzGPU(const OpContext& ctx, const NDArray& csr, int axis, OpReqType req,
               const NDArray& out);
#endif  // MXNET_USE_CUDA

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_DGL_GRAPH_INL_H_
