/*!
 * \file rnn-inl.h
 * \brief The fused multi-layer (optionally bidirectional) RNN operator: vanilla RNN (relu or
 *        tanh), LSTM and GRU over a whole (T, N, C) sequence.
 *
 * Parameters come in one flat vector packed as MXNet 1.9.1 packs it: first every weight
 * (for each layer, for each direction: i2h (G*H, I_l) then h2h (G*H, H)), then every bias in
 * the same order (i2h (G*H) then h2h (G*H)). G is the number of gates (1, 4 = i f g o, 3 =
 * r z n); I_0 is the input size and I_l = D*H for the layers above.
 *
 * Forward: one GEMM per layer and direction projects the whole input sequence (T*N rows) onto
 * the gates; each time step then adds h_{t-1} W_h2h^T (one small GEMM) and applies the gate
 * non-linearities. Big steps split the batch rows across OpenMP threads, each doing its rows'
 * GEMM and gate math (RNNParallelRows).
 *
 * Everything the backward needs is kept in a hidden output, `reserve` (1-D, same dtype):
 * the activated gates, LSTM's unclipped cell states, GRU's W_hn h + b_hn, every layer's output
 * and, with dropout, the masks and the dropped inputs of the next layers. The backward
 * (`_backward_RNN`) therefore never re-runs the forward.
 *
 * float32 fast path (rnn_fast.h, on unless MXNET_RNN_FAST=0; not with LSTM state clipping): the
 * LSTM/GRU gate math runs in vectorized kernels (polynomial exp/tanh), and on AVX2 machines the
 * per-step recurrent GEMMs use the h2h weight packed once per layer and direction instead of
 * BLAS, which repacks it at every step. The plain loops stay the float64 path and the oracle of
 * test_rnn_fast.py.
 *
 * sequence_length (use_sequence_length=True) gives each batch element its own length len_b:
 * steps t >= len_b output zeros and leave the state untouched, so the forward direction ends at
 * len_b - 1 and the reverse direction starts there.
 */
#ifndef MXNET_OPERATOR_NN_RNN_INL_H_
#define MXNET_OPERATOR_NN_RNN_INL_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "../blas_gemm.h"
#include "../mxnet_op.h"
#include "../operator_common.h"
#include "../random/sampler.h"
#include "./rnn_fast.h"

namespace mxnet {
namespace op {

namespace rnn_enum {
enum RNNMode { kRnnRelu, kRnnTanh, kLstm, kGru };
}  // namespace rnn_enum

struct RNNParam : public dmlc::Parameter<RNNParam> {
  uint32_t state_size;
  uint32_t num_layers;
  bool bidirectional;
  int mode;
  float p;
  bool state_outputs;
  dmlc::optional<int> projection_size;
  dmlc::optional<double> lstm_state_clip_min;
  dmlc::optional<double> lstm_state_clip_max;
  bool lstm_state_clip_nan;
  bool use_sequence_length;
  DMLC_DECLARE_PARAMETER(RNNParam) {
    DMLC_DECLARE_FIELD(state_size).describe("size of the state for each layer");
    DMLC_DECLARE_FIELD(num_layers).describe("number of stacked layers");
    DMLC_DECLARE_FIELD(bidirectional).set_default(false).describe(
        "whether to use bidirectional recurrent layers");
    DMLC_DECLARE_FIELD(mode)
        .add_enum("rnn_relu", rnn_enum::kRnnRelu)
        .add_enum("rnn_tanh", rnn_enum::kRnnTanh)
        .add_enum("lstm", rnn_enum::kLstm)
        .add_enum("gru", rnn_enum::kGru)
        .describe("the type of RNN to compute");
    DMLC_DECLARE_FIELD(p).set_default(0.).set_range(0, 1).describe(
        "drop rate of the dropout on the outputs of each RNN layer, except the last layer.");
    DMLC_DECLARE_FIELD(state_outputs).set_default(false).describe(
        "Whether to have the states as symbol outputs.");
    DMLC_DECLARE_FIELD(projection_size).set_default(dmlc::optional<int>()).describe(
        "size of project size");
    DMLC_DECLARE_FIELD(lstm_state_clip_min).set_default(dmlc::optional<double>()).describe(
        "Minimum clip value of LSTM states. This option must be used together with "
        "lstm_state_clip_max.");
    DMLC_DECLARE_FIELD(lstm_state_clip_max).set_default(dmlc::optional<double>()).describe(
        "Maximum clip value of LSTM states. This option must be used together with "
        "lstm_state_clip_min.");
    DMLC_DECLARE_FIELD(lstm_state_clip_nan).set_default(false).describe(
        "Whether to stop NaN from propagating in state by clipping it to min/max. If clipping "
        "range is not specified, this option is ignored.");
    DMLC_DECLARE_FIELD(use_sequence_length).set_default(false).describe(
        "If set to true, this layer takes in an extra input parameter `sequence_length` to "
        "specify variable length sequence");
  }
};

/*! \brief Sizes of one RNN call, and where everything lives in the parameter and reserve
 *         vectors. */
struct RNNDims {
  index_t T, N, I, H, L, D, G;
  index_t R;  // features of h and of a layer's output per direction: H, or LSTMP's projection
  int mode;
  bool dropout;  // p > 0 and more than one layer: masks are kept in the reserve

  RNNDims(const RNNParam& param, const mxnet::TShape& dshape)
      : T(dshape[0]), N(dshape[1]), I(dshape[2]), H(param.state_size), L(param.num_layers),
        D(param.bidirectional ? 2 : 1), mode(param.mode) {
    G = mode == rnn_enum::kLstm ? 4 : (mode == rnn_enum::kGru ? 3 : 1);
    dropout = param.p > 0 && L > 1;
    const bool proj = param.projection_size.has_value() && param.projection_size.value() != 0;
    R = proj ? param.projection_size.value() : H;
  }
  bool Projected() const { return R != H; }
  index_t InputSize(index_t layer) const { return layer == 0 ? I : D * R; }
  index_t GH() const { return G * H; }
  index_t TN() const { return T * N; }

  // ---- parameter vector
  /*! \brief i2h (GH, In), h2h (GH, R) and, with a projection, h2r (R, H) of one direction. */
  index_t WeightsOf(index_t layer) const {
    return GH() * (InputSize(layer) + R) + (Projected() ? R * H : 0);
  }
  index_t WeightOffset(index_t layer, index_t dir) const {  // i2h weight; h2h (h2r) follow it
    index_t off = 0;
    for (index_t l = 0; l < layer; ++l) off += D * WeightsOf(l);
    return off + dir * WeightsOf(layer);
  }
  index_t NumWeights() const { return WeightOffset(L, 0); }
  index_t BiasOffset(index_t layer, index_t dir) const {  // i2h bias; h2h bias follows it
    return NumWeights() + (layer * D + dir) * 2 * GH();
  }
  index_t ParamSize() const { return NumWeights() + L * D * 2 * GH(); }

  // ---- reserve vector
  index_t GatesOffset(index_t layer, index_t dir) const {
    return (layer * D + dir) * TN() * GH();
  }
  /*! \brief LSTM: unclipped cell states; GRU: W_hn h_{t-1} + b_hn. (T, N, H) each. */
  index_t ExtraOffset(index_t layer, index_t dir) const {
    return L * D * TN() * GH() + (layer * D + dir) * TN() * H;
  }
  bool HasExtra() const { return mode == rnn_enum::kLstm || mode == rnn_enum::kGru; }
  /*! \brief Output of layer l, (T, N, D*H). */
  index_t LayerOutOffset(index_t layer) const {
    return L * D * TN() * GH() + (HasExtra() ? L * D * TN() * H : 0) + layer * TN() * D * H;
  }
  /*! \brief Dropout mask applied to the output of layer l < L-1, (T, N, D*H). */
  index_t MaskOffset(index_t layer) const {
    return LayerOutOffset(L) + layer * TN() * D * H;
  }
  /*! \brief Masked output of layer l < L-1 = input of layer l+1. */
  index_t DroppedOffset(index_t layer) const {
    return MaskOffset(L - 1) + layer * TN() * D * H;
  }
  index_t ReserveSize() const {
    return dropout ? DroppedOffset(L - 1) : LayerOutOffset(L);
  }
};

/*! \brief Index of each input for this parameter set (-1 when absent). */
struct RNNInputs {
  int data = 0, params = 1, state = 2, state_cell = -1, seq_len = -1, count = 3;
  explicit RNNInputs(const RNNParam& param) {
    if (param.mode == rnn_enum::kLstm) state_cell = count++;
    if (param.use_sequence_length) seq_len = count++;
  }
};

inline int RNNNumVisibleOutputs(const RNNParam& param) {
  if (!param.state_outputs) return 1;
  return param.mode == rnn_enum::kLstm ? 3 : 2;
}

inline std::vector<std::string> RNNInputNames(const RNNParam& param) {
  std::vector<std::string> names{"data", "parameters", "state"};
  if (param.mode == rnn_enum::kLstm) names.emplace_back("state_cell");
  if (param.use_sequence_length) names.emplace_back("sequence_length");
  return names;
}

inline const char* RNNModeName(int mode) {
  switch (mode) {
    case rnn_enum::kRnnRelu: return "rnn_relu";
    case rnn_enum::kRnnTanh: return "rnn_tanh";
    case rnn_enum::kLstm: return "lstm";
    default: return "gru";
  }
}

inline void RNNCheckParam(const RNNParam& param) {
  if (param.projection_size.has_value() && param.mode != rnn_enum::kLstm) {
    MX_THROW(dmlc::ValueError) << "RNN: projection_size is only supported with mode='lstm'";
  }
  if (param.projection_size.has_value() && param.projection_size.value() != 0 &&
      (param.projection_size.value() < 0 ||
       param.projection_size.value() >= static_cast<int>(param.state_size))) {
    MX_THROW(dmlc::ValueError) << "RNN: projection_size=" << param.projection_size.value()
                               << " must be positive and less than state_size="
                               << param.state_size;
  }
  if (param.state_size == 0 || param.num_layers == 0) {
    MX_THROW(dmlc::ValueError) << "RNN: state_size (" << param.state_size << ") and num_layers ("
                               << param.num_layers << ") must be positive";
  }
}

inline bool RNNShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_shape,
                     mxnet::ShapeVector* out_shape) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  RNNCheckParam(param);
  const RNNInputs idx(param);
  if (in_shape->size() != static_cast<size_t>(idx.count)) {
    MX_THROW(dmlc::ValueError) << "RNN: expected " << idx.count << " inputs (data, parameters, "
                               << "state" << (idx.state_cell >= 0 ? ", state_cell" : "")
                               << (idx.seq_len >= 0 ? ", sequence_length" : "") << "), got "
                               << in_shape->size();
  }
  const mxnet::TShape& dshape = (*in_shape)[idx.data];
  if (!shape_is_known(dshape)) return false;
  if (dshape.ndim() != 3) {
    MX_THROW(dmlc::ValueError) << "RNN: data must have 3 dimensions (sequence length, batch, "
                               << "input size) in TNC layout, got shape " << dshape;
  }
  const RNNDims dims(param, dshape);
  auto expect = [&](int i, const mxnet::TShape& want, const char* name) {
    const mxnet::TShape& got = (*in_shape)[i];
    if (ndim_is_known(got) && !shape_assign(&(*in_shape)[i], want)) {
      MX_THROW(dmlc::ValueError) << "RNN: " << name << " has shape " << got << ", expected "
                                 << want << " for data of shape " << dshape << " (mode="
                                 << RNNModeName(param.mode) << ", state_size=" << param.state_size
                                 << ", num_layers=" << param.num_layers << ", bidirectional="
                                 << param.bidirectional << ")";
    }
    (*in_shape)[i] = want;
  };
  expect(idx.params, mxnet::TShape({dims.ParamSize()}), "parameters");
  const mxnet::TShape sshape({dims.L * dims.D, dims.N, dims.R});  // h: projected with LSTMP
  const mxnet::TShape cshape({dims.L * dims.D, dims.N, dims.H});
  expect(idx.state, sshape, "state");
  if (idx.state_cell >= 0) expect(idx.state_cell, cshape, "state_cell");
  if (idx.seq_len >= 0) expect(idx.seq_len, mxnet::TShape({dims.N}), "sequence_length");
  out_shape->resize(RNNNumVisibleOutputs(param) + 1);
  SHAPE_ASSIGN_CHECK(*out_shape, 0, mxnet::TShape({dims.T, dims.N, dims.D * dims.R}));
  for (int i = 1; i < RNNNumVisibleOutputs(param); ++i) {
    SHAPE_ASSIGN_CHECK(*out_shape, i, i == 1 ? sshape : cshape);
  }
  SHAPE_ASSIGN_CHECK(*out_shape, RNNNumVisibleOutputs(param),
                     mxnet::TShape({dims.ReserveSize()}));
  return true;
}

/*! \brief The error of a kernel without `dtype`: float16 runs only on cuDNN (a GPU). */
inline void RNNThrowDtype(const char* op, int dtype) {
  MX_THROW(dmlc::TypeError) << op << ": expected float32 or float64, got "
                            << mshadow::dtype_string(dtype)
                            << (dtype == mshadow::kFloat16
                                    ? " (float16 runs on a GPU with cuDNN only, without dropout "
                                      "between layers, lstm_state_clip_nan or zero sequence "
                                      "lengths, and unless MXNET_RNN_CUDNN=0)"
                                    : "");
}

/*! \brief LSTMP runs on cuDNN only (as in MXNet 1.9.1): the CPU's and the generic kernels
 *         refuse it when they are called. */
inline void RNNThrowIfProjected(const char* op, const RNNParam& param, const char* where) {
  if (!param.projection_size.has_value() || param.projection_size.value() == 0) return;
  MX_THROW(dmlc::NotImplementedError)
      << op << ": projection_size=" << param.projection_size.value() << " (LSTMP) runs on a "
      << "GPU with cuDNN only, as in MXNet 1.9.1, not " << where << " (Gluon's "
      << "LSTM(projection_size=...) runs it on any device)";
}

inline bool RNNType(const nnvm::NodeAttrs& attrs, std::vector<int>* in_type,
                    std::vector<int>* out_type) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  const RNNInputs idx(param);
  int dtype = (*in_type)[idx.data];
  for (int i = 0; i < idx.count && dtype < 0; ++i) {
    if (i != idx.seq_len) dtype = (*in_type)[i];
  }
  if (dtype < 0) return false;
  if (dtype != mshadow::kFloat32 && dtype != mshadow::kFloat64 && dtype != mshadow::kFloat16) {
    MX_THROW(dmlc::TypeError) << "RNN: expected float32, float64 or (on a GPU with cuDNN) "
                              << "float16 data, got " << mshadow::dtype_string(dtype);
  }
  for (int i = 0; i < idx.count; ++i) {
    if (i == idx.seq_len) {
      if ((*in_type)[i] < 0) (*in_type)[i] = mshadow::kInt32;
      continue;
    }
    TYPE_ASSIGN_CHECK(*in_type, i, dtype);
  }
  out_type->resize(RNNNumVisibleOutputs(param) + 1);
  for (size_t i = 0; i < out_type->size(); ++i) TYPE_ASSIGN_CHECK(*out_type, i, dtype);
  return true;
}

// ------------------------------------------------------------------------- kernels

/*! \brief Multiply-adds of one step's recurrent GEMM from which a step runs in parallel. */
constexpr index_t kRNNStepParallelFlops = 1 << 18;

/*!
 * \brief Runs fn(b0, b1) over the batch rows [0, rows) of one time step, split across the OpenMP
 *        threads when the step is big enough. Each thread does its rows' recurrent GEMM (OpenBLAS
 *        runs single-threaded inside a parallel region) and gate math: one fork/join per step
 *        and no serial code between threaded GEMMs, where idle OpenMP threads would spin.
 */
template <typename Fn>
inline void RNNParallelRows(index_t rows, index_t flops, Fn fn) {
#if MXNET_USE_OPENMP
  const int nt = flops >= kRNNStepParallelFlops && rows > 1 && !omp_in_parallel()
                     ? static_cast<int>(std::min<index_t>(mxnet_op::MaxOmpThreads(), rows))
                     : 1;
  if (nt > 1) {
#pragma omp parallel num_threads(nt)
    {
      const index_t tid = omp_get_thread_num(), n = omp_get_num_threads();
      fn(rows * tid / n, rows * (tid + 1) / n);
    }
    return;
  }
#endif
  fn(0, rows);
}

/*!
 * \brief Part of one layer and direction to run. kAll: everything. The fast path of a
 *        bidirectional layer on 2-3 threads runs the two directions' recurrences on one thread
 *        each (kRecurrence: no synchronisation per step, which costs most when other processes
 *        share the cores) and the BLAS parts (kBlas: input projection; weight and input
 *        gradients) outside that region, where BLAS may use every core.
 */
enum class RNNPhase { kAll, kBlas, kRecurrence };

/*! \brief Whether the two directions' recurrences run on one thread each (see RNNPhase). */
inline bool RNNDirectionsInParallel(const RNNDims& dm, bool fast) {
#if MXNET_USE_OPENMP
  const int nt = mxnet_op::MaxOmpThreads();
  return fast && dm.D == 2 && nt >= 2 && nt < 4 && !omp_in_parallel() &&
         dm.T * dm.N * dm.GH() * dm.H >= kRNNStepParallelFlops;
#else
  return false;
#endif
}

/*! \brief Runs fn(dir) for both directions, one OpenMP thread each (fewer threads loop). */
template <typename Fn>
inline void RNNForBothDirections(Fn fn) {
#if MXNET_USE_OPENMP
#pragma omp parallel num_threads(2)
  {
    for (index_t d = omp_get_thread_num(); d < 2; d += omp_get_num_threads()) fn(d);
  }
#else
  fn(0);
  fn(1);
#endif
}

template <typename DType>
inline DType RNNSigmoid(DType x) {
  return DType(1) / (DType(1) + std::exp(-x));
}

/*! \brief Per-batch-element sequence lengths (all T without use_sequence_length). */
inline std::vector<index_t> RNNLengths(const RNNParam& param, const RNNInputs& idx,
                                       const std::vector<TBlob>& inputs, const RNNDims& dims) {
  std::vector<index_t> len(dims.N, dims.T);
  if (idx.seq_len < 0) return len;
  const TBlob& sl = inputs[idx.seq_len];
  MSHADOW_TYPE_SWITCH(sl.type_flag_, SType, {
    const SType* p = sl.dptr<SType>();
    for (index_t b = 0; b < dims.N; ++b) {
      const double v = static_cast<double>(p[b]);
      if (!(v >= 0 && v <= static_cast<double>(dims.T))) {
        MX_THROW(dmlc::ValueError) << "RNN: sequence_length[" << b << "] = " << v
                                   << " is outside [0, " << dims.T << "] (data shape "
                                   << inputs[idx.data].shape_ << ")";
      }
      len[b] = static_cast<index_t>(v);
    }
  });
  return len;
}

/*! \brief The time step processed before t in direction dir (-1 at the first step). */
inline index_t RNNPrevStep(index_t t, index_t dir, index_t len) {
  if (dir == 0) return t - 1;
  return t + 1 < len ? t + 1 : -1;
}

/*! \brief The last step processed for a sequence of length len (-1 when len == 0). */
inline index_t RNNLastStep(index_t dir, index_t len) {
  if (len == 0) return -1;
  return dir == 0 ? len - 1 : 0;
}

/*! \brief Cell clipping as configured (identity without a clip range). */
struct RNNCellClip {
  bool on = false, nan = false;
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  explicit RNNCellClip(const RNNParam& param) {
    if (param.mode != rnn_enum::kLstm) return;
    if (param.lstm_state_clip_min.has_value()) {
      on = true;
      lo = param.lstm_state_clip_min.value();
    }
    if (param.lstm_state_clip_max.has_value()) {
      on = true;
      hi = param.lstm_state_clip_max.value();
    }
    nan = on && param.lstm_state_clip_nan;
  }
  // MSHADOW_XINLINE without std:: calls: the GPU's kernels (rnn_generic-inl.h) use it too.
  template <typename DType>
  MSHADOW_XINLINE DType operator()(DType c) const {
    if (!on) return c;
    const double v = static_cast<double>(c);
    if (v != v) return nan ? DType(lo - lo == 0 ? lo : hi) : c;  // lo - lo == 0: lo finite
    const double up = lo < v ? v : lo;  // min(hi, max(lo, v)), as std::min/std::max order them
    return DType(up < hi ? up : hi);
  }
  /*! \brief Whether the gradient passes through the clip at the unclipped value c. */
  template <typename DType>
  MSHADOW_XINLINE bool Passes(DType c) const {
    if (!on) return true;
    const double v = static_cast<double>(c);
    return v >= lo && v <= hi;
  }
};

/*! \brief Whether the vectorized float32 gate kernels (rnn_fast.h) run: float32 without LSTM
 *         state clipping, unless MXNET_RNN_FAST=0 asks for the plain loops. */
template <typename DType>
inline bool RNNUseFastKernels(const RNNCellClip& clip) {
  return std::is_same<DType, float>::value && !clip.on && rnn_fast::Enabled();
}

/*!
 * \brief One step's recurrent product C(M, cols) = A(M, K) * op(W), op(W) = W^T (W is (cols, K))
 *        with trans_w, else W (K, cols). With `packed` (float32 on AVX2: op(W) packed once per
 *        layer by rnn_fast::PackB) it runs the packed GEMM instead of BLAS, which would repack
 *        the same weight at every step.
 */
template <typename DType>
inline void RNNStepGemm(index_t M, index_t cols, index_t K, const DType* A, const DType* w,
                        bool trans_w, const float* packed, DType* C) {
  if constexpr (std::is_same<DType, float>::value) {
    if (packed != nullptr) {
      rnn_fast::GemmPacked(M, cols, K, A, K, packed, C, cols);
      return;
    }
  }
  BlasGemm<DType>(false, trans_w, M, cols, K, DType(1), A, K, w, trans_w ? K : cols, DType(0), C,
                  cols);
}

template <typename DType>
inline void RNNAssignReq(DType* dst, const DType* src, index_t n, OpReqType req) {
  if (req == kNullOp) return;
  if (req == kAddTo) {
    for (index_t i = 0; i < n; ++i) dst[i] += src[i];
  } else if (dst != src) {
    std::memcpy(dst, src, n * sizeof(DType));
  }
}

/*!
 * \brief Forward of one layer and direction: fills the gates/extra reserve blocks, this
 *        direction's half of the layer output, and the final h (and c).
 */
template <typename DType>
void RNNLayerDirForward(const RNNDims& dm, const RNNCellClip& clip, index_t layer, index_t dir,
                        const DType* x, const DType* params, const DType* h0, const DType* c0,
                        const std::vector<index_t>& len, DType* reserve, DType* hy, DType* cy,
                        DType* work, bool fast, float* packed, RNNPhase phase) {
  const index_t N = dm.N, H = dm.H, GH = dm.GH(), DH = dm.D * H, In = dm.InputSize(layer);
  const DType* wi = params + dm.WeightOffset(layer, dir);
  const DType* wh = wi + GH * In;
  const DType* bi = params + dm.BiasOffset(layer, dir);
  const DType* bh = bi + GH;
  DType* gates = reserve + dm.GatesOffset(layer, dir);
  DType* extra = dm.HasExtra() ? reserve + dm.ExtraOffset(layer, dir) : nullptr;
  DType* y = reserve + dm.LayerOutOffset(layer) + dir * H;  // row stride DH
  DType* hprev = work;                                      // (N, H)
  DType* cprev = work + N * H;                              // (N, H)
  DType* hh = work + 2 * N * H;                             // (N, GH)

  if (phase != RNNPhase::kRecurrence) {
    // Input projection of the whole sequence, plus the biases (GRU's b_hn goes inside r*(.)).
    BlasGemm<DType>(false, true, dm.TN(), GH, In, DType(1), x, In, wi, In, DType(0), gates, GH);
    const bool gru = dm.mode == rnn_enum::kGru;
#pragma omp parallel for if (dm.TN() * GH >= mxnet_op::kOmpThreshold)
    for (index_t r = 0; r < dm.TN(); ++r) {
      DType* g = gates + r * GH;
      for (index_t j = 0; j < GH; ++j) g[j] += bi[j] + (gru && j >= 2 * H ? DType(0) : bh[j]);
    }
  }
  if (phase == RNNPhase::kBlas) return;
  if constexpr (std::is_same<DType, float>::value) {
    if (packed != nullptr) rnn_fast::PackB(wh, H, true, H, GH, packed);
  }

  for (index_t s = 0; s < dm.T; ++s) {
    const index_t t = dir == 0 ? s : dm.T - 1 - s;
    RNNParallelRows(N, N * GH * H, [&](index_t b0, index_t b1) {
      for (index_t b = b0; b < b1; ++b) {
        const index_t pt = RNNPrevStep(t, dir, len[b]);
        const bool valid = t < len[b];
        const DType* hsrc = (valid && pt >= 0) ? y + (pt * N + b) * DH : h0 + b * H;
        std::memcpy(hprev + b * H, hsrc, H * sizeof(DType));
        if (dm.mode == rnn_enum::kLstm) {
          if (valid && pt >= 0) {
            const DType* craw = extra + (pt * N + b) * H;
            for (index_t j = 0; j < H; ++j) cprev[b * H + j] = clip(craw[j]);
          } else {
            std::memcpy(cprev + b * H, c0 + b * H, H * sizeof(DType));
          }
        }
      }
      RNNStepGemm<DType>(b1 - b0, GH, H, hprev + b0 * H, wh, true, packed, hh + b0 * GH);
      for (index_t b = b0; b < b1; ++b) {
        DType* yo = y + (t * N + b) * DH;
        if (t >= len[b]) {
          std::fill(yo, yo + H, DType(0));
          continue;
        }
        DType* g = gates + (t * N + b) * GH;
        const DType* hr = hh + b * GH;
        const DType* hp = hprev + b * H;
        if (dm.mode == rnn_enum::kRnnRelu || dm.mode == rnn_enum::kRnnTanh) {
          for (index_t j = 0; j < H; ++j) {
            const DType v = g[j] + hr[j];
            g[j] = dm.mode == rnn_enum::kRnnRelu ? (v > DType(0) ? v : DType(0)) : std::tanh(v);
            yo[j] = g[j];
          }
        } else if (dm.mode == rnn_enum::kLstm) {
          DType* craw = extra + (t * N + b) * H;
          if constexpr (std::is_same<DType, float>::value) {
            if (fast) {
              rnn_fast::LstmForwardRow(H, g, hr, cprev + b * H, craw, yo);
              continue;
            }
          }
          for (index_t j = 0; j < H; ++j) {
            const DType gi = RNNSigmoid(g[j] + hr[j]);
            const DType gf = RNNSigmoid(g[H + j] + hr[H + j]);
            const DType gg = std::tanh(g[2 * H + j] + hr[2 * H + j]);
            const DType go = RNNSigmoid(g[3 * H + j] + hr[3 * H + j]);
            g[j] = gi;
            g[H + j] = gf;
            g[2 * H + j] = gg;
            g[3 * H + j] = go;
            craw[j] = gf * cprev[b * H + j] + gi * gg;
            yo[j] = go * std::tanh(clip(craw[j]));
          }
        } else {  // GRU
          DType* hn = extra + (t * N + b) * H;
          if constexpr (std::is_same<DType, float>::value) {
            if (fast) {
              rnn_fast::GruForwardRow(H, g, hr, bh + 2 * H, hp, hn, yo);
              continue;
            }
          }
          for (index_t j = 0; j < H; ++j) {
            const DType r = RNNSigmoid(g[j] + hr[j]);
            const DType z = RNNSigmoid(g[H + j] + hr[H + j]);
            hn[j] = hr[2 * H + j] + bh[2 * H + j];
            const DType n = std::tanh(g[2 * H + j] + r * hn[j]);
            g[j] = r;
            g[H + j] = z;
            g[2 * H + j] = n;
            yo[j] = (DType(1) - z) * n + z * hp[j];
          }
        }
      }
    });
  }

  // Final states: the value after the last valid step (the initial state for empty sequences).
  for (index_t b = 0; b < N; ++b) {
    const index_t last = RNNLastStep(dir, len[b]);
    if (hy != nullptr) {
      const DType* src = last >= 0 ? y + (last * N + b) * DH : h0 + b * H;
      std::memcpy(hy + b * H, src, H * sizeof(DType));
    }
    if (cy != nullptr) {
      for (index_t j = 0; j < H; ++j) {
        cy[b * H + j] = last >= 0 ? clip(extra[(last * N + b) * H + j]) : c0[b * H + j];
      }
    }
  }
}

template <typename DType>
void RNNForwardImpl(const RNNParam& param, const OpContext& ctx, const std::vector<TBlob>& inputs,
                    const std::vector<OpReqType>& req, const std::vector<TBlob>& outputs) {
  const RNNInputs idx(param);
  const RNNDims dm(param, inputs[idx.data].shape_);
  const RNNCellClip clip(param);
  const std::vector<index_t> len = RNNLengths(param, idx, inputs, dm);
  const bool fast = RNNUseFastKernels<DType>(clip);
  const bool use_packed = fast && rnn_fast::PackedGemmAvailable();
  const int nvis = RNNNumVisibleOutputs(param);
  DType* reserve = outputs[nvis].dptr<DType>();
  const DType* params = inputs[idx.params].dptr<DType>();
  const DType* h0 = inputs[idx.state].dptr<DType>();
  const DType* c0 = idx.state_cell >= 0 ? inputs[idx.state_cell].dptr<DType>() : nullptr;
  const index_t NH = dm.N * dm.H;
  // hy / cy straight into the outputs when they are plain writes, else into scratch.
  const bool dir_parallel = RNNDirectionsInParallel(dm, fast);
  const index_t copies = dir_parallel ? 2 : 1;  // per-direction scratch when run concurrently
  const index_t step_work = 2 * NH + dm.N * dm.GH();
  const index_t packed_size = use_packed ? rnn_fast::PackedSize(dm.H, dm.GH()) : 0;
  DType* work = ctx.requested[0].get_space_typed_ptr<DType>(
      copies * step_work + 2 * dm.L * dm.D * NH + copies * packed_size);
  DType* hy_all = work + copies * step_work;
  DType* cy_all = hy_all + dm.L * dm.D * NH;
  float* packed = use_packed ? reinterpret_cast<float*>(cy_all + dm.L * dm.D * NH) : nullptr;

  for (index_t l = 0; l < dm.L; ++l) {
    const DType* x = l == 0 ? inputs[idx.data].dptr<DType>()
                            : reserve + (dm.dropout ? dm.DroppedOffset(l - 1)
                                                    : dm.LayerOutOffset(l - 1));
    auto run = [&](index_t d, RNNPhase phase) {
      const index_t ld = l * dm.D + d;
      const index_t copy = dir_parallel ? d : 0;
      RNNLayerDirForward<DType>(dm, clip, l, d, x, params, h0 + ld * NH,
                                c0 != nullptr ? c0 + ld * NH : nullptr, len, reserve,
                                hy_all + ld * NH, c0 != nullptr ? cy_all + ld * NH : nullptr,
                                work + copy * step_work, fast,
                                packed != nullptr ? packed + copy * packed_size : nullptr, phase);
    };
    if (dir_parallel) {
      for (index_t d = 0; d < dm.D; ++d) run(d, RNNPhase::kBlas);
      RNNForBothDirections([&](index_t d) { run(d, RNNPhase::kRecurrence); });
    } else {
      for (index_t d = 0; d < dm.D; ++d) run(d, RNNPhase::kAll);
    }
    if (dm.dropout && l + 1 < dm.L) {
      const index_t n = dm.TN() * dm.D * dm.H;
      DType* mask = reserve + dm.MaskOffset(l);
      DType* dropped = reserve + dm.DroppedOffset(l);
      const DType* y = reserve + dm.LayerOutOffset(l);
      if (ctx.is_train) {
        const float keep = 1.f - param.p;
        const DType kept(keep > 0 ? 1.0 / keep : 0.0);
        ParallelSample<float>(ctx.requested[1], n, [&](auto* rng, index_t i) {
          mask[i] = rng->uniform() < keep ? kept : DType(0);
        });
      } else {
        std::fill(mask, mask + n, DType(1));
      }
      for (index_t i = 0; i < n; ++i) dropped[i] = y[i] * mask[i];
    }
  }
  const index_t nout = dm.TN() * dm.D * dm.H;
  RNNAssignReq(outputs[0].dptr<DType>(), reserve + dm.LayerOutOffset(dm.L - 1), nout, req[0]);
  if (param.state_outputs) {
    RNNAssignReq(outputs[1].dptr<DType>(), hy_all, dm.L * dm.D * NH, req[1]);
    if (c0 != nullptr) RNNAssignReq(outputs[2].dptr<DType>(), cy_all, dm.L * dm.D * NH, req[2]);
  }
}

template <typename xpu>
void RNNCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                const std::vector<TBlob>& outputs) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  RNNThrowIfProjected("RNN", param, "on the CPU");
  const int dtype = inputs[0].type_flag_;
  if (dtype == mshadow::kFloat32) {
    RNNForwardImpl<float>(param, ctx, inputs, req, outputs);
  } else if (dtype == mshadow::kFloat64) {
    RNNForwardImpl<double>(param, ctx, inputs, req, outputs);
  } else {
    RNNThrowDtype("RNN", dtype);
  }
}

/*!
 * \brief The recurrent part of RNNLayerDirBackward: fills the gate gradients dgi / dgh and
 *        h_{t-1} of every step in `work` (layout below), and writes dh0 / dc0.
 */
template <typename DType>
void RNNLayerDirRecurrenceBackward(const RNNDims& dm, const RNNCellClip& clip, index_t dir,
                                   const DType* wh, const DType* h0, const DType* c0,
                                   const std::vector<index_t>& len, const DType* gates,
                                   const DType* extra, const DType* y, const DType* dy,
                                   const DType* dhy, const DType* dcy, DType* dh0, DType* dc0,
                                   DType* work, bool fast, float* packed) {
  const index_t N = dm.N, H = dm.H, GH = dm.GH(), DH = dm.D * H, TN = dm.TN();
  const bool gru = dm.mode == rnn_enum::kGru;
  DType* dgi = work;                                  // (TN, GH) gate gradients, i2h side
  DType* dgh = gru ? dgi + TN * GH : dgi;              // GRU's h2h side differs in the n gate
  DType* hprev = dgi + (gru ? 2 : 1) * TN * GH;       // (TN, H) h_{t-1} of every step
  DType* dh = hprev + TN * H;                         // (N, H) carried dL/dh
  DType* dc = dh + N * H;                             // (N, H) carried dL/dc (clipped c)
  DType* dhm = dc + N * H;                            // (N, H) GEMM result
  DType* dhz = dhm + N * H;                           // (N, H) GRU's direct z * dh term

  if constexpr (std::is_same<DType, float>::value) {
    if (packed != nullptr) rnn_fast::PackB(wh, H, false, GH, H, packed);
  }
  // h_{t-1} of every valid step (zeros elsewhere).
  for (index_t t = 0; t < dm.T; ++t) {
    for (index_t b = 0; b < N; ++b) {
      DType* dst = hprev + (t * N + b) * H;
      if (t >= len[b]) {
        std::fill(dst, dst + H, DType(0));
        continue;
      }
      const index_t pt = RNNPrevStep(t, dir, len[b]);
      std::memcpy(dst, pt >= 0 ? y + (pt * N + b) * DH : h0 + b * H, H * sizeof(DType));
    }
  }
  for (index_t i = 0; i < N * H; ++i) {
    dh[i] = dhy != nullptr ? dhy[i] : DType(0);
    dc[i] = dcy != nullptr ? dcy[i] : DType(0);
    dhz[i] = DType(0);
  }

  for (index_t s = 0; s < dm.T; ++s) {
    const index_t t = dir == 0 ? dm.T - 1 - s : s;  // reverse of the forward order
    RNNParallelRows(N, N * GH * H, [&](index_t b0, index_t b1) {
      for (index_t b = b0; b < b1; ++b) {
        DType* gi_ = dgi + (t * N + b) * GH;
        DType* gh_ = dgh + (t * N + b) * GH;
        if (t >= len[b]) {
          std::fill(gi_, gi_ + GH, DType(0));
          if (gru) std::fill(gh_, gh_ + GH, DType(0));
          continue;
        }
        const DType* g = gates + (t * N + b) * GH;
        const DType* dyr = dy + (t * N + b) * DH + dir * H;
        DType* dhb = dh + b * H;
        if (dm.mode == rnn_enum::kRnnRelu || dm.mode == rnn_enum::kRnnTanh) {
          for (index_t j = 0; j < H; ++j) {
            const DType gradh = dyr[j] + dhb[j];
            const DType a = g[j];
            gi_[j] = gradh * (dm.mode == rnn_enum::kRnnRelu ? (a > DType(0) ? DType(1) : DType(0))
                                                            : DType(1) - a * a);
          }
        } else if (dm.mode == rnn_enum::kLstm) {
          const DType* craw = extra + (t * N + b) * H;
          const index_t pt = RNNPrevStep(t, dir, len[b]);
          DType* dcb = dc + b * H;
          if constexpr (std::is_same<DType, float>::value) {
            if (fast) {  // no clipping on the fast path: c_{t-1} is the stored cell state
              const DType* cprev = pt >= 0 ? extra + (pt * N + b) * H : c0 + b * H;
              rnn_fast::LstmBackwardRow(H, g, craw, cprev, dyr, dhb, dcb, gi_);
              continue;
            }
          }
          for (index_t j = 0; j < H; ++j) {
            const DType gradh = dyr[j] + dhb[j];
            const DType gi = g[j], gf = g[H + j], gg = g[2 * H + j], go = g[3 * H + j];
            const DType cprev = pt >= 0 ? clip(extra[(pt * N + b) * H + j]) : c0[b * H + j];
            const DType tc = std::tanh(clip(craw[j]));
            DType dcc = dcb[j] + gradh * go * (DType(1) - tc * tc);
            if (!clip.Passes(craw[j])) dcc = DType(0);
            gi_[j] = dcc * gg * gi * (DType(1) - gi);
            gi_[H + j] = dcc * cprev * gf * (DType(1) - gf);
            gi_[2 * H + j] = dcc * gi * (DType(1) - gg * gg);
            gi_[3 * H + j] = gradh * tc * go * (DType(1) - go);
            dcb[j] = dcc * gf;
          }
        } else {  // GRU
          const DType* hn = extra + (t * N + b) * H;
          const DType* hp = hprev + (t * N + b) * H;
          if constexpr (std::is_same<DType, float>::value) {
            if (fast) {
              rnn_fast::GruBackwardRow(H, g, hn, hp, dyr, dhb, gi_, gh_, dhz + b * H);
              continue;
            }
          }
          for (index_t j = 0; j < H; ++j) {
            const DType gradh = dyr[j] + dhb[j];
            const DType r = g[j], z = g[H + j], n = g[2 * H + j];
            const DType dn = gradh * (DType(1) - z) * (DType(1) - n * n);
            const DType dz = gradh * (hp[j] - n) * z * (DType(1) - z);
            const DType dr = dn * hn[j] * r * (DType(1) - r);
            gi_[j] = dr;
            gi_[H + j] = dz;
            gi_[2 * H + j] = dn;
            gh_[j] = dr;
            gh_[H + j] = dz;
            gh_[2 * H + j] = dn * r;
            dhz[b * H + j] = gradh * z;
          }
        }
      }
      RNNStepGemm<DType>(b1 - b0, H, GH, dgh + (t * N + b0) * GH, wh, false, packed,
                         dhm + b0 * H);
      for (index_t b = b0; b < b1; ++b) {
        if (t >= len[b]) continue;  // the carried gradient skips padded steps
        for (index_t j = 0; j < H; ++j) {
          dh[b * H + j] = dhm[b * H + j] + (gru ? dhz[b * H + j] : DType(0));
        }
      }
    });
  }
  std::memcpy(dh0, dh, N * H * sizeof(DType));
  if (dc0 != nullptr) std::memcpy(dc0, dc, N * H * sizeof(DType));
}

/*!
 * \brief Backward of one layer and direction. dy: gradient of this layer's output (row stride
 *        D*H); adds to dx (beta) the gradient of the layer input (skipped when dx is null:
 *        the data gradient nobody asked for); writes this direction's
 *        weight/bias gradients into dparams and the initial-state gradients into dh0 / dc0.
 *        `work` holds the recurrence's results between the two phases (see RNNPhase).
 */
template <typename DType>
void RNNLayerDirBackward(const RNNDims& dm, const RNNCellClip& clip, index_t layer,
                         index_t dir, const DType* x, const DType* params, const DType* h0,
                         const DType* c0, const std::vector<index_t>& len,
                         const DType* reserve, const DType* dy, const DType* dhy,
                         const DType* dcy, DType* dx, bool accumulate_dx, DType* dparams,
                         DType* dh0, DType* dc0, DType* work, bool fast, float* packed,
                         RNNPhase phase) {
  const index_t H = dm.H, GH = dm.GH(), In = dm.InputSize(layer), TN = dm.TN();
  const DType* wi = params + dm.WeightOffset(layer, dir);
  const DType* wh = wi + GH * In;
  DType* dwi = dparams + dm.WeightOffset(layer, dir);
  DType* dwh = dwi + GH * In;
  DType* dbi = dparams + dm.BiasOffset(layer, dir);
  DType* dbh = dbi + GH;
  const DType* gates = reserve + dm.GatesOffset(layer, dir);
  const DType* extra = dm.HasExtra() ? reserve + dm.ExtraOffset(layer, dir) : nullptr;
  const DType* y = reserve + dm.LayerOutOffset(layer) + dir * H;
  const bool gru = dm.mode == rnn_enum::kGru;

  const DType* dgi = work;  // filled by the recurrence, laid out as described there
  const DType* dgh = gru ? dgi + TN * GH : dgi;
  const DType* hprev = dgi + (gru ? 2 : 1) * TN * GH;

  if (phase != RNNPhase::kBlas) {
    RNNLayerDirRecurrenceBackward(dm, clip, dir, wh, h0, c0, len, gates, extra, y, dy, dhy, dcy,
                                  dh0, dc0, work, fast, packed);
  }
  if (phase == RNNPhase::kRecurrence) return;
  BlasGemm<DType>(true, false, GH, In, TN, DType(1), dgi, GH, x, In, DType(0), dwi, In);
  BlasGemm<DType>(true, false, GH, H, TN, DType(1), dgh, GH, hprev, H, DType(0), dwh, H);
  for (index_t j = 0; j < GH; ++j) {
    dbi[j] = DType(0);
    dbh[j] = DType(0);
  }
  for (index_t r = 0; r < TN; ++r) {
    for (index_t j = 0; j < GH; ++j) {
      dbi[j] += dgi[r * GH + j];
      dbh[j] += dgh[r * GH + j];
    }
  }
  if (dx != nullptr) {
    BlasGemm<DType>(false, false, TN, In, GH, DType(1), dgi, GH, wi, In,
                    accumulate_dx ? DType(1) : DType(0), dx, In);
  }
}


/*!
 * \brief _backward_RNN. inputs: the visible output gradients (out, [hy, [cy]]), the forward
 *        inputs, the reserve; outputs: the gradients of the forward inputs.
 */
template <typename DType>
void RNNBackwardImpl(const RNNParam& param, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  const RNNInputs idx(param);
  const int nvis = RNNNumVisibleOutputs(param);
  const std::vector<TBlob> fwd_in(inputs.begin() + nvis, inputs.end() - 1);
  const RNNDims dm(param, fwd_in[idx.data].shape_);
  const RNNCellClip clip(param);
  const std::vector<index_t> len = RNNLengths(param, idx, fwd_in, dm);
  const bool fast = RNNUseFastKernels<DType>(clip);
  const bool use_packed = fast && rnn_fast::PackedGemmAvailable();
  const DType* reserve = inputs.back().dptr<DType>();
  const DType* params = fwd_in[idx.params].dptr<DType>();
  const DType* h0 = fwd_in[idx.state].dptr<DType>();
  const DType* c0 = idx.state_cell >= 0 ? fwd_in[idx.state_cell].dptr<DType>() : nullptr;
  const DType* dout = inputs[0].dptr<DType>();
  const DType* dhy = param.state_outputs ? inputs[1].dptr<DType>() : nullptr;
  const DType* dcy = param.state_outputs && c0 != nullptr ? inputs[2].dptr<DType>() : nullptr;

  const index_t NH = dm.N * dm.H, TN = dm.TN(), DH = dm.D * dm.H;
  const index_t in_max = std::max(dm.I, DH);
  const bool gru = dm.mode == rnn_enum::kGru;
  const index_t dir_work = (gru ? 2 : 1) * TN * dm.GH() + TN * dm.H + 4 * NH;
  const index_t packed_size = use_packed ? rnn_fast::PackedSize(dm.GH(), dm.H) : 0;
  const bool dir_parallel = RNNDirectionsInParallel(dm, fast);
  const index_t copies = dir_parallel ? 2 : 1;  // per-direction scratch when run concurrently
  const index_t total = dm.ParamSize() + 2 * dm.L * dm.D * NH + 2 * TN * in_max + TN * DH +
                        copies * (dir_work + packed_size);
  DType* dparams = ctx.requested[0].get_space_typed_ptr<DType>(total);
  DType* dh0 = dparams + dm.ParamSize();
  DType* dc0 = dh0 + dm.L * dm.D * NH;
  DType* dx = dc0 + dm.L * dm.D * NH;  // (TN, in_max): gradient of the current layer's input
  DType* dy_buf = dx + TN * in_max;    // (TN, DH): gradient of the layer below's output
  DType* dir_scratch = dy_buf + TN * DH + TN * in_max;
  float* packed =
      use_packed ? reinterpret_cast<float*>(dir_scratch + copies * dir_work) : nullptr;

  const DType* dy = dout;
  for (index_t l = dm.L - 1; l >= 0; --l) {
    const DType* x = l == 0 ? fwd_in[idx.data].dptr<DType>()
                            : reserve + (dm.dropout ? dm.DroppedOffset(l - 1)
                                                    : dm.LayerOutOffset(l - 1));
    auto run = [&](index_t d, RNNPhase phase) {
      const index_t ld = l * dm.D + d;
      const index_t copy = dir_parallel ? d : 0;
      RNNLayerDirBackward<DType>(dm, clip, l, d, x, params, h0 + ld * NH,
                                 c0 != nullptr ? c0 + ld * NH : nullptr, len, reserve, dy,
                                 dhy != nullptr ? dhy + ld * NH : nullptr,
                                 dcy != nullptr ? dcy + ld * NH : nullptr,
                                 l > 0 || req[idx.data] != kNullOp ? dx : nullptr, d > 0, dparams,
                                 dh0 + ld * NH, c0 != nullptr ? dc0 + ld * NH : nullptr,
                                 dir_scratch + copy * dir_work, fast,
                                 packed != nullptr ? packed + copy * packed_size : nullptr, phase);
    };
    if (dir_parallel) {
      RNNForBothDirections([&](index_t d) { run(d, RNNPhase::kRecurrence); });
      for (index_t d = 0; d < dm.D; ++d) run(d, RNNPhase::kBlas);
    } else {
      for (index_t d = 0; d < dm.D; ++d) run(d, RNNPhase::kAll);
    }
    if (l > 0) {
      const index_t n = TN * DH;
      const DType* mask = dm.dropout ? reserve + dm.MaskOffset(l - 1) : nullptr;
      for (index_t i = 0; i < n; ++i) dy_buf[i] = mask != nullptr ? dx[i] * mask[i] : dx[i];
      dy = dy_buf;
    }
  }
  RNNAssignReq(outputs[idx.data].dptr<DType>(), dx, TN * dm.I, req[idx.data]);
  RNNAssignReq(outputs[idx.params].dptr<DType>(), dparams, dm.ParamSize(), req[idx.params]);
  RNNAssignReq(outputs[idx.state].dptr<DType>(), dh0, dm.L * dm.D * NH, req[idx.state]);
  if (idx.state_cell >= 0) {
    RNNAssignReq(outputs[idx.state_cell].dptr<DType>(), dc0, dm.L * dm.D * NH,
                 req[idx.state_cell]);
  }
  if (idx.seq_len >= 0 && req[idx.seq_len] != kNullOp && req[idx.seq_len] != kAddTo) {
    const TBlob& g = outputs[idx.seq_len];
    std::memset(g.dptr_, 0, g.Size() * mshadow::mshadow_sizeof(g.type_flag_));
  }
}

template <typename xpu>
void RNNGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  const RNNParam& param = nnvm::get<RNNParam>(attrs.parsed);
  RNNThrowIfProjected("_backward_RNN", param, "on the CPU");
  const int dtype = inputs[0].type_flag_;
  if (dtype == mshadow::kFloat32) {
    RNNBackwardImpl<float>(param, ctx, inputs, req, outputs);
  } else if (dtype == mshadow::kFloat64) {
    RNNBackwardImpl<double>(param, ctx, inputs, req, outputs);
  } else {
    RNNThrowDtype("_backward_RNN", dtype);
  }
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_RNN_INL_H_
