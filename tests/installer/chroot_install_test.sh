#!/usr/bin/env bash
# chroot_install_test.sh BUILD_DIR: the Debian package of this build, installed with apt into a
# clean Debian 12 root (debootstrap, minbase; cached with the packages apt fetched, as the
# Soft-RoCE guest's kernel is), as a station would get it:
#   1. the previous version (the same build relabelled 0.0.9) installed; the station's
#      configuration edited (a conffile) and a study queued for the PACS;
#   2. upgraded to this version: the edit and the queued study are kept, no prompt;
#   3. the maintainer scripts run again change nothing, and nothing was started;
#   4. `sonolink-cli --version`, `sonolink-cli doctor` (without a display and with one), the
#      headless demo, and the console for a few seconds on a virtual display (Xvfb on
#      loopback TCP), its screenshot kept as BUILD_DIR/packages/chroot-console.png;
#   5. removed (the configuration stays), then purged: nothing of the package is left, the
#      group is gone, the user's data (~/SonoLink, the demo's output) is still there.
# Needs root (chroot, mounts), debootstrap and Xvfb; skips (77) otherwise. Environment:
# SONOLINK_CHROOT_CACHE (default ~/.cache/sonolink/debian12-root).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "$1" && pwd)
say() { printf 'chroot-install: %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (chroot and mounts)"; exit 77; }
for tool in debootstrap Xvfb chroot mountpoint; do
  command -v "$tool" > /dev/null || { echo "SKIP: $tool is not installed (installer/install-deps.sh installs it)"; exit 77; }
done

cache=${SONOLINK_CHROOT_CACHE:-${HOME:-/tmp}/.cache/sonolink/debian12-root}
mkdir -p "$cache/archives/partial"
work=$(mktemp -d /tmp/sonolink-chroot.XXXXXX)
target=$work/root
mounts=()
xvfb_pid=
cleanup() {
  set +e
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2> /dev/null && wait "$xvfb_pid" 2> /dev/null
  for pid in $(ls /proc | grep -E '^[0-9]+$'); do  # anything still running in the root
    [ "$(readlink "/proc/$pid/root" 2> /dev/null)" = "$target" ] && kill -9 "$pid" 2> /dev/null
  done
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" 2> /dev/null || umount -l "${mounts[i]}"; done
  for m in "${mounts[@]}"; do
    if mountpoint -q "$m"; then echo "chroot-install: $m is still mounted: $work left in place"; return; fi
  done
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT

# ---- the clean root: Debian 12 minbase, cached
mirror=$("$root/installer/debian-mirror.sh")
security=$("$root/installer/debian-mirror.sh" security)
base=$cache/bookworm-minbase.tar
if [ -f "$base" ]; then
  mkdir -p "$target" && tar -C "$target" -xf "$base"
  say "clean Debian 12 root from the cache ($base)"
else
  say "debootstrap bookworm (minbase) from $mirror (once; cached in $cache)"
  debootstrap --variant=minbase bookworm "$target" "$mirror" > "$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log"; fail "debootstrap"; }
  rm -f "$target"/var/cache/apt/archives/*.deb
  tar -C "$target" -cf "$base.partial" . && mv "$base.partial" "$base"
fi
cat > "$target/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
SOURCES
cp /etc/resolv.conf "$target/etc/resolv.conf"
printf '#!/bin/sh\n# no service starts in this root\nexit 101\n' > "$target/usr/sbin/policy-rc.d"
chmod 755 "$target/usr/sbin/policy-rc.d"
mount -t proc proc "$target/proc" && mounts+=("$target/proc")
mount --bind /dev "$target/dev" && mounts+=("$target/dev")
mount --bind "$cache/archives" "$target/var/cache/apt/archives" && mounts+=("$target/var/cache/apt/archives")
in_root() { chroot "$target" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
apt_in_root() { in_root apt-get -q -y -o DPkg::Lock::Timeout=60 "$@" < /dev/null >> "$work/apt.log" 2>&1 || { tail -n 30 "$work/apt.log"; fail "apt-get $*"; }; }

# ---- the packages: this build as it is, and relabelled as the version before
old=$("$root/installer/package.sh" --from "$build" "$work/packages" 0.0.9)
new=$("$root/installer/package.sh" --from "$build" "$work/packages")
cp "$old" "$new" "$target/tmp/"
old=/tmp/$(basename "$old") new=/tmp/$(basename "$new")
version=$(dpkg-deb -f "$target$new" Version)

say "apt-get update"
apt_in_root update
say "1. installing the previous package ($(basename "$old")) with its dependencies"
started=$(date +%s)
apt_in_root install "$old"
say "   installed in $(( $(date +%s) - started )) s"
in_root getent group sonolink > /dev/null || fail "the package did not create the group sonolink"
in_root getent group sonolink-engineers > /dev/null || fail "the package did not create the group sonolink-engineers"
config=/etc/sonolink/sonolink.json
in_root sed -i 's/"station_ae_title": "SONOLINK"/"station_ae_title": "WARD3US"/' "$config"
in_root sonolink-cli demo --config "$config" --seconds 2 --output-dir /root/demo-before > "$work/demo-before.log" 2>&1 ||
  { tail "$work/demo-before.log"; fail "the previous version's demo"; }
in_root sonolink-cli dicom queue add --config "$config" --node local-orthanc /root/demo-before/demo_cine.dcm > /dev/null ||
  fail "queueing a study with the previous version"
queued=$(in_root sonolink-cli dicom queue list --config "$config" --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
[ "$queued" -eq 1 ] || fail "the previous version's queue has $queued items, not 1"

say "2. upgrading to $version"
apt_in_root install "$new"
[ "$(in_root dpkg-query -W -f='${Version}' sonolink)" = "$version" ] || fail "the upgrade did not install $version"
in_root grep -q '"station_ae_title": "WARD3US"' "$config" || fail "the upgrade lost the station's edit of $config"
after=$(in_root sonolink-cli dicom queue list --config "$config" --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
[ "$after" -eq 1 ] || fail "the upgrade lost the PACS queue: $after items"

say "3. the maintainer scripts again, and nothing started"
in_root /var/lib/dpkg/info/sonolink.postinst configure "$version" || fail "postinst configure, run again"
in_root /var/lib/dpkg/info/sonolink.postinst configure "$version" || fail "postinst configure, run a third time"
apt_in_root install --reinstall "$new"
[ "$(in_root getent group sonolink | cut -d: -f1)" = "sonolink" ] || fail "the group did not survive the scripts run again"
running=$(for pid in $(ls /proc | grep -E '^[0-9]+$'); do [ "$(readlink "/proc/$pid/root" 2> /dev/null)" = "$target" ] && cat "/proc/$pid/comm"; done || true)
[ -z "$running" ] || fail "processes were started in the root: $running"

say "4. running it"
in_root sonolink-cli --version | tee "$work/version.txt"
grep -q "$version" "$work/version.txt" || fail "sonolink-cli --version does not say $version"
set +e
in_root sonolink-cli doctor --no-pacs > "$work/doctor.txt" 2>&1
doctor_rc=$?
set -e
cat "$work/doctor.txt"
[ "$doctor_rc" -eq 0 ] || fail "sonolink-cli doctor found a failure in a clean install (exit $doctor_rc)"
grep -q "/etc/sonolink/sonolink.json" "$work/doctor.txt" || fail "doctor did not take the station's configuration"
grep -Eq "^  warn +display" "$work/doctor.txt" || fail "doctor did not warn of the missing display"
in_root sonolink-cli demo --config "$config" --seconds 3 --output-dir /root/demo > "$work/demo.log" 2>&1 || { tail "$work/demo.log"; fail "the headless demo"; }
for f in demo.png demo.uff demo_cine.dcm; do [ -s "$target/root/demo/$f" ] || fail "the demo wrote no $f"; done
display=$((200 + $$ % 50))
Xvfb ":$display" -screen 0 1680x1050x24 -listen tcp -nolisten unix -ac > "$work/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do (exec 3<> "/dev/tcp/127.0.0.1/$((6000 + display))") 2> /dev/null && break; sleep 0.1; done
in_root env DISPLAY="127.0.0.1:$display" sonolink-cli doctor --no-pacs --json > "$work/doctor-display.json"
python3 - "$work/doctor-display.json" <<'PY' || fail "doctor with a display"
import json, sys
checks = {c["check"]: c for c in json.load(open(sys.argv[1]))["checks"]}
for name in ("display", "Qt platform plugin", "fonts for Chinese"):
    assert checks[name]["verdict"] == "pass", (name, checks[name])
PY
in_root env DISPLAY="127.0.0.1:$display" XDG_RUNTIME_DIR=/tmp sonolink --config "$config" --screenshot /root/console.png --quit-after 6 > "$work/console.log" 2>&1 ||
  { tail "$work/console.log"; fail "the console under Xvfb"; }
[ -s "$target/root/console.png" ] || fail "the console wrote no screenshot"
mkdir -p "$build/packages" && cp "$target/root/console.png" "$build/packages/chroot-console.png"
say "   the console ran; its screenshot: $build/packages/chroot-console.png"

say "5. remove, then purge"
in_root dpkg-query -L sonolink > "$work/files.txt"
apt_in_root remove sonolink
for exe in sonolink sonolink-cli sonolink-fe-sim; do [ ! -e "$target/usr/bin/$exe" ] || fail "remove left /usr/bin/$exe"; done
[ -f "$target$config" ] || fail "remove took the configuration (it must wait for purge)"
apt_in_root purge sonolink
while read -r path; do
  [ -d "$target$path" ] && continue  # folders others share (/usr/share/man/man1) stay
  [ ! -e "$target$path" ] && [ ! -L "$target$path" ] || fail "purge left $path"
done < "$work/files.txt"
[ ! -e "$target/etc/sonolink" ] || fail "purge left /etc/sonolink"
! in_root getent group sonolink > /dev/null || fail "purge left the group sonolink"
! in_root getent group sonolink-engineers > /dev/null || fail "purge left the group sonolink-engineers"
left=$(cd "$target" && find . -xdev -iname '*sonolink*' ! -path './root/SonoLink*' ! -path './root/demo*' ! -path './tmp/*' ! -path './proc/*' ! -path './dev/*' | sort)
[ -z "$left" ] || fail "purge left: $left"
[ -f "$target/root/SonoLink/dicom-queue/queue.db" ] || fail "purge took the user's data (~/SonoLink)"
echo "PASS: installed, upgraded (configuration and queue kept), ran (CLI, doctor, demo, console) and purged cleanly in a clean Debian 12 root"
