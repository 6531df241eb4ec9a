"""Op table: operators created by autograd itself (no user-facing call to test)."""

ENTRIES = []

EXEMPT = {
    "_CustomFunction": "records an mx.autograd.Function call (made by MXCustomFunctionRecord, "
                       "not callable directly); tested in test_autograd.py",
}
