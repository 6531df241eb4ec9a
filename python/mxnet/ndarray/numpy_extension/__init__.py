"""mx.nd.npx: the imperative MXNet-specific operators on mx.np arrays (what `F.npx` is in an
unhybridized HybridBlock under npx.set_np()); the same functions as mx.npx."""
from ...numpy_extension import _OPS
from ...numpy_extension import *  # noqa: F401,F403  pylint: disable=wildcard-import
from . import image, random  # noqa: F401

__all__ = [name for name, op in _OPS.items() if op is not None] + [
    'reshape', 'nonzero', 'constraint_check', 'image', 'random']
