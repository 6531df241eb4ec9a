"""Random number generation: seeding, and the samplers of `mx.nd.random`."""
import ctypes

from .base import _LIB, check_call, integer_types
from .context import Context
from .ndarray.random import *  # noqa: F401,F403
from .ndarray.random import __all__ as _nd_random_all

__all__ = ["seed"] + list(_nd_random_all)


def seed(seed_state, ctx="all"):
    """Seed the random number generators.

    ctx='all' (default) seeds every device's generators (MXRandomSeed); a Context seeds just
    that device's (MXRandomSeedContext). Results of random operators are reproducible for a
    given seed on the same device and thread count.

    >>> mx.random.seed(128)
    >>> mx.random.seed(128, ctx=mx.cpu())
    """
    if not isinstance(seed_state, integer_types):
        raise ValueError("seed_state must be int")
    seed_state = ctypes.c_int(int(seed_state))
    if ctx == "all":
        check_call(_LIB.MXRandomSeed(seed_state))
    else:
        ctx = Context(ctx)
        check_call(_LIB.MXRandomSeedContext(seed_state, ctypes.c_int(ctx.device_typeid),
                                            ctypes.c_int(ctx.device_id)))
