/*!
 * \file sparse_gpu.h
 * \brief GPU kernels for sparse NDArrays (sparse_ndarray.cu, CUDA builds): storage casts between
 *        dense, csr and row_sparse arrays on one GPU, and the helpers the sparse operators' GPU
 *        kernels share (index arrays as int64, device prefix sums, counts read by the host).
 *        Every function queues its work on `s` (nullptr: the default stream, after waiting for
 *        the device; the function then waits until the work has finished).
 */
#ifndef MXNET_NDARRAY_SPARSE_GPU_H_
#define MXNET_NDARRAY_SPARSE_GPU_H_

#include <mxnet/ndarray.h>

#include <cstdint>

namespace mxnet {
namespace sparse_gpu {

#if MXNET_USE_CUDA
/*!
 * \brief CastStorageInto on one GPU, any pair of storage types (dtype converted). dense -> csr and
 *        dense -> row_sparse count the non-zeros on the device, prefix-sum the counts and copy the
 *        total to the host to allocate the parts (as MXNet does). Stored indices outside the
 *        shape are skipped, not written.
 */
void CastStorage(const NDArray& src, const NDArray& out, mshadow::Stream<gpu>* s);

/*! \brief A new int64 array on `a`'s device with the values of the integer array `a`. */
NDArray Int64On(const NDArray& a, mshadow::Stream<gpu>* s);

/*! \brief out[0] = 0, out[i + 1] = in[0] + ... + in[i] for i < n (int64, device; CUB). */
void ExclusiveScan(const int64_t* in, int64_t* out, int64_t n, Context ctx,
                   mshadow::Stream<gpu>* s);

/*! \brief The int64 at `p` on the device, read by the host after the stream's work so far. */
int64_t ReadInt64(const int64_t* p, mshadow::Stream<gpu>* s);

/*! \brief A new dense array on `ctx`, allocated now. */
inline NDArray NewOn(const TShape& shape, Context ctx, int dtype) {
  return NDArray(shape, ctx, false, dtype);
}
#endif  // MXNET_USE_CUDA

}  // namespace sparse_gpu
}  // namespace mxnet

#endif  // MXNET_NDARRAY_SPARSE_GPU_H_
