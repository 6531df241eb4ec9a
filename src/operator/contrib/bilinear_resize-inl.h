/*!
 * \file bilinear_resize-inl.h
 * \brief _contrib_BilinearResize2D's parameters, shared by bilinear_resize.cc and .cu.
 */
#ifndef MXNET_OPERATOR_CONTRIB_BILINEAR_RESIZE_INL_H_
#define MXNET_OPERATOR_CONTRIB_BILINEAR_RESIZE_INL_H_

#include <dmlc/optional.h>
#include <dmlc/parameter.h>

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

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_BILINEAR_RESIZE_INL_H_
