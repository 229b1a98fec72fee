#!/usr/bin/env bash
# The browser tests drive Debian's chromium with Playwright (never a downloaded browser).
# Install it if it is missing: as root with apt-get, otherwise through sudo.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if [[ $EUID -eq 0 ]]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
else
    echo "the browser tests need Debian's chromium: apt-get install chromium (as root)" >&2
    exit 1
fi
