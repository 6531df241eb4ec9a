/*!
 * \file mshadow/random.h
 * \brief mshadow::Random<xpu, DType>: the per-device random generator an operator gets from a
 *        kRandom resource. Deterministic for a given seed, on every platform: the bit generator
 *        is std::mt19937 and the transforms to uniform and normal values are our own (not the
 *        standard library's distributions, whose output differs between implementations).
 *
 *   mshadow::Random<cpu, float>* rnd = ctx.requested[0].get_random<cpu, float>(s);
 *   rnd->SampleUniform(out, n, 0.f, 1.f);       // n values in [0, 1)
 *   rnd->SampleGaussian(out, n, 0.f, 2.f);      // mean 0, standard deviation 2
 *   std::shuffle(idx.begin(), idx.end(), rnd->GetRndEngine());
 *
 * Tensor overloads (`SampleUniform(&tensor, a, b)`, as mshadow) accept any contiguous tensor
 * type with `dptr_`, `shape_.Size()` and `CheckContiguous()`.
 *
 * Every Random<cpu, DType> has the same layout whatever DType is, so one generator object
 * serves every dtype (Resource::get_random<xpu, DType> relies on this, as MXNet does).
 */
#ifndef MSHADOW_RANDOM_H_
#define MSHADOW_RANDOM_H_

#include <mshadow/base.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>
#include <utility>

namespace mshadow {

namespace random_detail {
/*! \brief Float in [0, 1) from the top 24 bits of r. */
MSHADOW_XINLINE float UniformFloat(uint32_t r) {
  return static_cast<float>(r >> 8) * (1.0f / 16777216.0f);
}
/*! \brief Double in [0, 1) from 53 bits of two draws (as genrand_res53). */
MSHADOW_XINLINE double UniformDouble(uint32_t hi, uint32_t lo) {
  return (static_cast<double>(hi >> 5) * 67108864.0 + static_cast<double>(lo >> 6)) *
         (1.0 / 9007199254740992.0);
}
/*! \brief Box-Muller: two independent standard normal values from u1 in (0, 1], u2 in [0, 1). */
template <typename T>
inline std::pair<T, T> BoxMuller(T u1, T u2) {
  const T r = std::sqrt(T(-2) * std::log(u1));
  const T theta = T(6.283185307179586) * u2;
  return {r * std::cos(theta), r * std::sin(theta)};
}
/*! \brief The type sampling is computed in: double for double, float otherwise. */
template <typename DType>
using AccType = typename std::conditional<std::is_same<DType, double>::value, double, float>::type;
}  // namespace random_detail

/*! \brief Random generator of a device; only the cpu specialisation exists in this build. */
template <typename Device, typename DType = default_real_t>
class Random;

template <typename DType>
class Random<cpu, DType> {
 public:
  explicit Random(uint32_t seed = 0) { Seed(seed); }

  /*! \brief Restart the sequence from `seed`. */
  void Seed(uint32_t seed) {
    seed_ = seed;
    rnd_engine_.seed(seed);
  }
  uint32_t GetSeed() const { return seed_; }
  void set_stream(Stream<cpu>* stream) { stream_ = stream; }
  Stream<cpu>* stream() const { return stream_; }

  /*! \brief The bit generator, for std::shuffle and friends. */
  std::mt19937& GetRndEngine() { return rnd_engine_; }

  /*! \brief One raw 32-bit value. */
  uint32_t GetRandInt() { return rnd_engine_(); }
  void GetRandInt(uint32_t* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = rnd_engine_();
  }

  /*! \brief n values uniform in [a, b). */
  void SampleUniform(DType* out, size_t n, DType a, DType b) {
    typedef random_detail::AccType<DType> AccT;
    const AccT lo = static_cast<AccT>(a), span = static_cast<AccT>(b) - static_cast<AccT>(a);
    for (size_t i = 0; i < n; ++i) out[i] = DType(lo + span * NextUniform<AccT>());
  }

  /*! \brief n values normal with mean mu and standard deviation sigma. */
  void SampleGaussian(DType* out, size_t n, DType mu, DType sigma) {
    typedef random_detail::AccType<DType> AccT;
    const AccT m = static_cast<AccT>(mu), s = static_cast<AccT>(sigma);
    size_t i = 0;
    for (; i + 1 < n; i += 2) {
      auto z = NextNormalPair<AccT>();
      out[i] = DType(m + s * z.first);
      out[i + 1] = DType(m + s * z.second);
    }
    if (i < n) out[i] = DType(m + s * NextNormalPair<AccT>().first);
  }

  /*! \brief Fill a contiguous mshadow tensor with uniform values in [a, b). */
  template <typename TensorT, typename = decltype(std::declval<TensorT&>().shape_.Size())>
  void SampleUniform(TensorT* dst, DType a = DType(0), DType b = DType(1)) {
    CHECK(dst->CheckContiguous()) << "Random::SampleUniform: expected a contiguous tensor";
    SampleUniform(dst->dptr_, static_cast<size_t>(dst->shape_.Size()), a, b);
  }
  /*! \brief Fill a contiguous mshadow tensor with normal values. */
  template <typename TensorT, typename = decltype(std::declval<TensorT&>().shape_.Size())>
  void SampleGaussian(TensorT* dst, DType mu = DType(0), DType sigma = DType(1)) {
    CHECK(dst->CheckContiguous()) << "Random::SampleGaussian: expected a contiguous tensor";
    SampleGaussian(dst->dptr_, static_cast<size_t>(dst->shape_.Size()), mu, sigma);
  }

 private:
  template <typename AccT>
  AccT NextUniform() {
    if (std::is_same<AccT, double>::value) {
      const uint32_t hi = rnd_engine_();
      return static_cast<AccT>(random_detail::UniformDouble(hi, rnd_engine_()));
    }
    return static_cast<AccT>(random_detail::UniformFloat(rnd_engine_()));
  }
  template <typename AccT>
  std::pair<AccT, AccT> NextNormalPair() {
    const AccT u1 = AccT(1) - NextUniform<AccT>();  // (0, 1]: log(u1) is finite
    const AccT u2 = NextUniform<AccT>();
    return random_detail::BoxMuller(u1, u2);
  }

  std::mt19937 rnd_engine_;
  Stream<cpu>* stream_{nullptr};
  uint32_t seed_{0};
};

}  // namespace mshadow

#endif  // MSHADOW_RANDOM_H_
