"""mx.space: configuration spaces of operator schedules."""
from types import SimpleNamespace

import pytest

from mxnet import space


def test_config_space_counts_and_json():
    cfg = space.ConfigSpace({'tile_x': space.OtherOptionSpace([1, 2, 4]),
                             'unroll': space.OtherOptionSpace([True, False])},
                            {'tile_x': space.OtherOptionEntity(2)})
    assert len(cfg) == 6 and len(cfg.space_map['tile_x']) == 3
    spaces = space.ConfigSpaces()
    spaces['dot'] = cfg
    assert len(spaces) == 1 and spaces['dot'] is cfg
    assert spaces.to_json_dict() == {'dot': {'tile_x': {'entities': [1, 2, 4], 'chosen': 2},
                                             'unroll': {'entities': [True, False],
                                                        'chosen': None}}}
    assert 'tile_x' in repr(cfg) and 'len=6' in repr(cfg)


def test_from_tvm_objects():
    entity = SimpleNamespace(val=8)
    tvm_space = SimpleNamespace(entities=[SimpleNamespace(val=4), entity])
    cfg = space.ConfigSpace.from_tvm(SimpleNamespace(space_map={'k': tvm_space},
                                                     _entity_map={'k': entity}))
    assert [e.val for e in cfg.space_map['k'].entities] == [4, 8]
    assert cfg._entity_map['k'].val == 8


def test_invalid_choices():
    with pytest.raises(ValueError, match='not an option'):
        space.ConfigSpace({'k': space.OtherOptionSpace([1])}, {'k': space.OtherOptionEntity(3)})
    with pytest.raises(ValueError, match='no space'):
        space.ConfigSpace({}, {'k': space.OtherOptionEntity(3)})
    with pytest.raises(TypeError, match='ConfigSpace'):
        space.ConfigSpaces()['x'] = 3
