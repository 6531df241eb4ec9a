/*!
 * \file host_copy.h
 * \brief The values of a small blob (indices, labels, lengths) as doubles on the host, for
 *        operators that check them before their kernels use them as positions: read in place
 *        on the CPU; copied from a GPU on the operator's stream (which then waits for it).
 */
#ifndef MXNET_OPERATOR_HOST_COPY_H_
#define MXNET_OPERATOR_HOST_COPY_H_

#include <mxnet/tensor_blob.h>

#include <vector>

namespace mxnet {
namespace op {

inline std::vector<double> BlobValuesOnHost(mshadow::Stream<cpu>*, const TBlob& b) {
  std::vector<double> v(b.Size());
  MSHADOW_TYPE_SWITCH_WITH_BOOL(b.type_flag_, DType, {
    const DType* p = b.dptr<DType>();
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(p[i]);
  });
  return v;
}

/*! \brief The GPU form (host_copy.cu, CUDA builds). */
std::vector<double> BlobValuesOnHost(mshadow::Stream<gpu>* s, const TBlob& b);

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_HOST_COPY_H_
