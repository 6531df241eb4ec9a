/*!
 * \file rnn_fast.h
 * \brief Vectorized float32 gate kernels of the fused RNN operator (rnn-inl.h): the LSTM and GRU
 *        element-wise step math of one batch row, forward and backward.
 *
 * The plain loops in rnn-inl.h call std::exp / std::tanh once per element, which is scalar
 * libm code and cost about a fifth of an LSTM training step. These kernels compute sigmoid and
 * tanh with a branch-free polynomial exp (relative error ~2e-7) that the compiler vectorizes,
 * built twice (baseline SSE2 and AVX2+FMA, chosen at run time). They implement exactly the
 * formulas of the plain loops, which stay the fallback for float64, LSTM state clipping and
 * MXNET_RNN_FAST=0, and the oracle of the tests.
 */
#ifndef MXNET_OPERATOR_NN_RNN_FAST_H_
#define MXNET_OPERATOR_NN_RNN_FAST_H_

#include <mxnet/base.h>

namespace mxnet {
namespace op {
namespace rnn_fast {

/*! \brief Whether the fast kernels are on (MXNET_RNN_FAST, default 1; read at every call). */
bool Enabled();

/*!
 * \brief LSTM forward of one row. g: (4H) input projections (+ biases), replaced by the
 *        activated gates i f g o; hr: (4H) h_{t-1} W_h2h^T; cprev: (H);
 *        writes craw = f*cprev + i*g and y = o * tanh(craw).
 */
void LstmForwardRow(index_t H, float* g, const float* hr, const float* cprev, float* craw,
                    float* y);

/*!
 * \brief GRU forward of one row. g: (3H) input projections (+ biases; b_hn excluded), replaced
 *        by r z n; hr: (3H) h_{t-1} W_h2h^T; bhn: (H) b_hn; hp: (H) h_{t-1};
 *        writes hn = hr_n + b_hn and y = (1-z)*n + z*hp.
 */
void GruForwardRow(index_t H, float* g, const float* hr, const float* bhn, const float* hp,
                   float* hn, float* y);

/*!
 * \brief LSTM backward of one row. g: activated gates; craw: c_t; cprev: c_{t-1}; dy: output
 *        gradient; dh: carried dL/dh; dc: carried dL/dc, updated to dL/dc_{t-1};
 *        writes the gate gradients dg (4H).
 */
void LstmBackwardRow(index_t H, const float* g, const float* craw, const float* cprev,
                     const float* dy, const float* dh, float* dc, float* dg);

/*!
 * \brief GRU backward of one row. g: r z n; hn: W_hn h_{t-1} + b_hn; hp: h_{t-1}; dy, dh as
 *        for LSTM; writes dgi (3H, input side), dgh (3H, recurrent side) and dhz = dL/dh * z.
 */
void GruBackwardRow(index_t H, const float* g, const float* hn, const float* hp, const float* dy,
                    const float* dh, float* dgi, float* dgh, float* dhz);

// ---- GEMM with a weight matrix packed once per call, for the per-step recurrent products
// (the same h2h weight times 35 different h_{t-1}: BLAS would repack it at every step).

/*! \brief Whether the packed GEMM below can run (AVX2 + FMA, and MXNET_RNN_FAST not 0). */
bool PackedGemmAvailable();

/*! \brief Floats needed to pack a (K, cols) right-hand matrix (cols rounded up to panels). */
index_t PackedSize(index_t K, index_t cols);

/*!
 * \brief Packs B (K, cols) for GemmPacked: with trans, B = src^T where src is (cols, K)
 *        row-major with row stride ld; else src is (K, cols) row-major with row stride ld.
 */
void PackB(const float* src, index_t ld, bool trans, index_t K, index_t cols, float* packed);

/*! \brief C(M, cols) = A(M, K) * B, B packed by PackB; row strides lda and ldc. */
void GemmPacked(index_t M, index_t cols, index_t K, const float* A, index_t lda,
                const float* packed, float* C, index_t ldc);

}  // namespace rnn_fast
}  // namespace op
}  // namespace mxnet

#endif  // MXNET_OPERATOR_NN_RNN_FAST_H_
