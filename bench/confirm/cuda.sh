#!/usr/bin/env bash
# Confirm mode's CUDA path on a GPU machine that has python3 with CUDA torch but not our build,
# in the three steps docs/confirm.md describes (plan here, probe there, verdicts here):
#
#   bench/confirm/cuda.sh plans BUILD_DIR DIR     write DIR/<case>.plan.json for every case
#   bench/confirm/cuda.sh run DIR OUT             on the GPU machine, from the repository root:
#                                                 the probe on every case, OUT/<case>.result.json,
#                                                 OUT/<case>.pickle (the snapshot), OUT/<case>.log,
#                                                 then eval_until_oom.py run until CUDA memory
#                                                 runs out (the projection's check)
#   bench/confirm/cuda.sh verdicts BUILD_DIR OUT  sealint confirm --result for every case
#   bench/confirm/cuda.sh reports BUILD_DIR OUT   the same with --report: OUT/<case>.html, linking
#                                                 to OUT/<case>.pickle
#
#   PYTHON=python3  the interpreter with CUDA torch (run)
#   ONLY="a b"      only these cases (run, verdicts), and no out-of-memory run
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
# name | script | the script's arguments | confirm --steps | options of the plan (rules selected)
cases() {
  all_cases | while IFS='|' read -r name rest; do
    if [[ -z ${ONLY:-} || " $ONLY " == *" $name "* ]]; then echo "$name|$rest"; fi
  done
}

all_cases() {
  cat <<'EOF'
leaky_total_loss|examples/leaky_total_loss.py|--steps 100 --width 1024 --batch-size 512|20
fixed_total_loss|examples/fixed_total_loss.py|--steps 100 --width 1024 --batch-size 512|20
leaky_loss_list|examples/leaky_loss_list.py|--steps 100 --width 1024 --batch-size 512|20
fixed_loss_list|examples/fixed_loss_list.py|--steps 100 --width 1024 --batch-size 512|20
rnn_eval|bench/confirm/rnn_eval.py|--steps 40|20
leaky_eval_loss|examples/leaky_eval_loss.py|--steps 40|20
eval_until_oom|bench/confirm/eval_until_oom.py|--steps 40|20
loader_workers|bench/confirm/loader_workers.py|--workers 2|20
compiled_amp|bench/confirm/compiled_amp.py|--steps 60|20
eager_amp|bench/confirm/compiled_amp.py|--steps 60 --no-compile|20
hook_step|bench/confirm/hook_step.py|--batches 200|20
forward_stat|bench/confirm/forward_stat.py|--steps 60|20
renamed_eval_no_rule|bench/confirm/renamed_eval.py|--steps 40|20|--select SL003
renamed_eval_sl006|bench/confirm/renamed_eval.py|--steps 40|20|--select SL006
renamed_eval_grad_off|bench/confirm/renamed_eval.py|--steps 40 --grad-off|20|--select SL006
EOF
}

usage() {
  sed -n '4,13p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

plans() {
  local sealint="$1/sealint" dir="$2"
  [[ -x $sealint ]] || { echo "cuda.sh: no sealint executable at '$sealint'" >&2; exit 2; }
  mkdir -p "$dir"
  while IFS='|' read -r name script _ steps options; do
    # shellcheck disable=SC2086  # the options are words
    "$sealint" confirm --plan-only --steps "$steps" $options -o "$dir/$name.plan.json" \
      "$root/$script"
  done < <(cases)
}

run_cases() {
  local dir="$1" out="$2" python=${PYTHON:-python3}
  mkdir -p "$out"
  "$python" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda,
    "device", torch.cuda.get_device_name(0) if torch.cuda.is_available() else None)'
  # hook_step.py runs under real PyTorch Lightning where it is installed, else under a stand-in.
  local path="$root/probe"
  if ! "$python" -c 'import pytorch_lightning' 2>/dev/null; then
    echo "no pytorch_lightning here: hook_step runs on bench/confirm/stand_in"
    path="$path:$root/bench/confirm/stand_in"
  fi
  while IFS='|' read -r name script args _ _; do
    local started=$SECONDS status=0
    # shellcheck disable=SC2086  # the arguments are words
    PYTHONPATH="$path" "$python" -m sealint_probe --plan "$dir/$name.plan.json" \
      --out "$out/$name.result.json" --snapshot "$out/$name.pickle" \
      -- "$root/$script" $args >"$out/$name.log" 2>&1 || status=$?
    echo "$name: probe exit $status in $((SECONDS - started)) s"
  done < <(cases)
  # The projection's check: the same leak run until the GPU is full, without the probe.
  if [[ -z ${ONLY:-} ]]; then
    "$python" "$root/bench/confirm/eval_until_oom.py" --until-oom | tee "$out/eval_until_oom.oom"
  fi
}

verdicts() {
  local sealint="$1/sealint" out="$2"
  while IFS='|' read -r name script _ _ options; do
    echo "== $name"
    # shellcheck disable=SC2086  # the options are words
    "$sealint" confirm --result "$out/$name.result.json" $options "$root/$script" || true
  done < <(cases)
}

reports() {
  local sealint="$1/sealint" out="$2"
  while IFS='|' read -r name script _ _ options; do
    local snapshot=()
    [[ -f $out/$name.pickle ]] && snapshot=(--snapshot "$out/$name.pickle")
    # shellcheck disable=SC2086  # the options are words
    "$sealint" confirm --result "$out/$name.result.json" "${snapshot[@]}" \
      --report "$out/$name.html" $options "$root/$script" >/dev/null || true
    echo "$name: $out/$name.html"
  done < <(cases)
}

case "${1:-}" in
  plans) [[ $# -eq 3 ]] || usage; plans "$2" "$3" ;;
  run) [[ $# -eq 3 ]] || usage; run_cases "$2" "$3" ;;
  verdicts) [[ $# -eq 3 ]] || usage; verdicts "$2" "$3" ;;
  reports) [[ $# -eq 3 ]] || usage; reports "$2" "$3" ;;
  *) usage ;;
esac
