#!/usr/bin/env bash
# The hosted-page tests drive a real Chromium through playwright-core, which never downloads a browser:
# use CHROMIUM_PATH or /usr/bin/chromium, installing Debian's package when we can (root with apt-get).
set -euo pipefail

browser=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$browser" ]; then
  echo "chromium: $browser"
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "chromium: installing Debian's chromium package"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  echo "chromium: /usr/bin/chromium"
  exit 0
fi
echo "chromium: not found. Install Chromium (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
exit 1
