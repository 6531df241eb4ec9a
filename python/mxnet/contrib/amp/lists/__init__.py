"""The operator lists AMP casts by: symbol_fp16 (float16) and symbol_bf16 (bfloat16)."""
from . import symbol_fp16
from . import symbol_bf16
