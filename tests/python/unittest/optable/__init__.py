"""The operator test table (STYLE.md §5): one entry per operator, driving the generic tests.

Each op family has a module here (elemwise.py, reduce.py, ...) defining ENTRIES, a list of
OpEntry. test_operator_table.py runs, for every entry, every dtype and every sample:
forward vs the NumPy reference; later (autograd/executor) numeric gradients and nd-vs-sym.
test_registry_audit.py checks that every registered operator has an entry or an exemption.

    OpEntry("broadcast_add", ref=np.add,
            samples=[Sample([(2, 3), (1, 3)]), Sample([(4, 1, 5), (4, 6, 5)])])
"""
import dataclasses
import importlib
import pkgutil
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

FLOATS = ("float32", "float64")
FLOATS_AND_HALF = ("float32", "float64", "float16")
INTS = ("int32", "int64", "int8", "uint8")
ALL_NUMERIC = FLOATS + INTS


@dataclasses.dataclass
class Sample:
    """One call: input shapes (or explicit arrays) and keyword arguments."""
    shapes: Sequence[Tuple[int, ...]] = ()
    kwargs: Dict[str, Any] = dataclasses.field(default_factory=dict)
    # Explicit inputs (numpy arrays) override random ones drawn for `shapes`.
    arrays: Optional[Callable[[np.random.RandomState, str], List[np.ndarray]]] = None


@dataclasses.dataclass
class OpEntry:
    """How to test one operator.

    name: the mx.nd function path, e.g. "broadcast_add", "contrib.allclose", "random.uniform".
    ref: NumPy reference, called as ref(*inputs, **kwargs) -> array or tuple of arrays; None for
         ops whose output is checked by `check` instead (random samplers).
    samples: the calls to make.
    dtypes: dtypes to draw inputs in (inputs are cast; outputs compared in float64).
    low/high: range of the random inputs (keep logs/sqrts positive etc.).
    check: optional custom checker check(outputs, inputs, kwargs, dtype) for non-deterministic ops.
    grad: whether numeric-gradient checks apply (differentiable w.r.t. float inputs).
    rtol/atol: tolerances per dtype family (float16 gets looser defaults).
    """
    name: str
    ref: Optional[Callable[..., Any]]
    samples: List[Sample]
    dtypes: Sequence[str] = FLOATS
    low: float = -2.0
    high: float = 2.0
    check: Optional[Callable[..., None]] = None
    grad: bool = True
    rtol: float = 1e-5
    atol: float = 1e-6
    # Registered op names this entry covers besides `name` (aliases, the canonical name).
    covers: Sequence[str] = ()


def draw_inputs(entry, sample, dtype, rng):
    """The input arrays of one call, as NumPy arrays of `dtype`."""
    if sample.arrays is not None:
        return sample.arrays(rng, dtype)
    out = []
    for shape in sample.shapes:
        if np.issubdtype(np.dtype(dtype), np.integer):
            lo = max(int(entry.low), np.iinfo(dtype).min)
            hi = min(int(entry.high), np.iinfo(dtype).max)
            if hi <= lo:
                hi = lo + 1
            out.append(rng.randint(lo, hi + 1, size=shape).astype(dtype))
        else:
            out.append(rng.uniform(entry.low, entry.high, size=shape).astype(dtype))
    return out


def all_entries():
    """Every OpEntry from every module of this package."""
    entries = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(__name__ + "." + info.name)
        entries.extend(getattr(module, "ENTRIES", []))
    return entries


def all_exemptions():
    """{op name: reason} for registered ops deliberately without a table entry."""
    exempt = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(__name__ + "." + info.name)
        exempt.update(getattr(module, "EXEMPT", {}))
    return exempt
