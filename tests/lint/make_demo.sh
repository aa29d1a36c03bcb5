#!/usr/bin/env bash
# `make demo` is a new user's first command: it must install only what building sealint needs (no
# test tool-chain), build only the `sealint` target (the `install` preset, which has no test tree)
# and run nothing of the test suite. Checked on `make -n demo`, which prints the commands unrun.
# usage: make_demo.sh REPO_ROOT
set -uo pipefail
root=${1:?usage: make_demo.sh REPO_ROOT}
commands=$(make --no-print-directory -n -C "$root" demo) || { echo "FAIL: make -n demo failed"; exit 1; }
status=0
fail() { echo "FAIL: $*"; echo "$commands"; status=1; }
for test_package in libgtest-dev libgmock-dev python3-jsonschema hyperfine pre-commit neovim \
  libclang-rt-19-dev libtorch-dev; do
  grep -qw -- "$test_package" <<<"$commands" && fail "make demo installs $test_package (a test tool)"
done
grep -q -- '--build-only' <<<"$commands" || fail "make demo installs the test npm packages too"
grep -q -- 'cmake --build --preset install' <<<"$commands" || fail "make demo builds another preset"
grep -q -- 'ctest' <<<"$commands" && fail "make demo runs tests"
targets=$(/usr/bin/python3 -c '
import json, sys
presets = json.load(open(sys.argv[1]))["buildPresets"]
print(" ".join(next(p for p in presets if p["name"] == "install").get("targets", ["ALL"])))
' "$root/CMakePresets.json")
[ "$targets" = sealint ] || fail "the install build preset builds '$targets', not only sealint"
[ $status -eq 0 ] && echo "make demo: build packages only, the sealint target only, no test run"
exit $status
