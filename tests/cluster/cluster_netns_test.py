"""Four acquisition hosts and a coordinator, each in a network namespace of its own joined by a
bridge (veth pairs; 10.77.0.0/24), over UCX's TCP: real addresses and devices, which loopback
hides. They stream for 60 s with every count exact and the frames bit for bit the single-process
sum; a host that connects from another address than the cluster file names is turned away; and
with a relay in the coordinator's link that delays and drops frames, each frame still goes within
its deadline, and no frame is complete without every host's part. Needs root (ip netns)."""
import json
import os
import pathlib
import subprocess
import tempfile
import unittest

from cluster_netns import Namespaces
from cluster_support import CLI, Coordinator, cluster_file, log, node_summary, start_node, stop_all

SECONDS = float(os.environ.get("SONOLINK_CLUSTER_SECONDS", "60"))
HOSTS = 4
# Counting runs share CI's loaded cores: a heartbeat late by more than 80 ms there is no lost host
# (cluster_faults_test.py holds the 100 ms bound, alone).
UNDER_LOAD = {"heartbeat_ms": 50, "host_lost_ms": 1000}
PORT = 17001


@unittest.skipUnless(os.geteuid() == 0, "network namespaces need root")
class NamespacesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.processes = []
        self.net = None

    def tearDown(self):
        stop_all(self.processes)
        if self.net:
            self.net.close()
        self.tmp.cleanup()

    def start(self, seconds, relay=None, extra=()):
        self.net = Namespaces(HOSTS, relay)
        addresses = [self.net.address(h) for h in range(HOSTS)]
        self.cluster = cluster_file(os.path.join(self.tmp.name, "cluster.json"), PORT, hosts=HOSTS, address=self.net.address(),
                                    host_addresses=addresses, **UNDER_LOAD)
        coordinator = Coordinator(self.cluster, seconds, list(extra), netns=self.net.coordinator_ns)
        self.processes.append(coordinator.process)
        coordinator.wait_event("listening", 15)
        return coordinator

    def start_nodes(self, coordinator):
        nodes = [start_node(self.cluster, h, netns=self.net.host_ns[h]) for h in range(HOSTS)]
        self.processes += nodes
        coordinator.wait_event("started", 30)
        return nodes

    def test_four_hosts_in_namespaces_stream_with_every_count_exact(self):
        frames = pathlib.Path(self.tmp.name, "frames")
        frames.mkdir()
        coordinator = self.start(SECONDS, extra=["--frames-out", str(frames), "--keep-frames", "2"])
        nodes = self.start_nodes(coordinator)
        self.assertEqual(coordinator.finish(SECONDS + 60), 0, coordinator.summary)
        summary = coordinator.summary
        log("namespaces:", summary["frames"], summary["added_latency_ms"])
        f = summary["frames"]
        spanned = f["last_trigger"] - f["first_trigger"] + 1
        self.assertEqual(f["complete"] + f["incomplete"] + f["never_seen"], spanned)
        self.assertEqual(f["dropped"], 0)
        self.assertGreaterEqual(spanned, int(SECONDS * 10) - 1)
        skipped = 0
        for h, node in enumerate(nodes):
            sent, code, err = node_summary(node)
            host = summary["hosts"][h]
            self.assertEqual(code, 0, err)
            self.assertEqual(host["address"].split(":")[0], self.net.address(h))
            self.assertEqual(sent["partials_sent"], host["partials"])
            self.assertEqual(host["partials"] + host["missing"], spanned)
            self.assertEqual(host["bytes_received"], host["partials"] * summary["partial_bytes"])
            skipped += sent["triggers_skipped"]
        # Complete unless a host skipped the trigger (CI's loaded cores), and then flagged.
        self.assertEqual(sum(h["missing"] for h in summary["hosts"]) + HOSTS * f["never_seen"], skipped)
        self.assertLessEqual(skipped, spanned // 50)
        for path in sorted(frames.glob("trigger_*.f32")):
            reference = path.with_suffix(".reference")
            subprocess.run([CLI, "cluster", "reference", "--cluster-file", self.cluster, "--trigger", path.stem.split("_")[1],
                            "--out", str(reference)], check=True, timeout=120)
            self.assertEqual(path.read_bytes(), reference.read_bytes(), path.name)

    def test_a_host_connecting_from_another_address_is_turned_away(self):
        coordinator = self.start(2, extra=["--join-timeout", "3"])
        impostor = start_node(self.cluster, 0, netns=self.net.host_ns[1])
        self.processes.append(impostor)
        refused = coordinator.wait_event("host_refused", 15, lambda e: e.get("host") == 0)
        self.assertIn(f"connected from {self.net.address(1)}:", refused["text"])
        self.assertIn(f"the cluster file says {self.net.address(0)}", refused["text"])
        _, code, err = node_summary(impostor)
        self.assertNotEqual(code, 0)
        self.assertIn("turned away by the coordinator", err)
        coordinator.finish(30)

    def test_through_a_relay_that_delays_and_drops_every_deadline_holds(self):
        seconds = min(SECONDS, 20)
        coordinator = self.start(seconds, relay=["--drop", "0.02", "--delay-ms", "0:25", "--seed", "7"])
        nodes = self.start_nodes(coordinator)
        coordinator.finish(seconds + 60)
        relayed = self.net.stop_relay()
        summary = coordinator.summary
        self.assertIsNotNone(summary, coordinator.stderr_text())
        log("relay:", relayed, summary["frames"], summary["partials"], "held max", summary["held_ms_max"], "ms")
        counts = json.loads(relayed)
        self.assertGreater(counts["dropped"], 0)
        self.assertGreater(counts["relayed"], 1000, "the hosts' partials went through the relay")
        period_ms = 100
        self.assertLessEqual(summary["held_ms_max"], summary["deadline_ms"] + period_ms)
        f = summary["frames"]
        self.assertEqual(f["complete"] + f["incomplete"] + f["dropped"] + f["never_seen"], f["last_trigger"] - f["first_trigger"] + 1)
        self.assertGreater(f["complete"], 0)
        for h, node in enumerate(nodes):
            sent, code, err = node_summary(node)
            host = summary["hosts"][h]
            self.assertGreaterEqual(host["partials"], f["complete"], "a frame complete without this host's part")
            self.assertEqual(sent["partials_sent"], host["partials"] + host["late"] + host["refused"], f"host {h}")
        self.assertTrue(summary["counts_agree"], summary["disagreement"])


if __name__ == "__main__":
    unittest.main()
