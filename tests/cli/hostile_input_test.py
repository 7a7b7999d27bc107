#!/usr/bin/env python3
"""A hostile user's day with sonolink-cli: values no type holds, files that are no
configuration, command-line values out of range, grids that would exhaust memory. Each ends in
a clear error that names the value and where it came from, with the documented exit code
(2: bad command line; 1: a problem found), never an abort, a hang or a silently substituted
default. Run by CTest with SONOLINK_CLI set."""
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_peers import sonolink_config, us_file  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]
SMALL = ["--in-process", "--frames", "2", "--rate", "0", "--channels", "64", "--samples", "1024",
         "--slot-bytes", "65536", "--slots", "64"]


def cli(*args, timeout=60):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout)


class TricklingPeer:
    """A DICOM peer on 127.0.0.1 that sends one byte every half second and nothing else: each
    byte comes well within any per-read timeout, so only a deadline ends an exchange with it."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        self.stopping = threading.Event()
        self.trickling = threading.Event()  # set once a peer has its first byte: an exchange is under way
        self.threads = [threading.Thread(target=self.accept, daemon=True)]
        self.threads[0].start()

    def accept(self):
        while not self.stopping.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            t = threading.Thread(target=self.trickle, args=(conn,), daemon=True)
            t.start()
            self.threads.append(t)

    def trickle(self, conn):
        # An A-ASSOCIATE-AC header announcing 4096 bytes, then filler: a byte at a time.
        message = b"\x02\x00\x00\x00\x10\x00" + b"\x00" * 4096
        with conn:
            for i in range(len(message)):
                if self.stopping.wait(0.5):
                    return
                try:
                    conn.send(message[i:i + 1])
                except OSError:
                    return
                self.trickling.set()

    def stop(self):
        self.stopping.set()
        self.listener.close()
        for t in self.threads:
            t.join(timeout=5)


class HostileInputTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def assertClearError(self, proc, code, *needles):
        self.assertEqual(proc.returncode, code, proc.stdout + proc.stderr)
        for needle in needles:  # config check reports on stdout, the others on stderr
            self.assertIn(needle, proc.stdout + proc.stderr)
        self.assertNotIn("terminate called", proc.stderr)

    def test_a_number_no_type_holds_is_a_problem_not_an_abort(self):
        config = self.write("inf.json", '{"acquisition": {"frame_rate_hz": 1e999}}')
        self.assertClearError(cli("config", "check", config), 1, "inf.json", "1e999")
        self.assertClearError(cli("stream", "--config", config, *SMALL), 1, "1e999")

    def test_what_is_no_configuration_file_is_refused_unread(self):
        # /dev/zero grew memory at 1 GB/s; a directory and a huge file are refused too.
        self.assertClearError(cli("config", "check", "/dev/zero", timeout=10), 1, "not a regular file")
        self.assertClearError(cli("config", "check", self.dir.name, timeout=10), 1, "not a regular file")
        big = self.path("big.json")
        with open(big, "w") as f:
            f.truncate(64 << 20)
        self.assertClearError(cli("config", "check", big, timeout=10), 1, f"{64 << 20} bytes")

    def test_command_line_values_are_checked_like_the_files(self):
        # --channels 65600 ran with 64 channels (a wrap), --samples 0 with the default.
        cases = [("--channels", "65600", "/probe/element_count"), ("--channels", "0", "/probe/element_count"),
                 ("--samples", "0", "/acquisition/samples_per_channel"), ("--slots", "1", "/link/slot_count"),
                 ("--slot-bytes", "100", "/link/slot_size_bytes"), ("--port", "70000", "/link/port")]
        for option, value, key in cases:
            args = [a for a in SMALL]
            if option in args:
                i = args.index(option)
                args[i + 1] = value
            else:
                args += [option, value]
            proc = cli("stream", *args)
            self.assertClearError(proc, 2, f"command line: {option} ({key})")
        self.assertClearError(cli("stream", *SMALL, "--rate", "-3"), 2, "--rate")

    def test_the_configurations_log_section_is_obeyed_by_stream(self):
        config = self.write("quiet.json", '{"log": {"level": "error"}}')
        proc = cli("stream", "--config", config, *SMALL, "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(json.loads(proc.stdout)["frames_delivered"], 2)
        self.assertNotIn(" info ", proc.stderr, "log.level error: no info lines")

    def test_grids_that_would_exhaust_memory_are_refused(self):
        recording = self.path("rec.uff")
        proc = cli("stream", *SMALL, "--record", recording)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for grid in ("0:10:-5", "0:10:99999999999", "nan:10:5"):
            proc = cli("beamform", recording, "--x-range", grid, "--z-range", "5:18:10", "--output-dir", self.path("out"))
            self.assertClearError(proc, 1, f"--x-range '{grid}'", "COUNT")

    def twenty_gb_recording(self):
        """A recording declaring 20 GB of samples (sparse: HDF5 stores no unwritten chunk, and
        reads it as zeros); returns its path and frame count."""
        import h5py
        recording = self.path("rec.uff")
        proc = cli("stream", *SMALL, "--record", recording)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with h5py.File(recording, "r+") as f:
            data = f["channel_data/data"]
            frame = data[0]
            frames = (20 << 30) // frame.nbytes
            del f["channel_data/data"]
            big = f.create_dataset("channel_data/data", shape=(frames,) + frame.shape, dtype=frame.dtype,
                                   chunks=(1,) + frame.shape)
            big[0] = frame
        self.assertLess(os.path.getsize(recording), 100 << 20, "sparse")
        return recording, frames

    def test_one_frame_of_a_20_gb_recording_is_beamformed_in_little_memory(self):
        """beamform --frame 0 read the whole recording into memory (3 GB for a 3 GB file). A
        recording declaring 20 GB is beamformed frame by frame, in well under 1 GB."""
        recording, frames = self.twenty_gb_recording()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        proc = cli("beamform", recording, "--frame", "0", "--x-range", "-5:5:32", "--z-range", "5:18:64",
                   "--output-dir", self.path("out"), "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        self.assertGreaterEqual(peak_kib, before)
        self.assertLess(peak_kib, 1 << 20, f"peak RSS {peak_kib} KiB for one frame of a {frames}-frame recording")
        self.assertEqual([f["frame"] for f in json.loads(proc.stdout)["frames"]], [0])

    def test_a_20_gb_recording_is_replayed_in_little_memory(self):
        """Replay loaded the whole recording, twice over (the file read, then a copy per frame).
        Now the front end reads each frame as it sends it: 40 frames of a 20 GB recording
        replay in well under 1 GB."""
        recording, frames = self.twenty_gb_recording()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        proc = cli("replay", recording, "--frames", "40", "--rate", "0", "--slot-bytes", "65536", "--slots", "64", "--json",
                   timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        self.assertGreaterEqual(peak_kib, before)
        self.assertLess(peak_kib, 1 << 20, f"peak RSS {peak_kib} KiB replaying a {frames}-frame recording")
        summary = json.loads(proc.stdout)
        self.assertEqual(summary["frames_delivered"], 40, summary)

    def test_a_trickling_peer_cannot_hold_echo_past_its_deadline(self):
        """The reported bug: one byte every 2 s kept `dicom echo --timeout 5` waiting past 300 s.
        Now the association ends by its deadline (connect 5 s + ACSE 10 s), retryable (exit 3)."""
        peer = TricklingPeer()
        try:
            start = time.monotonic()
            proc = cli("dicom", "echo", "--aet", "TRICKLE", "--port", str(peer.port), "--timeout", "5", timeout=60)
            waited = time.monotonic() - start
        finally:
            peer.stop()
        self.assertClearError(proc, 3, f"TRICKLE at 127.0.0.1:{peer.port}", "in time")
        self.assertLess(waited, 20)

    def test_sigterm_ends_queue_run_promptly_and_the_queue_stays_whole(self):
        """The reported bug: `dicom queue run` ignored SIGTERM while a peer trickled. Now it
        ends within a second or two, and the item is still queued, to be sent again."""
        peer = TricklingPeer()
        queue = self.path("queue")
        config = sonolink_config(self.path("q.json"), [{"name": "slow", "ae_title": "TRICKLE", "port": peer.port}],
                                 queue_dir=queue)
        us_file(self.path("us.dcm"))
        try:
            proc = cli("dicom", "queue", "add", "--config", config, "--node", "slow", self.path("us.dcm"))
            self.assertEqual(proc.returncode, 0, proc.stderr)
            runner = subprocess.Popen([CLI, "dicom", "queue", "run", "--config", config, "--until-settled"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # Into the association with the trickling peer: the signal must land mid-exchange.
            self.assertTrue(peer.trickling.wait(60), "queue run never reached the trickling peer")
            start = time.monotonic()
            runner.send_signal(signal.SIGTERM)
            runner.communicate(timeout=30)
            waited = time.monotonic() - start
        finally:
            peer.stop()
        self.assertLess(waited, 3, "SIGTERM ends the exchange in flight")
        items = json.loads(cli("dicom", "queue", "list", "--config", config, "--json").stdout)
        self.assertEqual([i["state"] for i in items], ["queued"], items)

    def test_numbers_that_are_no_numbers_are_refused_on_the_command_line(self):
        """The reported bug: `beamform --dynamic-range nan` segfaulted (NaN passes CLI11's range
        checks, which compare with < and >). Every floating-point option refuses NaN and infinities."""
        recording = self.path("rec.uff")
        self.assertEqual(cli("stream", *SMALL, "--record", recording).returncode, 0)
        for option, value in (("--dynamic-range", "nan"), ("--gain", "nan"), ("--f-number", "-nan"), ("--iq", "NaN")):
            proc = cli("beamform", recording, "--x-range", "-5:5:16", "--z-range", "5:15:32", "--output-dir", self.path("out"), option, value)
            self.assertClearError(proc, 2, option, "not a finite number")
        self.assertClearError(cli("stream", *SMALL, "--accept-timeout", "nan"), 2, "--accept-timeout", "not a finite number")

    def test_a_report_nested_past_reason_is_refused_before_the_password(self):
        """The reported bug: `report sign` of a deeply nested JSON segfaulted (the parser recursed
        off the stack). It is refused, naming the depth, before any password is asked for."""
        deep = self.write("deep.json", "[" * 200000 + "]" * 200000)
        proc = subprocess.run([CLI, "report", "sign", deep, "--meaning", "approved", "--password-stdin"], input="x\n",
                              capture_output=True, text=True, timeout=30)
        self.assertClearError(proc, 1, "deep.json", "nested", "not signed")
        self.assertNotIn("password", proc.stderr.lower().split("not signed")[0].replace("deep.json", ""))

    def test_a_fifo_given_as_a_file_is_refused_without_waiting(self):
        """The reported bug: a FIFO given as a configuration or a report hung `config check`,
        `doctor`, `report sign` and the console for ever (opening a FIFO for reading waits for a
        writer). Each refuses it at once, naming it."""
        fifo = self.path("pipe.json")
        os.mkfifo(fifo)
        self.assertClearError(cli("config", "check", fifo, timeout=10), 1, "pipe.json", "FIFO")
        self.assertClearError(cli("stream", "--config", fifo, *SMALL, timeout=10), 1, "pipe.json", "FIFO")
        proc = cli("doctor", "--config", fifo, "--no-pacs", "--json", timeout=30)
        self.assertNotEqual(proc.returncode, 0, proc.stdout)
        self.assertIn("FIFO", proc.stdout + proc.stderr)
        proc = subprocess.run([CLI, "report", "sign", fifo, "--meaning", "approved", "--password-stdin"], input="x\n",
                              capture_output=True, text=True, timeout=10)
        self.assertClearError(proc, 1, "pipe.json", "FIFO")
        console = os.environ.get("SONOLINK")
        if console:
            proc = subprocess.run([console, "--config", fifo], capture_output=True, text=True, timeout=30,
                                  env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
            self.assertClearError(proc, 1, "pipe.json", "FIFO")

    def test_the_largest_legal_grid_under_a_memory_limit_is_a_clear_error(self):
        """The reported bug: a grid within every limit (16384 x 16384 points) aborted with an
        uncaught std::bad_alloc when the process may not have the memory (ulimit -v). Now: exit 1,
        out of memory, naming what to ask for instead."""
        recording = self.path("rec.uff")
        self.assertEqual(cli("stream", *SMALL, "--record", recording).returncode, 0)
        limit = 1 << 30

        def cap_memory():
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        proc = subprocess.run([CLI, "beamform", recording, "--frame", "0", "--x-range", "-5:5:16384", "--z-range", "5:15:16384",
                               "--output-dir", self.path("out")], capture_output=True, text=True, timeout=120, preexec_fn=cap_memory)
        self.assertClearError(proc, 1, "out of memory", "fewer points")
        self.assertNotEqual(proc.returncode, -signal.SIGABRT)

    def test_stream_and_record_run_the_start_up_self_test_as_configured(self):
        """The reported bug: `stream` and `record` skipped the start-up self-test even with
        selftest.at_connect true. They run it; its test-pattern frames are counted apart and never
        recorded; a failed test stops them before a frame is acquired, saying why and how to go on."""
        config = self.write("at_connect.json", '{"selftest": {"at_connect": true}}')
        recording = self.path("tested.uff")
        proc = cli("record", recording, "--config", config, *SMALL, "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        summary = json.loads(proc.stdout)
        self.assertGreater(summary["selftest_frames"], 0, summary)
        self.assertEqual(summary["frames_delivered"], 2, summary)
        self.assertEqual(summary["recording"]["frames_recorded"], 2, summary)
        self.assertIn("start-up self-test, link BER: pass", proc.stderr)
        skipped = json.loads(cli("stream", "--config", config, *SMALL, "--json", "--no-selftest").stdout)
        self.assertEqual(skipped["selftest_frames"], 0, skipped)
        # A limit the link cannot show in the time allowed: the test fails and streaming is refused.
        strict = self.write("strict.json", '{"selftest": {"at_connect": true, "ber_quick_limit": 1e-14, "ber_timeout_s": 1}}')
        proc = cli("stream", "--config", strict, *SMALL, "--json", timeout=60)
        self.assertClearError(proc, 1, "link BER test failed", "--no-selftest")
        self.assertEqual(json.loads(proc.stdout)["frames_delivered"], 0)

    def scrape_while(self, proc, port, deadline_s=30):
        """GETs 127.0.0.1:port/metrics until it answers or proc ends; the body, or None."""
        import urllib.request
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as answer:
                    return answer.read().decode()
            except OSError:
                time.sleep(0.2)
        return None

    def test_the_metrics_port_is_served_by_stream_and_the_console(self):
        """The reported bug: metrics.prometheus_port was served by `demo` only, ignored by the
        console and `stream`. Both serve the engine's statistics on 127.0.0.1:<port>/metrics."""
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        config = self.write("metrics.json", json.dumps({"metrics": {"prometheus_port": port}}))
        stream = subprocess.Popen([CLI, "stream", "--config", config, "--in-process", "--channels", "64", "--samples", "1024",
                                   "--slot-bytes", "65536", "--slots", "64", "--frames", "0", "--seconds", "300", "--rate", "20"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            body = self.scrape_while(stream, port)
        finally:
            stream.send_signal(signal.SIGINT)
            stream.wait(timeout=30)
        self.assertIsNotNone(body, "stream serves metrics.prometheus_port")
        self.assertIn("sonolink_state", body)
        console = os.environ.get("SONOLINK")
        if not console:
            return
        gui = subprocess.Popen([console, "--config", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
        try:
            body = self.scrape_while(gui, port)
        finally:
            gui.terminate()
            gui.wait(timeout=30)
        self.assertIsNotNone(body, "the console serves metrics.prometheus_port")
        self.assertIn("sonolink_state", body)

    def test_an_output_directory_that_is_a_file_is_named(self):
        blocker = self.write("afile", "")
        proc = cli("dicom", "export", "--output-dir", blocker, "--pdf", blocker)
        self.assertClearError(proc, 1, "cannot create", "afile")


if __name__ == "__main__":
    unittest.main()
