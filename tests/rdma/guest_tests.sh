#!/bin/sh
# Runs inside the Soft-RoCE guest (tests/rdma/softroce_vm.sh): sonolink-cli stream and
# sonolink-fe-sim as two processes over rxe0, checked from the host's JSON summary.
#   guest_tests.sh stream      >= 10,000 blocks, CRC and sequence checked, nothing lost
#   guest_tests.sh ber         a PRBS-31 run, every bit compared
#   guest_tests.sh reconnect   the front end vanishes mid-stream, the host says so, a new front end resumes
#   guest_tests.sh busypoll    completions busy-polled on a pinned thread instead of event-driven
#   guest_tests.sh selftest    sonolink-cli selftest over verbs: March C- over the registered ring,
#                              the link BER test's session, its ring slots, the element check's
#                              session, then the acquisition's (fe-sim --reconnect)
set -u
GEOMETRY="--channels 32 --samples 248 --slot-bytes 16384 --slots 64"
HOST="sonolink-cli stream --link verbs --address $RDMA_IP --json $GEOMETRY"
FE="sonolink-fe-sim --link verbs --host-address $RDMA_IP --wait 20"

fail() { echo "FAIL: $*"; echo "--- host stderr"; cat /tmp/host.err; echo "--- front end"; cat /tmp/fe*.err 2>/dev/null; exit 1; }
# value KEY: the number after "KEY": in the host's JSON summary
value() { sed -n "s/^ *\"$1\": \\([0-9.e+-]*\\).*/\\1/p" /tmp/host.json | head -1; }
expect_zero() { for k in "$@"; do [ "$(value "$k")" = 0 ] || fail "$k = $(value "$k"), expected 0"; done; }
expect_at_least() { awk -v v="$(value "$1")" -v m="$2" 'BEGIN{exit !(v >= m)}' || fail "$1 = $(value "$1"), expected >= $2"; }
# The front end waits for the host (--wait 20): no head start needed.
run_host() { $HOST "$@" >/tmp/host.json 2>/tmp/host.err & HOST_PID=$!; }
wait_host() { wait $HOST_PID || fail "host exited with $?"; cat /tmp/host.json; }
ERRORS="payload_crc_errors header_errors sequence_gaps duplicates late_blocks frames_incomplete frames_missing immediate_mismatches length_mismatches completion_errors credit_violations"

case "${1:-}" in
  stream)
    run_host --frames 3400 --rate 0
    $FE 2>/tmp/fe1.err || fail "front end exited with $?"
    wait_host
    expect_at_least blocks_ok 10000
    expect_at_least frames_delivered 3400
    expect_zero $ERRORS
    grep -q '"device": "rxe0"' /tmp/host.json || fail "the summary does not name the device"
    grep -q '"port 1"' /tmp/host.json || fail "no port counters in the summary"
    grep -q "link: rxe0 (firmware" /tmp/host.err || fail "the host did not show the link's capabilities"
    ;;
  ber)
    run_host --frames 400 --rate 0 --mode prbs31
    $FE 2>/tmp/fe1.err || fail "front end exited with $?"
    wait_host
    expect_at_least ber_bits_checked 10000000
    expect_zero ber_bit_errors $ERRORS
    ;;
  reconnect)
    run_host --frames 3000 --rate 0 --reconnect
    $FE --disconnect-after 1500 2>/tmp/fe1.err
    grep -q "disconnect injected after 1500 blocks" /tmp/fe1.err || fail "the front end did not vanish as asked"
    $FE 2>/tmp/fe2.err || fail "the second front end exited with $?"
    wait_host
    grep -q "link lost: Unavailable: the front end" /tmp/host.err || fail "the host did not say the front end was lost"
    grep -q "waiting for the front end to reconnect" /tmp/host.err || fail "the host did not wait for the front end"
    [ "$(value sessions)" = 2 ] || fail "sessions = $(value sessions), expected 2"
    expect_at_least frames_delivered 2400
    ;;
  busypoll)
    run_host --frames 500 --rate 0 --busy-poll --rx-cpu 0
    $FE 2>/tmp/fe1.err || fail "front end exited with $?"
    wait_host
    # Every frame accounted for, nothing corrupt. A poller pinned to a core another load shares
    # (the suite on a loaded machine) may see a block after its frame was given up: that block is
    # counted late and its frame incomplete, never delivered wrong.
    delivered=$(value frames_delivered); incomplete=$(value frames_incomplete); missing=$(value frames_missing)
    [ $((delivered + incomplete + missing)) -ge 500 ] || fail "frames: $delivered delivered, $incomplete incomplete, $missing missing of 500"
    [ "$incomplete" = 0 ] || [ "$(value late_blocks)" -gt 0 ] || fail "$incomplete frames incomplete without a late block"
    expect_zero payload_crc_errors header_errors sequence_gaps duplicates immediate_mismatches length_mismatches completion_errors credit_violations
    ;;
  selftest)
    cat >/tmp/selftest.json <<EOF
{"link": {"backend": "verbs", "address": "$RDMA_IP", "slot_size_bytes": 16384, "slot_count": 64},
 "probe": {"element_count": 32}, "acquisition": {"samples_per_channel": 248},
 "selftest": {"ber_quick_limit": 1e-7},
 "recording": {"directory": "/tmp/recordings"}, "dicom": {"queue_directory": "/tmp/dicom-queue"}}
EOF
    sonolink-cli selftest --config /tmp/selftest.json --json >/tmp/host.json 2>/tmp/host.err & HOST_PID=$!
    $FE --reconnect 2>/tmp/fe1.err & FE_PID=$!
    wait $HOST_PID || fail "selftest exited with $?"
    kill $FE_PID 2>/dev/null; wait $FE_PID 2>/dev/null
    cat /tmp/host.json
    grep -q '"step": "station: memlock limit"' /tmp/host.json || fail "no station memlock step"
    grep -q '"step": "ring memory"' /tmp/host.json || fail "no ring memory step"
    grep -q '"step": "station: RDMA port"' /tmp/host.json || fail "no RDMA port step"
    grep -q '"figures": "rxe0 port 1: active' /tmp/host.json || fail "the RDMA port step did not find rxe0 up"
    grep -q '"step": "link BER"' /tmp/host.json || fail "no link BER step"
    grep -q '"step": "ring slots (DMA path)"' /tmp/host.json || fail "no ring slots step"
    grep -q '"step": "element check"' /tmp/host.json || fail "no element check step"
    grep -q '"pass": true' /tmp/host.json || fail "the self-test did not pass"
    bits=$(grep -o '"bits_checked": [0-9]*' /tmp/host.json | grep -o '[0-9]*$' | sort -n | tail -1)  # the link BER step's
    [ "${bits:-0}" -ge 29957323 ] || fail "the link BER step compared $bits bits, fewer than the 2.996e7 that show 1e-7"
    ;;
  *) echo "usage: guest_tests.sh stream|ber|reconnect|busypoll|selftest"; exit 2 ;;
esac
echo "PASS: $1"
