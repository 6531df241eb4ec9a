/*!
 * \file im2col.cc
 * \brief im2col / col2im: sliding blocks of (N, C, spatial...) (1 to 3 spatial axes) as the
 *        columns of (N, C * prod(kernel), L), L = number of block positions; row
 *        c * prod(kernel) + (kernel offset, row-major) and column = block position (row-major).
 *        Block position o of an axis reads input index o * stride - pad + k * dilate (zero
 *        outside). col2im is the adjoint: it sums every column entry back into the image.
 *        Each is the other's backward (_backward_im2col, _backward_col2im).
 */
#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <string>
#include <vector>

#include "../elemwise_op_common.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct Im2colParam : public dmlc::Parameter<Im2colParam> {
  mxnet::TShape kernel;
  mxnet::TShape stride;
  mxnet::TShape dilate;
  mxnet::TShape pad;
  DMLC_DECLARE_PARAMETER(Im2colParam) {
    DMLC_DECLARE_FIELD(kernel).describe("Sliding kernel size: (w,), (h, w) or (d, h, w).");
    DMLC_DECLARE_FIELD(stride).set_default(mxnet::TShape(0, 0))
        .describe("The stride between adjacent sliding blocks in spatial dimension: (w,), (h, "
                  "w) or (d, h, w). Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(dilate).set_default(mxnet::TShape(0, 0))
        .describe("The spacing between adjacent kernel points: (w,), (h, w) or (d, h, w). "
                  "Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(pad).set_default(mxnet::TShape(0, 0))
        .describe("The zero-value padding size on both sides of spatial dimension: (w,), (h, "
                  "w) or (d, h, w). Defaults to no padding.");
  }
};

struct Col2imParam : public dmlc::Parameter<Col2imParam> {
  mxnet::TShape output_size;
  mxnet::TShape kernel;
  mxnet::TShape stride;
  mxnet::TShape dilate;
  mxnet::TShape pad;
  DMLC_DECLARE_PARAMETER(Col2imParam) {
    DMLC_DECLARE_FIELD(output_size)
        .describe("The spatial dimension of image array: (w,), (h, w) or (d, h, w).");
    DMLC_DECLARE_FIELD(kernel).describe("Sliding kernel size: (w,), (h, w) or (d, h, w).");
    DMLC_DECLARE_FIELD(stride).set_default(mxnet::TShape(0, 0))
        .describe("The stride between adjacent sliding blocks in spatial dimension: (w,), (h, "
                  "w) or (d, h, w). Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(dilate).set_default(mxnet::TShape(0, 0))
        .describe("The spacing between adjacent kernel points: (w,), (h, w) or (d, h, w). "
                  "Defaults to 1 for each dimension.");
    DMLC_DECLARE_FIELD(pad).set_default(mxnet::TShape(0, 0))
        .describe("The zero-value padding size on both sides of spatial dimension: (w,), (h, "
                  "w) or (d, h, w). Defaults to no padding.");
  }
};

DMLC_REGISTER_PARAMETER(Im2colParam);
DMLC_REGISTER_PARAMETER(Col2imParam);

namespace {

/*! \brief The sliding-block geometry: spatial sizes, kernel, stride, dilate, pad, blocks. */
struct BlockGeometry {
  std::vector<dim_t> in, kernel, stride, dilate, pad, out;
  dim_t kernel_size = 1, blocks = 1;
};

BlockGeometry MakeGeometry(const char* op, const mxnet::TShape& spatial,
                           const mxnet::TShape& kernel, const mxnet::TShape& stride,
                           const mxnet::TShape& dilate, const mxnet::TShape& pad) {
  const int nd = kernel.ndim();
  if (nd < 1 || nd > 3) {
    MX_THROW(ValueError) << op << ": kernel must have 1 to 3 dimensions, got " << kernel;
  }
  auto option = [&](const mxnet::TShape& s, const char* name, dim_t fallback) {
    std::vector<dim_t> v(nd, fallback);
    if (ndim_is_known(s) && s.ndim() > 0) {
      if (s.ndim() != nd) {
        MX_THROW(ValueError) << op << ": " << name << "=" << s << " must have as many "
                             << "dimensions as kernel=" << kernel;
      }
      for (int i = 0; i < nd; ++i) v[i] = s[i];
    }
    return v;
  };
  BlockGeometry g;
  g.kernel = option(kernel, "kernel", 1);
  g.stride = option(stride, "stride", 1);
  g.dilate = option(dilate, "dilate", 1);
  g.pad = option(pad, "pad", 0);
  for (int i = 0; i < nd; ++i) {
    g.in.push_back(spatial[i]);
    if (g.kernel[i] <= 0 || g.stride[i] <= 0 || g.dilate[i] <= 0 || g.pad[i] < 0) {
      MX_THROW(ValueError) << op << ": kernel, stride and dilate must be positive and pad "
                           << "non-negative, got kernel=" << kernel << " stride=" << stride
                           << " dilate=" << dilate << " pad=" << pad;
    }
    const dim_t span = g.dilate[i] * (g.kernel[i] - 1) + 1;
    const dim_t padded = spatial[i] + 2 * g.pad[i];
    if (padded < span) {
      MX_THROW(ValueError) << op << ": the dilated kernel (" << span << ") exceeds the padded "
                           << "input (" << padded << ") on spatial axis " << i
                           << " (spatial shape " << spatial << ", kernel " << kernel << ")";
    }
    g.out.push_back((padded - span) / g.stride[i] + 1);
    g.kernel_size *= g.kernel[i];
    g.blocks *= g.out.back();
  }
  return g;
}

/*!
 * \brief to_cols: cols (C*K, L) (+)= gather of one image (C, spatial...);
 *        otherwise image (+)= scatter of cols. `image` is written only where req says.
 */
template <typename DType>
void BlocksOfOneSample(const BlockGeometry& g, index_t channels, DType* image, DType* cols,
                       bool to_cols, OpReqType req) {
  const int nd = g.kernel.size();
  index_t image_plane = 1;
  for (dim_t s : g.in) image_plane *= s;
  std::vector<double> acc(to_cols ? 0 : channels * image_plane, 0.0);
  std::vector<dim_t> k(nd), o(nd);
  for (index_t c = 0; c < channels; ++c) {
    for (dim_t kf = 0; kf < g.kernel_size; ++kf) {
      dim_t rest = kf;
      for (int a = nd - 1; a >= 0; --a) {
        k[a] = rest % g.kernel[a];
        rest /= g.kernel[a];
      }
      const index_t row = c * g.kernel_size + kf;
      for (dim_t of = 0; of < g.blocks; ++of) {
        dim_t r2 = of;
        for (int a = nd - 1; a >= 0; --a) {
          o[a] = r2 % g.out[a];
          r2 /= g.out[a];
        }
        index_t src = c;
        bool inside = true;
        for (int a = 0; a < nd; ++a) {
          const dim_t p = o[a] * g.stride[a] - g.pad[a] + k[a] * g.dilate[a];
          if (p < 0 || p >= g.in[a]) {
            inside = false;
            break;
          }
          src = src * g.in[a] + p;
        }
        DType& col = cols[row * g.blocks + of];
        if (to_cols) {
          const DType v = inside ? image[src] : DType(0);
          col = req == kAddTo ? static_cast<DType>(col + v) : v;
        } else if (inside) {
          acc[src] += static_cast<double>(col);
        }
      }
    }
  }
  if (!to_cols) {
    for (size_t i = 0; i < acc.size(); ++i)
      image[i] = req == kAddTo ? static_cast<DType>(image[i] + acc[i])
                               : static_cast<DType>(acc[i]);
  }
}

template <typename DType>
void BlocksOfBatch(const BlockGeometry& g, index_t batch, index_t channels, DType* images,
                   DType* cols, bool to_cols, OpReqType req) {
  index_t image_size = channels;
  for (dim_t s : g.in) image_size *= s;
  const index_t cols_size = channels * g.kernel_size * g.blocks;
  #pragma omp parallel for
  for (index_t n = 0; n < batch; ++n) {
    BlocksOfOneSample<DType>(g, channels, images + n * image_size, cols + n * cols_size,
                             to_cols, req);
  }
}

mxnet::TShape SpatialOf(const mxnet::TShape& s) {
  mxnet::TShape sp(s.ndim() - 2, -1);
  for (int i = 2; i < s.ndim(); ++i) sp[i - 2] = s[i];
  return sp;
}

bool Im2colShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const Im2colParam& p = nnvm::get<Im2colParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (d.ndim() != p.kernel.ndim() + 2) {
    MX_THROW(ValueError) << "im2col: expected data with " << p.kernel.ndim() + 2
                         << " dimensions (batch, channel, spatial...) for kernel=" << p.kernel
                         << ", got " << d;
  }
  const BlockGeometry g = MakeGeometry("im2col", SpatialOf(d), p.kernel, p.stride, p.dilate,
                                       p.pad);
  SHAPE_ASSIGN_CHECK(*out, 0, mxnet::TShape({d[0], d[1] * g.kernel_size, g.blocks}));
  return true;
}

bool Col2imShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in, mxnet::ShapeVector* out) {
  const Col2imParam& p = nnvm::get<Col2imParam>(attrs.parsed);
  const mxnet::TShape& d = (*in)[0];
  if (!shape_is_known(d)) return false;
  if (p.output_size.ndim() != p.kernel.ndim()) {
    MX_THROW(ValueError) << "col2im: output_size=" << p.output_size << " and kernel="
                         << p.kernel << " must have the same number of dimensions";
  }
  const BlockGeometry g = MakeGeometry("col2im", p.output_size, p.kernel, p.stride, p.dilate,
                                       p.pad);
  if (d.ndim() != 3 || d[1] % g.kernel_size != 0 || d[2] != g.blocks) {
    MX_THROW(ValueError) << "col2im: expected data of shape (batch, channel * "
                         << g.kernel_size << ", " << g.blocks << ") for output_size="
                         << p.output_size << " and kernel=" << p.kernel << ", got " << d;
  }
  mxnet::TShape o(2 + p.output_size.ndim(), -1);
  o[0] = d[0];
  o[1] = d[1] / g.kernel_size;
  for (int i = 0; i < p.output_size.ndim(); ++i) o[i + 2] = p.output_size[i];
  SHAPE_ASSIGN_CHECK(*out, 0, o);
  return true;
}

/*! \brief images (N, C, spatial...) <-> cols; to_cols picks the direction. */
template <typename Param>
void RunBlocks(const Param& p, const char* op, const TBlob& images, const TBlob& cols,
               bool to_cols, OpReqType req) {
  if (req == kNullOp) return;
  const BlockGeometry g = MakeGeometry(op, SpatialOf(images.shape_), p.kernel, p.stride,
                                       p.dilate, p.pad);
  MSHADOW_TYPE_SWITCH(images.type_flag_, DType, {
    BlocksOfBatch<DType>(g, images.shape_[0], images.shape_[1], images.dptr<DType>(),
                         cols.dptr<DType>(), to_cols, req);
  });
}

void Im2colCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  RunBlocks(nnvm::get<Im2colParam>(attrs.parsed), "im2col", inputs[0], outputs[0], true, req[0]);
}

void Im2colGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  RunBlocks(nnvm::get<Im2colParam>(attrs.parsed), "im2col", outputs[0], inputs[0], false,
            req[0]);
}

void Col2imCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  RunBlocks(nnvm::get<Col2imParam>(attrs.parsed), "col2im", outputs[0], inputs[0], false,
            req[0]);
}

void Col2imGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  RunBlocks(nnvm::get<Col2imParam>(attrs.parsed), "col2im", inputs[0], outputs[0], true,
            req[0]);
}

/*! \brief Backward shape/type: the single output is like forward input 1 of the backward. */
bool SecondInputShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in,
                      mxnet::ShapeVector* out) {
  SHAPE_ASSIGN_CHECK(*out, 0, (*in)[1]);
  return shape_is_known((*out)[0]);
}

bool FirstInputType(const nnvm::NodeAttrs& attrs, std::vector<int>* in, std::vector<int>* out) {
  TYPE_ASSIGN_CHECK(*out, 0, (*in)[0]);
  return (*out)[0] != -1;
}

}  // namespace

NNVM_REGISTER_OP(im2col)
.describe(R"code(Extract sliding blocks from input array.

This operator is used in vanilla convolution implementation to transform the sliding
blocks on image to column matrix, then the convolution operation can be computed
by matrix multiplication between column and convolution weight. Due to the close
relation between im2col and convolution, the concept of **kernel**, **stride**,
**dilate** and **pad** in this operator are inherited from convolution operator.

Given the input data of shape :math:`(N, C, *)`, where :math:`N` is the batch size,
:math:`C` is the channel size, and :math:`*` is the arbitrary spatial dimension,
the output column array is always with shape :math:`(N, C \times \prod(\text{kernel}), W)`,
where :math:`C \times \prod(\text{kernel})` is the block size, and :math:`W` is the
block number which is the spatial size of the convolution output with same input parameters.
Only 1-D, 2-D and 3-D of spatial dimension is supported in this operator.

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<Im2colParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", Im2colShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", Im2colCompute)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_im2col", n, {ograds[0], n->inputs[0]}, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input array to extract sliding blocks.")
.add_arguments(Im2colParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_im2col)
.describe("Backward of im2col: (out_grad, data) -> data_grad (col2im of out_grad).")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<Im2colParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", SecondInputShape)
.set_attr<nnvm::FInferType>("FInferType", FirstInputType)
.set_attr<FCompute>("FCompute<cpu>", Im2colGradCompute);

NNVM_REGISTER_OP(col2im)
.describe(R"code(Combining the output column matrix of im2col back to image array.

Like :class:`~mxnet.ndarray.im2col`, this operator is also used in the vanilla convolution
implementation. Despite the name, col2im is not the reverse operation of im2col. Since there
may be overlaps between neighbouring sliding blocks, the column elements cannot be directly
put back into image. Instead, they are accumulated (i.e., summed) in the input image
just like the gradient computation, so col2im is the gradient of im2col and vice versa.

Using the notation in im2col, given an input column array of shape
:math:`(N, C \times  \prod(\text{kernel}), W)`, this operator accumulates the column elements
into output array of shape :math:`(N, C, \text{output_size}[0], \text{output_size}[1], \dots)`.
Only 1-D, 2-D and 3-D of spatial dimension is supported in this operator.

)code" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<Col2imParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"data"};
})
.set_attr<mxnet::FInferShape>("FInferShape", Col2imShape)
.set_attr<nnvm::FInferType>("FInferType", ElemwiseType<1, 1>)
.set_attr<FCompute>("FCompute<cpu>", Col2imCompute)
.set_attr<nnvm::FGradient>("FGradient",
  [](const nnvm::ObjectPtr& n, const std::vector<nnvm::NodeEntry>& ograds) {
    return MakeGradNode("_backward_col2im", n, {ograds[0], n->inputs[0]}, n->attrs.dict);
  })
.add_argument("data", "NDArray-or-Symbol", "Input array to combine sliding blocks.")
.add_arguments(Col2imParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_col2im)
.describe("Backward of col2im: (out_grad, data) -> data_grad (im2col of out_grad).")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<Col2imParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", SecondInputShape)
.set_attr<nnvm::FInferType>("FInferType", FirstInputType)
.set_attr<FCompute>("FCompute<cpu>", Col2imGradCompute);

}  // namespace op
}  // namespace mxnet
