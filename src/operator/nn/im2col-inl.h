/*!
 * \file im2col-inl.h
 * \brief im2col / col2im (im2col.cc describes the layout) for every device: one thread per
 *        column element gathers from the image, one thread per image element gathers the column
 *        entries that read it (in kernel-offset order, as the CPU summed them), so neither
 *        direction needs atomics. im2col.cu registers the GPU kernels.
 */
#ifndef MXNET_OPERATOR_NN_IM2COL_INL_H_
#define MXNET_OPERATOR_NN_IM2COL_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <vector>

#include "../mxnet_op.h"
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

/*! \brief The sliding-block geometry: spatial sizes, kernel, stride, dilate, pad, blocks. */
struct BlockGeometry {
  std::vector<dim_t> in, kernel, stride, dilate, pad, out;
  dim_t kernel_size = 1, blocks = 1;
};

inline BlockGeometry MakeGeometry(const char* op, const mxnet::TShape& spatial,
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

inline mxnet::TShape SpatialOf(const mxnet::TShape& s) {
  mxnet::TShape sp(s.ndim() - 2, -1);
  for (int i = 2; i < s.ndim(); ++i) sp[i - 2] = s[i];
  return sp;
}

/*! \brief The geometry for a kernel (up to three spatial axes), by value. */
struct BlockKernelGeom {
  int nd;
  index_t batch, channels, ksize, blocks, plane;
  index_t in[3], kernel[3], stride[3], dilate[3], pad[3], out[3];
  BlockKernelGeom() = default;
  BlockKernelGeom(const BlockGeometry& g, index_t n, index_t c)
      : nd(static_cast<int>(g.kernel.size())), batch(n), channels(c), ksize(g.kernel_size),
        blocks(g.blocks), plane(1) {
    for (int a = 0; a < nd; ++a) {
      in[a] = g.in[a];
      kernel[a] = g.kernel[a];
      stride[a] = g.stride[a];
      dilate[a] = g.dilate[a];
      pad[a] = g.pad[a];
      out[a] = g.out[a];
      plane *= g.in[a];
    }
  }
};

/*! \brief Column element (n, c * K + kf, of) (req) the image element it reads (0 outside). */
struct blocks_to_cols {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, const DType* images, DType* cols,
                                  BlockKernelGeom g, int req) {
    const index_t of = e % g.blocks;
    const index_t row = (e / g.blocks) % (g.channels * g.ksize);
    const index_t n = e / (g.blocks * g.channels * g.ksize);
    const index_t c = row / g.ksize;
    index_t kf = row % g.ksize, o = of, src = 0;
    index_t kk[3], oo[3];
    for (int a = g.nd - 1; a >= 0; --a) {
      kk[a] = kf % g.kernel[a];
      kf /= g.kernel[a];
      oo[a] = o % g.out[a];
      o /= g.out[a];
    }
    bool inside = true;
    for (int a = 0; a < g.nd; ++a) {
      const index_t p = oo[a] * g.stride[a] - g.pad[a] + kk[a] * g.dilate[a];
      inside = inside && p >= 0 && p < g.in[a];
      src = src * g.in[a] + p;
    }
    const DType v = inside ? images[(n * g.channels + c) * g.plane + src] : DType(0);
    KERNEL_ASSIGN(cols[e], req, v);
  }
};

/*! \brief Image element (n, c, p...) (req) the sum, in kernel-offset order, of the column
 *          entries that read it: for each kernel offset k the block o = (p + pad - k * dilate)
 *          / stride along every axis, when that divides exactly and lies inside. */
struct cols_to_image {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, DType* images, const DType* cols,
                                  BlockKernelGeom g, int req) {
    const index_t nc = e / g.plane;
    index_t rest = e % g.plane;
    index_t pp[3];
    for (int a = g.nd - 1; a >= 0; --a) {
      pp[a] = rest % g.in[a];
      rest /= g.in[a];
    }
    const index_t n = nc / g.channels, c = nc % g.channels;
    const DType* base = cols + (n * g.channels + c) * g.ksize * g.blocks;
    double acc = 0;
    for (index_t kf = 0; kf < g.ksize; ++kf) {
      index_t k = kf, of = 0;
      bool hit = true;
      index_t kk[3];
      for (int a = g.nd - 1; a >= 0; --a) {
        kk[a] = k % g.kernel[a];
        k /= g.kernel[a];
      }
      for (int a = 0; a < g.nd && hit; ++a) {
        const index_t num = pp[a] + g.pad[a] - kk[a] * g.dilate[a];
        hit = num >= 0 && num % g.stride[a] == 0 && num / g.stride[a] < g.out[a];
        of = of * g.out[a] + (hit ? num / g.stride[a] : 0);
      }
      if (hit) acc += static_cast<double>(base[kf * g.blocks + of]);
    }
    KERNEL_ASSIGN(images[e], req, DType(acc));
  }
};

/*! \brief images (N, C, spatial...) <-> cols; to_cols picks the direction. */
template <typename xpu, typename Param>
void RunBlocks(const OpContext& ctx, const Param& p, const char* op, const TBlob& images,
               const TBlob& cols, bool to_cols, OpReqType req) {
  if (req == kNullOp) return;
  const BlockGeometry g = MakeGeometry(op, SpatialOf(images.shape_), p.kernel, p.stride,
                                       p.dilate, p.pad);
  const BlockKernelGeom kg(g, images.shape_[0], images.shape_[1]);
  mshadow::Stream<xpu>* s = ctx.get_stream<xpu>();
  MSHADOW_TYPE_SWITCH(images.type_flag_, DType, {
    if (to_cols) {
      mxnet_op::Kernel<blocks_to_cols, xpu>::Launch(s, cols.Size(), images.dptr<DType>(),
                                                    cols.dptr<DType>(), kg,
                                                    static_cast<int>(req));
    } else {
      mxnet_op::Kernel<cols_to_image, xpu>::Launch(s, images.Size(), images.dptr<DType>(),
                                                   cols.dptr<DType>(), kg,
                                                   static_cast<int>(req));
    }
  });
}

template <typename xpu>
void Im2colCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  RunBlocks<xpu>(ctx, nnvm::get<Im2colParam>(attrs.parsed), "im2col", inputs[0], outputs[0],
                 true, req[0]);
}

template <typename xpu>
void Im2colGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  RunBlocks<xpu>(ctx, nnvm::get<Im2colParam>(attrs.parsed), "im2col", outputs[0], inputs[0],
                 false, req[0]);
}

template <typename xpu>
void Col2imCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                   const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                   const std::vector<TBlob>& outputs) {
  RunBlocks<xpu>(ctx, nnvm::get<Col2imParam>(attrs.parsed), "col2im", outputs[0], inputs[0],
                 false, req[0]);
}

template <typename xpu>
void Col2imGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                       const std::vector<TBlob>& inputs, const std::vector<OpReqType>& req,
                       const std::vector<TBlob>& outputs) {
  RunBlocks<xpu>(ctx, nnvm::get<Col2imParam>(attrs.parsed), "col2im", inputs[0], outputs[0],
                 true, req[0]);
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_IM2COL_INL_H_
