/*!
 * \file matrix_op_gpu.cuh
 * \brief The GPU forms of the strided copies behind transpose, slice, reverse, depth_to_space,
 *        diag, concat and split (StridedView gathers and scatters), and of CopyBlob. Included
 *        by matrix_op-inl.h in CUDA compiles only.
 */
#ifndef MXNET_OPERATOR_TENSOR_MATRIX_OP_GPU_CUH_
#define MXNET_OPERATOR_TENSOR_MATRIX_OP_GPU_CUH_

#include "../../common/cuda_utils.h"
#include "../mxnet_op.h"

namespace mxnet {
namespace op {
namespace matrix_gpu {

/*! \brief A StridedView for kernels: element i's offset from its row-major coordinates. */
struct StridedIndex {
  reduce_gpu::AxesOffset axes;
  index_t offset;
  explicit StridedIndex(StridedView v) : offset(v.offset) {
    v.Simplify();
    for (int d = 0; d < v.ndim; ++d) axes.Add(v.shape[d], v.stride[d]);
  }
  MSHADOW_XINLINE index_t operator()(index_t i) const { return offset + axes.Of(i); }
};

struct strided_gather {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, StridedIndex v, const DType* src, DType* out,
                                  int req) {
    if (req == kAddTo) {
      out[i] += src[v(i)];
    } else {
      out[i] = src[v(i)];
    }
  }
};

struct strided_scatter {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, StridedIndex v, const DType* src, DType* dst,
                                  int req) {
    if (req == kAddTo) {
      dst[v(i)] += src[i];
    } else {
      dst[v(i)] = src[i];
    }
  }
};

struct strided_fill {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, StridedIndex v, DType* dst, DType value) {
    dst[v(i)] = value;
  }
};

struct add_into {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* src, DType* dst) {
    dst[i] += src[i];
  }
};

}  // namespace matrix_gpu

template <typename DType>
void StridedGatherPlanned(mshadow::Stream<mshadow::gpu>* s, const StridedView& v,
                          const DType* src, DType* out, OpReqType req) {
  if (req == kNullOp || v.Size() == 0) return;
  mxnet_op::Kernel<matrix_gpu::strided_gather, mshadow::gpu>::Launch(
      s, v.Size(), matrix_gpu::StridedIndex(v), src, out, static_cast<int>(req));
}

template <typename DType>
void StridedScatterPlanned(mshadow::Stream<mshadow::gpu>* s, const StridedView& v,
                           const DType* src, DType* dst, OpReqType req) {
  if (req == kNullOp || v.Size() == 0) return;
  mxnet_op::Kernel<matrix_gpu::strided_scatter, mshadow::gpu>::Launch(
      s, v.Size(), matrix_gpu::StridedIndex(v), src, dst, static_cast<int>(req));
}

template <typename DType>
void StridedFillPlanned(mshadow::Stream<mshadow::gpu>* s, const StridedView& v, DType* dst,
                        DType value) {
  if (v.Size() == 0) return;
  mxnet_op::Kernel<matrix_gpu::strided_fill, mshadow::gpu>::Launch(
      s, v.Size(), matrix_gpu::StridedIndex(v), dst, value);
}

inline void CopyBlobPlanned(mshadow::Stream<mshadow::gpu>* s, const TBlob& in, const TBlob& out,
                            OpReqType req) {
  if (req == kNullOp) return;
  CheckCopyTypes(in, out);
  if (req == kAddTo) {
    MSHADOW_TYPE_SWITCH_WITH_BOOL(in.type_flag_, DType, {
      mxnet_op::Kernel<matrix_gpu::add_into, mshadow::gpu>::Launch(
          s, static_cast<index_t>(in.Size()), static_cast<const DType*>(in.dptr<DType>()),
          out.dptr<DType>());
    });
  } else if (in.dptr_ != out.dptr_ && in.Size() > 0) {
    const size_t bytes = in.Size() * mshadow::mshadow_sizeof(in.type_flag_);
    CUDA_CALL(cudaMemcpyAsync(out.dptr_, in.dptr_, bytes, cudaMemcpyDeviceToDevice,
                              mshadow::Stream<mshadow::gpu>::GetStream(s)));
  }
}

template <typename DType>
void ReverseInPlace(mshadow::Stream<mshadow::gpu>* s, const StridedView& v, DType* out, size_t n,
                    OpReqType req) {
  reduce_gpu::Scratch tmp(n * sizeof(DType));
  CUDA_CALL(cudaMemcpyAsync(tmp.get<DType>(), out, n * sizeof(DType), cudaMemcpyDeviceToDevice,
                            mshadow::Stream<mshadow::gpu>::GetStream(s)));
  StridedGatherPlanned(s, v, static_cast<const DType*>(tmp.get<DType>()), out, req);
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_TENSOR_MATRIX_OP_GPU_CUH_
