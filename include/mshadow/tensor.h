/*!
 * \file mshadow/tensor.h
 * \brief Fixed-rank shapes and plain tensor views: Shape<ndim> and Tensor<Device, ndim, DType>.
 *
 * A Tensor is a view (pointer + shape + row stride + stream); it never owns memory. Kernels
 * usually get one from a TBlob:
 *
 *   mshadow::Tensor<cpu, 2, float> m = blob.FlatTo2D<cpu, float>(s);
 *   for (index_t i = 0; i < m.size(0); ++i)
 *     for (index_t j = 0; j < m.size(1); ++j) m[i][j] *= 2.f;
 *   Shape<3> sh = Shape3(2, 3, 4);   // sh.Size() == 24
 *
 * Rows may be padded (stride_ >= shape_[ndim-1]); CheckContiguous() says whether they are not.
 * There are no expression templates here.
 */
#ifndef MSHADOW_TENSOR_H_
#define MSHADOW_TENSOR_H_

#include <mshadow/base.h>

#include <ostream>

namespace mshadow {

/*! \brief A shape of fixed rank `dimension` (>= 1), 64-bit extents. */
template <int dimension>
struct Shape {
  static_assert(dimension >= 1, "Shape<0> is not supported");
  static constexpr int kDimension = dimension;
  static constexpr int kSubdim = dimension - 1;
  index_t shape_[kDimension];

  MSHADOW_XINLINE index_t& operator[](int idx) { return shape_[idx]; }
  MSHADOW_XINLINE const index_t& operator[](int idx) const { return shape_[idx]; }
  MSHADOW_XINLINE bool operator==(const Shape<kDimension>& s) const {
    for (int i = 0; i < kDimension; ++i) {
      if (s.shape_[i] != this->shape_[i]) return false;
    }
    return true;
  }
  MSHADOW_XINLINE bool operator!=(const Shape<kDimension>& s) const { return !(*this == s); }
  /*! \brief Number of elements. */
  MSHADOW_XINLINE index_t Size() const {
    index_t size = 1;
    for (int i = 0; i < kDimension; ++i) size *= this->shape_[i];
    return size;
  }
  /*! \brief Product of extents in [dimstart, dimend). */
  MSHADOW_XINLINE index_t ProdShape(int dimstart, int dimend) const {
    index_t num = 1;
    for (int i = dimstart; i < dimend; ++i) num *= this->shape_[i];
    return num;
  }
  /*! \brief All dims folded into one. */
  MSHADOW_XINLINE Shape<1> FlatTo1D() const;
  /*! \brief Leading dims folded into rows; the last dim is the columns. */
  MSHADOW_XINLINE Shape<2> FlatTo2D() const;
  /*! \brief The shape without its first dim. */
  MSHADOW_XINLINE Shape<(kSubdim > 0 ? kSubdim : 1)> SubShape() const {
    Shape<(kSubdim > 0 ? kSubdim : 1)> s;
    if (kSubdim == 0) {
      s.shape_[0] = 1;
    } else {
      for (int i = 0; i < kSubdim; ++i) s.shape_[i] = this->shape_[i + 1];
    }
    return s;
  }
  /*! \brief The dims [dimstart, dimend). */
  template <int dimstart, int dimend>
  MSHADOW_XINLINE Shape<dimend - dimstart> Slice() const {
    Shape<dimend - dimstart> s;
    for (int i = dimstart; i < dimend; ++i) s[i - dimstart] = this->shape_[i];
    return s;
  }

  friend std::ostream& operator<<(std::ostream& os, const Shape<dimension>& shape) {
    os << '(';
    for (int i = 0; i < dimension; ++i) {
      if (i != 0) os << ',';
      os << shape[i];
    }
    if (dimension == 1) os << ',';  // python-style one-tuple
    os << ')';
    return os;
  }
};

template <int dimension>
MSHADOW_XINLINE Shape<1> Shape<dimension>::FlatTo1D() const {
  Shape<1> s;
  s[0] = this->Size();
  return s;
}

template <int dimension>
MSHADOW_XINLINE Shape<2> Shape<dimension>::FlatTo2D() const {
  Shape<2> s;
  s.shape_[1] = this->shape_[kDimension - 1];
  index_t ymax = 1;
  for (int i = 0; i < kDimension - 1; ++i) ymax *= this->shape_[i];
  s.shape_[0] = ymax;
  return s;
}

MSHADOW_XINLINE Shape<1> Shape1(index_t s0) {
  Shape<1> s;
  s[0] = s0;
  return s;
}
MSHADOW_XINLINE Shape<2> Shape2(index_t s0, index_t s1) {
  Shape<2> s;
  s[0] = s0;
  s[1] = s1;
  return s;
}
MSHADOW_XINLINE Shape<3> Shape3(index_t s0, index_t s1, index_t s2) {
  Shape<3> s;
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  return s;
}
MSHADOW_XINLINE Shape<4> Shape4(index_t s0, index_t s1, index_t s2, index_t s3) {
  Shape<4> s;
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
  return s;
}
MSHADOW_XINLINE Shape<5> Shape5(index_t s0, index_t s1, index_t s2, index_t s3, index_t s4) {
  Shape<5> s;
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
  s[4] = s4;
  return s;
}

/*!
 * \brief A view of `dimension`-D data on Device. Element (i, j, ..., k) lives at
 *        dptr_[((i * shape_[1] + j) * ...) * stride_ + k]: only the last dim may be padded.
 */
template <typename Device, int dimension, typename DType = default_real_t>
struct Tensor {
  static constexpr bool kDevCPU = Device::kDevCPU;
  static constexpr int kSubdim = dimension - 1;

  DType* dptr_{nullptr};
  Shape<dimension> shape_;
  /*! \brief Distance in elements between consecutive rows (of the last dim). */
  index_t stride_{0};
  Stream<Device>* stream_{nullptr};

  MSHADOW_XINLINE Tensor() {}
  MSHADOW_XINLINE Tensor(const Shape<dimension>& shape) : shape_(shape) {}  // NOLINT
  MSHADOW_XINLINE Tensor(DType* dptr, const Shape<dimension>& shape)
      : dptr_(dptr), shape_(shape), stride_(shape[kSubdim]) {}
  MSHADOW_XINLINE Tensor(DType* dptr, const Shape<dimension>& shape, Stream<Device>* stream)
      : dptr_(dptr), shape_(shape), stride_(shape[kSubdim]), stream_(stream) {}
  MSHADOW_XINLINE Tensor(DType* dptr, const Shape<dimension>& shape, index_t stride,
                         Stream<Device>* stream)
      : dptr_(dptr), shape_(shape), stride_(stride), stream_(stream) {}

  void set_stream(Stream<Device>* stream) { stream_ = stream; }
  /*! \brief Elements spanned in memory by dims [startdim, ndim), counting row padding. */
  template <int startdim>
  MSHADOW_XINLINE index_t MemSize() const {
    index_t memsz = this->stride_;
    for (int i = startdim; i < kSubdim; ++i) memsz *= this->shape_[i];
    return memsz;
  }
  /*! \brief True when rows are not padded. */
  MSHADOW_XINLINE bool CheckContiguous() const { return this->shape_[kSubdim] == stride_; }
  /*! \brief Elements spanned in memory, counting row padding. */
  MSHADOW_XINLINE index_t MSize() const { return this->MemSize<0>(); }
  MSHADOW_XINLINE index_t size(int idx) const { return shape_[idx]; }
  /*! \brief Same memory as 1-D (the tensor must be contiguous). */
  MSHADOW_XINLINE Tensor<Device, 1, DType> FlatTo1D() const {
    return Tensor<Device, 1, DType>(dptr_, shape_.FlatTo1D(), stride_, stream_);
  }
  /*! \brief Same memory as 2-D: leading dims folded into rows. */
  MSHADOW_XINLINE Tensor<Device, 2, DType> FlatTo2D() const {
    return Tensor<Device, 2, DType>(dptr_, shape_.FlatTo2D(), stride_, stream_);
  }
  /*! \brief The idx-th sub-tensor along dim 0. */
  MSHADOW_XINLINE Tensor<Device, kSubdim, DType> operator[](index_t idx) const {
    return Tensor<Device, kSubdim, DType>(dptr_ + this->MemSize<1>() * idx, shape_.SubShape(),
                                          stride_, stream_);
  }
  /*! \brief Rows [begin, end) along dim 0. */
  MSHADOW_XINLINE Tensor<Device, dimension, DType> Slice(index_t begin, index_t end) const {
    Shape<dimension> s = this->shape_;
    s[0] = end - begin;
    return Tensor<Device, dimension, DType>(dptr_ + this->MemSize<1>() * begin, s, stride_,
                                            stream_);
  }
};

/*! \brief 1-D tensor: indexing yields elements. */
template <typename Device, typename DType>
struct Tensor<Device, 1, DType> {
  static constexpr bool kDevCPU = Device::kDevCPU;
  static constexpr int kSubdim = 0;

  DType* dptr_{nullptr};
  Shape<1> shape_;
  index_t stride_{0};
  Stream<Device>* stream_{nullptr};

  MSHADOW_XINLINE Tensor() {}
  MSHADOW_XINLINE Tensor(const Shape<1>& shape) : shape_(shape) {}  // NOLINT
  MSHADOW_XINLINE Tensor(DType* dptr, Shape<1> shape)
      : dptr_(dptr), shape_(shape), stride_(shape[0]) {}
  MSHADOW_XINLINE Tensor(DType* dptr, Shape<1> shape, Stream<Device>* stream)
      : dptr_(dptr), shape_(shape), stride_(shape[0]), stream_(stream) {}
  MSHADOW_XINLINE Tensor(DType* dptr, Shape<1> shape, index_t stride, Stream<Device>* stream)
      : dptr_(dptr), shape_(shape), stride_(stride), stream_(stream) {}

  void set_stream(Stream<Device>* stream) { stream_ = stream; }
  template <int startdim>
  MSHADOW_XINLINE index_t MemSize() const {
    return startdim == 0 ? shape_[0] : 1;
  }
  MSHADOW_XINLINE bool CheckContiguous() const { return true; }
  MSHADOW_XINLINE index_t MSize() const { return shape_[0]; }
  MSHADOW_XINLINE index_t size(int i) const { return shape_[i]; }
  MSHADOW_XINLINE Tensor<Device, 1, DType> FlatTo1D() const { return *this; }
  MSHADOW_XINLINE Tensor<Device, 2, DType> FlatTo2D() const {
    return Tensor<Device, 2, DType>(dptr_, shape_.FlatTo2D(), stride_, stream_);
  }
  MSHADOW_XINLINE Tensor<Device, 1, DType> Slice(index_t begin, index_t end) const {
    Shape<1> s;
    s[0] = end - begin;
    return Tensor<Device, 1, DType>(dptr_ + begin, s, s[0], stream_);
  }
  MSHADOW_XINLINE DType& operator[](index_t idx) { return dptr_[idx]; }
  MSHADOW_XINLINE const DType& operator[](index_t idx) const { return dptr_[idx]; }
};

}  // namespace mshadow

#endif  // MSHADOW_TENSOR_H_
