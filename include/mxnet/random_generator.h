/*!
 * \file mxnet/random_generator.h
 * \brief Parallel random generator (kParallelRandom resource): an array of independent
 *        generator states, one per thread or chunk of a kernel, so sampling kernels run in
 *        parallel and still give the same numbers for a given seed, whatever the thread count.
 *
 * A kernel splits its N outputs into chunks of `step`; chunk `id` (< kNumRandomStates) always
 * uses state `id`, so the values depend on the seed and the chunking, not on scheduling:
 *
 *   typedef RandGenerator<cpu, float> Gen;
 *   Gen* gen = ctx.requested[0].get_parallel_random<cpu, float>();
 *   const index_t nchunk = Gen::kNumRandomStates, step = (N + nchunk - 1) / nchunk;
 *   #pragma omp parallel for
 *   for (index_t id = 0; id < nchunk; ++id) {
 *     Gen::Impl rng(gen, id);
 *     for (index_t i = id * step; i < std::min(N, (id + 1) * step); ++i) out[i] = rng.uniform();
 *   }
 *
 * Each state is a xoshiro128++ generator (16 bytes) seeded from (seed, state index) through
 * splitmix64. Copies of a RandGenerator share the states (it holds a pointer, so kernels can
 * take it by value); AllocState/FreeState manage them, the resource manager owns them.
 * Also reachable as "common/random_generator.h" under src/.
 */
#ifndef MXNET_RANDOM_GENERATOR_H_
#define MXNET_RANDOM_GENERATOR_H_

#include <mshadow/base.h>
#include <mshadow/random.h>

#include <cstdint>
#include <type_traits>

namespace mxnet {
namespace common {
namespace random {

/*! \brief One generator state: xoshiro128++ (period 2^128 - 1). */
struct RandState {
  uint32_t s[4];

  /*! \brief Seed from (seed, index) through splitmix64: distinct indices give unrelated streams. */
  void Seed(uint32_t seed, uint32_t index) {
    uint64_t x = (static_cast<uint64_t>(seed) << 32) | index;
    for (int k = 0; k < 4; k += 2) {
      x += 0x9e3779b97f4a7c15ULL;
      uint64_t z = x;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      s[k] = static_cast<uint32_t>(z);
      s[k + 1] = static_cast<uint32_t>(z >> 32);
    }
    if ((s[0] | s[1] | s[2] | s[3]) == 0) s[0] = 1;  // the all-zero state is a fixed point
  }

  MSHADOW_XINLINE uint32_t Next() {
    const uint32_t result = Rotl(s[0] + s[3], 7) + s[0];
    const uint32_t t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = Rotl(s[3], 11);
    return result;
  }

 private:
  static MSHADOW_XINLINE uint32_t Rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }
};

template <typename Device, typename DType = float>
class RandGenerator;

template <typename DType>
class RandGenerator<mshadow::cpu, DType> {
 public:
  /*! \brief Number of independent states: the most chunks a kernel may use. */
  static constexpr int kNumRandomStates = 1024;

  /*! \brief Per-thread view of state `state_idx`; draws advance that state. */
  class Impl {
   public:
    /*! \brief Floating type of uniform()/normal(): DType if floating, else double. */
    typedef typename std::conditional<std::is_floating_point<DType>::value, DType,
                                      double>::type FType;

    Impl(RandGenerator<mshadow::cpu, DType>* gen, int state_idx)
        : state_(gen->states_ + state_idx) {}
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    /*! \brief Uniform integer in [0, 2^31). */
    MSHADOW_XINLINE int rand() { return static_cast<int>(state_->Next() >> 1); }
    /*! \brief Uniform integer in [0, 2^63). */
    MSHADOW_XINLINE int64_t rand_int64() {
      const uint64_t hi = state_->Next();
      return static_cast<int64_t>(((hi << 32) | state_->Next()) >> 1);
    }
    /*! \brief Uniform in [0, 1). */
    MSHADOW_XINLINE FType uniform() {
      if (std::is_same<FType, double>::value) {
        const uint32_t hi = state_->Next();
        return static_cast<FType>(mshadow::random_detail::UniformDouble(hi, state_->Next()));
      }
      return static_cast<FType>(mshadow::random_detail::UniformFloat(state_->Next()));
    }
    /*! \brief Standard normal (Box-Muller; the second value of each pair is kept for the next
     *         call on this view). */
    MSHADOW_XINLINE FType normal() {
      if (has_cached_) {
        has_cached_ = false;
        return cached_;
      }
      const FType u1 = FType(1) - uniform();
      const FType u2 = uniform();
      auto z = mshadow::random_detail::BoxMuller(u1, u2);
      cached_ = z.second;
      has_cached_ = true;
      return z.first;
    }

   private:
    RandState* state_;
    bool has_cached_{false};
    FType cached_{0};
  };

  RandGenerator() = default;

  /*! \brief Give `inst` its own states (seeded with 0). */
  static void AllocState(RandGenerator* inst) {
    inst->states_ = new RandState[kNumRandomStates];
    inst->Seed(0u);
  }
  static void FreeState(RandGenerator* inst) {
    delete[] inst->states_;
    inst->states_ = nullptr;
  }

  /*! \brief Reseed every state: state i gets the stream of (seed, i). */
  void Seed(mshadow::Stream<mshadow::cpu>*, uint32_t seed) { Seed(seed); }
  void Seed(uint32_t seed) {
    for (int i = 0; i < kNumRandomStates; ++i) states_[i].Seed(seed, static_cast<uint32_t>(i));
  }

 private:
  RandState* states_{nullptr};
};

// ------------------------------------------------------------------------------- the GPU

/*!
 * \brief Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11):
 *        a keyed bijection of a 128-bit counter, so element i of a kernel draws from its own
 *        counter with no state to load or store.
 */
struct Philox4x32 {
  uint32_t v[4];

  MSHADOW_XINLINE static Philox4x32 Block(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3,
                                          uint32_t k0, uint32_t k1) {
    Philox4x32 r;
    uint32_t c[4] = {c0, c1, c2, c3};
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
      }
      const uint64_t p0 = static_cast<uint64_t>(0xD2511F53u) * c[0];
      const uint64_t p1 = static_cast<uint64_t>(0xCD9E8D57u) * c[2];
      const uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
      const uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
      c[0] = hi1 ^ c[1] ^ k0;
      c[1] = lo1;
      c[2] = hi0 ^ c[3] ^ k1;
      c[3] = lo0;
    }
    for (int k = 0; k < 4; ++k) r.v[k] = c[k];
    return r;
  }
};

/*!
 * \brief The draws of element `i` of call `call` of a generator seeded with `seed`: one Philox
 *        block, four 32-bit words, enough for a float or double uniform or normal.
 */
class PhiloxDraw {
 public:
  MSHADOW_XINLINE PhiloxDraw(uint32_t seed, uint64_t call, int64_t i)
      : w_(Philox4x32::Block(static_cast<uint32_t>(i), static_cast<uint32_t>(
                                 static_cast<uint64_t>(i) >> 32),
                             static_cast<uint32_t>(call), static_cast<uint32_t>(call >> 32), seed,
                             0x6D786E65u)) {}
  /*! \brief Word k (0..3) of the block. */
  MSHADOW_XINLINE uint32_t word(int k) const { return w_.v[k]; }
  /*! \brief Uniform in [0, 1) from word k (float: 24 bits) or words k, k+1 (double: 53 bits). */
  template <typename F>
  MSHADOW_XINLINE F uniform(int k = 0) const {
    if constexpr (std::is_same<F, double>::value) {
      return mshadow::random_detail::UniformDouble(w_.v[k], w_.v[k + 1]);
    } else {
      return static_cast<F>(mshadow::random_detail::UniformFloat(w_.v[k]));
    }
  }
  /*! \brief Standard normal by Box-Muller from the block's first two uniforms. */
  template <typename F>
  MSHADOW_XINLINE F normal() const {
    const int step = std::is_same<F, double>::value ? 2 : 1;
    const F u1 = F(1) - uniform<F>(0);  // (0, 1]: safe for log
    const F u2 = uniform<F>(step);
    return std::sqrt(F(-2) * std::log(u1)) * std::cos(F(6.283185307179586) * u2);
  }

 private:
  Philox4x32 w_;
};

/*!
 * \brief Element `i` of call `call`'s own stream of draws: Philox blocks (i, call, block 0, 1,
 *        ...) consumed four words at a time, with the uniform()/normal()/rand_int64() interface
 *        of the CPU's generator, so the samplers of operator/random run unchanged in a kernel.
 *        Its first block is PhiloxDraw's.
 */
template <typename F>
class PhiloxStream {
 public:
  typedef F FType;
  MSHADOW_XINLINE PhiloxStream(uint32_t seed, uint64_t call, int64_t i)
      : seed_(seed), c0_(static_cast<uint32_t>(i)),
        c1_(static_cast<uint32_t>(static_cast<uint64_t>(i) >> 32)),
        c2_(static_cast<uint32_t>(call)), c3_(static_cast<uint32_t>(call >> 32)) {}
  MSHADOW_XINLINE uint32_t next() {
    if (pos_ == 4) {
      block_ = Philox4x32::Block(c0_, c1_, c2_, c3_ + (blocks_ << 16), seed_, 0x6D786E65u);
      ++blocks_;
      pos_ = 0;
    }
    return block_.v[pos_++];
  }
  /*! \brief Uniform in [0, 1). */
  MSHADOW_XINLINE F uniform() {
    if constexpr (std::is_same<F, double>::value) {
      const uint32_t hi = next();
      return mshadow::random_detail::UniformDouble(hi, next());
    } else {
      return static_cast<F>(mshadow::random_detail::UniformFloat(next()));
    }
  }
  /*! \brief Standard normal (Box-Muller; the pair's second value is kept for the next call). */
  MSHADOW_XINLINE F normal() {
    if (has_cached_) {
      has_cached_ = false;
      return cached_;
    }
    const F u1 = F(1) - uniform();
    const F u2 = uniform();
    const F r = std::sqrt(F(-2) * std::log(u1)), t = F(6.283185307179586) * u2;
    cached_ = r * std::sin(t);
    has_cached_ = true;
    return r * std::cos(t);
  }
  /*! \brief Uniform integer in [0, 2^63). */
  MSHADOW_XINLINE int64_t rand_int64() {
    const uint64_t hi = next();
    return static_cast<int64_t>(((hi << 32) | next()) >> 1);
  }

 private:
  uint32_t seed_, c0_, c1_, c2_, c3_;
  uint32_t blocks_{0};
  int pos_{4};
  Philox4x32 block_{};
  bool has_cached_{false};
  F cached_{0};
};

/*!
 * \brief The GPU's kParallelRandom generator: a seed and a count of the calls made so far.
 *        Call c draws element i from Philox counter (i, c), so kernels need no state and the
 *        numbers depend only on the seed and the order of the calls. The layout does not depend
 *        on DType (the resource manager holds one and hands it out as any DType).
 */
template <typename DType>
class RandGenerator<mshadow::gpu, DType> {
 public:
  RandGenerator() = default;
  void Seed(uint32_t seed) {
    seed_ = seed;
    calls_ = 0;
  }
  uint32_t seed() const { return seed_; }
  /*! \brief The counter of the next call (callers run in engine order on the resource's var). */
  uint64_t NextCall() { return calls_++; }

 private:
  uint32_t seed_{0};
  uint64_t calls_{0};
};

}  // namespace random
}  // namespace common
}  // namespace mxnet

#endif  // MXNET_RANDOM_GENERATOR_H_
