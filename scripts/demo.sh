#!/usr/bin/env bash
# `make demo`: runs sealint on each example, leaky scripts first, so a new user sees what it
# reports and that the fixed twins are clean. Fails if either expectation does not hold.
set -uo pipefail
sealint=${1:?usage: scripts/demo.sh path/to/sealint}
cd "$(dirname "$0")/.."

status=0
for file in examples/leaky_*.py examples/cpp/leaky_*.cpp; do
  echo "\$ sealint $file"
  "$sealint" "$file"
  rc=$?
  echo
  if [ "$rc" -ne 1 ]; then
    echo "demo: expected findings (exit 1) on $file, got exit $rc" >&2
    status=1
  fi
done
echo "\$ sealint examples/fixed_*.py examples/cpp/fixed_*.cpp"
"$sealint" examples/fixed_*.py examples/cpp/fixed_*.cpp
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "demo: expected no findings (exit 0) on the fixed examples, got exit $rc" >&2
  status=1
fi
exit $status
