/*!
 * \file fft-inl.h
 * \brief _contrib_fft / _contrib_ifft (and their gradients, which are the other transform):
 *        the parameter struct and the GPU kernel. The CPU keeps its own row-wise transform in
 *        fft.cc (radix-2 FFT for power-of-two rows, else a direct DFT); without cuFFT the GPU
 *        runs a direct DFT in double, one thread per (row, frequency), summing over the row in
 *        the CPU direct DFT's order (twiddle index (j * k) mod n), so non-power-of-two rows
 *        match the CPU up to the device's cos/sin and power-of-two rows within float tolerance.
 *
 * Layout: complex values interleaved as [re0, im0, re1, im1, ...]; neither direction is
 * normalised, so ifft(fft(x)) = d * x for rows of d values.
 */
#ifndef MXNET_OPERATOR_CONTRIB_FFT_INL_H_
#define MXNET_OPERATOR_CONTRIB_FFT_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct FFTParam : public dmlc::Parameter<FFTParam> {
  int compute_size;
  DMLC_DECLARE_PARAMETER(FFTParam) {
    DMLC_DECLARE_FIELD(compute_size).set_default(128)
        .describe("Maximum size of sub-batch to be forwarded at one time");
  }
};

namespace fft {

/*!
 * \brief One output element of the unnormalised direct DFT of a row of n complex values,
 *        X_k = sum_j x_j exp(sign * 2 pi i jk / n), sign -1 forward (kToComplex), +1 inverse.
 *        kToComplex: real rows of n -> interleaved rows of 2n (thread e = (row, k) writes
 *        re and im). Otherwise interleaved rows of 2n -> real rows of n (the real part).
 */
template <bool kToComplex>
struct direct_dft {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, const DType* in, DType* out, index_t n, int req) {
    const double two_pi = 6.283185307179586476925286766559;
    const double sign = kToComplex ? -1.0 : 1.0;
    const index_t r = e / n, k = e % n;
    const DType* x = in + r * (kToComplex ? n : 2 * n);
    double acc_re = 0, acc_im = 0;
    index_t m = 0;  // (j * k) mod n
    for (index_t j = 0; j < n; ++j) {
      const double a = sign * two_pi * static_cast<double>(m) / static_cast<double>(n);
      const double c = ::cos(a), s = ::sin(a);
      const double xr = kToComplex ? static_cast<double>(x[j]) : static_cast<double>(x[2 * j]);
      const double xi = kToComplex ? 0.0 : static_cast<double>(x[2 * j + 1]);
      acc_re += xr * c - xi * s;
      acc_im += xr * s + xi * c;
      m += k;
      if (m >= n) m -= n;
    }
    if (kToComplex) {
      DType* o = out + r * 2 * n + 2 * k;
      o[0] = req == kAddTo ? DType(static_cast<double>(o[0]) + acc_re) : DType(acc_re);
      o[1] = req == kAddTo ? DType(static_cast<double>(o[1]) + acc_im) : DType(acc_im);
    } else {
      DType* o = out + e;
      o[0] = req == kAddTo ? DType(static_cast<double>(o[0]) + acc_re) : DType(acc_re);
    }
  }
};

}  // namespace fft

/*!
 * \brief Direct-DFT FCompute over the last axis: kToComplex (..., d) -> (..., 2d) (fft and
 *        ifft's gradient), else (..., 2m) -> (..., m) (ifft and fft's gradient).
 */
template <typename xpu, bool kToComplex>
void DirectDftCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                      const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                      const std::vector<TBlob>& out) {
  if (req[0] == kNullOp || in[0].Size() == 0) return;
  const TBlob& x = in[0];
  const index_t last = x.shape_[x.ndim() - 1];
  const index_t n = kToComplex ? last : last / 2;
  const index_t rows = static_cast<index_t>(x.Size()) / last;
  const index_t expect = kToComplex ? 2 * n : n;
  if (out[0].Size() != static_cast<size_t>(rows * expect)) {
    MX_THROW(InternalError) << attrs.op->name << ": output shape " << out[0].shape_
                            << " does not match input shape " << x.shape_ << " (a bug)";
  }
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MSHADOW_REAL_TYPE_SWITCH(x.type_flag_, DType, {
    mxnet_op::Kernel<fft::direct_dft<kToComplex>, xpu>::Launch(
        s, rows * n, x.dptr<DType>(), out[0].dptr<DType>(), n, static_cast<int>(req[0]));
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_FFT_INL_H_
