"""bfloat16 AMP lists (as symbol_fp16, for bfloat16): BF16_FUNCS run in bfloat16,
BF16_FP32_FUNCS in the type of their inputs, FP32_FUNCS in float32; BF16_USE_FP32_PARAMS
names the parameters of operators that stay float32 when their data is bfloat16."""
from ._categories import classify, present, LOSS_OUTPUT_FUNCTIONS, CONDITIONAL_FP32_FUNCS

__all__ = ['BF16_FUNCS', 'BF16_FP32_FUNCS', 'FP32_FUNCS', 'CONDITIONAL_FP32_FUNCS',
           'WIDEST_TYPE_CASTS', 'LOSS_OUTPUT_FUNCTIONS', 'BF16_USE_FP32_PARAMS']

BF16_FUNCS = present(['Convolution', 'FullyConnected'])

FP32_FUNCS, WIDEST_TYPE_CASTS, BF16_FP32_FUNCS = classify(
    BF16_FUNCS, extra_fp32=['Deconvolution', 'RNN'])
LOSS_OUTPUT_FUNCTIONS = list(LOSS_OUTPUT_FUNCTIONS)
CONDITIONAL_FP32_FUNCS = list(CONDITIONAL_FP32_FUNCS)

# Normalisation statistics and affine parameters stay float32 with bfloat16 data.
BF16_USE_FP32_PARAMS = {op: ['gamma', 'beta', 'moving_mean', 'moving_var']
                        for op in present(['BatchNorm', '_contrib_BatchNormWithReLU'])}
