/*!
 * \file roi_pooling-inl.h
 * \brief Region-of-interest feature pooling (roi_pooling.cc): ROIPooling (max over integer bins,
 *        Fast R-CNN), _contrib_ROIAlign (average of bilinear samples, Mask R-CNN) and
 *        _contrib_PSROIPooling (position-sensitive average, R-FCN). data is (N, C, H, W), rois is
 *        (R, 5) rows of [batch_index, x1, y1, x2, y2] in input-image coordinates that
 *        spatial_scale maps onto the feature map. A roi whose batch index is outside [0, N)
 *        pools to zeros (and takes no gradient). The rois get zero gradient, as in MXNet 1.9.1.
 */
#ifndef MXNET_OPERATOR_CONTRIB_ROI_POOLING_INL_H_
#define MXNET_OPERATOR_CONTRIB_ROI_POOLING_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../operator_common.h"

namespace mxnet {
namespace op {

struct ROIPoolingParam : public dmlc::Parameter<ROIPoolingParam> {
  mxnet::TShape pooled_size;
  float spatial_scale;
  DMLC_DECLARE_PARAMETER(ROIPoolingParam) {
    DMLC_DECLARE_FIELD(pooled_size)
        .describe("ROI pooling output shape (h,w) ");
    DMLC_DECLARE_FIELD(spatial_scale)
        .describe("Ratio of input feature map height (or w) to raw image height (or w). "
                  "Equals the reciprocal of total stride in convolutional layers");
  }
};

struct ROIAlignParam : public dmlc::Parameter<ROIAlignParam> {
  mxnet::TShape pooled_size;
  float spatial_scale;
  int sample_ratio;
  bool position_sensitive;
  bool aligned;
  DMLC_DECLARE_PARAMETER(ROIAlignParam) {
    DMLC_DECLARE_FIELD(pooled_size)
        .describe("ROI Align output roi feature map height and width: (h, w)");
    DMLC_DECLARE_FIELD(spatial_scale)
        .describe("Ratio of input feature map height (or w) to raw image height (or w). "
                  "Equals the reciprocal of total stride in convolutional layers");
    DMLC_DECLARE_FIELD(sample_ratio).set_default(-1)
        .describe("Optional sampling ratio of ROI align, using adaptive size by default.");
    DMLC_DECLARE_FIELD(position_sensitive).set_default(false)
        .describe("Whether to perform position-sensitive RoI pooling. PSRoIPooling is first "
                  "proposaled by R-FCN and it can reduce the input channels by ph*pw times, "
                  "where (ph, pw) is the pooled_size");
    DMLC_DECLARE_FIELD(aligned).set_default(false)
        .describe("Center-aligned ROIAlign introduced in Detectron2. To enable, set aligned "
                  "to True.");
  }
};

struct PSROIPoolingParam : public dmlc::Parameter<PSROIPoolingParam> {
  float spatial_scale;
  int output_dim;
  int pooled_size;
  int group_size;
  DMLC_DECLARE_PARAMETER(PSROIPoolingParam) {
    DMLC_DECLARE_FIELD(spatial_scale)
        .describe("Ratio of input feature map height (or w) to raw image height (or w). "
                  "Equals the reciprocal of total stride in convolutional layers");
    DMLC_DECLARE_FIELD(output_dim).describe("fix output dim");
    DMLC_DECLARE_FIELD(pooled_size).describe("fix pooled size");
    DMLC_DECLARE_FIELD(group_size).set_default(0)
        .describe("fix group size");
  }
};

/*!
 * \brief Checks data (N, C, H, W), rois (R, 5) and a 2-d positive pooled_size for `op`; returns
 *        false while a shape is still unknown.
 */
inline bool CheckROIInputs(const char* op, const mxnet::TShape& data, const mxnet::TShape& rois,
                           const mxnet::TShape& pooled) {
  if (pooled.ndim() != 2 || pooled[0] <= 0 || pooled[1] <= 0) {
    MX_THROW(ValueError) << op << ": pooled_size must be two positive integers (h, w), got "
                         << pooled;
  }
  if (!shape_is_known(data) || !shape_is_known(rois)) return false;
  if (data.ndim() != 4) {
    MX_THROW(ValueError) << op << ": data must be 4-d (batch, channel, height, width), got "
                         << data;
  }
  if (rois.ndim() != 2 || rois[1] != 5) {
    MX_THROW(ValueError) << op << ": rois must be 2-d (num_rois, 5) with rows "
                         << "[batch_index, x1, y1, x2, y2], got " << rois;
  }
  return true;
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_ROI_POOLING_INL_H_
