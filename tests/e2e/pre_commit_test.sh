#!/usr/bin/env bash
# Runs this repository's .pre-commit-hooks.yaml through Debian's real pre-commit (try-repo reads
# the working tree, committed or not) in a temporary git repository with a leaky and a clean
# file: the hook must fail on the leaky one, printing the finding, and pass on the clean one.
# usage: pre_commit_test.sh SEALINT_BUILD_DIR REPO_ROOT
set -uo pipefail
build_dir=$1
root=$2
command -v pre-commit >/dev/null || { echo "pre-commit is missing: run make deps" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PATH="$build_dir:$PATH" HOME="$work/home" PRE_COMMIT_HOME="$work/cache"
mkdir -p "$HOME"
cd "$work" && git init -q repo && cd repo
git config user.email test@example.com && git config user.name test
cat > leaky.py <<'PY'
import torch


def train(model, loader, optimizer, criterion):
    total = 0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss
    return total
PY
sed 's/total += loss/total += loss.item()/' leaky.py > clean.py
cat > leaky.cpp <<'CPP'
#include <torch/torch.h>

torch::Tensor train(torch::nn::Linear& model, const std::vector<torch::Tensor>& xs) {
  torch::Tensor total = torch::zeros({});
  for (const auto& x : xs) {
    auto loss = model->forward(x).sum();
    loss.backward();
    total += loss;
  }
  return total;
}
CPP
# The leaky loop as a notebook's one code cell.
python3 - <<'PY'
import json
source = open("leaky.py").read().splitlines(keepends=True)
cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}
notebook = {"cells": [cell], "metadata": {"language_info": {"name": "python"}}, "nbformat": 4,
            "nbformat_minor": 5}
json.dump(notebook, open("leaky.ipynb", "w"), indent=1)
PY
git add leaky.py clean.py leaky.cpp leaky.ipynb

status=0
out=$(pre-commit try-repo "$root" sealint --files leaky.py 2>&1)
rc=$?
if [ $rc -eq 0 ] || ! grep -q "leaky.py:11:9: error\[SL001\]" <<<"$out"; then
  echo "FAIL: the hook should fail on leaky.py and print its SL001 (exit $rc):"; echo "$out"; status=1
fi
out=$(pre-commit try-repo "$root" sealint --files clean.py 2>&1)
rc=$?
if [ $rc -ne 0 ] || ! grep -q "Passed" <<<"$out"; then
  echo "FAIL: the hook should pass on clean.py (exit $rc):"; echo "$out"; status=1
fi
# C++ files go to the hook too, and all files to one sealint process: one summary line.
out=$(pre-commit try-repo "$root" sealint --files leaky.py clean.py leaky.cpp 2>&1)
rc=$?
if [ $rc -eq 0 ] || ! grep -q "leaky.cpp:8:5: error\[SL001\]" <<<"$out" ||
   [ "$(grep -c '^Found ' <<<"$out")" -ne 1 ]; then
  echo "FAIL: the hook should report leaky.cpp's SL001 in one sealint run (exit $rc):"
  echo "$out"; status=1
fi
# Notebooks go to the hook (pre-commit's `jupyter` type).
out=$(pre-commit try-repo "$root" sealint --files leaky.ipynb 2>&1)
rc=$?
if [ $rc -eq 0 ] || ! grep -q "leaky.ipynb:cell 1:11:9: error\[SL001\]" <<<"$out"; then
  echo "FAIL: the hook should fail on leaky.ipynb and print its SL001 (exit $rc):"; echo "$out"
  status=1
fi
[ $status -eq 0 ] && echo "pre-commit hook: fails on leaky.py, leaky.ipynb and leaky.cpp with SL001 in one run, passes on clean.py"
exit $status
