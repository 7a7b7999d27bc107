#!/usr/bin/env python3
"""The shared-memory link under pressure, as a Docker container or a second user would put it:
a /dev/shm smaller than the ring (Docker's default 64 MiB is smaller than the default ring) is a
clear error at set-up naming the sizes, never a SIGBUS; a second host on a link name in use is
refused and the first one keeps its link (and SIGTERM ends it while it waits for its front
end); stray writes into the shared header do not crash the host. A small /dev/shm is a tmpfs in a mount namespace of
the test's own (unshare -m, root). Run by CTest with SONOLINK_CLI set."""
import os
import shutil
import subprocess
import time
import unittest

CLI = os.environ["SONOLINK_CLI"]
FE_SIM = os.path.join(os.path.dirname(CLI), "sonolink-fe-sim")
SMALL = ["--channels", "64", "--samples", "1024", "--slot-bytes", "65536", "--slots", "64"]


def can_unshare():
    return os.geteuid() == 0 and shutil.which("unshare") is not None


class SharedMemoryLinkTest(unittest.TestCase):
    @unittest.skipUnless(can_unshare(), "needs root and unshare for a private /dev/shm")
    def test_a_dev_shm_smaller_than_the_ring_is_named_at_set_up(self):
        script = ("mount -t tmpfs -o size=8m sonolink-test /dev/shm && "
                  f"exec {CLI} stream --link-name small-shm --frames 1 --accept-timeout 2 "
                  "--slot-bytes 262144 --slots 256")  # a 64 MiB ring
        proc = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
                              capture_output=True, text=True, timeout=60)
        self.assertGreater(proc.returncode, 0, "an error, not a signal: " + proc.stderr)
        self.assertIn("needs 64.", proc.stderr)
        self.assertIn("MiB of shared memory", proc.stderr)
        self.assertIn("/dev/shm has", proc.stderr)
        self.assertNotIn("Bus error", proc.stderr)

    def test_a_second_host_on_a_link_name_in_use_is_refused(self):
        name = f"sonolink-in-use-{os.getpid()}"
        first = subprocess.Popen([CLI, "stream", "--link-name", name, "--frames", "1", "--accept-timeout", "60",
                                  "--slot-bytes", "65536", "--slots", "16"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 30
            while not os.path.exists(f"/dev/shm/{name}") and time.monotonic() < deadline:
                time.sleep(0.02)
            self.assertTrue(os.path.exists(f"/dev/shm/{name}"), "the first host made its link")
            inode = os.stat(f"/dev/shm/{name}").st_ino
            second = subprocess.run([CLI, "stream", "--link-name", name, "--frames", "1", "--accept-timeout", "2",
                                     "--slot-bytes", "65536", "--slots", "16"], capture_output=True, text=True, timeout=60)
            self.assertNotEqual(second.returncode, 0)
            self.assertIn(f"in use by another host (PID {first.pid})", second.stderr)
            self.assertEqual(os.stat(f"/dev/shm/{name}").st_ino, inode, "the first host's link is untouched")
            self.assertIsNone(first.poll(), "the first host runs on")
            # SIGTERM while it waits for its front end (60 s accept timeout) ends it at once.
            start = time.monotonic()
            first.terminate()
            first.wait(timeout=30)
            self.assertLess(time.monotonic() - start, 3, "stopped while waiting for the front end")
            self.assertFalse(os.path.exists(f"/dev/shm/{name}"), "its link is gone with it")
        finally:
            if first.poll() is None:
                first.kill()
                first.wait(timeout=30)
            first.stderr.close()

    def test_stray_writes_into_the_shared_header_do_not_crash_the_host(self):
        """The reported bug: stray writes into the shared control area crashed the host. The
        header's layout fields (slot size and count, queue capacity, offsets; bytes 12 to 48)
        are overwritten with 0xff while frames stream: the host keeps the layout it checked and
        streams on."""
        name = f"sonolink-stray-{os.getpid()}"
        # A ring of 1.3 s at 200 frames/s (256 slots of 64 KiB, two a frame): a host starved by a
        # loaded machine for a moment still takes every frame (with SMALL's 64 slots, 0.16 s, the
        # front end once dropped 11 frames for want of credit, as an FPGA does, under CI's load).
        deep = [*SMALL[:SMALL.index("--slots")], "--slots", "256"]
        host = subprocess.Popen([CLI, "stream", "--link-name", name, "--frames", "300", "--rate", "200", "--accept-timeout", "30",
                                 "--json", *deep], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        front_end = None
        try:
            path = f"/dev/shm/{name}"
            deadline = time.monotonic() + 30
            while not os.path.exists(path) and time.monotonic() < deadline:
                time.sleep(0.02)
            front_end = subprocess.Popen([FE_SIM, "--link-name", name], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            with open(path, "r+b", buffering=0) as shm:  # unbuffered: each read sees the memory now
                # Streaming: the first blocks' completions are in the queue (its head, a
                # little-endian u64 at completionOffset, header bytes 32 to 40).
                # The region exists before its header does: wait for the magic and the offset, else
                # a zero offset reads the magic itself and the layout is overwritten before the
                # front end attached (under load the host then delivered 0 of 300 frames).
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    shm.seek(0)
                    header = shm.read(48)
                    completions = int.from_bytes(header[32:40], "little")
                    if header[:8] == b"SLNKSHM1" and completions >= 48:
                        shm.seek(completions)
                        if int.from_bytes(shm.read(8), "little") > 0:
                            break
                    time.sleep(0.001)
                else:
                    self.fail("the front end never wrote a block")
                shm.seek(12)
                shm.write(b"\xff" * 36)
            out, err = host.communicate(timeout=60)
        finally:
            for p in (host, front_end):
                if p and p.poll() is None:
                    p.terminate()
                    p.wait(timeout=30)
        self.assertGreaterEqual(host.returncode, 0, "no signal: " + err)
        import json
        self.assertEqual(json.loads(out)["frames_delivered"], 300, err)


if __name__ == "__main__":
    unittest.main()
