/*!
 * \file la_op_factor.cc
 * \brief Registration of the linalg factorizations and the quantities derived from them:
 *        potrf, potri, sumlogdiag, gelqf, syevd, inverse, det, slogdet, with their backward
 *        operators. Their kernels, shared with the GPU (la_op.cu), are in la_op-inl.h, the
 *        device factorization routines in ../la_solver.h; gemm & co. are in la_op.cc.
 *
 * Gradient formulas (G = the head gradient, all matrices per batch entry):
 *   potrf  A = L L^T:    S = L^-T Phi(L^T G) L^-1 (Phi: lower triangle, diagonal halved),
 *                        dA = (S + S^T) / 2 (the gradient with respect to a symmetric A)
 *   potri  O = (L L^T)^-1: dL = -tril(O (G + G^T) O L)
 *   gelqf  A = L Q:      M = L^T dL - dQ Q^T, dA = L^-T (dQ + sym_from_lower(M) Q)
 *   syevd  A = U^T diag(w) U: dA = sym(U^T (diag(dw) + F o (U dU^T)) U), F_ij = 1/(w_j - w_i)
 *   inverse O = A^-1:    dA = -O^T G O^T
 *   det / slogdet:       dA = G det A^-T  /  dA = G_logabsdet A^-T (the sign has no gradient;
 *                        a singular A gets a zero gradient, as in MXNet 1.9.1)
 */
#include "./la_op-inl.h"

namespace mxnet {
namespace op {

namespace {

// ------------------------------------------------------------------------------ shapes

/*! \brief Square matrices in, same shape out (potrf, potri, inverse). */
bool LaSquareShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                   mxnet::ShapeVector* out_attrs) {
  const mxnet::TShape& a = (*in_attrs)[0];
  if (!ndim_is_known(a)) return false;
  LaCheckMatrices(attrs, "A", a, true);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, a);
  return shape_is_known(a);
}

/*! \brief Square matrices in, one scalar per matrix out, for every output (det, slogdet, ...). */
bool LaScalarPerMatrixShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                            mxnet::ShapeVector* out_attrs) {
  const mxnet::TShape& a = (*in_attrs)[0];
  if (!ndim_is_known(a)) return false;
  LaCheckMatrices(attrs, "A", a, true);
  for (size_t i = 0; i < out_attrs->size(); ++i) {
    SHAPE_ASSIGN_CHECK(*out_attrs, i, LaBatchShape(a, 2));
  }
  return shape_is_known(a);
}

bool LaGelqfShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                  mxnet::ShapeVector* out_attrs) {
  const mxnet::TShape& a = (*in_attrs)[0];
  if (!ndim_is_known(a)) return false;
  LaCheckMatrices(attrs, "A", a, false);
  const dim_t m = a[a.ndim() - 2], n = a[a.ndim() - 1];
  if (m >= 0 && n >= 0 && m > n) {
    MX_THROW(ValueError) << LaName(attrs) << ": input A " << a
                         << " must have no more rows than columns (LQ of a wide matrix)";
  }
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, a);
  SHAPE_ASSIGN_CHECK(*out_attrs, 1, LaReplaceTail(a, 2, {m, m}));
  return shape_is_known(a);
}

bool LaSyevdShape(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                  mxnet::ShapeVector* out_attrs) {
  const mxnet::TShape& a = (*in_attrs)[0];
  if (!ndim_is_known(a)) return false;
  LaCheckMatrices(attrs, "A", a, true);
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, a);
  SHAPE_ASSIGN_CHECK(*out_attrs, 1, LaReplaceTail(a, 2, {a[a.ndim() - 1]}));
  return shape_is_known(a);
}

/*! \brief Backward ops with one output shaped like input `kIdx`. */
template <int kIdx>
bool LaGradShapeLike(const nnvm::NodeAttrs& attrs, mxnet::ShapeVector* in_attrs,
                     mxnet::ShapeVector* out_attrs) {
  SHAPE_ASSIGN_CHECK(*out_attrs, 0, (*in_attrs)[kIdx]);
  return shape_is_known((*out_attrs)[0]);
}

nnvm::FGradient LaGradNode(const char* backward, std::vector<int> input_ids,
                           std::vector<int> output_ids) {
  return [backward, input_ids, output_ids](const nnvm::ObjectPtr& n,
                                           const std::vector<nnvm::NodeEntry>& ograds) {
    std::vector<nnvm::NodeEntry> heads(ograds.begin(), ograds.end());
    for (int i : input_ids) heads.push_back(n->inputs[i]);
    for (int i : output_ids) heads.emplace_back(n, i, 0);
    return MakeGradNode(backward, n, heads, n->attrs.dict);
  };
}

std::vector<ResourceRequest> LaTempSpace(const NodeAttrs&) {
  return {ResourceRequest::kTempSpace};
}

}  // namespace

// -------------------------------------------------------------------------- registrations

#define LA_REGISTER_BACKWARD(name, nin, fshape, fcompute, doc)                    \
  NNVM_REGISTER_OP(name)                                                          \
  .describe(doc)                                                                  \
  .set_num_inputs(nin)                                                            \
  .set_num_outputs(1)                                                             \
  .set_attr<nnvm::TIsBackward>("TIsBackward", true)                               \
  .set_attr<mxnet::FInferShape>("FInferShape", fshape)                            \
  .set_attr<nnvm::FInferType>("FInferType", LaType)                               \
  .set_attr<FResourceRequest>("FResourceRequest", LaTempSpace)                  \
  .set_attr<FCompute>("FCompute<cpu>", fcompute)

#define LA_UNARY_INPUT_NAMES                                                      \
  set_attr<nnvm::FListInputNames>("FListInputNames", [](const NodeAttrs& attrs) { \
    return std::vector<std::string>{"A"};                                         \
  })

NNVM_REGISTER_OP(_linalg_potrf)
.add_alias("linalg_potrf")
.describe(R"doc(Performs Cholesky factorization of a symmetric positive-definite matrix.
Input is a tensor *A* of dimension *n >= 2*.

If *n=2*, the Cholesky factor *B* of the symmetric, positive definite matrix *A* is
computed. *B* is triangular (entries of upper or lower triangle are all zero), has
positive diagonal entries, and:

  *A* = *B* \* *B*\ :sup:`T`  if *lower* = *true*

Only the lower triangle of *A* is read. The gradient is the one with respect to a symmetric
*A* (it is symmetric).

If *n>2*, *potrf* is performed separately on the trailing two dimensions for all inputs
(batch mode).

.. note:: The operator supports float32 and float64 data types only.

Examples::

   A = [[4.0, 1.0], [1.0, 4.25]]
   potrf(A) = [[2.0, 0], [0.5, 2.0]]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.LA_UNARY_INPUT_NAMES
.set_attr<mxnet::FInferShape>("FInferShape", LaSquareShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FResourceRequest>("FResourceRequest", LaTempSpace)
.set_attr<FCompute>("FCompute<cpu>", LaPotrfForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient", LaGradNode("_backward_linalg_potrf", {}, {0}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of input matrices to be decomposed");

LA_REGISTER_BACKWARD(_backward_linalg_potrf, 2, LaGradShapeLike<1>, LaPotrfBackward<cpu>,
                     "Backward of linalg_potrf: (out_grad, L) -> A_grad.");

NNVM_REGISTER_OP(_linalg_potri)
.add_alias("linalg_potri")
.describe(R"doc(Performs matrix inversion from a Cholesky factorization.
Input is a tensor *A* of dimension *n >= 2*.

If *n=2*, *A* is a triangular matrix (entries of upper or lower triangle are all zero)
with positive diagonal. We compute:

  *out* = *A*\ :sup:`-T` \* *A*\ :sup:`-1` if *lower* = *true*

In other words, if *A* is the Cholesky factor of a symmetric positive definite matrix
*B* (obtained by *potrf*), then

  *out* = *B*\ :sup:`-1`

Only the lower triangle of *A* is read (and receives gradient).

If *n>2*, *potri* is performed separately on the trailing two dimensions for all inputs
(batch mode).

.. note:: The operator supports float32 and float64 data types only.

Examples::

   A = [[2.0, 0], [0.5, 2.0]]
   potri(A) = [[0.26563, -0.0625], [-0.0625, 0.25]]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.LA_UNARY_INPUT_NAMES
.set_attr<mxnet::FInferShape>("FInferShape", LaSquareShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FResourceRequest>("FResourceRequest", LaTempSpace)
.set_attr<FCompute>("FCompute<cpu>", LaPotriForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient", LaGradNode("_backward_linalg_potri", {0}, {0}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of lower triangular matrices");

LA_REGISTER_BACKWARD(_backward_linalg_potri, 3, LaGradShapeLike<1>, LaPotriBackward<cpu>,
                     "Backward of linalg_potri: (out_grad, A, out) -> A_grad.");

NNVM_REGISTER_OP(_linalg_sumlogdiag)
.add_alias("linalg_sumlogdiag")
.describe(R"doc(Computes the sum of the logarithms of the diagonal elements of a square matrix.
Input is a tensor *A* of dimension *n >= 2*.

If *n=2*, *A* must be square with positive diagonal entries. We sum the natural
logarithms of the diagonal elements, the result has shape (1,).

If *n>2*, *sumlogdiag* is performed separately on the trailing two dimensions for all
inputs (batch mode).

.. note:: The operator supports float32 and float64 data types only.

Examples::

   A = [[1.0, 1.0], [1.0, 7.0]]
   sumlogdiag(A) = [1.9459]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.LA_UNARY_INPUT_NAMES
.set_attr<mxnet::FInferShape>("FInferShape", LaScalarPerMatrixShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FCompute>("FCompute<cpu>", LaSumlogdiagCompute<cpu>)
.set_attr<nnvm::FGradient>("FGradient", LaGradNode("_backward_linalg_sumlogdiag", {0}, {}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of square matrices");

LA_REGISTER_BACKWARD(_backward_linalg_sumlogdiag, 2, LaGradShapeLike<1>,
                     LaSumlogdiagGradCompute<cpu>, "Backward of linalg_sumlogdiag: (out_grad, A) -> A_grad.");

NNVM_REGISTER_OP(_linalg_gelqf)
.add_alias("linalg_gelqf")
.describe(R"doc(LQ factorization for general matrix.
Input is a tensor *A* of dimension *n >= 2*.

If *n=2*, we compute the LQ factorization (LAPACK *gelqf*, followed by *orglq*). *A*
must have shape *(x, y)* with *x <= y*, and must have full rank *=x*. The LQ
factorization consists of *L* with shape *(x, x)* and *Q* with shape *(x, y)*, so
that:

   *A* = *L* \* *Q*

Here, *L* is lower triangular (upper triangle equal to zero) with nonzero diagonal,
and *Q* is row-orthonormal, meaning that

   *Q* \* *Q*\ :sup:`T`

is equal to the identity matrix of shape *(x, x)*.

If *n>2*, *gelqf* is performed separately on the trailing two dimensions for all
inputs (batch mode).

.. note:: The operator supports float32 and float64 data types only.

Examples::

   A = [[1., 2., 3.], [4., 5., 6.]]
   Q, L = gelqf(A)
   Q = [[-0.26726124, -0.53452248, -0.80178373],
        [0.87287156, 0.21821789, -0.43643578]]
   L = [[-3.74165739, 0.],
        [-8.55235974, 1.96396101]]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(2)
.LA_UNARY_INPUT_NAMES
.set_attr<mxnet::FInferShape>("FInferShape", LaGelqfShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FResourceRequest>("FResourceRequest", LaTempSpace)
.set_attr<FCompute>("FCompute<cpu>", LaGelqfForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient", LaGradNode("_backward_linalg_gelqf", {}, {0, 1}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of input matrices to be factorized");

LA_REGISTER_BACKWARD(_backward_linalg_gelqf, 4, LaGradShapeLike<2>, LaGelqfBackward<cpu>,
                     "Backward of linalg_gelqf: (Q_grad, L_grad, Q, L) -> A_grad.");

NNVM_REGISTER_OP(_linalg_syevd)
.add_alias("linalg_syevd")
.describe(R"doc(Eigendecomposition for symmetric matrix.
Input is a tensor *A* of dimension *n >= 2*.

If *n=2*, *A* must be symmetric, of shape *(x, x)*. We compute the eigendecomposition,
resulting in the orthonormal matrix *U* of eigenvectors, shape *(x, x)*, and the
vector *L* of eigenvalues, shape *(x,)*, so that:

   *U* \* *A* = *diag(L)* \* *U*

Here:

   *U* \* *U*\ :sup:`T` = *U*\ :sup:`T` \* *U* = *I*

where *I* is the identity matrix. Also, *L(0) <= L(1) <= L(2) <= ...* (ascending order).
Only the lower triangle of *A* is read; each row of *U* is signed so that its entry of largest
magnitude is positive.

If *n>2*, *syevd* is performed separately on the trailing two dimensions of *A* (batch
mode). In this case, *U* has *n* dimensions like *A*, and *L* has *n-1* dimensions.

.. note:: The operator supports float32 and float64 data types only.

.. note:: Derivatives for this operator are defined only if *A* is such that all its
          eigenvalues are distinct, and the eigengaps are not too small. If you need
          gradients, do not apply this operator to matrices with multiple eigenvalues.

Examples::

   A = [[1., 2.], [2., 4.]]
   U, L = syevd(A)
   U = [[0.89442719, -0.4472136],
        [0.4472136, 0.89442719]]
   L = [0., 5.]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(2)
.LA_UNARY_INPUT_NAMES
.set_attr<mxnet::FInferShape>("FInferShape", LaSyevdShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FResourceRequest>("FResourceRequest", LaTempSpace)
.set_attr<FCompute>("FCompute<cpu>", LaSyevdForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient", LaGradNode("_backward_linalg_syevd", {}, {0, 1}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of input matrices to be factorized");

LA_REGISTER_BACKWARD(_backward_linalg_syevd, 4, LaGradShapeLike<2>, LaSyevdBackward<cpu>,
                     "Backward of linalg_syevd: (U_grad, L_grad, U, L) -> A_grad.");

NNVM_REGISTER_OP(_linalg_inverse)
.add_alias("linalg_inverse")
.describe(R"doc(Compute the inverse of a matrix.
Input is a tensor *A* of dimension *n >= 2*.

If *n=2*, *A* is a square matrix. We compute:

  *out* = *A*\ :sup:`-1`

If *n>2*, *inverse* is performed separately on the trailing two dimensions
for all inputs (batch mode). A singular matrix is an error.

.. note:: The operator supports float32 and float64 data types only.

Examples::

   A = [[1., 4.], [2., 3.]]
   inverse(A) = [[-0.6, 0.8], [0.4, -0.2]]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.LA_UNARY_INPUT_NAMES
.set_attr<mxnet::FInferShape>("FInferShape", LaSquareShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FResourceRequest>("FResourceRequest", LaTempSpace)
.set_attr<FCompute>("FCompute<cpu>", LaInverseForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient", LaGradNode("_backward_linalg_inverse", {}, {0}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of square matrix");

LA_REGISTER_BACKWARD(_backward_linalg_inverse, 2, LaGradShapeLike<1>, LaInverseBackward<cpu>,
                     "Backward of linalg_inverse: (out_grad, out) -> A_grad.");

NNVM_REGISTER_OP(_linalg_det)
.add_alias("linalg_det")
.describe(R"doc(Compute the determinant of a matrix.
Input is a tensor *A* of dimension *n >= 2*.

If *n=2*, *A* is a square matrix. We compute:

  *out* = *det(A)*

If *n>2*, *det* is performed separately on the trailing two dimensions
for all inputs (batch mode).

.. note:: The operator supports float32 and float64 data types only.
.. note:: There is no gradient backwarded when A is non-invertible.

Examples::

   A = [[1., 4.], [2., 3.]]
   det(A) = [-5.]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(1)
.LA_UNARY_INPUT_NAMES
.set_attr<mxnet::FInferShape>("FInferShape", LaScalarPerMatrixShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FResourceRequest>("FResourceRequest", LaTempSpace)
.set_attr<FCompute>("FCompute<cpu>", LaDetForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient", LaGradNode("_backward_linalg_det", {0}, {0}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of square matrix");

LA_REGISTER_BACKWARD(_backward_linalg_det, 3, LaGradShapeLike<1>, (LaDetBackward<cpu, false>),
                     "Backward of linalg_det: (out_grad, A, det) -> A_grad.");

NNVM_REGISTER_OP(_linalg_slogdet)
.add_alias("linalg_slogdet")
.describe(R"doc(Compute the sign and log of the determinant of a matrix.
Input is a tensor *A* of dimension *n >= 2*.

If *n=2*, *A* is a square matrix. We compute:

  *sign* = *sign(det(A))*
  *logabsdet* = *log(abs(det(A)))*

If *n>2*, *slogdet* is performed separately on the trailing two dimensions
for all inputs (batch mode).

.. note:: The operator supports float32 and float64 data types only.
.. note:: The gradient is not properly defined on sign, so the gradient of
          it is not backwarded.
.. note:: No gradient is backwarded when A is non-invertible.

Examples::

   A = [[2., 3.], [1., 4.]]
   sign, logabsdet = slogdet(A)
   sign = [1.]
   logabsdet = [1.609438]
)doc" ADD_FILELINE)
.set_num_inputs(1)
.set_num_outputs(2)
.LA_UNARY_INPUT_NAMES
.set_attr<mxnet::FInferShape>("FInferShape", LaScalarPerMatrixShape)
.set_attr<nnvm::FInferType>("FInferType", LaType)
.set_attr<FResourceRequest>("FResourceRequest", LaTempSpace)
.set_attr<FCompute>("FCompute<cpu>", LaDetForward<cpu>)
.set_attr<nnvm::FGradient>("FGradient", LaGradNode("_backward_linalg_slogdet", {0}, {}))
.add_argument("A", "NDArray-or-Symbol", "Tensor of square matrix");

LA_REGISTER_BACKWARD(_backward_linalg_slogdet, 3, LaGradShapeLike<2>, (LaDetBackward<cpu, true>),
                     "Backward of linalg_slogdet: (sign_grad, logabsdet_grad, A) -> A_grad.");

}  // namespace op
}  // namespace mxnet
