/*!
 * \file rnn_generic-inl.h
 * \brief The fused RNN operator for any device: the algorithm and reserve layout of rnn-inl.h
 *        (one GEMM per layer and direction for the input projection, then per time step one
 *        GEMM for h_{t-1} W_h2h^T and one kernel for the gate math), written as element
 *        kernels (Kernel<OP, xpu>) and device GEMMs (Gemm in blas_gemm.h). It is the GPU's
 *        implementation (rnn.cu); on the CPU, MXNET_RNN_GENERIC=1 runs it instead of the
 *        OpenMP/AVX2 path, which is how test_rnn_generic.py checks it against that path on a
 *        machine without a GPU.
 *
 *        Per step the kernels work on (batch, unit) pairs: thread (b, j) gathers h_{t-1} (and
 *        c_{t-1}) of sequence b, then, after the recurrent GEMM, applies the gates of unit j.
 *        Sequence lengths are checked on the host (RNNLengths) and handed to the kernels in
 *        device memory; dropout masks come from the device's generator (RNNDropoutMask).
 */
#ifndef MXNET_OPERATOR_NN_RNN_GENERIC_INL_H_
#define MXNET_OPERATOR_NN_RNN_GENERIC_INL_H_

#include <dmlc/parameter.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "../blas_gemm.h"
#include "../mshadow_op.h"
#include "../mxnet_op.h"
#include "./rnn-inl.h"

namespace mxnet {
namespace op {
namespace rnn_generic {

using mxnet_op::Kernel;

/*! \brief Whether MXNET_RNN_GENERIC=1 asks the CPU to run this implementation. */
inline bool RequestedOnCpu() {
  const char* v = std::getenv("MXNET_RNN_GENERIC");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

template <typename DType>
MSHADOW_XINLINE DType Tanh(DType x) {
  return DType(tanh(static_cast<double>(x)));
}
template <>
MSHADOW_XINLINE float Tanh(float x) {
  return tanhf(x);
}
template <typename DType>
MSHADOW_XINLINE DType Sigmoid(DType x) {
  return DType(1) / (DType(1) + DType(exp(-static_cast<double>(x))));
}
template <>
MSHADOW_XINLINE float Sigmoid(float x) {
  return 1.f / (1.f + expf(-x));
}

/*! \brief The sizes a step kernel needs, by value. */
struct StepDims {
  index_t T, N, H, GH, DH;
  int mode, dir;
  explicit StepDims(const RNNDims& dm, index_t d)
      : T(dm.T), N(dm.N), H(dm.H), GH(dm.GH()), DH(dm.D * dm.H), mode(dm.mode),
        dir(static_cast<int>(d)) {}
  MSHADOW_XINLINE index_t Prev(index_t t, index_t len) const {
    if (dir == 0) return t - 1;
    return t + 1 < len ? t + 1 : -1;
  }
  MSHADOW_XINLINE index_t Last(index_t len) const {
    if (len == 0) return -1;
    return dir == 0 ? len - 1 : 0;
  }
};

// ------------------------------------------------------------------------------- forward

/*! \brief gates[r, j] += b_i2h[j] + b_h2h[j] (GRU: not b_hn, which goes inside r * (.)). */
struct add_biases {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* gates, const DType* bi, const DType* bh,
                                  index_t GH, index_t H, int mode) {
    const index_t j = i % GH;
    const bool gru_n = mode == rnn_enum::kGru && j >= 2 * H;
    gates[i] += bi[j] + (gru_n ? DType(0) : bh[j]);
  }
};

/*! \brief (b, j): h_{t-1} and (LSTM) the clipped c_{t-1} of sequence b, or the initial state. */
struct gather_prev {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, StepDims d, RNNCellClip clip, index_t t,
                                  const index_t* len, const DType* y, const DType* extra,
                                  const DType* h0, const DType* c0, DType* hprev,
                                  DType* cprev) {
    const index_t b = i / d.H, j = i % d.H;
    const index_t pt = d.Prev(t, len[b]);
    const bool from_seq = t < len[b] && pt >= 0;
    hprev[i] = from_seq ? y[(pt * d.N + b) * d.DH + j] : h0[i];
    if (d.mode == rnn_enum::kLstm) {
      cprev[i] = from_seq ? clip(extra[(pt * d.N + b) * d.H + j]) : c0[i];
    }
  }
};

/*! \brief (b, j) of step t: the gates (kept activated in `gates`), the cell state (LSTM) or
 *         W_hn h + b_hn (GRU) into `extra`, and the output h_t into y (0 past the length). */
struct step_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, StepDims d, RNNCellClip clip, index_t t,
                                  const index_t* len, DType* gates, const DType* hh,
                                  const DType* hprev, const DType* cprev, const DType* bh,
                                  DType* extra, DType* y) {
    const index_t b = i / d.H, j = i % d.H, H = d.H;
    DType* yo = y + (t * d.N + b) * d.DH;
    if (t >= len[b]) {
      yo[j] = DType(0);
      return;
    }
    DType* g = gates + (t * d.N + b) * d.GH;
    const DType* hr = hh + b * d.GH;
    if (d.mode == rnn_enum::kRnnRelu || d.mode == rnn_enum::kRnnTanh) {
      const DType v = g[j] + hr[j];
      g[j] = d.mode == rnn_enum::kRnnRelu ? (v > DType(0) ? v : DType(0)) : Tanh(v);
      yo[j] = g[j];
    } else if (d.mode == rnn_enum::kLstm) {
      const DType gi = Sigmoid(DType(g[j] + hr[j]));
      const DType gf = Sigmoid(DType(g[H + j] + hr[H + j]));
      const DType gg = Tanh(DType(g[2 * H + j] + hr[2 * H + j]));
      const DType go = Sigmoid(DType(g[3 * H + j] + hr[3 * H + j]));
      g[j] = gi;
      g[H + j] = gf;
      g[2 * H + j] = gg;
      g[3 * H + j] = go;
      DType* craw = extra + (t * d.N + b) * H;
      craw[j] = gf * cprev[b * H + j] + gi * gg;
      yo[j] = go * Tanh(clip(craw[j]));
    } else {  // GRU
      const DType r = Sigmoid(DType(g[j] + hr[j]));
      const DType z = Sigmoid(DType(g[H + j] + hr[H + j]));
      DType* hn = extra + (t * d.N + b) * H;
      hn[j] = hr[2 * H + j] + bh[2 * H + j];
      const DType n = Tanh(DType(g[2 * H + j] + r * hn[j]));
      g[j] = r;
      g[H + j] = z;
      g[2 * H + j] = n;
      yo[j] = (DType(1) - z) * n + z * hprev[b * H + j];
    }
  }
};

/*! \brief (b, j): the final h (and c) after the last valid step, or the initial state. */
struct final_state {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, StepDims d, RNNCellClip clip,
                                  const index_t* len,
                                  const DType* y, const DType* extra, const DType* h0,
                                  const DType* c0, DType* hy, DType* cy) {
    const index_t b = i / d.H, j = i % d.H;
    const index_t last = d.Last(len[b]);
    hy[i] = last >= 0 ? y[(last * d.N + b) * d.DH + j] : h0[i];
    if (cy != nullptr) cy[i] = last >= 0 ? clip(extra[(last * d.N + b) * d.H + j]) : c0[i];
  }
};

template <typename xpu, typename DType>
void AssignReq(mshadow::Stream<xpu>* s, DType* dst, const DType* src, index_t n, OpReqType req) {
  if (req == kNullOp || n == 0 || (req != kAddTo && dst == src)) return;
  Kernel<mxnet_op::copy_with_req, xpu>::Launch(s, n, dst, src, static_cast<int>(req));
}

/*! \brief RNNLengths with the sequence_length input read where it lives: in place on the
 *         CPU, from a host copy on a GPU (rnn.cu). */
inline std::vector<index_t> CheckedLengths(mshadow::Stream<cpu>*, const RNNParam& param,
                                           const RNNInputs& idx, const std::vector<TBlob>& in,
                                           const RNNDims& dm) {
  return RNNLengths(param, idx, in, dm);
}
#if MXNET_USE_CUDA
std::vector<index_t> CheckedLengths(mshadow::Stream<gpu>* s, const RNNParam& param,
                                    const RNNInputs& idx, const std::vector<TBlob>& in,
                                    const RNNDims& dm);
#endif

/*! \brief The checked lengths where xpu's kernels read them (the host vector on the CPU, a
 *         copy in `device` on a GPU: rnn.cu). */
inline const index_t* LengthsForKernels(mshadow::Stream<cpu>*, const std::vector<index_t>& len,
                                        index_t*) {
  return len.data();
}
#if MXNET_USE_CUDA
const index_t* LengthsForKernels(mshadow::Stream<gpu>* s, const std::vector<index_t>& len,
                                 index_t* device);
#endif

/*! \brief Fills `mask` (n elements) with 0 or 1/keep, each kept with probability keep: the
 *         CPU's sampler here, Philox streams on a GPU (rnn.cu). */
template <typename DType>
void DropoutMask(const OpContext& ctx, mshadow::Stream<cpu>*, DType* mask, index_t n,
                 float keep) {
  const DType kept(keep > 0 ? 1.0 / keep : 0.0);
  ParallelSample<float>(ctx.requested[1], n, [&](auto* rng, index_t i) {
    mask[i] = rng->uniform() < keep ? kept : DType(0);
  });
}
#if MXNET_USE_CUDA
template <typename DType>
void DropoutMask(const OpContext& ctx, mshadow::Stream<gpu>* s, DType* mask, index_t n,
                 float keep);
#endif

/*! \brief Bytes of index_t lengths in front of the DType workspace, kept aligned. */
inline size_t LengthBytes(index_t n) {
  return ((static_cast<size_t>(n) * sizeof(index_t) + 255) / 256) * 256;
}

template <typename xpu, typename DType>
void Forward(const RNNParam& param, const OpContext& ctx, const std::vector<TBlob>& inputs,
             const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const RNNInputs idx(param);
  const RNNDims dm(param, inputs[idx.data].shape_);
  const RNNCellClip clip(param);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const std::vector<index_t> host_len = CheckedLengths(s, param, idx, inputs, dm);
  const int nvis = RNNNumVisibleOutputs(param);
  DType* reserve = outputs[nvis].dptr<DType>();
  const DType* params = inputs[idx.params].dptr<DType>();
  const DType* h0 = inputs[idx.state].dptr<DType>();
  const DType* c0 = idx.state_cell >= 0 ? inputs[idx.state_cell].dptr<DType>() : nullptr;
  const index_t N = dm.N, H = dm.H, GH = dm.GH(), NH = N * H, DH = dm.D * H;
  // Workspace: lengths, then h_{t-1}, c_{t-1}, the recurrent GEMM's result, hy and cy.
  const size_t len_bytes = LengthBytes(N);
  const index_t elems = 2 * NH + N * GH + 2 * dm.L * dm.D * NH;
  char* space = static_cast<char*>(
      ctx.requested[0].get_space_internal(len_bytes + elems * sizeof(DType)));
  const index_t* len = LengthsForKernels(s, host_len, reinterpret_cast<index_t*>(space));
  DType* hprev = reinterpret_cast<DType*>(space + len_bytes);
  DType* cprev = hprev + NH;
  DType* hh = cprev + NH;
  DType* hy_all = hh + N * GH;
  DType* cy_all = hy_all + dm.L * dm.D * NH;

  for (index_t l = 0; l < dm.L; ++l) {
    const index_t In = dm.InputSize(l);
    const DType* x = l == 0 ? inputs[idx.data].dptr<DType>()
                            : reserve + (dm.dropout ? dm.DroppedOffset(l - 1)
                                                    : dm.LayerOutOffset(l - 1));
    for (index_t dir = 0; dir < dm.D; ++dir) {
      const index_t ld = l * dm.D + dir;
      const StepDims sd(dm, dir);
      const DType* wi = params + dm.WeightOffset(l, dir);
      const DType* wh = wi + GH * In;
      const DType* bi = params + dm.BiasOffset(l, dir);
      const DType* bh = bi + GH;
      DType* gates = reserve + dm.GatesOffset(l, dir);
      DType* extra = dm.HasExtra() ? reserve + dm.ExtraOffset(l, dir) : nullptr;
      DType* y = reserve + dm.LayerOutOffset(l) + dir * H;  // row stride DH
      const DType* h0d = h0 + ld * NH;
      const DType* c0d = c0 != nullptr ? c0 + ld * NH : nullptr;
      Gemm<DType>(s, false, true, dm.TN(), GH, In, 1.0, x, In, wi, In, 0.0, gates, GH);
      Kernel<add_biases, xpu>::Launch(s, dm.TN() * GH, gates, bi, bh, GH, H, dm.mode);
      for (index_t step = 0; step < dm.T; ++step) {
        const index_t t = dir == 0 ? step : dm.T - 1 - step;
        Kernel<gather_prev, xpu>::Launch(s, NH, sd, clip, t, len, y, extra, h0d, c0d, hprev,
                                         cprev);
        Gemm<DType>(s, false, true, N, GH, H, 1.0, hprev, H, wh, H, 0.0, hh, GH);
        Kernel<step_forward, xpu>::Launch(s, NH, sd, clip, t, len, gates, hh, hprev, cprev, bh,
                                          extra, y);
      }
      Kernel<final_state, xpu>::Launch(s, NH, sd, clip, len, y, extra, h0d, c0d,
                                       hy_all + ld * NH,
                                       c0 != nullptr ? cy_all + ld * NH : nullptr);
    }
    if (dm.dropout && l + 1 < dm.L) {
      const index_t n = dm.TN() * DH;
      DType* mask = reserve + dm.MaskOffset(l);
      if (ctx.is_train) {
        DropoutMask<DType>(ctx, s, mask, n, 1.f - param.p);
      } else {
        Kernel<mxnet_op::set_to_value<kWriteTo>, xpu>::Launch(s, n, mask, DType(1));
      }
      Kernel<mxnet_op::op_with_req<mshadow_op::mul, kWriteTo>, xpu>::Launch(s, n, reserve + dm.DroppedOffset(l),
                                    reserve + dm.LayerOutOffset(l), mask);
    }
  }
  AssignReq(s, outputs[0].dptr<DType>(), reserve + dm.LayerOutOffset(dm.L - 1),
            dm.TN() * DH, req[0]);
  if (param.state_outputs) {
    AssignReq(s, outputs[1].dptr<DType>(), hy_all, dm.L * dm.D * NH, req[1]);
    if (c0 != nullptr) AssignReq(s, outputs[2].dptr<DType>(), cy_all, dm.L * dm.D * NH, req[2]);
  }
}

// ------------------------------------------------------------------------------ backward

/*! \brief (t, b, j): h_{t-1} of every valid step (zeros past the length). */
struct gather_all_prev {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, StepDims d, const index_t* len, const DType* y,
                                  const DType* h0, DType* hprev) {
    const index_t j = i % d.H, b = (i / d.H) % d.N, t = i / (d.H * d.N);
    if (t >= len[b]) {
      hprev[i] = DType(0);
      return;
    }
    const index_t pt = d.Prev(t, len[b]);
    hprev[i] = pt >= 0 ? y[(pt * d.N + b) * d.DH + j] : h0[b * d.H + j];
  }
};

/*! \brief The carried gradients at the last step: dh = dhy, dc = dcy (or zeros), dhz = 0. */
struct init_carry {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, const DType* dhy, const DType* dcy, DType* dh,
                                  DType* dc, DType* dhz) {
    dh[i] = dhy != nullptr ? dhy[i] : DType(0);
    dc[i] = dcy != nullptr ? dcy[i] : DType(0);
    dhz[i] = DType(0);
  }
};

/*! \brief (b, j) of step t: the gate gradients (i2h side dgi; GRU's h2h side dgh), the carried
 *         cell gradient dc (LSTM) and GRU's direct z * dh term. */
struct step_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, StepDims d, RNNCellClip clip, index_t t,
                                  const index_t* len, const DType* gates, const DType* extra,
                                  const DType* hprev, const DType* c0, const DType* dy,
                                  const DType* dh, DType* dc, DType* dhz, DType* dgi,
                                  DType* dgh) {
    const index_t b = i / d.H, j = i % d.H, H = d.H;
    const index_t row = t * d.N + b;
    DType* gi_ = dgi + row * d.GH;
    DType* gh_ = dgh + row * d.GH;
    const bool gru = d.mode == rnn_enum::kGru;
    const int G = static_cast<int>(d.GH / H);
    if (t >= len[b]) {
      for (int k = 0; k < G; ++k) {
        gi_[k * H + j] = DType(0);
        if (gru) gh_[k * H + j] = DType(0);
      }
      return;
    }
    const DType* g = gates + row * d.GH;
    const DType gradh = dy[row * d.DH + d.dir * H + j] + dh[b * H + j];
    if (d.mode == rnn_enum::kRnnRelu || d.mode == rnn_enum::kRnnTanh) {
      const DType a = g[j];
      gi_[j] = gradh * (d.mode == rnn_enum::kRnnRelu ? (a > DType(0) ? DType(1) : DType(0))
                                                     : DType(1) - a * a);
    } else if (d.mode == rnn_enum::kLstm) {
      const DType craw = extra[row * H + j];
      const index_t pt = d.Prev(t, len[b]);
      const DType gi = g[j], gf = g[H + j], gg = g[2 * H + j], go = g[3 * H + j];
      const DType cprev = pt >= 0 ? clip(extra[(pt * d.N + b) * H + j]) : c0[b * H + j];
      const DType tc = Tanh(clip(craw));
      DType dcc = dc[b * H + j] + gradh * go * (DType(1) - tc * tc);
      if (!clip.Passes(craw)) dcc = DType(0);
      gi_[j] = dcc * gg * gi * (DType(1) - gi);
      gi_[H + j] = dcc * cprev * gf * (DType(1) - gf);
      gi_[2 * H + j] = dcc * gi * (DType(1) - gg * gg);
      gi_[3 * H + j] = gradh * tc * go * (DType(1) - go);
      dc[b * H + j] = dcc * gf;
    } else {  // GRU
      const DType hn = extra[row * H + j];
      const DType hp = hprev[row * H + j];
      const DType r = g[j], z = g[H + j], n = g[2 * H + j];
      const DType dn = gradh * (DType(1) - z) * (DType(1) - n * n);
      const DType dz = gradh * (hp - n) * z * (DType(1) - z);
      const DType dr = dn * hn * r * (DType(1) - r);
      gi_[j] = dr;
      gi_[H + j] = dz;
      gi_[2 * H + j] = dn;
      gh_[j] = dr;
      gh_[H + j] = dz;
      gh_[2 * H + j] = dn * r;
      dhz[b * H + j] = gradh * z;
    }
  }
};

/*! \brief dh = dhm (+ GRU's dhz) for sequences still running at step t. */
struct carry_dh {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, StepDims d, index_t t, const index_t* len,
                                  const DType* dhm, const DType* dhz, DType* dh) {
    const index_t b = i / d.H;
    if (t >= len[b]) return;
    dh[i] = dhm[i] + (d.mode == rnn_enum::kGru ? dhz[i] : DType(0));
  }
};

/*! \brief Column j of a (rows, cols) matrix summed into out[j], in row order. */
struct column_sum {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t j, DType* out, const DType* a, index_t rows,
                                  index_t cols) {
    DType acc(0);
    for (index_t r = 0; r < rows; ++r) acc += a[r * cols + j];
    out[j] = acc;
  }
};

template <typename xpu, typename DType>
void Backward(const RNNParam& param, const OpContext& ctx, const std::vector<TBlob>& inputs,
              const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const RNNInputs idx(param);
  const int nvis = RNNNumVisibleOutputs(param);
  const std::vector<TBlob> fwd_in(inputs.begin() + nvis, inputs.end() - 1);
  const RNNDims dm(param, fwd_in[idx.data].shape_);
  const RNNCellClip clip(param);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  const std::vector<index_t> host_len = CheckedLengths(s, param, idx, fwd_in, dm);
  const DType* reserve = inputs.back().dptr<DType>();
  const DType* params = fwd_in[idx.params].dptr<DType>();
  const DType* h0 = fwd_in[idx.state].dptr<DType>();
  const DType* c0 = idx.state_cell >= 0 ? fwd_in[idx.state_cell].dptr<DType>() : nullptr;
  const DType* dout = inputs[0].dptr<DType>();
  const DType* dhy = param.state_outputs ? inputs[1].dptr<DType>() : nullptr;
  const DType* dcy = param.state_outputs && c0 != nullptr ? inputs[2].dptr<DType>() : nullptr;

  const index_t N = dm.N, H = dm.H, GH = dm.GH(), NH = N * H, TN = dm.TN(), DH = dm.D * H;
  const index_t in_max = std::max(dm.I, DH);
  const bool gru = dm.mode == rnn_enum::kGru;
  const index_t dir_work = (gru ? 2 : 1) * TN * GH + TN * H + 4 * NH;
  const index_t elems = dm.ParamSize() + 2 * dm.L * dm.D * NH + TN * in_max + TN * DH + dir_work;
  const size_t len_bytes = LengthBytes(N);
  char* space = static_cast<char*>(
      ctx.requested[0].get_space_internal(len_bytes + elems * sizeof(DType)));
  const index_t* len = LengthsForKernels(s, host_len, reinterpret_cast<index_t*>(space));
  DType* dparams = reinterpret_cast<DType*>(space + len_bytes);
  DType* dh0 = dparams + dm.ParamSize();
  DType* dc0 = dh0 + dm.L * dm.D * NH;
  DType* dx = dc0 + dm.L * dm.D * NH;  // (TN, in_max): gradient of the current layer's input
  DType* dy_buf = dx + TN * in_max;    // (TN, DH): gradient of the layer below's output
  DType* dgi = dy_buf + TN * DH;       // (TN, GH)
  DType* dgh = gru ? dgi + TN * GH : dgi;
  DType* hprev = dgi + (gru ? 2 : 1) * TN * GH;  // (TN, H)
  DType* dh = hprev + TN * H;
  DType* dc = dh + NH;
  DType* dhm = dc + NH;
  DType* dhz = dhm + NH;

  const DType* dy = dout;
  for (index_t l = dm.L - 1; l >= 0; --l) {
    const index_t In = dm.InputSize(l);
    const DType* x = l == 0 ? fwd_in[idx.data].dptr<DType>()
                            : reserve + (dm.dropout ? dm.DroppedOffset(l - 1)
                                                    : dm.LayerOutOffset(l - 1));
    const bool want_dx = l > 0 || req[idx.data] != kNullOp;
    for (index_t dir = 0; dir < dm.D; ++dir) {
      const index_t ld = l * dm.D + dir;
      const StepDims sd(dm, dir);
      const DType* wi = params + dm.WeightOffset(l, dir);
      const DType* wh = wi + GH * In;
      DType* dwi = dparams + dm.WeightOffset(l, dir);
      DType* dwh = dwi + GH * In;
      DType* dbi = dparams + dm.BiasOffset(l, dir);
      DType* dbh = dbi + GH;
      const DType* gates = reserve + dm.GatesOffset(l, dir);
      const DType* extra = dm.HasExtra() ? reserve + dm.ExtraOffset(l, dir) : nullptr;
      const DType* y = reserve + dm.LayerOutOffset(l) + dir * H;
      const DType* h0d = h0 + ld * NH;
      const DType* c0d = c0 != nullptr ? c0 + ld * NH : nullptr;

      Kernel<gather_all_prev, xpu>::Launch(s, TN * H, sd, len, y, h0d, hprev);
      Kernel<init_carry, xpu>::Launch(s, NH, dhy != nullptr ? dhy + ld * NH : nullptr,
                                      dcy != nullptr ? dcy + ld * NH : nullptr, dh, dc, dhz);
      for (index_t step = 0; step < dm.T; ++step) {
        const index_t t = dir == 0 ? dm.T - 1 - step : step;  // reverse of the forward order
        Kernel<step_backward, xpu>::Launch(s, NH, sd, clip, t, len, gates, extra, hprev, c0d,
                                           dy, dh, dc, dhz, dgi, dgh);
        Gemm<DType>(s, false, false, N, H, GH, 1.0, dgh + t * N * GH, GH, wh, H, 0.0, dhm, H);
        Kernel<carry_dh, xpu>::Launch(s, NH, sd, t, len, dhm, dhz, dh);
      }
      AssignReq(s, dh0 + ld * NH, dh, NH, kWriteTo);
      if (c0 != nullptr) AssignReq(s, dc0 + ld * NH, dc, NH, kWriteTo);
      Gemm<DType>(s, true, false, GH, In, TN, 1.0, dgi, GH, x, In, 0.0, dwi, In);
      Gemm<DType>(s, true, false, GH, H, TN, 1.0, dgh, GH, hprev, H, 0.0, dwh, H);
      Kernel<column_sum, xpu>::Launch(s, GH, dbi, dgi, TN, GH);
      Kernel<column_sum, xpu>::Launch(s, GH, dbh, dgh, TN, GH);
      if (want_dx) {
        Gemm<DType>(s, false, false, TN, In, GH, 1.0, dgi, GH, wi, In, dir > 0 ? 1.0 : 0.0, dx,
                    In);
      }
    }
    if (l > 0) {
      const index_t n = TN * DH;
      if (dm.dropout) {
        Kernel<mxnet_op::op_with_req<mshadow_op::mul, kWriteTo>, xpu>::Launch(s, n, dy_buf, dx, reserve + dm.MaskOffset(l - 1));
      } else {
        AssignReq(s, dy_buf, dx, n, kWriteTo);
      }
      dy = dy_buf;
    }
  }
  AssignReq(s, outputs[idx.data].dptr<DType>(), dx, TN * dm.I, req[idx.data]);
  AssignReq(s, outputs[idx.params].dptr<DType>(), dparams, dm.ParamSize(), req[idx.params]);
  AssignReq(s, outputs[idx.state].dptr<DType>(), dh0, dm.L * dm.D * NH, req[idx.state]);
  if (idx.state_cell >= 0) {
    AssignReq(s, outputs[idx.state_cell].dptr<DType>(), dc0, dm.L * dm.D * NH,
              req[idx.state_cell]);
  }
  if (idx.seq_len >= 0 && req[idx.seq_len] != kNullOp && req[idx.seq_len] != kAddTo) {
    const TBlob& g = outputs[idx.seq_len];
    MSHADOW_TYPE_SWITCH(g.type_flag_, SType, {
      Kernel<mxnet_op::set_to_value<kWriteTo>, xpu>::Launch(s, g.Size(), g.dptr<SType>(), SType(0));
    });
  }
}

/*! \brief Where this implementation runs, for errors. */
template <typename xpu>
const char* WhereGeneric() {
  return std::is_same<xpu, cpu>::value
             ? "on the CPU"
             : "on the GPU's generic kernels (which dropout between layers, "
               "lstm_state_clip_nan, a zero sequence length or MXNET_RNN_CUDNN=0 select)";
}

template <typename xpu>
void Compute(const nnvm::NodeAttrs& attrs, const OpContext& ctx, const std::vector<TBlob>& inputs,
             const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  RNNThrowIfProjected("RNN", param, WhereGeneric<xpu>());
  const int dtype = inputs[0].type_flag_;
  if (dtype == mshadow::kFloat32) {
    Forward<xpu, float>(param, ctx, inputs, req, outputs);
  } else if (dtype == mshadow::kFloat64) {
    Forward<xpu, double>(param, ctx, inputs, req, outputs);
  } else {
    RNNThrowDtype("RNN", dtype);
  }
}

template <typename xpu>
void GradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  RNNThrowIfProjected("_backward_RNN", param, WhereGeneric<xpu>());
  const int dtype = inputs[0].type_flag_;
  if (dtype == mshadow::kFloat32) {
    Backward<xpu, float>(param, ctx, inputs, req, outputs);
  } else if (dtype == mshadow::kFloat64) {
    Backward<xpu, double>(param, ctx, inputs, req, outputs);
  } else {
    RNNThrowDtype("_backward_RNN", dtype);
  }
}

}  // namespace rnn_generic
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_RNN_GENERIC_INL_H_
