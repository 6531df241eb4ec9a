/*!
 * \file capture_watch.h
 * \brief Allocations made while a CUDA graph is captured (executor/cuda_graphs.cc): memory a
 *        captured kernel used would go back to the pool after the capture, so such a capture
 *        is dropped. Counts this thread's device and pinned host allocations.
 */
#ifndef MXNET_STORAGE_CAPTURE_WATCH_H_
#define MXNET_STORAGE_CAPTURE_WATCH_H_

#include <cstddef>

namespace mxnet {
namespace storage {

/*! \brief Starts (on) or stops counting this thread's device and pinned allocations. */
void WatchAllocations(bool on);
/*! \brief How many this thread made since WatchAllocations(true). */
size_t WatchedAllocations();

}  // namespace storage
}  // namespace mxnet

#endif  // MXNET_STORAGE_CAPTURE_WATCH_H_
