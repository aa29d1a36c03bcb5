"""The `sys.settrace` machinery: counts visits of the flagged loops' headers.

The global trace function runs once per Python call anywhere (torch included) and returns a local
tracer only for the code objects that hold a flagged loop, so line events, the expensive part, are
delivered for those frames alone. Each visit is handed to `on_visit(loop, frame, kind)`, which
must not raise (an exception from a trace function would land in the user's code and switch
tracing off).

Does not import torch, so that the counting can be tested on every Python version.
"""
import os
import sys
import threading

from . import source

_UNKNOWN = object()


class _FrameTracer(object):
    """The local tracer of one frame: remembers the frame's previous line event, which tells a
    loop entry from an iteration (source.LoopShape.visit_kind), and reports the frame's return
    to the calls-counted regions of its code (`calls`). Kept on the frame as `f_trace`, so a
    generator resumed later continues with the same state."""

    __slots__ = ("triggers", "calls", "prev", "on_visit", "bound", "inside")

    def __init__(self, triggers, calls, on_visit):
        self.triggers = triggers  # line -> [loop], the loops of this code whose trigger it is
        self.calls = calls  # the regions counting this code's calls, or None
        self.prev = None
        self.on_visit = on_visit
        self.bound = self.trace  # returned on every event: no new bound method per line
        self.inside = None  # the loops with `shape.leaves` this frame is in, once one is entered

    def trace(self, frame, event, arg):
        if event == "line":
            line = frame.f_lineno
            if self.inside:
                self._leave_if_outside(frame, line)
            loops = self.triggers.get(line)
            if loops is not None:
                prev = self.prev
                for loop in loops:
                    kind = loop.shape.visit_kind(prev)
                    if kind is not None:
                        if kind == source.ENTRY and loop.shape.leaves:
                            # One LEAVE per ENTRY, so that what an entry starts is ended.
                            self.inside = (self.inside or []) + [loop]
                        self.on_visit(loop, frame, kind)
            self.prev = line
        elif event == "return":
            # A return (or a generator's yield) leaves every loop of the frame.
            if self.inside:
                left, self.inside = self.inside, None
                for loop in left:
                    self.on_visit(loop, frame, source.LEAVE)
            if self.calls is not None:
                # The call is over (returned or raised): its locals are still readable here.
                for region in self.calls:
                    self.on_visit(region, frame, source.RETURN)
        return self.bound

    def _leave_if_outside(self, frame, line):
        staying = []
        for loop in self.inside:
            if loop.shape.line <= line <= loop.shape.end_line:
                staying.append(loop)
            else:
                self.on_visit(loop, frame, source.LEAVE)
        self.inside = staying or None


class Tracer(object):
    """`loops` are objects with a `.shape` (source.LoopShape); on_visit gets them back."""

    def __init__(self, loops, on_visit):
        self._on_visit = on_visit
        self._by_file = {}
        for loop in loops:
            self._by_file.setdefault(loop.shape.file, []).append(loop)
        self._codes = {}  # code object -> (triggers dict, calls regions), or None when not flagged
        self._files = {}  # co_filename -> canonical path, or None when no flagged loop is there
        self._off = False
        self._installed = False

    def install(self):
        sys.settrace(self._global)
        threading.settrace(self._global)
        if hasattr(os, "register_at_fork"):
            # A forked child (DataLoader worker) inherits the trace function: switch it off there,
            # so that a worker neither pays for it nor counts, samples or stops anything.
            os.register_at_fork(after_in_child=self._in_child)
        self._installed = True

    def uninstall(self):
        self._off = True
        if self._installed:
            sys.settrace(None)
            threading.settrace(None)

    def _in_child(self):
        self.uninstall()

    def _classify(self, code):
        filename = code.co_filename
        canonical = self._files.get(filename, _UNKNOWN)
        if canonical is _UNKNOWN:
            canonical = source.canonical(filename)
            if canonical not in self._by_file:
                canonical = None
            self._files[filename] = canonical
        triggers = None
        calls = None
        if canonical is not None:
            for loop in self._by_file[canonical]:
                if not loop.shape.holds(code):
                    continue
                if loop.shape.calls:
                    calls = (calls or []) + [loop]
                    continue
                if triggers is None:
                    triggers = {}
                triggers.setdefault(loop.shape.trigger, []).append(loop)
        info = (triggers or {}, calls) if triggers is not None or calls is not None else None
        self._codes[code] = info
        return info

    def _global(self, frame, event, arg):
        # Called for every 'call' event in every thread that has the tracer: keep it cheap.
        code = frame.f_code
        info = self._codes.get(code, _UNKNOWN)
        if info is _UNKNOWN:
            info = self._classify(code)
        if info is None or self._off:
            return None
        triggers, calls = info
        current = frame.f_trace
        if current is not None and isinstance(getattr(current, "__self__", None), _FrameTracer):
            return current  # a generator or coroutine resumed: keep its state
        if calls is not None:
            for region in calls:
                self._on_visit(region, frame, source.CALL)
            if not triggers:
                # Only the return matters: no line events for the rest of this frame.
                frame.f_trace_lines = False
        return _FrameTracer(triggers, calls, self._on_visit).bound
