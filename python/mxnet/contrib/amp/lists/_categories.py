"""Shared classification of this build's operators for AMP (see symbol_fp16 / symbol_bf16)."""
from ....base import list_op_names

# Numerically sensitive operators: reductions, exponentials and logarithms, normalisations,
# softmax and losses, linear algebra. They run in float32.
_FP32_CANDIDATES = [
    'arccos', 'arcsin', 'cosh', 'sinh', 'tan', 'arctanh', 'erfinv', 'exp', 'expm1', 'log',
    'log10', 'log2', 'log1p', 'reciprocal', 'rsqrt', 'rcbrt', 'gamma', 'gammaln',
    'broadcast_power', '_power', '_Power', '_power_scalar', '_PowerScalar', '_rpower_scalar',
    '_RPowerScalar', 'norm', 'L2Normalization', 'LRN', 'InstanceNorm', 'LayerNorm', 'GroupNorm',
    'softmax', 'log_softmax', 'softmin', 'Softmax', 'SoftmaxActivation',
    'softmax_cross_entropy', 'CTCLoss', 'ctc_loss', '_contrib_CTCLoss', '_contrib_ctc_loss',
    'MakeLoss', 'make_loss', 'smooth_l1', 'sum', 'sum_axis', 'mean', 'prod', 'nansum',
    'nanprod', 'cumsum', 'moments', 'topk', 'sort', 'argsort', '_np_sum', '_npi_mean',
    '_np_prod', '_np_product', '_np_cumsum', 'Correlation', 'BilinearSampler', 'GridGenerator',
    'SpatialTransformer', 'IdentityAttachKLSparseReg', 'SVMOutput',
    'linalg_det', 'linalg_extractdiag', 'linalg_extracttrian', 'linalg_gelqf', 'linalg_gemm',
    'linalg_gemm2', 'linalg_inverse', 'linalg_makediag', 'linalg_maketrian', 'linalg_potrf',
    'linalg_potri', 'linalg_slogdet', 'linalg_sumlogdiag', 'linalg_syevd', 'linalg_syrk',
    'linalg_trmm', 'linalg_trsm', '_linalg_det', '_linalg_extractdiag',
    '_linalg_extracttrian', '_linalg_gelqf', '_linalg_gemm', '_linalg_gemm2',
    '_linalg_inverse', '_linalg_makediag', '_linalg_maketrian', '_linalg_potrf',
    '_linalg_potri', '_linalg_slogdet', '_linalg_sumlogdiag', '_linalg_syevd', '_linalg_syrk',
    '_linalg_trmm', '_linalg_trsm']

# Operators with several floating inputs that must share one type: their inputs are cast
# to the widest type among them.
_WIDEST_CANDIDATES = [
    '_Plus', '_plus', '_Minus', '_minus', '_sub', '_add', '_Mul', '_mul', '_Div', '_div',
    '_grad_add', '_Maximum', '_maximum', '_Minimum', '_minimum', '_Hypot', '_hypot', '_Mod',
    '_mod', '_Equal', '_equal', '_Not_Equal', '_not_equal', '_Greater', '_greater',
    '_Greater_Equal', '_greater_equal', '_Lesser', '_lesser', '_Lesser_Equal',
    '_lesser_equal', '_Logical_And', '_logical_and', '_Logical_Or', '_logical_or',
    '_Logical_Xor', '_logical_xor', 'broadcast_add', 'broadcast_plus', 'broadcast_sub',
    'broadcast_minus', 'broadcast_mul', 'broadcast_div', 'broadcast_mod', 'broadcast_maximum',
    'broadcast_minimum', 'broadcast_hypot', 'broadcast_equal', 'broadcast_not_equal',
    'broadcast_greater', 'broadcast_greater_equal', 'broadcast_lesser',
    'broadcast_lesser_equal', 'broadcast_logical_and', 'broadcast_logical_or',
    'broadcast_logical_xor', 'elemwise_add', 'elemwise_sub', 'elemwise_mul', 'elemwise_div',
    'add_n', 'ElementWiseSum', 'Concat', 'concat', 'stack', 'where', 'dot', 'batch_dot',
    'khatri_rao', '_npi_add', '_npi_subtract', '_npi_multiply', '_npi_true_divide',
    '_npi_maximum', '_npi_minimum', '_npi_hypot', '_npi_mod', '_npi_power',
    '_npi_concatenate', '_npi_stack']

LOSS_OUTPUT_FUNCTIONS = ['SoftmaxOutput', 'LinearRegressionOutput', 'LogisticRegressionOutput',
                         'MAERegressionOutput']

CONDITIONAL_FP32_FUNCS = [('Activation', 'act_type', ['softrelu']),
                          ('LeakyReLU', 'act_type', ['elu', 'selu'])]

_NOT_CAST = ('amp_cast', 'amp_multicast', 'Cast', 'cast', '_npi_cast', '_npx_cast',
             'BlockGrad', 'stop_gradient', '_copy', '_copyto', 'Custom', '_CachedOp',
             '_CustomFunction')


def _forward_ops():
    return [name for name in list_op_names()
            if not name.startswith(('_backward', '_contrib_backward'))
            and 'backward' not in name]


def present(names):
    """The names among `names` that this build registers."""
    known = set(list_op_names())
    return [n for n in names if n in known]


def classify(low_precision_ops, extra_fp32=()):
    """(fp32 ops, widest-cast ops, ops that run in either precision) for the given list of
    operators run in low precision."""
    fp32 = present(_FP32_CANDIDATES + list(extra_fp32))
    widest = present(_WIDEST_CANDIDATES)
    taken = set(low_precision_ops) | set(fp32) | set(widest) | set(LOSS_OUTPUT_FUNCTIONS) | \
        {op for op, _, _ in CONDITIONAL_FP32_FUNCS} | set(_NOT_CAST)
    either = sorted(op for op in _forward_ops() if op not in taken)
    return fp32, widest, either
