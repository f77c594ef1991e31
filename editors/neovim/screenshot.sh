#!/usr/bin/env bash
# Makes docs/editor-neovim.png: Neovim (with its built-in LSP client) talking to `unodsl lsp`,
# showing a diagnostic as you type and a hover. Needs Debian's neovim, xvfb, xterm, imagemagick
# and fonts-dejavu-core, and unodsl with the lsp extra on PATH.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-docs/editor-neovim.png}"
display=":97"
ready="$(mktemp)"
export UNODSL_SCREENSHOT_READY="$ready"
Xvfb "$display" -screen 0 1240x760x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true; rm -f "$ready"' EXIT
sleep 1
DISPLAY="$display" xterm -geometry 118x34+0+0 -fa "DejaVu Sans Mono" -fs 11 -bg "#1e1e1e" -fg "#d4d4d4" \
  -xrm "XTerm*vt100.cursorColor: #1e1e1e" -e nvim -n -u editors/neovim/screenshot.lua examples/bounce-back/bounce-back.uno &
term=$!
for _ in $(seq 1 180); do [ -s "$ready" ] && break; sleep 0.5; done
[ -s "$ready" ] || { echo "the editor never showed the hover" >&2; exit 1; }
DISPLAY="$display" import -window root -crop "$(DISPLAY="$display" xwininfo -root -tree | awk '/xterm/ {print $(NF-1)}' | head -1 | sed 's/+0+0//')+0+0" "$out"
kill "$term" 2>/dev/null || true
echo "wrote $out"
