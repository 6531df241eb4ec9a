/*!
 * \file host_copy.h
 * \brief The values of a small blob (indices, labels, lengths) as doubles on the host, for
 *        operators that check them before their kernels use them as positions: read in place
 *        on the CPU; copied from a GPU on the operator's stream (which then waits for it).
 *        And the way back: a small host table into device memory for the kernels.
 */
#ifndef MXNET_OPERATOR_HOST_COPY_H_
#define MXNET_OPERATOR_HOST_COPY_H_

#include <mxnet/tensor_blob.h>

#include <cstring>
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

/*! \brief bytes from host memory into the operator's device memory (e.g. its temp space). */
inline void CopyHostToDevice(mshadow::Stream<cpu>*, void* dst, const void* src, size_t bytes) {
  if (bytes > 0) std::memcpy(dst, src, bytes);
}
/*! \brief The GPU form: queued on the operator's stream; the host buffer may be freed on return
 *         (a copy from pageable memory is staged before the call returns). */
void CopyHostToDevice(mshadow::Stream<gpu>* s, void* dst, const void* src, size_t bytes);

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_HOST_COPY_H_
