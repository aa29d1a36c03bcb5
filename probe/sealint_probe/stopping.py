"""When the run has what it needs (docs/confirm.md, "When the run stops").

Every loop of a measured finding, flagged or watched, is waited for until it has `steps`
iterations, or cannot get more soon: it was entered and left (a short evaluation loop that the
next epoch would only re-enter). A loop that encloses another measured loop, lexically or through
calls (the epoch loop around `train()`), does not hold the run: each of its iterations runs the
whole inner loop. A flagged enclosing loop is given a grace period once the inner loops are done
(as long again as the run took to get there, at least GRACE_MIN seconds); a watched one none.

A function whose calls are counted (a framework's hook, `forward()`) has no "entered and left": it
may be called again at any time. One called fewer than `steps` times (an evaluation hook the
framework runs a few times per epoch) gets the same grace period once every other region that
encloses none has what it needs; while none has, the run goes on.

A region marked optional in the plan (one in a module the script imports) holds the run only once
it is entered: the run may never pass through it.
"""
import time

from . import source

GRACE_MIN = 5.0


class Stopping(object):
    def __init__(self, loops, steps, started, clock=time.time):
        self.loops = [loop for loop in loops if loop.stops]
        self.steps = steps
        self.started = started
        self.clock = clock
        self.inner_done_at = None  # when every loop enclosing no other had what it needs
        self._files = {}  # co_filename -> canonical path

    def note_visit(self, visited, frame):
        """Marks the loops that `visited`'s header is inside of: they enclose it."""
        for loop in self.loops:
            if (loop is not visited and visited.index not in loop.encloses
                    and self.inside(loop, frame)):
                loop.encloses.add(visited.index)

    def note_call(self, called, frame):
        """Marks the loops inside whose iteration the calls-counted `called` runs (the training
        loop calling `forward()`): they run it, without enclosing it."""
        for loop in self.loops:
            if (loop is not called and not loop.shape.calls and called.index not in loop.runs
                    and self.inside(loop, frame.f_back)):
                loop.runs.add(called.index)

    def inside(self, loop, frame):
        """Whether a frame of the stack from `frame` up is running a line of `loop`."""
        shape = loop.shape
        while frame is not None:
            code = frame.f_code
            path = self._files.get(code.co_filename)
            if path is None:
                path = self._files[code.co_filename] = source.canonical(code.co_filename)
            if (path == shape.file and loop.line <= frame.f_lineno <= loop.end_line
                    and shape.holds(code)):
                return True
            frame = frame.f_back
        return False

    def done(self, frame):
        # An optional region (in a module the script imports) counts once it is entered.
        inner = [loop for loop in self.loops
                 if not loop.encloses and not (loop.optional and loop.entries == 0)]
        short_calls = []  # called and returned, fewer than `steps` times
        for loop in inner:
            if self._has_enough(loop, frame):
                continue
            if loop.shape.calls and loop.iterations > 0:
                short_calls.append(loop)
                continue
            return False
        if not inner or len(short_calls) == len(inner):
            return False
        now = self.clock()
        if self.inner_done_at is None:
            self.inner_done_at = now
        grace = max(GRACE_MIN, self.inner_done_at - self.started)
        waiting = short_calls + [loop for loop in self.loops if loop.encloses and not loop.watched
                                 and not self._has_enough(loop, frame)]
        if waiting and now - self.inner_done_at < grace:
            return False
        return True

    def _has_enough(self, loop, frame):
        if loop.iterations >= self.steps:
            return True
        # A loop entered and left is done for now; a function may always be called again.
        return not loop.shape.calls and loop.entries > 0 and not self.inside(loop, frame)
