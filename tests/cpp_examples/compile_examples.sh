#!/usr/bin/env bash
# usage: compile_examples.sh REPO_ROOT
#
# Parses (clang++-19 -fsyntax-only, C++17) every LibTorch C++ example and the model-header
# stress checks twice:
#   1. against the real LibTorch 1.13 headers (Debian's libtorch-dev), ~10 s per file parsed from
#      source; a file whose first include is <torch/torch.h> uses a precompiled <torch/torch.h>
#      made once per run, its templates instantiated there (the PCH costs about 1.2 parses, then
#      each file about an eighth of one; the header comes first either way);
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

# The real headers, precompiled with the flags of every real-header parse below. Should that fail,
# each file is parsed from source, as the others are.
echo '#include <torch/torch.h>' >"$tmp/torch_prelude.h"
pch=$tmp/torch_prelude.h.pch
if ! "$cxx" -std=c++17 -x c++-header -fpch-instantiate-templates -I "$torch_include" "$tmp/torch_prelude.h" -o "$pch" \
    >"$tmp/pch.log" 2>&1; then
  echo "compile_examples.sh: note: the real headers did not precompile, each file is parsed from source:"
  head -n 5 "$tmp/pch.log" | sed 's/^/    /'
  pch=
fi

# Whether the first #include of `file` is <torch/torch.h>: then the PCH, which puts that header
# first, parses it as its own include would.
includes_torch_first() {
  [ "$(grep -m 1 -E '^[[:space:]]*#[[:space:]]*include' "$1" | tr -d '[:space:]')" = '#include<torch/torch.h>' ]
}

# One job per (file, header set); each writes its log and exit status under $tmp.
run_one() { # id mode file
  local id=$1 mode=$2 file=$3 inc
  local -a use_pch=()
  if [ "$mode" = real ]; then inc=$torch_include; else inc=$model_include; fi
  if [ "$mode" = real ] && [ -n "$pch" ] && includes_torch_first "$file"; then
    use_pch=(-include-pch "$pch")
    : >"$tmp/$id.pch"
  fi
  local start end
  start=$(date +%s.%N)
  "$cxx" -std=c++17 -fsyntax-only "${use_pch[@]}" -I "$inc" "$file" >"$tmp/$id.log" 2>&1
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
  label=$mode
  [ ! -e "$tmp/$id.pch" ] || label="real+pch"
  if [ "$mode" = real ]; then what="real LibTorch headers ($torch_include)"; else what="sealint model header ($model_include)"; fi
  if [ "$rc" -eq 0 ]; then
    printf 'ok    %-45s %-8s %ss\n' "$rel" "$label" "$secs"
  else
    failed=$((failed + 1))
    printf 'FAIL  %-45s %-8s %ss\n' "$rel" "$label" "$secs"
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
