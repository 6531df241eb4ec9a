/*!
 * \file host_copy.cu
 * \brief BlobValuesOnHost and CopyHostToDevice for GPU blobs: copies on the operator's stream.
 */
#include "./host_copy.h"

#if MXNET_USE_CUDA
#include <cuda_runtime.h>

#include "../common/cuda_utils.h"

namespace mxnet {
namespace op {

std::vector<double> BlobValuesOnHost(mshadow::Stream<gpu>* s, const TBlob& b) {
  cudaStream_t stream = mshadow::Stream<gpu>::GetStream(s);
  std::vector<double> v(b.Size());
  // Raw bytes first (std::vector<bool> has no buffer), then each element converted.
  std::vector<unsigned char> bytes(v.size() * mshadow::mshadow_sizeof(b.type_flag_));
  if (!bytes.empty()) {
    CUDA_CALL(cudaMemcpyAsync(bytes.data(), b.dptr_, bytes.size(), cudaMemcpyDeviceToHost,
                              stream));
    CUDA_CALL(cudaStreamSynchronize(stream));
  }
  MSHADOW_TYPE_SWITCH_WITH_BOOL(b.type_flag_, DType, {
    const DType* p = reinterpret_cast<const DType*>(bytes.data());
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(p[i]);
  });
  return v;
}

void CopyHostToDevice(mshadow::Stream<gpu>* s, void* dst, const void* src, size_t bytes) {
  if (bytes == 0) return;
  CUDA_CALL(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice,
                            mshadow::Stream<gpu>::GetStream(s)));
}

}  // namespace op
}  // namespace mxnet
#endif  // MXNET_USE_CUDA
