"""Network namespaces the cluster tests make for themselves: one for each host, one for the
coordinator, and one that holds the bridge joining them (10.77.0.0/24: the coordinator .1, host i
.10+i). With a relay, the coordinator's link to the bridge passes through l2_relay.py, which delays
and drops frames on demand. Everything made here is deleted by close(), and every process started
in it stopped by its PID."""
import os
import subprocess
import sys

SUBNET = "10.77.0"


def ip(*args, ns=None):
    command = ["ip"] + (["-n", ns] if ns else []) + list(args)
    subprocess.run(command, check=True, capture_output=True, text=True)


class Namespaces:
    def __init__(self, hosts, relay=None):
        tag = f"sl{os.getpid() % 100000}"
        self.bridge_ns = f"{tag}b"
        self.coordinator_ns = f"{tag}c"
        self.host_ns = [f"{tag}h{i}" for i in range(hosts)]
        self.relay = None
        self.made = []
        try:
            self._build(relay)
        except BaseException:
            self.close()
            raise

    def address(self, host=None):
        return f"{SUBNET}.1" if host is None else f"{SUBNET}.{10 + host}"

    def _namespace(self, name):
        ip("netns", "add", name)
        self.made.append(name)
        ip("link", "set", "lo", "up", ns=name)

    def _plug(self, name, end, address):
        """A veth pair: `end` on the bridge, eth0 with `address` in namespace `name`."""
        ip("link", "add", "name", end, "type", "veth", "peer", "name", end + "x", ns=self.bridge_ns)
        ip("link", "set", end + "x", "netns", name, ns=self.bridge_ns)
        ip("link", "set", end + "x", "name", "eth0", ns=name)
        ip("addr", "add", f"{address}/24", "dev", "eth0", ns=name)
        ip("link", "set", "eth0", "up", ns=name)
        ip("link", "set", end, "up", ns=self.bridge_ns)

    def _build(self, relay):
        for name in [self.bridge_ns, self.coordinator_ns, *self.host_ns]:
            self._namespace(name)
        ip("link", "add", "name", "br0", "type", "bridge", ns=self.bridge_ns)
        ip("link", "set", "br0", "up", ns=self.bridge_ns)
        for i, name in enumerate(self.host_ns):
            self._plug(name, f"h{i}", self.address(i))
            ip("link", "set", f"h{i}", "master", "br0", ns=self.bridge_ns)
        self._plug(self.coordinator_ns, "c0", self.address())
        if relay is None:
            ip("link", "set", "c0", "master", "br0", ns=self.bridge_ns)
            return
        # The relay's two sides: r0 on the bridge, its peer r1 read and written by the relay; c0
        # (the coordinator's peer) read and written by the relay too. The senders make no segment
        # larger than the MTU (no GSO/TSO): a packet socket sends no more than one frame's worth.
        for name in [self.coordinator_ns, *self.host_ns]:
            ip("link", "set", "dev", "eth0", "gso_max_size", "1500", "gso_max_segs", "1", ns=name)
        ip("link", "add", "name", "r0", "type", "veth", "peer", "name", "r1", ns=self.bridge_ns)
        ip("link", "set", "r0", "master", "br0", ns=self.bridge_ns)
        for end in ("r0", "r1", "c0"):
            ip("link", "set", end, "up", "promisc", "on", ns=self.bridge_ns)
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "l2_relay.py")
        self.relay = subprocess.Popen(["ip", "netns", "exec", self.bridge_ns, sys.executable, script, "r1", "c0", *relay],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def stop_relay(self):
        """Stops the relay; its counts (JSON) as it printed them."""
        if self.relay is None or self.relay.poll() is not None:
            return None
        self.relay.terminate()
        out, _ = self.relay.communicate(timeout=10)
        lines = [line for line in out.splitlines() if line.startswith("{")]
        return lines[-1] if lines else None

    def close(self):
        if self.relay is not None and self.relay.poll() is None:
            self.relay.kill()
            self.relay.wait()
        for name in reversed(self.made):
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
        self.made = []
