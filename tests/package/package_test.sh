#!/usr/bin/env bash
# The Debian package that `make package` builds (cmake/package.cmake), made here by cpack from this
# build tree's install rules: its control fields (name, version, architecture, Debian's runtime
# libraries as dependencies and no test-only package), its files (the binary and the confirm
# probe, nothing else), and the packaged binary run from an extracted copy with a cleared
# environment: Python and C++ findings with exit status 1, SARIF, and `confirm` finding the
# packaged probe beside it (not the source tree's) and confirming a leak with it.
# usage: package_test.sh BUILD_DIR SOURCE_DIR VERSION
set -euo pipefail
build=$1
source=$2
version=$3

fail() {
  echo "FAIL: $1" >&2
  if [ $# -gt 1 ]; then
    echo "--- $2:" >&2
    cat "$2" >&2
  fi
  exit 1
}
# What this test needs is what `make deps` installs: a missing tool fails it, never skips it.
for tool in cpack dpkg dpkg-deb dpkg-shlibdeps file ldd /usr/bin/python3; do
  command -v "$tool" >/dev/null || fail "'$tool' is missing (run \`make deps\`)"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- the package
arch=$(dpkg --print-architecture)
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" > "$work/cpack.log" 2>&1 ||
  fail "cpack failed" "$work/cpack.log"
deb=$work/out/sealint_${version}_${arch}.deb
[ -f "$deb" ] || fail "cpack made no sealint_${version}_${arch}.deb" "$work/cpack.log"
dpkg-deb --info "$deb" > "$work/info.txt" || fail "dpkg-deb --info cannot read the package"

# --- control fields
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = sealint ] || fail "Package is not sealint" "$work/info.txt"
[ "$(field Version)" = "$version" ] || fail "Version is not $version" "$work/info.txt"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture is not $arch" "$work/info.txt"
# Each dependency as a bare package name, one a line (alternatives split, versions dropped).
field Depends | tr ',|' '\n\n' | sed -e 's/(.*)//' -e 's/[[:space:]]//g' -e '/^$/d' > "$work/depends"
# From dpkg-shlibdeps: every shared library the binary links. Then the two data packages Clang
# reads at run time: its builtin headers and the C++ standard library headers.
for package in libc6 libstdc++6 libgcc-s1 libclang-cpp19 libllvm19 libfmt9 libtomlplusplus3 \
  libclang-common-19-dev libstdc++-12-dev; do
  grep -qx -- "$package" "$work/depends" || fail "Depends lacks $package" "$work/info.txt"
done
if grep -E 'gtest|gmock|googletest|torch|jsonschema|hyperfine|pre-commit|libclang-rt' "$work/depends" \
  > "$work/test_only"; then
  fail "Depends names test or development packages: $(tr '\n' ' ' < "$work/test_only")" "$work/info.txt"
fi
field Recommends | grep -qw python3 || fail "python3 is not recommended (confirm mode)" "$work/info.txt"

# --- files: exactly the binary, the probe's sources, the man page, the bash completion, the
# changelog and the copyright file (no test binary, no __pycache__)
dpkg-deb --contents "$deb" > "$work/contents.txt" || fail "dpkg-deb --contents failed"
awk '$1 !~ /^d/ { print $6 }' "$work/contents.txt" | sort > "$work/files"
{
  echo ./usr/bin/sealint
  echo ./usr/share/man/man1/sealint.1
  echo ./usr/share/bash-completion/completions/sealint
  echo ./usr/share/doc/sealint/CHANGELOG.md
  echo ./usr/share/doc/sealint/copyright
  (cd "$source/probe" && find sealint_probe -type f -not -path '*/__pycache__/*') |
    sed 's|^|./usr/share/sealint/probe/|'
} | sort > "$work/expected_files"
diff "$work/expected_files" "$work/files" > "$work/files.diff" ||
  fail "the package's files differ from the binary and the probe (< missing, > extra)" "$work/files.diff"
grep -Eq '^-rwxr-xr-x root/root .* \./usr/bin/sealint$' "$work/contents.txt" ||
  fail "usr/bin/sealint is not an executable owned by root" "$work/contents.txt"

# --- the packaged binary, extracted, with a cleared environment
dpkg-deb -x "$deb" "$work/root"
sealint=$work/root/usr/bin/sealint
ldd "$sealint" > "$work/ldd.txt" 2>&1 || fail "ldd cannot read the packaged binary" "$work/ldd.txt"
grep -q 'not found' "$work/ldd.txt" && fail "the packaged binary misses a library" "$work/ldd.txt"
# The man page renders without a warning; the completion is valid bash and completes an option.
groff -man -Tutf8 -ww -z "$work/root/usr/share/man/man1/sealint.1" > "$work/groff.txt" 2>&1 &&
  [ ! -s "$work/groff.txt" ] || fail "the man page does not render cleanly" "$work/groff.txt"
completion=$work/root/usr/share/bash-completion/completions/sealint
bash -c "source '$completion'; COMP_WORDS=(sealint --form); COMP_CWORD=1; _sealint; echo \"\${COMPREPLY[*]}\"" \
  > "$work/completion.txt" 2>&1
grep -qx -- '--format' "$work/completion.txt" ||
  fail "the bash completion does not complete --form" "$work/completion.txt"
mkdir -p "$work/home" "$work/project"
cp "$source/examples/leaky_total_loss.py" "$source/examples/fixed_total_loss.py" \
  "$source/examples/cpp/leaky_train.cpp" "$work/project/"
cd "$work/project"
run() { env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 "$@"; }
# Runs the packaged sealint with ARGS; expects exit status WANT; output in $work/out.txt.
expect_status() {
  local want=$1 status=0
  shift
  run "$sealint" "$@" > "$work/out.txt" 2>&1 || status=$?
  [ "$status" -eq "$want" ] || fail "sealint $* exited $status, not $want" "$work/out.txt"
}

expect_status 0 --version
[ "$(cat "$work/out.txt")" = "sealint $version" ] ||
  fail "--version does not print 'sealint $version' (the package's version)" "$work/out.txt"

expect_status 1 --color never leaky_total_loss.py
grep -q '^leaky_total_loss.py:17:9: error\[SL001\]' "$work/out.txt" ||
  fail "no SL001 on the leaky Python example" "$work/out.txt"
expect_status 0 --color never fixed_total_loss.py

# C++ through Clang: the shared libclang-cpp and libLLVM, the builtin and standard headers.
expect_status 1 --color never leaky_train.cpp
for finding in '47:5: error\[SL001\]' '48:5: error\[SL002\]'; do
  grep -q "^leaky_train.cpp:$finding" "$work/out.txt" ||
    fail "no $finding on the leaky C++ example" "$work/out.txt"
done

expect_status 1 --format sarif -o results.sarif leaky_total_loss.py
/usr/bin/python3 - results.sarif > "$work/sarif.txt" 2>&1 <<'PY' || fail "bad SARIF" "$work/sarif.txt"
import json, sys
log = json.load(open(sys.argv[1]))
ids = [r["ruleId"] for r in log["runs"][0]["results"]]
assert ids == ["SL001"], ids
PY

# confirm: the interpreter it starts gets the probe's folder first on PYTHONPATH. A stand-in
# interpreter records it, so this holds even though the binary would fall back to the source tree.
cat > "$work/python" <<'SH'
#!/bin/sh
printf '%s\n' "$PYTHONPATH" > "$SEALINT_TEST_PYTHONPATH"
exit 1
SH
chmod +x "$work/python"
status=0
run SEALINT_TEST_PYTHONPATH="$work/pythonpath" "$sealint" confirm --python "$work/python" \
  leaky_total_loss.py > "$work/out.txt" 2>&1 || status=$?
[ "$status" -eq 2 ] || fail "confirm with an interpreter that writes no result exited $status, not 2" "$work/out.txt"
[ -f "$work/pythonpath" ] || fail "confirm did not start the interpreter" "$work/out.txt"
probe_dir=$(cut -d: -f1 "$work/pythonpath")
[ "$probe_dir" = "$work/root/usr/share/sealint/probe" ] ||
  fail "confirm used the probe in '$probe_dir', not the packaged one" "$work/out.txt"

# ... and the packaged probe measures a real leak (Debian's python3-torch, from `make deps`).
cat > leak.py <<'PY'
import torch
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
total = 0
for i in range(50):
    loss = model(torch.randn(4, 3)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss
PY
expect_status 1 confirm --color never --python /usr/bin/python3 --steps 10 leak.py
grep -q 'confirmed: `total` grows by' "$work/out.txt" ||
  fail "the packaged probe did not confirm the leak" "$work/out.txt"
echo "ok: $(basename "$deb"), Depends: $(field Depends)"
