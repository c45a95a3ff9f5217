#!/usr/bin/env bash
# Debian's Chromium for the web console's browser tests (playwright-core drives it through executablePath;
# Playwright's own browser download does not work on these machines). Does nothing when it is already there.
set -euo pipefail
for candidate in "${CHROMIUM_PATH:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then
    echo "install-chromium: using $candidate ($("$candidate" --version 2>/dev/null || echo 'version unknown'))"
    exit 0
  fi
done
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: no chromium and no apt-get; install Chromium and set CHROMIUM_PATH" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else echo "install-chromium: need root (or sudo) for apt-get install chromium" >&2; exit 1; fi
fi
export DEBIAN_FRONTEND=noninteractive
echo "install-chromium: apt-get install chromium"
if ! $SUDO apt-get install -y --no-install-recommends chromium >/tmp/install-chromium.log 2>&1; then
  $SUDO apt-get update >>/tmp/install-chromium.log 2>&1
  $SUDO apt-get install -y --no-install-recommends chromium >>/tmp/install-chromium.log 2>&1 || { tail -20 /tmp/install-chromium.log >&2; exit 1; }
fi
echo "install-chromium: $(/usr/bin/chromium --version)"
