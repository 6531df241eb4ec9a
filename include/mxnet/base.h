/*!
 * \file mxnet/base.h
 * \brief Basic types shared by every layer: Context (where data lives and code runs),
 *        RunContext (what the engine hands a running function), and common typedefs.
 *
 *   Context ctx = Context::CPU();          // cpu(0)
 *   Context g = Context::Create(Context::kGPU, 1);
 *   std::cout << g;                         // gpu(1)
 */
#ifndef MXNET_BASE_H_
#define MXNET_BASE_H_

#include <dmlc/logging.h>
#include <mshadow/base.h>

#include <cstdint>
#include <ostream>
#include <string>

#define MXNET_DLL __attribute__((visibility("default")))

/*! \brief Version of MXNet 1.x this project implements (major*10000 + minor*100 + patch). */
#define MXNET_MAJOR 1
#define MXNET_MINOR 9
#define MXNET_PATCH 1
#define MXNET_VERSION (MXNET_MAJOR * 10000 + MXNET_MINOR * 100 + MXNET_PATCH)

#ifndef MXNET_USE_CUDA
#define MXNET_USE_CUDA 0
#endif

namespace mxnet {

typedef mshadow::cpu cpu;
typedef mshadow::gpu gpu;
typedef mshadow::index_t index_t;
typedef int64_t dim_t;
typedef float real_t;

/*! \brief A device: type and id. */
struct Context {
  enum DeviceType { kCPU = 1, kGPU = 2, kCPUPinned = 3, kCPUShared = 5 };
  /*! \brief Upper bound on device ids, for per-device tables. */
  static const int32_t kMaxDevID = 16;
  static const int32_t kMaxDevType = 6;

  DeviceType dev_type{kCPU};
  int32_t dev_id{0};

  Context() = default;
  /*! \brief Device mask used to pick kernels: pinned and shared memory are CPU. */
  int dev_mask() const { return dev_type == kGPU ? gpu::kDevMask : cpu::kDevMask; }
  /*! \brief The id of the physical device (0 for every CPU flavour). */
  int real_dev_id() const { return dev_type == kGPU ? dev_id : 0; }
  bool operator==(const Context& b) const { return dev_type == b.dev_type && dev_id == b.dev_id; }
  bool operator!=(const Context& b) const { return !(*this == b); }
  bool operator<(const Context& b) const {
    return dev_type != b.dev_type ? dev_type < b.dev_type : dev_id < b.dev_id;
  }

  static Context Create(DeviceType dev_type, int32_t dev_id = -1) {
    Context ctx;
    ctx.dev_type = dev_type;
    ctx.dev_id = dev_id < 0 ? 0 : dev_id;
    return ctx;
  }
  static Context CPU(int32_t dev_id = 0) { return Create(kCPU, dev_id); }
  static Context GPU(int32_t dev_id = -1) { return Create(kGPU, dev_id); }
  static Context CPUPinned(int32_t dev_id = -1) { return Create(kCPUPinned, dev_id); }
  static Context CPUShared(int32_t dev_id = 0) { return Create(kCPUShared, dev_id); }
  /*! \brief Parse "cpu(0)", "gpu(1)", "cpu_pinned(0)", "cpu_shared(0)". Throws ValueError. */
  static Context FromString(const std::string& str);
  /*! \brief Number of GPUs visible to this build (0 without CUDA, a driver or a device). */
  static int32_t GetGPUCount();
  /*! \brief Free and total bytes of GPU `dev`. Throws when it does not exist. */
  static void GetGPUMemoryInformation(int dev, uint64_t* free_mem, uint64_t* total_mem);
  /*!
   * \brief Throws unless `ctx` is a CPU context or an existing GPU of a CUDA build; `what`
   *        (the operator, say) starts the message.
   */
  static void CheckGPU(const Context& ctx, const std::string& what = std::string());
};

inline const char* DeviceTypeName(Context::DeviceType t) {
  switch (t) {
    case Context::kCPU: return "cpu";
    case Context::kGPU: return "gpu";
    case Context::kCPUPinned: return "cpu_pinned";
    case Context::kCPUShared: return "cpu_shared";
  }
  return "unknown";
}

inline std::ostream& operator<<(std::ostream& os, const Context& ctx) {
  return os << DeviceTypeName(ctx.dev_type) << "(" << ctx.dev_id << ")";
}

/*! \brief What the engine passes to a running function: the device and its stream(s). */
struct RunContext {
  Context ctx;
  /*! \brief mshadow::Stream<xpu>* of the executing worker (a cudaStream_t holder on GPU). */
  void* stream{nullptr};
  void* aux_stream{nullptr};
  /*! \brief True when the function runs inside a bulked segment (no per-op stream sync). */
  bool is_bulk{false};

  template <typename xpu>
  mshadow::Stream<xpu>* get_stream() const {
    return static_cast<mshadow::Stream<xpu>*>(stream);
  }
  const Context& get_ctx() const { return ctx; }
};

}  // namespace mxnet

namespace std {
template <>
struct hash<mxnet::Context> {
  size_t operator()(const mxnet::Context& ctx) const {
    return (static_cast<size_t>(ctx.dev_type) << 32) ^ static_cast<size_t>(ctx.dev_id);
  }
};
}  // namespace std

#endif  // MXNET_BASE_H_
