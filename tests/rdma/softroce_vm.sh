#!/usr/bin/env bash
# softroce_vm.sh: runs SonoLink's verbs tests on a real RDMA stack, the kernel's Soft-RoCE
# driver (rdma_rxe), inside a throw-away QEMU guest booted from Debian's own kernel package.
# The host needs no RDMA NIC and no kernel module: only qemu-system-x86 and the packages
# installer/install-deps.sh installs. Nothing leaves the guest (-nic none); rxe loops the
# traffic back on a dummy netdev with MTU 9000 (RoCE active MTU 4096).
#
#   softroce_vm.sh --copy FILE... --run 'CMD' [--run 'CMD'...]
#     --copy FILE   put FILE (and its shared libraries) on the guest's PATH (/opt/bin)
#     --run CMD     one test: a busybox sh command line run in the guest; exit 0 = pass (a
#                   GoogleTest that skipped fails: in the guest the device is there).
#                   The guest exports RDMA_DEV (rxe0), RDMA_IP, RDMA_GID_INDEX, RDMA_NETDEV.
# Exit: 0 all passed, 1 a test failed, 2 setup or boot error. Last line: "softroce-vm: N passed, M failed".
# Environment: SONOLINK_SOFTROCE_CACHE (kernel cache, ~/.cache/sonolink/softroce),
#   SONOLINK_SOFTROCE_TIMEOUT (s per test, 120), SONOLINK_SOFTROCE_VM_TIMEOUT (s, 300).
set -euo pipefail

CACHE=${SONOLINK_SOFTROCE_CACHE:-${HOME:-/tmp}/.cache/sonolink/softroce}
TEST_TIMEOUT=${SONOLINK_SOFTROCE_TIMEOUT:-120}
VM_TIMEOUT=${SONOLINK_SOFTROCE_VM_TIMEOUT:-300}
COPY=() RUNS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --copy) COPY+=("$2"); shift 2 ;;
    --run) RUNS+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "softroce_vm.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
say() { printf 'softroce-vm: %s\n' "$*" >&2; }
die() { say "error: $*"; echo "softroce-vm: 0 passed, 1 failed"; exit 2; }
for tool in qemu-system-x86_64 busybox cpio depmod modprobe xz dpkg-deb apt-get ldd; do
  command -v "$tool" >/dev/null || die "$tool not found: run installer/install-deps.sh"
done
[ -x /bin/busybox ] || die "/bin/busybox missing: install busybox-static"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/sonolink-softroce.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# ---- 1. kernel: Debian's generic flavour (the -cloud one has no rdma_rxe), cached by version
mkdir -p "$CACHE"
kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
[ -n "$kpkg" ] || die "cannot resolve linux-image-amd64 (apt-get update needed?)"
kversion=$(apt-cache show "$kpkg" | awk '/^Version:/{print $2; exit}')
kdir="$CACHE/${kpkg}_${kversion}"
if [ ! -f "$kdir/modules.order" ]; then
  say "fetching $kpkg $kversion (once; cached in $CACHE)"
  (cd "$WORK" && apt-get download "$kpkg=$kversion" >/dev/null 2>"$WORK/download.err") ||
    die "apt-get download $kpkg failed: $(tail -2 "$WORK/download.err")"
  x="$WORK/kernel"; mkdir -p "$x"
  dpkg-deb --fsys-tarfile "$WORK"/${kpkg}_*.deb | tar -x -C "$x" --wildcards './boot/vmlinuz-*' './boot/config-*' './lib/modules/*'
  kver=$(ls "$x/lib/modules" | head -1)
  depmod -b "$x" "$kver"  # the package ships no modules.dep
  rm -rf "$kdir.tmp"; mkdir -p "$kdir.tmp/modules"
  echo "$kver" >"$kdir.tmp/kver"
  # The uncompressed ELF vmlinux boots through PVH: no decompression under emulation (~3 s).
  off=$(LC_ALL=C grep -obUa $'\xfd7zXZ' "$x/boot/vmlinuz-$kver" | head -1 | cut -d: -f1 || true)
  [ -n "$off" ] && tail -c +$((off + 1)) "$x/boot/vmlinuz-$kver" | xz -dc --single-stream >"$kdir.tmp/vmlinux" 2>/dev/null || true
  if [ "$(head -c4 "$kdir.tmp/vmlinux" 2>/dev/null | tail -c3)" != ELF ]; then
    rm -f "$kdir.tmp/vmlinux"; cp "$x/boot/vmlinuz-$kver" "$kdir.tmp/vmlinuz"
  fi
  # rdma_rxe needs a crc32 implementation loaded explicitly; rdma_ucm brings rdma_cm.
  for m in crc32-pclmul crc32_generic dummy rdma_rxe rdma_ucm; do
    modprobe -d "$x" -S "$kver" --show-depends "$m" | awk '$1=="insmod"{print $2}'
  done | awk '!seen[$0]++' | while read -r ko; do cp "$ko" "$kdir.tmp/modules/"; basename "$ko"; done >"$kdir.tmp/modules.order"
  rm -rf "$kdir"; mv "$kdir.tmp" "$kdir"
fi
kimage="$kdir/vmlinux"; [ -f "$kimage" ] || kimage="$kdir/vmlinuz"

# ---- 2. initramfs: busybox, RDMA tools, the rxe provider, modules, the programs to test
R="$WORK/root"
mkdir -p "$R"/{usr/bin,usr/lib/x86_64-linux-gnu/libibverbs,usr/lib64,proc,sys,dev,tmp,run,etc/libibverbs.d,opt/bin,opt/lib,modules,root}
ln -s usr/bin "$R/bin"; ln -s usr/bin "$R/sbin"; ln -s usr/lib "$R/lib"; ln -s usr/lib64 "$R/lib64"; ln -s bin "$R/usr/sbin"
cp /bin/busybox "$R/usr/bin/"
for a in $(/bin/busybox --list); do [ -e "$R/usr/bin/$a" ] || ln -s busybox "$R/usr/bin/$a"; done
declare -A copied
copy_libs() {
  local lib dst
  for lib in $(ldd "$1" 2>/dev/null | awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}'); do
    case "$lib" in
      /lib/*|/lib64/*|/usr/lib/*|/usr/lib64/*) dst="$R/usr${lib#/usr}" ;;
      *) dst="$R/opt/lib/$(basename "$lib")" ;;  # build-tree libraries (Qwt etc.)
    esac
    [ -n "${copied[$dst]:-}" ] && continue
    copied[$dst]=1; mkdir -p "$(dirname "$dst")"; cp -L "$lib" "$dst"
  done
}
copy_bin() {
  local src=$1 dst=$2
  [ -f "$src" ] || src=$(command -v "$1" || true)
  [ -n "$src" ] || die "program not found: $1"
  cp -L "$src" "$R$dst/"; copy_libs "$src"
}
for b in ibv_devices ibv_devinfo rdma ib_write_bw ib_write_lat; do copy_bin "$b" /usr/bin; done
provider=$(ls /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav*.so | head -1)
cp -L "$provider" "$R/usr/lib/x86_64-linux-gnu/libibverbs/"; copy_libs "$provider"
cp /etc/libibverbs.d/rxe.driver "$R/etc/libibverbs.d/"
cp "$kdir"/modules/*.ko "$R/modules/"; cp "$kdir/modules.order" "$R/modules/order"
for c in ${COPY[@]+"${COPY[@]}"}; do copy_bin "$(readlink -f "$c")" /opt/bin; done
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$R/etc/passwd"
printf '127.0.0.1 localhost\n' >"$R/etc/hosts"
echo "TEST_TIMEOUT=$TEST_TIMEOUT" >"$R/etc/tests.conf"
: >"$R/etc/tests.run"
for c in ${RUNS[@]+"${RUNS[@]}"}; do printf '%s\n' "$c" >>"$R/etc/tests.run"; done

cat >"$R/init" <<'GUEST'
#!/bin/sh
# PID 1 in the guest: load rxe, create rxe0 on dummy0, run each test between @@ markers, power off.
export PATH=/usr/bin:/opt/bin HOME=/root LD_LIBRARY_PATH=/opt/lib
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/shm; mount -t tmpfs tmpfs /dev/shm; mount -t tmpfs tmpfs /tmp
. /etc/tests.conf
PASS=0 FAIL=0
finish() { echo "@@ SUMMARY: $PASS passed, $FAIL failed"; sync; poweroff -f; sleep 5; }
for m in $(cat /modules/order); do insmod /modules/$m 2>/dev/null || true; done
ip link set lo up
ip link add dummy0 type dummy 2>/dev/null
ip link set dummy0 address 02:00:00:00:00:01 mtu 9000 up
ip addr add 10.233.0.1/24 dev dummy0
rdma link add rxe0 type rxe netdev dummy0 || { echo "@@ ERROR rdma link add failed"; FAIL=1; finish; }
i=0; while [ $i -lt 50 ] && ! grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state; do sleep 0.1; i=$((i+1)); done
RDMA_GID_INDEX=$(for g in /sys/class/infiniband/rxe0/ports/1/gids/*; do
  case $(cat $g) in 0000:0000:0000:0000:0000:ffff:*) basename $g; break;; esac; done)
export RDMA_DEV=rxe0 RDMA_IP=10.233.0.1 RDMA_GID_INDEX=${RDMA_GID_INDEX:-1} RDMA_NETDEV=dummy0
ulimit -l unlimited
echo "@@ READY $(cut -d' ' -f1 /proc/uptime)"
n=0
while IFS= read -r line; do
  [ -n "$line" ] || continue; n=$((n+1))
  echo "@@ BEGIN test$n: $line"
  timeout "$TEST_TIMEOUT" sh -c "$line" >/tmp/out 2>&1; rc=$?
  cat /tmp/out
  # Here the device is there: a GoogleTest that skipped for want of one failed.
  if [ $rc = 0 ] && grep -q '^\[  SKIPPED \]' /tmp/out; then rc=77; fi
  if [ $rc = 0 ]; then PASS=$((PASS+1)); r=PASS; else FAIL=$((FAIL+1)); r="FAIL(rc=$rc)"; fi
  echo "@@ END test$n $r $(cut -d' ' -f1 /proc/uptime)"
done </etc/tests.run
finish
GUEST
chmod +x "$R/init"
(cd "$R" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet) >"$WORK/initrd.cpio"

# ---- 3. boot (TCG: the build machines' KVM is nested PVM, which cannot run a stock kernel)
accel=(-accel tcg,thread=multi -cpu qemu64)
if [ -w /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
  accel=(-accel kvm -cpu host)
fi
say "booting $(cat "$kdir/kver") with ${accel[1]} ($(du -h "$WORK/initrd.cpio" | cut -f1) initramfs)"
start=$(date +%s)
set +e
timeout "$VM_TIMEOUT" qemu-system-x86_64 "${accel[@]}" -M pc -m 1024 -smp 2 -nodefaults -no-user-config \
  -display none -nic none -no-reboot -serial "file:$WORK/console.raw" -kernel "$kimage" -initrd "$WORK/initrd.cpio" \
  -append "console=ttyS0 quiet loglevel=4 panic=-1 rdinit=/init" </dev/null 2>"$WORK/qemu.err"
qrc=$?
set -e
tr -d '\r' <"$WORK/console.raw" >"$WORK/console.log"
sed 's/^/  | /' "$WORK/console.log" >&2
[ $qrc = 124 ] && say "the guest ran past ${VM_TIMEOUT}s"
cat "$WORK/qemu.err" >&2
say "guest ran $(( $(date +%s) - start )) s"
summary=$(sed -n 's/^@@ SUMMARY: //p' "$WORK/console.log" | tail -1)
[ -n "$summary" ] || die "no summary from the guest (qemu exit $qrc): boot or init failure"
grep '^@@ END' "$WORK/console.log" | sed 's/^@@ END /  /' >&2
echo "softroce-vm: $summary"
case "$summary" in *" 0 failed") exit 0 ;; *) exit 1 ;; esac
