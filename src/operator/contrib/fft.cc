/*!
 * \file fft.cc
 * \brief _contrib_fft and _contrib_ifft: 1-D discrete Fourier transforms over the last axis.
 *        MXNet 1.9.1 registers them on the GPU only (cuFFT); this is the CPU form (the GPU's
 *        direct-DFT kernel is in fft-inl.h, registered by fft.cu) with the same conventions:
 *        complex values interleaved as [re0, im0, re1, im1, ...], and neither
 *        direction normalised, so fft(x) equals numpy.fft.fft(x) and ifft(X) equals
 *        d * numpy.fft.ifft(X).real (d complex elements), i.e. ifft(fft(x)) = d * x.
 *
 * The gradient of one transform is the other one: d fft / dx applied to an output gradient G
 * is the unnormalised inverse transform of G (real part), and d ifft / dX applied to g is the
 * forward transform of g.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"
#include "./fft-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(FFTParam);

namespace {

typedef std::complex<double> Complex;

/*!
 * \brief In-place unnormalised DFT of x (n values): X_k = sum_j x_j exp(sign * 2 pi i jk / n),
 *        sign -1 forward, +1 inverse. Radix-2 for powers of two, else a direct sum.
 */
void Dft(std::vector<Complex>* data, bool inverse, std::vector<Complex>* scratch) {
  std::vector<Complex>& x = *data;
  const size_t n = x.size();
  if (n <= 1) return;
  const double sign = inverse ? 1.0 : -1.0;
  const double two_pi = 6.283185307179586476925286766559;
  if ((n & (n - 1)) == 0) {
    for (size_t i = 1, j = 0; i < n; ++i) {  // bit-reversal permutation
      size_t bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(x[i], x[j]);
    }
    for (size_t len = 2; len <= n; len <<= 1) {
      const size_t half = len / 2;
      for (size_t k = 0; k < half; ++k) {
        const double a = sign * two_pi * static_cast<double>(k) / static_cast<double>(len);
        const Complex w(std::cos(a), std::sin(a));
        for (size_t s = 0; s < n; s += len) {
          const Complex u = x[s + k], v = x[s + k + half] * w;
          x[s + k] = u + v;
          x[s + k + half] = u - v;
        }
      }
    }
    return;
  }
  std::vector<Complex>& out = *scratch;
  out.assign(n, Complex(0, 0));
  std::vector<Complex> tw(n);
  for (size_t m = 0; m < n; ++m) {
    const double a = sign * two_pi * static_cast<double>(m) / static_cast<double>(n);
    tw[m] = Complex(std::cos(a), std::sin(a));
  }
  for (size_t k = 0; k < n; ++k) {
    Complex acc(0, 0);
    size_t m = 0;  // (j * k) mod n
    for (size_t j = 0; j < n; ++j) {
      acc += x[j] * tw[m];
      m += k;
      if (m >= n) m -= n;
    }
    out[k] = acc;
  }
  x.swap(out);
}

template <typename DType>
inline void Store(DType* out, int64_t i, OpReqType req, double v) {
  if (req == kAddTo) {
    out[i] = static_cast<DType>(static_cast<double>(out[i]) + v);
  } else {
    out[i] = static_cast<DType>(v);
  }
}

/*!
 * \brief Row-wise transform of the last axis. kToComplex: real rows of d values -> interleaved
 *        complex rows of 2d values (forward DFT). Otherwise interleaved complex rows of 2m
 *        values -> real rows of m values (real part of the inverse DFT).
 */
template <bool kToComplex, typename DType>
void TransformRows(const TBlob& in, const TBlob& out, OpReqType req) {
  if (req == kNullOp || in.Size() == 0) return;
  const int64_t in_len = in.shape_[in.ndim() - 1];
  const int64_t rows = static_cast<int64_t>(in.Size()) / in_len;
  const int64_t n = kToComplex ? in_len : in_len / 2;
  const int64_t out_len = kToComplex ? 2 * n : n;
  const DType* src = in.dptr<DType>();
  DType* dst = out.dptr<DType>();
#pragma omp parallel if (rows * n > 4096)
  {
    std::vector<Complex> buf(n), scratch;
#pragma omp for
    for (int64_t r = 0; r < rows; ++r) {
      const DType* s = src + r * in_len;
      DType* o = dst + r * out_len;
      for (int64_t j = 0; j < n; ++j) {
        buf[j] = kToComplex ? Complex(static_cast<double>(s[j]), 0.0)
                            : Complex(static_cast<double>(s[2 * j]),
                                      static_cast<double>(s[2 * j + 1]));
      }
      Dft(&buf, !kToComplex, &scratch);
      for (int64_t k = 0; k < n; ++k) {
        if (kToComplex) {
          Store(o, 2 * k, req, buf[k].real());
          Store(o, 2 * k + 1, req, buf[k].imag());
        } else {
          Store(o, k, req, buf[k].real());
        }
      }
    }
  }
}

template <bool kToComplex>
void TransformCompute(const nnvm::NodeAttrs&, const OpContext&, const std::vector<TBlob>& in,
                      const std::vector<OpReqType>& req, const std::vector<TBlob>& out) {
  MSHADOW_REAL_TYPE_SWITCH(in[0].type_flag_, DType, {
    TransformRows<kToComplex, DType>(in[0], out[0], req[0]);
  });
}

/*! \brief Shapes: kToComplex (..., d) -> (..., 2d); else (..., 2m) -> (..., m). */
template <bool kToComplex>
bool TransformShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                    mxnet::ShapeVector* out) {
  const FFTParam& p = nnvm::get<FFTParam>(attrs.parsed);
  const char* name = attrs.op->name.c_str();
  if (p.compute_size <= 0) {
    MX_THROW(ValueError) << name << ": expected compute_size > 0, got " << p.compute_size;
  }
  const TShape& s = (*in)[0];
  if (!shape_is_known(s)) return false;
  if (s.ndim() < 1) {
    MX_THROW(ValueError) << name << ": expected data with at least 1 dimension, got shape " << s;
  }
  TShape o = s;
  const int64_t last = s[s.ndim() - 1];
  if (kToComplex) {
    o[s.ndim() - 1] = 2 * last;
  } else {
    if (last % 2 != 0) {
      MX_THROW(ValueError) << name << ": expected an even last dimension (interleaved real and "
                                      "imaginary parts), got shape " << s;
    }
    o[s.ndim() - 1] = last / 2;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  return true;
}

bool RealType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int t = (*in)[0] >= 0 ? (*in)[0] : (*out)[0];
  if (t < 0) return false;
  if (!mshadow::IsFloatingType(t)) {
    MX_THROW(TypeError) << attrs.op->name << ": expected floating-point data "
                           "(float16, bfloat16, float32 or float64), got "
                        << mshadow::dtype_string(t);
  }
  TYPE_ASSIGN_CHECK(*in, 0, t);
  TYPE_ASSIGN_CHECK(*out, 0, t);
  return true;
}

}  // namespace

NNVM_REGISTER_OP(_contrib_fft)
.describe(R"code(Apply 1D FFT to input"

Currently accept 2 input data shapes: (N, d) or (N1, N2, N3, d), data can only be real numbers
(any leading dimensions are accepted here). The transform runs over the last axis.
The output data has shape: (N, 2*d) or (N1, N2, N3, 2*d). The format is: [real0, imag0, real1, imag1, ...].

The transform is not normalised: the output equals ``numpy.fft.fft(data, axis=-1)``
with real and imaginary parts interleaved. (MXNet 1.9.1 runs it on GPU only; this build also
runs it on CPU.)

Example::

   data = np.random.normal(0,1,(3,4))
   out = mx.contrib.ndarray.fft(data = mx.nd.array(data))

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<FFTParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", TransformShape<true>)
.set_attr<nnvm::FInferType>("FInferType", RealType)
.set_attr<FCompute>("FCompute<cpu>", TransformCompute<true>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward__contrib_fft"})
.add_argument("data", "NDArray-or-Symbol", "Input data to the FFTOp.")
.add_arguments(FFTParam::__FIELDS__());

NNVM_REGISTER_OP(_backward__contrib_fft)
.describe("Backward of _contrib_fft: (out_grad (..., 2d)) -> data_grad (..., d), the real part "
          "of the unnormalised inverse transform of out_grad.")
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<FFTParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", TransformShape<false>)
.set_attr<nnvm::FInferType>("FInferType", RealType)
.set_attr<FCompute>("FCompute<cpu>", TransformCompute<false>);

NNVM_REGISTER_OP(_contrib_ifft)
.describe(R"code(Apply 1D ifft to input"

Currently accept 2 input data shapes: (N, d) or (N1, N2, N3, d) (any leading dimensions are
accepted here). Data is in format: [real0, imag0, real1, imag1, ...].
Last dimension must be an even number.
The output data has shape: (N, d/2) or (N1, N2, N3, d/2). It is only the real part of the result.

The inverse transform is not normalised (as cuFFT's): the output equals
``(d/2) * numpy.fft.ifft(x, axis=-1).real`` for the complex array ``x`` the input interleaves, so
``ifft(fft(data)) = data.shape[-1] * data``. (MXNet 1.9.1 runs it on GPU only; this build also
runs it on CPU.)

Example::

   data = np.random.normal(0,1,(3,4))
   out = mx.contrib.ndarray.ifft(data = mx.nd.array(data))

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<FFTParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const nnvm::NodeAttrs&) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", TransformShape<false>)
.set_attr<nnvm::FInferType>("FInferType", RealType)
.set_attr<FCompute>("FCompute<cpu>", TransformCompute<false>)
.set_attr<nnvm::FGradient>("FGradient", ElemwiseGradUseNone{"_backward__contrib_ifft"})
.add_argument("data", "NDArray-or-Symbol", "Input data to the IFFTOp.")
.add_arguments(FFTParam::__FIELDS__());

NNVM_REGISTER_OP(_backward__contrib_ifft)
.describe("Backward of _contrib_ifft: (out_grad (..., m)) -> data_grad (..., 2m), the "
          "unnormalised forward transform of out_grad, interleaved.")
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<FFTParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", TransformShape<true>)
.set_attr<nnvm::FInferType>("FInferType", RealType)
.set_attr<FCompute>("FCompute<cpu>", TransformCompute<true>);

}  // namespace op
}  // namespace mxnet
