"""The S3 peers of the archive tests, each started by the test on loopback and stopped by PID:
Ceph's radosgw on a one-node cluster (ceph_rgw.sh), the fault-injecting proxy in front of it,
and the environment that points awscli at either."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# Debian's awscli, not whatever a Python environment on PATH may shadow it with.
AWS = "/usr/bin/aws" if os.path.exists("/usr/bin/aws") else (shutil.which("aws") or "aws")


class CephRgw:
    """A one-node Ceph cluster with radosgw in its own folder; .env holds S3_ENDPOINT and the keys
    (with tls: S3_ENDPOINT is HTTPS, S3_CA_FILE its CA, S3_HTTP_ENDPOINT the plain port; once
    STS is on: S3_ROLE_ARN, a role the test user may assume for temporary credentials)."""

    def __init__(self, tls=False, sts=False):
        self.dir = tempfile.mkdtemp(prefix="sonolink-rgw-")
        args = [os.path.join(HERE, "ceph_rgw.sh"), "start", self.dir] + (["--tls"] if tls else []) + (["--sts"] if sts else [])
        started = time.monotonic()
        proc = subprocess.run(args, capture_output=True, text=True, timeout=400)
        self.start_seconds = time.monotonic() - started
        if proc.returncode != 0:
            subprocess.run([os.path.join(HERE, "ceph_rgw.sh"), "stop", self.dir], capture_output=True, timeout=120)
            raise RuntimeError(f"ceph_rgw.sh start failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
        self.read_env()

    def read_env(self):
        self.env = {}
        with open(os.path.join(self.dir, "env")) as f:
            for line in f:
                if "=" in line:
                    name, value = line.strip().split("=", 1)
                    self.env[name] = value

    def restart_rgw(self, sts=False, clock_offset=None):
        """radosgw SIGKILLed and started again, until the next restart with STS on (sts) and its
        wall clock clock_offset off ("+20m": 20 minutes ahead)."""
        options = (["--sts"] if sts else []) + (["--clock-offset", clock_offset] if clock_offset else [])
        proc = subprocess.run([os.path.join(HERE, "ceph_rgw.sh"), "restart-rgw", self.dir, *options], capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            raise RuntimeError(f"ceph_rgw.sh restart-rgw failed:\n{proc.stderr[-4000:]}")
        self.read_env()

    def stop(self):
        subprocess.run([os.path.join(HERE, "ceph_rgw.sh"), "stop", self.dir], capture_output=True, timeout=300)

    def archive_config(self, work, **archive):
        """A SonoLink configuration in work (sonolink.json) whose archive section reaches this server,
        its journal and audit trail in work too; archive: more keys or other values. Its path."""
        settings = {"endpoint": self.env["S3_ENDPOINT"], "region": self.env["S3_REGION"],
                    "journal_directory": os.path.join(work, "journal"), "audit_file": os.path.join(work, "archive-audit.log")}
        if self.env["S3_ENDPOINT"].startswith("https://"):
            settings["ca_file"] = self.env["S3_CA_FILE"]
        settings.update(archive)
        path = os.path.join(work, "sonolink.json")
        with open(path, "w") as f:
            json.dump({"schema_version": 1, "archive": settings}, f)
        return path

    def aws_env(self):
        env = dict(os.environ)
        env.update(AWS_ACCESS_KEY_ID=self.env["S3_ACCESS_KEY"], AWS_SECRET_ACCESS_KEY=self.env["S3_SECRET_KEY"],
                   AWS_DEFAULT_REGION=self.env["S3_REGION"], AWS_EC2_METADATA_DISABLED="true", AWS_PAGER="")
        for name in ("AWS_PROFILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE"):
            env.pop(name, None)
        return env

    def aws(self, *args, endpoint=None, timeout=600):
        """awscli, the independent client the tests cross-check against."""
        endpoint = endpoint or self.env["S3_ENDPOINT"]
        tls = ["--ca-bundle", self.env["S3_CA_FILE"]] if endpoint.startswith("https://") else []
        cmd = [AWS, "--endpoint-url", endpoint, *tls, *args]
        return subprocess.run(cmd, capture_output=True, text=True, env=self.aws_env(), timeout=timeout)


class FaultProxy:
    """fault_proxy.py in front of an endpoint; plan() sets the faults for the next requests."""

    def __init__(self, upstream_endpoint, work):
        self.work = work
        self.plan_file = os.path.join(work, "faults.json")
        self.log_file = os.path.join(work, "faults.log")
        port_file = os.path.join(work, "proxy.port")
        self.plan([])
        open(self.log_file, "w").close()
        upstream = upstream_endpoint.split("://", 1)[1]
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "fault_proxy.py"), "--upstream", upstream, "--plan", self.plan_file,
                                      "--port-file", port_file, "--log", self.log_file])
        deadline = time.monotonic() + 20
        while not os.path.exists(port_file):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("fault_proxy.py did not start")
            time.sleep(0.02)
        with open(port_file) as f:
            self.endpoint = f"http://127.0.0.1:{f.read().strip()}"

    def plan(self, faults):
        with open(self.plan_file + ".tmp", "w") as f:
            json.dump(faults, f)
        os.replace(self.plan_file + ".tmp", self.plan_file)

    def fired(self):
        with open(self.log_file) as f:
            return [json.loads(line) for line in f if line.strip()]

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
