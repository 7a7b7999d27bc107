#!/usr/bin/env bash
# package_lint_test.sh BUILD_DIR: the Debian package of this build (installer/package.sh --from)
# is clean for lintian (no error, no warning: any accepted one would be a lintian override in
# the package, with its reason, listed in docs/installation.md), its desktop entry for
# desktop-file-validate and its AppStream metainfo for appstreamcli (with the desktop entry it
# launches); its runtime dependencies are dpkg-shlibdeps' (Qt, DCMTK, HDF5, rdma-core among
# them); its configuration files are conffiles; every man page renders without a warning.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "$1" && pwd)
for tool in lintian desktop-file-validate appstreamcli dpkg-shlibdeps help2man; do
  command -v "$tool" > /dev/null || { echo "SKIP: $tool is not installed (installer/install-deps.sh installs it)"; exit 77; }
done
work=$(mktemp -d /tmp/sonolink-package-lint.XXXXXX)
trap 'rm -rf "$work"' EXIT
deb=$("$root/installer/package.sh" --from "$build" "$work/out")
echo "package: $deb ($(du -h "$deb" | cut -f1))"
fail() { echo "FAIL: $*"; exit 1; }

# lintian, as root too (CI): every tag it prints, and none of error or warning severity.
lintian --display-info --allow-root "$deb" > "$work/lintian.txt" 2>&1 || true
cat "$work/lintian.txt"
if grep -E '^(E|W): ' "$work/lintian.txt"; then fail "lintian reports errors or warnings (above)"; fi

dpkg-deb -x "$deb" "$work/tree"
dpkg-deb -e "$deb" "$work/control"
desktop-file-validate "$work/tree/usr/share/applications/org.sonolink.SonoLink.desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net "$work/tree/usr/share/metainfo/org.sonolink.SonoLink.metainfo.xml" || fail "appstreamcli validate"
appstreamcli validate-tree --no-net "$work/tree" || fail "appstreamcli validate-tree (metainfo with its desktop entry)"

depends=$(sed -n 's/^Depends: //p' "$work/control/control")
echo "Depends: $depends"
for lib in libqt6widgets6 libqt6gui6 libdcmtk17 libhdf5-103-1 libibverbs1 librdmacm1 libisal2 libc6; do
  grep -q "\b$lib\b" <<<"$depends" || fail "Depends lacks $lib: dpkg-shlibdeps did not see what the binaries link"
done
# Qwt: ours, shipped in usr/lib/sonolink and found through the console's RUNPATH (Debian 12), or
# the distribution's (libqwt-qt6), then a dependency like any other library.
if ls "$work"/tree/usr/lib/sonolink/libqwt.so.* > /dev/null 2>&1; then
  grep -q 'libqwt' <<<"$depends" && fail "Depends names Qwt, which the package ships (usr/lib/sonolink)"
  # (captured first: grep -q ends early, and pipefail would count the writer's SIGPIPE)
  dynamic=$(readelf -d "$work/tree/usr/bin/sonolink")
  grep -q 'RUNPATH.*\$ORIGIN/../lib/sonolink' <<<"$dynamic" || fail "the console's RUNPATH does not reach usr/lib/sonolink"
  loads=$(ldd "$work/tree/usr/bin/sonolink")
  grep -q "=> $work/tree/usr/bin/../lib/sonolink/libqwt" <<<"$loads" || fail "the console does not load the Qwt it ships"
else
  grep -q 'libqwt' <<<"$depends" || fail "no Qwt in the package, and Depends does not name the distribution's"
fi
for f in /etc/sonolink/sonolink.json /etc/sonolink/selftest-steps.json /etc/security/limits.d/99-sonolink-memlock.conf; do
  grep -qx "$f" "$work/control/conffiles" || fail "$f is not a conffile"
  [ -f "$work/tree$f" ] || fail "$f is not in the package"
done
grep -q '"data_directory": "~/SonoLink"' "$work/tree/etc/sonolink/sonolink.json" || fail "the packaged configuration does not keep each user's data (recordings, queues) in their home"
"$build/app/sonolink-cli" config check "$work/tree/etc/sonolink/sonolink.json" || fail "the packaged configuration is not valid"
grep -q 'GROUP="sonolink"' "$work/tree/usr/lib/udev/rules.d/92-sonolink-rdma.rules" || fail "no udev rule for the sonolink group"
for exe in sonolink sonolink-cli sonolink-fe-sim; do
  page="$work/tree/usr/share/man/man1/$exe.1.gz"
  [ -f "$page" ] || fail "no man page for $exe"
  warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 > /dev/null || true)
  [ -z "$warnings" ] || fail "man $exe: $warnings"
done
echo "PASS: lintian, desktop-file-validate and appstreamcli clean; dependencies from dpkg-shlibdeps; conffiles; man pages"
