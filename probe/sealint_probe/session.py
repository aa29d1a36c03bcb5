"""One probe run: the flagged loops and findings, their series, the sampling at each header visit
and the stop after `steps` iterations."""
import os
import sys
import threading
import time
import weakref

from . import holds, measure, progress, result, saved, source, stopping
from .source import CALL, ENTRY, ITERATION, LEAVE, LINE, RETURN


class _Remapped(object):
    """A finding or loop with its file as found on this machine (see Session._local)."""

    __slots__ = ("id", "file", "line", "end_line", "loop")

    def __init__(self, file, line, end_line=None, loop=None, id=None):
        self.id = id
        self.file = file
        self.line = line
        self.end_line = end_line
        self.loop = loop


WATCHED_RULE = "loop"  # the plan's rule for a training loop no finding is in


class LoopState(object):
    __slots__ = ("index", "file", "line", "end_line", "shape", "iterations", "entries", "live",
                 "cuda", "rss", "findings", "stops", "watched", "encloses", "runs", "blocks",
                 "optional", "plan_loop", "length", "length_unit", "earlier_blocks",
                 "receiver", "saved", "counts_saved")

    def __init__(self, index, file, line, end_line, shape):
        self.index = index
        self.file = file  # as the plan spells it: sealint matches the result on it
        self.line = line
        self.end_line = end_line
        self.shape = shape
        self.iterations = 0  # counted across every entry of the loop
        self.entries = 0
        self.live, self.cuda, self.rss = [], [], []
        self.findings = []  # FindingState measured at this loop's visits
        self.stops = False  # a measured finding waits for this loop's `steps` iterations
        self.watched = True  # only loops no rule flagged are measured here
        self.encloses = set()  # indices of measured loops that ran inside one of its iterations
        self.runs = set()  # indices of calls-counted regions called inside one of its iterations
        self.blocks = {}  # finding id: CUDA blocks counted at the `steps`-th iteration's sample
        self.earlier_blocks = {}  # the same, halfway there: the growth per iteration between
        self.receiver = None  # a calls-counted method: the object whose calls count (a weakref)
        self.optional = False  # the run waits for it only once it is entered
        self.plan_loop = None  # the plan's loop entry (what its iterable is)
        self.length = None  # iterations of one pass, read at the first entry
        self.length_unit = None  # "epoch" when a pass is one over a DataLoader
        self.saved = []  # bytes autograd saved for backward during each sampled step
        self.counts_saved = False  # the plan asks for `saved`


class FindingState(object):
    __slots__ = ("finding", "loop", "variables", "held_by", "grad", "grad_now")

    def __init__(self, finding, loop):
        self.finding = finding
        self.loop = loop
        # [(path, {metric: [sample, ...]})]; no variables when nothing is measured
        measured = loop is not None and finding.measure != "none"
        self.variables = [(path, {"graph_nodes": [], "tensor_bytes": [], "length": [],
                                  "requires_grad": []})
                          for path in (finding.variables if measured else [])]
        self.held_by = {}  # path -> the latest chain of references to the graph it keeps
        # A graph finding (SL006): whether autograd was on when its line last ran in each step,
        # one entry per sample (None: the line did not run in that step).
        self.grad = [] if finding.measure == "graph" and loop is not None else None
        self.grad_now = None


class LineWatch(object):
    """A graph finding's own line: the tracer reports each time it runs (source.LINE)."""

    __slots__ = ("shape", "state", "file", "line")

    def __init__(self, shape, state):
        self.shape = shape
        self.state = state
        self.file = state.finding.file
        self.line = state.finding.line


class Session(object):
    def __init__(self, plan, script, out, torch, cuda, errors, progress_path=None):
        self.plan = plan
        self.out = out
        self.steps = plan.steps
        self.torch = torch
        self.cuda = cuda
        self.errors = errors
        self.measurer = measure.Measurer(torch)
        self.saved_tensors = saved.SavedTensors(torch, self.measurer)
        self.pid = os.getpid()
        self.started = time.time()
        self.lock = threading.RLock()  # a flagged loop may run in a thread too
        self._reported = set()
        self._plan_folder = os.path.dirname(plan.script)
        self._script_folder = os.path.dirname(os.path.abspath(script))
        self.loops = []
        self.findings = []
        self.line_watches = []  # LineWatch: what the tracer reports besides the regions
        by_key = {}
        for finding in plan.findings:
            loop = None
            if finding.loop is not None:
                local = self._local(finding.loop.file)
                key = (source.canonical(local), finding.loop.line, finding.loop.counts)
                loop = by_key.get(key)
                if loop is None:
                    if finding.loop.calls:
                        shape, problem = source.calls_shape(local, finding.loop.line,
                                                            finding.loop.end_line,
                                                            finding.loop.function)
                    else:
                        shape, problem = source.shape(local, finding.loop.line,
                                                      finding.loop.end_line)
                    if problem:
                        errors.append(problem)
                    loop = LoopState(len(self.loops), finding.loop.file, finding.loop.line,
                                     finding.loop.end_line, shape)
                    loop.optional = finding.loop.optional
                    loop.plan_loop = finding.loop
                    by_key[key] = loop
                    self.loops.append(loop)
                if finding.loop.saved_tensors:
                    loop.counts_saved = True
                    loop.shape.leaves = not loop.shape.calls
            state = FindingState(finding, loop)
            if loop is not None and finding.measure != "none":
                loop.stops = True  # its loop memory is measured, variables or not
                loop.watched = loop.watched and finding.rule == WATCHED_RULE
                if state.variables or state.grad is not None:
                    loop.findings.append(state)
            if state.grad is not None:
                self.line_watches.append(LineWatch(
                    source.LineShape(source.canonical(self._local(finding.file)), finding.line),
                    state))
            self.findings.append(state)
        self.stopping = stopping.Stopping(self.loops, self.steps, self.started)
        self.progress = progress.Progress(progress_path, self.loops, self.steps, self.started)
        self.user_files = set([source.canonical(script)])
        self.user_files.update(loop.shape.file for loop in self.loops)
        self.user_files.update(watch.shape.file for watch in self.line_watches)
        self.user_files.update(source.canonical(self._local(f.file)) for f in plan.findings)

    def _local(self, path):
        """A plan made on another machine names its files there: a file under the plan's script
        folder is looked up under the folder of the script being run."""
        if os.path.exists(path) or not self._plan_folder:
            return path
        relative = os.path.relpath(path, self._plan_folder)
        if relative.startswith(os.pardir):
            return path
        return os.path.join(self._script_folder, relative)

    # --- sampling, called by the tracer -------------------------------------------------------

    def on_visit(self, loop, frame, kind):
        if os.getpid() != self.pid:
            return  # a forked child that kept the tracer: it must not count, sample or stop
        try:
            with self.lock:
                self._visit(loop, frame, kind)
        except Exception as error:  # a probe bug must not surface in the user's code
            self._error("probe error at %s:%d: %s: %s" % (loop.file, loop.line,
                                                          type(error).__name__, error))

    def _counts_call(self, loop, frame):
        """Whether this call of a calls-counted method is one of the object the region follows.
        A model holds many instances of one block class, each running the same `forward()`: the
        calls of the first instance seen are its steps, and its `self` is the one sampled."""
        code = frame.f_code
        if code.co_argcount == 0 or code.co_varnames[0] != "self":
            return True
        receiver = frame.f_locals.get("self")
        followed = loop.receiver() if loop.receiver is not None else None
        if followed is None:
            # The first object, or the followed one is gone (a temporary): follow this one.
            try:
                loop.receiver = weakref.ref(receiver)
            except TypeError:  # not weakly referenceable: follow it by a strong reference
                loop.receiver = lambda kept=receiver: kept
            return True
        return followed is receiver

    def _visit(self, loop, frame, kind):
        if kind == LINE:
            loop.state.grad_now = bool(self.torch.is_grad_enabled())
            return
        if kind == LEAVE:
            self.saved_tensors.stop()
            return
        if kind in (CALL, RETURN) and not self._counts_call(loop, frame):
            return
        saved_bytes = self._count_saved(loop, kind)
        # A calls-counted region (a hook, `forward()`): its first call is the entry, sampled
        # before the function runs; each return is a finished step, sampled with the frame's
        # locals still there. A loop: each header visit is an entry or an iteration.
        if kind in (ENTRY, CALL):
            loop.entries += 1
            # A later entry: the state after `iterations` iterations is already sampled.
            sample = loop.entries == 1
            if sample and kind == ENTRY and loop.plan_loop is not None:
                with self.measurer.quiet():
                    loop.length, loop.length_unit = measure.pass_length(frame, loop.plan_loop)
        else:
            loop.iterations += 1
            sample = loop.iterations <= self.steps
        if sample:
            loop.saved.append(saved_bytes)
            self._sample(loop, frame)
            if kind in (ITERATION, RETURN) and loop.iterations == self._halfway():
                loop.earlier_blocks = self._blocks_of(loop)
            if kind in (ITERATION, RETURN) and loop.iterations == self.steps:
                self._count_blocks(loop)
        # A function called once per step of a loop does not make that loop an enclosing one:
        # only a loop's visits mark the regions running around them.
        if loop.stops and kind in (ENTRY, ITERATION):
            self.stopping.note_visit(loop, frame)
        elif kind == CALL and loop.iterations < self.steps:
            self.stopping.note_call(loop, frame)
        if self.stopping.done(frame):
            self.stop()
        self.progress.update()

    def _count_saved(self, loop, kind):
        """The bytes autograd saved during the step that just finished (ITERATION, RETURN); the
        hooks are on from a counted loop's entry (a counted function's call) until the frame
        leaves it (the call returns). None at an entry, or where nothing is counted."""
        if not loop.counts_saved:
            return None
        counter = self.saved_tensors
        if kind in (ENTRY, CALL):
            # Each entry is matched by a LEAVE (each call by its RETURN) from the tracer.
            counter.start()
            if counter.problem:
                self._error(counter.problem)
            counter.take()
            return None
        counted = counter.take() if counter.active else None
        if kind == RETURN:
            counter.stop()
        return counted

    def _sample(self, loop, frame):
        loop.cuda.append(self.cuda.sample())
        with self.measurer.quiet():
            loop.live.append(self.measurer.live_tensor_bytes())
            loop.rss.append(measure.rss_bytes())
            for state in loop.findings:
                if state.grad is not None:
                    state.grad.append(state.grad_now)
                    state.grad_now = None
                for path, series in state.variables:
                    values, where, problem = measure.lookup_path(frame, path)
                    if problem:
                        self._error("finding %d: %s" % (state.finding.id, problem))
                    if len(values) != path.count(".") + 1:
                        sample = measure.null_sample()
                    else:
                        sample = self.measurer.value(values[-1])
                    if sample["graph_nodes"] and state.finding.measure == "growth":
                        state.held_by[path] = holds.chain(path, values, where,
                                                          frame.f_code.co_name, self.measurer)
                    for key, values in series.items():
                        values.append(sample[key])

    def _halfway(self):
        """The iteration of the earlier count, when there is room for one before `steps`."""
        half = self.steps // 2
        return half if 2 <= half < self.steps else None

    def _blocks_of(self, loop):
        states = [state for state in self.findings if state.loop is loop]
        if not states:
            return {}
        return self.cuda.blocks_now([self._remapped(state) for state in states])

    def _count_blocks(self, loop):
        """The live CUDA blocks of this loop's findings while the loop still runs: at the end of
        the run, what it kept may be freed already (its function returned, a later loop ran).
        With the count halfway there, the blocks at a finding's line say how much they grow per
        iteration."""
        loop.blocks = self._blocks_of(loop)
        for ident, blocks in loop.blocks.items():
            earlier = loop.earlier_blocks.get(ident)
            if earlier is not None:
                blocks["iteration"] = self.steps
                blocks["earlier"] = {"iteration": self._halfway(), "line": earlier["line"]}

    def _remapped(self, state):
        finding = state.finding
        loop = _Remapped(self._local(finding.loop.file), finding.loop.line, finding.loop.end_line)
        return _Remapped(self._local(finding.file), finding.line, loop=loop, id=finding.id)

    def _error(self, text):
        if text not in self._reported:  # once per distinct problem, not once per iteration
            self._reported.add(text)
            self.errors.append(text)

    # --- the end --------------------------------------------------------------------------------

    def stop(self, kind="stopped"):
        """Every flagged loop ran `steps` iterations (or sealint's timeout sent SIGTERM): write
        the result and leave at once. The script's `finally` blocks and atexit handlers must not
        run (they could train on, save checkpoints, or hang); sealint kills the process group
        afterwards."""
        status = 0
        try:
            self.write({"kind": kind, "code": None, "exception": None})
        except Exception as error:
            # Going on would run the whole script and write again: report and leave anyway.
            sys.stderr.write("sealint_probe: cannot write the result %s: %s\n" % (self.out, error))
            status = 1
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()  # what the script printed so far, block-buffered into a file
            except Exception:
                pass
        os._exit(status)

    def on_terminate(self, signum, frame):
        """SIGTERM from sealint's --timeout: what was measured so far still gives verdicts."""
        if os.getpid() == self.pid:
            self.stop("timeout")
        os._exit(128 + signum)

    def write(self, exit_info):
        doc = self.document(exit_info)
        result.write(self.out, doc)

    @staticmethod
    def _counts(loop):
        """A region whose steps are a function's calls says so; a loop says how long one pass of
        it is when that was read."""
        if loop.shape.calls:
            return {"counts": "calls", "function": loop.shape.scope_name}
        if loop.length is None:
            return {}
        out = {"length": loop.length}
        if loop.length_unit:
            out["length_unit"] = loop.length_unit
        return out

    def _device_memory(self):
        total = self.cuda.total_memory()
        return {"total": total} if total is not None else None

    def document(self, exit_info):
        counted = {}
        for loop in self.loops:
            counted.update(loop.blocks)
        remapped = [self._remapped(state) for state in self.findings
                    if state.finding.loop is not None and state.finding.id not in counted]
        snapshot, blocks = self.cuda.finish(self.plan.snapshot, remapped)
        blocks.update(counted)
        loops = [dict({
            "file": loop.file,
            "line": loop.line,
            "end_line": loop.end_line,
            "iterations": loop.iterations,
            "entries": loop.entries,
            "encloses": sorted(loop.encloses),
            "runs": sorted(loop.runs),
            "series": {
                "live_tensor_bytes": result.series(loop.live),
                "cuda_allocated_bytes": result.series(loop.cuda),
                "rss_bytes": result.series(loop.rss),
                "saved_tensor_bytes": result.series(loop.saved) if loop.counts_saved else None,
            },
        }, **self._counts(loop)) for loop in self.loops]
        findings = []
        for state in self.findings:
            loop = state.loop
            findings.append({
                "id": state.finding.id,
                "loop": loop.index if loop is not None else None,
                "iterations": loop.iterations if loop is not None else None,
                "variables": [{"name": path,
                               "series": dict((key, result.series(values))
                                              for key, values in series.items()),
                               "held_by": state.held_by.get(path)}
                              for path, series in state.variables],
                "cuda_blocks": blocks.get(state.finding.id),
            })
            if state.grad is not None:
                findings[-1]["grad_enabled"] = result.series(state.grad)
        return result.document(self.torch.__version__, self.cuda.device(), exit_info,
                               time.time() - self.started, loops, findings, snapshot,
                               list(self.errors), self._device_memory())
