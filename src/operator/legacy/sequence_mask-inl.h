/*!
 * \file sequence_mask-inl.h
 * \brief SequenceMask, written with the legacy Operator/OperatorProperty interface: sets the
 *        steps of each sequence beyond its length to `value`. Data is (max_len, batch, ...)
 *        for axis=0 or (batch, max_len, ...) for axis=1; sequence_length is (batch,).
 *        Backward passes the output gradient through where the data was kept and writes 0
 *        where it was masked; it reads only out_grad and sequence_length (not the data).
 */
#ifndef MXNET_OPERATOR_LEGACY_SEQUENCE_MASK_INL_H_
#define MXNET_OPERATOR_LEGACY_SEQUENCE_MASK_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/operator.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

namespace seq_mask {
enum SequenceMaskOpInputs { kData, kSequenceLength };
enum SequenceMaskOpOutputs { kOut };
}  // namespace seq_mask

struct SequenceMaskParam : public dmlc::Parameter<SequenceMaskParam> {
  bool use_sequence_length;
  float value;
  int axis;
  DMLC_DECLARE_PARAMETER(SequenceMaskParam) {
    DMLC_DECLARE_FIELD(use_sequence_length).set_default(false)
    .describe("If set to true, this layer takes in an extra input parameter "
              "`sequence_length` to specify variable length sequence");
    DMLC_DECLARE_FIELD(value).set_default(0.)
    .describe("The value to be used as a mask.");
    DMLC_DECLARE_FIELD(axis).set_default(0)
    .describe("The sequence axis. Only values of 0 and 1 are currently supported.");
  }
};

/*!
 * \brief Element i of the (max_len, batch, inner) or (batch, max_len, inner) data: `value`
 *        when its step is at or beyond its sequence's length, else the source element (not
 *        rewritten in place). Lengths are read as the CPU always did: truncated to integers.
 */
struct sequence_mask_kernel {
  template <typename DType, typename IType>
  MSHADOW_XINLINE static void Map(index_t i, DType* dst, const DType* src, const IType* lengths,
                                  index_t max_len, index_t batch, index_t inner, int axis,
                                  int req, DType value) {
    const index_t q = i / inner;
    const index_t t = axis == 0 ? q / batch : q % max_len;
    const index_t b = axis == 0 ? q % batch : q / max_len;
    const bool masked = lengths != nullptr && t >= static_cast<index_t>(lengths[b]);
    if (req == kWriteInplace && !masked) return;  // already there
    KERNEL_ASSIGN(dst[i], req, masked ? value : src[i]);
  }
};

template <typename xpu>
class SequenceMaskOp : public Operator {
 public:
  explicit SequenceMaskOp(SequenceMaskParam p) : param_(p) {}

  void Forward(const OpContext& ctx, const std::vector<TBlob>& in_data,
               const std::vector<OpReqType>& req, const std::vector<TBlob>& out_data,
               const std::vector<TBlob>& aux_states) override {
    Run(ctx.get_stream<xpu>(), in_data[seq_mask::kData], in_data, req[seq_mask::kOut],
        out_data[seq_mask::kOut], static_cast<double>(param_.value));
  }

  void Backward(const OpContext& ctx, const std::vector<TBlob>& out_grad,
                const std::vector<TBlob>& in_data, const std::vector<TBlob>& out_data,
                const std::vector<OpReqType>& req, const std::vector<TBlob>& in_grad,
                const std::vector<TBlob>& aux_states) override {
    // in_data[kData] is not a declared dependency: it is an empty blob here.
    Run(ctx.get_stream<xpu>(), out_grad[seq_mask::kOut], in_data, req[seq_mask::kData],
        in_grad[seq_mask::kData], 0.0);
    if (param_.use_sequence_length && req.size() > 1 && req[seq_mask::kSequenceLength] != kNullOp &&
        req[seq_mask::kSequenceLength] != kAddTo) {
      const TBlob& g = in_grad[seq_mask::kSequenceLength];
      MSHADOW_TYPE_SWITCH(g.type_flag_, GType, {
        mxnet_op::Kernel<mxnet_op::set_zero, xpu>::Launch(ctx.get_stream<xpu>(), g.Size(),
                                                          g.dptr<GType>());
      });
    }
  }

 private:
  void Run(mshadow::Stream<xpu>* s, const TBlob& src, const std::vector<TBlob>& in_data,
           OpReqType req, const TBlob& dst, double value) {
    if (req == kNullOp) return;
    const TShape& shape = src.shape_;
    const index_t max_len = shape[param_.axis];
    const index_t batch = shape[1 - param_.axis];
    if (shape.Size() == 0) return;  // zero-size data: nothing to mask (and no inner size)
    const index_t inner = static_cast<index_t>(shape.Size()) / (max_len * batch);
    if (req == kWriteTo && src.dptr_ == dst.dptr_) req = kWriteInplace;
    MSHADOW_TYPE_SWITCH(dst.type_flag_, DType, {
      if (param_.use_sequence_length) {
        const TBlob& len = in_data[seq_mask::kSequenceLength];
        MSHADOW_TYPE_SWITCH(len.type_flag_, IType, {
          mxnet_op::Kernel<sequence_mask_kernel, xpu>::Launch(
              s, shape.Size(), dst.dptr<DType>(), src.dptr<DType>(), len.dptr<IType>(), max_len,
              batch, inner, param_.axis, static_cast<int>(req), DType(value));
        });
      } else {
        mxnet_op::Kernel<sequence_mask_kernel, xpu>::Launch(
            s, shape.Size(), dst.dptr<DType>(), src.dptr<DType>(),
            static_cast<const int*>(nullptr), max_len, batch, inner, param_.axis,
            static_cast<int>(req), DType(value));
      }
    });
  }
  SequenceMaskParam param_;
};

class SequenceMaskProp : public OperatorProperty {
 public:
  void Init(const std::vector<std::pair<std::string, std::string>>& kwargs) override {
    param_.Init(kwargs);
    if (param_.axis != 0 && param_.axis != 1) {
      MX_THROW(dmlc::ParamError) << "SequenceMask: axis must be 0 or 1, got " << param_.axis;
    }
  }
  std::map<std::string, std::string> GetParams() const override { return param_.__DICT__(); }

  std::vector<std::string> ListArguments() const override {
    if (param_.use_sequence_length) return {"data", "sequence_length"};
    return {"data"};
  }

  bool InferShape(mxnet::ShapeVector* in_shape, mxnet::ShapeVector* out_shape,
                  mxnet::ShapeVector* aux_shape) const override {
    // Mutual inference: the output has the data's shape.
    if (!out_shape->empty()) SHAPE_ASSIGN_CHECK(*in_shape, seq_mask::kData, (*out_shape)[seq_mask::kOut]);
    const TShape dshape = in_shape->at(seq_mask::kData);
    if (!ndim_is_known(dshape)) return false;
    if (dshape.ndim() < 2) {
      MX_THROW(ValueError) << "SequenceMask: data must have at least 2 dimensions, got " << dshape;
    }
    if (param_.use_sequence_length) {
      SHAPE_ASSIGN_CHECK(*in_shape, seq_mask::kSequenceLength, TShape({dshape[1 - param_.axis]}));
    }
    SHAPE_ASSIGN_CHECK(*out_shape, seq_mask::kOut, dshape);
    return shape_is_known(dshape);
  }

  bool InferType(std::vector<int>* in_type, std::vector<int>* out_type,
                 std::vector<int>* aux_type) const override {
    if (!out_type->empty()) TYPE_ASSIGN_CHECK(*in_type, seq_mask::kData, (*out_type)[seq_mask::kOut]);
    const int dtype = in_type->at(seq_mask::kData);
    if (dtype == -1) return false;
    // sequence_length keeps its own dtype (lengths are often integers).
    if (param_.use_sequence_length && (*in_type)[seq_mask::kSequenceLength] == -1) {
      (*in_type)[seq_mask::kSequenceLength] = dtype;
    }
    TYPE_ASSIGN_CHECK(*out_type, seq_mask::kOut, dtype);
    return true;
  }

  OperatorProperty* Copy() const override {
    auto* p = new SequenceMaskProp();
    p->param_ = this->param_;
    return p;
  }
  std::string TypeString() const override { return "SequenceMask"; }

  std::vector<int> DeclareBackwardDependency(const std::vector<int>& out_grad,
                                             const std::vector<int>& in_data,
                                             const std::vector<int>& out_data) const override {
    if (param_.use_sequence_length) return {out_grad[seq_mask::kOut], in_data[seq_mask::kSequenceLength]};
    return {out_grad[seq_mask::kOut]};
  }
  std::vector<std::pair<int, void*>> ForwardInplaceOption(
      const std::vector<int>& in_data, const std::vector<void*>& out_data) const override {
    return {{in_data[seq_mask::kData], out_data[seq_mask::kOut]}};
  }
  std::vector<std::pair<int, void*>> BackwardInplaceOption(
      const std::vector<int>& out_grad, const std::vector<int>& in_data,
      const std::vector<int>& out_data, const std::vector<void*>& in_grad) const override {
    return {{out_grad[seq_mask::kOut], in_grad[seq_mask::kData]}};
  }
  Operator* CreateOperator(Context ctx) const override;

 private:
  SequenceMaskParam param_;
};

/*! \brief The GPU operator (sequence_mask.cu; CUDA builds only). */
Operator* CreateSequenceMaskGPU(const SequenceMaskParam& param);

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_LEGACY_SEQUENCE_MASK_INL_H_
