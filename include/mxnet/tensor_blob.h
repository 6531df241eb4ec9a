/*!
 * \file mxnet/tensor_blob.h
 * \brief TBlob: an untyped, non-owning view of dense data (pointer, TShape, dtype code,
 *        device). It is what FCompute kernels receive for inputs and outputs.
 *
 *   void Forward(const TBlob& in, const TBlob& out, mshadow::Stream<cpu>* s) {
 *     MSHADOW_TYPE_SWITCH(out.type_flag_, DType, {
 *       const DType* x = in.dptr<DType>();       // throws TypeError on a dtype mismatch
 *       DType* y = out.dptr<DType>();
 *       for (size_t i = 0; i < out.Size(); ++i) y[i] = x[i] * 2;
 *     });
 *     auto m = in.FlatTo2D<cpu, float>(s);       // mshadow::Tensor<cpu, 2, float>
 *   }
 *
 * Converts to and from DLPack's DLTensor (dltensor(), TBlob(const DLTensor&)).
 */
#ifndef MXNET_TENSOR_BLOB_H_
#define MXNET_TENSOR_BLOB_H_

#include <dlpack/dlpack.h>
#include <dmlc/logging.h>
#include <mshadow/base.h>
#include <mshadow/tensor.h>
#include <mxnet/base.h>
#include <mxnet/tuple.h>

#include <algorithm>
#include <utility>

namespace mxnet {

class TBlob {
 public:
  /*! \brief Data pointer (not owned). */
  void* dptr_{nullptr};
  /*! \brief Shape of the data. */
  mxnet::TShape shape_;
  /*! \brief dtype code (mshadow::kFloat32, ...). */
  int type_flag_{mshadow::kFloat32};
  /*! \brief Device mask: cpu::kDevMask or gpu::kDevMask. */
  int dev_mask_{cpu::kDevMask};
  /*! \brief Device id. */
  int dev_id_{0};

  TBlob() = default;
  /*! \brief View of typed memory. */
  template <typename DType>
  TBlob(DType* dptr, const mxnet::TShape& shape, int dev_mask, int dev_id = -1)
      : dptr_(dptr),
        shape_(shape),
        type_flag_(mshadow::DataType<DType>::kFlag),
        dev_mask_(dev_mask),
        dev_id_(dev_id < 0 ? 0 : dev_id) {}
  /*! \brief View of untyped memory with dtype code type_flag. */
  TBlob(void* dptr, const mxnet::TShape& shape, int dev_mask, int type_flag, int dev_id = -1)
      : dptr_(dptr),
        shape_(shape),
        type_flag_(type_flag),
        dev_mask_(dev_mask),
        dev_id_(dev_id < 0 ? 0 : dev_id) {}
  /*! \brief View of a compact DLPack tensor; throws ValueError for strided or unsupported ones. */
  explicit TBlob(const DLTensor& dltensor);
  /*! \brief View of a contiguous mshadow tensor. */
  template <typename Device, int dim, typename DType>
  TBlob(const mshadow::Tensor<Device, dim, DType>& src)  // NOLINT(runtime/explicit)
      : dptr_(src.dptr_),
        shape_(src.shape_),
        type_flag_(mshadow::DataType<DType>::kFlag),
        dev_mask_(Device::kDevMask),
        dev_id_(0) {
    CHECK(src.CheckContiguous()) << "TBlob: only a contiguous Tensor can be viewed as a TBlob";
  }

  int ndim() const { return shape_.ndim(); }
  index_t size(int idx) const { return shape_[idx]; }
  /*! \brief Number of elements. */
  size_t Size() const { return shape_.Size(); }
  int dev_mask() const { return dev_mask_; }
  int dev_id() const { return dev_id_; }
  /*! \brief Always true: TBlobs are compact. */
  bool CheckContiguous() const { return true; }

  /*! \brief Same memory with another shape of the same size; throws ValueError otherwise. */
  TBlob reshape(const mxnet::TShape& shape) const {
    if (shape_.Size() != shape.Size()) {
      MX_THROW(ValueError) << "TBlob.reshape: expected a shape with " << shape_.Size()
                           << " elements (like " << shape_ << "), got " << shape << " with "
                           << shape.Size() << " elements";
    }
    return TBlob(dptr_, shape, dev_mask_, type_flag_, dev_id_);
  }

  /*! \brief The data pointer as DType*; throws TypeError unless DType matches type_flag_. */
  template <typename DType>
  DType* dptr() const {
    if (mshadow::DataType<DType>::kFlag != type_flag_) {
      MX_THROW(TypeError) << "TBlob data type mismatch: expected "
                          << mshadow::dtype_string(type_flag_) << " (the data's dtype), got "
                          << mshadow::dtype_string(mshadow::DataType<DType>::kFlag)
                          << " (requested)";
    }
    return static_cast<DType*>(dptr_);
  }

  /*! \brief Tensor view with the blob's own shape; ndim() must equal dim. */
  template <typename Device, int dim, typename DType>
  mshadow::Tensor<Device, dim, DType> get(mshadow::Stream<Device>* stream = nullptr) const {
    CheckDevice<Device>("get");
    mshadow::Shape<dim> s = shape_.get<dim>();
    return mshadow::Tensor<Device, dim, DType>(dptr<DType>(), s, s[dim - 1], stream);
  }
  /*! \brief Tensor view with another shape of the same number of elements. */
  template <typename Device, int dim, typename DType>
  mshadow::Tensor<Device, dim, DType> get_with_shape(const mshadow::Shape<dim>& shape,
                                                     mshadow::Stream<Device>* stream = nullptr) const {
    CheckDevice<Device>("get_with_shape");
    CHECK_EQ(this->shape_.Size(), static_cast<size_t>(shape.Size()))
        << "TBlob.get_with_shape: new and old shape do not match total elements";
    return mshadow::Tensor<Device, dim, DType>(dptr<DType>(), shape, shape[dim - 1], stream);
  }
  /*! \brief 1-D view of all elements. */
  template <typename Device, typename DType>
  mshadow::Tensor<Device, 1, DType> FlatTo1D(mshadow::Stream<Device>* stream = nullptr) const {
    return this->get_with_shape<Device, 1, DType>(
        mshadow::Shape1(static_cast<index_t>(shape_.Size())), stream);
  }
  /*! \brief 2-D view: leading dims folded into rows; a 0-d blob gives (1, 1). */
  template <typename Device, typename DType>
  mshadow::Tensor<Device, 2, DType> FlatTo2D(mshadow::Stream<Device>* stream = nullptr) const {
    return this->get_with_shape<Device, 2, DType>(shape_.FlatTo2D(), stream);
  }
  /*! \brief 3-D view (dims before axis, dim axis, dims after). */
  template <typename Device, typename DType>
  mshadow::Tensor<Device, 3, DType> FlatTo3D(int axis,
                                             mshadow::Stream<Device>* stream = nullptr) const {
    return this->get_with_shape<Device, 3, DType>(shape_.FlatTo3D(axis), stream);
  }
  /*! \brief 3-D view (dims before axis_begin, dims [axis_begin, axis_end], dims after). */
  template <typename Device, typename DType>
  mshadow::Tensor<Device, 3, DType> FlatTo3D(int axis_begin, int axis_end,
                                             mshadow::Stream<Device>* stream = nullptr) const {
    return this->get_with_shape<Device, 3, DType>(shape_.FlatTo3D(axis_begin, axis_end), stream);
  }
  /*! \brief dim-D view: extra leading dims folded into dim 0, or leading 1s added. */
  template <typename Device, int dim, typename DType>
  mshadow::Tensor<Device, dim, DType> FlatToKD(mshadow::Stream<Device>* stream = nullptr) const {
    mshadow::Shape<dim> shape;
    for (int i = 0; i < dim; ++i) shape[i] = 1;
    const int nd = ndim();
    for (int i = 0; i < nd - dim + 1; ++i) shape[0] *= shape_[i];
    for (int i = std::max(0, nd - dim + 1); i < nd; ++i) shape[i - nd + dim] = shape_[i];
    return this->get_with_shape<Device, dim, DType>(shape, stream);
  }

  /*!
   * \brief DLPack view of this blob. Its shape pointer points into this TBlob, so the
   *        DLTensor is valid only while this TBlob is alive and unchanged.
   */
  DLTensor dltensor() const {
    DLTensor t;
    t.data = dptr_;
    t.device.device_type = dev_mask_ == gpu::kDevMask ? kDLCUDA : kDLCPU;
    t.device.device_id = dev_id_;
    t.ndim = shape_.ndim() < 0 ? 0 : shape_.ndim();
    t.dtype = DTypeTransform(type_flag_);
    t.shape = const_cast<int64_t*>(shape_.data());
    t.strides = nullptr;
    t.byte_offset = 0;
    return t;
  }
  /*! \brief DLPack dtype of an mshadow dtype code; throws TypeError for unknown codes. */
  static DLDataType DTypeTransform(int type_flag);
  /*! \brief mshadow dtype code of a DLPack dtype; throws TypeError when there is none. */
  static int DLDataTypeTransform(DLDataType dldata_type);

 private:
  template <typename Device>
  void CheckDevice(const char* what) const {
    if (Device::kDevMask != dev_mask_) {
      MX_THROW(ValueError) << "TBlob." << what << ": expected data on "
                           << (Device::kDevMask == gpu::kDevMask ? "gpu" : "cpu") << ", got "
                           << (dev_mask_ == gpu::kDevMask ? "gpu" : "cpu") << " data";
    }
  }
};

inline DLDataType TBlob::DTypeTransform(int type_flag) {
  switch (type_flag) {
    case mshadow::kFloat32: return DLDataType{kDLFloat, 32, 1};
    case mshadow::kFloat64: return DLDataType{kDLFloat, 64, 1};
    case mshadow::kFloat16: return DLDataType{kDLFloat, 16, 1};
    case mshadow::kBfloat16: return DLDataType{kDLBfloat, 16, 1};
    case mshadow::kUint8: return DLDataType{kDLUInt, 8, 1};
    case mshadow::kUint16: return DLDataType{kDLUInt, 16, 1};
    case mshadow::kUint32: return DLDataType{kDLUInt, 32, 1};
    case mshadow::kUint64: return DLDataType{kDLUInt, 64, 1};
    case mshadow::kInt8: return DLDataType{kDLInt, 8, 1};
    case mshadow::kInt16: return DLDataType{kDLInt, 16, 1};
    case mshadow::kInt32: return DLDataType{kDLInt, 32, 1};
    case mshadow::kInt64: return DLDataType{kDLInt, 64, 1};
    case mshadow::kBool: return DLDataType{kDLBool, 8, 1};
    default:
      MX_THROW(TypeError) << "no DLPack dtype for " << mshadow::dtype_string(type_flag);
  }
  return DLDataType{kDLFloat, 32, 1};  // not reached
}

inline int TBlob::DLDataTypeTransform(DLDataType t) {
  if (t.lanes == 1) {
    switch (t.code) {
      case kDLFloat:
        if (t.bits == 32) return mshadow::kFloat32;
        if (t.bits == 64) return mshadow::kFloat64;
        if (t.bits == 16) return mshadow::kFloat16;
        break;
      case kDLBfloat:
        if (t.bits == 16) return mshadow::kBfloat16;
        break;
      case kDLUInt:
        if (t.bits == 8) return mshadow::kUint8;
        if (t.bits == 16) return mshadow::kUint16;
        if (t.bits == 32) return mshadow::kUint32;
        if (t.bits == 64) return mshadow::kUint64;
        if (t.bits == 1) return mshadow::kBool;
        break;
      case kDLInt:
        if (t.bits == 8) return mshadow::kInt8;
        if (t.bits == 16) return mshadow::kInt16;
        if (t.bits == 32) return mshadow::kInt32;
        if (t.bits == 64) return mshadow::kInt64;
        break;
      case kDLBool:
        if (t.bits == 8) return mshadow::kBool;
        break;
      default:
        break;
    }
  }
  MX_THROW(TypeError) << "unsupported DLPack dtype (code " << static_cast<int>(t.code) << ", bits "
                      << static_cast<int>(t.bits) << ", lanes " << t.lanes << ")";
  return -1;  // not reached
}

inline TBlob::TBlob(const DLTensor& dltensor)
    : dptr_(static_cast<char*>(dltensor.data) + dltensor.byte_offset),
      shape_(dltensor.shape, dltensor.shape + dltensor.ndim),
      type_flag_(DLDataTypeTransform(dltensor.dtype)),
      dev_mask_(dltensor.device.device_type == kDLCUDA ? gpu::kDevMask : cpu::kDevMask),
      dev_id_(dltensor.device.device_id) {
  if (dltensor.device.device_type != kDLCPU && dltensor.device.device_type != kDLCUDA &&
      dltensor.device.device_type != kDLCUDAHost) {
    MX_THROW(ValueError) << "TBlob: unsupported DLPack device type "
                         << static_cast<int>(dltensor.device.device_type);
  }
  if (dltensor.strides != nullptr) {  // must be compact row-major
    int64_t expected = 1;
    for (int i = dltensor.ndim - 1; i >= 0; --i) {
      if (dltensor.shape[i] != 1 && dltensor.strides[i] != expected) {
        MX_THROW(ValueError) << "TBlob: only compact row-major DLPack tensors are supported";
      }
      expected *= dltensor.shape[i];
    }
  }
}

}  // namespace mxnet

#endif  // MXNET_TENSOR_BLOB_H_
