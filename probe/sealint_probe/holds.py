"""What holds a growing value: the chain of references from its root (a local of the running
frame, a global) through the plan's attribute path, then down into the value to the newest
tensor that carries an autograd graph, e.g.

    self (Trainer, local of fit) -> .history (dict, 1 item) -> ['loss'] (list, 20 items)
        -> [19] (Tensor, grad_fn MseLossBackward0)

Like measure.py it never runs the user's code: types are read with type(), containers through
the built-in types' methods, dict keys shown only when they are strings or numbers; the path's
values are the ones measure.lookup_path already read for the sample. Bounded by MAX_ELEMENTS per
container and MAX_DEPTH levels below the variable, and lazy: the walk stops at the first element,
newest first, that holds a graph.
"""
import collections
import itertools

from . import measure

MAX_DEPTH = 3
MAX_ELEMENTS = 10000


def _type_name(value):
    return type(value).__name__


def _link(name, value, measurer, where=None):
    link = {"name": name, "type": _type_name(value), "length": None, "grad_fn": None}
    if where is not None:
        link["where"] = where
    kind = measure._container_kind(value)
    if kind is not None:
        link["length"] = kind[0].__len__(value)
    elif measurer.is_tensor(value):
        link["grad_fn"] = _grad_fn_name(value, measurer)
    return link


def _grad_fn_name(tensor, measurer):
    try:
        node = measurer._grad_fn(tensor)
    except Exception:
        return None
    return type(node).__name__ if node is not None else None


def _key_text(key):
    if type(key) in (str, int, float, bool):
        return "[%r]" % (key,)
    return "[<%s>]" % _type_name(key)


def _elements(value, kind):
    """(label, element) pairs of a container, newest first where it has an order, at most
    MAX_ELEMENTS, made one at a time."""
    base = kind[0]
    if base is dict:
        pairs = ((_key_text(key), element) for key, element in reversed(dict.items(value)))
    elif base in (list, tuple):
        length = base.__len__(value)
        pairs = (("[%d]" % index, base.__getitem__(value, index))
                 for index in range(length - 1, -1, -1))
    elif base is collections.deque:
        pairs = (("[...]", element) for element in collections.deque.__reversed__(value))
    else:  # set, frozenset: no order, no index to show
        pairs = (("[...]", element) for element in kind[1](value))
    return itertools.islice(pairs, MAX_ELEMENTS)


def _down(value, measurer, depth):
    """Links from `value`'s elements down to a tensor with an autograd graph, or None."""
    if measurer.is_tensor(value):
        return [] if _grad_fn_name(value, measurer) is not None else None
    kind = measure._container_kind(value)
    if kind is None or depth >= MAX_DEPTH:
        return None
    for label, element in _elements(value, kind):
        below = _down(element, measurer, depth + 1)
        if below is not None:
            return [_link(label, element, measurer)] + below
    return None


def chain(path, values, where, function, measurer):
    """The links from the root of `path` to the graph it keeps; `values` and `where` are what
    measure.lookup_path read, `function` the running function's name. None when the path was not
    read whole or keeps no graph."""
    parts = path.split(".")
    if len(values) != len(parts):
        return None
    try:
        root = "local of %s" % function if where == "local" else where
        links = [_link(parts[0], values[0], measurer, root)]
        links.extend(_link("." + part, value, measurer) for part, value in zip(parts[1:], values[1:]))
        below = _down(values[-1], measurer, 0)
    except Exception:
        return None
    if below is None:
        return None
    return links + below
