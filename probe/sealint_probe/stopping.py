"""When the run has what it needs (docs/confirm.md, "When the run stops").

Every loop of a measured finding, flagged or watched, is waited for until it has `steps`
iterations, or cannot get more soon: it was entered and left (a short evaluation loop that the
next epoch would only re-enter). A loop that encloses another measured loop, lexically or through
calls (the epoch loop around `train()`), does not hold the run: each of its iterations runs the
whole inner loop. A flagged enclosing loop is given a grace period once the inner loops are done
(as long again as the run took to get there, at least GRACE_MIN seconds); a watched one none.
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
        inner = [loop for loop in self.loops if not loop.encloses]
        if not inner or not all(self._has_enough(loop, frame) for loop in inner):
            return False
        now = self.clock()
        if self.inner_done_at is None:
            self.inner_done_at = now
        grace = max(GRACE_MIN, self.inner_done_at - self.started)
        for loop in self.loops:
            if loop.encloses and not loop.watched and not self._has_enough(loop, frame):
                if now - self.inner_done_at < grace:
                    return False
        return True

    def _has_enough(self, loop, frame):
        if loop.iterations >= self.steps:
            return True
        return loop.entries > 0 and not self.inside(loop, frame)
