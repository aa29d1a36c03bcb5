"""Runs the script as `python script.py args` would, and says how it ended."""
import os
import runpy
import sys
import traceback

from . import source

MESSAGE_LIMIT = 500


def prepare(script, args):
    """sys.argv and sys.path[0] as the interpreter sets them for `python script.py args`."""
    sys.argv = [script] + list(args)
    folder = os.path.dirname(os.path.realpath(script))
    if sys.path:
        # `-m` put the working directory there, sealint's `-c` launcher the probe's folder: a
        # script gets its own folder instead.
        sys.path[0] = folder
    else:
        sys.path.insert(0, folder)


def _truncate(text):
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + "..."


def _innermost(tb, files):
    """(file, line) of the innermost traceback frame in one of `files` (canonical paths)."""
    found = (None, None)
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if source.canonical(filename) in files:
            found = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return found


def _from_script(tb, files):
    """The traceback from the first frame of the user's files on: the probe's and runpy's frames
    would only confuse the reader."""
    start = tb
    while start is not None and source.canonical(start.tb_frame.f_code.co_filename) not in files:
        start = start.tb_next
    return start if start is not None else tb


def _exception(error, files):
    kind = type(error)
    name = kind.__qualname__
    if kind.__module__ not in ("builtins", "__main__"):
        name = "%s.%s" % (kind.__module__, name)
    try:
        message = str(error)
    except Exception:
        message = "<unprintable %s>" % kind.__name__
    file, line = _innermost(error.__traceback__, files)
    return {"type": name, "message": _truncate(message), "file": file, "line": line}


def run(script, files):
    """Runs the script; returns the result's `exit` object. `files` (canonical paths) are the
    user's files, for the exception's location. Prints an uncaught exception's traceback and a
    `sys.exit("message")` text to stderr, as the interpreter would."""
    try:
        # An absolute path becomes co_filename: the tracer and the exception's location then
        # still name the right file after the script changes its working directory.
        runpy.run_path(os.path.abspath(script), run_name="__main__")
    except SystemExit as stop:
        code = stop.code
        if code is None:
            code = 0
        elif not isinstance(code, int) or isinstance(code, bool):
            try:
                sys.stderr.write("%s\n" % (code,))
            except Exception:
                pass
            code = 1
        return {"kind": "exit", "code": code, "exception": None}
    except BaseException as error:  # KeyboardInterrupt included: it ends the script like any other
        try:
            traceback.print_exception(type(error), error, _from_script(error.__traceback__, files))
        except Exception:
            pass
        return {"kind": "exception", "code": None, "exception": _exception(error, files)}
    return {"kind": "completed", "code": 0, "exception": None}
