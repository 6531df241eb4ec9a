/*!
 * \file rtc.h
 * \brief CUDA runtime compilation (mx.rtc): a CudaModule compiles CUDA C++ source with NVRTC
 *        (loaded at run time, so the library does not link it), and its kernels launch on
 *        NDArrays through the engine, reading const pointer arguments and writing the others,
 *        on the GPU's stream. Only CUDA builds can compile or launch; a CPU-only build throws
 *        on construction, as MXNet 1.9.1's CPU builds do.
 *
 *   rtc::CudaModule mod(source, {"--use_fast_math"}, {"axpy<float>"});
 *   auto k = mod.GetKernel("axpy<float>", {{true, true, kFloat32}, {true, false, kFloat32},
 *                                          {false, true, kFloat32}});
 *   k->Launch(gpu_ctx, {&x, &y, &alpha}, {grid, 1, 1}, {block, 1, 1}, 0);
 */
#ifndef MXNET_COMMON_RTC_H_
#define MXNET_COMMON_RTC_H_

#include <mxnet/base.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace mxnet {
namespace rtc {

/*! \brief One kernel parameter: a pointer (an NDArray of `dtype`, read-only when is_const) or a
 *         scalar of `dtype` passed by value. */
struct KernelParam {
  bool is_ndarray;
  bool is_const;
  int dtype;
};

class CudaModule {
 public:
  /*! \brief Compiles `source` with the NVRTC `options`; `exports` are C++ kernel names
   *         (templates, overloads) to be found by those names. Throws with NVRTC's log. */
  CudaModule(const std::string& source, const std::vector<std::string>& options,
             const std::vector<std::string>& exports);

  class Kernel {
   public:
    /*!
     * \brief Launches on gpu(dev_id). args[i] is an NDArray* for pointer parameters and a
     *        pointer to the value (of the parameter's dtype) for scalars.
     */
    void Launch(int dev_id, const std::vector<const void*>& args,
                const std::array<uint32_t, 3>& grid, const std::array<uint32_t, 3>& block,
                uint32_t shared_mem);
    /*! \brief The parameters, as GetKernel was given them. */
    const std::vector<KernelParam>& signature() const { return signature_; }

   private:
    friend class CudaModule;
    std::vector<KernelParam> signature_;
    struct Impl;
    std::shared_ptr<Impl> impl_;
  };

  /*! \brief The kernel `name` (an exported name or an extern "C" one) with this signature. */
  std::shared_ptr<Kernel> GetKernel(const std::string& name,
                                    const std::vector<KernelParam>& signature);

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace rtc
}  // namespace mxnet

#endif  // MXNET_COMMON_RTC_H_
