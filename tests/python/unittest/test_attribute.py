"""mx.attribute: AttrScope."""
import pytest

import mxnet as mx


def test_attr_scope_merges_and_nests():
    assert mx.AttrScope.current.get(None) == {}
    with mx.AttrScope(ctx_group="dev1", a="1"):
        assert mx.AttrScope.current.get({"b": "2"}) == {"ctx_group": "dev1", "a": "1", "b": "2"}
        with mx.AttrScope(a="3"):
            assert mx.AttrScope.current.get(None) == {"ctx_group": "dev1", "a": "3"}
        assert mx.AttrScope.current.get({"a": "x"})["a"] == "x"
    assert mx.AttrScope.current.get(None) == {}


def test_attr_values_must_be_strings():
    with pytest.raises(ValueError):
        mx.AttrScope(lr_mult=2)
