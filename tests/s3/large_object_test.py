#!/usr/bin/env python3
"""A 5 GiB sparse file through the archive and back, against a real radosgw on loopback: past
S3's 5 GB limit for one PUT (so multipart), past every 32-bit offset and size. The upload is
checked by its size and CRC-32C, the download byte for byte (a digest of both files) and by
awscli's view of the object; nothing short is ever left under the file's name. Run by CTest
with SONOLINK_CLI (on its own: it moves 10 GiB)."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from s3_peers import CephRgw  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]
GIB = 1 << 30


def digest(path):
    h = hashlib.blake2b()
    with open(path, "rb") as f:
        while chunk := f.read(16 << 20):
            h.update(chunk)
    return h.hexdigest()


class LargeObjectTest(unittest.TestCase):
    def test_a_5_gib_sparse_object_up_and_down(self):
        rgw = CephRgw(tls=True)
        work = tempfile.mkdtemp(prefix="sonolink-large-")
        try:
            big = os.path.join(work, "sparse.bin")
            with open(big, "wb") as f:  # holes, with data at its start, across 4 GiB and at its end
                for at, text in ((0, b"first"), (4 * GIB - 3, b"across-4GiB"), (5 * GIB - 4, b"end!")):
                    f.seek(at)
                    f.write(text)
            self.assertEqual(os.path.getsize(big), 5 * GIB)
            config = rgw.archive_config(work, part_size_bytes=256 << 20)
            env = rgw.aws_env()
            run = lambda *a: subprocess.run([CLI, "archive", *a, "--config", config, "--json"], capture_output=True, text=True, env=env, timeout=900)
            self.assertEqual(run("mb", "s3://large").returncode, 0)
            put = run("put", big, "s3://large/sparse.bin", "--quiet")
            self.assertEqual(put.returncode, 0, put.stderr)
            result = json.loads(put.stdout)
            self.assertEqual(result["object"]["size_bytes"], 5 * GIB)
            self.assertEqual(result["parts"], 20)
            head = rgw.aws("s3api", "head-object", "--bucket", "large", "--key", "sparse.bin")
            self.assertEqual(json.loads(head.stdout)["ContentLength"], 5 * GIB)
            back = os.path.join(work, "back.bin")
            got = run("get", "s3://large/sparse.bin", back, "--quiet")
            self.assertEqual(got.returncode, 0, got.stderr)
            self.assertTrue(json.loads(got.stdout)["crc32c_checked"])
            self.assertEqual(os.path.getsize(back), 5 * GIB)
            self.assertEqual(digest(back), digest(big))
            with open(back, "rb") as f:
                f.seek(4 * GIB - 3)
                self.assertEqual(f.read(11), b"across-4GiB")
        finally:
            rgw.stop()
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
