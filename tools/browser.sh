#!/usr/bin/env bash
# Install Debian's Chromium and ChromeDriver for the tests that look at servebox's pages in a real
# headless browser (the status page, the HTML reports). Idempotent; never fatal: without them those
# tests skip and say why.
set -u
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  exit 0
fi
echo "installing chromium and chromium-driver (Debian packages, about a minute)" >&2
if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver; } \
  >/tmp/servebox-browser.log 2>&1; then
  echo "warning: chromium could not be installed (see /tmp/servebox-browser.log); browser tests will skip" >&2
fi
exit 0
