"""Test peers for the DICOM tests, each started on loopback and stopped by its PID: Orthanc (a
real PACS with a REST API), dcmtk's storescp (with its fault options) and wlmscpfs (worklist);
plus DICOM files written with pydicom (objects from another tool) and SonoLink configurations
naming the peers. Imported by the tests under tests/cli and tests/bench."""
import json
import os
import signal
import socket
import subprocess
import time
import urllib.request

import numpy as np
from pydicom.dataset import FileDataset, FileMetaDataset
from pydicom.uid import ExplicitVRLittleEndian, generate_uid

US_IMAGE = "1.2.840.10008.5.1.4.1.1.6.1"
US_MULTIFRAME = "1.2.840.10008.5.1.4.1.1.3.1"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(count):
    """count distinct free loopback ports: each held bound until all are chosen (two calls of
    free_port() one after the other can return the same port)."""
    held = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            held.append(s)
        return [s.getsockname()[1] for s in held]
    finally:
        for s in held:
            s.close()


def wait_for_port(port, timeout=15.0, process=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the peer exited with {process.returncode} before listening on {port}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def stop(process, timeout=15):
    """Stops a peer by its PID (SIGTERM, then SIGKILL)."""
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=timeout)


def us_file(path, frames=1, rows=16, columns=16, patient_name="Test^Cli", seed=0):
    """A US Image (frames == 1) or US Multi-frame Image written with pydicom; returns its UID."""
    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = US_IMAGE if frames == 1 else US_MULTIFRAME
    meta.MediaStorageSOPInstanceUID = generate_uid(prefix="2.25.")
    meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds = FileDataset(path, {}, file_meta=meta, preamble=b"\0" * 128)
    ds.SpecificCharacterSet = "ISO_IR 192"
    ds.SOPClassUID = meta.MediaStorageSOPClassUID
    ds.SOPInstanceUID = meta.MediaStorageSOPInstanceUID
    ds.Modality, ds.PatientName, ds.PatientID = "US", patient_name, "CLI-1"
    ds.StudyInstanceUID, ds.SeriesInstanceUID = generate_uid(prefix="2.25."), generate_uid(prefix="2.25.")
    ds.Rows, ds.Columns, ds.SamplesPerPixel, ds.PhotometricInterpretation = rows, columns, 1, "MONOCHROME2"
    ds.BitsAllocated, ds.BitsStored, ds.HighBit, ds.PixelRepresentation = 8, 8, 7, 0
    if frames > 1:
        ds.NumberOfFrames = frames
        ds.FrameTime = "33.3"
        ds.FrameIncrementPointer = 0x00181063
    pixels = np.random.default_rng(seed).integers(0, 256, size=frames * rows * columns, dtype=np.uint8)
    ds.PixelData = pixels.tobytes()
    ds.is_little_endian, ds.is_implicit_VR = True, False
    ds.save_as(path)
    return ds.SOPInstanceUID


class Storescp:
    """dcmtk's storescp; extra: fault options such as --refuse, --abort-during, --sleep-during S."""

    def __init__(self, workdir, port, *extra, aet="STORESCP"):
        self.inbox = os.path.join(workdir, "storescp-in")
        os.makedirs(self.inbox, exist_ok=True)
        self.port = port
        self.process = subprocess.Popen(["storescp", "-aet", aet, *extra, "-od", self.inbox, str(port)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(port, process=self.process)

    def stop(self):
        stop(self.process)


class Orthanc:
    """Orthanc 1.10 with its own configuration and storage under workdir. station: (AET, port) of
    the SonoLink station, registered so that Orthanc accepts its storage commitment requests and
    sends the reports there. tls: dict of Orthanc's TLS files (certificate, key, ca)."""

    def __init__(self, workdir, station=("SONOLINK", 11112), tls=None, extra=None, env=None):
        self.dicom_port, self.http_port = free_ports(2)  # distinct: Orthanc refuses one port for both
        db = os.path.join(workdir, "orthanc-db")
        os.makedirs(db, exist_ok=True)
        modality = {"AET": station[0], "Host": "127.0.0.1", "Port": station[1], "AllowStorageCommitment": True}
        config = {
            "Name": "sonolink-test-pacs", "StorageDirectory": db, "IndexDirectory": db, "Plugins": [],
            "HttpPort": self.http_port, "RemoteAccessAllowed": False, "AuthenticationEnabled": False,
            "DicomAet": "ORTHANC", "DicomPort": self.dicom_port, "DicomCheckCalledAet": True,
            "DefaultEncoding": "Utf8", "DicomModalities": {"sonolink": modality}, "SaveJobs": False,
            "StorageCompression": False, "HttpServerThreads": 4,
        }
        if tls:
            config.update({"DicomTlsEnabled": True, "DicomTlsCertificate": tls["certificate"],
                           "DicomTlsPrivateKey": tls["key"], "DicomTlsTrustedCertificates": tls["ca"],
                           "DicomTlsRemoteCertificateRequired": True})
        config.update(extra or {})
        self.config_path = os.path.join(workdir, "orthanc.json")
        with open(self.config_path, "w") as f:
            json.dump(config, f)
        self.log_path = os.path.join(workdir, "orthanc.log")
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(["/usr/sbin/Orthanc", self.config_path], stdout=self.log, stderr=subprocess.STDOUT,
                                        env={**os.environ, **(env or {})})
        deadline = time.monotonic() + 30
        while True:
            try:
                self.get("/system")
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("Orthanc did not start: " + open(self.log_path).read()[-2000:])
                time.sleep(0.1)
        wait_for_port(self.dicom_port, process=self.process)

    def get(self, path):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.http_port}{path}", timeout=10) as r:
            return json.loads(r.read())

    def post(self, path, body):
        request = urllib.request.Request(f"http://127.0.0.1:{self.http_port}{path}", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as r:
            return json.loads(r.read())

    def instance_uids(self):
        return [self.get(f"/instances/{i}/simplified-tags")["SOPInstanceUID"] for i in self.get("/instances")]

    def log_text(self):
        self.log.flush()
        with open(self.log_path) as f:
            return f.read()

    def stop(self):
        stop(self.process)
        self.log.close()


def sonolink_config(path, nodes, station_port=11112, queue_dir=None, tls=None, **dicom):
    """A SonoLink configuration naming the nodes: list of dicts (name, ae_title, port, ...); its
    audit trail is audit.log beside it."""
    section = {"station_ae_title": "SONOLINK", "listen_port": station_port,
               "audit_file": os.path.join(os.path.dirname(os.path.abspath(path)), "audit.log"),
               "nodes": [{"host": "127.0.0.1", **n} for n in nodes], **dicom}
    if queue_dir:
        section["queue_directory"] = queue_dir
    if tls:
        section["tls"] = tls
    with open(path, "w") as f:
        json.dump({"dicom": section}, f)
    return path


def make_certificates(directory, names=("orthanc", "sonolink"), alt_names=None):
    """A test CA and, per name, a key and a certificate it signs (openssl, RSA 2048, 1 day), whose
    subjectAltName is alt_names[name] (default "DNS:localhost,IP:127.0.0.1": the host name a peer
    on loopback is checked against). Returns {name: {"certificate", "key"}, "ca": path, "ca_key": path}."""
    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True)

    os.makedirs(directory, exist_ok=True)
    out = {"ca": os.path.join(directory, "ca.pem"), "ca_key": os.path.join(directory, "ca.key")}
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=SonoLink Test CA",
            "-keyout", out["ca_key"], "-out", out["ca"])
    for name in names:
        key, csr, cert = (os.path.join(directory, f"{name}.{ext}") for ext in ("key", "csr", "pem"))
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={name}", "-keyout", key, "-out", csr)
        extensions = os.path.join(directory, f"{name}.ext")
        with open(extensions, "w") as f:
            f.write(f"subjectAltName={(alt_names or {}).get(name, 'DNS:localhost,IP:127.0.0.1')}\n")
        openssl("x509", "-req", "-in", csr, "-CA", out["ca"], "-CAkey", out["ca_key"], "-CAcreateserial", "-days", "1",
                "-extfile", extensions, "-out", cert)
        out[name] = {"certificate": cert, "key": key}
    return out


WORKLIST_DUMP = """(0008,0005) CS  [ISO_IR 192]
(0008,0050) SH  [ACC0001]
(0008,0090) PN  [Li^Na]
(0010,0010) PN  [Wang^Xiaoming=王^小明]
(0010,0020) LO  [P0001]
(0010,0030) DA  [19800101]
(0010,0040) CS  [M]
(0020,000d) UI  [{study_uid}]
(0032,1060) LO  [US ABDOMEN]
(0040,0100) SQ
(fffe,e000) -
(0008,0060) CS  [US]
(0040,0001) AE  [{station}]
(0040,0002) DA  [{date}]
(0040,0003) TM  [090000]
(0040,0006) PN  []
(0040,0007) LO  [Abdominal ultrasound]
(0040,0009) SH  [SPS0001]
(0040,0010) SH  [USROOM1]
(0040,0011) SH  []
(fffe,e00d) -
(fffe,e0dd) -
(0040,1001) SH  [RP0001]
"""


class Wlmscpfs:
    """dcmtk's worklist server on one seeded item (Chinese name, UTF-8) scheduled for station on
    date. keep_charset: -csk (answers name their character set); else dcmtk's default -cs0,
    which drops it. extra: e.g. --sleep-before S."""

    def __init__(self, workdir, port, station="SONOLINK", date="20261130", study_uid="2.25.1234567890",
                 keep_charset=True, extra=()):
        self.aet = "WLMSCP"
        db = os.path.join(workdir, "wl")
        aet_dir = os.path.join(db, self.aet)
        os.makedirs(aet_dir, exist_ok=True)
        open(os.path.join(aet_dir, "lockfile"), "w").close()
        dump = os.path.join(workdir, "item.dump")
        with open(dump, "w", encoding="utf-8") as f:
            f.write(WORKLIST_DUMP.format(study_uid=study_uid, station=station, date=date))
        subprocess.run(["dump2dcm", "-g", dump, os.path.join(aet_dir, "item.wl")], check=True, capture_output=True)
        self.port = port
        self.process = subprocess.Popen(["wlmscpfs", "-s", "-dfp", db, "-csk" if keep_charset else "-cs0", *extra, str(port)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(port, process=self.process)

    def stop(self):
        stop(self.process)
