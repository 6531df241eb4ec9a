/*!
 * \file mxnet/lib_api.h
 * \brief Writing operators in a shared library that MXNet loads at run time (mx.library.load).
 *
 * Authoring API: source compatible with MXNet 1.9's lib_api.h (namespace mxnet::ext). A
 * library is one or more .cc files plus src/lib_api.cc, built with
 *
 *   g++ -shared -fPIC -std=c++17 my_op.cc <mxnet>/src/lib_api.cc -o libmy_op.so -I <mxnet>/include
 *
 * (from a pip install: -I $(python -c "import mxnet; print(mxnet.libinfo.find_include_path())")
 * and <include dir>/../src/lib_api.cc). Example:
 *
 *   #include "mxnet/lib_api.h"
 *   using namespace mxnet::ext;
 *
 *   MXReturnValue parseAttrs(const std::unordered_map<std::string, std::string>& attrs,
 *                            int* num_in, int* num_out) {
 *     *num_in = 1; *num_out = 1; return MX_SUCCESS;
 *   }
 *   MXReturnValue inferType(const std::unordered_map<std::string, std::string>& attrs,
 *                           std::vector<int>* in, std::vector<int>* out) {
 *     out->at(0) = in->at(0); return MX_SUCCESS;
 *   }
 *   MXReturnValue inferShape(const std::unordered_map<std::string, std::string>& attrs,
 *                            std::vector<std::vector<unsigned int>>* in,
 *                            std::vector<std::vector<unsigned int>>* out) {
 *     out->at(0) = in->at(0); return MX_SUCCESS;
 *   }
 *   MXReturnValue forward(const std::unordered_map<std::string, std::string>& attrs,
 *                         std::vector<MXTensor>* inputs, std::vector<MXTensor>* outputs,
 *                         const OpResource& res) {
 *     float* x = inputs->at(0).data<float>();
 *     float* y = outputs->at(0).data<float>();
 *     for (int64_t i = 0; i < inputs->at(0).size(); ++i) y[i] = x[i] > 0 ? x[i] : 0;
 *     return MX_SUCCESS;
 *   }
 *   REGISTER_OP(my_relu).setParseAttrs(parseAttrs).setInferType(inferType)
 *                       .setInferShape(inferShape).setForward(forward, "cpu");
 *
 *   MXReturnValue initialize(int version) { return version >= 10900 ? MX_SUCCESS : MX_FAIL; }
 *
 * To report a failure, stream a message into MX_ERROR_MSG and return MX_FAIL: MXNet raises an
 * MXNetError naming the operator and the failing call, with the message, and then clears it.
 *
 * Binary interface (the first part of this file, plain C): different from MXNet 1.9's. The
 * library exports one function, MXExtGetLibrary(), returning a table of C function pointers
 * whose first field is MX_EXT_ABI_VERSION; MXNet refuses a table of another version, naming
 * both. Only C types cross it (64-bit shapes, int32 codes, opaque handles, callbacks); no C++
 * exception crosses it in either direction; every call returns 0 on success.
 * libmxnet includes this file with MXNET_EXT_C_ABI_ONLY defined to see only that part.
 */
#ifndef MXNET_LIB_API_H_
#define MXNET_LIB_API_H_

#include <stddef.h>
#include <stdint.h>

/*! \brief MXNet 1.9's library version macro (the authoring API level this header matches). */
#define MX_LIBRARY_VERSION 11

/*! \brief Version of the binary interface below; bumped on any change to it. */
#define MX_EXT_ABI_VERSION 1

/*! \brief Name of the one symbol a library exports. */
#define MX_EXT_ENTRY_SYMBOL "MXExtGetLibrary"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- binary interface (C) */

/*! \brief Status of every interface call: 0 success, else the kind of failure. */
enum MXExtStatus {
  MX_EXT_OK = 0,
  /*! \brief The author's function returned MX_FAIL. */
  MX_EXT_FAILED = 1,
  /*! \brief A C++ exception escaped the author's function (caught in the library). */
  MX_EXT_EXCEPTION = 2,
  /*! \brief The call was malformed (bad index, missing function, ...). */
  MX_EXT_BAD_CALL = 3
};

/*! \brief Device types across the interface (DLPack's numbers). */
enum MXExtDevType { MX_EXT_CPU = 1, MX_EXT_GPU = 2 };

/*! \brief A node's attributes: num key/value strings (borrowed for the call). */
typedef struct MXExtAttrs {
  int32_t num;
  const char* const* keys;
  const char* const* vals;
} MXExtAttrs;

/*! \brief One array of an operator call (borrowed for the call). */
typedef struct MXExtTensor {
  /*! \brief Dense: the first element. Sparse: the non-zero values. */
  void* data;
  const int64_t* shape;
  int32_t ndim;
  /*! \brief MXDType code. */
  int32_t dtype;
  /*! \brief MXStorageType code. */
  int32_t stype;
  /*! \brief MXExtDevType. */
  int32_t dev_type;
  int32_t dev_id;
  /*! \brief Engine version of the array (0 when not known). */
  uint64_t version;
  /* Sparse arrays only (data_len values, indices_len indices, indptr_len row pointers). */
  int64_t data_len;
  int64_t* indices;
  int64_t indices_len;
  int64_t* indptr;
  int64_t indptr_len;
} MXExtTensor;

/*!
 * \brief What MXNet lends an operator call. Callbacks never throw; they return NULL / nonzero
 *        on failure. Memory is valid only during the call.
 */
typedef struct MXExtResource {
  void* ctx;
  /*! \brief `bytes` of host scratch memory (64-byte aligned), or NULL. */
  void* (*alloc_cpu)(void* ctx, int64_t bytes);
  /*! \brief `bytes` of device scratch memory, or NULL (always NULL without CUDA). */
  void* (*alloc_gpu)(void* ctx, int64_t bytes);
  /*! \brief Allocate sparse storage of output `index`; 0 on success. */
  int32_t (*alloc_sparse)(void* ctx, int32_t index, int64_t indices_len, int64_t indptr_len,
                          void** data, int64_t** indices, int64_t** indptr);
  /*! \brief A fresh 64-bit seed from MXNet's generator (follows mx.random.seed). */
  uint64_t (*random_seed)(void* ctx);
  /*! \brief cudaStream_t of the call (NULL on CPU). */
  void* cuda_stream;
  /*! \brief GPU random states (NULL without CUDA). */
  void* gpu_rand_states;
} MXExtResource;

/*! \brief Receives one shape from infer_shape: which = 0 input, 1 output. */
typedef void (*MXExtShapeSink)(void* ctx, int32_t which, int32_t index, int32_t ndim,
                               const int64_t* dims);
/*! \brief Receives one input index from mutate_inputs. */
typedef void (*MXExtIndexSink)(void* ctx, int32_t index);

/*! \brief What the library registered for one operator. */
typedef struct MXExtOpInfo {
  const char* name;
  /*! \brief Opaque handle passed back in op_* calls. */
  void* op;
  int32_t is_subgraph_op;
  int32_t has_parse_attrs;
  int32_t has_infer_type;
  int32_t has_infer_stype;
  int32_t has_infer_shape;
  int32_t has_mutate_inputs;
  /*! \brief Bit (1 << MXExtDevType) set for each device with a forward / backward / state. */
  int32_t forward_devs;
  int32_t backward_devs;
  int32_t create_state_devs;
  /*! \brief Non-NULL if the builder calls failed (e.g. two forwards for "cpu"). */
  const char* registration_error;
} MXExtOpInfo;

/*! \brief The table a library returns. abi_version stays the first field in every version. */
typedef struct MXExtLibrary {
  int32_t abi_version;
  int32_t struct_size;
  /*! \brief The author's initialize(MXNET_VERSION). */
  int32_t (*initialize)(int32_t mxnet_version);
  /*! \brief Messages of the calling thread (MX_ERROR_MSG), oldest first; then clear them. */
  int32_t (*message_count)(void);
  const char* (*message_get)(int32_t index);
  void (*message_clear)(void);
  int32_t (*op_count)(void);
  int32_t (*op_info)(int32_t index, MXExtOpInfo* out);
  int32_t (*op_parse_attrs)(void* op, const MXExtAttrs* attrs, int32_t* num_in,
                            int32_t* num_out);
  /*! \brief Input shapes in; output (and possibly changed input) shapes through `sink`. */
  int32_t (*op_infer_shape)(void* op, const MXExtAttrs* attrs, int32_t num_in,
                            const int32_t* in_ndims, const int64_t* const* in_dims,
                            int32_t num_out, MXExtShapeSink sink, void* sink_ctx);
  /*! \brief Types updated in place (-1 = unknown). */
  int32_t (*op_infer_type)(void* op, const MXExtAttrs* attrs, int32_t num_in, int32_t* in_types,
                           int32_t num_out, int32_t* out_types);
  int32_t (*op_infer_stype)(void* op, const MXExtAttrs* attrs, int32_t num_in,
                            int32_t* in_stypes, int32_t num_out, int32_t* out_stypes);
  int32_t (*op_mutate_inputs)(void* op, const MXExtAttrs* attrs, MXExtIndexSink sink,
                              void* sink_ctx);
  /*! \brief Stateless forward (is_forward = 1) or backward (0) on device dev_type. */
  int32_t (*op_compute)(void* op, int32_t is_forward, int32_t dev_type, const MXExtAttrs* attrs,
                        const MXExtTensor* inputs, int32_t num_in, const MXExtTensor* outputs,
                        int32_t num_out, const MXExtResource* res);
  /*! \brief New state instance in *state (released with state_destroy). */
  int32_t (*op_create_state)(void* op, int32_t dev_type, int32_t dev_id, const MXExtAttrs* attrs,
                             int32_t num_in, const int32_t* in_ndims,
                             const int64_t* const* in_dims, const int32_t* in_types,
                             void** state);
  int32_t (*state_compute)(void* state, int32_t is_forward, const MXExtTensor* inputs,
                           int32_t num_in, const MXExtTensor* outputs, int32_t num_out,
                           const MXExtResource* res);
  void (*state_destroy)(void* state);
} MXExtLibrary;

/*! \brief Type of the exported entry point (defined in src/lib_api.cc). */
typedef const MXExtLibrary* (*MXExtGetLibraryFn)(void);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#if defined(__cplusplus) && !defined(MXNET_EXT_C_ABI_ONLY)

/* ---------------------------------------------------------------- authoring API (C++) */

#include <cstring>
#include <exception>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#if defined(__NVCC__)
#include <cuda_runtime.h>
#if __has_include(<curand_kernel.h>)
#include <curand_kernel.h>
/*! \brief 1 when mx_gpu_rand_t is curand's Philox state (CUDA build with curand headers). */
#define MX_LIBRARY_HAS_CURAND 1
#endif
#endif
#ifndef MX_LIBRARY_HAS_CURAND
#define MX_LIBRARY_HAS_CURAND 0
#endif

#if defined(_WIN32)
#define MX_EXT_EXPORT __declspec(dllexport)
#define MX_EXT_HIDDEN
#else
#define MX_EXT_EXPORT __attribute__((visibility("default")))
/* Per-library singletons (registry, messages, random states) must stay private to each
 * library: exported, the dynamic linker would merge them across all loaded libraries. */
#define MX_EXT_HIDDEN __attribute__((visibility("hidden")))
#endif

namespace mxnet {
namespace ext {

/* Attribute keys MXNet 1.9 defines for subgraph operators and partitioners. */
#define MX_STR_SUBGRAPH_SYM_JSON "subgraph_sym_json"
#define MX_STR_DTYPE "__ext_dtype__"
#define MX_STR_SHAPE "__ext_shape__"
#define MX_STR_EXTRA_INPUTS "__ext_extra_inputs__"

/*! \brief Result of every author function. Note: success is 1. */
enum MXReturnValue { MX_FAIL = 0, MX_SUCCESS = 1 };

enum MXDType {
  kFloat32 = 0,
  kFloat64 = 1,
  kFloat16 = 2,
  kUint8 = 3,
  kInt32 = 4,
  kInt8 = 5,
  kInt64 = 6,
  kUNSET = 100,
};

enum MXStorageType { kDefaultStorage = 0, kRowSparseStorage = 1, kCSRStorage = 2 };

/* DLPack v0.2 declarations (MXTensor::dltensor mirrors the tensor in this layout). */
typedef enum {
  kDLCPU = 1,
  kDLGPU = 2,
  kDLCPUPinned = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLExtDev = 12,
} DLDeviceType;
typedef struct {
  DLDeviceType device_type;
  int device_id;
} DLContext;
typedef enum { kDLInt = 0U, kDLUInt = 1U, kDLFloat = 2U } DLDataTypeCode;
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;
typedef struct {
  void* data;
  DLContext ctx;
  int ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

/*! \brief Device of a tensor or an operator call. */
struct MXContext {
  MXContext() : dev_type("error"), dev_id(-1) {}
  MXContext(std::string dev_type_, int dev_id_) : dev_type(std::move(dev_type_)), dev_id(dev_id_) {}
  MXContext(const char* dev_type_, int dev_id_) : dev_type(dev_type_), dev_id(dev_id_) {}
  static MXContext CPU() { return MXContext("cpu", 0); }
  static MXContext GPU() { return MXContext("gpu", 0); }
  static MXContext CPU(int dev_id) { return MXContext("cpu", dev_id); }
  static MXContext GPU(int dev_id) { return MXContext("gpu", dev_id); }
  std::string dev_type;
  int dev_id;
};

/*! \brief Sparse storage of an MXTensor (MXTensor::data_ptr points to one). */
struct MXSparse {
  void* data = nullptr;
  int64_t data_len = 0;
  int64_t* indices = nullptr;
  int64_t indices_len = 0;
  int64_t* indptr = nullptr;
  int64_t indptr_len = 0;

  /*!
   * \brief Row-sparse (idx_ptr NULL): data_len = num_idx * prod(dims[1:]). CSR: data_len =
   *        num_idx (one value per column index).
   */
  void set(void* data_ptr, const int64_t* dims, int ndims, void* idx, int64_t num_idx,
           void* idx_ptr = nullptr, int64_t num_idx_ptr = 0) {
    data = data_ptr;
    if (idx_ptr == nullptr) {
      int64_t row = 1;
      for (int i = 1; i < ndims; ++i) row *= dims[i];
      data_len = num_idx * row;
    } else {
      data_len = num_idx;
    }
    indices = static_cast<int64_t*>(idx);
    indices_len = num_idx;
    indptr = static_cast<int64_t*>(idx_ptr);
    indptr_len = num_idx_ptr;
  }
};

/*! \brief An array passed to an operator: data pointer, shape, dtype, device. */
struct MXTensor {
  MXTensor() : data_ptr(nullptr), dtype(kUNSET), verID(0), stype(kDefaultStorage) {
    setDLTensor();
  }
  MXTensor(const MXTensor& oth)
      : data_ptr(oth.data_ptr), shape(oth.shape), dtype(oth.dtype), verID(oth.verID),
        ctx(oth.ctx), stype(oth.stype) {
    setDLTensor();
  }
  MXTensor& operator=(const MXTensor& oth) {
    data_ptr = oth.data_ptr;
    shape = oth.shape;
    dtype = oth.dtype;
    verID = oth.verID;
    ctx = oth.ctx;
    stype = oth.stype;
    setDLTensor();
    return *this;
  }
  MXTensor(void* data_ptr_, std::vector<int64_t> shape_, MXDType dtype_, size_t vID,
           MXContext mx_ctx, MXStorageType stype_ = kDefaultStorage)
      : data_ptr(data_ptr_), shape(std::move(shape_)), dtype(dtype_), verID(vID),
        ctx(std::move(mx_ctx)), stype(stype_) {
    setDLTensor();
  }

  void setTensor(void* dptr, MXDType type, const int64_t* dims, int ndims, size_t vID,
                 MXContext mx_ctx, MXStorageType storage_type) {
    data_ptr = dptr;
    dtype = type;
    verID = vID;
    ctx = std::move(mx_ctx);
    stype = storage_type;
    shape.assign(dims, dims + ndims);
    setDLTensor();
  }

  /*! \brief Refresh `dltensor` from the fields. */
  void setDLTensor() {
    dltensor.data = data_ptr;
    dltensor.ndim = static_cast<int>(shape.size());
    dltensor.shape = shape.empty() ? nullptr : shape.data();
    dltensor.strides = nullptr;
    dltensor.byte_offset = 0;
    dltensor.ctx.device_type = ctx.dev_type == "gpu" ? kDLGPU : kDLCPU;
    dltensor.ctx.device_id = ctx.dev_id;
    dltensor.dtype.lanes = 1;
    switch (dtype) {
      case kFloat32: dltensor.dtype.code = kDLFloat; dltensor.dtype.bits = 32; break;
      case kFloat64: dltensor.dtype.code = kDLFloat; dltensor.dtype.bits = 64; break;
      case kFloat16: dltensor.dtype.code = kDLFloat; dltensor.dtype.bits = 16; break;
      case kUint8: dltensor.dtype.code = kDLUInt; dltensor.dtype.bits = 8; break;
      case kInt32: dltensor.dtype.code = kDLInt; dltensor.dtype.bits = 32; break;
      case kInt8: dltensor.dtype.code = kDLInt; dltensor.dtype.bits = 8; break;
      case kInt64: dltensor.dtype.code = kDLInt; dltensor.dtype.bits = 64; break;
      default: dltensor.dtype.code = 0; dltensor.dtype.bits = 0; break;
    }
  }

  /*! \brief The data as T* (dense tensors; for sparse ones data_ptr is an MXSparse*). */
  template <typename T>
  inline T* data() {
    return reinterpret_cast<T*>(data_ptr);
  }

  /*! \brief Number of elements (product of the shape). */
  int64_t size() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }

  /*! \brief Same memory, dtype, version, device, shape and storage type. */
  bool isSame(const MXTensor& oth) const {
    return data_ptr == oth.data_ptr && dtype == oth.dtype && verID == oth.verID &&
           ctx.dev_type == oth.ctx.dev_type && ctx.dev_id == oth.ctx.dev_id &&
           shape == oth.shape && stype == oth.stype;
  }

  void* data_ptr;
  std::vector<int64_t> shape;
  MXDType dtype;
  /*! \brief Engine version of the array: changes when the array is written. */
  size_t verID;
  MXContext ctx;
  DLTensor dltensor;
  MXStorageType stype;
};

/*! \brief CPU random generator state. */
typedef std::mt19937 mx_cpu_rand_t;
#if defined(__NVCC__)
/*! \brief The CUDA stream of a call. */
typedef cudaStream_t mx_stream_t;
#else
typedef void* mx_stream_t;
#endif
#if MX_LIBRARY_HAS_CURAND
/*! \brief GPU random state. */
typedef curandStatePhilox4_32_10_t mx_gpu_rand_t;
#else
typedef void mx_gpu_rand_t;
#endif
#define MX_NUM_CPU_RANDOM_STATES 1024
#define MX_NUM_GPU_RANDOM_STATES 32768

/*! \brief Memory, streams and random states MXNet lends an operator call. */
class OpResource {
 public:
  explicit OpResource(const MXExtResource* res) : res_(res) {}

  /*! \brief `size` bytes of host scratch memory, valid during this call (NULL on failure).
   *         Each call returns a distinct block. */
  void* alloc_cpu(int size) const {
    return res_ != nullptr && res_->alloc_cpu != nullptr ? res_->alloc_cpu(res_->ctx, size)
                                                           : nullptr;
  }
  /*! \brief `size` bytes of device scratch memory (NULL without CUDA). */
  void* alloc_gpu(int size) const {
    return res_ != nullptr && res_->alloc_gpu != nullptr ? res_->alloc_gpu(res_->ctx, size)
                                                           : nullptr;
  }
  mx_stream_t get_cuda_stream() const {
    return static_cast<mx_stream_t>(res_ != nullptr ? res_->cuda_stream : nullptr);
  }

  /*! \brief Allocate output `index`'s sparse storage and point `sparse` at it. */
  void alloc_sparse(MXSparse* sparse, int index, int indices_len, int indptr_len = 0) const {
    void* data = nullptr;
    int64_t* indices = nullptr;
    int64_t* indptr = nullptr;
    if (res_ == nullptr || res_->alloc_sparse == nullptr ||
        res_->alloc_sparse(res_->ctx, index, indices_len, indptr_len, &data, &indices,
                           &indptr) != 0) {
      return;
    }
    sparse->data = data;
    sparse->indices = indices;
    sparse->indices_len = indices_len;
    sparse->indptr = indptr;
    sparse->indptr_len = indptr_len;
  }

  /*!
   * \brief MX_NUM_CPU_RANDOM_STATES generators, freshly seeded from MXNet's generator for this
   *        call (so results follow mx.random.seed). Use them from one thread each.
   */
  mx_cpu_rand_t* get_cpu_rand_states() const {
    std::unique_ptr<std::vector<mx_cpu_rand_t>>& states = CpuRandStates();
    if (!states) states.reset(new std::vector<mx_cpu_rand_t>(MX_NUM_CPU_RANDOM_STATES));
    const uint64_t seed =
        res_ != nullptr && res_->random_seed != nullptr ? res_->random_seed(res_->ctx) : 0;
    for (int i = 0; i < MX_NUM_CPU_RANDOM_STATES; ++i) {
      std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                        static_cast<uint32_t>(i)};
      (*states)[i].seed(seq);
    }
    return states->data();
  }
  mx_gpu_rand_t* get_gpu_rand_states() const {
    return static_cast<mx_gpu_rand_t*>(res_ != nullptr ? res_->gpu_rand_states : nullptr);
  }

 private:
  /*! \brief This thread's states (allocated on first use). */
  MX_EXT_HIDDEN static std::unique_ptr<std::vector<mx_cpu_rand_t>>& CpuRandStates() {
    static thread_local std::unique_ptr<std::vector<mx_cpu_rand_t>> states;
    return states;
  }
  const MXExtResource* res_;
};

/*!
 * \brief Messages the library reports with its next failure (MX_ERROR_MSG). Kept per thread;
 *        MXNet reads them right after the failing call and then clears them.
 */
class MX_EXT_HIDDEN MXerrorMsgs {
 public:
  static MXerrorMsgs* get() {
    static thread_local MXerrorMsgs inst;
    return &inst;
  }
  std::stringstream& add(const char* file, int line) {
    messages_.emplace_back(new std::stringstream());
    *messages_.back() << file << "[" << line << "]: ";
    return *messages_.back();
  }
  int size() const { return static_cast<int>(messages_.size()); }
  /*! \brief Message idx as a string owned by this object (valid until clear()). */
  const char* get(int idx) {
    if (idx < 0 || idx >= size()) return "";
    if (texts_.size() < messages_.size()) texts_.resize(messages_.size());
    texts_[idx] = messages_[idx]->str();
    return texts_[idx].c_str();
  }
  void clear() {
    messages_.clear();
    texts_.clear();
  }

 private:
  std::vector<std::unique_ptr<std::stringstream>> messages_;
  std::vector<std::string> texts_;
};

/*! \brief A stream to describe a failure in; then return MX_FAIL. */
#define MX_ERROR_MSG mxnet::ext::MXerrorMsgs::get()->add(__FILE__, __LINE__)

/*! \brief An operator instance with state (created by the op's createOpState function). */
class CustomStatefulOp {
 public:
  CustomStatefulOp() : ignore_warn(false), created(false) {}
  virtual ~CustomStatefulOp() {}

  /*! \brief Allocate an A(args...) and mark it as made by create (MXNet deletes it). */
  template <class A, typename... Ts>
  static CustomStatefulOp* create(Ts... args) {
    CustomStatefulOp* op = new A(args...);
    op->created = true;
    return op;
  }
  bool wasCreated() const { return created; }

  virtual MXReturnValue Forward(std::vector<MXTensor>* inputs, std::vector<MXTensor>* outputs,
                                const OpResource& op_res) = 0;
  virtual MXReturnValue Backward(std::vector<MXTensor>* /*inputs*/,
                                 std::vector<MXTensor>* /*outputs*/,
                                 const OpResource& /*op_res*/) {
    MX_ERROR_MSG << "Operator does not support backward";
    return MX_FAIL;
  }

  /*! \brief Set to true to silence the warning about an instance not made by create. */
  bool ignore_warn;

 private:
  bool created;
};

typedef MXReturnValue (*fcomp_t)(const std::unordered_map<std::string, std::string>& attributes,
                                 std::vector<MXTensor>* inputs, std::vector<MXTensor>* outputs,
                                 const OpResource& res);
typedef MXReturnValue (*parseAttrs_t)(
    const std::unordered_map<std::string, std::string>& attributes, int* num_inputs,
    int* num_outputs);
typedef MXReturnValue (*inferType_t)(const std::unordered_map<std::string, std::string>& attributes,
                                     std::vector<int>* in_types, std::vector<int>* out_types);
typedef MXReturnValue (*inferSType_t)(
    const std::unordered_map<std::string, std::string>& attributes, std::vector<int>* in_stypes,
    std::vector<int>* out_stypes);
typedef MXReturnValue (*inferShape_t)(
    const std::unordered_map<std::string, std::string>& attributes,
    std::vector<std::vector<unsigned int>>* in_shapes,
    std::vector<std::vector<unsigned int>>* out_shapes);
typedef MXReturnValue (*mutateInputs_t)(
    const std::unordered_map<std::string, std::string>& attributes,
    std::vector<int>* input_indices);
typedef MXReturnValue (*createOpState_t)(
    const std::unordered_map<std::string, std::string>& attributes, const MXContext& ctx,
    const std::vector<std::vector<unsigned int>>& in_shapes, const std::vector<int> in_types,
    CustomStatefulOp** op_inst);

/*!
 * \brief An operator of the library, set up by REGISTER_OP(name).setX(...) chains at static
 *        initialisation. Builder misuse (two functions for one device, an unknown device
 *        name) does not throw: it is recorded and MXNet refuses the op at load, with the reason.
 */
class CustomOp {
 public:
  explicit CustomOp(const char* op_name) : name(op_name) {}

  CustomOp& setForward(fcomp_t fcomp, const char* ctx) {
    setForCtx(&forward_, "setForward", fcomp, ctx);
    return *this;
  }
  CustomOp& setBackward(fcomp_t fgrad, const char* ctx) {
    setForCtx(&backward_, "setBackward", fgrad, ctx);
    return *this;
  }
  CustomOp& setParseAttrs(parseAttrs_t func) {
    parse_attrs = func;
    return *this;
  }
  CustomOp& setInferType(inferType_t func) {
    infer_type = func;
    return *this;
  }
  CustomOp& setInferSType(inferSType_t func) {
    infer_storage_type = func;
    return *this;
  }
  CustomOp& setInferShape(inferShape_t func) {
    infer_shape = func;
    return *this;
  }
  CustomOp& setMutateInputs(mutateInputs_t func) {
    mutate_inputs = func;
    return *this;
  }
  CustomOp& setCreateOpState(createOpState_t func, const char* ctx) {
    setForCtx(&create_op_, "setCreateOpState", func, ctx);
    return *this;
  }
  CustomOp& setIsSubgraphOp() {
    isSGop = true;
    return *this;
  }

  /*! \brief The function registered for device dev_type (MXExtDevType), or nullptr. */
  fcomp_t forward(int dev_type) const { return lookup(forward_, dev_type); }
  fcomp_t backward(int dev_type) const { return lookup(backward_, dev_type); }
  createOpState_t createOpState(int dev_type) const { return lookup(create_op_, dev_type); }
  int devMask(int which) const {
    int mask = 0;
    for (int dev = MX_EXT_CPU; dev <= MX_EXT_GPU; ++dev) {
      bool has = which == 0 ? forward(dev) != nullptr
                            : which == 1 ? backward(dev) != nullptr : createOpState(dev) != nullptr;
      if (has) mask |= 1 << dev;
    }
    return mask;
  }

  const char* name;
  parseAttrs_t parse_attrs = nullptr;
  inferType_t infer_type = nullptr;
  inferSType_t infer_storage_type = nullptr;
  inferShape_t infer_shape = nullptr;
  mutateInputs_t mutate_inputs = nullptr;
  bool isSGop = false;
  /*! \brief Builder misuse, reported by MXNet when loading ("" if none). */
  std::string registration_error;

 private:
  template <typename F>
  void setForCtx(std::map<int, F>* table, const char* what, F fn, const char* ctx) {
    const std::string dev = ctx == nullptr ? "" : ctx;
    const int dev_type = dev == "cpu" ? MX_EXT_CPU : dev == "gpu" ? MX_EXT_GPU : 0;
    if (dev_type == 0) {
      addError(std::string(what) + ": unknown context '" + dev + "' (expected \"cpu\" or \"gpu\")");
    } else if (table->count(dev_type)) {
      addError(std::string(what) + ": cannot register multiple functions under same context '" +
               dev + "'");
    } else {
      (*table)[dev_type] = fn;
    }
  }
  template <typename F>
  static F lookup(const std::map<int, F>& table, int dev_type) {
    auto it = table.find(dev_type);
    return it == table.end() ? nullptr : it->second;
  }
  void addError(const std::string& msg) {
    registration_error += (registration_error.empty() ? "" : "; ") + msg;
  }
  std::map<int, fcomp_t> forward_;
  std::map<int, fcomp_t> backward_;
  std::map<int, createOpState_t> create_op_;
};

/*! \brief The library's registered objects of type T (one list per type, never shrinks). */
template <class T>
class MX_EXT_HIDDEN Registry {
 public:
  static Registry* get() {
    static Registry inst;
    return &inst;
  }
  /*! \brief A new entry named `name` (entries live as long as the library). */
  T& add(const char* name) {
    entries_.emplace_back(new T(name));
    return *entries_.back();
  }
  int size() const { return static_cast<int>(entries_.size()); }
  T& get(int idx) { return *entries_.at(idx); }

 private:
  Registry() = default;
  std::vector<std::unique_ptr<T>> entries_;
};

#define MX_STR_CONCAT_(__x, __y) __x##__y
#define MX_STR_CONCAT(__x, __y) MX_STR_CONCAT_(__x, __y)
#define MX_STRINGIFY(x) #x
#define MX_TOSTRING(x) MX_STRINGIFY(x)
#define MX_REGISTER_NAME_(Name) MXNet##_CustomOp##_
#define MX_REGISTER_DEF_(Name) \
  static mxnet::ext::CustomOp& MX_REGISTER_NAME_(Name)

/*! \brief REGISTER_OP(name).setForward(...)...; at file scope registers operator `name`. */
#define REGISTER_OP(Name)                                  \
  MX_STR_CONCAT(MX_REGISTER_DEF_(Name), __COUNTER__) =     \
      mxnet::ext::Registry<mxnet::ext::CustomOp>::get()->add(MX_TOSTRING(Name))

}  // namespace ext
}  // namespace mxnet

/*!
 * \brief Written by the library author: called once per load with MXNet's version (10901);
 *        return MX_SUCCESS to accept.
 */
extern "C" MX_EXT_EXPORT mxnet::ext::MXReturnValue initialize(int version);

/*! \brief The library's interface table (defined in src/lib_api.cc). */
extern "C" MX_EXT_EXPORT const MXExtLibrary* MXExtGetLibrary(void);

#endif  // __cplusplus && !MXNET_EXT_C_ABI_ONLY

#endif  // MXNET_LIB_API_H_
