"""float16 AMP lists: which operators run in float16 (FP16_FUNCS), in float32 (FP32_FUNCS,
and CONDITIONAL_FP32_FUNCS for some parameter values), in the type of their inputs
(FP16_FP32_FUNCS), with their inputs cast to the widest type among them (WIDEST_TYPE_CASTS),
and which are loss outputs (LOSS_OUTPUT_FUNCTIONS). The lists cover this build's operators."""
from ._categories import classify, present, LOSS_OUTPUT_FUNCTIONS, CONDITIONAL_FP32_FUNCS

__all__ = ['FP16_FUNCS', 'FP16_FP32_FUNCS', 'FP32_FUNCS', 'CONDITIONAL_FP32_FUNCS',
           'WIDEST_TYPE_CASTS', 'LOSS_OUTPUT_FUNCTIONS']

# Matrix products and convolutions: fast and accurate enough in float16.
FP16_FUNCS = present(['Convolution', 'Deconvolution', 'FullyConnected', 'RNN'])

FP32_FUNCS, WIDEST_TYPE_CASTS, FP16_FP32_FUNCS = classify(FP16_FUNCS)
LOSS_OUTPUT_FUNCTIONS = list(LOSS_OUTPUT_FUNCTIONS)
CONDITIONAL_FP32_FUNCS = list(CONDITIONAL_FP32_FUNCS)
