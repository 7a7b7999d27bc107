"""A userspace Ethernet relay between two interfaces (AF_PACKET), for the cluster tests: each frame
one side receives is sent out of the other, after a delay drawn from [--delay-ms LO:HI] and unless
dropped with probability --drop. IPv4 TCP and UDP checksums are computed afresh (veth leaves them
to offload, which a frame read from a packet socket no longer has). On SIGTERM it prints its counts
as one JSON line and ends.
Usage: l2_relay.py IF_A IF_B [--drop P] [--delay-ms LO:HI] [--seed N]"""
import argparse
import heapq
import json
import random
import select
import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return (~total) & 0xFFFF


def fix_checksums(frame):
    """The frame with its IPv4 TCP or UDP checksum computed over the pseudo-header and segment."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00":
        return frame
    header_length = (frame[14] & 0x0F) * 4
    total_length = struct.unpack("!H", frame[16:18])[0]
    protocol = frame[23]
    start = 14 + header_length
    end = 14 + total_length
    offset = {6: 16, 17: 6}.get(protocol)
    if offset is None or end > len(frame) or struct.unpack("!H", frame[20:22])[0] & 0x1FFF:
        return frame
    segment = bytearray(frame[start:end])
    segment[offset:offset + 2] = b"\0\0"
    pseudo = frame[26:34] + struct.pack("!BBH", 0, protocol, len(segment))
    value = checksum(pseudo + bytes(segment))
    if protocol == 17 and value == 0:
        value = 0xFFFF
    segment[offset:offset + 2] = struct.pack("!H", value)
    return frame[:start] + bytes(segment) + frame[end:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--drop", type=float, default=0.0)
    parser.add_argument("--delay-ms", default="0:0")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    low, high = (float(v) / 1000 for v in args.delay_ms.split(":"))
    chance = random.Random(args.seed)
    sockets = {}
    for name in (args.a, args.b):
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.bind((name, 0))
        s.setblocking(False)
        sockets[name] = s
    other = {args.a: sockets[args.b], args.b: sockets[args.a]}
    counts = {"relayed": 0, "dropped": 0}
    due = []  # (time, sequence, socket, frame)
    running = [True]
    signal.signal(signal.SIGTERM, lambda *_: running.__setitem__(0, False))
    sequence = 0
    while running[0]:
        timeout = max(0.0, due[0][0] - time.monotonic()) if due else 0.05
        readable, _, _ = select.select(list(sockets.values()), [], [], min(timeout, 0.05))
        for s in readable:
            while True:
                try:
                    frame, where = s.recvfrom(65535)
                except BlockingIOError:
                    break
                if where[2] == PACKET_OUTGOING:
                    continue
                if chance.random() < args.drop:
                    counts["dropped"] += 1
                    continue
                sequence += 1
                heapq.heappush(due, (time.monotonic() + chance.uniform(low, high), sequence, other[where[0]], fix_checksums(frame)))
        now = time.monotonic()
        while due and due[0][0] <= now:
            _, _, target, frame = heapq.heappop(due)
            try:
                target.send(frame)
                counts["relayed"] += 1
            except OSError:
                counts["dropped"] += 1
    print(json.dumps(counts), flush=True)


if __name__ == "__main__":
    sys.exit(main())
