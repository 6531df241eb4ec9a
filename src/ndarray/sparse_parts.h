/*!
 * \file sparse_parts.h
 * \brief The parts of a sparse NDArray (private to src/ndarray): dense CPU arrays for the
 *        stored values and the aux arrays, guarded by the owning array's engine variable.
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

}  // namespace mxnet

#endif  // MXNET_NDARRAY_SPARSE_PARTS_H_
