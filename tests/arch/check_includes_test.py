#!/usr/bin/env python3
"""Tests of the include checker itself: each rule fires on a planted violation and stays
quiet on the allowed forms. Run by CTest (label arch)."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

CHECKER = pathlib.Path(__file__).with_name("check_includes.py")


def run_checker(files: dict):
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
        proc = subprocess.run([sys.executable, str(CHECKER), str(root)], capture_output=True, text=True)
        return proc.returncode, proc.stdout


class CheckIncludesTest(unittest.TestCase):
    def test_qobject_in_core_header_fails(self):
        rc, out = run_checker({"core/util/include/sonolink/util/x.h": "#pragma once\n#include <QObject>\n"})
        self.assertEqual(rc, 1, out)
        self.assertIn("core/util/include/sonolink/util/x.h:2: no Qt in the engine", out)
        self.assertIn("#include <QObject>", out)

    def test_qt_module_path_and_quotes_in_transport_fail(self):
        rc, out = run_checker({"transport/sim/src/a.cpp": '#include "QtCore/QString"\n',
                               "transport/sim/src/b.cpp": "  #  include <QtNetwork>\n"})
        self.assertEqual(rc, 1, out)
        self.assertIn("transport/sim/src/a.cpp:1", out)
        self.assertIn("transport/sim/src/b.cpp:1", out)

    def test_cuda_header_outside_cuda_module_fails(self):
        rc, out = run_checker({"core/beamform/src/cpu.cpp": "#include <cuda_runtime.h>\n",
                               "app/x.cpp": "#include <cufft.h>\n",
                               "core/beamform/cuda/src/ok.cu": "#include <cuda_runtime.h>\n#include <cufft.h>\n"})
        self.assertEqual(rc, 1, out)
        self.assertIn("core/beamform/src/cpu.cpp:1: CUDA headers only", out)
        self.assertIn("app/x.cpp:1: CUDA headers only", out)
        self.assertNotIn("ok.cu", out)

    def test_cu_file_outside_cuda_module_fails(self):
        rc, out = run_checker({"core/pipeline/src/k.cu": "int x;\n"})
        self.assertEqual(rc, 1, out)
        self.assertIn("CUDA sources only", out)

    def test_transport_may_not_include_core_modules(self):
        rc, out = run_checker({"transport/api/include/x.h": '#include "sonolink/util/result.h"\n'
                                                             '#include "sonolink/pipeline/frame.h"\n'})
        self.assertEqual(rc, 1, out)
        self.assertIn("x.h:2: transport includes only", out)
        self.assertNotIn("x.h:1", out)

    def test_gui_may_not_include_engine_internals_or_qwt_outside_plot(self):
        rc, out = run_checker({"gui/views/v.cpp": '#include "sonolink/transport/link.h"\n#include <qwt_plot.h>\n',
                               "gui/plot/p.cpp": "#include <qwt_plot.h>\n#include <QWidget>\n"})
        self.assertEqual(rc, 1, out)
        self.assertIn("gui/views/v.cpp:1: gui reaches the engine only", out)
        self.assertIn("gui/views/v.cpp:2: Qwt only in gui/plot", out)
        self.assertNotIn("gui/plot/p.cpp", out)

    def test_core_may_not_include_gui(self):
        rc, out = run_checker({"core/engine/src/e.cpp": '#include "sonolink/gui/bridge/x.h"\n'})
        self.assertEqual(rc, 1, out)
        self.assertIn("core never includes gui", out)

    def test_clean_tree_passes(self):
        rc, out = run_checker({"core/util/include/sonolink/util/result.h": "#include <tl/expected.hpp>\n#include <string>\n",
                               "transport/rdma/src/r.cpp": "#include <infiniband/verbs.h>\n#include \"sonolink/util/log.h\"\n",
                               "gui/plot/src/p.cpp": "#include <QPen>\n#include <qwt_plot.h>\n",
                               "core/util/src/q.cpp": "// QObject is mentioned only in a comment\n"})
        self.assertEqual(rc, 0, out)
        self.assertIn("4 files checked, 0 violation(s)", out)


if __name__ == "__main__":
    unittest.main()
