"""Progress while the script runs (`--progress FILE`), for sealint's live line on a terminal:
elapsed seconds and, per measured loop, its iterations. Rewritten atomically at most every
INTERVAL seconds, from the loop visits, so a reader never sees half a document and a fast loop
pays for one write per INTERVAL, not per iteration. Best effort: a failed write is ignored."""
import time

from . import result

INTERVAL = 0.25


class Progress(object):
    def __init__(self, path, loops, steps, started, clock=time.time):
        self.path = path
        self.loops = loops
        self.steps = steps
        self.started = started
        self.clock = clock
        self.last = None

    def update(self):
        if self.path is None:
            return
        now = self.clock()
        if self.last is not None and now - self.last < INTERVAL:
            return
        self.last = now
        doc = {"elapsed": round(now - self.started, 2), "steps": self.steps,
               "loops": [self._entry(loop) for loop in self.loops if loop.stops]}
        try:
            result.write(self.path, doc, durable=False)
        except Exception:
            pass

    @staticmethod
    def _entry(loop):
        entry = {"file": loop.file, "line": loop.line, "iterations": loop.iterations}
        if loop.shape.calls:
            entry["function"] = loop.shape.scope_name  # its calls are what is counted
        return entry
