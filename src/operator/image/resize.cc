/*!
 * \file resize.cc
 * \brief _image_resize: resizes (H, W, C) images or (N, H, W, C) batches with the sampling
 *        conventions of OpenCV's cv::resize, which MXNet 1.9.1 calls:
 *
 *   nearest (interp=0): source index floor(d * in / out), clamped to in - 1.
 *   bilinear (interp=1): source coordinate (d + 0.5) * in / out - 0.5 (float), neighbours
 *     floor and floor + 1 clamped to the image. uint8 uses OpenCV's fixed-point weights
 *     (11 fractional bits per axis) and its vector kernel's rounding (bit for bit); an exact
 *     2x downscale of both axes averages 2x2 blocks (OpenCV switches to INTER_AREA there).
 *   bicubic (interp=2, A = -0.75) and Lanczos (interp=4, 8 taps): same source coordinate, taps
 *     clamped to the image. area (interp=3): pixel-area means when shrinking both axes,
 *     bilinear with area-derived weights otherwise.
 *   size: (width, height), or one number: both sides, or the short side when keep_ratio
 *     (the long side scaled by integer arithmetic long * size / short).
 *
 * The kernels are in resize-inl.h (shared with resize.cu); _cvimresize and the data
 * iterators' ResizeUint8Image run the same kernels on the CPU.
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "../elemwise_op_common.h"
#include "../host_fallback.h"
#include "../operator_common.h"
#include "./image_ops-inl.h"
#include "./resize-inl.h"
#include "../../common/image_resize.h"

namespace mxnet {
namespace op {
namespace image {

DMLC_REGISTER_PARAMETER(ResizeParam);

namespace {

/*! \brief (height, width) of the output for an input of height h and width w. */
void OutputSize(const ResizeParam& p, dim_t h, dim_t w, dim_t* oh, dim_t* ow) {
  if (p.size.ndim() == 2) {
    *ow = p.size[0];
    *oh = p.size[1];
  } else if (p.keep_ratio) {
    const dim_t s = p.size[0];
    if (h > w) {
      *ow = s;
      *oh = h * s / w;
    } else {
      *oh = s;
      *ow = w * s / h;
    }
  } else {
    *oh = *ow = p.size[0];
  }
}

bool ResizeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const ResizeParam& p = nnvm::get<ResizeParam>(attrs.parsed);
  const mxnet::TShape& s = (*in)[0];
  if (!ndim_is_known(s)) return false;
  CheckImageOrBatch("_image_resize", s);
  if (p.size.ndim() != 1 && p.size.ndim() != 2) {
    MX_THROW(dmlc::ValueError) << "_image_resize: size must have 1 or 2 elements (size) or "
                               << "(width, height), but got " << p.size;
  }
  for (int v : p.size) {
    if (v <= 0) {
      MX_THROW(dmlc::ValueError) << "_image_resize: size must be positive, but got " << p.size;
    }
  }
  if (p.interp < 0 || p.interp > 4) {
    MX_THROW(dmlc::ValueError) << "_image_resize: interp must be 0 (nearest), 1 (bilinear), "
                               << "2 (bicubic), 3 (area) or 4 (Lanczos), got " << p.interp;
  }
  const int hd = s.ndim() - 3;
  if (!shape_is_known(s)) return false;
  dim_t oh, ow;
  OutputSize(p, s[hd], s[hd + 1], &oh, &ow);
  if (oh <= 0 || ow <= 0) {
    MX_THROW(dmlc::ValueError) << "_image_resize: output size (" << oh << ", " << ow
                               << ") must be positive (input shape " << s << ", size "
                               << p.size << ")";
  }
  mxnet::TShape o = s;
  o[hd] = oh;
  o[hd + 1] = ow;
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  return true;
}

bool ResizeType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int t = (*in)[0];
  if (t == -1) return false;
  if (t != mshadow::kUint8 && t != mshadow::kFloat32 && t != mshadow::kFloat64) {
    MX_THROW(dmlc::TypeError) << "_image_resize: input dtype must be uint8, float32 or float64, "
                              << "but got " << mshadow::dtype_string(t);
  }
  TYPE_ASSIGN_CHECK(*out, 0, t);
  return true;
}

// ---- _cvimresize: MXNet 1.9.1's OpenCV resize of one (H, W, C) image to (h, w) ----------------

struct CvResizeParam : public dmlc::Parameter<CvResizeParam> {
  int w;
  int h;
  int interp;
  DMLC_DECLARE_PARAMETER(CvResizeParam) {
    DMLC_DECLARE_FIELD(w).set_lower_bound(1).describe("Width of resized image.");
    DMLC_DECLARE_FIELD(h).set_lower_bound(1).describe("Height of resized image.");
    DMLC_DECLARE_FIELD(interp).set_default(1)
        .describe("Interpolation method (default=cv2.INTER_LINEAR).");
  }
};

}  // namespace

DMLC_REGISTER_PARAMETER(CvResizeParam);

namespace {

bool CvResizeShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                   mxnet::ShapeVector* out) {
  const CvResizeParam& p = nnvm::get<CvResizeParam>(attrs.parsed);
  const mxnet::TShape& s = (*in)[0];
  if (!ndim_is_known(s)) return false;
  if (s.ndim() != 3) {
    MX_THROW(dmlc::ValueError) << "_cvimresize: src must be an image of shape (height, width, "
                               << "channels), but got " << s;
  }
  if (p.interp < 0 || p.interp > 4) {
    MX_THROW(dmlc::ValueError) << "_cvimresize: interp must be 0 (nearest), 1 (bilinear), "
                               << "2 (bicubic), 3 (area) or 4 (Lanczos), got " << p.interp;
  }
  if (!shape_is_known(s)) return false;
  if (s[0] == 0 || s[1] == 0) {
    MX_THROW(dmlc::ValueError) << "_cvimresize: cannot resize an empty image " << s;
  }
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({p.h, p.w, s[2]}));
  return true;
}

bool CvResizeType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  const int t = (*in)[0];
  if (t == -1) return false;
  if (t != mshadow::kUint8 && t != mshadow::kFloat32 && t != mshadow::kFloat64) {
    MX_THROW(dmlc::TypeError) << "_cvimresize: src dtype must be uint8, float32 or float64, "
                              << "but got " << mshadow::dtype_string(t);
  }
  TYPE_ASSIGN_CHECK(*out, 0, t);
  return true;
}

void CvResizeCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  if (req[0] == kAddTo) MX_THROW(dmlc::ValueError) << "_cvimresize: req='add' is not supported";
  ResizeRun<cpu>(ctx.get_stream<cpu>(), "_cvimresize", inputs[0], outputs[0],
                 nnvm::get<CvResizeParam>(attrs.parsed).interp);
}

}  // namespace

NNVM_REGISTER_OP(_image_resize)
.describe(R"code(Resizes an image (H x W x C) or a batch (N x H x W x C) to the given size
(width, height), or to (size, size), or with keep_ratio to a short side of size. Nearest
(interp=0) and bilinear (interp=1) sampling follow OpenCV's cv::resize.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<ResizeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", ResizeShape)
.set_attr<nnvm::FInferType>("FInferType", ResizeType)
.set_attr<FCompute>("FCompute<cpu>", ResizeCompute<cpu>)
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("data", "NDArray-or-Symbol", "The input.")
.add_arguments(ResizeParam::__FIELDS__());

}  // namespace image
}  // namespace op
}  // namespace mxnet

namespace mxnet {
namespace op {
namespace image {

NNVM_REGISTER_OP(_cvimresize)
.describe(R"code(Resize image with OpenCV.

Resizes an (height, width, channels) image to (h, w, channels) with OpenCV's cv::resize
conventions; interp: 0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 Lanczos.
)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<CvResizeParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs&) {
  return std::vector<std::string>{"src"};
})
.set_attr<mxnet::FInferShape>("FInferShape", CvResizeShape)
.set_attr<nnvm::FInferType>("FInferType", CvResizeType)
.set_attr<FCompute>("FCompute<cpu>", CvResizeCompute)
#if MXNET_USE_CUDA  // host path: _cvimresize belongs to the host-side decoding pipeline
.set_attr<FCompute>("FCompute<gpu>", RunOnHostForGPU(CvResizeCompute))
#endif
.set_attr<bool>("TNonDifferentiable", true)
.add_argument("src", "NDArray", "source image")
.add_arguments(CvResizeParam::__FIELDS__());

}  // namespace image
}  // namespace op
}  // namespace mxnet

void mxnet::image_resize::ResizeUint8Image(const uint8_t* x, uint8_t* y, int64_t h, int64_t w,
                                           int64_t c, int64_t oh, int64_t ow, int interp) {
  mxnet::op::image::resize::ResizeLaunch<mshadow::cpu, uint8_t>(nullptr, x, y, 1, h, w, c, oh,
                                                                 ow, interp);
}
