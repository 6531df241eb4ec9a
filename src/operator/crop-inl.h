/*!
 * \file crop-inl.h
 * \brief Crop's parameters, window and kernels for both devices: the (h, w) window of the
 *        (N, C, H, W) data is a strided view of it, gathered forward and scattered backward.
 */
#ifndef MXNET_OPERATOR_CROP_INL_H_
#define MXNET_OPERATOR_CROP_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <utility>
#include <vector>

#include "./operator_common.h"
#include "./tensor/matrix_op-inl.h"

namespace mxnet {
namespace op {

struct CropParam : public dmlc::Parameter<CropParam> {
  int num_args;
  mxnet::TShape offset;
  mxnet::TShape h_w;
  bool center_crop;
  DMLC_DECLARE_PARAMETER(CropParam) {
    DMLC_DECLARE_FIELD(num_args).set_range(1, 3)
        .describe("Number of inputs for crop, if equals one, then we will use the h_w for crop "
                  "height and width, else if equals two, then we will use the height and width "
                  "of the second input symbol, we name crop_like here");
    DMLC_DECLARE_FIELD(offset).set_default(mxnet::TShape({0, 0}))
        .describe("crop offset coordinate: (y, x)");
    DMLC_DECLARE_FIELD(h_w).set_default(mxnet::TShape({0, 0}))
        .describe("crop height and width: (h, w)");
    DMLC_DECLARE_FIELD(center_crop).set_default(false)
        .describe("If set to true, then it will use be the center_crop,or it will crop using the "
                  "shape of crop_like");
  }
};


/*! \brief (y, x) of the crop window's corner; validates the window against data. */
inline std::pair<dim_t, dim_t> CropCorner(const CropParam& p, const mxnet::TShape& d, dim_t h,
                                   dim_t w) {
  if (h > d[2] || w > d[3] || h <= 0 || w <= 0) {
    MX_THROW(ValueError) << "Crop: crop size (" << h << ", " << w
                         << ") must be positive and fit in data of shape " << d;
  }
  if (p.center_crop) return {(d[2] - h) / 2, (d[3] - w) / 2};
  if (p.offset.ndim() != 2) {
    MX_THROW(ValueError) << "Crop: offset must be (y, x), got " << p.offset;
  }
  const dim_t y = p.offset[0], x = p.offset[1];
  if (y < 0 || x < 0 || y + h > d[2] || x + w > d[3]) {
    MX_THROW(ValueError) << "Crop: offset (" << y << ", " << x << ") with crop size (" << h
                         << ", " << w << ") exceeds data of shape " << d;
  }
  return {y, x};
}

/*! \brief The crop window of `big` (N, C, H, W) as a view of shape (N * C, h, w). */
inline StridedView CropWindow(const CropParam& p, const mxnet::TShape& d, dim_t h, dim_t w) {
  const auto corner = CropCorner(p, d, h, w);
  StridedView v;
  v.Add(d[0] * d[1], d[2] * d[3]);
  v.Add(h, d[3]);
  v.Add(w, 1);
  v.offset = corner.first * d[3] + corner.second;
  return v;
}

template <typename xpu>
void CropCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                 const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                 const std::vector<TBlob>& outputs) {
  if (req[0] == kNullOp) return;
  const CropParam& p = nnvm::get<CropParam>(attrs.parsed);
  const TBlob& out = outputs[0];
  const StridedView v = CropWindow(p, inputs[0].shape_, out.shape_[2], out.shape_[3]);
  MSHADOW_TYPE_SWITCH(inputs[0].type_flag_, DType, {
    StridedGatherPlanned(ctx.get_stream<xpu>(), v, inputs[0].dptr<DType>(), out.dptr<DType>(),
                         req[0]);
  });
}

/*! \brief data_grad: out_grad placed at the window, zero elsewhere; crop_like_grad: 0. */
template <typename xpu>
void CropGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                     const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                     const std::vector<TBlob>& outputs) {
  const CropParam& p = nnvm::get<CropParam>(attrs.parsed);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (req[i] == kWriteTo || req[i] == kWriteInplace) ZeroBlob(s, outputs[i]);
  }
  if (req[0] == kNullOp) return;
  const TBlob& ograd = inputs[0];
  const StridedView v = CropWindow(p, outputs[0].shape_, ograd.shape_[2], ograd.shape_[3]);
  MSHADOW_TYPE_SWITCH(ograd.type_flag_, DType, {
    StridedScatterPlanned(s, v, ograd.dptr<DType>(), outputs[0].dptr<DType>(),
                          req[0] == kAddTo ? kAddTo : kWriteTo);
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CROP_INL_H_
