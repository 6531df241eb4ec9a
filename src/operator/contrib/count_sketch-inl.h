/*!
 * \file count_sketch-inl.h
 * \brief _contrib_count_sketch's parameters and kernels. The buckets h are checked on the host
 *        first. Forward: the CPU sums each row into a per-bucket accumulator in column order;
 *        the GPU gathers, one thread per (row, bucket), the same columns in the same order.
 *        Backward (data_grad[n, j] = s[j] * out_grad[n, h[j]]): one kernel for both devices.
 */
#ifndef MXNET_OPERATOR_CONTRIB_COUNT_SKETCH_INL_H_
#define MXNET_OPERATOR_CONTRIB_COUNT_SKETCH_INL_H_

#include <dmlc/parameter.h>
#include <mxnet/op_attr_types.h>

#include <type_traits>
#include <vector>

#include "../host_copy.h"
#include "../mxnet_op.h"
#include "../operator_common.h"

namespace mxnet {
namespace op {

struct CountSketchParam : public dmlc::Parameter<CountSketchParam> {
  int out_dim, processing_batch_size;
  DMLC_DECLARE_PARAMETER(CountSketchParam) {
    DMLC_DECLARE_FIELD(out_dim).describe("The output dimension.");
    DMLC_DECLARE_FIELD(processing_batch_size).set_default(32)
        .describe("How many sketch vectors to process at one time.");
  }
};

namespace count_sketch {

constexpr const char* kOpName = "_contrib_count_sketch";

/*! \brief out[n, k] (req) sum over columns j with h[j] == k, in order, of s[j] * x[n, j]. */
struct gather_buckets {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, const DType* x, const DType* h, const DType* s,
                                  index_t dim, index_t od, DType* o, int req) {
    const index_t r = e / od, k = e % od;
    double acc = 0;
    for (index_t j = 0; j < dim; ++j) {
      if (static_cast<index_t>(static_cast<double>(h[j])) == k) {
        acc += static_cast<double>(s[j]) * static_cast<double>(x[r * dim + j]);
      }
    }
    o[e] = req == kAddTo ? DType(static_cast<double>(o[e]) + acc) : DType(acc);
  }
};

/*! \brief dx[n, j] (req) s[j] * out_grad[n, h[j]]. */
struct scatter_grad {
  template <typename DType>
  MSHADOW_XINLINE static void Map(index_t e, const DType* g, const DType* h, const DType* s,
                                  index_t dim, index_t od, DType* dx, int req) {
    const index_t r = e / dim, j = e % dim;
    const index_t b = static_cast<index_t>(static_cast<double>(h[j]));
    const double v = static_cast<double>(s[j]) * static_cast<double>(g[r * od + b]);
    dx[e] = req == kAddTo ? DType(static_cast<double>(dx[e]) + v) : DType(v);
  }
};

}  // namespace count_sketch

/*! \brief Bucket of every input column, checked to lie in [0, out_dim). */
template <typename xpu>
std::vector<int64_t> CountSketchBuckets(mshadow::Stream<xpu>* stream, const TBlob& h,
                                        int64_t dim, int64_t out_dim) {
  std::vector<int64_t> b(dim);
  const std::vector<double> hv = BlobValuesOnHost(stream, h);
  for (int64_t j = 0; j < dim; ++j) {
    const double v = hv[j];
    if (!(v >= 0 && v < static_cast<double>(out_dim))) {
      MX_THROW(IndexError) << count_sketch::kOpName << ": h[" << j << "] = " << v
                           << " is not a bucket in [0, out_dim=" << out_dim << ")";
    }
    b[j] = static_cast<int64_t>(v);
  }
  return b;
}

/*! \brief fn(r) for every row, in parallel when the work is large (CPU). */
template <typename Fn>
inline void ForRows(int64_t rows, int64_t work, Fn fn) {
#pragma omp parallel for if (rows * work > 32768)
  for (int64_t r = 0; r < rows; ++r) fn(r);
}

template <typename xpu>
void CountSketchCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                        const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                        const std::vector<TBlob>& out) {
  if (req[0] == kNullOp) return;
  const CountSketchParam& p = nnvm::get<CountSketchParam>(attrs.parsed);
  mshadow::Stream<xpu>* stream = ctx.get_stream<xpu>();
  const int64_t dim = in[0].shape_[in[0].ndim() - 1];
  const int64_t od = p.out_dim;
  const int64_t rows = dim > 0 ? static_cast<int64_t>(in[0].Size()) / dim
                               : static_cast<int64_t>(out[0].Size()) / od;
  const std::vector<int64_t> b = CountSketchBuckets(stream, in[1], dim, od);
  MSHADOW_REAL_TYPE_SWITCH(in[0].type_flag_, DType, {
    const DType* x = in[0].dptr<DType>();
    const DType* s = in[2].dptr<DType>();
    DType* o = out[0].dptr<DType>();
    const OpReqType rq = req[0];
    if constexpr (std::is_same<xpu, mshadow::cpu>::value) {
      ForRows(rows, dim, [&](int64_t r) {
        std::vector<double> acc(od, 0.0);
        for (int64_t j = 0; j < dim; ++j) {
          acc[b[j]] += static_cast<double>(s[j]) * static_cast<double>(x[r * dim + j]);
        }
        DType* orow = o + r * od;
        for (int64_t k = 0; k < od; ++k) {
          orow[k] = rq == kAddTo ? DType(static_cast<double>(orow[k]) + acc[k]) : DType(acc[k]);
        }
      });
    } else {
      mxnet_op::Kernel<count_sketch::gather_buckets, xpu>::Launch(
          stream, rows * od, x, in[1].dptr<DType>(), s, dim, od, o, static_cast<int>(rq));
    }
  });
}

/*! \brief Inputs (out_grad, h, s); outputs (data_grad, h_grad = 0, s_grad = 0). */
template <typename xpu>
void CountSketchGradCompute(const nnvm::NodeAttrs& attrs, const OpContext& ctx,
                            const std::vector<TBlob>& in, const std::vector<OpReqType>& req,
                            const std::vector<TBlob>& out) {
  const CountSketchParam& p = nnvm::get<CountSketchParam>(attrs.parsed);
  mshadow::Stream<xpu>* stream = ctx.get_stream<xpu>();
  const int64_t dim = out[0].shape_[out[0].ndim() - 1];
  const int64_t od = p.out_dim;
  MSHADOW_REAL_TYPE_SWITCH(in[0].type_flag_, DType, {
    for (int i = 1; i < 3; ++i) {  // h and s are hash tables, not parameters
      if (req[i] == kWriteTo || req[i] == kWriteInplace) {
        mxnet_op::Kernel<mxnet_op::set_zero, xpu>::Launch(stream, out[i].Size(),
                                                          out[i].dptr<DType>());
      }
    }
    if (req[0] != kNullOp && dim > 0) {
      CountSketchBuckets(stream, in[1], dim, od);  // checks h
      mxnet_op::Kernel<count_sketch::scatter_grad, xpu>::Launch(
          stream, out[0].Size(), in[0].dptr<DType>(), in[1].dptr<DType>(),
          in[2].dptr<DType>(), dim, od, out[0].dptr<DType>(), static_cast<int>(req[0]));
    }
  });
}

}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_CONTRIB_COUNT_SKETCH_INL_H_
