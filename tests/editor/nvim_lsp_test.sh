#!/bin/sh
# Neovim's built-in LSP client against `sealint server`: opens a leaky file, waits for the SL001
# diagnostic, applies its code action, and checks the buffer and the server's exit status
# (nvim_lsp_test.lua). Neovim is a declared dependency (the Makefile's APT_PACKAGES): without it
# this test fails, it does not skip.
# Usage: nvim_lsp_test.sh SEALINT SOURCE_DIR
set -eu
sealint=$1
source_dir=$2
if ! command -v nvim >/dev/null 2>&1; then
  echo "nvim is not installed: run \`make deps\` (the Makefile's APT_PACKAGES has neovim)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$source_dir/tests/editor/train.py" "$work/train.py"
cd "$work"
# A clean Neovim: no user configuration, plugins, shada or swap files; HOME points into the temp
# folder so that nothing of the machine's user leaks in, and the LSP log lands there.
HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state \
  XDG_CACHE_HOME=$work/cache SEALINT="$sealint" \
  timeout 300 nvim --headless --clean -n -i NONE \
  -c "luafile $source_dir/tests/editor/nvim_lsp_test.lua" "$work/train.py" </dev/null
