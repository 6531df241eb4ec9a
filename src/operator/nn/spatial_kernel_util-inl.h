/*!
 * \file spatial_kernel_util-inl.h
 * \brief Helpers shared by the ROI and spatial-sampling kernels (roi_pooling, rroi_align,
 *        deformable_psroi_pooling, spatial_sampler, correlation), usable on every device:
 *
 *   - SpFloor / SpCeil / SpRound / SpCos / SpSin / SpIsFinite: float and double overloads that
 *     call the C math functions CUDA also provides, so host and device code read the same;
 *   - SpAssignDouble(dst, req, v): *dst = v or *dst += v (in double), rounded once to DType;
 *   - ScatterAdd(p, v): *p += v, an atomic add on the GPU, a plain (rounded to DType) add on the
 *     CPU;
 *   - BilinearTaps(y, x, H, W, idx, wt): ROIAlign's bilinear sampling as 4 indices and weights;
 *   - LaunchGrouped<OP>(s, groups, per_group, args...): OP::Map(i, args...) for every i in
 *     [0, groups * per_group). On the CPU the groups run in parallel and the items of one group
 *     in order, so a kernel whose scatters overlap only within a group sums in a fixed order;
 *     on the GPU every item is a thread (its scatters must use ScatterAdd). With per_group 1 it
 *     runs heavy items (a bin, a block of channels) in parallel however few there are.
 *
 *   // data_grad of channel c only receives from items of group c:
 *   LaunchGrouped<my_backward>(ctx.get_stream<xpu>(), C, R * P, og, dgrad, ...);
 */
#ifndef MXNET_OPERATOR_NN_SPATIAL_KERNEL_UTIL_INL_H_
#define MXNET_OPERATOR_NN_SPATIAL_KERNEL_UTIL_INL_H_

#include <mxnet/base.h>

#include <cmath>
#include <type_traits>

#include "../mxnet_op.h"

#ifdef __CUDACC__
#include <cuda_fp16.h>
#endif

namespace mxnet {
namespace op {

/*! \brief The geometry arithmetic type of DType: float for float16/float32, double for float64. */
template <typename DType>
using SpGeomT = typename std::conditional<std::is_same<DType, double>::value, double, float>::type;

MSHADOW_XINLINE float SpFloor(float v) { return floorf(v); }
MSHADOW_XINLINE double SpFloor(double v) { return floor(v); }
MSHADOW_XINLINE float SpCeil(float v) { return ceilf(v); }
MSHADOW_XINLINE double SpCeil(double v) { return ceil(v); }
/*! \brief Rounds half away from zero (std::round). */
MSHADOW_XINLINE float SpRound(float v) { return roundf(v); }
MSHADOW_XINLINE double SpRound(double v) { return round(v); }
MSHADOW_XINLINE float SpCos(float v) { return cosf(v); }
MSHADOW_XINLINE double SpCos(double v) { return cos(v); }
MSHADOW_XINLINE float SpSin(float v) { return sinf(v); }
MSHADOW_XINLINE double SpSin(double v) { return sin(v); }
/*! \brief Neither infinite nor NaN (v - v is NaN exactly for those). */
template <typename G>
MSHADOW_XINLINE bool SpIsFinite(G v) { return v - v == G(0); }

template <typename T>
MSHADOW_XINLINE T SpMin(T a, T b) { return a < b ? a : b; }
template <typename T>
MSHADOW_XINLINE T SpMax(T a, T b) { return a < b ? b : a; }

/*! \brief *p += v (v in the arithmetic type G): atomic on the GPU, in order on the CPU. */
template <typename G>
MSHADOW_XINLINE void ScatterAdd(float* p, G v) {
#ifdef __CUDA_ARCH__
  atomicAdd(p, static_cast<float>(v));
#else
  *p = static_cast<float>(static_cast<G>(*p) + v);
#endif
}
template <typename G>
MSHADOW_XINLINE void ScatterAdd(double* p, G v) {
#ifdef __CUDA_ARCH__
  atomicAdd(p, static_cast<double>(v));
#else
  *p = static_cast<double>(static_cast<G>(*p) + v);
#endif
}
template <typename G>
MSHADOW_XINLINE void ScatterAdd(mshadow::half::half_t* p, G v) {
#ifdef __CUDA_ARCH__
  atomicAdd(reinterpret_cast<__half*>(p), __float2half(static_cast<float>(v)));
#else
  *p = static_cast<mshadow::half::half_t>(static_cast<G>(static_cast<float>(*p)) + v);
#endif
}

/*! \brief dst (req) = v, added in double (as the CPU always did). */
template <typename DType>
MSHADOW_XINLINE void SpAssignDouble(DType* dst, int req, double v) {
  *dst = static_cast<DType>(req == kAddTo ? static_cast<double>(*dst) + v : v);
}

/*!
 * \brief Channels one item of a channel-blocked kernel handles: on the CPU a block shares the
 *        geometry (taps, bins) across channels; on the GPU each channel is its own thread.
 */
template <typename xpu>
struct SpChannelBlock {
  static constexpr int value = 1;
};
template <>
struct SpChannelBlock<mshadow::cpu> {
  static constexpr int value = 32;
};

/*! \brief OP::Map(i, args...) for i in [0, groups * per_group): see the file comment. */
template <typename OP, typename... Args>
inline void LaunchGrouped(mshadow::Stream<mshadow::cpu>*, index_t groups, index_t per_group,
                          Args... args) {
  #pragma omp parallel for if (groups > 1)
  for (index_t g = 0; g < groups; ++g) {
    for (index_t j = 0; j < per_group; ++j) OP::Map(g * per_group + j, args...);
  }
}

#ifdef __CUDACC__
template <typename OP, typename... Args>
inline void LaunchGrouped(mshadow::Stream<mshadow::gpu>* s, index_t groups, index_t per_group,
                          Args... args) {
  mxnet_op::Kernel<OP, mshadow::gpu>::Launch(s, groups * per_group, args...);
}
#endif  // __CUDACC__

/*! \brief Zeroes `blob` unless `req` adds to it (or is null). */
template <typename xpu>
inline void ZeroUnlessAddTo(mshadow::Stream<xpu>* s, const TBlob& blob, OpReqType req) {
  if (req == kNullOp || req == kAddTo || blob.Size() == 0) return;
  MSHADOW_TYPE_SWITCH(blob.type_flag_, DType, {
    mxnet_op::Kernel<mxnet_op::set_zero, xpu>::Launch(s, blob.Size(), blob.dptr<DType>());
  });
}

/*!
 * \brief Bilinear taps of point (y, x) on an H x W map with ROIAlign's border rules (ROIAlign,
 *        RROIAlign): 4 flat indices and weights; false when the point is outside
 *        [-1, H] x [-1, W] or not a number (it contributes nothing).
 */
template <typename G>
MSHADOW_XINLINE bool BilinearTaps(G y, G x, index_t H, index_t W, index_t idx[4], G wt[4]) {
  if (!(y >= G(-1) && y <= static_cast<G>(H) && x >= G(-1) && x <= static_cast<G>(W))) {
    return false;
  }
  if (y <= 0) y = 0;
  if (x <= 0) x = 0;
  index_t y0 = static_cast<index_t>(y), x0 = static_cast<index_t>(x), y1, x1;
  if (y0 >= H - 1) {
    y0 = y1 = H - 1;
    y = static_cast<G>(y0);
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= W - 1) {
    x0 = x1 = W - 1;
    x = static_cast<G>(x0);
  } else {
    x1 = x0 + 1;
  }
  const G ly = y - static_cast<G>(y0), lx = x - static_cast<G>(x0);
  const G hy = G(1) - ly, hx = G(1) - lx;
  idx[0] = y0 * W + x0; idx[1] = y0 * W + x1; idx[2] = y1 * W + x0; idx[3] = y1 * W + x1;
  wt[0] = hy * hx; wt[1] = hy * lx; wt[2] = ly * hx; wt[3] = ly * lx;
  return true;
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_SPATIAL_KERNEL_UTIL_INL_H_
