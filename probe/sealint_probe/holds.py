"""What holds a growing value: the chain of references from its root (a local of the running
frame, a global) through the plan's attribute path, then down into the value to the newest
tensor that carries an autograd graph, e.g.

    self (Trainer, local of fit) -> .history (dict, 1 item) -> ['loss'] (list, 20 items)
        -> [19] (Tensor, grad_fn MseLossBackward0)

Like measure.py it never runs the user's code: types are read with type(), containers through
the built-in types' methods, attributes only along the plan's path (as lookup() already does),
dict keys shown only when they are strings or numbers. Bounded by MAX_ELEMENTS per container
and MAX_DEPTH levels below the variable.
"""
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
    """(label, element) pairs of a container, newest first where it has an order."""
    base = kind[0]
    if base is dict:
        items = list(dict.items(value))[-MAX_ELEMENTS:]
        return [(_key_text(key), element) for key, element in reversed(items)]
    if base in (list, tuple):
        length = base.__len__(value)
        start = max(0, length - MAX_ELEMENTS)
        return [("[%d]" % index, base.__getitem__(value, index))
                for index in range(length - 1, start - 1, -1)]
    # set, frozenset, deque: no index to show
    elements = list(kind[1](value))[-MAX_ELEMENTS:]
    return [("[...]", element) for element in reversed(elements)]


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


def chain(frame, path, measurer):
    """The links from the root of `path` in `frame` to the graph it keeps; None when the path
    cannot be read or keeps no graph."""
    parts = path.split(".")
    try:
        scope = frame.f_locals
        if parts[0] in scope:
            value, where = scope[parts[0]], "local of %s" % frame.f_code.co_name
        elif parts[0] in frame.f_globals:
            value, where = frame.f_globals[parts[0]], "global"
        else:
            return None
        links = [_link(parts[0], value, measurer, where)]
        for part in parts[1:]:
            value = getattr(value, part)  # the path lookup() reads at every sample already
            links.append(_link("." + part, value, measurer))
        below = _down(value, measurer, 0)
    except Exception:
        return None
    if below is None:
        return None
    return links + below
