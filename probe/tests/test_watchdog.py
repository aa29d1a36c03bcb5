"""The probe ends the run itself when sealint is gone or past its deadline (watchdog.py), so a
sealint killed with SIGKILL leaves neither a running script nor its temporary folder."""
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

from sealint_probe import watchdog
from tests import helpers


class WatchTest(unittest.TestCase):
    def test_nothing_is_watched_without_sealint(self):
        self.assertFalse(watchdog.Watch({}).active())
        self.assertIsNone(watchdog.start({}))

    def test_a_gone_parent_or_a_passed_deadline_ends_the_run(self):
        env = {watchdog.PARENT: "4242", watchdog.DEADLINE: "100"}
        alive = watchdog.Watch(env, alive=lambda pid: pid == 4242, clock=lambda: 99.0)
        self.assertIsNone(alive.why_end())
        orphan = watchdog.Watch(env, alive=lambda pid: False, clock=lambda: 99.0)
        self.assertIn("is gone", orphan.why_end())
        late = watchdog.Watch(env, alive=lambda pid: True, clock=lambda: 101.0)
        self.assertIn("deadline", late.why_end())

    def test_a_killed_sealint_not_yet_reaped_is_gone(self):
        # A container's init may never reap it: a zombie is not a live sealint.
        zombie = subprocess.Popen([sys.executable, "-c", "pass"])
        for _ in range(200):
            if _zombie(zombie.pid):
                break
            time.sleep(0.01)
        self.assertFalse(watchdog._alive(zombie.pid))
        zombie.wait()
        self.assertFalse(watchdog._alive(zombie.pid))
        self.assertTrue(watchdog._alive(os.getpid()))

    def test_only_sealints_own_folder_is_ever_removed(self):
        self.assertIsNone(watchdog.Watch({watchdog.FOLDER: "/home/user"}).folder)
        self.assertIsNone(watchdog.Watch({watchdog.PARENT: "x"}).parent)  # garbage is ignored
        kept = watchdog.Watch({watchdog.FOLDER: "/tmp/sealint-confirm-ab12/"})
        self.assertEqual(kept.folder, "/tmp/sealint-confirm-ab12/")


class OrphanedRunTest(unittest.TestCase):
    def test_the_run_ends_and_its_folder_goes_when_sealint_is_gone(self):
        folder = tempfile.mkdtemp(prefix=watchdog.FOLDER_PREFIX)
        # The run's process group: the probe and a worker it started, told that sealint is a
        # process that has ended (as after sealint's SIGKILL).
        script = textwrap.dedent("""
            import subprocess, sys, time
            from sealint_probe import watchdog
            worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            print(worker.pid, flush=True)
            watchdog.start(interval=0.05)
            time.sleep(60)
        """)
        env = dict(os.environ, PYTHONPATH=helpers.PROBE_ROOT)
        gone = subprocess.Popen([sys.executable, "-c", "pass"])
        gone.wait()  # a pid that no process has now
        env.update({watchdog.PARENT: str(gone.pid), watchdog.FOLDER: folder})
        started = time.monotonic()
        run = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
        try:
            worker = int(run.stdout.readline())
            run.wait(timeout=60)
        finally:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
                run.wait()
        self.assertLess(time.monotonic() - started, 60)
        self.assertEqual(run.returncode, -signal.SIGKILL)
        self.assertIn(b"is gone", run.stderr.read())
        self.assertFalse(os.path.exists(folder))
        # The worker was in the same group: it ended too (reaped by init, or gone already).
        for _ in range(100):
            if not os.path.exists("/proc/%d" % worker) or _zombie(worker):
                break
            time.sleep(0.05)
        self.assertTrue(not os.path.exists("/proc/%d" % worker) or _zombie(worker))


def _zombie(pid):
    try:
        with open("/proc/%d/stat" % pid) as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


if __name__ == "__main__":
    unittest.main()
