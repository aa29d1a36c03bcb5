#!/usr/bin/env bash
# The wheel of `make wheel` (build/wheel/dist), as a Python user gets sealint: a fresh virtual
# environment, `pip install --no-index` of the file (no network), then the installed `sealint`
# with an environment holding no build tree and no library path: it needs only the C library
# (ldd), lints an example, parses LibTorch C++ with the builtin headers it carries, and confirms a
# finding with the confirm probe it carries (--python /usr/bin/python3, Debian's torch).
#   wheel_test.sh WHEEL_DIR SOURCE_DIR VERSION
# Exit 77 (skipped) when no wheel was built: `make test` builds it first, with `make wheel`.
set -uo pipefail
dist=$1
src=$2
version=$3
shopt -s nullglob
wheels=("$dist"/sealint-"$version"-py3-none-*.whl)
if [ ${#wheels[@]} -ne 1 ]; then
  echo "SKIPPED: no wheel in $dist (build it with \`make wheel\`; \`make test\` does)"
  exit 77
fi
wheel=${wheels[0]}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

case "$(basename "$wheel")" in
  sealint-"$version"-py3-none-manylinux_2_*_"$(uname -m)".whl) ;;
  *) fail "wheel name $(basename "$wheel")" ;;
esac
/usr/bin/python3 -m venv "$work/venv" || { echo "FAIL: python3 -m venv"; exit 1; }
"$work/venv/bin/pip" install --no-index --no-cache-dir -q "$wheel" || { echo "FAIL: pip install"; exit 1; }
bin=$work/venv/bin/sealint
[ -x "$bin" ] || { echo "FAIL: no sealint on the venv's PATH"; exit 1; }

for file in share/man/man1/sealint.1 share/bash-completion/completions/sealint \
            share/sealint/clang/include/stddef.h share/sealint/probe/sealint_probe/__main__.py; do
  [ -f "$work/venv/$file" ] || fail "the wheel did not install $file"
done

# The copyright file (DEP-5) of what the statically linked binary carries, in the .dist-info.
site=("$work"/venv/lib/python3*/site-packages/sealint-"$version".dist-info)
cmp -s "$src/COPYRIGHT" "${site[0]}/COPYRIGHT" || fail "the wheel's .dist-info has no COPYRIGHT"

# Only the C library (and the loader, the vDSO) at run time: no LLVM, Clang, fmt, toml++, libstdc++.
needed=$(ldd "$bin" | awk '{print $1}' | sed 's/\.so.*//' | sort -u | tr '\n' ' ')
for lib in $needed; do
  case "$lib" in
    linux-vdso | /lib64/ld-linux-x86-64 | /lib/ld-linux-aarch64 | libc | libm) ;;
    *) fail "needs $lib (ldd: $needed)" ;;
  esac
done

cd "$work" || exit 1
cp "$src/examples/leaky_total_loss.py" train.py
cp "$src/examples/cpp/leaky_train.cpp" train.cpp
clean_env=(env -i "PATH=$work/venv/bin:/usr/bin:/bin" "HOME=$work")
"${clean_env[@]}" sealint --version | grep -qx "sealint $version" || fail "--version"
"${clean_env[@]}" sealint train.py --no-cache > lint.txt 2>&1
[ $? -eq 1 ] && grep -q 'error\[SL001\]' lint.txt || { fail "lint"; cat lint.txt; }
"${clean_env[@]}" sealint train.cpp --no-cache > cpp.txt 2>&1
[ $? -eq 1 ] && grep -q 'error\[SL001\]' cpp.txt || { fail "C++"; cat cpp.txt; }
"${clean_env[@]}" sealint confirm train.py --python /usr/bin/python3 --steps 6 > confirm.txt 2>&1
[ $? -eq 1 ] && grep -q 'confirmed' confirm.txt || { fail "confirm"; cat confirm.txt; }
"$work/venv/bin/pip" uninstall -y -q sealint || fail "pip uninstall"
[ ! -e "$bin" ] || fail "uninstall left the binary"
exit $status
