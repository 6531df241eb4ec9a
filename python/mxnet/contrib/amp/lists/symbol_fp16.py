"""float16 AMP lists, as MXNet 1.9.1 has them: which operators run in float16 (FP16_FUNCS), in
float32 (FP32_FUNCS, and CONDITIONAL_FP32_FUNCS for some parameter values), with their inputs
cast to the widest type among them (WIDEST_TYPE_CASTS), in the type of their inputs (every
other classic operator: FP16_FP32_FUNCS), and which are loss outputs (LOSS_OUTPUT_FUNCTIONS)."""
from ._categories import (present, the_rest, WIDEST_COMMON as _WIDEST_COMMON,
                          LOSS_OUTPUT_FUNCTIONS, CONDITIONAL_FP32_FUNCS)

__all__ = ['FP16_FUNCS', 'FP16_FP32_FUNCS', 'FP32_FUNCS', 'CONDITIONAL_FP32_FUNCS',
           'WIDEST_TYPE_CASTS', 'LOSS_OUTPUT_FUNCTIONS']

# Matrix products and convolutions: fast and accurate enough in float16.
FP16_FUNCS = present(['Convolution', 'Deconvolution', 'FullyConnected', 'RNN'])

_LINALG = ['det', 'extractdiag', 'extracttrian', 'gelqf', 'gemm', 'gemm2', 'inverse',
           'makediag', 'maketrian', 'potrf', 'potri', 'slogdet', 'sumlogdiag', 'syrk', 'trmm',
           'trsm']
_SPARSE_FP32 = ['LinearRegressionOutput', 'LogisticRegressionOutput', 'MAERegressionOutput',
                'arccos', 'arcsin', 'arctanh', 'cosh', 'exp', 'expm1', 'gamma', 'gammaln',
                'log', 'log10', 'log1p', 'log2', 'make_loss', 'mean', 'norm', 'rsqrt', 'square',
                'tan']
# Numerically sensitive operators: exponentials and logarithms, reductions, normalisations,
# softmax and losses, linear algebra.
FP32_FUNCS = present(
    ['CTCLoss', 'Convolution_v1', 'Custom', 'GroupNorm', 'IdentityAttachKLSparseReg',
     'InstanceNorm', 'L2Normalization', 'LRN', 'LayerNorm', 'MakeLoss', 'SVMOutput', 'Softmax',
     'SoftmaxActivation', '_Hypot', '_HypotScalar', '_NDArray', '_Native', '_Power',
     '_PowerScalar', '_RDivScalar', '_RPowerScalar', '_contrib_CTCLoss',
     '_contrib_DeformableConvolution', '_contrib_DeformablePSROIPooling',
     '_contrib_MultiBoxDetection', '_contrib_MultiBoxPrior', '_contrib_MultiBoxTarget',
     '_contrib_SyncBatchNorm', '_contrib_count_sketch', '_contrib_ctc_loss', '_contrib_fft',
     '_contrib_hawkesll', '_hypot', '_hypot_scalar', '_linalg_syevd', '_power',
     '_power_scalar', '_rdiv_scalar', '_rpower_scalar', '_square_sum', 'arccos', 'arcsin',
     'arctanh', 'argsort', 'broadcast_hypot', 'broadcast_power', 'cosh', 'ctc_loss', 'erfinv',
     'exp', 'expm1', 'gamma', 'gammaln', 'khatri_rao', 'log', 'log10', 'log1p', 'log2',
     'log_softmax', 'make_loss', 'mean', 'moments', 'nanprod', 'nansum', 'norm', 'prod',
     'rcbrt', 'reciprocal', 'rsqrt', 'sinh', 'smooth_l1', 'softmax', 'softmax_cross_entropy',
     'softmin', 'square', 'sum', 'sum_axis', 'tan', 'topk'] + LOSS_OUTPUT_FUNCTIONS +
    ['_linalg_' + o for o in _LINALG] + ['linalg_' + o for o in _LINALG] +
    ['_sparse_' + o for o in _SPARSE_FP32])

WIDEST_TYPE_CASTS = present(
    list(_WIDEST_COMMON) + ['Concat', 'concat', 'broadcast_mul'] +
    ['_contrib_interleaved_matmul_' + o for o in ('encdec_qk', 'encdec_valatt',
                                                  'selfatt_qk', 'selfatt_valatt')])

FP16_FP32_FUNCS = the_rest(FP16_FUNCS + FP32_FUNCS + WIDEST_TYPE_CASTS)
LOSS_OUTPUT_FUNCTIONS = list(LOSS_OUTPUT_FUNCTIONS)
CONDITIONAL_FP32_FUNCS = list(CONDITIONAL_FP32_FUNCS)
