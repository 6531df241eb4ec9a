/*!
 * \file device_copy.h
 * \brief Byte copies that involve a GPU (CUDA builds): host <-> device and device <-> device,
 *        queued on the running function's stream. CPU-only builds throw from each.
 */
#ifndef MXNET_NDARRAY_DEVICE_COPY_H_
#define MXNET_NDARRAY_DEVICE_COPY_H_

#include <mxnet/base.h>

#include <cstddef>

namespace mxnet {
namespace device_copy {

/*! \brief Queue `bytes` from src (on src_ctx) to dst (on dst_ctx) on rctx's stream. */
void CopyBytesAsync(void* dst, Context dst_ctx, const void* src, Context src_ctx, size_t bytes,
                    const RunContext& rctx);

/*! \brief Copy `bytes` between host memory and GPU memory now (blocks until done). */
void CopyBytesSync(void* dst, Context dst_ctx, const void* src, Context src_ctx, size_t bytes);

}  // namespace device_copy
}  // namespace mxnet

#endif  // MXNET_NDARRAY_DEVICE_COPY_H_
