/*!
 * \file rtc.cc
 * \brief mx.rtc: CUDA C++ compiled at run time by NVRTC and launched through the engine. NVRTC
 *        is opened with dlopen (libnvrtc.so.13, .12, or unversioned) and its few entry points
 *        are declared here, so neither build links it; the compiled PTX is loaded with the
 *        CUDA runtime's context-independent libraries (cudaLibraryLoadData), whose kernel
 *        handles launch with cudaLaunchKernel on any device.
 */
#include "./rtc.h"

#include <dmlc/logging.h>
#include <mxnet/engine.h>
#include <mxnet/ndarray.h>

#include <cstring>
#include <mutex>
#include <sstream>
#include <unordered_map>

#if MXNET_USE_CUDA
#include <cuda_runtime.h>
#include <dlfcn.h>

#include "./cuda_utils.h"
#endif

namespace mxnet {
namespace rtc {

#if MXNET_USE_CUDA

namespace {

// The NVRTC entry points used (their documented C signatures); nvrtcResult 0 is success.
struct NvrtcProgramOpaque;
using nvrtcProgram = NvrtcProgramOpaque*;
struct Nvrtc {
  const char* (*GetErrorString)(int);
  int (*CreateProgram)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                       const char* const*);
  int (*DestroyProgram)(nvrtcProgram*);
  int (*CompileProgram)(nvrtcProgram, int, const char* const*);
  int (*GetPTXSize)(nvrtcProgram, size_t*);
  int (*GetPTX)(nvrtcProgram, char*);
  int (*GetProgramLogSize)(nvrtcProgram, size_t*);
  int (*GetProgramLog)(nvrtcProgram, char*);
  int (*AddNameExpression)(nvrtcProgram, const char*);
  int (*GetLoweredName)(nvrtcProgram, const char*, const char**);
};

const Nvrtc& LoadNvrtc() {
  static Nvrtc api = []() {
    void* lib = nullptr;
    for (const char* name : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}) {
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    }
    if (lib == nullptr) {
      MX_THROW(dmlc::Error) << "mx.rtc: cannot load NVRTC (libnvrtc.so.13): install the "
                                      "CUDA toolkit's NVRTC (PyPI: nvidia-cuda-nvrtc) and put it "
                                      "on LD_LIBRARY_PATH";
    }
    Nvrtc a{};
    auto bind = [lib](auto* fn, const char* symbol) {
      void* p = dlsym(lib, symbol);
      if (p == nullptr) MX_THROW(dmlc::Error) << "mx.rtc: NVRTC lacks " << symbol;
      std::memcpy(fn, &p, sizeof(p));
    };
    bind(&a.GetErrorString, "nvrtcGetErrorString");
    bind(&a.CreateProgram, "nvrtcCreateProgram");
    bind(&a.DestroyProgram, "nvrtcDestroyProgram");
    bind(&a.CompileProgram, "nvrtcCompileProgram");
    bind(&a.GetPTXSize, "nvrtcGetPTXSize");
    bind(&a.GetPTX, "nvrtcGetPTX");
    bind(&a.GetProgramLogSize, "nvrtcGetProgramLogSize");
    bind(&a.GetProgramLog, "nvrtcGetProgramLog");
    bind(&a.AddNameExpression, "nvrtcAddNameExpression");
    bind(&a.GetLoweredName, "nvrtcGetLoweredName");
    return a;
  }();
  return api;
}

void CheckNvrtc(const Nvrtc& api, int result, const char* call) {
  if (result != 0) {
    MX_THROW(dmlc::Error) << "mx.rtc: " << call << " failed: " << api.GetErrorString(result);
  }
}

size_t DTypeBytes(int dtype) {
  switch (dtype) {
    case mshadow::kFloat64: case mshadow::kInt64: return 8;
    case mshadow::kFloat32: case mshadow::kInt32: return 4;
    case mshadow::kFloat16: case mshadow::kBfloat16: return 2;
    default: return 1;
  }
}

}  // namespace

struct CudaModule::Impl {
  std::string ptx;
  std::unordered_map<std::string, std::string> lowered;  // exported name -> mangled name
  cudaLibrary_t library{nullptr};
  std::mutex mutex;
  ~Impl() {
    if (library != nullptr) cudaLibraryUnload(library);
  }
};

struct CudaModule::Kernel::Impl {
  std::shared_ptr<CudaModule::Impl> module;  // keeps the library loaded
  std::string name;
  cudaKernel_t kernel{nullptr};
};

CudaModule::CudaModule(const std::string& source, const std::vector<std::string>& options,
                       const std::vector<std::string>& exports)
    : impl_(std::make_shared<Impl>()) {
  const Nvrtc& api = LoadNvrtc();
  nvrtcProgram prog = nullptr;
  CheckNvrtc(api, api.CreateProgram(&prog, source.c_str(), "source.cu", 0, nullptr, nullptr),
             "nvrtcCreateProgram");
  struct Destroy {
    const Nvrtc& api;
    nvrtcProgram* prog;
    ~Destroy() { api.DestroyProgram(prog); }
  } destroy{api, &prog};
  for (const std::string& name : exports) {
    CheckNvrtc(api, api.AddNameExpression(prog, name.c_str()), "nvrtcAddNameExpression");
  }
  std::vector<const char*> opts;
  for (const std::string& o : options) opts.push_back(o.c_str());
  const int compiled = api.CompileProgram(prog, static_cast<int>(opts.size()), opts.data());
  if (compiled != 0) {
    size_t size = 0;
    api.GetProgramLogSize(prog, &size);
    std::string log(size, '\0');
    if (size > 0) api.GetProgramLog(prog, &log[0]);
    MX_THROW(dmlc::ValueError) << "mx.rtc.CudaModule: compiling the source failed ("
                               << api.GetErrorString(compiled) << "):\n" << log.c_str();
  }
  size_t size = 0;
  CheckNvrtc(api, api.GetPTXSize(prog, &size), "nvrtcGetPTXSize");
  impl_->ptx.assign(size, '\0');
  CheckNvrtc(api, api.GetPTX(prog, &impl_->ptx[0]), "nvrtcGetPTX");
  for (const std::string& name : exports) {
    const char* mangled = nullptr;
    CheckNvrtc(api, api.GetLoweredName(prog, name.c_str(), &mangled), "nvrtcGetLoweredName");
    impl_->lowered[name] = mangled;
  }
}

std::shared_ptr<CudaModule::Kernel> CudaModule::GetKernel(
    const std::string& name, const std::vector<KernelParam>& signature) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (impl_->library == nullptr) {
    CUDA_CALL(cudaLibraryLoadData(&impl_->library, impl_->ptx.c_str(), nullptr, nullptr, 0,
                                  nullptr, nullptr, 0));
  }
  auto it = impl_->lowered.find(name);
  const std::string& symbol = it != impl_->lowered.end() ? it->second : name;
  auto kernel = std::make_shared<Kernel>();
  kernel->impl_ = std::make_shared<Kernel::Impl>();
  kernel->impl_->module = impl_;
  kernel->impl_->name = name;
  kernel->signature_ = signature;
  const cudaError_t err = cudaLibraryGetKernel(&kernel->impl_->kernel, impl_->library,
                                               symbol.c_str());
  if (err != cudaSuccess) {
    cudaGetLastError();
    MX_THROW(dmlc::ValueError) << "mx.rtc.CudaModule.get_kernel: no kernel '" << name
                               << "' in the module (" << cudaGetErrorString(err) << "); a "
                               << "C++ (mangled) name must be listed in `exports`";
  }
  return kernel;
}

void CudaModule::Kernel::Launch(int dev_id, const std::vector<const void*>& args,
                                const std::array<uint32_t, 3>& grid,
                                const std::array<uint32_t, 3>& block, uint32_t shared_mem) {
  const Impl& k = *impl_;
  if (args.size() != signature_.size()) {
    MX_THROW(dmlc::ValueError) << "mx.rtc kernel " << k.name << ": expected "
                               << signature_.size() << " arguments, got " << args.size();
  }
  const Context ctx = Context::GPU(dev_id);
  std::vector<NDArray> arrays;
  std::vector<engine::VarHandle> reads, writes;
  auto values = std::make_shared<std::vector<uint64_t>>(args.size(), 0);  // scalars, by value
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelParam& p = signature_[i];
    if (!p.is_ndarray) {
      std::memcpy(&(*values)[i], args[i], DTypeBytes(p.dtype));
      continue;
    }
    const NDArray& a = *static_cast<const NDArray*>(args[i]);
    if (a.ctx() != ctx) {
      MX_THROW(dmlc::ValueError) << "mx.rtc kernel " << k.name << ": argument " << i
                                 << " is on " << a.ctx() << ", the launch is on " << ctx;
    }
    if (a.dtype() != p.dtype) {
      MX_THROW(dmlc::TypeError) << "mx.rtc kernel " << k.name << ": argument " << i << " is "
                                << mshadow::dtype_string(a.dtype()) << ", the signature says "
                                << mshadow::dtype_string(p.dtype);
    }
    arrays.push_back(a);
    (p.is_const ? reads : writes).push_back(a.var());
  }
  std::shared_ptr<Impl> keep = impl_;
  std::vector<KernelParam> signature = signature_;
  Engine::Get()->PushSync(
      [keep, signature, arrays, values, grid, block, shared_mem](RunContext rctx) {
        std::vector<void*> pointers(values->size());
        std::vector<void*> params(values->size());
        size_t next_array = 0;
        for (size_t i = 0; i < params.size(); ++i) {
          if (signature[i].is_ndarray) {
            pointers[i] = arrays[next_array++].data().dptr_;
            params[i] = &pointers[i];
          } else {
            params[i] = &(*values)[i];
          }
        }
        cudaStream_t stream = mshadow::Stream<gpu>::GetStream(rctx.get_stream<gpu>());
        CUDA_CALL(cudaLaunchKernel(reinterpret_cast<const void*>(keep->kernel),
                                   dim3(grid[0], grid[1], grid[2]),
                                   dim3(block[0], block[1], block[2]), params.data(),
                                   shared_mem, stream));
      },
      ctx, reads, writes, FnProperty::kNormal, 0, "CudaKernel");
}

#else  // CPU-only build

struct CudaModule::Impl {};
struct CudaModule::Kernel::Impl {};

CudaModule::CudaModule(const std::string&, const std::vector<std::string>&,
                       const std::vector<std::string>&) {
  MX_THROW(dmlc::NotImplementedError)
      << "mx.rtc.CudaModule: CUDA runtime compilation needs a libmxnet built with CUDA "
         "(MXNET_CUDA=1 tools/setup.sh); this one is CPU-only";
}

std::shared_ptr<CudaModule::Kernel> CudaModule::GetKernel(const std::string&,
                                                          const std::vector<KernelParam>&) {
  MX_THROW(dmlc::NotImplementedError) << "mx.rtc: this libmxnet is CPU-only";
  return nullptr;  // not reached: MX_THROW throws
}

void CudaModule::Kernel::Launch(int, const std::vector<const void*>&,
                                const std::array<uint32_t, 3>&, const std::array<uint32_t, 3>&,
                                uint32_t) {
  MX_THROW(dmlc::NotImplementedError) << "mx.rtc: this libmxnet is CPU-only";
}

#endif  // MXNET_USE_CUDA

}  // namespace rtc
}  // namespace mxnet
