#!/usr/bin/env bash
# install-deps.sh: installs every build, run and test dependency of SonoLink from the
# distribution (Debian 12 and newer Debian/Ubuntu), plus Qwt 6.3 for Qt 6 where the
# distribution does not package it (built from Debian's own qwt source package).
# Idempotent: a second run installs nothing and says so. Needs root (or sudo).
#
#   installer/install-deps.sh            install what is missing
#   installer/install-deps.sh --check    only report what is missing (exit 1 if anything is)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
QWT_VERSION=6.3.0
QWT_TARBALL=qwt_${QWT_VERSION}.orig.tar.bz2
QWT_SHA256=dcb085896c28aaec5518cbc08c0ee2b4e60ada7ac929d82639f6189851a6129a
QWT_PREFIX=${SONOLINK_QWT_PREFIX:-/opt/sonolink/qwt-${QWT_VERSION}}
check_only=0

say() { printf 'install-deps: %s\n' "$*"; }
die() { printf 'install-deps: error: %s\n' "$*" >&2; exit 1; }

for arg in "$@"; do
  case "$arg" in
    --check) check_only=1 ;;
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$arg' (try --help)" ;;
  esac
done

[ -r /etc/os-release ] || die "/etc/os-release not found: only Debian and Ubuntu are supported"
. /etc/os-release
case " ${ID:-} ${ID_LIKE:-} " in
  *" debian "*|*" ubuntu "*) ;;
  *) die "unsupported distribution '${PRETTY_NAME:-unknown}': SonoLink installs from Debian/Ubuntu packages" ;;
esac

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || die "not root and sudo is not installed: run as root"
  sudo_cmd=(sudo)
fi

# Package list: one per line, comments allowed. Grouped by what needs it.
mapfile -t packages < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/debian-packages.txt")

is_installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = "installed" ]
}

missing=()
for p in "${packages[@]}"; do is_installed "$p" || missing+=("$p"); done

qwt_from_distro=0
qwt_present() {
  [ -f "$QWT_PREFIX/lib/libqwt.so.$QWT_VERSION" ] && [ -f "$QWT_PREFIX/include/qwt_plot.h" ] &&
    [ -f "$QWT_PREFIX/.sonolink-qwt-stamp" ]
}
qwt_needed=0
if is_installed libqwt-qt6-dev; then
  qwt_from_distro=1
elif ! qwt_present; then
  qwt_needed=1
fi

if [ "$check_only" -eq 1 ]; then
  status=0
  if [ ${#missing[@]} -gt 0 ]; then say "missing packages: ${missing[*]}"; status=1; fi
  if [ "$qwt_needed" -eq 1 ]; then say "missing: Qwt $QWT_VERSION for Qt 6 at $QWT_PREFIX"; status=1; fi
  [ "$status" -eq 0 ] && say "nothing to install: all ${#packages[@]} packages and Qwt present"
  exit "$status"
fi

apt_updated=0
apt_update_once() {
  if [ "$apt_updated" -eq 0 ]; then
    say "apt-get update"
    "${sudo_cmd[@]}" apt-get -o DPkg::Lock::Timeout=300 update -q >/dev/null
    apt_updated=1
  fi
}

# Installing must never start services (Orthanc would take ports 4242/8042 for good):
# tests start their own servers on loopback and stop them by PID.
with_no_service_start() {
  local policy=/usr/sbin/policy-rc.d created=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo_cmd[@]}" tee "$policy" >/dev/null
    "${sudo_cmd[@]}" chmod 755 "$policy"
    created=1
  fi
  local rc=0
  "$@" || rc=$?
  [ "$created" -eq 1 ] && "${sudo_cmd[@]}" rm -f "$policy"
  return "$rc"
}

apt_install() {
  local args=(-o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends "$@")
  if ! with_no_service_start "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${args[@]}"; then
    apt_updated=0
    apt_update_once
    with_no_service_start "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${args[@]}" ||
      die "apt-get install failed for: $*"
  fi
}

changed=0
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${#missing[@]} missing packages: ${missing[*]}"
  # A machine that never ran apt-get update has no package lists at all.
  if [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v -e lock -e partial)" ]; then apt_update_once; fi
  apt_install "${missing[@]}"
  changed=1
fi

# Qwt 6.3 for Qt 6: prefer the distribution's package, else build from Debian's source package.
if [ "$qwt_needed" -eq 1 ]; then
  apt_update_once
  if apt-cache show libqwt-qt6-dev >/dev/null 2>&1 && [ -n "$(apt-cache policy libqwt-qt6-dev | sed -n 's/ *Candidate: //p' | grep -v none)" ]; then
    say "installing Qwt for Qt 6 from the distribution (libqwt-qt6-dev)"
    apt_install libqwt-qt6-dev
    qwt_from_distro=1
  else
    "$here/build-qwt.sh" "$QWT_VERSION" "$QWT_TARBALL" "$QWT_SHA256" "$QWT_PREFIX"
  fi
  changed=1
fi

if [ "$changed" -eq 0 ]; then
  if [ "$qwt_from_distro" -eq 1 ]; then where="libqwt-qt6-dev"; else where="$QWT_PREFIX"; fi
  say "nothing to install: all ${#packages[@]} packages present, Qwt $QWT_VERSION at $where"
else
  say "done"
fi
