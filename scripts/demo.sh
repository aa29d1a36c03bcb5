#!/usr/bin/env bash
# `make demo`: runs sealint on each example, leaky scripts first, so a new user sees what it
# reports and that the fixed twins are clean, then confirms the leak by running a leaky script
# and its fixed twin. Fails if an expectation does not hold. `lint` or `confirm` runs one part
# (`make demo` installs confirm mode's torch between them, so the first finding comes sooner).
set -uo pipefail
sealint=${1:?usage: scripts/demo.sh path/to/sealint [lint|confirm|all]}
part=${2:-all}
case $part in lint | confirm | all) ;; *) echo "demo: unknown part '$part'" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."

status=0
if [ "$part" != confirm ]; then
  for file in examples/leaky_*.py examples/cpp/leaky_*.cpp examples/notebooks/leaky_*.ipynb; do
    echo "\$ sealint $file"
    "$sealint" "$file"
    rc=$?
    echo
    if [ "$rc" -ne 1 ]; then
      echo "demo: expected findings (exit 1) on $file, got exit $rc" >&2
      status=1
    fi
  done
  echo "\$ sealint examples/fixed_*.py examples/cpp/fixed_*.cpp examples/notebooks/fixed_*.ipynb"
  "$sealint" examples/fixed_*.py examples/cpp/fixed_*.cpp examples/notebooks/fixed_*.ipynb
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "demo: expected no findings (exit 0) on the fixed examples, got exit $rc" >&2
    status=1
  fi
fi
[ "$part" = lint ] && exit $status

# Confirm mode: run the leaky example and its fixed twin under Debian's torch (`make demo` and
# `make deps` install python3-torch for /usr/bin/python3).
for file in examples/leaky_total_loss.py examples/fixed_total_loss.py; do
  echo
  echo "\$ sealint confirm --python /usr/bin/python3 $file -- --steps 100"
  "$sealint" confirm --python /usr/bin/python3 "$file" -- --steps 100
  rc=$?
  expected=1
  [[ $file == *fixed_* ]] && expected=0
  if [ "$rc" -ne "$expected" ]; then
    echo "demo: expected exit $expected from sealint confirm on $file, got exit $rc" >&2
    status=1
  fi
done
# What holds the leak and when it runs out: a validation loop with autograd on, projected against
# a 16 GiB device.
echo
echo "\$ sealint confirm --python /usr/bin/python3 --device-memory 16GiB examples/leaky_eval_loss.py"
out=$("$sealint" confirm --python /usr/bin/python3 --device-memory 16GiB examples/leaky_eval_loss.py)
rc=$?
echo "$out"
if [ "$rc" -ne 1 ] || ! grep -q "held by: " <<<"$out" || ! grep -q "runs out near iteration" <<<"$out"; then
  echo "demo: expected a confirmed leak with what holds it and when 16 GiB runs out" >&2
  status=1
fi
exit $status
