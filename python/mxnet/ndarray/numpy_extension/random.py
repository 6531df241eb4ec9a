"""mx.nd.npx.random: bernoulli, normal_n and uniform_n (the functions of mx.npx.random)."""
from ...numpy_extension.random import bernoulli, normal_n, uniform_n  # noqa: F401

__all__ = ['bernoulli', 'normal_n', 'uniform_n']
