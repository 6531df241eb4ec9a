/*!
 * \file broadcast_reduce_driver.cc
 * \brief ReduceDriver: the one CPU loop driver of every reduction (sum, mean, prod, nan*, max,
 *        min, norm, the NumPy reductions and the broadcast gradients). It walks a ReducePlan,
 *        chooses how to split the work among OpenMP threads and owns the accumulators; the
 *        arithmetic comes from the typed loops in ReduceKernels (broadcast_reduce_op-inl.h).
 *
 * Work split, for B output blocks of I contiguous outputs and R reduced runs of L contiguous
 * inputs each:
 *   - many blocks: blocks are divided among threads;
 *   - few blocks of long rows (I large): each block's row is divided among threads;
 *   - few outputs, long reductions: each block's runs (or, for one output, the contiguous
 *     inputs) are divided among threads and the partial results merged in thread order.
 * Each thread reduces in input order, so the results are the same for a given thread count.
 */
#include <algorithm>
#include <vector>

#include "./broadcast_reduce_op-inl.h"

namespace mxnet {
namespace op {

namespace {

/*! \brief Accumulators of one reduction, as raw storage sized by the kernels' accumulator type. */
class AccBuffer {
 public:
  AccBuffer(const ReduceKernels& k, index_t n)
      : bytes_(k.acc_bytes), data_((static_cast<size_t>(n) * k.acc_bytes + 7) / 8) {}
  void* at(index_t i) { return reinterpret_cast<char*>(data_.data()) + i * bytes_; }

 private:
  size_t bytes_;
  std::vector<int64_t> data_;  // 8-byte aligned for every accumulator type
};

}  // namespace

void ReduceDriver(const ReducePlan& p, const void* in, void* out, OpReqType req,
                  const ReduceKernels& k) {
  if (req == kNullOp || p.small_size == 0) return;
  const char* in_bytes = static_cast<const char*>(in);
  char* out_bytes = static_cast<char*>(out);
  auto input = [&](index_t offset) { return in_bytes + offset * k.in_bytes; };
  auto output = [&](index_t offset) { return out_bytes + offset * k.out_bytes; };

  if (p.red_size <= 1) {  // nothing reduced (or an empty input): element-wise
    constexpr index_t kChunk = 4096;
    const index_t n = p.small_size;
    AccBuffer acc(k, std::min(n, kChunk));
    for (index_t c = 0; c < n; c += kChunk) {
      const index_t len = std::min(kChunk, n - c);
      k.init(acc.at(0), len);
      if (p.red_size == 1) k.rows(acc.at(0), input(c), len);
      k.store(acc.at(0), len, output(c), req, p.red_size);
    }
    return;
  }
  // Strides of the merged input axes.
  index_t stride[ReducePlan::kMaxDim];
  index_t s = 1;
  for (int d = p.ndim - 1; d >= 0; --d) {
    stride[d] = s;
    s *= p.dims[d];
  }
  const bool inner_kept = !p.reduced[p.ndim - 1];
  const index_t I = inner_kept ? p.dims[p.ndim - 1] : 1;  // contiguous outputs per block
  const index_t L = inner_kept ? 1 : p.dims[p.ndim - 1];  // contiguous reduced run
  Odometer kept, redo;                                      // blocks / reduced runs
  for (int d = 0; d < p.ndim - 1; ++d) {
    if (p.reduced[d]) {
      redo.Add(p.dims[d], stride[d]);
    } else {
      kept.Add(p.dims[d], stride[d]);
    }
  }
  const index_t B = p.small_size / I;  // blocks
  const index_t R = p.red_size / L;    // reduced runs per block
  const int nthreads = p.big_size >= mxnet_op::kOmpThreshold ? mxnet_op::MaxOmpThreads() : 1;

  // Reduce runs [r0, r1) of block b into acc[0, I).
  auto reduce_block = [&](index_t b, index_t r0, index_t r1, void* acc) {
    Odometer ko = kept, ro = redo;
    ko.Seek(b);
    ro.Seek(r0);
    k.runs(acc, input(ko.offset), &ro, r1 - r0, I, L, inner_kept);
  };

  if (nthreads <= 1 || B >= nthreads) {
#pragma omp parallel num_threads(nthreads) if (nthreads > 1)
    {
      AccBuffer acc(k, I);
#pragma omp for schedule(static)
      for (index_t b = 0; b < B; ++b) {
        k.init(acc.at(0), I);
        reduce_block(b, 0, R, acc.at(0));
        k.store(acc.at(0), I, output(b * I), req, p.red_size);
      }
    }
    return;
  }
  if (I >= 64 * nthreads) {  // few blocks of long rows: split each block's row among threads
    const index_t chunk = (I + nthreads - 1) / nthreads;
    for (index_t b = 0; b < B; ++b) {
#pragma omp parallel for num_threads(nthreads) schedule(static)
      for (index_t c = 0; c < I; c += chunk) {
        const index_t len = std::min(I, c + chunk) - c;
        AccBuffer acc(k, len);
        k.init(acc.at(0), len);
        Odometer ko = kept, ro = redo;
        ko.Seek(b);
        ro.Seek(0);
        k.runs(acc.at(0), input(ko.offset + c), &ro, R, len, 1, true);
        k.store(acc.at(0), len, output(b * I + c), req, p.red_size);
      }
    }
    return;
  }
  // Few outputs, long reductions: split the reduction of each block among threads and merge.
  AccBuffer partial(k, static_cast<index_t>(nthreads) * I);
  for (index_t b = 0; b < B; ++b) {
    k.init(partial.at(0), static_cast<index_t>(nthreads) * I);
    if (R >= nthreads || inner_kept) {
      const index_t chunk = (R + nthreads - 1) / nthreads;
#pragma omp parallel for num_threads(nthreads) schedule(static)
      for (int t = 0; t < nthreads; ++t) {
        const index_t r0 = std::min(R, t * chunk), r1 = std::min(R, r0 + chunk);
        reduce_block(b, r0, r1, partial.at(t * I));
      }
    } else {  // I == 1 here (inner reduced), split the contiguous runs too
      const index_t total = R * L;
      const index_t chunk = (total + nthreads - 1) / nthreads;
#pragma omp parallel for num_threads(nthreads) schedule(static)
      for (int t = 0; t < nthreads; ++t) {
        index_t k0 = std::min(total, t * chunk);
        const index_t k1 = std::min(total, k0 + chunk);
        Odometer ko = kept, ro = redo;
        ko.Seek(b);
        while (k0 < k1) {
          const index_t r = k0 / L, l0 = k0 % L;
          const index_t l1 = std::min(L, l0 + (k1 - k0));
          ro.Seek(r);
          k.run(partial.at(t), input(ko.offset + ro.offset + l0), l1 - l0);
          k0 += l1 - l0;
        }
      }
    }
    for (int t = 1; t < nthreads; ++t) k.merge(partial.at(0), partial.at(t * I), I);
    k.store(partial.at(0), I, output(b * I), req, p.red_size);
  }
}

}  // namespace op
}  // namespace mxnet
