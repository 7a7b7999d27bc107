#!/usr/bin/env python3
"""DICOM TLS against Orthanc configured TLS-only with client certificates required (a test CA
made here with openssl): sonolink-cli with the station's certificate and key echoes and stores
through the queue; a plain connection to the TLS port fails with an error that says the port
may be TLS-only; a CA that did not sign Orthanc's certificate fails the handshake, naming the
certificates; a certificate from the trusted CA that names another host fails it too (DCMTK
checks only the signature: SonoLink checks the name). Run by CTest with SONOLINK_CLI set."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from dicom_peers import Orthanc, free_port, make_certificates, sonolink_config, us_file  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]


class TlsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.work = cls.dir.name
        cls.certs = make_certificates(os.path.join(cls.work, "certs"), names=("orthanc", "sonolink", "elsewhere"),
                                      alt_names={"elsewhere": "DNS:pacs.elsewhere.example"})
        cls.other = make_certificates(os.path.join(cls.work, "other-ca"), names=())
        o = cls.certs["orthanc"]
        cls.orthanc = Orthanc(cls.work, station=("SONOLINK", free_port()),
                              tls={"certificate": o["certificate"], "key": o["key"], "ca": cls.certs["ca"]})

    @classmethod
    def tearDownClass(cls):
        cls.orthanc.stop()
        cls.dir.cleanup()

    def config(self, name, ca=None, tls=True):
        s = self.certs["sonolink"]
        return sonolink_config(os.path.join(self.work, name),
                               [{"name": "pacs", "ae_title": "ORTHANC", "port": self.orthanc.dicom_port, "tls": tls}],
                               queue_dir=os.path.join(self.work, name + ".queue"),
                               tls={"certificate": s["certificate"], "private_key": s["key"],
                                    "trusted_certificates": ca or self.certs["ca"]})

    def cli(self, *args):
        return subprocess.run([CLI, "dicom", *args], capture_output=True, text=True, timeout=120)

    def test_echo_and_store_over_tls_with_client_certificates(self):
        config = self.config("good.json")
        proc = self.cli("echo", "--config", config, "--node", "pacs")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("(TLS): ok", proc.stdout)
        path = os.path.join(self.work, "tls.dcm")
        uid = us_file(path, frames=4)
        self.assertEqual(self.cli("queue", "add", "--config", config, "--node", "pacs", path).returncode, 0)
        proc = self.cli("queue", "run", "--config", config, "--until-settled", "--timeout", "60", "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual([i["state"] for i in json.loads(proc.stdout)], ["sent"])
        self.assertIn(uid, self.orthanc.instance_uids())

    def test_plain_connection_to_the_tls_port_fails_clearly(self):
        proc = self.cli("echo", "--aet", "ORTHANC", "--port", str(self.orthanc.dicom_port))
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn(f"PACS ORTHANC at 127.0.0.1:{self.orthanc.dicom_port}", proc.stderr)
        self.assertIn("TLS-only", proc.stderr)

    def test_a_ca_that_did_not_sign_the_pacs_fails_the_handshake(self):
        proc = self.cli("echo", "--config", self.config("wrong-ca.json", ca=self.other["ca"]), "--node", "pacs")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("(TLS)", proc.stderr)
        self.assertIn("check the certificates", proc.stderr)

    def test_a_certificate_for_another_host_from_the_trusted_ca_is_refused(self):
        """The reported hole: any certificate our CA signed was accepted, whatever host it names."""
        e = self.certs["elsewhere"]
        impostor = Orthanc(os.path.join(self.work, "impostor"), station=("SONOLINK", free_port()),
                           tls={"certificate": e["certificate"], "key": e["key"], "ca": self.certs["ca"]})
        try:
            s = self.certs["sonolink"]
            config = sonolink_config(os.path.join(self.work, "impostor.json"),
                                     [{"name": "pacs", "ae_title": "ORTHANC", "port": impostor.dicom_port, "tls": True}],
                                     queue_dir=os.path.join(self.work, "impostor.queue"),
                                     tls={"certificate": s["certificate"], "private_key": s["key"], "trusted_certificates": self.certs["ca"]})
            proc = self.cli("echo", "--config", config, "--node", "pacs")
        finally:
            impostor.stop()
        self.assertNotEqual(proc.returncode, 0, proc.stdout)
        self.assertIn("(TLS)", proc.stderr)
        self.assertIn("names 127.0.0.1", proc.stderr)

    def test_missing_certificate_files_are_named(self):
        config = self.config("missing.json")
        with open(config) as f:
            c = json.load(f)
        c["dicom"]["tls"]["certificate"] = os.path.join(self.work, "nowhere.pem")
        with open(config, "w") as f:
            json.dump(c, f)
        proc = self.cli("echo", "--config", config, "--node", "pacs")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("nowhere.pem does not exist", proc.stderr)


if __name__ == "__main__":
    unittest.main()
