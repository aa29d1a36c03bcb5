"""Counts the bytes autograd saves for backward while a loop runs: the activations one iteration
keeps alive for as long as its graph is (SL006's claim), read through the saved-tensor hooks
(`torch.autograd.graph.saved_tensors_hooks`, torch 1.13 and 2.x).

The hooks are pushed only while a loop that asks for them runs (`start`/`stop`, nested runs
counted), and the pack hook only adds up storage sizes. Two things a naive hook gets wrong:

- A pack hook that returns the tensor itself makes a saved *output* hold its own graph (tensor ->
  grad_fn -> saved variable -> tensor), a reference cycle through C++ that no collector frees: the
  probe would itself leak every iteration's activations. The hook keeps a detached alias instead
  (same storage and version counter, no grad_fn).
- Autograd checks that a saved tensor was not modified in place before backward uses it; with
  hooks it leaves that to the hooks. The unpack hook makes the same check with the version
  recorded at pack time, so a script that would fail with "modified by an inplace operation" still
  does.

Parameters (leaves that require grad, and views of them: the transposed weight a linear layer
saves) are not counted: the model holds them whatever the graph does.
"""


class SavedTensors(object):
    def __init__(self, torch, measurer):
        self._autograd = getattr(torch._C, "_autograd", None)
        self._measurer = measurer
        base = getattr(torch._C, "TensorBase", None) or getattr(torch._C, "_TensorBase")
        self._detach = base.detach
        self._version = base._version.__get__
        self._is_leaf = base.is_leaf.__get__
        self._base = base._base.__get__
        self._depth = 0
        self._bytes = 0
        self._seen = set()  # storages counted since the last take()
        self.problem = None  # why the hooks could not be pushed, once

    def start(self):
        """A counted loop is entered; pushes the hooks on the first."""
        if self._depth == 0:
            try:
                self._autograd._push_saved_tensors_default_hooks(self._pack, self._unpack)
            except Exception as error:  # absent, or disabled (torch.compile's regions)
                if self.problem is None:
                    self.problem = "saved tensors are not counted: %s: %s" % (
                        type(error).__name__, error)
                return False
        self._depth += 1
        return True

    def stop(self):
        """A counted loop is left; pops the hooks after the last."""
        if self._depth == 0:
            return
        self._depth -= 1
        if self._depth == 0:
            try:
                self._autograd._pop_saved_tensors_default_hooks()
            except Exception:
                pass

    @property
    def active(self):
        return self._depth > 0

    def take(self):
        """Bytes saved since the last take (an iteration's), and starts over."""
        saved = self._bytes
        self._bytes = 0
        self._seen = set()
        return saved

    def _parameter(self, tensor):
        try:
            if self._is_leaf(tensor):
                return self._measurer.requires_grad(tensor)
            base = self._base(tensor)
            return base is not None and self._is_leaf(base) and self._measurer.requires_grad(base)
        except Exception:
            return False

    def _pack(self, tensor):
        try:
            if not self._parameter(tensor):
                self._bytes += self._measurer.storage_bytes(tensor, self._seen)
        except Exception:
            pass  # counting must never break the user's forward pass
        return (self._detach(tensor), self._version(tensor))

    def _unpack(self, packed):
        alias, version = packed
        if self._version(alias) != version:
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an "
                "inplace operation: [%s] is at version %d; expected version %d instead."
                % (type(alias).__name__, self._version(alias), version))
        return alias
