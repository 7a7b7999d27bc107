#!/usr/bin/env python3
"""Batch reprocessing on a Slurm cluster over S3 (issue 43): a one-node Slurm cluster started here
(munged, slurmctld, slurmd; proctrack/linuxproc, task/none; all state in a temporary folder,
tests/cluster/slurm_one_node.sh) and the project's radosgw (tests/s3/ceph_rgw.sh). Twenty small
recordings written as other tools write UFF and a damaged object are uploaded; `cluster submit`
(a job array throttled to 2, two lines an array task, and a dependent finishing job) makes every
output byte-equal to a single-process `beamform` of the same file with the same recipe; the
damaged object fails with its reason and no marker while every other task finishes; a task made
to fail once (the test hook) is the only one a resubmission processes, as counted from the
provenance files; and the same manifest under --executor parallel gives identical outputs.
Run by CTest with SONOLINK_CLI set; stops every daemon it started, by its PID."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "s3"))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
from batch_recordings import RECIPE, committed_outputs, provenance_texts, recordings  # noqa: E402
from s3_peers import CephRgw  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]
TASKS = 20
rgw = None
slurm_dir = None
slurm_env = None


def setUpModule():
    global rgw, slurm_dir, slurm_env
    slurm_dir = tempfile.mkdtemp(prefix="sonolink-slurm-")
    proc = subprocess.run([os.path.join(HERE, "slurm_one_node.sh"), "start", slurm_dir], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"slurm_one_node.sh start failed:\n{proc.stderr}")
    try:
        rgw = CephRgw()
    except Exception:
        subprocess.run([os.path.join(HERE, "slurm_one_node.sh"), "stop", slurm_dir], capture_output=True, timeout=120)
        raise
    # The S3 keys in the environment: sbatch passes it on to every job (--export=ALL).
    slurm_env = dict(rgw.aws_env(), **dict(line.split("=", 1) for line in proc.stdout.split()))
    print(f"Slurm up; radosgw ready in {rgw.start_seconds:.1f} s at {rgw.env['S3_ENDPOINT']}", file=sys.stderr)


def tearDownModule():
    if slurm_dir:
        subprocess.run([os.path.join(HERE, "slurm_one_node.sh"), "stop", slurm_dir], capture_output=True, timeout=120)
        shutil.rmtree(slurm_dir, ignore_errors=True)
    if rgw:
        rgw.stop()


class SlurmBatchTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sonolink-batch-")
        self.config = rgw.archive_config(self.dir, bucket="recordings")
        mb = self.cli("archive", "mb", "s3://recordings", "--config", self.config)
        self.assertEqual(mb.returncode, 0, mb.stderr)
        self.local = recordings(os.path.join(self.dir, "in"), TASKS)
        damaged = os.path.join(self.dir, "in", "damaged.uff")
        with open(self.local[4], "rb") as f:
            blob = bytearray(f.read())
        blob[len(blob) // 2:] = bytes(len(blob) - len(blob) // 2)  # its second half lost: the frames' chunks are zeros past the header
        blob[0:8] = b"\x00" * 8  # and its signature gone
        with open(damaged, "wb") as f:
            f.write(blob)
        self.urls = {}
        for path in self.local + [damaged]:
            url = f"s3://recordings/study/{os.path.basename(path)}"
            put = self.cli("archive", "put", path, url, "--config", self.config)
            self.assertEqual(put.returncode, 0, put.stderr)
            self.urls[url] = path
        self.manifest = os.path.join(self.dir, "manifest.txt")
        with open(self.manifest, "w") as f:
            f.write("".join(url + "\n" for url in self.urls))
        self.recipe = os.path.join(self.dir, "recipe.json")
        with open(self.recipe, "w") as f:
            json.dump(RECIPE, f)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def cli(self, *args, env=None, timeout=300):
        return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout, env=env or slurm_env)

    def status(self, root):
        proc = self.cli("cluster", "status", self.manifest, self.recipe, "--out", root, "--config", self.config, "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return json.loads(proc.stdout)

    def submit_and_wait(self, root, env):
        for old in glob.glob(os.path.join(root, "derived", "*", "report.json")):
            os.remove(old)  # the finishing job of this submission writes its own
        proc = self.cli("cluster", "submit", self.manifest, self.recipe, "--out", root, "--config", self.config, "--executor", "slurm", "--jobs", "2",
                        "--per-task", "2", "--json", env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        jobs = json.loads(proc.stdout)
        self.assertEqual(jobs["array_tasks"], (TASKS + 1 + 1) // 2)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            squeue = subprocess.run(["squeue", "-h", "-o", "%i"], capture_output=True, text=True, env=slurm_env)
            self.assertEqual(squeue.returncode, 0, squeue.stderr)
            queue = squeue.stdout.split()
            if not queue and glob.glob(os.path.join(root, "derived", "*", "report.json")):
                return jobs
            time.sleep(0.5)
        self.fail(f"the batch did not finish within 240 s: squeue {queue}")

    def test_a_job_array_over_s3_byte_equal_to_beamform_resubmitted_after_one_failure_and_the_same_under_parallel(self):
        root = os.path.join(self.dir, "slurm")
        hook = os.path.join(self.dir, "fail-once")
        os.makedirs(hook)
        open(os.path.join(hook, "rec_07.uff"), "w").close()  # armed: rec_07's first attempt fails
        env = dict(slurm_env, SONOLINK_REPROCESS_FAIL_ONCE_DIR=hook)
        self.submit_and_wait(root, env)
        status = self.status(root)
        self.assertEqual((status["done"], status["failed"], status["pending"]), (TASKS - 1, 2, 0), status)
        reasons = {f["input"].rsplit("/", 1)[1]: f["reason"] for f in status["failures"]}
        self.assertIn("failed once on purpose", reasons["rec_07.uff"])
        self.assertIn("damaged.uff", reasons["damaged.uff"])
        self.assertEqual(len(glob.glob(os.path.join(root, "derived", "*", "*", "COMMITTED"))), TASKS - 1)
        with open(glob.glob(os.path.join(root, "derived", "*", "report.json"))[0]) as f:
            self.assertEqual(json.load(f)["failed"], 2, "the finishing job's report")

        before = provenance_texts(root)
        self.submit_and_wait(root, env)
        after = provenance_texts(root)
        changed = [p for p in after if before.get(p) != after[p]]
        self.assertEqual(len(changed), 1, changed)
        with open(os.path.join(root, changed[0])) as f:
            self.assertTrue(json.load(f)["input"].endswith("/rec_07.uff"))
        status = self.status(root)
        self.assertEqual((status["done"], status["failed"]), (TASKS, 1))
        with open(glob.glob(os.path.join(root, "derived", "*", "report.json"))[0]) as f:
            report = json.load(f)
        self.assertEqual((report["done"], report["failed"], report["tasks"]), (TASKS, 1, TASKS + 1), "the second finishing job's report")

        # Every output byte-equal to `beamform` of the same file (the local copy) with the recipe.
        for path in glob.glob(os.path.join(root, "derived", "*", "*", "provenance.json")):
            with open(path) as f:
                prov = json.load(f)
            ref = os.path.join(self.dir, "ref", os.path.basename(os.path.dirname(path)))
            proc = self.cli("beamform", self.urls[prov["input"]], *prov["same_as"].split()[3:], "--output-dir", ref)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(sorted(os.listdir(ref)), sorted(o["file"] for o in prov["outputs"]))
            for name in os.listdir(ref):
                with open(os.path.join(ref, name), "rb") as a, open(os.path.join(os.path.dirname(path), name), "rb") as b:
                    self.assertEqual(a.read(), b.read(), f"{prov['input']}: {name}")

        parallel = os.path.join(self.dir, "parallel")
        proc = self.cli("cluster", "submit", self.manifest, self.recipe, "--out", parallel, "--config", self.config, "--executor", "parallel",
                        "--jobs", "2", "--json")
        self.assertEqual(proc.returncode, 1, proc.stderr)  # the damaged object
        self.assertEqual(json.loads(proc.stdout)["done"], TASKS)
        self.assertEqual(committed_outputs(parallel), committed_outputs(root))
        self.assertEqual(len(committed_outputs(root)), TASKS * 4)


if __name__ == "__main__":
    unittest.main()
