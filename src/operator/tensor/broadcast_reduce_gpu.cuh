/*!
 * \file broadcast_reduce_gpu.cuh
 * \brief The GPU forms of the ReducePlan drivers: the same reducers (red::*) and gradient maps
 *        (red_grad::*) as the CPU loops in broadcast_reduce_op-inl.h, run by CUDA kernels.
 *
 * A reduction decodes, per output, the input offset of its kept coordinates and, per reduced
 * position, the offset of the reduced coordinates. When the innermost axis is reduced one block
 * reduces one output (neighbouring threads read neighbouring elements); when it is kept one
 * thread reduces one output (neighbouring threads read neighbouring outputs' elements). Long
 * reductions with few outputs are split over a second grid dimension into partial results that a
 * second kernel merges. Included by broadcast_reduce_op-inl.h in CUDA compiles only.
 */
#ifndef MXNET_OPERATOR_TENSOR_BROADCAST_REDUCE_GPU_CUH_
#define MXNET_OPERATOR_TENSOR_BROADCAST_REDUCE_GPU_CUH_

#include <mxnet/storage.h>

#include <algorithm>

#include "../../common/cuda_utils.h"
#include "../mxnet_op.h"

namespace mxnet {
namespace op {
namespace reduce_gpu {

/*! \brief Offsets (in elements) of a flat index over a set of axes with the given strides. */
struct AxesOffset {
  int n = 0;
  index_t dim[ReducePlan::kMaxDim];
  index_t stride[ReducePlan::kMaxDim];
  void Add(index_t d, index_t s) {
    dim[n] = d;
    stride[n] = s;
    ++n;
  }
  /*! \brief idx < prod(dim): the outermost axis needs no modulo (one axis: no division). */
  MSHADOW_XINLINE index_t Of(index_t idx) const {
    index_t off = 0;
    for (int d = n - 1; d > 0; --d) {
      off += (idx % dim[d]) * stride[d];
      idx /= dim[d];
    }
    return n > 0 ? off + idx * stride[0] : 0;
  }
};

/*! \brief The kept (output) and reduced axes of a plan, with the input's strides. */
inline void SplitAxes(const ReducePlan& p, AxesOffset* kept, AxesOffset* red) {
  index_t stride[ReducePlan::kMaxDim];
  index_t s = 1;
  for (int d = p.ndim - 1; d >= 0; --d) {
    stride[d] = s;
    s *= p.dims[d];
  }
  for (int d = 0; d < p.ndim; ++d) (p.reduced[d] ? red : kept)->Add(p.dims[d], stride[d]);
}

MSHADOW_XINLINE index_t IMin(index_t a, index_t b) { return a < b ? a : b; }

/*! \brief out[o] (req) = OType(Finalize(acc)) (a sum in the accumulation type for kAddTo). */
template <typename Reducer, typename A, typename OType>
__device__ __forceinline__ void StoreOne(OType* out, index_t o, A acc, index_t red_size,
                                         int req) {
  const OType v = static_cast<OType>(Reducer::template Finalize<A>(acc, red_size));
  if (req == kAddTo) {
    out[o] = static_cast<OType>(static_cast<A>(out[o]) + static_cast<A>(v));
  } else {
    out[o] = v;
  }
}

/*!
 * \brief One block per output, threads striding over the reduced positions of split
 *        blockIdx.y. Without `part` the block finalizes and stores its output.
 */
template <typename Reducer, typename A, typename DType, typename OType>
__global__ void ReduceBlockPerOutput(AxesOffset kept, AxesOffset red, const DType* in,
                                     index_t n_out, index_t R, A* part, OType* out, int req) {
  __shared__ A buf[common::cuda::kThreadsPerBlock];
  const int splits = gridDim.y;
  const index_t chunk = (R + splits - 1) / splits;
  const index_t r0 = IMin(R, blockIdx.y * chunk), r1 = IMin(R, r0 + chunk);
  for (index_t o = blockIdx.x; o < n_out; o += gridDim.x) {
    const DType* base = in + kept.Of(o);
    A acc = Reducer::template Init<A>();
    for (index_t r = r0 + threadIdx.x; r < r1; r += blockDim.x) {
      Reducer::Reduce(acc, static_cast<A>(base[red.Of(r)]));
    }
    buf[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) Reducer::Merge(buf[threadIdx.x], buf[threadIdx.x + s]);
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      if (part != nullptr) {
        part[o * splits + blockIdx.y] = buf[0];
      } else {
        StoreOne<Reducer>(out, o, buf[0], R, req);
      }
    }
    __syncthreads();
  }
}

/*! \brief One thread per output (neighbouring outputs are neighbouring inputs). */
template <typename Reducer, typename A, typename DType, typename OType>
__global__ void ReduceThreadPerOutput(AxesOffset kept, AxesOffset red, const DType* in,
                                      index_t n_out, index_t R, A* part, OType* out, int req) {
  const int splits = gridDim.y;
  const index_t chunk = (R + splits - 1) / splits;
  const index_t r0 = IMin(R, blockIdx.y * chunk), r1 = IMin(R, r0 + chunk);
  const index_t step = static_cast<index_t>(blockDim.x) * gridDim.x;
  for (index_t o = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; o < n_out;
       o += step) {
    const DType* base = in + kept.Of(o);
    A acc = Reducer::template Init<A>();
    for (index_t r = r0; r < r1; ++r) Reducer::Reduce(acc, static_cast<A>(base[red.Of(r)]));
    if (part != nullptr) {
      part[o * splits + blockIdx.y] = acc;
    } else {
      StoreOne<Reducer>(out, o, acc, R, req);
    }
  }
}

/*! \brief Merges the splits' partial results of each output and stores it. */
template <typename Reducer, typename A, typename OType>
__global__ void ReduceMergeSplits(const A* part, int splits, index_t n_out, index_t R,
                                  OType* out, int req) {
  const index_t step = static_cast<index_t>(blockDim.x) * gridDim.x;
  for (index_t o = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; o < n_out;
       o += step) {
    A acc = part[o * splits];
    for (int s = 1; s < splits; ++s) Reducer::Merge(acc, part[o * splits + s]);
    StoreOne<Reducer>(out, o, acc, R, req);
  }
}

/*! \brief Streaming multiprocessors of the current device (cached per device). */
inline int MultiProcessors() {
  static int cache[64] = {0};
  int dev = 0;
  CUDA_CALL(cudaGetDevice(&dev));
  if (dev < 0 || dev >= 64) return 108;
  if (cache[dev] == 0) {
    int n = 0;
    CUDA_CALL(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
    cache[dev] = std::max(n, 1);
  }
  return cache[dev];
}

/*!
 * \brief Device scratch from the GPU pool, returned when it goes out of scope. Safe to return
 *        right after queuing the kernels that use it: every engine operation of a device runs
 *        on that device's one stream, so a later user of the block is ordered after them (and
 *        host copies into device memory wait for the device, device_copy::CopyBytesSync).
 */
class Scratch {
 public:
  /*! \brief `bytes` of device memory on the current device; none (a null pointer) for 0. */
  explicit Scratch(size_t bytes) {
    if (bytes == 0) return;
    int dev = 0;
    CUDA_CALL(cudaGetDevice(&dev));
    handle_ = Storage::Get()->Alloc(bytes, Context::GPU(dev));
  }
  ~Scratch() {
    if (handle_.dptr != nullptr) Storage::Get()->Free(handle_);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  Scratch(Scratch&& o) noexcept : handle_(o.handle_) { o.handle_.dptr = nullptr; }
  Scratch& operator=(Scratch&& o) noexcept {
    if (this != &o) {
      if (handle_.dptr != nullptr) Storage::Get()->Free(handle_);
      handle_ = o.handle_;
      o.handle_.dptr = nullptr;
    }
    return *this;
  }
  template <typename T>
  T* get() const {
    return static_cast<T*>(handle_.dptr);
  }

 private:
  Storage::Handle handle_;
};

}  // namespace reduce_gpu

/*! \brief out (req) = Reducer over the reduced axes of `in` (plan p), on the GPU. */
template <typename Reducer, typename DType, typename OType>
void ReducePlanned(mshadow::Stream<mshadow::gpu>* s, const ReducePlan& p, const DType* in,
                   OType* out, OpReqType req) {
  using A = typename ReduceAccType<DType>::type;
  using namespace reduce_gpu;
  if (req == kNullOp || p.small_size == 0) return;
  cudaStream_t stream = mshadow::Stream<mshadow::gpu>::GetStream(s);
  AxesOffset kept, red;
  SplitAxes(p, &kept, &red);
  const index_t n_out = p.small_size, R = p.red_size;
  const bool inner_reduced = p.ndim > 0 && p.reduced[p.ndim - 1];
  const int threads = common::cuda::kThreadsPerBlock;
  const index_t sms = MultiProcessors();
  // Splits of each reduction so that the grid fills the GPU (bounded by the work per split).
  index_t splits = 1;
  if (inner_reduced) {
    if (n_out < 2 * sms) splits = std::min<index_t>((2 * sms + n_out - 1) / n_out, R / 4096);
  } else {
    const index_t want = sms * 2048;  // resident threads in flight
    if (n_out < want) splits = std::min<index_t>((want + n_out - 1) / n_out, R / 64);
  }
  splits = std::max<index_t>(1, std::min<index_t>(splits, 65535));
  Scratch scratch(splits > 1 ? static_cast<size_t>(n_out * splits) * sizeof(A) : 0);
  A* part = splits > 1 ? scratch.get<A>() : nullptr;
  dim3 grid;
  grid.y = static_cast<unsigned>(splits);
  if (inner_reduced) {
    grid.x = static_cast<unsigned>(std::min<index_t>(n_out, common::cuda::kMaxBlocks));
    ReduceBlockPerOutput<Reducer, A><<<grid, threads, 0, stream>>>(kept, red, in, n_out, R, part,
                                                                    out, req);
  } else {
    grid.x = mxnet_op::GridFor(n_out);
    ReduceThreadPerOutput<Reducer, A><<<grid, threads, 0, stream>>>(kept, red, in, n_out, R,
                                                                     part, out, req);
  }
  CUDA_CALL(cudaGetLastError());
  if (part != nullptr) {
    ReduceMergeSplits<Reducer, A><<<mxnet_op::GridFor(n_out), threads, 0, stream>>>(
        part, static_cast<int>(splits), n_out, R, out, req);
    CUDA_CALL(cudaGetLastError());
  }
}

namespace reduce_gpu {
struct cast_store {
  template <typename A, typename OType>
  MSHADOW_XINLINE static void Map(index_t i, const A* acc, OType* out, int req) {
    const OType v = static_cast<OType>(acc[i]);
    out[i] = req == kAddTo ? static_cast<OType>(static_cast<A>(out[i]) + static_cast<A>(v)) : v;
  }
};
}  // namespace reduce_gpu

/*! \brief ReducePlanned into an output of any dtype: reduced in the accumulation type, then
 *         cast. */
template <typename Reducer, typename DType>
void ReducePlannedTo(mshadow::Stream<mshadow::gpu>* s, const ReducePlan& p, const DType* in,
                     const TBlob& out, OpReqType req) {
  using A = typename ReduceAccType<DType>::type;
  if (out.type_flag_ == mshadow::DataType<DType>::kFlag) {
    ReducePlanned<Reducer>(s, p, in, out.dptr<DType>(), req);
    return;
  }
  if (req == kNullOp || p.small_size == 0) return;
  reduce_gpu::Scratch acc(static_cast<size_t>(p.small_size) * sizeof(A));
  ReducePlanned<Reducer>(s, p, in, acc.get<A>(), kWriteTo);
  MSHADOW_TYPE_SWITCH_WITH_BOOL(out.type_flag_, OType, {
    mxnet_op::Kernel<reduce_gpu::cast_store, mshadow::gpu>::Launch(
        s, p.small_size, static_cast<const A*>(acc.get<A>()), out.dptr<OType>(),
        static_cast<int>(req));
  });
}

namespace reduce_gpu {

/*! \brief The broadcast source (small-shape) index of every big-shape index of a plan. */
struct BroadcastIndex {
  AxesOffset src;  // big axes with the small shape's strides (0 for broadcast axes)
  explicit BroadcastIndex(const ReducePlan& p) {
    index_t s = 1;
    index_t sstride[ReducePlan::kMaxDim];
    for (int d = p.ndim - 1; d >= 0; --d) {
      sstride[d] = p.reduced[d] ? 0 : s;
      if (!p.reduced[d]) s *= p.dims[d];
    }
    for (int d = 0; d < p.ndim; ++d) src.Add(p.dims[d], sstride[d]);
  }
  MSHADOW_XINLINE index_t operator()(index_t big) const { return src.Of(big); }
};

/*! \brief out[b] (req) = in[small(b)] * scale. */
struct broadcast_scaled {
  template <typename DType, typename A>
  MSHADOW_XINLINE static void Map(index_t b, BroadcastIndex ix, const DType* in, DType* out,
                                  A scale, int req) {
    const A v = static_cast<A>(in[ix(b)]) * scale;
    out[b] = req == kAddTo ? static_cast<DType>(static_cast<A>(out[b]) + v)
                           : static_cast<DType>(v);
  }
};

/*! \brief out[b] (req) = in[small(b)], exact for every dtype. */
struct broadcast_copy {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t b, BroadcastIndex ix, const DType* in, DType* out,
                                  int req) {
    if (req == kAddTo) {
      out[b] += in[ix(b)];
    } else {
      out[b] = in[ix(b)];
    }
  }
};

/*! \brief igrad[b] (req) = ograd[small(b)] * GradOp(data[b], out[small(b)]). */
template <typename GradOp>
struct reduce_grad_in_out {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t b, BroadcastIndex ix, const DType* g, const DType* x,
                                  const DType* y, DType* o, int req) {
    using A = typename mshadow_op::AccType<DType>::type;
    const index_t s = ix(b);
    const A v = static_cast<A>(g[s]) * GradOp::Map(static_cast<A>(x[b]), static_cast<A>(y[s]));
    o[b] = req == kAddTo ? static_cast<DType>(static_cast<A>(o[b]) + v) : static_cast<DType>(v);
  }
};

}  // namespace reduce_gpu

template <typename DType, typename A>
void BroadcastScaledPlanned(mshadow::Stream<mshadow::gpu>* s, const ReducePlan& p,
                            const DType* in, DType* out, A scale, OpReqType req) {
  if (req == kNullOp || p.big_size == 0) return;
  mxnet_op::Kernel<reduce_gpu::broadcast_scaled, mshadow::gpu>::Launch(
      s, p.big_size, reduce_gpu::BroadcastIndex(p), in, out, scale, static_cast<int>(req));
}

template <typename DType>
void BroadcastPlanned(mshadow::Stream<mshadow::gpu>* s, const ReducePlan& p, const DType* in,
                      DType* out, OpReqType req) {
  if (req == kNullOp || p.big_size == 0) return;
  mxnet_op::Kernel<reduce_gpu::broadcast_copy, mshadow::gpu>::Launch(
      s, p.big_size, reduce_gpu::BroadcastIndex(p), in, out, static_cast<int>(req));
}

template <typename GradOp, typename DType>
void ReduceBackwardUseInOutPlanned(mshadow::Stream<mshadow::gpu>* s, const ReducePlan& p,
                                   const DType* g, const DType* x, const DType* y, DType* o,
                                   OpReqType req) {
  if (req == kNullOp || p.big_size == 0) return;
  mxnet_op::Kernel<reduce_gpu::reduce_grad_in_out<GradOp>, mshadow::gpu>::Launch(
      s, p.big_size, reduce_gpu::BroadcastIndex(p), g, x, y, o, static_cast<int>(req));
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_BROADCAST_REDUCE_GPU_CUH_
