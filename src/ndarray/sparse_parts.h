/*!
 * \file sparse_parts.h
 * \brief The parts of a sparse NDArray (private to src/ndarray): dense arrays on the array's
 *        device for the stored values and the aux arrays, guarded by the owning array's engine
 *        variable; and the copies of sparse arrays between devices.
 */
#ifndef MXNET_NDARRAY_SPARSE_PARTS_H_
#define MXNET_NDARRAY_SPARSE_PARTS_H_

#include <mxnet/ndarray.h>

#include <memory>
#include <vector>

namespace mxnet {

struct NDArray::SparseParts {
  NDArray data;
  std::vector<NDArray> aux;

  static std::shared_ptr<SparseParts> Create(int stype, const TShape& shape, Context ctx, int dtype,
                                             std::vector<int> aux_types,
                                             std::vector<TShape> aux_shapes, TShape storage_shape);
};

/*! \brief `a` itself on the CPU, else a CPU array of the same storage type holding host copies
 *         of its parts (or values). Runs inside an engine function: waits for the device. */
NDArray HostCopyOf(const NDArray& a);

/*! \brief Give the sparse `out` copies of the parts of `host` (same storage type) on its device. */
void MoveSparseParts(const NDArray& host, const NDArray& out);

/*! \brief CastStorageInto for arrays on different devices: converted on the host. */
void CastStorageAcrossDevices(const NDArray& src, const NDArray& out);

}  // namespace mxnet

#endif  // MXNET_NDARRAY_SPARSE_PARTS_H_
