#!/usr/bin/env bash
# debian-mirror.sh [security]: this machine's Debian mirror as its apt sources name it (the
# archive's, or with "security" the security archive's); deb.debian.org's when none is named.
# Used by build-qwt.sh (Debian's qwt source) and the package's install test (its clean root).
set -euo pipefail
urls=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
  sed 's/#.*//' | grep -o -E 'https?://[^ ]+' | grep -i debian || true)
if [ "${1:-}" = "security" ]; then
  found=$(grep -i security <<<"$urls" | head -n 1 || true)
  echo "${found:-http://deb.debian.org/debian-security}"
else
  found=$(grep -v -i security <<<"$urls" | head -n 1 || true)
  echo "${found:-http://deb.debian.org/debian}"
fi
