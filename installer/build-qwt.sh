#!/usr/bin/env bash
# build-qwt.sh VERSION TARBALL SHA256 PREFIX: builds Qwt for Qt 6 (core library only)
# from Debian's own qwt source package of the unstable suite and installs it to PREFIX.
# The system's apt configuration is left untouched: a temporary deb-src list, derived
# from this machine's own Debian mirror, lives in a scratch folder. Called by
# install-deps.sh when the distribution packages no Qwt for Qt 6 (Debian 12).
set -euo pipefail

version=$1 tarball=$2 sha256=$3 prefix=$4
say() { printf 'build-qwt: %s\n' "$*"; }
die() { printf 'build-qwt: error: %s\n' "$*" >&2; exit 1; }
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)

command -v qmake6 >/dev/null || die "qmake6 not found: install qt6-base-dev-tools"

# This machine's Debian mirror (not the security one); deb.debian.org if none is configured.
mirror=$("$(dirname "${BASH_SOURCE[0]}")/debian-mirror.sh")
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || die "$keyring not found: install debian-archive-keyring"

work=$(mktemp -d /tmp/sonolink-qwt.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"  # apt's _apt user downloads into it
mkdir -p "$work/sources.list.d" "$work/lists/partial" "$work/src"
cat >"$work/sources.list.d/qwt-src.sources" <<EOF
Types: deb-src
URIs: $mirror
Suites: sid
Components: main
Signed-By: $keyring
EOF
# A mirror that is a snapshot (as this machine's may be) serves sid's Release past its short
# Valid-Until: accepted here, for this list only; the tarball is held to its pinned sha256 below.
apt_opts=(-o "Dir::Etc::SourceParts=$work/sources.list.d" -o Dir::Etc::SourceList=/dev/null
  -o "Dir::State::Lists=$work/lists" -o DPkg::Lock::Timeout=300 -o Acquire::Check-Valid-Until=false)

say "fetching Debian's qwt source package from $mirror (suite sid)"
apt-get "${apt_opts[@]}" update -q >/dev/null || die "apt-get update of the temporary deb-src list failed"
# apt may report a missing .dsc and still deliver the tarball: judge by the file and its hash.
(cd "$work/src" && apt-get "${apt_opts[@]}" source --download-only -q qwt >/dev/null 2>&1) || true
[ -f "$work/src/$tarball" ] || die "$tarball was not delivered by apt-get source qwt (sid): is the Debian mirror reachable?"
echo "$sha256  $work/src/$tarball" | sha256sum -c --quiet - ||
  die "$tarball has the wrong sha256 (expected $sha256)"
say "$tarball: sha256 ok"

tar -xjf "$work/src/$tarball" -C "$work/src"
srcdir="$work/src/qwt-$version"
[ -f "$srcdir/qwtconfig.pri" ] || die "unexpected tarball layout: $srcdir/qwtconfig.pri missing"

# Core library only: plot and widgets; no designer plugin, examples, SVG, OpenGL or tests.
sed -i \
  -e "s|^\( *QWT_INSTALL_PREFIX *= *\)/usr/local/qwt-\$\$QWT_VERSION.*|\1$prefix|" \
  -e 's@^\( *QWT_CONFIG *+= *Qwt\(Svg\|OpenGL\|Designer\|Examples\|Playground\|Tests\|Polar\)\)@#\1@' \
  "$srcdir/qwtconfig.pri"
grep -q "QWT_INSTALL_PREFIX *= *$prefix" "$srcdir/qwtconfig.pri" || die "could not set the install prefix in qwtconfig.pri"

say "building Qwt $version for Qt 6 into $prefix ($(nproc) jobs)"
(cd "$srcdir" && qmake6 qwt.pro >/dev/null && make -s -j"$(nproc)" >/dev/null) || die "Qwt build failed"
"${sudo_cmd[@]}" make -s -C "$srcdir" install >/dev/null || die "Qwt install into $prefix failed"
echo "qwt $version sha256 $sha256 built $(date -u +%Y-%m-%dT%H:%M:%SZ)" |
  "${sudo_cmd[@]}" tee "$prefix/.sonolink-qwt-stamp" >/dev/null
say "Qwt $version installed in $prefix"
