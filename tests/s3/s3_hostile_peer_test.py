#!/usr/bin/env python3
"""sonolink-cli archive against S3 peers that misbehave, each a small server of this test's own on
127.0.0.1 (no radosgw needed): a listing whose continuation token never changes (it looped for
ever) or never ends, and a TLS peer whose certificate, from the CA we trust, names another host
(refused: libcurl checks the name). Run by CTest with SONOLINK_CLI set."""
import http.server
import json
import os
import ssl
import subprocess
import sys
import tempfile
import threading
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_peers import make_certificates  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]


def listing(token, keys=("a",)):
    contents = "".join(f"<Contents><Key>{k}</Key><Size>1</Size><ETag>\"x\"</ETag>"
                       f"<LastModified>2026-12-01T00:00:00.000Z</LastModified></Contents>" for k in keys)
    more = f"<IsTruncated>true</IsTruncated><NextContinuationToken>{token}</NextContinuationToken>" if token else "<IsTruncated>false</IsTruncated>"
    return (f'<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">'
            f"<Name>scans</Name><Prefix></Prefix><KeyCount>{len(keys)}</KeyCount><MaxKeys>1000</MaxKeys>{contents}{more}</ListBucketResult>").encode()


class FakeS3:
    """Answers every GET with the listing `page(n)` gives for the n-th request; counts requests."""

    def __init__(self, page, tls=None):
        self.requests = 0
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *unused):
                pass

            def do_GET(self):
                owner.requests += 1
                body = page(owner.requests)
                self.send_response(200)
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_HEAD = do_GET

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(tls["certificate"], tls["key"])
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class HostileS3PeerTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.peer = None

    def tearDown(self):
        if self.peer:
            self.peer.stop()
        self.dir.cleanup()

    def config(self, endpoint, **extra):
        path = os.path.join(self.dir.name, "sonolink.json")
        archive = {"endpoint": endpoint, "region": "us-east-1", "bucket": "scans", "max_attempts": 1,
                   "journal_directory": os.path.join(self.dir.name, "journal"), "audit_file": os.path.join(self.dir.name, "audit.log")}
        archive.update(extra)
        with open(path, "w") as f:
            json.dump({"schema_version": 1, "archive": archive}, f)
        return path

    def ls(self, config):
        env = dict(os.environ, AWS_ACCESS_KEY_ID="k", AWS_SECRET_ACCESS_KEY="s")
        return subprocess.run([CLI, "archive", "ls", "s3://scans/", "--config", config], capture_output=True, text=True, env=env, timeout=60)

    def test_a_listing_whose_token_never_changes_ends_with_the_reason(self):
        self.peer = FakeS3(lambda n: listing("same-token-every-time", [f"k{n}"]))
        proc = self.ls(self.config(f"http://127.0.0.1:{self.peer.port}"))
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("continuation token 'same-token-every-time' a second time", proc.stderr)
        self.assertIn("does not advance", proc.stderr)
        self.assertLessEqual(self.peer.requests, 3, "stopped at the first repeat, not after thousands of pages")

    def test_a_listing_that_ends_is_read_whole(self):
        self.peer = FakeS3(lambda n: listing(f"token-{n}" if n < 3 else "", [f"k{n}"]))
        proc = self.ls(self.config(f"http://127.0.0.1:{self.peer.port}"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for key in ("k1", "k2", "k3"):
            self.assertIn(key, proc.stdout)

    def test_a_tls_peer_whose_certificate_names_another_host_is_refused(self):
        certs = make_certificates(os.path.join(self.dir.name, "certs"), names=("elsewhere", "localhost"),
                                  alt_names={"elsewhere": "DNS:pacs.elsewhere.example", "localhost": "DNS:localhost,IP:127.0.0.1"})
        self.peer = FakeS3(lambda n: listing("", ["k"]), tls=certs["elsewhere"])
        proc = self.ls(self.config(f"https://127.0.0.1:{self.peer.port}", ca_file=certs["ca"]))
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("certificate", proc.stderr.lower())
        self.assertIn("127.0.0.1", proc.stderr)
        self.peer.stop()
        self.peer = FakeS3(lambda n: listing("", ["k"]), tls=certs["localhost"])  # the right name, the same CA: listed
        proc = self.ls(self.config(f"https://127.0.0.1:{self.peer.port}", ca_file=certs["ca"]))
        self.assertEqual(proc.returncode, 0, proc.stderr)


if __name__ == "__main__":
    unittest.main()
