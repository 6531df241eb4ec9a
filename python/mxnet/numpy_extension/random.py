"""mx.npx.random: seeding (npx.random.seed = mx.random.seed)."""
from ..numpy.random import seed

__all__ = ['seed']
