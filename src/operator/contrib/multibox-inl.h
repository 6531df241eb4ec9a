/*!
 * \file multibox-inl.h
 * \brief Parameters of the SSD operators in multibox.cc: _contrib_MultiBoxPrior (anchor
 *        generation), _contrib_MultiBoxTarget (anchor/ground-truth matching into training
 *        targets) and _contrib_MultiBoxDetection (decoding + per-class NMS). Anchors are corner
 *        boxes in [0, 1] image coordinates, shape (1, num_anchors, 4).
 */
#ifndef MXNET_OPERATOR_CONTRIB_MULTIBOX_INL_H_
#define MXNET_OPERATOR_CONTRIB_MULTIBOX_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>
#include <mxnet/tuple.h>

#include "../operator_common.h"

namespace mxnet {
namespace op {

struct MultiBoxPriorParam : public dmlc::Parameter<MultiBoxPriorParam> {
  mxnet::Tuple<float> sizes;
  mxnet::Tuple<float> ratios;
  bool clip;
  mxnet::Tuple<float> steps;
  mxnet::Tuple<float> offsets;
  DMLC_DECLARE_PARAMETER(MultiBoxPriorParam) {
    DMLC_DECLARE_FIELD(sizes).set_default(mxnet::Tuple<float>({1.0f}))
        .describe("List of sizes of generated MultiBoxPriores.");
    DMLC_DECLARE_FIELD(ratios).set_default(mxnet::Tuple<float>({1.0f}))
        .describe("List of aspect ratios of generated MultiBoxPriores.");
    DMLC_DECLARE_FIELD(clip).set_default(false)
        .describe("Whether to clip out-of-boundary boxes.");
    DMLC_DECLARE_FIELD(steps).set_default(mxnet::Tuple<float>({-1.f, -1.f}))
        .describe("Priorbox step across y and x, -1 for auto calculation.");
    DMLC_DECLARE_FIELD(offsets).set_default(mxnet::Tuple<float>({0.5f, 0.5f}))
        .describe("Priorbox center offsets, y and x respectively");
  }
};

struct MultiBoxTargetParam : public dmlc::Parameter<MultiBoxTargetParam> {
  float overlap_threshold;
  float ignore_label;
  float negative_mining_ratio;
  float negative_mining_thresh;
  int minimum_negative_samples;
  mxnet::Tuple<float> variances;
  DMLC_DECLARE_PARAMETER(MultiBoxTargetParam) {
    DMLC_DECLARE_FIELD(overlap_threshold).set_default(0.5f)
        .describe("Anchor-GT overlap threshold to be regarded as a positive match.");
    DMLC_DECLARE_FIELD(ignore_label).set_default(-1.0f)
        .describe("Label for ignored anchors.");
    DMLC_DECLARE_FIELD(negative_mining_ratio).set_default(-1.0f)
        .describe("Max negative to positive samples ratio, use -1 to disable mining");
    DMLC_DECLARE_FIELD(negative_mining_thresh).set_default(0.5f)
        .describe("Threshold used for negative mining.");
    DMLC_DECLARE_FIELD(minimum_negative_samples).set_default(0)
        .describe("Minimum number of negative samples.");
    DMLC_DECLARE_FIELD(variances).set_default(mxnet::Tuple<float>({0.1f, 0.1f, 0.2f, 0.2f}))
        .describe("Variances to be encoded in box regression target.");
  }
};

struct MultiBoxDetectionParam : public dmlc::Parameter<MultiBoxDetectionParam> {
  bool clip;
  float threshold;
  int background_id;
  float nms_threshold;
  bool force_suppress;
  mxnet::Tuple<float> variances;
  int nms_topk;
  DMLC_DECLARE_PARAMETER(MultiBoxDetectionParam) {
    DMLC_DECLARE_FIELD(clip).set_default(true)
        .describe("Clip out-of-boundary boxes.");
    DMLC_DECLARE_FIELD(threshold).set_default(0.01f)
        .describe("Threshold to be a positive prediction.");
    DMLC_DECLARE_FIELD(background_id).set_default(0)
        .describe("Background id.");
    DMLC_DECLARE_FIELD(nms_threshold).set_default(0.5f)
        .describe("Non-maximum suppression threshold.");
    DMLC_DECLARE_FIELD(force_suppress).set_default(false)
        .describe("Suppress all detections regardless of class_id.");
    DMLC_DECLARE_FIELD(variances).set_default(mxnet::Tuple<float>({0.1f, 0.1f, 0.2f, 0.2f}))
        .describe("Variances to be decoded from box regression output.");
    DMLC_DECLARE_FIELD(nms_topk).set_default(-1)
        .describe("Keep maximum top k detections before nms, -1 for no limit.");
  }
};

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_MULTIBOX_INL_H_
