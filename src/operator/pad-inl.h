/*!
 * \file pad-inl.h
 * \brief Pad's parameters and per-element kernels for every device: the forward reads, for
 *        each output element, the input element its coordinates map to (or the constant); the
 *        backward gathers, for each input element, the output gradients of every output
 *        element that read it (per axis at most three ranges of output coordinates: the
 *        element itself, and the edge or mirrored positions), so no two threads write one
 *        element.
 */
#ifndef MXNET_OPERATOR_PAD_INL_H_
#define MXNET_OPERATOR_PAD_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <vector>

#include "./mxnet_op.h"
#include "./operator_common.h"

namespace mxnet {
namespace op {

namespace pad_enum {
enum PadMode { kConstant, kEdge, kReflect };
}  // namespace pad_enum

struct PadParam : public dmlc::Parameter<PadParam> {
  int mode;
  double constant_value;
  mxnet::TShape pad_width;
  DMLC_DECLARE_PARAMETER(PadParam) {
    DMLC_DECLARE_FIELD(mode)
        .add_enum("constant", pad_enum::kConstant)
        .add_enum("edge", pad_enum::kEdge)
        .add_enum("reflect", pad_enum::kReflect)
        .describe("Padding type to use. \"constant\" pads with `constant_value` \"edge\" pads "
                  "using the edge values of the input array \"reflect\" pads by reflecting "
                  "values with respect to the edges.");
    DMLC_DECLARE_FIELD(pad_width)
        .describe("Widths of the padding regions applied to the edges of each axis. It is a "
                  "tuple of integer padding widths for each axis of the format ``(before_1, "
                  "after_1, ... , before_N, after_N)``. It should be of length ``2*N`` where "
                  "``N`` is the number of dimensions of the array.This is equivalent to "
                  "pad_width in numpy.pad, but flattened.");
    DMLC_DECLARE_FIELD(constant_value).set_default(0.0)
        .describe("The value used for padding when `mode` is \"constant\".");
  }
};

/*! \brief Pad's geometry for a kernel (data of 4 or 5 dimensions). */
struct PadGeom {
  static constexpr int kMaxDims = 5;
  int ndim, mode;
  index_t in[kMaxDims], out[kMaxDims], before[kMaxDims];
};

inline PadGeom MakePadGeom(const PadParam& p, const mxnet::TShape& in, const mxnet::TShape& out) {
  PadGeom g;
  g.ndim = in.ndim();
  g.mode = p.mode;
  for (int k = 0; k < g.ndim; ++k) {
    g.in[k] = in[k];
    g.out[k] = out[k];
    g.before[k] = p.pad_width[2 * k];
  }
  return g;
}

/*! \brief Input coordinate read for output coordinate `i` of one axis, -1 for a constant. */
MSHADOW_XINLINE index_t PadSourceCoord(index_t i, index_t before, index_t n, int mode) {
  const index_t s = i - before;
  if (s >= 0 && s < n) return s;
  if (mode == pad_enum::kConstant) return -1;
  if (mode == pad_enum::kEdge) return s < 0 ? 0 : n - 1;
  return s < 0 ? -s : 2 * (n - 1) - s;  // reflect
}

struct pad_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* y, const DType* x, PadGeom g, double fill,
                                  int req) {
    index_t rest = i, src = 0, stride = 1;
    bool constant = false;
    for (int k = g.ndim - 1; k >= 0; --k) {
      const index_t c = PadSourceCoord(rest % g.out[k], g.before[k], g.in[k], g.mode);
      rest /= g.out[k];
      if (c < 0) constant = true;
      src += c * stride;
      stride *= g.in[k];
    }
    KERNEL_ASSIGN(y[i], req, constant ? DType(fill) : x[src]);
  }
};

struct pad_backward {
  /*! \brief The output coordinates of one axis that read input coordinate c: up to three
   *          ranges (start, count). Returns how many. */
  MSHADOW_XINLINE static int Ranges(index_t c, index_t n, index_t b, index_t out, int mode,
                                    index_t* start, index_t* count) {
    const index_t a = out - n - b;
    int r = 0;
    start[r] = c + b;
    count[r++] = 1;
    if (mode == pad_enum::kEdge) {
      if (c == 0 && b > 0) { start[r] = 0; count[r++] = b; }
      if (c == n - 1 && a > 0) { start[r] = b + n; count[r++] = a; }
    } else if (mode == pad_enum::kReflect) {
      if (c >= 1 && c <= b) { start[r] = b - c; count[r++] = 1; }
      const index_t s = 2 * (n - 1) - c;
      if (c <= n - 2 && s < n + a) { start[r] = s + b; count[r++] = 1; }
    }
    return r;
  }

  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t i, DType* dx, const DType* og, PadGeom g, int req) {
    index_t start[PadGeom::kMaxDims][3], count[PadGeom::kMaxDims][3], total[PadGeom::kMaxDims];
    int nr[PadGeom::kMaxDims];
    index_t rest = i, combos = 1;
    for (int k = g.ndim - 1; k >= 0; --k) {
      nr[k] = Ranges(rest % g.in[k], g.in[k], g.before[k], g.out[k], g.mode, start[k], count[k]);
      rest /= g.in[k];
      total[k] = 0;
      for (int r = 0; r < nr[k]; ++r) total[k] += count[k][r];
      combos *= total[k];
    }
    double acc = 0;
    for (index_t m = 0; m < combos; ++m) {
      index_t left = m, o = 0, stride = 1;
      for (int k = g.ndim - 1; k >= 0; --k) {
        index_t j = left % total[k];
        left /= total[k];
        int r = 0;
        while (j >= count[k][r]) j -= count[k][r++];
        o += (start[k][r] + j) * stride;
        stride *= g.out[k];
      }
      acc += static_cast<double>(og[o]);
    }
    KERNEL_ASSIGN(dx[i], req, DType(acc));
  }
};

template <typename xpu>
void PadCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const PadParam& p = nnvm::get<PadParam>(attrs.parsed);
  const PadGeom g = MakePadGeom(p, inputs[0].shape_, outputs[0].shape_);
  MSHADOW_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    mxnet_op::Kernel<pad_forward, xpu>::Launch(ctx.get_stream<xpu>(), outputs[0].Size(),
                                               outputs[0].dptr<DType>(),
                                               inputs[0].dptr<DType>(), g, p.constant_value,
                                               static_cast<int>(req[0]));
  });
}

template <typename xpu>
void PadGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                    const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                    const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const PadParam& p = nnvm::get<PadParam>(attrs.parsed);
  const PadGeom g = MakePadGeom(p, outputs[0].shape_, inputs[0].shape_);
  MSHADOW_REAL_TYPE_SWITCH(outputs[0].type_flag_, DType, {
    mxnet_op::Kernel<pad_backward, xpu>::Launch(ctx.get_stream<xpu>(), outputs[0].Size(),
                                                outputs[0].dptr<DType>(),
                                                inputs[0].dptr<DType>(), g,
                                                static_cast<int>(req[0]));
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_PAD_INL_H_
