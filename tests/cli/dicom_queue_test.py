#!/usr/bin/env python3
"""The store-and-forward queue through sonolink-cli dicom queue, against real peers on loopback
(stopped by PID): storescp down, refusing, aborting and stalling, with the queue runner killed
by SIGKILL in the middle and started again, then a working storescp: every object arrives once,
with the UID it was queued with; purging forgets them and their copies. Orthanc with storage commitment: the runner is killed with
SIGKILL mid-queue and restarted; Orthanc ends with every instance exactly once, every item is
committed and its local copy deleted. A commitment request for an object never sent comes back
as a failure naming the reason. A queue whose database was lost or damaged is refused, not emptied, and
`queue recover` brings its copies back. Run by CTest with SONOLINK_CLI set."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import pydicom

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_peers import Orthanc, Storescp, free_port, sonolink_config, stop, us_file  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]



def queued_copies(objects):
    """The queue's copies of objects (objects/*.dcm), not the node file beside each."""
    return [f for f in os.listdir(objects) if f.endswith(".dcm")]

class QueueTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.work = self.dir.name
        self.peers = []

    def tearDown(self):
        for peer in self.peers:
            peer.stop()
        self.dir.cleanup()

    def cli(self, *args, timeout=120):
        return subprocess.run([CLI, "dicom", *args], capture_output=True, text=True, timeout=timeout)

    def files(self, count, frames=1, rows=16, columns=16):
        os.makedirs(os.path.join(self.work, "exam"), exist_ok=True)
        paths, uids = [], []
        for i in range(count):
            path = os.path.join(self.work, "exam", f"img{i:03}.dcm")
            uids.append(us_file(path, frames=frames, rows=rows, columns=columns, seed=i))
            paths.append(path)
        return paths, uids

    def queue_list(self, config):
        proc = self.cli("queue", "list", "--config", config, "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return json.loads(proc.stdout)

    def read(self, name):
        with open(os.path.join(self.work, name)) as f:
            return f.read()

    def events(self, name):
        """The runner's events so far (`queue run --events`: one JSON object per line)."""
        with open(os.path.join(self.work, name)) as f:
            return [json.loads(line) for line in f if line.endswith("\n")]

    def wait_for_event(self, name, what, timeout=60, **fields):
        """Until the runner says it did `what` (with these fields): a wait on what happened, read
        from its JSON events, not on time or on a log's words. Returns the event."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for event in self.events(name):
                if event["event"] in what and all(event.get(k) == v for k, v in fields.items()):
                    return event
            time.sleep(0.02)
        self.fail(f"{name} never said {what} with {fields}:\n{self.read(name)}")

    def start_runner(self, config, log_name):
        """A queue runner whose events go to log_name (its log lines to log_name.stderr)."""
        log = open(os.path.join(self.work, log_name), "w")
        errors = open(os.path.join(self.work, log_name + ".stderr"), "w")
        runner = subprocess.Popen([CLI, "dicom", "queue", "run", "--config", config, "--until-settled", "--timeout", "120", "--events"],
                                  stdout=log, stderr=errors)
        errors.close()
        return runner, log

    def test_faulty_pacs_then_kill_then_recovery(self):
        port = free_port()
        config = sonolink_config(os.path.join(self.work, "sonolink.json"),
                                 [{"name": "pacs", "ae_title": "STORESCP", "port": port}],
                                 queue_dir=os.path.join(self.work, "queue"), retry_initial_s=0.1, retry_max_s=0.4,
                                 dimse_timeout_s=1)
        paths, uids = self.files(12)
        proc = self.cli("queue", "add", "--config", config, "--node", "pacs", *paths, "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual([i["sop_instance_uid"] for i in json.loads(proc.stdout)], uids)

        runner, log = self.start_runner(config, "runner1.log")
        failed = ("association_failed", "attempt_failed")
        self.wait_for_event("runner1.log", failed, fault="nothing listening", retry=True)  # down: nothing listens
        faults = ((["--refuse"], "rejected"), (["--abort-during"], "aborted"), (["--sleep-during", "3"], "timeout"))
        for fault, symptom in faults:
            peer = Storescp(self.work, port, *fault)
            self.wait_for_event("runner1.log", failed, fault=symptom, retry=True)  # the runner met this fault, and tries again
            peer.stop()
        runner.send_signal(signal.SIGKILL)                  # the workstation dies mid-queue
        runner.wait(timeout=10)
        log.close()
        failures = [e for e in self.events("runner1.log") if e["event"] in failed]
        for event in failures:
            self.assertEqual(event["node"], "pacs")
            self.assertIn("PACS STORESCP at 127.0.0.1:" + str(port), event["error"], "each fault names the node")
        self.assertTrue(all(e["code"] in ("Unavailable", "FailedPrecondition", "DeadlineExceeded") for e in failures), failures)
        self.assertFalse([e for e in self.events("runner1.log") if e["event"] == "stored"], "nothing was stored")
        items = self.queue_list(config)
        self.assertTrue(all(i["state"] in ("queued", "sending") for i in items), items)
        self.assertTrue(all(i["attempts"] >= 1 for i in items))

        # A second runner while the first holds the queue is refused, so nothing is sent twice.
        runner2, log2 = self.start_runner(config, "runner2.log")
        started = self.wait_for_event("runner2.log", ("started",))  # it holds the queue
        self.assertEqual(started["counts"]["queued"] + started["counts"]["sending"], len(uids), started)
        busy = self.cli("queue", "run", "--config", config, "--until-settled", "--timeout", "5")
        self.assertNotEqual(busy.returncode, 0)
        self.assertIn("in use by another process", busy.stderr)
        # The PACS comes back, writing every object it receives to a file of its own (+uf), so a
        # second transmission of an object would show as a second file.
        good = Storescp(os.path.join(self.work, "good"), port, "+uf")
        self.peers.append(good)
        self.assertEqual(runner2.wait(timeout=120), 0, self.read("runner2.log"))
        log2.close()
        stored = sorted(e["item"] for e in self.events("runner2.log") if e["event"] == "stored")
        ended = self.events("runner2.log")[-1]
        self.assertEqual((ended["event"], ended["settled"], ended["counts"]["sent"]), ("ended", True, len(uids)), ended)
        self.assertEqual(stored, sorted(i["id"] for i in ended["items"]), "each item stored once, as the runner told it")
        items = self.queue_list(config)
        self.assertEqual([i["state"] for i in items], ["sent"] * len(uids))
        received = sorted(os.listdir(good.inbox))
        received_uids = sorted(pydicom.dcmread(os.path.join(good.inbox, f)).SOPInstanceUID for f in received)
        self.assertEqual(received_uids, sorted(uids), "every object exactly once, with the UID it was queued with")

        # Retention: within the configured 30 days nothing is forgotten; --older-than 0 forgets
        # every sent item and deletes the copies kept for a node that does not commit storage.
        kept = self.cli("queue", "purge", "--config", config, "--json")
        self.assertEqual(kept.returncode, 0, kept.stderr)
        self.assertEqual(json.loads(kept.stdout)["forgotten"], 0)
        copies = os.path.join(self.work, "queue", "objects")
        self.assertEqual(len(queued_copies(copies)), len(uids))
        purged = self.cli("queue", "purge", "--config", config, "--older-than", "0", "--json")
        self.assertEqual(purged.returncode, 0, purged.stderr)
        self.assertEqual(json.loads(purged.stdout), {"forgotten": len(uids), "older_than_days": 0.0, "remaining": 0})
        self.assertEqual(os.listdir(copies), [], "each copy and its node file go")
        self.assertEqual(self.queue_list(config), [])

    def test_orthanc_kill_mid_queue_and_storage_commitment(self):
        station = free_port()
        orthanc = Orthanc(self.work, station=("SONOLINK", station))
        self.peers.append(orthanc)
        config = sonolink_config(os.path.join(self.work, "sonolink.json"),
                                 [{"name": "orthanc", "ae_title": "ORTHANC", "port": orthanc.dicom_port,
                                   "storage_commitment": True}],
                                 station_port=station, queue_dir=os.path.join(self.work, "queue"),
                                 retry_initial_s=0.1, retry_max_s=0.5, commitment_timeout_s=30)
        paths, uids = self.files(40, frames=20, rows=128, columns=128)
        self.assertEqual(self.cli("queue", "add", "--config", config, "--node", "orthanc", *paths).returncode, 0)

        runner, log = self.start_runner(config, "runner1.log")
        deadline = time.monotonic() + 60
        while orthanc.get("/statistics")["CountInstances"] < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=10)
        log.close()
        stored_at_kill = orthanc.get("/statistics")["CountInstances"]
        self.assertLess(stored_at_kill, len(uids), "killed mid-queue")

        runner, log = self.start_runner(config, "runner2.log")
        self.assertEqual(runner.wait(timeout=120), 0, self.read("runner2.log"))
        log.close()
        self.assertEqual(orthanc.get("/statistics")["CountInstances"], len(uids))
        self.assertEqual(sorted(orthanc.instance_uids()), sorted(uids), "each instance exactly once")
        items = self.queue_list(config)
        self.assertEqual([i["state"] for i in items], ["committed"] * len(uids))
        self.assertEqual(os.listdir(os.path.join(self.work, "queue", "objects")), [], "local copies go once committed")
        self.assertNotIn("Badly formatted N-EVENT-REPORT", orthanc.log_text())

    def test_commitment_of_an_object_never_sent_fails(self):
        station = free_port()
        orthanc = Orthanc(self.work, station=("SONOLINK", station))
        self.peers.append(orthanc)
        config = sonolink_config(os.path.join(self.work, "sonolink.json"),
                                 [{"name": "orthanc", "ae_title": "ORTHANC", "port": orthanc.dicom_port}],
                                 station_port=station)
        (sent, unsent), (sent_uid, unsent_uid) = self.files(2)
        proc = self.cli("send", sent, "--aet", "ORTHANC", "--port", str(orthanc.dicom_port))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        proc = self.cli("commit", "--config", config, "--node", "orthanc", sent, unsent, "--json", "--wait", "20")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        report = json.loads(proc.stdout)
        self.assertEqual(report["committed"], [sent_uid])
        self.assertEqual([f["sop_instance_uid"] for f in report["failed"]], [unsent_uid])
        self.assertIn("0x0112 (no such object instance)", report["failed"][0]["reason"])
        self.assertNotIn("Badly formatted N-EVENT-REPORT", orthanc.log_text())

    def test_recover_sends_each_copy_to_its_own_node_and_a_removed_node_fails_its_items(self):
        """The reported bugs: the queue's own repair advice, `recover --node X`, sent every copy to
        X, also those queued for another PACS; items for a node removed from the configuration
        stayed queued for ever. Each copy's node lies beside it: recover (no --node) sends each to
        its own PACS; an item of a node no longer configured fails with the reason."""
        ports = {"north": free_port(), "south": free_port()}
        queue = os.path.join(self.work, "queue")
        nodes = [{"name": name, "ae_title": "STORESCP", "port": port} for name, port in ports.items()]
        config = sonolink_config(os.path.join(self.work, "sonolink.json"), nodes, queue_dir=queue)
        paths, uids = self.files(4)
        for node, files in (("north", paths[:2]), ("south", paths[2:])):
            proc = self.cli("queue", "add", "--config", config, "--node", node, *files)
            self.assertEqual(proc.returncode, 0, proc.stderr)
        os.remove(os.path.join(queue, "queue.db"))
        proc = self.cli("queue", "recover", "--config", config, "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(json.loads(proc.stdout)["requeued"], 4)
        inboxes = {}
        for name, port in ports.items():
            peer = Storescp(os.path.join(self.work, name), port, "+uf")
            self.peers.append(peer)
            inboxes[name] = peer.inbox
        proc = self.cli("queue", "run", "--config", config, "--until-settled", "--timeout", "60")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for name, expected in (("north", uids[:2]), ("south", uids[2:])):
            received = sorted(pydicom.dcmread(os.path.join(inboxes[name], f)).SOPInstanceUID for f in os.listdir(inboxes[name]))
            self.assertEqual(received, sorted(expected), f"{name} receives what was queued for it, and only that")
        # South leaves the configuration with an item still queued for it.
        (late,), _ = self.files(1)
        self.assertEqual(self.cli("queue", "add", "--config", config, "--node", "south", late).returncode, 0)
        config = sonolink_config(os.path.join(self.work, "sonolink.json"), nodes[:1], queue_dir=queue)
        proc = self.cli("queue", "run", "--config", config, "--until-settled", "--timeout", "30")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        items = json.loads(self.cli("queue", "list", "--config", config, "--json").stdout)
        failed = [i for i in items if i["state"] == "failed"]
        self.assertEqual(len(failed), 1, items)
        self.assertIn("no longer configured", failed[0]["last_error"])

    def test_a_lost_database_is_refused_and_recovered_not_emptied(self):
        """The reported bug: with the queue's records removed, `queue run` deleted every copy and
        exited 0. Now run and list refuse, naming the copies and the recover command; recover
        queues the copies again; the PACS then receives each object once."""
        self.check_refused_and_recovered(lambda db: os.remove(db), "4 copies but no database")

    def test_a_damaged_database_is_refused_and_recovered_not_emptied(self):
        """The same with the database's pages overwritten from the middle on: SQLite's integrity
        check finds it, and recover moves it aside for inspection."""
        def damage(db):
            size = os.path.getsize(db)
            with open(db, "r+b") as f:
                f.seek(size // 2)
                f.write(os.urandom(size - size // 2))
        self.check_refused_and_recovered(damage, "queue.db")

    def check_refused_and_recovered(self, harm, complaint):
        port = free_port()
        queue = os.path.join(self.work, "queue")
        config = sonolink_config(os.path.join(self.work, "sonolink.json"),
                                 [{"name": "pacs", "ae_title": "STORESCP", "port": port}], queue_dir=queue)
        paths, uids = self.files(4)
        proc = self.cli("queue", "add", "--config", config, "--node", "pacs", *paths)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        harm(os.path.join(queue, "queue.db"))
        for command in (["run", "--until-settled", "--timeout", "5"], ["list"]):
            proc = self.cli("queue", *command, "--config", config)
            self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
            self.assertIn(complaint, proc.stderr)
            self.assertIn("dicom queue recover", proc.stderr)
        self.assertEqual(len(queued_copies(os.path.join(queue, "objects"))), 4, "no copy deleted")
        proc = self.cli("queue", "recover", "--config", config, "--node", "pacs", "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(json.loads(proc.stdout)["requeued"], 4)
        good = Storescp(os.path.join(self.work, "good"), port, "+uf")
        self.peers.append(good)
        proc = self.cli("queue", "run", "--config", config, "--until-settled", "--timeout", "60")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        received = sorted(pydicom.dcmread(os.path.join(good.inbox, f)).SOPInstanceUID for f in os.listdir(good.inbox))
        self.assertEqual(received, sorted(uids))
        mode = os.stat(queue).st_mode & 0o777
        self.assertEqual(mode, 0o700, "the queue names patients: its owner's only")


if __name__ == "__main__":
    unittest.main()
