"""Measures one value (a tensor, a container of tensors) and the process's tensors, without running
the user's code.

Only `type()` and `issubclass` decide what a value is (isinstance and len can run user-defined
`__class__`, `__len__`, `__iter__`); containers are read through the built-in types' own methods;
tensor attributes are read through torch's C base class with `__torch_function__` switched off, so
a tensor subclass's Python overrides are not called either. Every walk is bounded.
"""
import collections
import gc
import itertools

MAX_NODES = 100000  # autograd nodes visited per measurement
MAX_ELEMENTS = 10000  # container elements looked at per measurement (one level of nesting)

# Built-in containers and how to iterate their elements without calling a subclass's overrides.
_CONTAINERS = (
    (list, list.__iter__),
    (tuple, tuple.__iter__),
    (dict, dict.values),
    (set, set.__iter__),
    (frozenset, frozenset.__iter__),
    (collections.deque, collections.deque.__iter__),
)

_NULL = {"graph_nodes": None, "tensor_bytes": None, "length": None, "requires_grad": None}


def null_sample():
    return dict(_NULL)


class _Nothing(object):
    """Stands in for DisableTorchFunction where torch lacks it."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Measurer(object):
    def __init__(self, torch):
        self._tensor = torch.Tensor
        base = getattr(torch._C, "TensorBase", None) or getattr(torch._C, "_TensorBase")
        self._grad_fn = base.grad_fn.__get__
        self._requires_grad = base.requires_grad.__get__
        # torch 2.x: untyped_storage(); torch 1.13: _storage() (storage() is Python and, in 2.x,
        # warns that TypedStorage is deprecated).
        self._storage = getattr(base, "untyped_storage", None) or getattr(base, "_storage")
        self._numel = base.numel
        self._element_size = base.element_size
        self._no_torch_function = getattr(torch._C, "DisableTorchFunction", _Nothing)

    def quiet(self):
        """Context for a whole sample: tensor subclasses' __torch_function__ is not called."""
        return self._no_torch_function()

    def is_tensor(self, value):
        return issubclass(type(value), self._tensor)

    def requires_grad(self, tensor):
        return bool(self._requires_grad(tensor))

    def storage_bytes(self, tensor, seen):
        """Bytes of the tensor's storage, 0 when its storage is in `seen` (which it joins)."""
        return self._storage_bytes(tensor, seen)

    def _storage_bytes(self, tensor, seen):
        """Bytes of the tensor's storage, 0 when that storage was already counted."""
        try:
            storage = self._storage(tensor)
            key = storage.data_ptr()
            size = storage.nbytes()
        except Exception:  # sparse, meta, nested, wrapper subclasses: no plain storage
            try:
                return self._numel(tensor) * self._element_size(tensor)
            except Exception:
                return 0
        if key == 0:
            return size  # no allocation to share (empty), or an allocator we cannot key
        if key in seen:
            return 0
        seen.add(key)
        return size

    def _graph(self, tensor, visited):
        """Adds the autograd nodes reachable from the tensor's grad_fn to `visited` (bounded)."""
        try:
            node = self._grad_fn(tensor)
        except Exception:
            return
        if node is None or node in visited:
            return
        visited.add(node)
        pending = [node]
        while pending and len(visited) < MAX_NODES:
            node = pending.pop()
            try:
                edges = node.next_functions
            except Exception:
                continue
            for edge in edges:
                child = edge[0]
                if child is not None and child not in visited:
                    visited.add(child)
                    pending.append(child)

    def _tensors_in(self, value, container_iter, budget):
        """Yields the tensors a container holds, and those of containers it holds (one level)."""
        for element in container_iter(value):
            budget[0] -= 1
            if budget[0] < 0:
                return
            if self.is_tensor(element):
                yield element
                continue
            inner = _container_iter(element)
            if inner is None:
                continue
            for nested in inner(element):
                budget[0] -= 1
                if budget[0] < 0:
                    return
                if self.is_tensor(nested):
                    yield nested

    def value(self, value):
        """The sample of one variable: {graph_nodes, tensor_bytes, length, requires_grad}."""
        sample = null_sample()
        if self.is_tensor(value):
            visited = set()
            self._graph(value, visited)
            sample["graph_nodes"] = len(visited)
            sample["tensor_bytes"] = self._storage_bytes(value, set())
            try:
                sample["requires_grad"] = bool(self._requires_grad(value))
            except Exception:
                pass
            return sample
        kind = _container_kind(value)
        if kind is None:
            return sample  # numbers, strings, None, modules, user objects: nothing to measure
        base, iterate = kind
        sample["length"] = base.__len__(value)
        visited, seen, count, grad = set(), set(), 0, False
        total = 0
        for tensor in self._tensors_in(value, iterate, [MAX_ELEMENTS]):
            count += 1
            total += self._storage_bytes(tensor, seen)
            if len(visited) < MAX_NODES:
                self._graph(tensor, visited)
            try:
                grad = grad or bool(self._requires_grad(tensor))
            except Exception:
                pass
        sample["graph_nodes"] = len(visited)
        sample["tensor_bytes"] = total
        sample["requires_grad"] = grad if count else None
        return sample

    def live_tensor_bytes(self):
        """Bytes of the distinct storages of every tensor object alive (a gc scan, 10-25 ms).
        Tensors kept only by C++ (an autograd graph's saved tensors) are not Python objects and are
        not counted: graph_nodes and rss_bytes show those."""
        seen = set()
        total = 0
        objects = gc.get_objects()
        try:
            # The per-object test runs in C (map/compress over a set of tensor types): a Python
            # loop over the ~100k objects of a torch process costs a third more.
            kinds = set(map(type, objects))
            tensor_kinds = frozenset(kind for kind in kinds if issubclass(kind, self._tensor))
            for obj in itertools.compress(objects, map(tensor_kinds.__contains__,
                                                       map(type, objects))):
                total += self._storage_bytes(obj, seen)
        finally:
            del objects
        return total


def _container_kind(value):
    """(the built-in container class, its iteration function) for a container, else None."""
    cls = type(value)
    for base, iterate in _CONTAINERS:
        if issubclass(cls, base):
            return base, iterate
    return None


def _container_iter(value):
    kind = _container_kind(value)
    return kind[1] if kind is not None else None


def rss_bytes():
    """Resident set size from /proc (Linux); None elsewhere. Grows with what gc cannot see."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            fields = handle.read().split()
        import resource  # lazily: absent on Windows

        return int(fields[1]) * resource.getpagesize()
    except Exception:
        return None


_MISSING = object()


def lookup_path(frame, path):
    """The values along `name.attr...` in the frame, root first: a local, else a global (builtins
    are not variables). Returns (values, where, error): `values` stops short when a name or an
    attribute is missing; `where` is "local" or "global"; error is a string when an attribute could
    not be read for another reason than its absence."""
    parts = path.split(".")
    try:
        scope = frame.f_locals  # 3.13: a write-through proxy; reading it is fine
        if parts[0] in scope:
            # At a module's top level the frame's locals are its globals.
            where = "global" if scope is frame.f_globals else "local"
            values = [scope[parts[0]]]
        elif parts[0] in frame.f_globals:
            values, where = [frame.f_globals[parts[0]]], "global"
        else:
            return [], None, None
    except Exception as error:
        return [], None, "cannot read `%s`: %s: %s" % (parts[0], type(error).__name__, error)
    for part in parts[1:]:
        try:
            values.append(getattr(values[-1], part))  # may run a property; contained
        except AttributeError:
            return values, where, None
        except Exception as error:
            return values, where, "cannot read `%s`: %s: %s" % (path, type(error).__name__,
                                                                  _short(error))
    return values, where, None


def lookup(frame, path):
    """The value at `name.attr...` in the frame (see lookup_path). Returns (value, error): value is
    _MISSING when unbound."""
    values, _, error = lookup_path(frame, path)
    if len(values) != path.count(".") + 1:
        return _MISSING, error
    return values[-1], error


def _short(error, limit=200):
    try:
        text = str(error)
    except Exception:
        text = "?"
    return text if len(text) <= limit else text[:limit] + "..."


MISSING = _MISSING


# Objects whose len() is theirs to give without running the script's code: the built-in
# containers and range (exactly these types: a subclass may define its own __len__), and torch's
# own classes. A DataLoader's len() is its batches per epoch; over a map-style dataset it asks the
# dataset's __len__, as iterating the loader does anyway, so it is read only for those.
_SIZED_BUILTINS = (list, tuple, dict, set, frozenset, range, str, bytes)


def _iterable_dataset(value):
    dataset = getattr(value, "dataset", None)
    for kind in type(dataset).__mro__:
        if kind.__name__ == "IterableDataset" and kind.__module__.startswith("torch.utils.data"):
            return True
    return False


def pass_length(frame, loop):
    """The iterations one pass of `loop` (a plan.Loop) runs, from what the plan says its iterable
    is, read in the frame at the loop's entry; None when unknown or not safely readable. A
    DataLoader's length comes with "epoch": one pass over it is one."""
    if loop.count is not None:
        return loop.count, None
    path = loop.count_of or loop.length_of
    if path is None:
        return None, None
    values, _, problem = lookup_path(frame, path)
    if problem or len(values) != path.count(".") + 1:
        return None, None
    value = values[-1]
    if loop.count_of is not None:
        if type(value) is int and value > 0:
            return value, None
        return None, None
    kind = type(value)
    module = getattr(kind, "__module__", "") or ""
    loader = module.startswith("torch.utils.data")
    if kind not in _SIZED_BUILTINS and not (module == "torch" or module.startswith("torch.")):
        return None, None  # a len() of the script's own class could do anything
    if loader and _iterable_dataset(value):
        return None, None  # its len() is the dataset's own, and marks the loader
    try:
        length = len(value)
    except Exception:
        return None, None
    if type(length) is not int or length <= 0:
        return None, None
    return length, "epoch" if loader else None
