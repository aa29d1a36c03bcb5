#!/usr/bin/env bash
# The probe's overhead: a plain run of a script against `sealint confirm` on it, for the same
# number of iterations (the script's --steps equals confirm's --steps, so both run the loop
# exactly that often). Two scripts: the tiny leaky example (the probe's worst case: its per-
# iteration cost is large next to a step) and a realistic MLP step (bench/confirm/train_mlp.py).
#
# usage: bench/confirm_overhead.sh BUILD_DIR
#   PYTHON=/usr/bin/python3  the interpreter with torch
#   STEPS=20  RUNS=5  WARMUP=1
set -euo pipefail

[[ $# -eq 1 ]] || { echo "usage: bench/confirm_overhead.sh BUILD_DIR" >&2; exit 2; }
sealint="$1/sealint"
python=${PYTHON:-/usr/bin/python3}
steps=${STEPS:-20}
runs=${RUNS:-5}
warmup=${WARMUP:-1}
root=$(cd "$(dirname "$0")/.." && pwd)

[[ -x $sealint ]] || { echo "bench: no sealint executable at '$sealint' (build first: make build)" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "bench: hyperfine not found (Debian: apt-get install hyperfine)" >&2; exit 2; }
"$python" -c "import torch" 2>/dev/null || { echo "bench: '$python' cannot import torch (Debian: apt-get install python3-torch)" >&2; exit 2; }

printf -v q_sealint '%q' "$sealint"
printf -v q_python '%q' "$python"
for script in "$root/examples/leaky_total_loss.py" "$root/bench/confirm/train_mlp.py"; do
  printf -v q_script '%q' "$script"
  echo "== $(basename "$script"), $steps iterations"
  # The probe alone (python3 -m sealint_probe) is the cost a GPU machine without our build pays;
  # sealint confirm adds the static analysis and the verdicts.
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/sealint-confirm-bench.XXXXXX")
  "$sealint" confirm --steps "$steps" --plan-only -o "$tmp/plan.json" "$script"
  hyperfine --style basic --runs "$runs" --warmup "$warmup" --ignore-failure \
    -n "plain run" "$q_python $q_script --steps $steps" \
    -n "probe alone" "PYTHONPATH=$root/probe $q_python -m sealint_probe --plan $tmp/plan.json --out $tmp/result.json -- $q_script --steps $steps" \
    -n "sealint confirm" "$q_sealint confirm --python $q_python --steps $steps $q_script -- --steps $steps"
  rm -rf "$tmp"
done
