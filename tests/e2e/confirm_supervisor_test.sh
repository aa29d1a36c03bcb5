#!/usr/bin/env bash
# Nothing outlives a killed sealint (issue 41): `sealint confirm` is killed with SIGKILL while the
# script holds the GIL in C (so the probe's Python watchdog cannot run) and has started a process
# in a session of its own (which escapes a group kill). sealint's native supervisor must end both
# and remove the run's temporary folder. Needs Debian's python3-torch (/usr/bin/python3).
# usage: confirm_supervisor_test.sh SEALINT_BINARY
set -uo pipefail
sealint=$1
work=$(mktemp -d)
script_pid=""
daemon_pid=""
cleanup() {
  # Whatever the test's outcome, leave nothing behind.
  [[ -n $script_pid ]] && kill -9 "$script_pid" 2>/dev/null
  [[ -n $daemon_pid ]] && kill -9 "$daemon_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
mkdir tmp
cat > stuck.py <<'PY'
import os
import subprocess
import torch
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
daemon = subprocess.Popen(["sleep", "600"], start_new_session=True)
total = 0
for step in range(100):
    loss = model(torch.randn(4, 3)).sum()
    opt.zero_grad(); loss.backward(); opt.step()
    total += loss
    if step == 3:
        with open("pids.tmp", "w") as f:
            f.write("%d %d\n" % (os.getpid(), daemon.pid))
        os.rename("pids.tmp", "pids")
        sum(range(10 ** 12))  # in C, holding the GIL for many minutes
PY
fail() { echo "FAIL: $1" >&2; cat "$work/sealint.out" >&2 2>/dev/null; exit 1; }
alive() { [[ -d /proc/$1 ]] && ! grep -q '^[^)]*) [ZX]' "/proc/$1/stat" 2>/dev/null; }

TMPDIR=$work/tmp "$sealint" confirm --python /usr/bin/python3 --steps 20 stuck.py > sealint.out 2>&1 &
sealint_pid=$!
for _ in $(seq 1 600); do [[ -s pids ]] && break; sleep 0.1; done
[[ -s pids ]] || fail "the script never reached its stuck step"
read -r script_pid daemon_pid < pids
sleep 1  # into the long sum
alive "$script_pid" || fail "the script ended before sealint was killed"
ls -d tmp/sealint-confirm-* > /dev/null 2>&1 || fail "no run folder under TMPDIR while running"
kill -9 "$sealint_pid"
wait "$sealint_pid" 2>/dev/null
for _ in $(seq 1 100); do
  alive "$script_pid" || alive "$daemon_pid" || break
  sleep 0.1
done
alive "$script_pid" && fail "the script (pid $script_pid) outlived the killed sealint by 10 s"
alive "$daemon_pid" && fail "the detached process (pid $daemon_pid) outlived the killed sealint by 10 s"
for _ in $(seq 1 50); do ls -d tmp/sealint-confirm-* > /dev/null 2>&1 || break; sleep 0.1; done
ls -d tmp/sealint-confirm-* > /dev/null 2>&1 && fail "the run's temporary folder was left behind"
echo "ok: nothing outlived the killed sealint"
