#!/usr/bin/env python3
"""sonolink-fe-sim and sonolink-cli stream as two processes over a shared-memory link:
a normal run, the front end killed mid-stream (the host says so, waits, and resumes when the
front end restarts), and the host killed mid-stream (the front end says so and streams to
the next host). Verdicts are read from the JSON events both print (--json-events), never from
their wording; every process started here is stopped by its PID.
Run by CTest with SONOLINK_CLI and SONOLINK_FE_SIM set."""
import hashlib
import json
import math
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import unittest

CLI = os.environ["SONOLINK_CLI"]
FE_SIM = os.environ["SONOLINK_FE_SIM"]
SMALL = ["--channels", "64", "--samples", "1024", "--slot-bytes", "65536", "--slots", "64"]


def link_name(tag):
    return f"sonolink-test-{tag}-{os.getpid()}"


class Events:
    """The JSON lines of one of a process's streams, read as they come (other lines are kept as text)."""

    def __init__(self, stream):
        self.events, self.text = [], []
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream):
        for line in stream:
            with self.changed:
                if line.startswith("{"):
                    self.events.append(json.loads(line))
                else:
                    self.text.append(line)
                self.changed.notify_all()

    def wait_for(self, predicate, timeout, what):
        deadline = time.time() + timeout
        with self.changed:
            while True:
                found = [e for e in self.events if predicate(e)]
                if found:
                    return found[0]
                left = deadline - time.time()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {what}; events: {self.events}")
                self.changed.wait(left)

    def all(self, predicate):
        with self.changed:
            return [e for e in self.events if predicate(e)]

    def close(self):
        self.thread.join(timeout=10)


class Processes:
    """Starts processes and makes sure every one is gone at the end."""

    def __init__(self):
        self.procs = []

    def start(self, args):
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.procs.append(proc)
        return proc

    def stop_all(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=10)
            for stream in (proc.stdout, proc.stderr):
                stream.close()


def is_event(kind, **fields):
    return lambda e: e.get("event") == kind and all(e.get(k) == v for k, v in fields.items())


class FeSimProcessTest(unittest.TestCase):
    def setUp(self):
        self.p = Processes()

    def tearDown(self):
        self.p.stop_all()

    def front_end(self, name, *extra):
        proc = self.p.start([FE_SIM, "--link-name", name, "--json-events", *extra])
        return proc, Events(proc.stdout)

    def host(self, name, *args):
        proc = self.p.start([CLI, "stream", "--link-name", name, "--json-events", *args, *SMALL])
        return proc, Events(proc.stderr)

    def test_streams_between_two_processes(self):
        name = link_name("plain")
        # 100 frames/s: the test is about two processes, not speed; at 300 a full run at -j4 on two
        # cores once left the host 3 frames short (no free buffer), which a speed test would count.
        host, host_events = self.host(name, "--frames", "150", "--rate", "100", "--json")
        fe, fe_events = self.front_end(name)
        out = host.stdout.read()
        self.assertEqual(host.wait(timeout=60), 0, "".join(host_events.text))
        summary = json.loads(out)
        self.assertEqual(summary["frames_delivered"], 150)
        self.assertEqual(summary["payload_crc_errors"] + summary["sequence_gaps"] + summary["frames_missing"], 0)
        self.assertEqual(fe.wait(timeout=20), 0)
        fe_events.close()
        end = fe_events.wait_for(is_event("session_end"), 5, "the front end's session end")
        self.assertEqual(end["code"], "Cancelled", end)  # the host closed the link when it had its frames
        self.assertEqual(end["frames_acquired"], 150)
        configured = fe_events.wait_for(is_event("configured"), 1, "the front end's configuration")
        self.assertEqual((configured["channels"], configured["samples"], configured["waves"]), (64, 1024, 3))
        host_events.close()
        self.assertTrue(host_events.all(is_event("state", to="streaming")))
        self.assertFalse(os.path.exists(f"/dev/shm/{name}"), "the host left its shared memory behind")

    def test_a_prbs_stream_with_bits_flipped_on_the_way_measures_their_rate(self):
        """The host asks for PRBS-31, the front end flips bits at 1e-5 (header and payload): the
        host counts the payload's bit errors, CRC-failed blocks included, and its BER and 95 %
        upper bound bracket the injected rate; the damaged blocks are CRC errors, counted apart."""
        name = link_name("ber")
        host, host_events = self.host(name, "--mode", "prbs31", "--frames", "200", "--rate", "0", "--json")
        fe, _ = self.front_end(name, "--ber", "1e-5")
        out = host.stdout.read()
        host.wait(timeout=60)
        summary = json.loads(out)
        self.assertGreater(summary["ber_bits_checked"], 0.95 * 200 * 3 * 64 * 1024 * 16, summary)
        self.assertGreater(summary["ber_bit_errors"], 0, summary)
        self.assertLess(abs(summary["ber"] / 1e-5 - 1), 0.25, summary)  # about 5000 errors: within 25 %
        self.assertGreater(summary["ber_upper_95"], 1e-5, summary)
        self.assertGreater(summary["payload_crc_errors"], 0, summary)
        self.assertEqual(fe.wait(timeout=20), 0)
        host_events.close()

    def test_a_clean_prbs_stream_has_no_error_and_the_bound_of_its_bits(self):
        proc = subprocess.run([CLI, "stream", "--in-process", "--mode", "prbs31", "--frames", "50", "--rate", "0", "--json", *SMALL],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        summary = json.loads(proc.stdout)
        self.assertEqual((summary["ber_bit_errors"], summary["ber_lock_losses"], summary["ber_bursts"]), (0, 0, 0), summary)
        self.assertAlmostEqual(summary["ber_upper_95"] * summary["ber_bits_checked"], -math.log(0.05), places=6)

    def test_selftest_passes_on_a_clean_link_and_fails_naming_the_figures_on_a_bad_one(self):
        """sonolink-cli selftest through the engine: the built-in front end passes (exit 0); a
        front end that flips bits at 1e-6 fails the link BER step (exit 1) with its figures, the
        limit and what to do; so does a PACS that does not answer, named with its failure's class;
        no front end at all is exit 3."""
        reports = tempfile.mkdtemp()
        clean = subprocess.run([CLI, "selftest", "--in-process", "--json", "--report", reports], capture_output=True, text=True, timeout=120)
        self.assertEqual(clean.returncode, 0, clean.stdout + clean.stderr)
        report = json.loads(clean.stdout)
        self.assertTrue(report["pass"], report)
        with open(report["report"]) as f:  # the QA report: who, what, which front end, every step, its hash
            qa = json.load(f)
        self.assertNotIn("baseline_report", qa, "the folder's first report has no baseline")
        # A second run into the same folder: each step carries its figures of the last passing run.
        again = subprocess.run([CLI, "selftest", "--in-process", "--json", "--report", reports], capture_output=True, text=True, timeout=120)
        self.assertEqual(again.returncode, 0, again.stdout + again.stderr)
        second_path = json.loads(again.stdout)["report"]
        with open(second_path) as f:
            second = json.load(f)
        edited = dict(second, operator="someone else")  # its hash no longer holds: no baseline
        with open(second_path, "w") as f:
            json.dump(edited, f)
        third = subprocess.run([CLI, "selftest", "--in-process", "--json", "--report", reports], capture_output=True, text=True, timeout=120)
        with open(json.loads(third.stdout)["report"]) as f:
            self.assertEqual(json.load(f)["baseline_report"]["file"], os.path.basename(report["report"]), "the edited report is passed over")
        shutil.rmtree(reports)
        self.assertEqual(second["baseline_report"]["file"], os.path.basename(report["report"]), second["baseline_report"])
        self.assertEqual(second["baseline_report"]["sha256"], qa["sha256"])
        first_ber = next(s for s in qa["steps"] if s["step"] == "link BER")
        second_ber = next(s for s in second["steps"] if s["step"] == "link BER")
        self.assertEqual(second_ber["baseline"], {"verdict": "pass", "figures": first_ber["figures"], "limit": first_ber["limit"]})
        self.assertEqual(qa["verdict"], "pass", qa)
        self.assertEqual(qa["front_end"]["serial"], "SIM-0001", qa)
        self.assertEqual(qa["operator"], pwd.getpwuid(os.geteuid()).pw_name, qa)
        self.assertTrue(qa["software"]["version"] and qa["software"]["build"], qa)
        self.assertEqual([s["step"] for s in qa["steps"]], [s["step"] for s in report["steps"]], qa)
        body = {k: v for k, v in qa.items() if k != "sha256"}
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        self.assertEqual(qa["sha256"], hashlib.sha256(canonical.encode()).hexdigest(), "the hash is of the report's canonical form")
        steps = {s["step"]: s for s in report["steps"]}
        self.assertEqual([s["step"] for s in report["steps"]][-5:],
                         ["ring memory", "link BER", "ring slots (DMA path)", "element check", "phantom check"], report)
        self.assertEqual(steps["phantom check"]["verdict"], "pass", report)
        self.assertEqual(steps["ring slots (DMA path)"]["verdict"], "pass", report)
        self.assertEqual(steps["element check"]["verdict"], "pass", report)
        self.assertIn("station: memlock limit", steps, report)  # the station's set-up first
        self.assertEqual(steps["station: memlock limit"]["verdict"], "pass", report)
        self.assertEqual(steps["ring memory"]["verdict"], "pass", report)
        step = steps["link BER"]
        self.assertEqual((step["step"], step["verdict"], step["bit_errors"]), ("link BER", "pass", 0), step)
        self.assertGreaterEqual(step["bits_checked"], 2.99e10, step)  # -ln(0.05) / 1e-10
        self.assertLessEqual(step["ber_upper_bound"], 1e-10, step)

        name = link_name("selftest")
        host = self.p.start([CLI, "selftest", "--link-name", name, "--json"])
        self.front_end(name, "--ber", "1e-6", "--reconnect")  # serves the test's session, then the acquisition's
        out = host.stdout.read()
        self.assertEqual(host.wait(timeout=120), 1, out)
        report = json.loads(out)
        step = next(s for s in report["steps"] if s["step"] == "link BER")
        self.assertEqual((step["step"], step["verdict"]), ("link BER", "fail"), step)
        self.assertGreater(step["bit_errors"], 0, step)
        self.assertIn("bit errors", step["figures"], step)
        self.assertIn("1e-10", step["limit"], step)
        self.assertIn("cable", step["fix"], step)

        # A ring slot whose DMA path sets a bit in everything written there: its own step fails,
        # naming the slot, and selftest exits 1.
        name = link_name("slot")
        host = self.p.start([CLI, "selftest", "--link-name", name, "--json"])
        self.front_end(name, "--corrupt-slot", "5", "--reconnect")
        out = host.stdout.read()
        self.assertEqual(host.wait(timeout=120), 1, out)
        step = next(s for s in json.loads(out)["steps"] if s["step"] == "ring slots (DMA path)")
        self.assertEqual(step["verdict"], "fail", step)
        self.assertIn("1 slot whose errors repeat there: slot 5: ", step["figures"], step)

        # A probe with a dead element and a weak one: the element check names both, exit 1.
        name = link_name("elements")
        host = self.p.start([CLI, "selftest", "--link-name", name, "--json"])
        self.front_end(name, "--dead-channels", "9", "--weak-channels", "100", "--reconnect")
        out = host.stdout.read()
        self.assertEqual(host.wait(timeout=120), 1, out)
        step = next(s for s in json.loads(out)["steps"] if s["step"] == "element check")
        self.assertEqual(step["verdict"], "fail", step)
        self.assertIn("2 flagged: channel 9 dead (RMS", step["figures"], step)
        self.assertIn("channel 100 weak (RMS", step["figures"], step)
        self.assertEqual([e["fault"] for e in step["elements"]].count("ok"), 126, step)

        # The array's order reversed: every neighbour is still a neighbour (the element check
        # passes), but the phantom's image is mirrored: the phantom check fails, exit 1.
        name = link_name("reversed")
        host = self.p.start([CLI, "selftest", "--link-name", name, "--json"])
        self.front_end(name, "--reverse-channels", "--reconnect")
        out = host.stdout.read()
        self.assertEqual(host.wait(timeout=120), 1, out)
        steps = {s["step"]: s for s in json.loads(out)["steps"]}
        self.assertEqual(steps["element check"]["verdict"], "pass", steps["element check"])
        self.assertEqual(steps["phantom check"]["verdict"], "fail", steps["phantom check"])
        self.assertIn("FAILED (", steps["phantom check"]["figures"], steps["phantom check"])

        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as bad:
            bad.write('{"selftest": {"ber_limit": 5}}')
        try:
            invalid = subprocess.run([CLI, "selftest", "--in-process", "--config", bad.name], capture_output=True, text=True, timeout=60)
        finally:
            os.unlink(bad.name)
        self.assertEqual(invalid.returncode, 1, invalid.stderr)  # a bad file: a problem found, named
        self.assertIn("/selftest/ber_limit", invalid.stderr)
        # --step runs only the steps named: the link BER test's session alone, or the station's checks alone (no session).
        only = subprocess.run([CLI, "selftest", "--in-process", "--json", "--step", "link BER", "--step", "station: memlock limit"],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(only.returncode, 0, only.stdout + only.stderr)
        self.assertEqual([s["step"] for s in json.loads(only.stdout)["steps"]], ["station: memlock limit", "link BER"], only.stdout)
        station = subprocess.run([CLI, "selftest", "--in-process", "--json", "--step", "station"], capture_output=True, text=True, timeout=120)
        names = [s["step"] for s in json.loads(station.stdout)["steps"]]
        self.assertTrue(names and all(n.startswith("station: ") for n in names), names)
        unknown = subprocess.run([CLI, "selftest", "--in-process", "--step", "link ber"], capture_output=True, text=True, timeout=60)
        self.assertEqual(unknown.returncode, 2, unknown.stderr)
        self.assertIn("no self-test step is named 'link ber'", unknown.stderr)
        usage = subprocess.run([CLI, "selftest", "--in-process", "--link-name", "a/b"], capture_output=True, text=True, timeout=60)
        self.assertEqual(usage.returncode, 2, usage.stderr)  # a bad command line
        self.assertIn("--link-name", usage.stderr)

        with tempfile.TemporaryDirectory() as work:  # a PACS that does not answer: the PACS step fails, named, with its class
            station = os.path.join(work, "station.json")
            with open(station, "w") as f:
                json.dump({"dicom": {"nodes": [{"name": "archive", "ae_title": "NOBODY", "host": "127.0.0.1", "port": 1}]}}, f)
            nopacs = subprocess.run([CLI, "selftest", "--in-process", "--config", station], capture_output=True, text=True,
                                    timeout=120, cwd=work)
        self.assertEqual(nopacs.returncode, 1, nopacs.stdout + nopacs.stderr)
        self.assertIn("PACS: fail\n  C-ECHO to 1 nodes, 0 answered: archive (NOBODY at 127.0.0.1:1): nothing listening", nopacs.stdout)
        self.assertIn("self-test FAILED", nopacs.stdout)

        # The locked-memory limit lowered as prlimit does it, CAP_IPC_LOCK dropped: the station
        # step says so (a warning on the simulated link, whose ring is not locked memory).
        lowered = subprocess.run(["prlimit", "--memlock=1048576:1048576", "setpriv", "--bounding-set", "-ipc_lock",
                                  CLI, "selftest", "--in-process", "--json"], capture_output=True, text=True, timeout=120)
        self.assertEqual(lowered.returncode, 0, lowered.stdout + lowered.stderr)
        memlock = next(s for s in json.loads(lowered.stdout)["steps"] if s["step"] == "station: memlock limit")
        self.assertEqual(memlock["verdict"], "warn", memlock)
        self.assertIn("locked memory limit 1.0 MiB", memlock["figures"], memlock)
        self.assertIn("memlock", memlock["fix"], memlock)

        alone = subprocess.run([CLI, "selftest", "--link-name", link_name("nobody"), "--accept-timeout", "1", "--json"],
                               capture_output=True, text=True, timeout=60)
        self.assertEqual(alone.returncode, 3, alone.stdout + alone.stderr)
        self.assertFalse(json.loads(alone.stdout)["pass"])

    def test_front_end_killed_and_restarted(self):
        name = link_name("fekill")
        host, host_events = self.host(name, "--frames", "600", "--rate", "200", "--reconnect", "--json")
        fe, fe_events = self.front_end(name)
        fe_events.wait_for(is_event("configured"), 60, "the front end to configure")
        host_events.wait_for(is_event("state", to="streaming"), 30, "the host to stream")
        self.assertIsNone(host.poll(), "host ended early")
        fe_pid = fe.pid
        fe.send_signal(signal.SIGKILL)
        fe.wait(timeout=10)
        lost = host_events.wait_for(is_event("error", origin="link"), 30, "the host to say the front end is lost")
        self.assertEqual(lost["code"], "Unavailable")
        self.assertEqual(lost["message"], f"the front end process (pid {fe_pid}) is gone")
        fe2, fe2_events = self.front_end(name)
        out = host.stdout.read()
        self.assertEqual(host.wait(timeout=90), 0, "".join(host_events.text))
        summary = json.loads(out)
        self.assertEqual(summary["sessions"], 2)
        self.assertTrue(summary["ok"])
        self.assertGreaterEqual(summary["frames_delivered"], 500)
        self.assertEqual(fe2.wait(timeout=20), 0)
        host_events.close()
        self.assertEqual(len(host_events.all(is_event("state", to="streaming"))), 2, "streaming again after the reconnect")
        fe2_events.close()
        self.assertTrue(fe2_events.all(is_event("session_end", code="Cancelled")), "the host closed it when done")

    def test_host_killed_and_restarted(self):
        name = link_name("hostkill")
        host, host_events = self.host(name, "--frames", "0", "--rate", "200")
        fe, fe_events = self.front_end(name, "--reconnect")
        host_events.wait_for(is_event("state", to="streaming"), 30, "the first host to stream")
        fe_events.wait_for(is_event("configured"), 30, "the front end to configure")
        host_pid = host.pid
        host.send_signal(signal.SIGKILL)
        host.wait(timeout=10)
        fe_events.wait_for(is_event("waiting"), 30, "the front end to wait for the next host")
        lost = fe_events.all(is_event("session_end", code="Unavailable"))
        self.assertEqual(len(lost), 1, fe_events.all(is_event("session_end")))
        self.assertRegex(lost[0]["error"], rf"the host (process \(pid {host_pid}\) is gone|\(pid {host_pid}\) sent no heartbeat)")
        host2, host2_events = self.host(name, "--frames", "100", "--rate", "200", "--json")
        out = host2.stdout.read()
        self.assertEqual(host2.wait(timeout=60), 0, "".join(host2_events.text))
        self.assertEqual(json.loads(out)["frames_delivered"], 100)
        fe.send_signal(signal.SIGTERM)
        fe.wait(timeout=20)
        fe_events.close()
        self.assertEqual(len(fe_events.all(is_event("attached"))), 2)


if __name__ == "__main__":
    unittest.main()
