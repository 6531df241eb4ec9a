"""mx.name: NameManager and Prefix."""
import mxnet as mx


def test_name_manager_counts_per_hint():
    nm = mx.name.NameManager()
    assert nm.get(None, "fullyconnected") == "fullyconnected0"
    assert nm.get(None, "fullyconnected") == "fullyconnected1"
    assert nm.get(None, "conv") == "conv0"
    assert nm.get("given", "conv") == "given"


def test_with_scopes_and_prefix():
    outer = mx.name.NameManager.current
    with mx.name.Prefix("net_") as p:
        assert mx.name.NameManager.current is p
        assert p.get(None, "fc") == "net_fc0"
        assert p.get("out", "fc") == "net_out"
    assert mx.name.NameManager.current is outer
