#!/usr/bin/env bash
# Installs what sealint needs to build and test, and nothing when everything is there.
# Debian packages through apt-get; the tree-sitter runtime and grammar through npm, pinned by
# grammars/package-lock.json and fetched without running their install scripts (they want node-gyp).
# Usage: install-deps.sh [--build-only] APT_PACKAGE...
# --build-only (`make install`, `make package`) leaves out the SARIF validator the tests run.
set -euo pipefail
cd "$(dirname "$0")/.."

test_tools=1
if [ "${1:-}" = "--build-only" ]; then
  shift
  test_tools=0
fi
npm_folders=(grammars)
[ "$test_tools" -eq 0 ] || npm_folders+=(tools/sarif)

missing=()
for pkg in "$@"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
# Node.js may come from outside Debian (as on our CI image); only ask apt for it when absent.
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages, each folder pinned by its package-lock.json: the runtime and grammar, and the SARIF
# validator that `make test` runs. Install scripts are not run (they want node-gyp). A clean clone
# has no node_modules: --prefer-offline takes the pinned tarballs from npm's own cache when they are
# there (the lock's integrity hashes still checked), so a machine that installed them asks the
# registry nothing.
for folder in "${npm_folders[@]}"; do
  stamp=$folder/node_modules/.sealint-lock
  if ! cmp -s "$folder/package-lock.json" "$stamp" 2>/dev/null; then
    echo "deps: fetching $folder (npm ci)"
    (cd "$folder" && npm ci --prefer-offline --ignore-scripts --no-audit --no-fund --loglevel=error)
    cp "$folder/package-lock.json" "$stamp"
  fi
done
# The validator ships as a self-contained binary whose mode npm does not set without scripts.
if [ "$test_tools" -eq 1 ]; then
  chmod +x tools/sarif/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
fi
