#!/usr/bin/env bash
# The steps of action.yml (sealint's GitHub Action), one command each, so that they are tested
# outside GitHub (tests/e2e/action_test.sh):
#   action.sh key              the package's cache key: a digest of sealint's source (step output)
#   action.sh build DIR        build the Debian package from the action's source into DIR
#   action.sh install DIR      install the package from DIR
#   action.sh run              SEALINT_ARGS -> SARIF log at SEALINT_SARIF; outputs status and wrote
#   action.sh verdict          exit SEALINT_STATUS (1 -> 0 when SEALINT_FAIL_ON_FINDINGS=false)
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
output() { echo "$1=$2" >> "${GITHUB_OUTPUT:-/dev/null}"; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

case "${1:-}" in
  key)
    # The action's folder is a copy without git metadata: its files' digest names the version.
    key=$(cd "$here" && find . -type f -not -path './build/*' -not -path './dist/*' \
            -not -path '*/node_modules/*' -not -path './.git/*' -print0 | sort -z |
          xargs -0 sha256sum | sha256sum | cut -c1-32)
    output key "$key"
    echo "sealint source digest: $key"
    ;;
  build)
    dir=${2:?action.sh build DIR}
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      ca-certificates make sudo >/dev/null
    make -C "$here" package JOBS="$(nproc)" || exit 2
    mkdir -p "$dir" && cp "$here"/build/install/sealint_*.deb "$dir"/
    ;;
  install)
    dir=${2:?action.sh install DIR}
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "$dir"/sealint_*.deb >/dev/null || exit 2
    sealint --version
    ;;
  run)
    sarif=${SEALINT_SARIF:-sealint.sarif}
    # The arguments split at whitespace (`src/ --select SL001`), never globbed or evaluated.
    read -r -a args <<< "${SEALINT_ARGS:-.}"
    # The checkout is the project's own, whatever uid the container runs as (actions/checkout
    # writes it as the runner's user): its configuration applies (docs/configuration.md).
    if [ -n "${GITHUB_WORKSPACE:-}" ]; then
      export SEALINT_TRUSTED_FOLDERS="${SEALINT_TRUSTED_FOLDERS:+$SEALINT_TRUSTED_FOLDERS:}$GITHUB_WORKSPACE"
    fi
    status=0
    sealint "${args[@]}" --format sarif -o "$sarif" || status=$?
    output status "$status"
    if [ -s "$sarif" ]; then output wrote true; else output wrote false; fi
    # The findings in the log too, from the result cache the first run filled.
    sealint "${args[@]}" --color never --statistics || true
    echo "sealint exited $status"
    ;;
  verdict)
    status=${SEALINT_STATUS:?}
    if [ "$status" = 1 ] && [ "${SEALINT_FAIL_ON_FINDINGS:-true}" = false ]; then
      echo "sealint: findings reported, not failing (fail-on-findings: false)"
      exit 0
    fi
    exit "$status"
    ;;
  *)
    echo "usage: action.sh key|build DIR|install DIR|run|verdict" >&2
    exit 2
    ;;
esac
