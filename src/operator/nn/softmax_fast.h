/*!
 * \file softmax_fast.h
 * \brief The CPU's float32 softmax / log_softmax / softmin forward over contiguous rows, with a
 *        vectorized exp (fast_math-inl.h): the scalar libm exp of softmax-inl.h's row kernel
 *        made a (32, 1000) softmax 10x slower than MXNet 1.9.1's oneDNN one. softmax-inl.h's
 *        SoftmaxForwardRows takes it for float32 data and output, the softmax axis last,
 *        no length input and a written (not added) output; the row kernel does the rest.
 */
#ifndef MXNET_OPERATOR_NN_SOFTMAX_FAST_H_
#define MXNET_OPERATOR_NN_SOFTMAX_FAST_H_

#include <mxnet/base.h>

namespace mxnet {
namespace op {
namespace softmax_fast {

/*!
 * \brief For each of `rows` rows of n floats: z = scale * in (scale = +-1 / temperature),
 *        out = exp(z - max z) / sum exp(z - max z), or with `log` out = z - max z - log(sum).
 *        `out` may be `in`. Rows run in parallel when there are enough elements.
 */
void SoftmaxRows(const float* in, float* out, index_t rows, index_t n, float scale, bool log);

}  // namespace softmax_fast
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_SOFTMAX_FAST_H_
