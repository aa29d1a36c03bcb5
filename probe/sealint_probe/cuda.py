"""CUDA memory: allocated bytes per sample, allocation history, the snapshot and the live blocks
allocated at a finding's lines.

Nothing here touches CUDA before the script does: `torch.cuda.is_available()` would initialise the
driver, which fixes CUDA_VISIBLE_DEVICES before a script sets it and breaks CUDA in forked
workers. History is switched on at the first sample taken after the script initialised CUDA, i.e.
at the latest when a flagged loop is entered, before its first iteration allocates.

API differences (TOOLCHAIN.md): torch 1.13 `_record_memory_history(enabled: bool, device=None)`
and `_snapshot()` returning a list of segments; torch 2.x `_record_memory_history(enabled="all",
context=, stacks=, max_entries=)`, `_snapshot()` returning {"segments": ...}, `_dump_snapshot`.
On a CPU-only build these raise.
"""
import pickle

from . import source

MAX_ENTRIES = 100000  # allocator events kept for the snapshot's timeline


class Cuda(object):
    def __init__(self, torch, errors):
        self._torch = torch
        self._errors = errors
        self.history = False  # recording allocation stacks
        self._tried = False

    def in_use(self):
        try:
            return bool(self._torch.cuda.is_initialized())
        except Exception:
            return False

    def sample(self):
        """memory_allocated() after synchronize(), or None when the script has not used CUDA.
        Also switches history on the first time CUDA is seen in use."""
        if not self.in_use():
            return None
        if not self._tried:
            self._tried = True
            self._record_history()
        try:
            self._torch.cuda.synchronize()
            return int(self._torch.cuda.memory_allocated())
        except Exception as error:
            self._errors.append("torch.cuda.memory_allocated failed: %s" % error)
            return None

    def _record_history(self):
        record = getattr(self._torch.cuda.memory, "_record_memory_history", None)
        if record is None:
            self._errors.append("this torch has no torch.cuda.memory._record_memory_history")
            return
        try:
            record(enabled="all", context="all", stacks="python", max_entries=MAX_ENTRIES)
            self.history = True
            return
        except TypeError:
            pass  # torch 1.13 / 2.0 signature
        except Exception as error:
            self._errors.append("cannot record CUDA memory history: %s" % error)
            return
        try:
            record(True)
            self.history = True
        except Exception as error:
            self._errors.append("cannot record CUDA memory history: %s" % error)

    def device(self):
        if not self.in_use():
            return "cpu"
        try:
            index = self._torch.cuda.current_device()
            return "cuda:%d (%s)" % (index, self._torch.cuda.get_device_name(index))
        except Exception:
            return "cuda"

    def _take_snapshot(self):
        """(the allocator's snapshot, None), or (None, why not) with the reason recorded."""
        try:
            self._torch.cuda.synchronize()
            return self._torch.cuda.memory._snapshot(), None
        except Exception as error:
            reason = "torch.cuda.memory._snapshot failed: %s" % error
            self._errors.append(reason)
            return None, reason

    def blocks_now(self, findings):
        """{finding id: cuda_blocks} from a snapshot taken now, {} without CUDA history."""
        if not self.in_use() or not self.history:
            return {}
        snapshot, _ = self._take_snapshot()
        if snapshot is None:
            return {}
        return dict((finding.id, _blocks_for(snapshot, finding, "steps")) for finding in findings)

    def total_memory(self):
        """The GPU's memory in bytes, for sealint's "when it runs out"; None off CUDA."""
        if not self.in_use():
            return None
        try:
            index = self._torch.cuda.current_device()
            return int(self._torch.cuda.get_device_properties(index).total_memory)
        except Exception as error:
            self._errors.append("cannot read the GPU's memory size: %s" % error)
            return None

    def finish(self, snapshot_path, findings):
        """Takes the snapshot. Returns (snapshot result or None, {finding id: cuda_blocks})."""
        asked = snapshot_path is not None
        blocks = {}
        if not self.in_use() or not self.history:
            if not asked:
                return None, blocks
            reason = self._why_not()
            self._errors.append("no CUDA snapshot: %s" % reason)
            return {"path": snapshot_path, "written": False, "error": reason}, blocks
        snapshot, reason = self._take_snapshot()
        if snapshot is None:
            return ({"path": snapshot_path, "written": False, "error": reason} if asked else None,
                    blocks)
        for finding in findings:
            if finding.loop is not None:
                blocks[finding.id] = _blocks_for(snapshot, finding, "end")
        if not asked:
            return None, blocks
        return self._write(snapshot, snapshot_path), blocks

    def _why_not(self):
        try:
            available = bool(self._torch.cuda.is_available())
        except Exception:
            available = False
        if not available:
            return "no CUDA device"
        if not self.in_use():
            return "the script did not use CUDA"
        return "CUDA memory history could not be recorded"

    def _write(self, snapshot, path):
        try:
            dump = getattr(self._torch.cuda.memory, "_dump_snapshot", None)
            if dump is not None:
                dump(path)  # same pickle layout as memory_viz expects for this torch
            else:
                with open(path, "wb") as handle:
                    pickle.dump(snapshot, handle)
            return {"path": path, "written": True, "error": None}
        except Exception as error:
            reason = "cannot write the snapshot: %s" % error
            self._errors.append(reason)
            return {"path": path, "written": False, "error": reason}


def _segments(snapshot):
    if isinstance(snapshot, dict):
        return snapshot.get("segments") or []
    return snapshot or []  # torch 1.13: the list of segments itself


def _frames(block):
    frames = block.get("frames")
    if frames:
        return frames
    history = block.get("history")  # torch 1.13 / 2.0: the latest allocation at this address
    if history:
        return history[-1].get("frames") or []
    return []


def _blocks_for(snapshot, finding, when):
    """Live blocks whose allocation stack has the finding's line ("line") or a line of its loop
    ("loop", which includes "line"); `when`: "steps" (counted at the loop's `steps`-th iteration)
    or "end" (at the end of the run, for a loop that ran fewer)."""
    file = source.canonical(finding.file)
    loop_file = source.canonical(finding.loop.file)
    low, high = finding.loop.line, finding.loop.end_line
    counts = {"line": {"count": 0, "bytes": 0}, "loop": {"count": 0, "bytes": 0}, "when": when}
    names = {}
    for segment in _segments(snapshot):
        for block in segment.get("blocks") or []:
            if block.get("state") != "active_allocated":
                continue
            at_line = in_loop = False
            for frame in _frames(block):
                name = frame.get("filename")
                if name not in names:
                    names[name] = source.canonical(name) if name else None
                where, line = names[name], frame.get("line")
                if where == file and line == finding.line:
                    at_line = True
                if where == loop_file and line is not None and low <= line <= high:
                    in_loop = True
            size = int(block.get("size") or 0)
            for key, hit in (("line", at_line), ("loop", in_loop or at_line)):
                if hit:
                    counts[key]["count"] += 1
                    counts[key]["bytes"] += size
    return counts
