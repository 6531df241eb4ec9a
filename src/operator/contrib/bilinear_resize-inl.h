/*!
 * \file bilinear_resize-inl.h
 * \brief _contrib_BilinearResize2D's parameters and kernels for every device (bilinear_resize.cc
 *        registers the op and describes the modes, bilinear_resize.cu the GPU kernels). Source
 *        coordinate of output row i: i * (H - 1) / (oh - 1) (align_corners) or
 *        max((i + 0.5) * H / oh - 0.5, 0); neighbours floor(src) and the next row (clamped).
 *        The forward is one thread per output element; the gradient one thread per input
 *        element, gathering from the output rows and columns whose taps reach it (found from
 *        the inverse of the source coordinate, then checked exactly), so no atomics.
 */
#ifndef MXNET_OPERATOR_CONTRIB_BILINEAR_RESIZE_INL_H_
#define MXNET_OPERATOR_CONTRIB_BILINEAR_RESIZE_INL_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <cmath>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

namespace bilinear_resize {
enum Mode { kSize, kOddScale, kLike, kToEvenDown, kToEvenUp, kToOddDown, kToOddUp };
}  // namespace bilinear_resize

struct BilinearResizeParam : public dmlc::Parameter<BilinearResizeParam> {
  int height;
  int width;
  dmlc::optional<float> scale_height;
  dmlc::optional<float> scale_width;
  int mode;
  bool align_corners;
  DMLC_DECLARE_PARAMETER(BilinearResizeParam) {
    DMLC_DECLARE_FIELD(height).set_default(1).set_lower_bound(1)
        .describe("output height (required, but ignored if scale_height is defined or mode is "
                  "not \"size\")");
    DMLC_DECLARE_FIELD(width).set_default(1).set_lower_bound(1)
        .describe("output width (required, but ignored if scale_width is defined or mode is not "
                  "\"size\")");
    DMLC_DECLARE_FIELD(scale_height).set_default(dmlc::optional<float>())
        .describe("sampling scale of the height (optional, used in modes \"scale\" and "
                  "\"odd_scale\")");
    DMLC_DECLARE_FIELD(scale_width).set_default(dmlc::optional<float>())
        .describe("sampling scale of the width (optional, used in modes \"scale\" and "
                  "\"odd_scale\")");
    DMLC_DECLARE_FIELD(mode)
        .add_enum("size", bilinear_resize::kSize)
        .add_enum("odd_scale", bilinear_resize::kOddScale)
        .add_enum("like", bilinear_resize::kLike)
        .add_enum("to_even_down", bilinear_resize::kToEvenDown)
        .add_enum("to_even_up", bilinear_resize::kToEvenUp)
        .add_enum("to_odd_down", bilinear_resize::kToOddDown)
        .add_enum("to_odd_up", bilinear_resize::kToOddUp)
        .set_default(bilinear_resize::kSize)
        .describe("resizing mode. \"simple\" - output height equals parameter \"height\" if "
                  "\"scale_height\" parameter is not defined or input height multiplied by "
                  "\"scale_height\" otherwise. Same for width;\"odd_scale\" - if original "
                  "height or width is odd, then result height is calculated like result_h = "
                  "(original_h - 1) * scale + 1; for scale > 1 the result shape would be like "
                  "if we did deconvolution with kernel = (1, 1) and stride = (height_scale, "
                  "width_scale); and for scale < 1 shape would be like we did convolution with "
                  "kernel = (1, 1) and stride = (int(1 / height_scale), int( 1/ width_scale);"
                  "\"like\" - resize first input to the height and width of second input; "
                  "\"to_even_down\" - resize input to nearest lower even height and width (if "
                  "original height is odd then result height = original height - 1);"
                  "\"to_even_up\" - resize input to nearest bigger even height and width (if "
                  "original height is odd then result height = original height + 1);"
                  "\"to_odd_down\" - resize input to nearest odd height and width (if original "
                  "height is odd then result height = original height - 1);\"to_odd_up\" - "
                  "resize input to nearest odd height and width (if original height is odd then "
                  "result height = original height + 1);");
    DMLC_DECLARE_FIELD(align_corners).set_default(true)
        .describe("With align_corners = True, the interpolating doesn't proportionally align "
                  "theoutput and input pixels, and thus the output values can depend on the "
                  "input size.");
  }
};

/*! \brief One axis resampled from `in` to `out` elements. */
struct ResizeAxis {
  index_t in, out;
  double scale;
  bool align;
};

inline ResizeAxis MakeResizeAxis(index_t in, index_t out, bool align) {
  ResizeAxis a{in, out, 0.0, align};
  if (align) {
    a.scale = out > 1 ? static_cast<double>(in - 1) / (out - 1) : 0.0;
  } else {
    a.scale = static_cast<double>(in) / out;
  }
  return a;
}

/*! \brief The taps of output index o: i0, i1 and the weight of i1. */
MSHADOW_XINLINE void AxisTap(const ResizeAxis& a, index_t o, index_t* i0, index_t* i1,
                             double* w1) {
  double src = a.align ? a.scale * o : a.scale * (o + 0.5) - 0.5;
  if (src < 0) src = 0;
  index_t lo = static_cast<index_t>(src);
  if (lo > a.in - 1) lo = a.in - 1;
  *i0 = lo;
  *i1 = lo < a.in - 1 ? lo + 1 : lo;
  *w1 = src - lo;
}

/*! \brief The weight input index r gets from output index o along this axis. */
MSHADOW_XINLINE double TapWeight(const ResizeAxis& a, index_t o, index_t r) {
  index_t i0, i1;
  double w1;
  AxisTap(a, o, &i0, &i1, &w1);
  return (i0 == r ? 1.0 - w1 : 0.0) + (i1 == r ? w1 : 0.0);
}

/*! \brief Output indices whose taps can reach input index r (a superset, checked after). */
MSHADOW_XINLINE void ReachingRange(const ResizeAxis& a, index_t r, index_t* lo, index_t* hi) {
  // src(o) lies in [r - 1, r + 1) when a tap of o is r (the clamps only map more o to 0 and in-1).
  double first, last;
  if (a.scale <= 0) {
    first = 0;
    last = a.out - 1;
  } else if (a.align) {
    first = (r - 1) / a.scale;
    last = (r + 1) / a.scale;
  } else {
    first = (r - 0.5) / a.scale - 0.5;
    last = (r + 1.5) / a.scale - 0.5;
  }
  index_t l = static_cast<index_t>(floor(first)) - 1, h = static_cast<index_t>(ceil(last)) + 1;
  if (r == 0) l = 0;                  // every clamped src < 0 reads row 0
  if (r >= a.in - 2) h = a.out - 1;   // and every src past in - 1 the last rows
  *lo = l < 0 ? 0 : l;
  *hi = h > a.out - 1 ? a.out - 1 : h;
}

struct resize_forward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, DType* y, const DType* x, ResizeAxis rows,
                                  ResizeAxis cols, int req) {
    const index_t j = e % cols.out, i = (e / cols.out) % rows.out;
    const index_t plane = e / (cols.out * rows.out);
    const DType* xp = x + plane * rows.in * cols.in;
    index_t r0, r1, c0, c1;
    double wr1, wc1;
    AxisTap(rows, i, &r0, &r1, &wr1);
    AxisTap(cols, j, &c0, &c1, &wc1);
    const double wr0 = 1.0 - wr1, wc0 = 1.0 - wc1;
    const index_t W = cols.in;
    const double v = wr0 * (wc0 * static_cast<double>(xp[r0 * W + c0]) +
                            wc1 * static_cast<double>(xp[r0 * W + c1])) +
                     wr1 * (wc0 * static_cast<double>(xp[r1 * W + c0]) +
                            wc1 * static_cast<double>(xp[r1 * W + c1]));
    KERNEL_ASSIGN(y[e], req, DType(v));
  }
};

struct resize_backward {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, DType* dx, const DType* og, ResizeAxis rows,
                                  ResizeAxis cols, int req) {
    const index_t k = e % cols.in, r = (e / cols.in) % rows.in;
    const index_t plane = e / (cols.in * rows.in);
    const DType* gp = og + plane * rows.out * cols.out;
    index_t i_lo, i_hi, j_lo, j_hi;
    ReachingRange(rows, r, &i_lo, &i_hi);
    ReachingRange(cols, k, &j_lo, &j_hi);
    double acc = 0;
    for (index_t i = i_lo; i <= i_hi; ++i) {
      const double wr = TapWeight(rows, i, r);
      if (wr == 0) continue;
      for (index_t j = j_lo; j <= j_hi; ++j) {
        const double wc = TapWeight(cols, j, k);
        if (wc != 0) acc += static_cast<double>(gp[i * cols.out + j]) * wr * wc;
      }
    }
    KERNEL_ASSIGN(dx[e], req, DType(acc));
  }
};

inline bool ResizeAlignCorners(const nnvm::NodeAttrs& attrs) {
  return nnvm::get<BilinearResizeParam>(attrs.parsed).align_corners;
}

template <typename xpu>
void BilinearResizeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                              const std::vector<TBlob>& inputs,
                              const std::vector<OpReqType>& req,
                              const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp || outputs[0].Size() == 0 || inputs[0].Size() == 0) return;
  const bool align = ResizeAlignCorners(attrs);
  const ResizeAxis rows = MakeResizeAxis(inputs[0].shape_[2], outputs[0].shape_[2], align);
  const ResizeAxis cols = MakeResizeAxis(inputs[0].shape_[3], outputs[0].shape_[3], align);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<resize_forward, xpu>::Launch(ctx.get_stream<xpu>(), outputs[0].Size(),
                                        outputs[0].dptr<DType>(), inputs[0].dptr<DType>(), rows,
                                        cols, static_cast<int>(req[0]));
  });
}

/*! \brief inputs: out_grad, data[, like]; outputs: data_grad[, like_grad (zeros)]. */
template <typename xpu>
void BilinearResizeGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                                  const std::vector<TBlob>& inputs,
                                  const std::vector<OpReqType>& req,
                                  const std::vector<TBlob>& outputs) {
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  if (outputs.size() > 1 && (req[1] == kWriteTo || req[1] == kWriteInplace)) {
    MSHADOW_TYPE_SWITCH(outputs[1].type_flag_, LType, {
      mxnet_op::Kernel<mxnet_op::set_zero, xpu>::Launch(s, outputs[1].Size(),
                                                        outputs[1].dptr<LType>());
    });
  }
  if (req[0] == kNullOp || outputs[0].Size() == 0) return;
  const bool align = ResizeAlignCorners(attrs);
  const ResizeAxis rows = MakeResizeAxis(outputs[0].shape_[2], inputs[0].shape_[2], align);
  const ResizeAxis cols = MakeResizeAxis(outputs[0].shape_[3], inputs[0].shape_[3], align);
  MSHADOW_REAL_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    mxnet_op::Kernel<resize_backward, xpu>::Launch(s, outputs[0].Size(), outputs[0].dptr<DType>(),
                                         inputs[0].dptr<DType>(), rows, cols,
                                         static_cast<int>(req[0]));
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_BILINEAR_RESIZE_INL_H_
