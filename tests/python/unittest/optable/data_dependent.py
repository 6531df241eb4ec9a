"""Op table: operators whose output shape depends on the input values
(src/operator/numpy/np_data_dependent_ops.cc). The generic table also binds every op in a
Symbol executor, which cannot plan such shapes (as in MXNet 1.9.1), so they are exempt here and
tested imperatively and in hybridized blocks, against NumPy and 1.9.1, in
test_data_dependent_ops.py."""

_REASON = ("output shape depends on the values: no bound-executor run; tested in "
           "test_data_dependent_ops.py against NumPy and MXNet 1.9.1")

EXEMPT = {
    "_npi_unique": _REASON,
    "_npx_nonzero": _REASON,
    "_npi_bincount": _REASON,
    "_npi_share_memory": "compares the memory of its two inputs, which random arrays never "
                         "share; tested with views in test_data_dependent_ops.py",
}
