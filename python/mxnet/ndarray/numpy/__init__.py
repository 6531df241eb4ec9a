"""mx.nd.numpy: the raw NumPy operators (`_np_*`, `_npi_*`, `_npx_*`) as functions in
`_internal` (classic NDArray in and out). mx.np builds the user-facing functions on them."""
from . import _internal  # noqa: F401
