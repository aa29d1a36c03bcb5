#!/usr/bin/env bash
# Time sealint over the C++ files of each repository named (exported with bench/corpus/fetch.sh
# or `git archive`): one run per repository, every .cpp/.cc/.cxx/.cu file, model mode unless
# ARGS says otherwise. Prints files, wall, user and system seconds, peak RSS, and user+system
# seconds per file (CPU time: on a shared VM, wall time mostly measures the neighbours).
#
# Usage: bench/cpp_repos.sh SEALINT_BINARY REPO_DIR...
#   ARGS='--no-cache --cache-dir /tmp/pch'   flags for every run (default: --no-cache)
#   JOBS=N                                   sealint --jobs (default 2)
set -u
if [ $# -lt 2 ]; then
    echo "usage: bench/cpp_repos.sh SEALINT_BINARY REPO_DIR..." >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
args=${ARGS:---no-cache}
jobs=${JOBS:-2}
printf '%-28s %6s %9s %9s %9s %9s %12s\n' repository files wall_s user_s sys_s cpu_s/file peak_rss_MB
for repo in "$@"; do
    list=$(mktemp)
    (cd "$repo" && find . \( -name '*.cpp' -o -name '*.cc' -o -name '*.cxx' -o -name '*.cu' \) \
        -type f | sort) > "$list"
    n=$(wc -l < "$list")
    times=$(mktemp)
    # shellcheck disable=SC2086
    (cd "$repo" && /usr/bin/time -f '%e %U %S %M' -o "$times" \
        xargs -a "$list" "$bin" --format json --jobs "$jobs" $args > /dev/null 2>&1)
    # The last line: a run with findings exits non-zero, and time says so on a line of its own.
    read -r wall user sys rss < <(tail -n 1 "$times")
    awk -v r="$(basename "$repo")" -v n="$n" -v w="$wall" -v u="$user" -v s="$sys" -v m="$rss" \
        'BEGIN { printf "%-28s %6d %9.1f %9.1f %9.1f %9.2f %12.0f\n", r, n, w, u, s, (n ? (u + s) / n : 0), m / 1024 }'
    rm -f "$list" "$times"
done
