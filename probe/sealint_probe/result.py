"""The result document (docs/confirm.md, "Result (version 1)") and its atomic write."""
import json
import os
import platform

FORMAT = "sealint-confirm-result"
VERSION = 1


def series(values):
    """A series as the result shows it: [] when never sampled, null when no sample had a value."""
    if values and all(value is None for value in values):
        return None
    return list(values)


def document(torch_version, device, exit_info, seconds, loops, findings, snapshot, errors,
             device_memory=None):
    return {
        "format": FORMAT,
        "version": VERSION,
        "python": platform.python_version(),
        "torch": str(torch_version),
        "device": device,
        "device_memory": device_memory,
        "exit": exit_info,
        "seconds": round(seconds, 3),
        "loops": loops,
        "findings": findings,
        "snapshot": snapshot,
        "errors": errors,
    }


def write(path, doc, durable=True):
    """Writes through a temporary file in the same folder and renames it over `path`, so that a
    reader (or a kill mid-write) never sees half a document; `durable` syncs it to disk first."""
    text = json.dumps(doc, indent=1, sort_keys=False) + "\n"
    folder = os.path.dirname(os.path.abspath(path))
    temp = os.path.join(folder, ".%s.%d.tmp" % (os.path.basename(path), os.getpid()))
    try:
        with open(temp, "w") as handle:
            handle.write(text)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
