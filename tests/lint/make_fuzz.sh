#!/usr/bin/env bash
# `make fuzz FUZZ_SECONDS=N` runs every libFuzzer target of tests/fuzz/ (issue 41: it had left the
# cache entry's out), each from the seeds ctest's smoke run gives it. Checked on `make -n fuzz`,
# which prints the commands unrun.
# usage: make_fuzz.sh REPO_ROOT
set -uo pipefail
root=${1:?usage: make_fuzz.sh REPO_ROOT}
commands=$(make --no-print-directory -n -C "$root" fuzz FUZZ_SECONDS=7) ||
  { echo "FAIL: make -n fuzz failed"; exit 1; }
status=0
for source in "$root"/tests/fuzz/*_fuzzer.cpp; do
  target=$(basename "$source" .cpp)
  if ! grep -qE "tests/fuzz/run.sh build/sanitize/tests/fuzz/$target 7 " <<<"$commands"; then
    echo "FAIL: make fuzz does not run $target for FUZZ_SECONDS"
    status=1
  fi
done
[ $status -eq 0 ] && echo "make fuzz runs every target of tests/fuzz/"
exit $status
