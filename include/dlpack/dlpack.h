/*!
 * \file dlpack/dlpack.h
 * \brief The DLPack tensor-exchange structs (layout of the public DLPack v0.x header), so that
 *        arrays can be shared zero-copy with other frameworks.
 *
 *   DLManagedTensor* t = ...;                 // from a producer
 *   float* p = static_cast<float*>(t->dl_tensor.data);
 *   t->deleter(t);                            // when done: the producer frees its memory
 *
 * `device` is also reachable as `ctx` (its name up to DLPack v0.5).
 */
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

#ifdef __cplusplus
#define DLPACK_EXTERN_C extern "C"
#else
#define DLPACK_EXTERN_C
#endif

#define DLPACK_VERSION 60
#define DLPACK_DLL

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief Device kind. */
typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLGPU = 2,  // name before DLPack v0.6
  kDLCUDAHost = 3,
  kDLCPUPinned = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
} DLDeviceType;

/*! \brief A device: kind and ordinal. */
typedef struct {
  DLDeviceType device_type;
  int device_id;
} DLDevice;
typedef DLDevice DLContext;

/*! \brief Element type class. */
typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
} DLDataTypeCode;

/*! \brief Element type: class, bits per lane, lanes (1 for scalars). */
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/*! \brief A strided view; strides == NULL means compact row-major. Counts are in elements. */
typedef struct {
  void* data;
  union {
    DLDevice device;
    DLContext ctx;
  };
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

/*! \brief A DLTensor with its owner: call deleter(self) to release it. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // DLPACK_DLPACK_H_
