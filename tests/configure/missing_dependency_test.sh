#!/usr/bin/env bash
# Configuring with dependencies hidden must fail at once, naming each missing one with the
# Debian package to install, before any compiler runs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
set +e
out=$(cmake -S "$root" -B "$work" -G Ninja -DSONOLINK_ENABLE_CUDA=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_spdlog=ON -DCMAKE_DISABLE_FIND_PACKAGE_DCMTK=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_Qwt=ON 2>&1)
rc=$?
set -e
echo "$out" | sed -n '/missing dependencies/,/install-deps/p'
[ "$rc" -ne 0 ] || { echo "FAIL: configure succeeded with dependencies hidden"; exit 1; }
for expected in "spdlog: install the Debian package 'libspdlog-dev'" \
                "DCMTK: install the Debian package 'libdcmtk-dev'" \
                "Qwt 6.3 for Qt 6: install the Debian package 'libqwt-qt6-dev, or run installer/install-deps.sh"; do
  grep -qF "$expected" <<<"$out" || { echo "FAIL: configure output lacks: $expected"; exit 1; }
done
[ ! -f "$work/build.ninja" ] || { echo "FAIL: a build was generated anyway"; exit 1; }
echo "PASS: missing dependencies named before any compile"
