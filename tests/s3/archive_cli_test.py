#!/usr/bin/env python3
"""sonolink-cli archive against a real S3 server started here: Ceph's radosgw on a one-node
cluster on loopback (ceph_rgw.sh), with awscli as the independent client. What we upload awscli
downloads byte-equal and the reverse, by one PUT and by multipart; SSE-C both ways; a 0-byte
object; temporary credentials (radosgw's STS). Faults, each ending in a clear error or a
completed transfer and never a short file: a wrong secret, an unknown key, a clock two hours off
(faketime), temporary credentials expired (radosgw and the CLI 20 minutes on, libfaketime), no
server, throttling answers, a connection reset mid-range, a corrupted byte, the uploader
SIGKILLed mid-multipart (resumed from its journal) and radosgw SIGKILLed and restarted mid-multipart. A store that keeps
another copy than the one sent (parts swapped, a byte flipped, under the metadata sent): the
read-back fails the item and the local recording stays; an object changed after verification keeps
the local copy from retention; a lost queue database is an error. Read in place: a recording
beamformed and replayed, reviewed in the console (offscreen), a DICOM cine read frame by frame
and played in the console.
Run by CTest with SONOLINK_CLI and SONOLINK (the console)."""
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np
from pydicom.encaps import encapsulate
from pydicom.uid import RLELossless

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from s3_peers import CephRgw, FaultProxy  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_cines import cine, frames_of, rle_frames  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]
CONSOLE = os.environ["SONOLINK"]
MIB = 1 << 20
rgw = None


def setUpModule():
    global rgw
    rgw = CephRgw(tls=True)
    print(f"radosgw ready in {rgw.start_seconds:.1f} s at {rgw.env['S3_ENDPOINT']}", file=sys.stderr)


def tearDownModule():
    if rgw:
        rgw.stop()


def random_file(path, size, seed):
    block = hashlib.sha256(str(seed).encode()).digest() * (MIB // 32)
    with open(path, "wb") as f:
        left = size
        i = 0
        while left > 0:
            chunk = hashlib.sha256(block[:64] + i.to_bytes(8, "little")).digest() + block[32:]
            f.write(chunk[:min(left, len(chunk))])
            left -= min(left, len(chunk))
            i += 1
    return path


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(MIB), fb.read(MIB)
            if x != y:
                return False
            if not x:
                return True


class ArchiveTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sonolink-archive-")
        self.bucket = f"t{int(time.time() * 1000) % 10**9}-{self._testMethodName[5:20].replace('_', '-')}".lower().rstrip("-")
        self.config = self.write_config()
        self.proxy = None
        proc = self.cli("mb", f"s3://{self.bucket}")
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def tearDown(self):
        if self.proxy:
            self.proxy.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write_config(self, name="sonolink.json", **archive):
        settings = {"endpoint": rgw.env["S3_ENDPOINT"], "ca_file": rgw.env["S3_CA_FILE"], "region": rgw.env["S3_REGION"], "bucket": self.bucket,
                    "journal_directory": self.path("journal"), "audit_file": self.path("archive-audit.log"),
                    "part_size_bytes": 5 * MIB, "max_attempts": 6}
        settings.update(archive)
        with open(self.path(name), "w") as f:
            json.dump({"schema_version": 1, "archive": settings}, f)
        return self.path(name)

    def env(self, **extra):
        env = rgw.aws_env()
        env.update(extra)
        return env

    def cli(self, command, *args, config=None, env=None, timeout=300, prefix=()):
        cmd = [*prefix, CLI, "archive", command, "--config", config or self.config, "--json", *args]
        return subprocess.run(cmd, capture_output=True, text=True, env=env or self.env(), timeout=timeout)

    def put(self, local, key, *args, **kw):
        proc = self.cli("put", local, f"s3://{self.bucket}/{key}", *args, **kw)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return json.loads(proc.stdout)

    def get(self, key, local, *args, **kw):
        proc = self.cli("get", f"s3://{self.bucket}/{key}", local, *args, **kw)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return json.loads(proc.stdout)

    def with_proxy(self, faults):
        self.proxy = FaultProxy(rgw.env["S3_HTTP_ENDPOINT"], self.dir)
        self.proxy.plan(faults)
        return self.write_config("proxied.json", endpoint=self.proxy.endpoint,
                                 max_attempts=6)

    # --- round trips, cross-checked with awscli -------------------------------------------------

    def test_one_put_and_multipart_round_trip_and_awscli_reads_them(self):
        small = random_file(self.path("small.bin"), 3 * MIB + 17, 1)
        large = random_file(self.path("large.uff"), 23 * MIB + 5, 2)
        one = self.put(small, "rec/small.bin")
        self.assertEqual(one["parts"], 0)
        self.assertEqual(one["object"]["size_bytes"], os.path.getsize(small))
        multi = self.put(large, "rec/large.uff")
        self.assertEqual(multi["parts"], 5)
        self.assertEqual(multi["object"]["metadata"]["sonolink-crc32c"], multi["crc32c"])
        self.assertFalse(os.listdir(self.path("journal")), "a finished upload leaves no journal")

        got = self.get("rec/large.uff", self.path("large.back"))
        self.assertTrue(got["crc32c_checked"])
        self.assertTrue(same_bytes(large, self.path("large.back")))
        for key, local in (("rec/small.bin", small), ("rec/large.uff", large)):
            proc = rgw.aws("s3", "cp", f"s3://{self.bucket}/{key}", self.path("by-aws"))
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertTrue(same_bytes(local, self.path("by-aws")), key)

        listing = json.loads(self.cli("ls", f"s3://{self.bucket}/rec/").stdout)
        self.assertEqual(sorted((o["key"], o["size_bytes"]) for o in listing),
                         [("rec/large.uff", os.path.getsize(large)), ("rec/small.bin", os.path.getsize(small))])
        head = json.loads(self.cli("head", "rec/small.bin").stdout)  # a plain key: under archive.bucket
        self.assertEqual(head["size_bytes"], os.path.getsize(small))
        self.assertEqual(self.cli("rm", f"s3://{self.bucket}/rec/small.bin").returncode, 0)
        gone = self.cli("head", f"s3://{self.bucket}/rec/small.bin")
        self.assertEqual(gone.returncode, 1)
        self.assertIn("HTTP 404", gone.stderr)

    def test_what_awscli_uploads_we_download_byte_equal(self):
        for name, size in (("aws-multipart.bin", 19 * MIB + 3), ("aws-one.bin", 100 * 1024)):
            local = random_file(self.path(name), size, size)
            proc = rgw.aws("s3", "cp", local, f"s3://{self.bucket}/{name}")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            got = self.get(name, self.path(name + ".back"))
            self.assertFalse(got["crc32c_checked"], "awscli stores no CRC of ours")
            self.assertTrue(same_bytes(local, self.path(name + ".back")), name)

    def test_an_empty_object(self):
        open(self.path("empty"), "wb").close()
        put = self.put(self.path("empty"), "empty")
        self.assertEqual(put["object"]["size_bytes"], 0)
        got = self.get("empty", self.path("empty.back"))
        self.assertTrue(got["crc32c_checked"])
        self.assertEqual(os.path.getsize(self.path("empty.back")), 0)
        proc = rgw.aws("s3api", "head-object", "--bucket", self.bucket, "--key", "empty")
        self.assertEqual(json.loads(proc.stdout)["ContentLength"], 0)

    def test_customer_key_encryption_both_ways(self):
        key = bytes(range(1, 33))
        with open(self.path("sse.key"), "wb") as f:
            f.write(key)
        config = self.write_config("sse.json", sse_customer_key_file=self.path("sse.key"))
        local = random_file(self.path("secret.bin"), 12 * MIB + 1, 3)
        self.put(local, "secret.bin", config=config)
        self.get("secret.bin", self.path("secret.back"), config=config)
        self.assertTrue(same_bytes(local, self.path("secret.back")))
        without = self.cli("get", f"s3://{self.bucket}/secret.bin", self.path("nokey.back"))
        self.assertNotEqual(without.returncode, 0)
        self.assertFalse(os.path.exists(self.path("nokey.back")))
        proc = rgw.aws("s3", "cp", f"s3://{self.bucket}/secret.bin", self.path("aws.back"), "--sse-c", "AES256", "--sse-c-key", "fileb://" + self.path("sse.key"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(same_bytes(local, self.path("aws.back")))

    # --- errors that cannot heal: named at once -------------------------------------------------

    def test_bad_credentials_and_a_wrong_clock_are_named_and_not_retried(self):
        local = random_file(self.path("f.bin"), 1000, 4)
        started = time.monotonic()
        wrong = self.cli("put", local, f"s3://{self.bucket}/f.bin", env=self.env(AWS_SECRET_ACCESS_KEY="not-the-secret"))
        self.assertEqual(wrong.returncode, 1)
        self.assertIn("SignatureDoesNotMatch", wrong.stderr)
        self.assertIn("not retried", wrong.stderr)
        self.assertNotIn("not-the-secret", wrong.stderr + wrong.stdout)
        unknown = self.cli("ls", f"s3://{self.bucket}/", env=self.env(AWS_ACCESS_KEY_ID="NOSUCHKEY0000000"))
        self.assertEqual(unknown.returncode, 1)
        self.assertIn("InvalidAccessKeyId", unknown.stderr)
        self.assertLess(time.monotonic() - started, 10, "neither may be retried")
        if shutil.which("faketime"):
            # Over plain HTTP: over TLS, a clock two hours behind first finds the test CA's fresh
            # certificate not yet valid (also named, also not retried).
            plain = self.write_config("plain.json", endpoint=rgw.env["S3_HTTP_ENDPOINT"])
            skewed = self.cli("put", local, f"s3://{self.bucket}/f.bin", config=plain, prefix=("faketime", "-f", "-2h"))
            self.assertEqual(skewed.returncode, 1, skewed.stderr)
            self.assertIn("RequestTimeTooSkewed", skewed.stderr)
            self.assertIn("clock", skewed.stderr)
            not_yet = self.cli("put", local, f"s3://{self.bucket}/f.bin", prefix=("faketime", "-f", "-2h"))
            self.assertEqual(not_yet.returncode, 1, not_yet.stderr)
            self.assertIn("not yet valid", not_yet.stderr)

    def test_temporary_credentials_work_then_expire_and_are_named(self):
        # STS on for this test only: with it, radosgw answers a wrong secret or an unknown key with
        # AccessDenied rather than SignatureDoesNotMatch or InvalidAccessKeyId.
        rgw.restart_rgw(sts=True)
        try:
            self.temporary_credentials_work_then_expire()
        finally:
            rgw.restart_rgw()
        fresh = self.cli("ls", f"s3://{self.bucket}/")
        self.assertEqual(fresh.returncode, 0, "radosgw back on the station's time, STS off: " + fresh.stderr)
        # The server's answer does not say why; the client knows its credentials are temporary
        # (they came with a session token) and must say that they may have expired.
        unnamed = {command: stderr for command, stderr in self.refused.items() if "expired" not in stderr.lower()}
        self.assertEqual(unnamed, {}, "the expiry is not named")

    def temporary_credentials_work_then_expire(self):
        proc = rgw.aws("sts", "assume-role", "--role-arn", rgw.env["S3_ROLE_ARN"], "--role-session-name", "sonolink-test",
                       "--duration-seconds", "900")  # STS's shortest
        self.assertEqual(proc.returncode, 0, proc.stderr)
        creds = json.loads(proc.stdout)["Credentials"]
        temporary = self.env(AWS_ACCESS_KEY_ID=creds["AccessKeyId"], AWS_SECRET_ACCESS_KEY=creds["SecretAccessKey"],
                             AWS_SESSION_TOKEN=creds["SessionToken"])
        local = random_file(self.path("sts.bin"), 7 * MIB + 3, 12)  # two parts: the token on every request of a multipart upload
        put = self.put(local, "sts.bin", env=temporary)
        self.assertEqual(put["parts"], 2)
        self.get("sts.bin", self.path("sts.back"), env=temporary)
        self.assertTrue(same_bytes(local, self.path("sts.back")))
        without = self.cli("ls", f"s3://{self.bucket}/", env=self.env(AWS_ACCESS_KEY_ID=creds["AccessKeyId"],
                                                                      AWS_SECRET_ACCESS_KEY=creds["SecretAccessKey"]))
        self.assertEqual(without.returncode, 1, "the temporary key is nothing without its session token")

        # 20 minutes on, for the server and the station alike (the token lasts 15): radosgw restarted
        # under libfaketime, the CLI under faketime, so that only the token is out of date, not the
        # request's signature time (that alone would be RequestTimeTooSkewed).
        later = "+20m"
        rgw.restart_rgw(sts=True, clock_offset=later)
        self.refused = {}
        for command, args in (("put", (local, f"s3://{self.bucket}/sts-late.bin")), ("get", (f"s3://{self.bucket}/sts.bin", self.path("late.back")))):
            started = time.monotonic()
            proc = self.cli(command, *args, env=temporary, prefix=("faketime", "-f", later))
            took = time.monotonic() - started
            # radosgw (Pacific) answers an expired token with 403 AccessDenied and no message (its
            # log: "ERROR: Token expired"); a HEAD (get's first request) with 403 and no body.
            self.assertEqual(proc.returncode, 1, f"{command}: {proc.stderr}")
            self.assertIn("HTTP 403", proc.stderr, command)
            self.assertIn("not retried", proc.stderr, command)
            self.assertNotIn("attempts", proc.stderr, command)
            self.assertLess(took, 10, f"{command}: not retried")
            for secret in (creds["SecretAccessKey"], creds["SessionToken"]):
                self.assertNotIn(secret, proc.stderr + proc.stdout, command)
            self.refused[command] = proc.stderr
        self.assertIn("AccessDenied", self.refused["put"])
        self.assertFalse(os.path.exists(self.path("late.back")))
        # Refused for the token's age alone: the test user's own keys work at that time, and radosgw
        # logged the token as expired for each request.
        own = self.cli("ls", f"s3://{self.bucket}/", prefix=("faketime", "-f", later))
        self.assertEqual(own.returncode, 0, own.stderr)
        with open(os.path.join(rgw.dir, "log", "client.rgw.a.log"), errors="replace") as f:
            self.assertGreaterEqual(f.read().count("ERROR: Token expired"), 2)

    def test_a_server_certificate_not_trusted_is_named_and_not_retried(self):
        local = random_file(self.path("t.bin"), 1000, 10)
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", self.path("other.key"), "-out",
                        self.path("other.pem"), "-days", "1", "-subj", "/CN=Some other CA"], capture_output=True, check=True)
        for name, ca in (("system CAs", ""), ("another CA", self.path("other.pem"))):
            config = self.write_config(f"tls-{len(ca)}.json", ca_file=ca)
            started = time.monotonic()
            proc = self.cli("put", local, f"s3://{self.bucket}/t.bin", config=config)
            self.assertEqual(proc.returncode, 1, name + ": " + proc.stderr)
            self.assertIn("certificate", proc.stderr, name)
            self.assertIn("not retried", proc.stderr, name)
            self.assertLess(time.monotonic() - started, 10, name)
        self.assertTrue(rgw.env["S3_ENDPOINT"].startswith("https://"), "every other test goes over TLS")

    def test_no_server_is_retried_then_named(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            closed = s.getsockname()[1]  # bound, never listening: refused
            config = self.write_config("closed.json", endpoint=f"http://127.0.0.1:{closed}", max_attempts=3)
            proc = self.cli("head", f"s3://{self.bucket}/x", config=config)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn("after 3 attempts", proc.stderr)

    # --- faults that heal: the transfer completes -----------------------------------------------

    def test_throttling_and_server_errors_are_retried_to_completion(self):
        config = self.with_proxy([{"method": "PUT", "query": "partNumber", "action": "status", "status": 503, "code": "SlowDown", "times": 2},
                                  {"method": "POST", "query": "uploadId", "action": "status", "status": 500, "code": "InternalError", "times": 1}])
        local = random_file(self.path("t.bin"), 11 * MIB, 5)
        put = self.put(local, "t.bin", config=config)
        self.assertGreaterEqual(put["retries"], 3)
        self.assertEqual(len(self.proxy.fired()), 3)
        self.get("t.bin", self.path("t.back"))
        self.assertTrue(same_bytes(local, self.path("t.back")))

    def test_a_connection_reset_mid_range_resumes_and_a_corrupt_byte_is_refused(self):
        local = random_file(self.path("r.bin"), 9 * MIB, 6)
        self.put(local, "r.bin")
        config = self.with_proxy([{"method": "GET", "header": "range", "action": "reset", "after_bytes": 3 * MIB + 5, "times": 2}])
        self.get("r.bin", self.path("r.back"), config=config)
        self.assertEqual(len(self.proxy.fired()), 2)
        self.assertTrue(same_bytes(local, self.path("r.back")))

        self.proxy.plan([{"method": "GET", "header": "range", "action": "corrupt", "times": 1}])
        bad = self.cli("get", f"s3://{self.bucket}/r.bin", self.path("r.corrupt"), config=config)
        self.assertEqual(bad.returncode, 1, bad.stderr)
        self.assertIn("CRC-32C", bad.stderr)
        self.assertFalse(os.path.exists(self.path("r.corrupt")), "no file is left from a transfer that failed its check")
        self.assertFalse([n for n in os.listdir(self.dir) if "sonolink-part" in n])

    def test_the_uploader_killed_mid_multipart_resumes_from_its_journal(self):
        local = random_file(self.path("k.bin"), 40 * MIB, 7)
        config = self.with_proxy([{"method": "PUT", "query": "partNumber=4", "action": "stall", "seconds": 30, "times": 1}])
        cmd = [CLI, "archive", "put", local, f"s3://{self.bucket}/k.bin", "--config", config, "--parallel", "1", "--json"]
        uploader = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env())
        deadline = time.monotonic() + 60
        while not self.proxy.fired() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertTrue(self.proxy.fired(), "part 4 never reached the server")
        uploader.send_signal(signal.SIGKILL)
        uploader.wait()
        journals = os.listdir(self.path("journal"))
        self.assertEqual(len(journals), 1)
        with open(os.path.join(self.path("journal"), journals[0])) as f:
            self.assertEqual(len(json.load(f)["parts"]), 3)
        put = self.put(local, "k.bin", "--parallel", "2")
        self.assertEqual(put["parts"], 8)
        self.assertEqual(put["parts_resumed"], 3)
        self.get("k.bin", self.path("k.back"))
        self.assertTrue(same_bytes(local, self.path("k.back")))

    def test_a_file_changed_mid_upload_is_refused_not_stored(self):
        local = random_file(self.path("c.bin"), 12 * MIB, 11)
        config = self.with_proxy([{"method": "PUT", "query": "partNumber=2", "action": "stall", "seconds": 3, "times": 1}])
        uploader = subprocess.Popen([CLI, "archive", "put", local, f"s3://{self.bucket}/c.bin", "--config", config, "--parallel", "1", "--json"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env())
        deadline = time.monotonic() + 60
        while not self.proxy.fired() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertTrue(self.proxy.fired(), "part 2 never reached the server")
        with open(local, "ab") as f:  # another process writes to it mid-upload
            f.write(b"more")
        _, err = uploader.communicate(timeout=120)
        self.assertEqual(uploader.returncode, 1, err)
        self.assertIn("changed while it was uploaded", err)
        gone = self.cli("head", f"s3://{self.bucket}/c.bin")
        self.assertEqual(gone.returncode, 1, "no object stored as if whole")
        self.assertIn("HTTP 404", gone.stderr)

    def test_radosgw_killed_and_restarted_mid_multipart(self):
        local = random_file(self.path("g.bin"), 40 * MIB, 8)
        config = self.write_config("patient.json", max_attempts=12)
        cmd = [CLI, "archive", "put", local, f"s3://{self.bucket}/g.bin", "--config", config, "--parallel", "1", "--json"]
        uploader = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env())
        journal = self.path("journal")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            names = os.listdir(journal) if os.path.isdir(journal) else []
            if names:
                try:
                    with open(os.path.join(journal, names[0])) as f:
                        if len(json.load(f)["parts"]) >= 2:
                            break
                except (OSError, ValueError):
                    pass
            time.sleep(0.02)
        rgw.restart_rgw()
        out, err = uploader.communicate(timeout=300)
        self.assertEqual(uploader.returncode, 0, err)
        result = json.loads(out)
        self.assertEqual(result["object"]["size_bytes"], 40 * MIB)
        proc = rgw.aws("s3", "cp", f"s3://{self.bucket}/g.bin", self.path("g.back"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(same_bytes(local, self.path("g.back")))

    # --- the persistent upload queue ------------------------------------------------------------

    def test_queue_killed_mid_run_ends_with_each_item_once_verified_audited_and_retained(self):
        config = self.with_proxy([{"method": "PUT", "query": "partNumber=2", "action": "stall", "seconds": 30, "times": 1}])
        with open(config) as f:
            settings = json.load(f)
        settings["archive"].update(queue_directory=self.path("queue"), audit_file=self.path("audit.log"), retention_days=0,
                                   retry_initial_s=0.1, retry_max_s=0.5)
        with open(config, "w") as f:
            json.dump(settings, f)
        os.makedirs(self.path("rec"))
        sizes = {"a.uff": 1 * MIB, "b.uff": 12 * MIB + 1, "c.uff": 7 * MIB, "d.uff": 0, "e.uff": 16 * MIB}
        kept = {}
        for i, (name, size) in enumerate(sizes.items()):
            local = random_file(os.path.join(self.path("rec"), name), size, 100 + i)
            with open(local, "rb") as f:
                kept[name] = f.read()
        files = [os.path.join(self.path("rec"), name) for name in sizes]
        proc = subprocess.run([CLI, "archive", "queue", "add", "--config", config, "--kind", "recording", "--key-prefix", "rec/", "--json", *files],
                              capture_output=True, text=True, env=self.env())
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(len(json.loads(proc.stdout)), 5)
        again = subprocess.run([CLI, "archive", "queue", "add", "--config", config, "--key-prefix", "rec/", "--json", files[0]],
                               capture_output=True, text=True, env=self.env())
        self.assertEqual(json.loads(again.stdout)[0]["id"], 1, "a file already pending is not queued twice")

        runner = subprocess.Popen([CLI, "archive", "queue", "run", "--config", config, "--until-settled"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, env=self.env())
        deadline = time.monotonic() + 60
        while not self.proxy.fired() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertTrue(self.proxy.fired(), "no multipart upload reached its second part")
        runner.send_signal(signal.SIGKILL)
        runner.wait()
        listed = json.loads(subprocess.run([CLI, "archive", "queue", "list", "--config", config, "--json"], capture_output=True, text=True,
                                           env=self.env()).stdout)
        self.assertIn("uploading", [i["state"] for i in listed], "the kill came mid-upload")

        proc = subprocess.run([CLI, "archive", "queue", "run", "--config", config, "--until-settled", "--timeout", "240", "--json"],
                              capture_output=True, text=True, env=self.env(), timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        items = json.loads(proc.stdout)
        self.assertEqual([i["state"] for i in items], ["verified"] * 5)
        self.assertTrue(all(i["local_deleted_at_ms"] > 0 for i in items))
        self.assertFalse([n for n in os.listdir(self.path("rec"))], "retention 0: every verified local copy deleted")
        listing = rgw.aws("s3api", "list-objects-v2", "--bucket", self.bucket, "--prefix", "rec/")
        keys = sorted(o["Key"] for o in json.loads(listing.stdout or "{}").get("Contents", []))
        self.assertEqual(keys, [f"rec/{n}" for n in sorted(sizes)], "each item exactly one object")
        for name, data in kept.items():
            self.assertEqual(rgw.aws("s3", "cp", f"s3://{self.bucket}/rec/{name}", self.path("x")).returncode, 0)
            with open(self.path("x"), "rb") as f:
                self.assertEqual(f.read(), data, name)
        with open(self.path("audit.log")) as f:
            audit = [json.loads(line) for line in f]
        uploads = {a["url"] for a in audit if a["action"] == "upload" and a["outcome"] == "success"}
        self.assertEqual(uploads, {f"s3://{self.bucket}/rec/{n}" for n in sizes})
        self.assertEqual(len([a for a in audit if a["action"] == "delete local copy"]), 5)
        self.assertTrue(all(a["user"] for a in audit))

    def test_queue_with_no_server_keeps_items_queued_with_the_reason(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            closed = s.getsockname()[1]
            config = self.write_config("down.json", endpoint=f"http://127.0.0.1:{closed}", max_attempts=1, queue_directory=self.path("queue"),
                                       audit_file=self.path("audit.log"), retry_initial_s=0.2, retry_max_s=0.4)
            local = random_file(self.path("q.bin"), 1000, 9)
            self.assertEqual(subprocess.run([CLI, "archive", "queue", "add", "--config", config, local], capture_output=True, env=self.env()).returncode, 0)
            proc = subprocess.run([CLI, "archive", "queue", "run", "--config", config, "--until-settled", "--timeout", "2", "--events"],
                                  capture_output=True, text=True, env=self.env(), timeout=60)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        events = [json.loads(line) for line in proc.stdout.splitlines()]
        self.assertEqual((events[0]["event"], events[0]["counts"]["queued"]), ("started", 1), events[0])
        failures = [e for e in events if e["event"] == "upload_failed"]
        self.assertGreaterEqual(len(failures), 2, "tried again after each back-off")
        for failure in failures:
            self.assertEqual((failure["item"], failure["code"], failure["retry"]), (1, "Unavailable", True), failure)
            self.assertIn("connect", failure["error"].lower())
        self.assertFalse([e for e in events if e["event"] in ("verified", "local_deleted")], "nothing verified, nothing deleted")
        ended = events[-1]
        self.assertEqual((ended["event"], ended["settled"]), ("ended", False))
        item = ended["items"][0]
        self.assertEqual(item["state"], "queued")
        self.assertEqual(item["attempts"], len(failures), "each attempt told")
        self.assertIn("connect", item["last_error"].lower())
        self.assertTrue(os.path.exists(local), "nothing verified, nothing deleted")

    # --- what is stored is verified before anything local is deleted ---------------------------

    def queue_config(self, config, **extra):
        with open(config) as f:
            settings = json.load(f)
        settings["archive"].update({"queue_directory": self.path("queue"), "audit_file": self.path("audit.log"), "retention_days": 0,
                                    "retry_initial_s": 0.1, "retry_max_s": 0.5, **extra})
        with open(config, "w") as f:
            json.dump(settings, f)
        return config

    def queue(self, config, *args):
        proc = subprocess.run([CLI, "archive", "queue", *args, "--config", config, "--json"], capture_output=True, text=True,
                              env=self.env(), timeout=300)
        return proc, (json.loads(proc.stdout) if proc.stdout.strip().startswith("[") else None)

    def test_a_store_that_swaps_parts_or_flips_a_byte_keeps_the_local_recording(self):
        """The reported fault: the archive deleted the local recording after a 'verification' that
        only read back the CRC the uploader attached, so a store that assembled the parts in the
        wrong order passed and the only good copy was gone. The store here keeps a copy with its
        parts swapped, then one with a byte flipped, each under the metadata sent: the item fails
        with the reason, the local file stays byte for byte, and only a good copy lets it go."""
        credentials = {"access_key": rgw.env["S3_ACCESS_KEY"], "secret_key": rgw.env["S3_SECRET_KEY"], "region": rgw.env["S3_REGION"]}
        swap = {"method": "POST", "query": "uploadId", "action": "tamper", "how": "swap-parts", "part_bytes": 5 * MIB,
                "credentials": credentials, "times": 1}
        config = self.queue_config(self.with_proxy([swap]))
        os.makedirs(self.path("rec"))
        local = random_file(os.path.join(self.path("rec"), "big.uff"), 12 * MIB + 3, 31)
        small = random_file(os.path.join(self.path("rec"), "small.uff"), 1 * MIB, 32)
        with open(local, "rb") as f:
            original = f.read()
        self.assertEqual(self.queue(config, "add", local)[0].returncode, 0)
        proc, items = self.queue(config, "run", "--until-settled", "--timeout", "120")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(len(self.proxy.fired()), 1, "the store swapped the parts")
        self.assertEqual(items[0]["state"], "failed")
        self.assertIn("read back", items[0]["last_error"])
        self.assertIn("not the file", items[0]["last_error"])
        with open(local, "rb") as f:
            self.assertEqual(f.read(), original, "the local recording is kept, whole")

        self.proxy.plan([dict(swap, how="flip-byte", at=7 * MIB + 11)])
        self.assertEqual(self.queue(config, "retry", "1")[0].returncode, 0)
        proc, items = self.queue(config, "run", "--until-settled", "--timeout", "120")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(items[0]["state"], "failed")
        self.assertIn("CRC-32C", items[0]["last_error"])
        self.assertTrue(os.path.exists(local), "a flipped byte keeps it too")

        # One PUT (a file under a part), a byte flipped in the store: the same.
        self.proxy.plan([{"method": "PUT", "noquery": True, "action": "tamper", "how": "flip-byte", "credentials": credentials, "times": 1}])
        self.assertEqual(self.queue(config, "add", small)[0].returncode, 0)
        proc, items = self.queue(config, "run", "--until-settled", "--timeout", "120")
        self.assertEqual(items[1]["state"], "failed", proc.stderr)
        self.assertTrue(os.path.exists(small))

        self.proxy.plan([])  # an honest store: verified, then (retention 0) the local copies go
        self.assertEqual(self.queue(config, "retry", "1", "2")[0].returncode, 0)
        proc, items = self.queue(config, "run", "--until-settled", "--timeout", "120")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual([i["state"] for i in items], ["verified", "verified"])
        self.assertFalse(os.path.exists(local) or os.path.exists(small))
        with open(self.path("audit.log")) as f:
            audit = [json.loads(line) for line in f]
        self.assertEqual([a["outcome"] for a in audit if a["action"] == "upload"], ["failure", "failure", "failure", "success", "success"])

    def test_an_object_changed_after_verification_keeps_the_local_copy(self):
        config = self.queue_config(self.write_config("retain.json"), retention_days=2e-5)  # 1.7 s
        local = random_file(self.path("v.uff"), 2 * MIB, 33)
        self.assertEqual(self.queue(config, "add", local)[0].returncode, 0)
        proc, items = self.queue(config, "run", "--until-settled", "--timeout", "60")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(items[0]["state"], "verified")
        self.assertTrue(os.path.exists(local), "not yet old enough to go")
        # Somebody replaces the archived object (same metadata, other bytes) before retention runs.
        other = random_file(self.path("other.bin"), 2 * MIB, 34)
        key = items[0]["url"].split("/", 3)[3]
        replaced = rgw.aws("s3", "cp", other, f"s3://{self.bucket}/{key}", "--metadata", f"sonolink-crc32c={items[0]['crc32c']}")
        self.assertEqual(replaced.returncode, 0, replaced.stderr)
        # Retention is a clock's event: run again once the item is past its 1.7 s.
        time.sleep(max(0.0, (items[0]["verified_at_ms"] + 1800) / 1000 - time.time()))
        proc, items = self.queue(config, "run", "--timeout", "1")
        self.assertTrue(os.path.exists(local), "the store no longer holds what was verified: the local copy stays")
        self.assertEqual(items[0]["local_deleted_at_ms"], -1)
        self.assertIn("changed since it was verified", items[0]["last_error"])

    def test_a_queue_database_lost_is_an_error_not_an_empty_queue(self):
        config = self.queue_config(self.write_config("lost.json"))
        local = random_file(self.path("l.uff"), 1000, 35)
        self.assertEqual(self.queue(config, "add", local)[0].returncode, 0)
        database = os.path.join(self.path("queue"), "archive-queue.db")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(database + suffix):
                os.remove(database + suffix)
        for command in (("run", "--until-settled", "--timeout", "5"), ("list",)):
            proc, _ = self.queue(config, *command)
            self.assertEqual(proc.returncode, 1, command)
            self.assertIn(database, proc.stderr, command)
            self.assertIn("missing", proc.stderr, command)
        open(database, "w").close()  # 0 bytes
        proc, _ = self.queue(config, "run", "--until-settled", "--timeout", "5")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("empty (0 bytes)", proc.stderr)
        self.assertTrue(os.path.exists(local))
        reset = subprocess.run([CLI, "archive", "queue", "reset", "--config", config], capture_output=True, text=True, env=self.env())
        self.assertEqual(reset.returncode, 0, reset.stderr)
        proc, items = self.queue(config, "list")
        self.assertEqual((proc.returncode, items), (0, []))

    # --- recordings read in place ---------------------------------------------------------------

    def recorded(self, key):
        """A 12-frame recording (3 waves x 64 channels x 1024 samples) made here and uploaded as key."""
        rec = self.path("rec.uff")
        made = subprocess.run([CLI, "record", rec, "--in-process", "--frames", "12", "--channels", "64", "--samples", "1024"],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(made.returncode, 0, made.stderr)
        self.put(rec, key)
        return rec

    def test_beamform_and_replay_read_a_recording_in_place(self):
        rec = self.recorded("rec/rec.uff")
        grid = ["--x-range", "-9:9:64", "--z-range", "5:18:128", "--frame", "9", "--name", "f"]
        local = subprocess.run([CLI, "beamform", rec, *grid, "--output-dir", self.path("local")], capture_output=True, text=True, timeout=120)
        self.assertEqual(local.returncode, 0, local.stderr)
        # Through the fault proxy, whose first cut of a ranged answer the reader survives.
        config = self.with_proxy([{"method": "GET", "header": "range", "action": "reset", "after_bytes": 100000, "times": 1}])
        remote = subprocess.run([CLI, "beamform", f"s3://{self.bucket}/rec/rec.uff", "--config", config, *grid, "--output-dir", self.path("remote")],
                                capture_output=True, text=True, env=self.env(), timeout=120)
        self.assertEqual(remote.returncode, 0, remote.stderr)
        self.assertEqual(len(self.proxy.fired()), 1)
        with open(os.path.join(self.path("local"), "f.npy"), "rb") as a, open(os.path.join(self.path("remote"), "f.npy"), "rb") as b:
            self.assertEqual(a.read(), b.read(), "the same picture from the archive as from the file")
        replay = subprocess.run([CLI, "replay", f"s3://{self.bucket}/rec/rec.uff", "--config", self.config, "--frames", "12", "--json"],
                                capture_output=True, text=True, env=self.env(), timeout=180)
        self.assertEqual(replay.returncode, 0, replay.stderr)
        self.assertEqual(json.loads(replay.stdout)["frames_delivered"], 12)
        missing = subprocess.run([CLI, "beamform", f"s3://{self.bucket}/rec/absent.uff", "--config", self.config, *grid, "--output-dir", self.path("x")],
                                 capture_output=True, text=True, env=self.env(), timeout=60)
        self.assertEqual(missing.returncode, 1)
        self.assertIn("HTTP 404", missing.stderr)

    def test_the_console_reviews_a_recording_in_place(self):
        self.recorded("rec/review.uff")
        url = f"s3://{self.bucket}/rec/review.uff"
        env = self.env(XDG_CONFIG_HOME=self.path("home"), QT_QPA_PLATFORM="offscreen")
        run = subprocess.run([CONSOLE, "--config", self.config, "--replay", url, "--probe-ui", "1", "--language", "en"], cwd=self.dir,
                             capture_output=True, text=True, env=env, timeout=180)
        self.assertEqual(run.returncode, 0, run.stderr[-3000:])
        self.assertIn(f"reviewing {url}: 12 frames of 3 waves x 64 channels x 1024 samples", run.stderr)
        report = json.loads([line for line in run.stdout.splitlines() if line.startswith("{")][-1])
        self.assertGreater(report["frames_shown"], 0)  # the loop past the end: RecordReplayTest, frame for frame
        self.assertEqual(report["channels"], 64)
        self.assertEqual(report["window_title"], "SonoLink — Review: review.uff")
        absent = subprocess.run([CONSOLE, "--config", self.config, "--replay", f"s3://{self.bucket}/rec/absent.uff", "--probe-ui", "1"], cwd=self.dir,
                                capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(absent.returncode, 1)
        self.assertIn("HTTP 404", absent.stderr)

    def test_a_dicom_cine_is_read_in_place_frame_by_frame(self):
        frames = frames_of(60, 240, 200)
        local = cine(self.path("cine.dcm"), frames, syntax=RLELossless, pixel_data=encapsulate(rle_frames(frames), has_bot=True))
        self.put(local, "studies/cine.dcm")
        url = f"s3://{self.bucket}/studies/cine.dcm"
        # Frame 41 alone, through the fault proxy, whose first cut of a ranged answer the reader survives.
        config = self.with_proxy([{"method": "GET", "header": "range", "action": "reset", "after_bytes": 20000, "times": 1}])
        one = subprocess.run([CLI, "dicom", "frames", url, "--config", config, "--frame", "41", "--raw", self.path("41.raw"), "--json"],
                             capture_output=True, text=True, env=self.env(), timeout=120)
        self.assertEqual(one.returncode, 0, one.stderr)
        seek = json.loads(one.stdout)
        np.testing.assert_array_equal(np.fromfile(self.path("41.raw"), dtype=np.uint8).reshape(frames[41].shape), frames[41])
        self.assertEqual(seek["frame_index"], "basic offset table")
        self.assertEqual(seek["bytes_fetched"] - seek["open_fetched_bytes"], seek["extents"][0]["length"], "frame 41's bytes, once")
        self.assertLess(seek["bytes_fetched"], os.path.getsize(local) / 10)
        # Every frame, in order, equal to the file's.
        every = subprocess.run([CLI, "dicom", "frames", url, "--config", self.config, "--all", "--raw", self.path("all.raw"), "--json"],
                               capture_output=True, text=True, env=self.env(), timeout=180)
        self.assertEqual(every.returncode, 0, every.stderr)
        np.testing.assert_array_equal(np.fromfile(self.path("all.raw"), dtype=np.uint8).reshape(frames.shape), frames)
        missing = subprocess.run([CLI, "dicom", "frames", f"s3://{self.bucket}/studies/absent.dcm", "--config", self.config],
                                 capture_output=True, text=True, env=self.env(), timeout=60)
        self.assertEqual(missing.returncode, 1)
        self.assertIn("HTTP 404", missing.stderr)
        # Reviewed in the console, played from the archive: the frame on screen is the file's own.
        env = self.env(XDG_CONFIG_HOME=self.path("home"), QT_QPA_PLATFORM="offscreen")
        review = subprocess.run([CONSOLE, "--config", self.config, "--cine", url, "--probe-ui", "1.5", "--language", "en"], cwd=self.dir,
                                capture_output=True, text=True, env=env, timeout=180)
        self.assertEqual(review.returncode, 0, review.stderr[-3000:])
        report = json.loads([line for line in review.stdout.splitlines() if line.startswith("{")][-1])
        self.assertGreater(report["frames_shown"], 3)
        self.assertEqual(report["frames_failed"], 0)
        self.assertEqual(report["shown_sha256"], hashlib.sha256(frames[report["shown_frame"]].tobytes()).hexdigest())
        self.assertEqual(report["window_title"], "SonoLink — Review: cine.dcm")
        print(f"console: first frame of the remote cine shown {report['first_frame_ms']:.0f} ms after the window was made", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
