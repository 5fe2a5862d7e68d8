#!/bin/sh
# Install Debian's Chromium for the browser tests (Playwright's own browser download does not work here).
# Idempotent: does nothing when /usr/bin/chromium is already there.
set -eu
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "install_chromium.sh: not root and no sudo; install chromium chromium-driver fonts-liberation" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium chromium-driver fonts-liberation
test -x /usr/bin/chromium
