#!/usr/bin/env bash
# action.yml, the GitHub Action: every step runs a command of scripts/action.sh, and those commands
# do what the Action promises with the built sealint: the SARIF log and the status as step outputs
# for findings (1), none (0) and a run sealint refuses (2), and the final verdict, which fails on 1
# unless fail-on-findings is false and on 2 always. README.md's CI recipe uses the Action.
#   action_test.sh SEALINT_DIR SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; status=1; }
status=0

python3 - "$src" <<'PY' || status=1
import re, sys, yaml
src = sys.argv[1]
action = yaml.safe_load(open(f"{src}/action.yml"))
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL:", what); ok = False
check(action["runs"]["using"] == "composite", "a composite action")
for name, spec in action["inputs"].items():
    check("description" in spec and "default" in spec, f"input {name} has a description and a default")
commands = set()
for step in action["runs"]["steps"]:
    if "run" in step:
        found = re.match(r'"\$GITHUB_ACTION_PATH/scripts/action\.sh" (\w+)', step["run"])
        check(found is not None, f"step {step['name']!r} runs scripts/action.sh")
        if found: commands.add(found.group(1))
check(commands == {"key", "build", "install", "run", "verdict"}, f"the steps' commands: {commands}")
uses = [s["uses"] for s in action["runs"]["steps"] if "uses" in s]
check(any(u.startswith("github/codeql-action/upload-sarif@") for u in uses), "uploads SARIF")
readme = open(f"{src}/README.md").read()
check(re.search(r"uses: sealint/sealint@v\d", readme) is not None, "README's recipe uses the Action")
sys.exit(0 if ok else 1)
PY

cd "$work" || exit 1
export PATH="$bin:$PATH" HOME="$work"
cp "$src/examples/leaky_total_loss.py" leaky.py
cp "$src/examples/fixed_total_loss.py" fixed.py

GITHUB_OUTPUT=$work/key.out "$src/scripts/action.sh" key >/dev/null
grep -Eq '^key=[0-9a-f]{32}$' key.out || fail "key: $(cat key.out)"

run_action() {  # ARGS -> the step's outputs in out.txt
  rm -f out.txt sealint.sarif
  GITHUB_OUTPUT=$work/out.txt SEALINT_ARGS="$1" SEALINT_SARIF=sealint.sarif \
    "$src/scripts/action.sh" run > log.txt 2>&1
}
run_action "leaky.py --no-cache"
grep -qx 'status=1' out.txt || fail "findings: $(cat out.txt)"
grep -qx 'wrote=true' out.txt || fail "findings: no SARIF log"
python3 -c "import json; assert json.load(open('sealint.sarif'))['runs'][0]['results']" ||
  fail "findings: the SARIF log has no result"
grep -q 'SL001' log.txt || fail "findings: the log does not name them"
run_action "fixed.py --no-cache"
grep -qx 'status=0' out.txt || fail "no findings: $(cat out.txt)"
run_action "leaky.py --select SL999"
grep -qx 'status=2' out.txt || fail "bad option: $(cat out.txt)"

verdict() { SEALINT_STATUS=$1 SEALINT_FAIL_ON_FINDINGS=$2 "$src/scripts/action.sh" verdict >/dev/null; echo $?; }
[ "$(verdict 0 true)" = 0 ] || fail "verdict 0"
[ "$(verdict 1 true)" = 1 ] || fail "verdict 1 fails"
[ "$(verdict 1 false)" = 0 ] || fail "verdict 1 with fail-on-findings false passes"
[ "$(verdict 2 false)" = 2 ] || fail "verdict 2 fails whatever fail-on-findings says"
exit $status
