#!/usr/bin/env python3
"""sonolink-cli end to end: --version, config check (text and JSON), exit codes.
Run by CTest with SONOLINK_CLI, SONOLINK_DEFAULT_CONFIG and SONOLINK_TEST_DATA set."""
import json
import os
import subprocess
import tempfile
import unittest

CLI = os.environ["SONOLINK_CLI"]
DEFAULT_CONFIG = os.environ["SONOLINK_DEFAULT_CONFIG"]
DATA = os.environ["SONOLINK_TEST_DATA"]
THREE_BAD = os.path.join(DATA, "config", "three_bad_values.json")


def cli(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)


class VersionTest(unittest.TestCase):
    def test_version_text_names_build_and_optional_parts(self):
        proc = cli("--version")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        first = proc.stdout.splitlines()[0]
        self.assertRegex(first, r"^sonolink-cli \d+\.\d+\.\d+ \(git ([0-9a-f]{7,}(-dirty)?|unknown), ")
        self.assertIn("CUDA beamformer module:", proc.stdout)
        self.assertIn("RDMA verbs backend:", proc.stdout)

    def test_version_json(self):
        proc = cli("--version", "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        info = json.loads(proc.stdout)
        for key in ("version", "git_hash", "build_type", "cuda_built", "rdma_built"):
            self.assertIn(key, info)
        self.assertIsInstance(info["cuda_built"], bool)
        # This project's build machines have nvcc and rdma-core: the optional parts are built.
        if os.path.exists("/usr/local/cuda/bin/nvcc") and info["sanitizers"] == "":
            self.assertTrue(info["cuda_built"])


class ConfigCheckTest(unittest.TestCase):
    def test_shipped_default_config_is_valid(self):
        proc = cli("config", "check", DEFAULT_CONFIG)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("valid", proc.stdout)

    def test_three_bad_values_are_all_named(self):
        proc = cli("config", "check", THREE_BAD)
        self.assertEqual(proc.returncode, 1, proc.stdout)
        self.assertIn("has 3 problems", proc.stdout)
        self.assertIn(f"{THREE_BAD}: /link/slot_size_bytes: must be a multiple of 4096", proc.stdout)
        self.assertIn(f"{THREE_BAD}: /probe/element_count: must be between 1 and 256", proc.stdout)
        self.assertIn(f"{THREE_BAD}: /dicom/station_ae_title: must be 1 to 16 characters", proc.stdout)

    def test_json_output_lists_problems(self):
        proc = cli("config", "check", "--json", THREE_BAD)
        self.assertEqual(proc.returncode, 1)
        result = json.loads(proc.stdout)
        self.assertFalse(result["valid"])
        self.assertEqual(len(result["problems"]), 3)

    def test_uid_roots_the_engine_would_refuse_are_refused_with_file_key_and_reason(self):
        # The same rule the engine's UID generator applies (core/dicom value rules): 30 characters
        # at most, and never DCMTK's own root.
        cases = {"1.2.826.0.1.3680043.10.99999999": "at most 30",  # 31 characters
                 "1.2.276.0.7230010.3": "DCMTK's own",
                 "1.2.276.0.7230010.3.7.1": "DCMTK's own"}
        with tempfile.TemporaryDirectory() as tmp:
            for root, reason in cases.items():
                with self.subTest(root=root):
                    path = os.path.join(tmp, "uid_root.json")
                    with open(path, "w") as f:
                        json.dump({"schema_version": 1, "dicom": {"uid_root": root}}, f)
                    proc = cli("config", "check", path)
                    self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
                    self.assertIn(f"{path}: /dicom/uid_root: ", proc.stdout)
                    self.assertIn(reason, proc.stdout)
            path = os.path.join(tmp, "thirty.json")
            with open(path, "w") as f:
                json.dump({"schema_version": 1, "dicom": {"uid_root": "1.2.826.0.1.3680043.10.9999999"}}, f)
            proc = cli("config", "check", path)
            self.assertEqual(proc.returncode, 0, proc.stdout)

    def test_missing_file(self):
        proc = cli("config", "check", "/nonexistent/x.json")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("cannot open configuration file /nonexistent/x.json: no such file", proc.stdout)

    def test_usage_errors_exit_2(self):
        self.assertEqual(cli("config", "check").returncode, 2)
        self.assertEqual(cli("no-such-command").returncode, 2)
        self.assertEqual(cli().returncode, 2)

    def test_help_exits_0(self):
        proc = cli("config", "check", "--help")
        self.assertEqual(proc.returncode, 0)
        self.assertIn("FILE", proc.stdout)


class ProbeTest(unittest.TestCase):
    def test_probe_json_reports_both_parts(self):
        proc = cli("probe", "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        report = json.loads(proc.stdout)
        self.assertTrue(report["cuda_status"])
        self.assertTrue(report["rdma_status"])
        if not report["gpus"]:
            self.assertTrue(report["cuda_status"])  # says why there is none


if __name__ == "__main__":
    unittest.main()
