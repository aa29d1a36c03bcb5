#!/usr/bin/env bash
# usage: compile_examples.sh REPO_ROOT
#
# Parses (clang++-19 -fsyntax-only, C++17) every LibTorch C++ example and the model-header
# stress checks twice:
#   1. against the real LibTorch 1.13 headers (Debian's libtorch-dev), ~10 s per file;
#   2. against sealint's model of the LibTorch API (analyzer/cpp/torch_model), < 1 s per file.
# Files: REPO_ROOT/examples/cpp/*.cpp, tests/cpp_examples/model_header_cases.cpp,
# tests/cpp_examples/model_header_types.cpp and tests/cpp_examples/pytorch_examples_names.cpp.
# Exits 0 when every file parses under both header sets; otherwise prints each failure
# with the compiler's first errors and exits 1. Exits 2 on bad usage or a missing tool.
#
# Environment: CLANGXX (default clang++-19), TORCH_INCLUDE (default
# /usr/include/torch/csrc/api/include), JOBS (default: number of CPUs).
set -u

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: compile_examples.sh REPO_ROOT" >&2
  exit 2
fi
root=$(cd "$1" && pwd)
cxx=${CLANGXX:-clang++-19}
torch_include=${TORCH_INCLUDE:-/usr/include/torch/csrc/api/include}
model_include="$root/analyzer/cpp/torch_model"
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "compile_examples.sh: $cxx not found (install clang-19)" >&2
  exit 2
fi
if [ ! -f "$torch_include/torch/torch.h" ]; then
  echo "compile_examples.sh: real LibTorch headers not found at $torch_include/torch/torch.h" >&2
  echo "  (install libtorch-dev, or set TORCH_INCLUDE)" >&2
  exit 2
fi
if [ ! -f "$model_include/torch/torch.h" ]; then
  echo "compile_examples.sh: model header not found at $model_include/torch/torch.h" >&2
  exit 2
fi

files=()
for f in "$root"/examples/cpp/*.cpp; do
  [ -e "$f" ] && files+=("$f")
done
for f in model_header_cases.cpp model_header_types.cpp pytorch_examples_names.cpp; do
  files+=("$root/tests/cpp_examples/$f")
done
if [ "${#files[@]}" -eq 0 ]; then
  echo "compile_examples.sh: no files to compile under $root/examples/cpp" >&2
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One job per (file, header set); each writes its log and exit status under $tmp.
run_one() { # id mode file
  local id=$1 mode=$2 file=$3 inc
  if [ "$mode" = real ]; then inc=$torch_include; else inc=$model_include; fi
  local start end
  start=$(date +%s.%N)
  "$cxx" -std=c++17 -fsyntax-only -I "$inc" "$file" >"$tmp/$id.log" 2>&1
  echo $? >"$tmp/$id.rc"
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f\n", e - s }' >"$tmp/$id.time"
}

ids=()
n=0
running=0
for f in "${files[@]}"; do
  if [ ! -f "$f" ]; then
    echo "compile_examples.sh: missing $f" >&2
    exit 1
  fi
  for mode in real model; do
    id="$n.$mode"
    ids+=("$id|$mode|$f")
    if [ "$running" -ge "$jobs" ]; then
      wait -n
      running=$((running - 1))
    fi
    run_one "$id" "$mode" "$f" &
    running=$((running + 1))
  done
  n=$((n + 1))
done
wait

failed=0
for entry in "${ids[@]}"; do
  IFS='|' read -r id mode f <<<"$entry"
  rel=${f#"$root"/}
  rc=$(cat "$tmp/$id.rc" 2>/dev/null || echo 1)
  secs=$(cat "$tmp/$id.time" 2>/dev/null || echo "?")
  if [ "$mode" = real ]; then what="real LibTorch headers ($torch_include)"; else what="sealint model header ($model_include)"; fi
  if [ "$rc" -eq 0 ]; then
    printf 'ok    %-45s %-6s %ss\n' "$rel" "$mode" "$secs"
  else
    failed=$((failed + 1))
    printf 'FAIL  %-45s %-6s %ss\n' "$rel" "$mode" "$secs"
    echo "  $rel does not compile against the $what:"
    grep -m 5 'error:' "$tmp/$id.log" | sed 's/^/    /'
  fi
done

if [ "$failed" -ne 0 ]; then
  echo "compile_examples.sh: $failed of ${#ids[@]} compilations failed" >&2
  exit 1
fi
echo "compile_examples.sh: all ${#files[@]} files compile against both the real LibTorch headers and the model header"
exit 0
