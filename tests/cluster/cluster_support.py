"""Shared by the cluster tests: a cluster file for N hosts, the coordinator (`sonolink-cli cluster
run --events --json`) with its event lines read as they come, and the hosts (`sonolink-cli node`),
every process started here and stopped by its PID."""
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time

CLI = os.environ.get("SONOLINK_CLI", "sonolink-cli")


def free_port(address="127.0.0.1"):
    with socket.socket() as s:
        s.bind((address, 0))
        return s.getsockname()[1]


def cluster_file(path, port, hosts=4, channels_per_host=32, transports="tcp", rate=10.0, address="127.0.0.1",
                 host_addresses=None, partial="rf", window="hann", photoacoustic=False, incomplete="flag", nx=64, nz=96,
                 deadline_frames=2.0, heartbeat_ms=20, host_lost_ms=80):
    spec = {
        "coordinator": {"address": address, "port": port},
        "ucx": {"transports": transports},
        "timing": {"frame_rate_hz": rate, "deadline_frames": deadline_frames, "heartbeat_ms": heartbeat_ms, "host_lost_ms": host_lost_ms,
                   "incomplete": incomplete},
        "acquisition": {"pitch_m": 0.0003, "center_frequency_hz": 5e6, "sampling_rate_hz": 40e6, "samples": 1600,
                        "angles_deg": [-6, 0, 6], "photoacoustic": photoacoustic, "distinct_frames": 4},
        "imaging": {"partial": partial, "x_m": [-0.012, 0.012], "nx": nx, "z_m": [0.006, 0.028], "nz": nz,
                    "f_number": 1.5, "window": window, "modulation_frequency_hz": 5e6, "iq_decimation": 2,
                    "vector_loop": "avx2", "threads": 1},
        "hosts": [{"name": f"node{h}", "address": (host_addresses[h] if host_addresses else address),
                   "channels": [h * channels_per_host, (h + 1) * channels_per_host]} for h in range(hosts)],
    }
    with open(path, "w") as f:
        json.dump(spec, f, indent=2)
    return path


class Coordinator:
    """`cluster run` in the background; events() yields its event lines as they come."""

    def __init__(self, cluster, duration, extra=(), netns=None):
        command = [CLI, "cluster", "run", "--cluster-file", cluster, "--duration", str(duration), "--events", "--json",
                   *extra]
        if netns:
            command = ["ip", "netns", "exec", netns, *command]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        self.all_events = []
        self.summary = None
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            line = line.strip()
            if not line.startswith("{"):
                continue
            value = json.loads(line)
            if "event" in value:
                self.all_events.append(value)
                self.lines.put(value)
            else:
                self.summary = value
        self.lines.put(None)

    def wait_event(self, kind, timeout, where=lambda e: True):
        """The first event of this kind (and condition) from now on, or an AssertionError."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind} event within {timeout} s; events: {self.all_events[-10:]}")
            try:
                event = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if event is None:
                raise AssertionError(f"the coordinator ended before a {kind} event: {self.stderr_text()}")
            if event["event"] == kind and where(event):
                return event

    def finish(self, timeout):
        try:
            self.process.wait(timeout=timeout)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        self.reader.join(timeout=5)
        return self.process.returncode

    def stderr_text(self):
        try:
            return self.process.stderr.read() if self.process.poll() is not None else ""
        except ValueError:
            return ""


def start_node(cluster, host, extra=(), netns=None):
    command = [CLI, "node", "--cluster-file", cluster, "--host", str(host), "--json", *extra]
    if netns:
        command = ["ip", "netns", "exec", netns, *command]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def node_summary(process, timeout=20):
    out, err = process.communicate(timeout=timeout)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if not lines:
        raise AssertionError(f"node printed no summary (exit {process.returncode}): {out}\n{err}")
    return json.loads(lines[-1]), process.returncode, err


def stop_all(processes):
    for p in processes:
        if p.poll() is None:
            try:
                os.kill(p.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
            p.kill()
            p.wait()


def log(*args):
    print(*args, file=sys.stderr, flush=True)
