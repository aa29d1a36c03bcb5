#!/usr/bin/env bash
# Validates the SARIF that sealint writes for every fixture file (tests/sarif/check_sarif.py), for a
# notebook and for confirm mode: the logs are written first, then checked in one validator run.
# usage: validate_fixtures.sh SEALINT REPO_ROOT
set -euo pipefail
sealint=$1
root=$2
tool=$root/tools/sarif/node_modules/@microsoft/sarif-multitool-linux
[ -x "$tool/Sarif.Multitool" ] || { echo "Sarif.Multitool is missing: run make deps" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fixture_logs=()
cd "$root"
for fixture in fixtures/python/*.py fixtures/python/*/*.py; do
  [ -e "$fixture" ] || continue
  out=$work/$(echo "$fixture" | tr '/' '_').sarif
  # Exit 1 (findings) and 2 (the engine fixtures' input errors) both still write the log; a crash
  # or an internal error writes none, and fails here rather than being skipped.
  rc=0
  # --no-cache: the source tree gets no .sealint_cache.
  "$sealint" --no-cache --format sarif --show-suppressed -o "$out" "$fixture" 2>"$out.err" || rc=$?
  if [ "$rc" -gt 2 ] || [ ! -s "$out" ]; then
    echo "$fixture: sealint exited $rc and wrote no SARIF: $(cat "$out.err")" >&2
    status=1
    continue
  fi
  fixture_logs+=("$out")
done
# Fixtures of the engine hold no rule findings: nothing to validate there. A log that is not JSON
# fails here.
/usr/bin/python3 -c '
import json, sys
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        if json.load(f)["runs"][0]["results"]:
            print(path)' "${fixture_logs[@]}" >"$work/with_results" || status=1
mapfile -t logs <"$work/with_results"
# A notebook's regions are in its cells, which each region's property bag names.
out=$work/notebook.sarif
rc=0
"$sealint" --no-cache --format sarif -o "$out" examples/notebooks/leaky_total_loss.ipynb 2>"$out.err" || rc=$?
if [ "$rc" -ne 1 ] || ! grep -q '"cell": 4' "$out"; then
  echo "notebook: expected a finding in cell 4 (exit 1), got exit $rc: $(cat "$out.err")" >&2
  status=1
else
  logs+=("$out")
fi
# Confirm mode adds a verdict, and a code flow of what holds the growth, to a result.
out=$work/confirm.sarif
if ! "$sealint" confirm --python /usr/bin/python3 --format sarif -o "$out" \
    examples/leaky_loss_list.py -- --steps 100 2>"$out.err" && [ ! -s "$out" ]; then
  echo "confirm: no SARIF: $(cat "$out.err")" >&2
  status=1
elif ! grep -q '"codeFlows"' "$out"; then
  echo "confirm: the SARIF has no code flow of what holds the growth" >&2
  status=1
else
  logs+=("$out")
fi
/usr/bin/python3 "$root/tests/sarif/check_sarif.py" "$tool/Sarif.Multitool" "$tool/sarif-2.1.0.json" "${logs[@]}" || status=1
exit $status
