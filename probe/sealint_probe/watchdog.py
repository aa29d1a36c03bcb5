"""Ends the run when sealint cannot: a sealint killed with SIGKILL (or stuck) neither times the
script out nor removes its temporary folder. sealint names itself, its deadline and the folder in
the environment; a daemon thread watches them and, when the parent is gone or the deadline has
passed, removes the folder and kills the probe's process group (the script and its DataLoader
workers). Without those variables (the probe run by hand) nothing is watched.
"""
import os
import shutil
import signal
import threading
import time

PARENT = "SEALINT_PARENT_PID"
DEADLINE = "SEALINT_DEADLINE"
FOLDER = "SEALINT_TEMP_DIR"
# The folders sealint makes (analyzer/cli/probe_run.cpp): nothing else is ever removed.
FOLDER_PREFIX = "sealint-confirm-"


def _alive(pid):
    # Asked of the process, not of our parent: an interpreter started through a wrapper that
    # forks has the wrapper as its parent while sealint lives. A killed sealint nobody has reaped
    # yet (a container's init may never) is a zombie: gone too.
    try:
        with open("/proc/%d/stat" % pid) as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except (OSError, IndexError):
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _number(text, kind):
    try:
        return kind(text) if text else None
    except ValueError:
        return None


class Watch:
    def __init__(self, environ, alive=_alive, clock=time.time):
        self.parent = _number(environ.get(PARENT), int)
        self.deadline = _number(environ.get(DEADLINE), float)
        folder = environ.get(FOLDER) or ""
        name = os.path.basename(os.path.normpath(folder)) if folder else ""
        self.folder = folder if name.startswith(FOLDER_PREFIX) else None
        self._alive = alive
        self._clock = clock

    def active(self):
        return self.parent is not None or self.deadline is not None

    def why_end(self):
        """None while the run may go on; else a sentence saying why it ends."""
        if self.parent is not None and not self._alive(self.parent):
            return "sealint (pid %d) is gone" % self.parent
        if self.deadline is not None and self._clock() > self.deadline:
            return "sealint's deadline passed"
        return None

    def end_run(self, why):
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
        try:
            os.write(2, ("sealint_probe: %s; ending the run\n" % why).encode())
            os.killpg(os.getpgrp(), signal.SIGKILL)
        finally:
            os._exit(124)


def _watch(watch, interval):
    while True:
        why = watch.why_end()
        if why is not None:
            watch.end_run(why)
        time.sleep(interval)


def start(environ=None, interval=0.25):
    """Starts the watching thread; returns the Watch, or None when there is nothing to watch."""
    watch = Watch(os.environ if environ is None else environ)
    if not watch.active():
        return None
    threading.Thread(target=_watch, args=(watch, interval), name="sealint-watchdog",
                     daemon=True).start()
    return watch
