#!/usr/bin/env bash
# ceph_rgw.sh: a real S3 server for the archive tests: Ceph's radosgw on a throw-away one-node
# cluster (one monitor, one OSD, no manager, no cephx between daemons) kept entirely in DIR,
# listening on 127.0.0.1 only. Nothing under /etc/ceph or /var/lib/ceph is read or written.
# S3 requests are signed (SigV4) with a fixed test user's keys, written to DIR/env with the
# endpoint; DIR/pids lists every daemon started ("name pid"), stop ends them by PID.
#
#   ceph_rgw.sh start DIR [--tls] [--sts] [--store bluestore|memstore]
#       --tls    also serve HTTPS with a CA + server certificate for 127.0.0.1 made in DIR;
#                DIR/env then has the https endpoint and S3_CA_FILE (S3_HTTP_ENDPOINT stays plain)
#       --sts    temporary credentials: radosgw's STS (AssumeRole on the plain or TLS endpoint)
#                and a role the test user may assume, allowed s3:* (DIR/env: S3_ROLE_ARN). With
#                STS on, Pacific answers a wrong secret or an unknown key with AccessDenied, not
#                SignatureDoesNotMatch or InvalidAccessKeyId
#       --store  the OSD's object store: bluestore (default; a sparse 20 GiB file in DIR) or
#                memstore (in RAM; CEPH_RGW_MEMSTORE_BYTES, default 8 GiB of object data)
#   ceph_rgw.sh restart-rgw DIR [--sts] [--clock-offset OFFSET]
#                SIGKILL radosgw and start it again on the same port(s). Until the next restart:
#       --sts    STS on (as start --sts does for good), the role made if it is not there yet
#       --clock-offset  radosgw's wall clock OFFSET off, in libfaketime's relative form (+1200 or
#                +20m: 20 minutes ahead; -2h); its monotonic clock is not
#   ceph_rgw.sh stop DIR [--keep-logs]   stop every daemon by PID, then remove DIR's data
# DIR/env: S3_ENDPOINT, S3_HTTP_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_REGION, S3_CA_FILE
# (with --tls), S3_ROLE_ARN (once --sts made it), CEPH_CONF, AWS_{REQUEST,RESPONSE}_CHECKSUM_*=when_required (for new SDKs).
# Exit status: 0 ok, 1 failure (the message names the daemon and its log).
set -euo pipefail

ACCESS_KEY=SONOLINKTESTACCESS0001
SECRET_KEY=sonolinkTestSecretKey0001sonolinkTestSec
USER_ID=sonolink-test
REGION=default               # the zonegroup radosgw creates on first start
ROLE_NAME=sonolink-archive   # --sts: the role the test user may assume
STS_KEY=sonolinkStsKey01     # --sts: radosgw's key for session tokens (AES-128: 16 characters)
LIBFAKETIME=${CEPH_RGW_LIBFAKETIME:-/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1}
START_TIMEOUT=${CEPH_RGW_START_TIMEOUT:-120}   # s for each daemon to come up
STOP_TIMEOUT=${CEPH_RGW_STOP_TIMEOUT:-30}      # s before SIGKILL on stop
MEMSTORE_BYTES=${CEPH_RGW_MEMSTORE_BYTES:-8589934592}
BLUESTORE_BYTES=${CEPH_RGW_BLUESTORE_BYTES:-21474836480}

say() { printf 'ceph-rgw: %s\n' "$*" >&2; }
die() { printf 'ceph-rgw: error: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[ $# -ge 2 ] || { usage >&2; exit 1; }
cmd=$1 DIR=$2
shift 2
TLS=0 STS=0 ROLE=0 STORE=bluestore KEEP_LOGS=0 CLOCK_OFFSET=
while [ $# -gt 0 ]; do
  case "$1" in
    --tls) TLS=1; shift ;;
    --sts) STS=1; shift ;;
    --clock-offset) CLOCK_OFFSET=${2:-}; shift 2 || die "--clock-offset needs a value" ;;
    --store) STORE=${2:-}; shift 2 || die "--store needs a value" ;;
    --keep-logs) KEEP_LOGS=1; shift ;;
    *) die "unknown option '$1' (try: $0 --help)" ;;
  esac
done
case "$STORE" in bluestore|memstore) ;; *) die "--store must be bluestore or memstore, not '$STORE'" ;; esac
[[ -z "$CLOCK_OFFSET" || "$CLOCK_OFFSET" =~ ^[+-][0-9]+[mhdy]?$ ]] ||
  die "--clock-offset must be like +1200, +20m or -2h, not '$CLOCK_OFFSET'"
case "$DIR" in /*) ;; *) DIR=$(pwd)/$DIR ;; esac
CONF=$DIR/ceph.conf
CEPH=(ceph -c "$CONF" --connect-timeout 10)

# ---- process bookkeeping: DIR/pids holds "name pid" for every daemon this script started
comm_of() {
  case "$1" in mon) echo ceph-mon ;; osd) echo ceph-osd ;; mgr) echo ceph-mgr ;; rgw) echo radosgw ;; esac
}
log_of() { case "$1" in mon) echo "$DIR/log/mon.a.log" ;; osd) echo "$DIR/log/osd.0.log" ;;
  mgr) echo "$DIR/log/mgr.x.log" ;; rgw) echo "$DIR/log/client.rgw.a.log" ;; esac; }
pid_of() { [ -f "$DIR/pids" ] && awk -v n="$1" '$1 == n { print $2 }' "$DIR/pids" | tail -n 1; }
# alive NAME PID: the PID still runs the daemon we started (not a recycled PID). A zombie
# counts as gone once its last thread has exited (the caller's reaper may collect it late).
alive() {
  local stat tasks head="$2 ($(comm_of "$1")) "
  [ -n "$2" ] && stat=$(cat "/proc/$2/stat" 2>/dev/null) || return 1
  [[ "$stat" == "$head"* ]] || return 1
  [[ "$stat" == "$head"Z* ]] || return 0
  tasks=(/proc/"$2"/task/*)
  [ ${#tasks[@]} -gt 1 ]
}

fail_daemon() {  # NAME WHAT: report a daemon that did not come up, with its log's tail
  local log; log=$(log_of "$1")
  say "$(comm_of "$1") ($1) $2; its log is $log (stdout/stderr: $DIR/log/$1.out):"
  tail -n 25 "$log" "$DIR/log/$1.out" 2>/dev/null | sed 's/^/    /' >&2 || true
  return 1
}

# glibc's malloc for the daemons that move object data: buffers up to 64 MiB from the heap, and
# the heap kept rather than given back. Otherwise each 4 MiB buffer of a request is fresh memory
# from mmap, and every page of it faults as data is copied in: radosgw spent 4.5 ms of CPU a MB
# served (perf: _copy_to_iter in exc_page_fault), 0.98 ms with this; a GET of 512 MiB ran twice
# as fast. On this 2-core machine that CPU is taken from the client under test.
MALLOC_KEEP=(MALLOC_MMAP_THRESHOLD_=67108864 MALLOC_TRIM_THRESHOLD_=1073741824 MALLOC_TOP_PAD_=268435456)

launch() {  # NAME CMD...: start a daemon in the foreground (-f), detached, and record its PID
  local name=$1; shift
  setsid "$@" </dev/null >>"$DIR/log/$name.out" 2>&1 &
  local pid=$!
  grep -v "^$name " "$DIR/pids" >"$DIR/pids.new" 2>/dev/null || true
  echo "$name $pid" >>"$DIR/pids.new"
  mv "$DIR/pids.new" "$DIR/pids"
}

wait_until() {  # NAME WHAT CMD...: poll CMD until it succeeds, the daemon dies, or the timeout
  local name=$1 what=$2; shift 2
  local pid deadline=$((SECONDS + START_TIMEOUT))
  pid=$(pid_of "$name")
  until "$@" >/dev/null 2>&1; do
    alive "$name" "$pid" || fail_daemon "$name" "exited before it $what" || return 1
    [ $SECONDS -lt $deadline ] || fail_daemon "$name" "has not $what after ${START_TIMEOUT}s" || return 1
    sleep 0.5
  done
}

stop_group() {  # NAME...: SIGTERM these daemons, wait for them to exit, SIGKILL after STOP_TIMEOUT
  local name pid left deadline=$((SECONDS + STOP_TIMEOUT)) sig=TERM
  for name in "$@"; do pid=$(pid_of "$name"); alive "$name" "$pid" && kill -TERM "$pid" 2>/dev/null || true; done
  while :; do
    left=()
    for name in "$@"; do pid=$(pid_of "$name"); alive "$name" "$pid" && left+=("$name:$pid"); done
    [ ${#left[@]} -eq 0 ] && return 0
    if [ $SECONDS -ge $deadline ] && [ $sig = TERM ]; then
      say "still running ${STOP_TIMEOUT}s after SIGTERM, sending SIGKILL: ${left[*]}"
      for name in "$@"; do pid=$(pid_of "$name"); alive "$name" "$pid" && kill -KILL "$pid" 2>/dev/null || true; done
      sig=KILL
    fi
    sleep 0.1
  done
}

stop_all() {  # radosgw first, then the OSD (which tells the monitor it goes down), the monitor last
  [ -f "$DIR/pids" ] || return 0
  stop_group rgw mgr
  stop_group osd
  stop_group mon
  rm -f "$DIR/pids"
}

free_port() {  # a TCP port free on 127.0.0.1 now, from the kernel's ephemeral range
  python3 - <<'EOF'
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
EOF
}

http_ready() {  # the plain endpoint answers an anonymous GET / with HTTP (any status)
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
  local line; IFS= read -r -t 5 line <&3 || line=
  exec 3<&- 3>&-
  [[ "$line" == HTTP/1.* ]]
}

tls_ready() {
  openssl s_client -connect "127.0.0.1:$1" -CAfile "$DIR/tls/ca.crt" -verify_return_error </dev/null >/dev/null 2>&1
}
osd_up() { "${CEPH[@]}" osd stat 2>/dev/null | grep -q '1 osds: 1 up'; }

make_tls() {  # a CA and a server certificate for 127.0.0.1 / localhost, in DIR/tls
  local t=$DIR/tls
  mkdir -p "$t"
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=SonoLink test CA" \
    -keyout "$t/ca.key" -out "$t/ca.crt" -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
    -keyout "$t/server.key" -out "$t/server.csr" 2>/dev/null
  printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" "basicConstraints=CA:FALSE" \
    "keyUsage=digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth" >"$t/server.ext"
  openssl x509 -req -in "$t/server.csr" -CA "$t/ca.crt" -CAkey "$t/ca.key" -CAcreateserial -days 30 \
    -extfile "$t/server.ext" -out "$t/server.crt" 2>/dev/null
  rm -f "$t/server.csr" "$t/server.ext"
}

# bluestore reads its block file with O_DIRECT, past the page cache, and its own cache, sized by
# the autotuner from a 1 GiB target, held no object data: every GET of a recording read it from
# disk again (twice its bytes: 377 MiB of disk reads for 180 MiB streamed), while the local file
# it is compared with (tests/perf/archive_stream_bench.py) came from the page cache. A fixed 2 GiB
# cache, 80 % for data, as a store's OSD would have (Ceph's default target is 4 GiB), serves
# repeated reads from memory on both sides.
write_conf() {  # MON_PORT RGW_PORT TLS_PORT
  local fsid store_conf frontends
  fsid=$(cat /proc/sys/kernel/random/uuid)
  if [ "$STORE" = memstore ]; then
    store_conf="osd objectstore = memstore
memstore device bytes = $MEMSTORE_BYTES"
  else
    store_conf="osd objectstore = bluestore
bluestore block create = true
bluestore block size = $BLUESTORE_BYTES
bluestore fsck on mount = false
osd memory target = 3221225472
bluestore cache autotune = false
bluestore cache size = 2147483648
bluestore cache meta ratio = 0.1
bluestore cache kv ratio = 0.1"
  fi
  frontends="beast endpoint=127.0.0.1:$2"
  [ "$TLS" -eq 1 ] &&
    frontends+=" ssl_endpoint=127.0.0.1:$3 ssl_certificate=$DIR/tls/server.crt ssl_private_key=$DIR/tls/server.key"
  cat >"$CONF" <<EOF
# generated by ceph_rgw.sh: a one-node test cluster; everything lives under $DIR
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$1
public addr = 127.0.0.1
ms bind msgr1 = false
ms bind ipv6 = false
auth cluster required = none
auth service required = none
auth client required = none
keyring = $DIR/keyring
run dir = $DIR/run
crash dir = $DIR/crash
admin socket = $DIR/run/\$cluster-\$name.asok
pid file = $DIR/run/\$cluster-\$name.pid
log file = $DIR/log/\$name.log
mon cluster log file = $DIR/log/cluster.log
log to syslog = false
err to syslog = false
# one OSD: pools of one replica, placed on OSDs rather than hosts; few PGs
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon warn on insecure global id reclaim allowed = false
osd crush chooseleaf type = 0
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon max pg per osd = 1000
mon data avail warn = 2
mon data avail crit = 1
# faster map updates: radosgw creates its 7 pools one osdmap epoch at a time
paxos propose interval = 0.1

[mon]
mon data = $DIR/mon/\$cluster-\$id

[osd]
osd data = $DIR/osd/\$cluster-\$id
$store_conf
osd crush update on start = true
# two cores: fewer op shards (each one probes the block file at boot, ~0.3 s apiece)
osd op num shards = 2

[client]
# the ceph and radosgw-admin commands: no admin socket, log next to the daemons
admin socket =

[client.rgw.a]
admin socket = $DIR/run/\$cluster-\$name.asok
rgw data = $DIR/rgw
rgw frontends = $frontends
rgw thread pool size = 64
# SSE-C over plain HTTP on loopback
rgw crypt require ssl = false
rgw dynamic resharding = false
# radosgw asks for a "secure" monitor session, which auth "none" cannot give: allow crc too
ms mon client mode = crc secure
EOF
  [ "$STS" -eq 1 ] && cat >>"$CONF" <<EOF
# --sts: AssumeRole, and S3 requests signed with its temporary keys and session token
rgw s3 auth use sts = true
rgw sts key = $STS_KEY
EOF
  return 0
}

start_rgw() {
  local clock=() sts=()
  if [ -n "$CLOCK_OFFSET" ]; then  # libfaketime in radosgw itself (env execs it: the PID stays radosgw's)
    [ -r "$LIBFAKETIME" ] || die "$LIBFAKETIME not found (package libfaketime) for --clock-offset"
    clock=(LD_PRELOAD="$LIBFAKETIME" FAKETIME="$CLOCK_OFFSET" FAKETIME_DONT_FAKE_MONOTONIC=1)
  fi
  [ "$STS" -eq 1 ] && sts=(--rgw_s3_auth_use_sts=true --rgw_sts_key="$STS_KEY")
  launch rgw env "${MALLOC_KEEP[@]}" "${clock[@]}" radosgw -f -c "$CONF" -n client.rgw.a "${sts[@]}"
  wait_until rgw "answered HTTP on 127.0.0.1:$RGW_PORT" http_ready "$RGW_PORT" || return 1
  if [ "$TLS" -eq 1 ]; then
    wait_until rgw "answered HTTPS on 127.0.0.1:$TLS_PORT" tls_ready "$TLS_PORT" || return 1
  fi
}

write_env() {
  local endpoint=http://127.0.0.1:$RGW_PORT
  {
    if [ "$TLS" -eq 1 ]; then
      echo "S3_ENDPOINT=https://127.0.0.1:$TLS_PORT"
      echo "S3_CA_FILE=$DIR/tls/ca.crt"
    else
      echo "S3_ENDPOINT=$endpoint"
    fi
    echo "S3_HTTP_ENDPOINT=$endpoint"
    echo "S3_ACCESS_KEY=$ACCESS_KEY"
    echo "S3_SECRET_KEY=$SECRET_KEY"
    echo "S3_REGION=$REGION"
    echo "CEPH_CONF=$CONF"
    echo "RGW_PORT=$RGW_PORT"
    [ "$TLS" -eq 1 ] && echo "RGW_TLS_PORT=$TLS_PORT"
    echo "CEPH_RGW_STORE=$STORE"
    [ "$ROLE" -eq 1 ] && echo "S3_ROLE_ARN=arn:aws:iam:::role/$ROLE_NAME"
    # newer AWS SDKs (botocore >= 1.36, aws-sdk-cpp >= 1.11.486) send CRC32 trailers in
    # aws-chunked bodies, which Pacific's radosgw rejects (411 MissingContentLength over HTTPS)
    echo "AWS_REQUEST_CHECKSUM_CALCULATION=when_required"
    echo "AWS_RESPONSE_CHECKSUM_VALIDATION=when_required"
  } >"$DIR/env.new"
  mv "$DIR/env.new" "$DIR/env"
}

make_role() {  # --sts: a role the test user may assume, allowed every S3 action on every bucket
  local admin=(radosgw-admin -c "$CONF") out=$DIR/log/role-create.out
  { "${admin[@]}" caps add --uid "$USER_ID" --caps "roles=*" &&
    "${admin[@]}" role create --role-name "$ROLE_NAME" --assume-role-policy-doc \
      '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":["arn:aws:iam:::user/'"$USER_ID"'"]},"Action":["sts:AssumeRole"]}]}' &&
    "${admin[@]}" role-policy put --role-name "$ROLE_NAME" --policy-name s3-all --policy-doc \
      '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:*"],"Resource":["arn:aws:s3:::*"]}]}'
  } >"$out" 2>&1 || { cat "$out" >&2; say "radosgw-admin: making the STS role failed"; return 1; }
  ROLE=1
}

do_start() {
  for tool in ceph ceph-mon ceph-osd radosgw radosgw-admin monmaptool python3 openssl setsid; do
    command -v "$tool" >/dev/null || die "$tool not found: run installer/install-deps.sh"
  done
  if [ -f "$DIR/pids" ]; then
    local n p
    while read -r n p; do
      alive "$n" "$p" && die "$DIR already has a running cluster ($n pid $p): stop it first"
    done <"$DIR/pids"
  fi
  mkdir -p "$DIR"
  rm -rf "$DIR/mon" "$DIR/osd" "$DIR/rgw" "$DIR/run" "$DIR/log" "$DIR/crash" "$DIR/tls" "$DIR/env" "$DIR/pids"
  mkdir -p "$DIR/mon/ceph-a" "$DIR/osd/ceph-0" "$DIR/rgw" "$DIR/run" "$DIR/log" "$DIR/crash"
  : >"$DIR/keyring"
  trap 'say "start failed: stopping what was started (logs kept in $DIR/log)"; stop_all' EXIT

  MON_PORT=$(free_port) RGW_PORT=$(free_port) TLS_PORT=
  [ "$TLS" -eq 1 ] && { TLS_PORT=$(free_port); make_tls; }
  write_conf "$MON_PORT" "$RGW_PORT" "$TLS_PORT"

  local fsid
  fsid=$(ceph-conf -c "$CONF" --lookup fsid)
  monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$MON_PORT]" "$DIR/monmap" \
    >"$DIR/log/monmaptool.out" 2>&1 || { cat "$DIR/log/monmaptool.out" >&2; die "monmaptool failed"; }
  ceph-mon -c "$CONF" --mkfs -i a --monmap "$DIR/monmap" >>"$DIR/log/mon.out" 2>&1 ||
    fail_daemon mon "--mkfs failed"
  launch mon ceph-mon -f -c "$CONF" -i a
  wait_until mon "answered on 127.0.0.1:$MON_PORT" "${CEPH[@]}" mon stat

  local uuid
  uuid=$(cat /proc/sys/kernel/random/uuid)
  "${CEPH[@]}" osd new "$uuid" >"$DIR/log/osd-new.out" 2>&1 || { cat "$DIR/log/osd-new.out" >&2; false; }
  ceph-osd -c "$CONF" -i 0 --mkfs --osd-uuid "$uuid" >>"$DIR/log/osd.out" 2>&1 ||
    fail_daemon osd "--mkfs failed"
  launch osd env "${MALLOC_KEEP[@]}" ceph-osd -f -c "$CONF" -i 0
  wait_until osd "was up in the OSD map" osd_up

  start_rgw
  radosgw-admin -c "$CONF" user create --uid "$USER_ID" --display-name "SonoLink tests" \
    --access-key "$ACCESS_KEY" --secret-key "$SECRET_KEY" >"$DIR/log/user-create.out" 2>&1 ||
    { cat "$DIR/log/user-create.out" >&2; say "radosgw-admin user create failed"; false; }
  [ "$STS" -eq 1 ] && make_role
  write_env
  trap - EXIT
  say "ready: $(head -n 1 "$DIR/env") ($STORE; pids: $(awk '{ printf "%s=%s ", $1, $2 }' "$DIR/pids"))"
}

do_restart_rgw() {
  [ -f "$DIR/env" ] || die "$DIR/env not found: was '$0 start $DIR' run?"
  RGW_PORT=$(awk -F= '$1 == "RGW_PORT" { print $2 }' "$DIR/env")
  TLS_PORT=$(awk -F= '$1 == "RGW_TLS_PORT" { print $2 }' "$DIR/env")
  STORE=$(awk -F= '$1 == "CEPH_RGW_STORE" { print $2 }' "$DIR/env")
  [ -n "$TLS_PORT" ] && TLS=1
  grep -q '^S3_ROLE_ARN=' "$DIR/env" && ROLE=1
  if [ "$STS" -eq 1 ] && [ "$ROLE" -eq 0 ]; then make_role || die "no STS role"; fi
  local pid
  pid=$(pid_of rgw)
  if alive rgw "$pid"; then
    kill -KILL "$pid"
    local deadline=$((SECONDS + STOP_TIMEOUT))
    while alive rgw "$pid"; do
      [ $SECONDS -lt $deadline ] || die "radosgw (pid $pid) still there ${STOP_TIMEOUT}s after SIGKILL"
      sleep 0.1
    done
  fi
  start_rgw || die "radosgw did not come back (see $(log_of rgw))"
  write_env
  say "radosgw restarted: pid $(pid_of rgw)$([ "$STS" -eq 1 ] && echo ", STS on")${CLOCK_OFFSET:+, its clock $CLOCK_OFFSET off}"
}

do_stop() {
  [ -d "$DIR" ] || { say "$DIR does not exist: nothing to stop"; return 0; }
  stop_all
  rm -rf "$DIR/mon" "$DIR/osd" "$DIR/rgw" "$DIR/run" "$DIR/crash" "$DIR/tls" \
    "$DIR/env" "$DIR/monmap" "$DIR/keyring" "$DIR/ceph.conf"
  if [ "$KEEP_LOGS" -eq 0 ]; then rm -rf "$DIR/log"; rmdir "$DIR" 2>/dev/null || true; fi
}

case "$cmd" in
  start) do_start ;;
  restart-rgw) do_restart_rgw ;;
  stop) do_stop ;;
  *) die "unknown command '$cmd' (start, restart-rgw, stop)" ;;
esac
