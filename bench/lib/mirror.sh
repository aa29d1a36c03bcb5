# Shared by bench/*/fetch.sh (sourced): where the search tool's `fetch` left a repository.
#
# find_git_dir BASE: the git directory of a mirror, the first folder below BASE holding HEAD,
# objects/ and refs/ (bare as `repo/`, or `repo/.git/`); fails when there is none.
find_git_dir() {
    local base=$1 head
    [ -d "$base" ] || return 1
    head=$(find "$base" -maxdepth 4 -name HEAD -type f 2>/dev/null | while read -r h; do
        d=$(dirname "$h")
        if [ -d "$d/objects" ] && [ -d "$d/refs" ]; then echo "$d"; break; fi
    done)
    [ -n "$head" ] || return 1
    echo "$head"
}
