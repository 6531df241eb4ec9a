"""The dtypes and constants of mx.np (NumPy's own objects, as in MXNet 1.9.1)."""
# pylint: disable=invalid-name,redefined-builtin
import numpy as onp

__all__ = ['float16', 'float32', 'float64', 'uint8', 'int8', 'int32', 'int64', 'bool', 'bool_',
           'pi', 'inf', 'nan', 'PZERO', 'NZERO', 'NINF', 'PINF', 'NAN', 'NaN', 'e', 'newaxis',
           'finfo']

float16 = onp.float16
float32 = onp.float32
float64 = onp.float64
uint8 = onp.uint8
int8 = onp.int8
int32 = onp.int32
int64 = onp.int64
bool_ = onp.bool_
bool = bool
finfo = onp.finfo

pi = onp.pi
e = onp.e
inf = PINF = onp.inf
NINF = -onp.inf
nan = NAN = NaN = onp.nan
PZERO = 0.0
NZERO = -0.0
newaxis = None
