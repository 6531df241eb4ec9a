"""Configuration spaces of operator schedules (MXNet 1.x's `mx.space`, used with TVM-built
operators): the options each tunable knob can take and the option chosen for it.

    space = ConfigSpace({'tile_x': OtherOptionSpace([1, 2, 4])},
                        {'tile_x': OtherOptionEntity(2)})
    spaces = ConfigSpaces(); spaces['dot'] = space
    spaces.to_json_dict()   # {'dot': {'tile_x': {'entities': [1, 2, 4], 'chosen': 2}}}
"""
from collections import OrderedDict

__all__ = ["OtherOptionSpace", "OtherOptionEntity", "ConfigSpace", "ConfigSpaces"]


class OtherOptionEntity(object):
    """One option of a knob: a plain value."""

    def __init__(self, val):
        self.val = val

    @classmethod
    def from_tvm(cls, x):
        """From TVM's object of the same name (anything with `.val`)."""
        return cls(x.val)

    def __eq__(self, other):
        return isinstance(other, OtherOptionEntity) and self.val == other.val

    def __hash__(self):
        return hash(self.val)

    def __repr__(self):
        return str(self.val)


class OtherOptionSpace(object):
    """The options a knob can take."""

    def __init__(self, entities):
        self.entities = [e if isinstance(e, OtherOptionEntity) else OtherOptionEntity(e)
                         for e in entities]

    @classmethod
    def from_tvm(cls, x):
        """From TVM's object of the same name (anything with `.entities` of `.val`s)."""
        return cls([e.val for e in x.entities])

    def __len__(self):
        return len(self.entities)

    def __repr__(self):
        return "OtherOption(%s) len=%d" % (self.entities, len(self))


class ConfigSpace(object):
    """The knobs of one operator's schedule: `space_map` (knob -> OtherOptionSpace) and the
    chosen option of each (knob -> OtherOptionEntity)."""

    def __init__(self, space_map, _entity_map):
        self.space_map = OrderedDict(space_map)
        self._entity_map = OrderedDict(_entity_map)
        for name, entity in self._entity_map.items():
            if name not in self.space_map:
                raise ValueError("ConfigSpace: knob '%s' has a chosen option but no space"
                                 % name)
            if entity not in self.space_map[name].entities:
                raise ValueError("ConfigSpace: %r is not an option of knob '%s' (%r)"
                                 % (entity, name, self.space_map[name]))

    @classmethod
    def from_tvm(cls, x):
        """From TVM's ConfigSpace (its `space_map` and `_entity_map`)."""
        return cls(OrderedDict((k, OtherOptionSpace.from_tvm(v)) for k, v in x.space_map.items()),
                   OrderedDict((k, OtherOptionEntity.from_tvm(v))
                               for k, v in x._entity_map.items()))

    def __len__(self):
        """The number of configurations: the product of the knobs' option counts."""
        total = 1
        for space in self.space_map.values():
            total *= len(space)
        return total

    def __repr__(self):
        lines = ["ConfigSpace (len=%d)" % len(self)]
        for i, (name, space) in enumerate(self.space_map.items()):
            lines.append("  %2d %s: %s" % (i, name, space))
        return "\n".join(lines)

    def to_json_dict(self):
        """{knob: {'entities': [values], 'chosen': value or None}}."""
        return OrderedDict((name, {'entities': [e.val for e in space.entities],
                                   'chosen': (self._entity_map[name].val
                                              if name in self._entity_map else None)})
                           for name, space in self.space_map.items())


class ConfigSpaces(object):
    """The configuration spaces of several operators, by name."""

    def __init__(self):
        self.spaces = OrderedDict()

    def __setitem__(self, name, space):
        if not isinstance(space, ConfigSpace):
            raise TypeError("ConfigSpaces: '%s' must be a ConfigSpace, got %s"
                            % (name, type(space).__name__))
        self.spaces[name] = space

    def __getitem__(self, name):
        return self.spaces[name]

    def __len__(self):
        return len(self.spaces)

    def __repr__(self):
        return "ConfigSpaces (%d): %s" % (len(self), list(self.spaces))

    def to_json_dict(self):
        """{operator: its ConfigSpace.to_json_dict()}."""
        return OrderedDict((name, space.to_json_dict()) for name, space in self.spaces.items())
