/*!
 * \file la_op.cc
 * \brief linalg gemm, gemm2, syrk, trmm, trsm and the diagonal/triangle copies (extractdiag,
 *        makediag, extracttrian, maketrian) with their backward operators. The factorizations
 *        (potrf, potri, gelqf, syevd, inverse, det, ...) are in la_op_factor.cc.
 */
#include "./la_op-inl.h"

namespace mxnet {
namespace op {

DMLC_REGISTER_PARAMETER(LaMatrixMacParam);
DMLC_REGISTER_PARAMETER(LaMatrixMultParam);
DMLC_REGISTER_PARAMETER(LaTriangMatrixMultParam);
DMLC_REGISTER_PARAMETER(LaSyrkParam);
DMLC_REGISTER_PARAMETER(LaDiagParam);
DMLC_REGISTER_PARAMETER(LaTrianParam);

namespace {

// ------------------------------------------------------------------------------ gemm, gemm2

template <typename Param>
bool LaGemmShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                 mxnet::ShapeVector* out_attrs) {
  const Param& param = nnvm::get<Param>(attrs.parsed);
  const mxnet::TShape& a = (*in_attrs)[0];
  const mxnet::TShape& b = (*in_attrs)[1];
  if (!ndim_is_known(a) || !ndim_is_known(b)) return false;
  LaCheckMatrices(attrs, "A", a, false);
  LaCheckMatrices(attrs, "B", b, false);
  if (a.ndim() != b.ndim()) {
    MX_THROW(ValueError) << LaName(attrs) << ": inputs A " << a << " and B " << b
                         << " must have the same number of dimensions";
  }
  const int nd = a.ndim();
  const int ax = LaNormalizeAxis(attrs, param.axis, a);
  for (int i = 0; i < nd - 1; ++i) {
    if (i != ax && a[i] >= 0 && b[i] >= 0 && a[i] != b[i]) {
      MX_THROW(ValueError) << LaName(attrs) << ": inputs A " << a << " and B " << b
                           << " must have the same shape except on the row axis " << ax
                           << " and the last (column) axis";
    }
  }
  const dim_t ka = param.transpose_a ? a[ax] : a[nd - 1];
  const dim_t kb = param.transpose_b ? b[nd - 1] : b[ax];
  if (ka >= 0 && kb >= 0 && ka != kb) {
    MX_THROW(ValueError) << LaName(attrs) << ": shape mismatch: A " << a
                         << (param.transpose_a ? " (transposed)" : "") << " and B " << b
                         << (param.transpose_b ? " (transposed)" : "")
                         << ": the inner dimensions " << ka << " and " << kb << " differ";
  }
  mxnet::TShape out(a);
  out[ax] = param.transpose_a ? a[nd - 1] : a[ax];
  out[nd - 1] = param.transpose_b ? b[ax] : b[nd - 1];
  if (in_attrs->size() == 3) {
    const mxnet::TShape& c = (*in_attrs)[2];
    if (ndim_is_known(c) && shape_is_known(out) && shape_is_known(c) && c != out) {
      MX_THROW(ValueError) << LaName(attrs) << ": input C has shape " << c
                           << " but A " << a << " times B " << b << " gives " << out;
    }
    SHAPE_ASSIGN_CHECK(*in_attrs, 2, out);
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, out);
  return shape_is_known(a) && shape_is_known(b);
}

bool LaGemmBackwardShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                         mxnet::ShapeVector* out_attrs) {
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[1]);
  SHAPE_ASSIGN_CHECK(*out_attrs, 1, (*in_attrs)[2]);
  if (out_attrs->size() == 3) SHAPE_ASSIGN_CHECK(*out_attrs, 2, (*in_attrs)[0]);
  for (const auto& s : *out_attrs) if (!shape_is_known(s)) return false;
  return true;
}

/*! \brief Gradient node (ograd, A, B) -> backward op. */
nnvm::FGradient LaGradUsingInputs(const char* backward, std::vector<int> input_ids,
                                  std::vector<int> output_ids) {
  return [backward, input_ids, output_ids](const nnvm::ObjectPtr& n,
                                           const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads(ograds.begin(), ograds.end());
    for (int i : input_ids) heads.push_back(n->inputs[i]);
    for (int i : output_ids) heads.emplace_back(n, i, 0);
    return MakeGradNode(backward, n, heads, n->attrs.dict);
  };
}

// ------------------------------------------------------------------------------------ syrk

bool LaSyrkShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                 mxnet::ShapeVector* out_attrs) {
  const LaSyrkParam& param = nnvm::get<LaSyrkParam>(attrs.parsed);
  const mxnet::TShape& a = (*in_attrs)[0];
  if (!ndim_is_known(a)) return false;
  LaCheckMatrices(attrs, "A", a, false);
  const dim_t k = param.transpose ? a[a.ndim() - 1] : a[a.ndim() - 2];
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, LaReplaceTail(a, 2, {k, k}));
  return shape_is_known(a);
}

// ------------------------------------------------------------------------------ trmm, trsm

bool LaTriangShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                   mxnet::ShapeVector* out_attrs) {
  const LaTriangMatrixMultParam& param = nnvm::get<LaTriangMatrixMultParam>(attrs.parsed);
  const mxnet::TShape& a = (*in_attrs)[0];
  const mxnet::TShape& b = (*in_attrs)[1];
  if (!ndim_is_known(a) || !ndim_is_known(b)) return false;
  LaCheckMatrices(attrs, "A", a, true);
  LaCheckMatrices(attrs, "B", b, false);
  LaCheckSameBatch(attrs, "A", a, "B", b, 2, 2);
  const dim_t k = a[a.ndim() - 1];
  const dim_t kb = param.rightside ? b[b.ndim() - 1] : b[b.ndim() - 2];
  if (k >= 0 && kb >= 0 && k != kb) {
    MX_THROW(ValueError) << LaName(attrs) << ": shape mismatch: triangular A " << a
                         << " cannot multiply B " << b << " from the "
                         << (param.rightside ? "right" : "left") << " (" << k << " vs " << kb
                         << ")";
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, b);
  return shape_is_known(a) && shape_is_known(b);
}

bool LaBackwardShapeFromInputs12(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                                 mxnet::ShapeVector* out_attrs) {
  // outputs (dA, dB) have the shapes of A (input 1) and B (= dOut, input 0).
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[1]);
  SHAPE_ASSIGN_CHECK(*out_attrs, 1, (*in_attrs)[0]);
  return shape_is_known((*out_attrs)[0]) && shape_is_known((*out_attrs)[1]);
}

// ------------------------------------------------------------- diagonal and triangle copies

bool LaExtractDiagShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                        mxnet::ShapeVector* out_attrs) {
  const int offset = nnvm::get<LaDiagParam>(attrs.parsed).offset;
  const mxnet::TShape& a = (*in_attrs)[0];
  if (!ndim_is_known(a)) return false;
  LaCheckMatrices(attrs, "A", a, true);
  const dim_t n = a[a.ndim() - 1];
  if (n >= 0 && std::abs(offset) >= n) {
    MX_THROW(ValueError) << LaName(attrs) << ": offset " << offset
                         << " is outside the matrices of input A " << a;
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, LaReplaceTail(a, 2, {n < 0 ? -1 : n - std::abs(offset)}));
  return shape_is_known(a);
}

bool LaMakeDiagShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                     mxnet::ShapeVector* out_attrs) {
  const int offset = nnvm::get<LaDiagParam>(attrs.parsed).offset;
  const mxnet::TShape& a = (*in_attrs)[0];
  if (!ndim_is_known(a)) return false;
  if (a.ndim() < 1) {
    MX_THROW(ValueError) << LaName(attrs) << ": input A must have at least 1 dimension, got "
                         << a;
  }
  const dim_t m = a[a.ndim() - 1];
  const dim_t n = m < 0 ? -1 : m + std::abs(offset);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, LaReplaceTail(a, 1, {n, n}));
  return shape_is_known(a);
}

bool LaExtractTrianShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                         mxnet::ShapeVector* out_attrs) {
  const int offset = nnvm::get<LaTrianParam>(attrs.parsed).offset;
  const mxnet::TShape& a = (*in_attrs)[0];
  if (!ndim_is_known(a)) return false;
  LaCheckMatrices(attrs, "A", a, true);
  const dim_t n = a[a.ndim() - 1];
  if (n >= 0 && std::abs(offset) >= n) {
    MX_THROW(ValueError) << LaName(attrs) << ": offset " << offset
                         << " is outside the matrices of input A " << a;
  }
  const dim_t p = n - std::abs(offset);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, LaReplaceTail(a, 2, {n < 0 ? -1 : p * (p + 1) / 2}));
  return shape_is_known(a);
}

bool LaMakeTrianShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                      mxnet::ShapeVector* out_attrs) {
  const int offset = nnvm::get<LaTrianParam>(attrs.parsed).offset;
  const mxnet::TShape& a = (*in_attrs)[0];
  if (!ndim_is_known(a)) return false;
  if (a.ndim() < 1) {
    MX_THROW(ValueError) << LaName(attrs) << ": input A must have at least 1 dimension, got "
                         << a;
  }
  const dim_t len = a[a.ndim() - 1];
  if (len < 0) return false;
  // len = p (p + 1) / 2 for the triangle's side p.
  dim_t p = static_cast<dim_t>(std::floor((std::sqrt(8.0 * len + 1) - 1) / 2 + 0.5));
  if (p * (p + 1) / 2 != len || len == 0) {
    MX_THROW(ValueError) << LaName(attrs) << ": the last dimension of input A " << a
                         << " must be a triangular number p*(p+1)/2 > 0, got " << len;
  }
  const dim_t n = p + std::abs(offset);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, LaReplaceTail(a, 1, {n, n}));
  return shape_is_known(a);
}

std::vector<ResourceRequest> LaTempSpace(const NodeAttrs&) {
  return {ResourceRequest::kTempSpace};
}

bool LaSameShapeAsInput1(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                         mxnet::ShapeVector* out_attrs) {
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[1]);
  return shape_is_known((*out_attrs)[0]);
}

}  // namespace

// -------------------------------------------------------------------------- registrations

NNVM_REGISTER_OP(_linalg_gemm)
.add_alias("linalg_gemm")
.describe(R"doc(Performs general matrix multiplication and accumulation.
Input are tensors *A*, *B*, *C*, each of dimension *n >= 2* and having the same shape
on the leading *n-2* dimensions.

If *n=2*, the BLAS3 function *gemm* is performed:

   *out* = *alpha* \* *op*\ (*A*) \* *op*\ (*B*) + *beta* \* *C*

Here, *alpha* and *beta* are scalar parameters, and *op()* is either the identity or
matrix transposition (depending on *transpose_a*, *transpose_b*).

If *n>2*, *gemm* is performed separately for a batch of matrices. The column indices of the
matrices are given by the last dimensions of the tensors, the row indices by the axis specified
with the *axis* parameter. By default, the trailing two dimensions will be used for matrix
encoding.

.. note:: The operator supports float32 and float64 data types only.

Examples::

   A = [[1.0, 1.0], [1.0, 1.0]]
   B = [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]
   C = [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
   gemm(A, B, C, transpose_b=True, alpha=2.0, beta=10.0)
           = [[14.0, 14.0, 14.0], [14.0, 14.0, 14.0]]
)doc" ADD_FILELINE)
.set_num_inputs(3)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaMatrixMacParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"A", "B", "C"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LaGemmShape<LaMatrixMacParam>)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", (LaGemmForward<cpu, LaMatrixMacParam>))
.set_attr<nnvm::FGradient>("FGradient", LaGradUsingInputs("_backward_linalg_gemm", {0, 1}, {}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of input matrices")
.add_argument("B", "NDArray-or-Symbol", "Tensor of input matrices")
.add_argument("C", "NDArray-or-Symbol", "Tensor of input matrices")
.add_arguments(LaMatrixMacParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_linalg_gemm)
.describe("Backward of linalg_gemm: (out_grad, A, B) -> (A_grad, B_grad, C_grad).")
.set_num_inputs(3)
.set_num_outputs(3)
.set_attr_parser(ParamParser<LaMatrixMacParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", LaGemmBackwardShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", (LaGemmBackward<cpu, LaMatrixMacParam>))
.add_arguments(LaMatrixMacParam::__FIELDS__());

NNVM_REGISTER_OP(_linalg_gemm2)
.add_alias("linalg_gemm2")
.describe(R"doc(Performs general matrix multiplication.
Input are tensors *A*, *B*, each of dimension *n >= 2* and having the same shape
on the leading *n-2* dimensions.

If *n=2*, the BLAS3 function *gemm* is performed:

   *out* = *alpha* \* *op*\ (*A*) \* *op*\ (*B*)

Here *alpha* is a scalar parameter and *op()* is either the identity or the matrix
transposition (depending on *transpose_a*, *transpose_b*).

If *n>2*, *gemm* is performed separately for a batch of matrices. The column indices of the
matrices are given by the last dimensions of the tensors, the row indices by the axis specified
with the *axis* parameter. By default, the trailing two dimensions will be used for matrix
encoding.

.. note:: The operator supports float32 and float64 data types only.

Examples::

   A = [[1.0, 1.0], [1.0, 1.0]]
   B = [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]
   gemm2(A, B, transpose_b=True, alpha=2.0) = [[4.0, 4.0, 4.0], [4.0, 4.0, 4.0]]
)doc" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaMatrixMultParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"A", "B"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LaGemmShape<LaMatrixMultParam>)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", (LaGemmForward<cpu, LaMatrixMultParam>))
.set_attr<nnvm::FGradient>("FGradient", LaGradUsingInputs("_backward_linalg_gemm2", {0, 1}, {}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of input matrices")
.add_argument("B", "NDArray-or-Symbol", "Tensor of input matrices")
.add_arguments(LaMatrixMultParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_linalg_gemm2)
.describe("Backward of linalg_gemm2: (out_grad, A, B) -> (A_grad, B_grad).")
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<LaMatrixMultParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", LaGemmBackwardShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", (LaGemmBackward<cpu, LaMatrixMultParam>))
.add_arguments(LaMatrixMultParam::__FIELDS__());

NNVM_REGISTER_OP(_linalg_syrk)
.add_alias("linalg_syrk")
.describe(R"doc(Multiplication of matrix with its transpose.
Input is a tensor *A* of dimension *n >= 2*.

If *n=2*, the operator performs the BLAS3 function *syrk*:

  *out* = *alpha* \* *A* \* *A*\ :sup:`T`

if *transpose=False*, or

  *out* = *alpha* \* *A*\ :sup:`T` \ \* *A*

if *transpose=True*.

If *n>2*, *syrk* is performed separately on the trailing two dimensions of *A* (batch mode).

.. note:: The operator supports float32 and float64 data types only.

Examples::

   A = [[1., 2., 3.], [4., 5., 6.]]
   syrk(A, alpha=1., transpose=False) = [[14., 32.], [32., 77.]]
   syrk(A, alpha=1., transpose=True) = [[17., 22., 27.], [22., 29., 36.], [27., 36., 45.]]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaSyrkParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"A"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LaSyrkShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", LaSyrkForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient", LaGradUsingInputs("_backward_linalg_syrk", {0}, {}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of input matrices")
.add_arguments(LaSyrkParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_linalg_syrk)
.describe("Backward of linalg_syrk: (out_grad, A) -> A_grad.")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaSyrkParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", LaSameShapeAsInput1)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", LaSyrkBackward<cpu>)
.add_arguments(LaSyrkParam::__FIELDS__());

NNVM_REGISTER_OP(_linalg_trmm)
.add_alias("linalg_trmm")
.describe(R"doc(Performs multiplication with a lower triangular matrix.
Input are tensors *A*, *B*, each of dimension *n >= 2* and having the same shape
on the leading *n-2* dimensions.

If *n=2*, *A* must be triangular. The operator performs the BLAS3 function
*trmm*:

   *out* = *alpha* \* *op*\ (*A*) \* *B*

if *rightside=False*, or

   *out* = *alpha* \* *B* \* *op*\ (*A*)

if *rightside=True*. Here, *alpha* is a scalar parameter, and *op()* is either the
identity or the matrix transposition (depending on *transpose*). Only the triangle of *A*
selected by *lower* is read (and receives gradient).

If *n>2*, *trmm* is performed separately on the trailing two dimensions for all inputs
(batch mode).

.. note:: The operator supports float32 and float64 data types only.

Examples::

   A = [[1.0, 0], [1.0, 1.0]]
   B = [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
   trmm(A, B, alpha=2.0) = [[2.0, 2.0, 2.0], [4.0, 4.0, 4.0]]
)doc" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaTriangMatrixMultParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"A", "B"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LaTriangShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FResourceRequest>("FResourceRequest", LaTempSpace)
.set_attr<FCompute>("FCompute<cpu>", LaTrmmForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient", LaGradUsingInputs("_backward_linalg_trmm", {0, 1}, {}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of lower triangular matrices")
.add_argument("B", "NDArray-or-Symbol", "Tensor of matrices")
.add_arguments(LaTriangMatrixMultParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_linalg_trmm)
.describe("Backward of linalg_trmm: (out_grad, A, B) -> (A_grad, B_grad).")
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<LaTriangMatrixMultParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", LaBackwardShapeFromInputs12)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FResourceRequest>("FResourceRequest", LaTempSpace)
.set_attr<FCompute>("FCompute<cpu>", LaTrmmBackward<cpu>)
.add_arguments(LaTriangMatrixMultParam::__FIELDS__());

NNVM_REGISTER_OP(_linalg_trsm)
.add_alias("linalg_trsm")
.describe(R"doc(Solves matrix equation involving a lower triangular matrix.
Input are tensors *A*, *B*, each of dimension *n >= 2* and having the same shape
on the leading *n-2* dimensions.

If *n=2*, *A* must be triangular. The operator performs the BLAS3 function
*trsm*, solving for *out* in:

   *op*\ (*A*) \* *out* = *alpha* \* *B*

if *rightside=False*, or

   *out* \* *op*\ (*A*) = *alpha* \* *B*

if *rightside=True*. Here, *alpha* is a scalar parameter, and *op()* is either the
identity or the matrix transposition (depending on *transpose*). A zero on the diagonal of *A*
gives infinite or NaN entries, as BLAS does.

If *n>2*, *trsm* is performed separately on the trailing two dimensions for all inputs
(batch mode).

.. note:: The operator supports float32 and float64 data types only.

Examples::

   A = [[1.0, 0], [1.0, 1.0]]
   B = [[2.0, 2.0, 2.0], [4.0, 4.0, 4.0]]
   trsm(A, B, alpha=0.5) = [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
)doc" ADD_FILELINE)
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaTriangMatrixMultParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"A", "B"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LaTriangShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FResourceRequest>("FResourceRequest", LaTempSpace)
.set_attr<FCompute>("FCompute<cpu>", LaTrsmForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient", LaGradUsingInputs("_backward_linalg_trsm", {0}, {0}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of lower triangular matrices")
.add_argument("B", "NDArray-or-Symbol", "Tensor of matrices")
.add_arguments(LaTriangMatrixMultParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_linalg_trsm)
.describe("Backward of linalg_trsm: (out_grad, A, out) -> (A_grad, B_grad).")
.set_num_inputs(3)
.set_num_outputs(2)
.set_attr_parser(ParamParser<LaTriangMatrixMultParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", LaBackwardShapeFromInputs12)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FResourceRequest>("FResourceRequest", LaTempSpace)
.set_attr<FCompute>("FCompute<cpu>", LaTrsmBackward<cpu>)
.add_arguments(LaTriangMatrixMultParam::__FIELDS__());

NNVM_REGISTER_OP(_linalg_extractdiag)
.add_alias("linalg_extractdiag")
.describe(R"doc(Extracts the diagonal entries of a square matrix.
Input is a tensor *A* of dimension *n >= 2*.

If *n=2*, then *A* represents a single square matrix which diagonal elements get extracted as a
1-dimensional tensor. If *n>2*, then *A* represents a batch of square matrices on the trailing
two dimensions. The extracted diagonals are returned as an *n-1*-dimensional tensor.

.. note:: The operator supports float32 and float64 data types only.

Examples::

   A = [[1.0, 2.0], [3.0, 4.0]]
   extractdiag(A) = [1.0, 4.0]
   extractdiag(A, 1) = [2.0]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaDiagParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"A"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LaExtractDiagShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", (LaCopyCompute<cpu, false, true>))
.set_attr<nnvm::FGradient>("FGradient", LaGradUsingInputs("_backward_linalg_extractdiag", {0}, {}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of square matrices")
.add_arguments(LaDiagParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_linalg_extractdiag)
.describe("Backward of linalg_extractdiag: (out_grad, A) -> A_grad.")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaDiagParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", LaSameShapeAsInput1)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", (LaCopyCompute<cpu, false, false>))
.add_arguments(LaDiagParam::__FIELDS__());

NNVM_REGISTER_OP(_linalg_makediag)
.add_alias("linalg_makediag")
.describe(R"doc(Constructs a square matrix with the input as diagonal.
Input is a tensor *A* of dimension *n >= 1*.

If *n=1*, then *A* represents the diagonal entries of a single square matrix. This matrix will
be returned as a 2-dimensional tensor. If *n>1*, then *A* represents a batch of diagonals of
square matrices. The batch of diagonal matrices will be returned as an *n+1*-dimensional tensor.

.. note:: The operator supports float32 and float64 data types only.

Examples::

    A = [1.0, 2.0]
    makediag(A) = [[1.0, 0.0], [0.0, 2.0]]
    makediag(A, 1) = [[0.0, 1.0, 0.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaDiagParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"A"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LaMakeDiagShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", (LaCopyCompute<cpu, false, false>))
.set_attr<nnvm::FGradient>("FGradient", LaGradUsingInputs("_backward_linalg_makediag", {0}, {}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of diagonal entries")
.add_arguments(LaDiagParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_linalg_makediag)
.describe("Backward of linalg_makediag: (out_grad, A) -> A_grad.")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaDiagParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", LaSameShapeAsInput1)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", (LaCopyCompute<cpu, false, true>))
.add_arguments(LaDiagParam::__FIELDS__());

NNVM_REGISTER_OP(_linalg_extracttrian)
.add_alias("linalg_extracttrian")
.describe(R"doc(Extracts a triangular sub-matrix from a square matrix.
Input is a tensor *A* of dimension *n >= 2*.

If *n=2*, then *A* represents a single square matrix from which a triangular sub-matrix is
extracted as a 1-dimensional tensor. If *n>2*, then *A* represents a batch of square matrices
on the trailing two dimensions. The extracted triangular sub-matrices are returned as an
*n-1*-dimensional tensor.

The *offset* and *lower* parameters determine the triangle to be extracted:

- When *offset = 0* either the lower or upper triangle with respect to the main diagonal is
  extracted depending on the value of parameter *lower*.
- When *offset = k > 0* the upper triangle with respect to the k-th diagonal above the main
  diagonal is extracted.
- When *offset = k < 0* the lower triangle with respect to the k-th diagonal below the main
  diagonal is extracted.

.. note:: The operator supports float32 and float64 data types only.

Examples::

    A = [[1.0, 2.0], [3.0, 4.0]]
    extracttrian(A) = [1.0, 3.0, 4.0]
    extracttrian(A, lower=False) = [1.0, 2.0, 4.0]
    extracttrian(A, 1) = [2.0]
    extracttrian(A, -1) = [3.0]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaTrianParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"A"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LaExtractTrianShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", (LaCopyCompute<cpu, true, true>))
.set_attr<nnvm::FGradient>("FGradient",
                           LaGradUsingInputs("_backward_linalg_extracttrian", {0}, {}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of square matrices")
.add_arguments(LaTrianParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_linalg_extracttrian)
.describe("Backward of linalg_extracttrian: (out_grad, A) -> A_grad.")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaTrianParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", LaSameShapeAsInput1)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", (LaCopyCompute<cpu, true, false>))
.add_arguments(LaTrianParam::__FIELDS__());

NNVM_REGISTER_OP(_linalg_maketrian)
.add_alias("linalg_maketrian")
.describe(R"doc(Constructs a square matrix with the input representing a specific triangular
sub-matrix. This is basically the inverse of *linalg.extracttrian*. Input is a tensor *A* of
dimension *n >= 1*.

If *n=1*, then *A* represents the entries of a triangular matrix which is lower triangular if
*offset<0* or *offset=0*, *lower=true*. The resulting matrix is derived by first constructing
the square matrix with the entries outside the triangle set to zero and then adding *offset*-times
an additional diagonal with zero entries to the square matrix.

If *n>1*, then *A* represents a batch of triangular sub-matrices. The batch of corresponding
square matrices is returned as an *n+1*-dimensional tensor.

.. note:: The operator supports float32 and float64 data types only.

Examples::

    A = [1.0, 2.0, 3.0]
    maketrian(A) = [[1.0, 0.0], [2.0, 3.0]]
    maketrian(A, lower=false) = [[1.0, 2.0], [0.0, 3.0]]
    maketrian(A, offset=1) = [[0.0, 1.0, 2.0], [0.0, 0.0, 3.0], [0.0, 0.0, 0.0]]
    maketrian(A, offset=-1) = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 3.0, 0.0]]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaTrianParam>)
.set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) {
  return std::vector<std::string>{"A"};
})
.set_attr<mxnet::FInferShape>("FInferShape", LaMakeTrianShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", (LaCopyCompute<cpu, true, false>))
.set_attr<nnvm::FGradient>("FGradient", LaGradUsingInputs("_backward_linalg_maketrian", {0}, {}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of triangular matrices stored as vectors")
.add_arguments(LaTrianParam::__FIELDS__());

NNVM_REGISTER_OP(_backward_linalg_maketrian)
.describe("Backward of linalg_maketrian: (out_grad, A) -> A_grad.")
.set_num_inputs(2)
.set_num_outputs(1)
.set_attr_parser(ParamParser<LaTrianParam>)
.set_attr<nnvm::TIsBackward>("TIsBackward", true)
.set_attr<mxnet::FInferShape>("FInferShape", LaSameShapeAsInput1)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", (LaCopyCompute<cpu, true, true>))
.add_arguments(LaTrianParam::__FIELDS__());

}  // namespace op
}  // namespace mxnet
