#!/usr/bin/env bash
# The system programs the tests use, installed where missing: Debian's chromium, which the
# browser tests drive with Playwright (never a downloaded browser), and shellcheck, which checks
# deploy/install.sh. As root with apt-get, otherwise through sudo.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi
if [[ $EUID -eq 0 ]]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
else
    echo "the tests need ${missing[*]}: apt-get install ${missing[*]} (as root)" >&2
    exit 1
fi
