#!/usr/bin/env python3
"""Batch reprocessing without a scheduler (issue 43): `sonolink-cli reprocess` and `cluster
submit --executor local|parallel` on a manifest of recordings written as other tools write UFF,
a frame task, and a corrupt file. Every output is byte-equal to `sonolink-cli beamform` of the
same file with the recipe's arguments; a task made to fail once (the test hook) is the only one a
resubmission processes, as counted from the provenance files; the corrupt input fails with its
reason and no marker while every other task finishes; GNU parallel gives the same bytes; a
committed task is skipped; bad recipes, manifests and a missing or stopped Slurm are named.
Run by CTest with SONOLINK_CLI set."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from batch_recordings import RECIPE, committed_outputs, provenance_texts, recordings  # noqa: E402

CLI = os.environ["SONOLINK_CLI"]


def cli(*args, env=None, timeout=300):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout, env=env)


class ReprocessBatchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="sonolink-reprocess-")
        cls.inputs = recordings(os.path.join(cls.dir, "in"), 6)
        cls.corrupt = os.path.join(cls.dir, "in", "corrupt.uff")
        with open(cls.inputs[1], "rb") as f:
            blob = bytearray(f.read())
        blob[0:8] = b"NOT HDF5"  # an object whose bytes were damaged: no longer an HDF5 file
        with open(cls.corrupt, "wb") as f:
            f.write(blob)
        cls.manifest = os.path.join(cls.dir, "manifest.txt")
        with open(cls.manifest, "w") as f:
            f.write("# six recordings, one frame of the first, and a damaged object\n")
            for path in cls.inputs:
                f.write(path + "\n")
            f.write(f"{cls.inputs[0]} 1\n\n{cls.corrupt}\n")
        cls.recipe = os.path.join(cls.dir, "recipe.json")
        with open(cls.recipe, "w") as f:
            json.dump(RECIPE, f)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def status(self, root):
        proc = cli("cluster", "status", self.manifest, self.recipe, "--out", root, "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return json.loads(proc.stdout)

    def submit(self, root, executor, env=None):
        return cli("cluster", "submit", self.manifest, self.recipe, "--out", root, "--executor", executor, "--jobs", "2", "--json", env=env)

    def test_local_with_one_failure_resubmitted_then_parallel_gives_the_same_bytes(self):
        root = os.path.join(self.dir, "local")
        hook = os.path.join(self.dir, "fail-once")
        os.makedirs(hook)
        open(os.path.join(hook, "rec_03.uff"), "w").close()  # armed: rec_03's first attempt fails
        env = dict(os.environ, SONOLINK_REPROCESS_FAIL_ONCE_DIR=hook)
        first = self.submit(root, "local", env)
        self.assertEqual(first.returncode, 1, first.stderr)
        summary = json.loads(first.stdout)
        self.assertEqual((summary["done"], summary["failed"], summary["pending"]), (6, 2, 0), summary)
        reasons = {os.path.basename(f["input"]): f["reason"] for f in summary["failures"]}
        self.assertIn("failed once on purpose", reasons["rec_03.uff"])
        self.assertIn("corrupt.uff", reasons["corrupt.uff"])
        self.assertRegex(reasons["corrupt.uff"], "(?i)hdf5|signature|not a")
        status = self.status(root)
        self.assertEqual((status["done"], status["failed"]), (6, 2))

        # Byte-equal to `beamform` of the same file with the recipe's arguments.
        for path in glob.glob(os.path.join(root, "derived", "*", "*", "provenance.json")):
            with open(path) as f:
                prov = json.load(f)
            ref = os.path.join(self.dir, "ref", os.path.basename(os.path.dirname(path)))
            args = prov["same_as"].split()[3:]  # after "sonolink-cli beamform INPUT": the frame task's --frame with it
            proc = cli("beamform", prov["input"], *args, "--output-dir", ref)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            made = sorted(o["file"] for o in prov["outputs"])
            self.assertEqual(made, sorted(os.listdir(ref)))
            for name in made:
                with open(os.path.join(ref, name), "rb") as a, open(os.path.join(os.path.dirname(path), name), "rb") as b:
                    self.assertEqual(a.read(), b.read(), f"{path}: {name} differs from beamform's")
        # The damaged object: no folder of its own, committed or not.
        self.assertEqual(len(glob.glob(os.path.join(root, "derived", "*", "*", "COMMITTED"))), 6)
        self.assertEqual(glob.glob(os.path.join(root, "derived", "*", "*.part-*")), [])

        before = provenance_texts(root)
        second = self.submit(root, "local", env)
        self.assertEqual(second.returncode, 1, second.stderr)  # the damaged object fails again
        after = provenance_texts(root)
        changed = [p for p in after if before.get(p) != after[p]]
        self.assertEqual(len(changed), 1, changed)
        with open(os.path.join(root, changed[0])) as f:
            self.assertTrue(json.load(f)["input"].endswith("rec_03.uff"))
        status = self.status(root)
        self.assertEqual((status["done"], status["failed"], status["pending"]), (7, 1, 0))
        batch = glob.glob(os.path.join(root, "derived", "*", "report.json"))
        with open(batch[0]) as f:
            report = json.load(f)
        self.assertEqual((report["done"], report["failed"], report["tasks"]), (7, 1, 8))
        with open(os.path.join(os.path.dirname(batch[0]), "index.json")) as f:
            self.assertEqual(len(json.load(f)), 7)

        parallel = os.path.join(self.dir, "parallel")
        third = self.submit(parallel, "parallel")
        self.assertEqual(third.returncode, 1, third.stderr)
        self.assertEqual(json.loads(third.stdout)["done"], 7)
        self.assertEqual(committed_outputs(parallel), committed_outputs(root))
        self.assertEqual(len(committed_outputs(root)), 7 * 2 + 6 * 2)  # .npy and .png: two frames of six recordings, one of the frame task

    def test_a_committed_task_is_skipped(self):
        root = os.path.join(self.dir, "single")
        first = cli("reprocess", self.inputs[2], "--recipe", self.recipe, "--out", root, "--json")
        self.assertEqual(first.returncode, 0, first.stderr)
        done = json.loads(first.stdout)
        self.assertEqual(done["status"], "done")
        self.assertEqual(done["provenance"]["frames"], 2)
        self.assertLess(done["provenance"]["timings_ms"]["first_frame"], 1000)
        again = cli("reprocess", self.inputs[2], "--recipe", self.recipe, "--out", root, "--json")
        self.assertEqual(json.loads(again.stdout)["status"], "skipped")
        # A task record damaged by hand: the task counts pending (its marker, not the record, says
        # what is committed), and status names no crash.
        manifest = os.path.join(self.dir, "one.txt")
        with open(manifest, "w") as f:
            f.write(self.inputs[2] + "\n")
        for record in glob.glob(os.path.join(root, "derived", "*", "tasks", "*.json")):
            with open(record, "w") as f:
                f.write('["not", "a", "record"]')
        proc = cli("cluster", "status", manifest, self.recipe, "--out", root, "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(json.loads(proc.stdout)["pending"], 1)

    def test_bad_recipes_and_manifests_are_named(self):
        bad = os.path.join(self.dir, "bad_recipe.json")
        with open(bad, "w") as f:
            json.dump(dict(RECIPE, windw="hann"), f)
        proc = cli("reprocess", self.inputs[0], "--recipe", bad, "--out", os.path.join(self.dir, "x"))
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('unknown key "windw"', proc.stderr)
        with open(bad, "w") as f:
            json.dump(dict(RECIPE, f_number="wide"), f)
        self.assertIn('"f_number" must be a number', cli("reprocess", self.inputs[0], "--recipe", bad, "--out", self.dir).stderr)
        manifest = os.path.join(self.dir, "bad_manifest.txt")
        with open(manifest, "w") as f:
            f.write(f"{self.inputs[0]}\n{self.inputs[1]} first\n")
        proc = cli("cluster", "status", manifest, self.recipe, "--out", self.dir)
        self.assertIn(f"{manifest}:2: \"first\" is not a frame number", proc.stderr)

    def test_slurm_missing_or_stopped_is_named_with_the_remedy(self):
        empty = os.path.join(self.dir, "no-slurm-bin")
        os.makedirs(empty, exist_ok=True)
        env = dict(os.environ, PATH=empty + ":/usr/bin/nonexistent")
        proc = cli("cluster", "submit", self.manifest, self.recipe, "--out", os.path.join(self.dir, "s"), env=env)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn("Slurm, which is not installed (no sbatch on PATH): apt-get install slurm-wlm munge", proc.stderr)
        if shutil.which("sbatch"):  # installed, its controller not running (a configuration of ours that names no live one)
            conf = os.path.join(self.dir, "slurm.conf")
            with open(conf, "w") as f:
                f.write("ClusterName=none\nSlurmctldHost=localhost\nSlurmctldPort=1\nNodeName=localhost\nPartitionName=p Nodes=localhost\n")
            env = dict(os.environ, SLURM_CONF=conf)
            proc = cli("cluster", "submit", self.manifest, self.recipe, "--out", os.path.join(self.dir, "s"), env=env, timeout=120)
            self.assertEqual(proc.returncode, 3, proc.stderr)
            self.assertIn("its controller does not answer", proc.stderr)
            self.assertIn("start munge and slurmctld", proc.stderr)


if __name__ == "__main__":
    unittest.main()
