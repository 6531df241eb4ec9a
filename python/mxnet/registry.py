"""Name -> class registries shared by `mx.init`, `mx.optimizer` and `mx.metric`.

Each base class gets one registry keyed by lower-case name. `get_register_func` returns a class
decorator, `get_alias_func` a decorator adding extra names, and `get_create_func` a factory that
accepts an instance (returned unchanged), a registered name, or a JSON string
``'["name", {kwargs}]'`` as written by ``Initializer.dumps()``.
"""
import json
import warnings

_REGISTRY = {}


def get_registry(base_class):
    """Returns a copy of the name -> class map registered for `base_class`."""
    return dict(_REGISTRY.get(base_class, {}))


def get_register_func(base_class, nickname):
    """Returns a decorator registering subclasses of `base_class` under their lower-case name."""
    registry = _REGISTRY.setdefault(base_class, {})

    def register(klass, name=None):
        if not (isinstance(klass, type) and issubclass(klass, base_class)):
            raise TypeError("Can only register subclass of %s, got %s"
                            % (base_class.__name__, klass))
        key = (name or klass.__name__).lower()
        if key in registry and registry[key] is not klass:
            warnings.warn("New %s %s.%s registered with name %s is overriding existing %s %s.%s"
                          % (nickname, klass.__module__, klass.__name__, key, nickname,
                             registry[key].__module__, registry[key].__name__), stacklevel=2)
        registry[key] = klass
        return klass

    register.__doc__ = "Registers a %s class under its lower-case class name." % nickname
    return register


def get_alias_func(base_class, nickname):
    """Returns a decorator factory: ``@alias('a', 'b')`` registers a class under extra names."""
    register = get_register_func(base_class, nickname)

    def alias(*aliases):
        def reg(klass):
            for name in aliases:
                register(klass, name)
            return klass
        return reg

    alias.__doc__ = "Registers a %s class under additional names." % nickname
    return alias


def get_create_func(base_class, nickname):
    """Returns ``create(spec, *args, **kwargs)`` for the `base_class` registry."""
    registry = _REGISTRY.setdefault(base_class, {})

    def create(*args, **kwargs):
        if args:
            name, args = args[0], args[1:]
        else:
            name = kwargs.pop(nickname)
        if isinstance(name, base_class):
            if args or kwargs:
                raise ValueError("%s is already an instance; additional arguments are invalid"
                                 % nickname)
            return name
        if isinstance(name, dict):
            return create(**name)
        if not isinstance(name, str):
            raise TypeError("%s must be of string type, got %s" % (nickname, type(name)))
        if name.startswith("["):
            if args or kwargs:
                raise ValueError("a JSON %s spec takes no additional arguments" % nickname)
            name, kwargs = json.loads(name)
            return create(name, **kwargs)
        if name.startswith("{"):
            if args or kwargs:
                raise ValueError("a JSON %s spec takes no additional arguments" % nickname)
            return create(**json.loads(name))
        key = name.lower()
        if key not in registry:
            raise ValueError("Cannot find %s %s. Registered %ss: %s"
                             % (nickname, name, nickname, ", ".join(sorted(registry))))
        return registry[key](*args, **kwargs)

    create.__doc__ = "Creates a %s instance from an instance, a name or a JSON spec." % nickname
    return create
