#!/usr/bin/env python3
"""sonolink-cli report sign and selftest --override: the operator signs a QA report, and an
engineer overrides a failed self-test, each as the station user re-authenticated through PAM. PAM is real (Linux-PAM, the sonolink service) with pam_wrapper's pam_matrix
module and a password file of the test's own (LD_PRELOAD=libpam_wrapper.so, no system account
touched). A wrong password signs nothing and leaves the file as it was; the right one completes
the signature block (user, printed name, meaning, time, how they were authenticated) in the
JSON and the PDF, and the renewed hash holds (the next run takes the signed report as its
baseline); a signed or an edited report is refused, and a signer waits while another holds the report's
folder (so that of two at once the second finds it signed); with no terminal and no --password-stdin
the command says how to give the password. An override after an element check that fails (its
limit set so that half the channels count as dead) is recorded with who, why and what it
overrode in the report (JSON and PDF) and as a DICOM audit Security Alert (110113, Emergency
Override 110127); with a wrong password there is none, in neither. Run by CTest with SONOLINK_CLI."""
import fcntl
import grp
import json
import os
import pwd
import subprocess
import tempfile
import time
import unittest

CLI = os.environ["SONOLINK_CLI"]
PAM_WRAPPER = "/usr/lib/x86_64-linux-gnu/libpam_wrapper.so"
PAM_MATRIX = "/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so"
USER = pwd.getpwuid(os.geteuid()).pw_name
ENGINEERS = grp.getgrgid(os.getegid()).gr_name  # the test user's own group holds the engineer's role here


def blocked_on_a_lock(pid):
    """Whether the kernel lists pid as waiting for a lock another holds (a "->" line of /proc/locks)."""
    with open("/proc/locks") as f:
        return any("->" in line and line.split()[-4] == str(pid) for line in f)


class ReportSignTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp()
        services = os.path.join(self.work, "pam.d")
        os.makedirs(services)
        passdb = os.path.join(self.work, "passdb")
        with open(passdb, "w") as f:
            f.write(f"{USER}:right horse battery:sonolink\n")
        with open(os.path.join(services, "sonolink"), "w") as f:
            f.write(f"auth required {PAM_MATRIX} passdb={passdb}\naccount required {PAM_MATRIX} passdb={passdb}\n")
        station = os.path.join(self.work, "station.json")  # the station's configuration: its engineers
        with open(station, "w") as f:
            json.dump({"selftest": {"engineer_group": ENGINEERS}}, f)
        self.env = dict(os.environ, LD_PRELOAD=PAM_WRAPPER, PAM_WRAPPER="1", PAM_WRAPPER_SERVICE_DIR=services, SONOLINK_CONFIG=station)
        self.reports = os.path.join(self.work, "reports")
        self.report = self.selftest()

    def selftest(self):
        proc = subprocess.run([CLI, "selftest", "--in-process", "--step", "station", "--json", "--report", self.reports],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        return json.loads(proc.stdout)["report"]

    def sign(self, password, *extra, report=None):
        return subprocess.run([CLI, "report", "sign", report or self.report, "--meaning", "reviewed and approved", "--password-stdin", *extra],
                              input=password + "\n", capture_output=True, text=True, timeout=60, env=self.env)

    def test_a_wrong_password_signs_nothing(self):
        with open(self.report, "rb") as f:
            before = f.read()
        proc = self.sign("wrong horse")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("refused authentication", proc.stderr)
        self.assertIn(USER, proc.stderr)
        self.assertNotIn("wrong horse", proc.stderr + proc.stdout)
        with open(self.report, "rb") as f:
            self.assertEqual(f.read(), before)

    def test_only_an_engineer_signs_and_is_not_asked_a_password_otherwise(self):
        """The reported hole: anyone at the station could sign. A user outside the engineers' group
        (selftest.engineer_group; here "nogroup") is refused before the password is read."""
        others = os.path.join(self.work, "others.json")
        with open(others, "w") as f:
            json.dump({"selftest": {"engineer_group": "nogroup"}}, f)
        with open(self.report, "rb") as f:
            before = f.read()
        proc = subprocess.run([CLI, "report", "sign", self.report, "--meaning", "approved", "--config", others], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=60, env=self.env, start_new_session=True)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn(f"{USER} is not one of the station's engineers (group 'nogroup')", proc.stderr)
        self.assertNotIn("password", proc.stderr.lower().replace("--password-stdin", ""), "no password was asked for")
        with open(self.report, "rb") as f:
            self.assertEqual(f.read(), before)

    def test_the_right_password_completes_the_signature_block(self):
        proc = self.sign("right horse battery", "--json")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        with open(self.report, encoding="utf-8") as f:
            report = json.load(f)
        signature = report["signature"]
        self.assertEqual(signature["user"], USER)
        self.assertEqual(signature["meaning"], "reviewed and approved")
        self.assertIn("PAM", signature["authentication"])
        self.assertRegex(signature["signed_utc"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertEqual(json.loads(proc.stdout)["sha256"], report["sha256"])
        text = subprocess.run(["pdftotext", "-layout", self.report[:-5] + ".pdf", "-"], capture_output=True, text=True, check=True).stdout
        self.assertIn("reviewed and approved", text)
        self.assertIn("Signed electronically", text)
        self.assertIn(signature["printed_name"], text)
        self.assertNotIn("Not signed", text)
        again = self.sign("right horse battery")
        self.assertEqual(again.returncode, 1)
        self.assertIn("signed already", again.stderr)
        # The renewed hash holds: the next run into the folder takes the signed report as its baseline.
        with open(self.selftest(), encoding="utf-8") as f:
            self.assertEqual(json.load(f)["baseline_report"]["file"], os.path.basename(self.report))

    def test_a_signer_waits_for_the_folder_lock_of_another(self):
        folder = os.open(os.path.dirname(self.report), os.O_RDONLY)
        fcntl.flock(folder, fcntl.LOCK_EX)  # another signer in the middle of its read, check and write
        try:
            proc = subprocess.Popen([CLI, "report", "sign", self.report, "--meaning", "approved", "--password-stdin"], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env)
            proc.stdin.write("right horse battery\n")
            proc.stdin.close()
            # It waits: the kernel lists it blocked on the folder's lock ("->" in /proc/locks).
            deadline = time.monotonic() + 60
            while not blocked_on_a_lock(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            self.assertIsNone(proc.poll(), "it waits: it must not read the report while another replaces it")
            self.assertTrue(blocked_on_a_lock(proc.pid), "it waits on the folder's lock")
        finally:
            fcntl.flock(folder, fcntl.LOCK_UN)
            os.close(folder)
        self.assertEqual(proc.wait(timeout=60), 0, proc.stderr.read())
        with open(self.report, encoding="utf-8") as f:
            self.assertEqual(json.load(f)["signature"]["meaning"], "approved")

    def test_an_edited_report_is_not_signed(self):
        with open(self.report, encoding="utf-8") as f:
            report = json.load(f)
        report["verdict"] = "pass" if report["verdict"] == "fail" else "fail"
        with open(self.report, "w", encoding="utf-8") as f:
            json.dump(report, f)
        proc = self.sign("right horse battery")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("SHA-256 does not hold", proc.stderr)

    def test_without_a_terminal_it_asks_for_password_stdin(self):
        proc = subprocess.run([CLI, "report", "sign", self.report, "--meaning", "approved"], stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=60, env=self.env, start_new_session=True)
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertIn("--password-stdin", proc.stderr)


    def override(self, password):
        audit = os.path.join(self.work, "audit.log")
        config = os.path.join(self.work, "dead.json")
        with open(config, "w") as f:  # under the median RMS counts as dead: half the channels
            json.dump({"selftest": {"element_dead_rms_fraction": 1.0, "engineer_group": ENGINEERS}, "dicom": {"audit_file": audit, "nodes": []}}, f)
        reports = os.path.join(self.work, "overridden")
        proc = subprocess.run([CLI, "selftest", "--in-process", "--config", config, "--step", "element check", "--json", "--report", reports,
                               "--override", "phantom scan only; probe replacement ordered", "--password-stdin"],
                              input=password + "\n", capture_output=True, text=True, timeout=120, env=self.env)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)  # the test failed, overridden or not
        out = json.loads(proc.stdout)
        with open(out["report"], encoding="utf-8") as f:
            report = json.load(f)
        trail = open(audit, encoding="utf-8").read() if os.path.exists(audit) else ""
        text = subprocess.run(["pdftotext", "-raw", out["report"][:-5] + ".pdf", "-"], capture_output=True, text=True, check=True).stdout
        return out, report, trail, text

    def test_an_override_is_recorded_with_who_why_and_what(self):
        out, report, trail, text = self.override("right horse battery")
        self.assertEqual(report["verdict"], "fail")
        given = report["override"]
        self.assertEqual(given, out["override"])
        self.assertEqual((given["user"], given["reason"]), (USER, "phantom scan only; probe replacement ordered"))
        self.assertIn("element check", given["overrode"])
        self.assertIn("PAM", given["authentication"])
        self.assertIn("Override", text)
        self.assertIn("probe replacement ordered", text)
        self.assertIn("110127", trail)
        self.assertIn("probe replacement ordered", trail)

    def test_a_wrong_password_gives_no_override(self):
        out, report, trail, text = self.override("wrong horse")
        self.assertNotIn("override", report)
        self.assertNotIn("override", out)
        self.assertIn("refused authentication", out["problem"])
        self.assertNotIn("110127", trail)
        self.assertNotIn("Override", text)


if __name__ == "__main__":
    unittest.main()
