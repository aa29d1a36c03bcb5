#!/usr/bin/env bash
# `sealint confirm` on a terminal shows a live line (loops' iterations, elapsed time) and erases
# it before the findings; through a pipe it prints nothing of the kind. The terminal is a
# pseudo-terminal from util-linux's `script` (bsdutils, essential on Debian).
# usage: confirm_progress_test.sh SEALINT_BINARY
set -uo pipefail
sealint=$1
command -v script >/dev/null || { echo "util-linux 'script' is missing (Debian: bsdutils)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
cat > slow.py <<'PY'
import time
import torch
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
total = 0
for i in range(100):
    loss = model(torch.randn(4, 3)).sum()
    opt.zero_grad(); loss.backward(); opt.step()
    total += loss
    time.sleep(0.1)
PY
fail() { echo "FAIL: $1" >&2; echo "--- output:" >&2; cat -v "$2" >&2; exit 1; }

printf -v cmd '%q confirm --color never --python /usr/bin/python3 --steps 10 slow.py' "$sealint"
script -qec "$cmd" /dev/null > tty.out 2>&1
grep -q $'\r\e\[Krunning slow.py: line 6 [0-9]*/10 ([0-9.]* s)' tty.out ||
  fail "no live line on a terminal" tty.out
grep -q 'confirmed: `total` grows by' tty.out || fail "no verdict on a terminal" tty.out

"$sealint" confirm --color never --python /usr/bin/python3 --steps 10 slow.py > pipe.out 2>&1
grep -q 'running slow.py' pipe.out && fail "a live line through a pipe" pipe.out
grep -q 'confirmed: `total` grows by' pipe.out || fail "no verdict through a pipe" pipe.out
echo "ok"
