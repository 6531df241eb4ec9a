"""bfloat16 AMP lists, as MXNet 1.9.1 has them (checked against it by
tests/python/unittest/test_compat_amp_legacy_191.py): BF16_FUNCS run in bfloat16,
BF16_FP32_FUNCS in the type of their inputs, FP32_FUNCS in float32, WIDEST_TYPE_CASTS on the
widest type of their inputs; BF16_USE_FP32_PARAMS names, by input position, the inputs that
stay float32 when the data is bfloat16 ('' for the data itself). Operators in none of the
lists (the NumPy-interface ones, optimizer updates, ...) are left alone by convert_symbol."""
from ._categories import (present, the_rest, WIDEST_COMMON as _WIDEST_COMMON,
                          LOSS_OUTPUT_FUNCTIONS, CONDITIONAL_FP32_FUNCS)

__all__ = ['BF16_FUNCS', 'BF16_FP32_FUNCS', 'FP32_FUNCS', 'CONDITIONAL_FP32_FUNCS',
           'WIDEST_TYPE_CASTS', 'LOSS_OUTPUT_FUNCTIONS', 'BF16_USE_FP32_PARAMS']

BF16_FUNCS = present(['Convolution', 'FullyConnected'])

BF16_FP32_FUNCS = present(['BatchNorm', 'BatchNormWithReLU', 'Concat', 'LRN', 'Pooling', '_add',
                           '_shuffle', 'abs', 'clip', 'concat', 'relu', 'shuffle', 'sqrt',
                           'square', 'tanh'])

WIDEST_TYPE_CASTS = present(_WIDEST_COMMON + ['_contrib_MultiBoxDetection',
                                             '_contrib_MultiBoxPrior', '_contrib_MultiBoxTarget'])

LOSS_OUTPUT_FUNCTIONS = list(LOSS_OUTPUT_FUNCTIONS)
CONDITIONAL_FP32_FUNCS = list(CONDITIONAL_FP32_FUNCS)

# Every other classic operator runs in float32 (amp_cast, amp_multicast and the interleaved
# attention products, which the float16 list casts to the widest type, aside).
FP32_FUNCS = the_rest(BF16_FUNCS + BF16_FP32_FUNCS + WIDEST_TYPE_CASTS,
                      unlisted=['amp_cast', 'amp_multicast'] +
                      ['_contrib_interleaved_matmul_' + o for o in ('encdec_qk', 'encdec_valatt',
                                                                    'selfatt_qk',
                                                                    'selfatt_valatt')])

# (keyed like 1.9.1's, whether or not this build registers the name)
BF16_USE_FP32_PARAMS = {op: ['', 'gamma', 'beta', 'moving_mean', 'moving_var']
                        for op in ('BatchNormWithReLU', 'BatchNorm')}
