#!/usr/bin/env python3
"""Tests of the include checker itself: each rule fires on a planted violation and stays
quiet on the allowed forms. Every planted tree carries a small target table
(docs/architecture.md) and CMakeLists.txt files that agree with it unless a test says
otherwise. Run by CTest (label arch)."""
import dataclasses
import pathlib
import subprocess
import sys
import tempfile
import unittest

CHECKER = pathlib.Path(__file__).with_name("check_includes.py")


@dataclasses.dataclass
class T:
    """A planted target: links are short names (`util`); a trailing "?" makes a link optional,
    written `(+ x)` in the table and linked inside an if() block in CMake."""
    name: str
    folder: str
    public: list = dataclasses.field(default_factory=list)
    private: list = dataclasses.field(default_factory=list)
    interface: bool = False

    @property
    def executable(self):
        return not self.name.startswith("sonolink_")


DEFAULT_TARGETS = [
    T("sonolink_util", "core/util"),
    T("sonolink_pipeline", "core/pipeline", ["util"]),
    T("sonolink_beamform", "core/beamform", ["util"]),
    T("sonolink_beamform_cuda", "core/beamform/cuda", ["util", "beamform"]),
    T("sonolink_ingest", "core/ingest", ["transport_api", "util"]),
    T("sonolink_record", "core/record", ["beamform", "ingest", "util"]),
    T("sonolink_dicom", "core/dicom", ["util"]),
    T("sonolink_engine_api", "core/engine/api", ["util"]),
    T("sonolink_engine", "core/engine", ["engine_api", "util", "ingest", "beamform", "record", "dicom",
                                         "transport_api"]),
    T("sonolink_transport_protocol", "transport/protocol", ["util"]),
    T("sonolink_transport_api", "transport/api", ["transport_protocol", "util"], interface=True),
    T("sonolink_transport_sim", "transport/sim", ["transport_api", "util"]),
    T("sonolink_transport_rdma", "transport/rdma", ["transport_api", "util"]),
    T("sonolink_gui_plot", "gui/plot"),
    T("sonolink_gui", "gui/views", [], ["engine_api", "util"]),
    T("sonolink-cli", "app/cli", [], ["engine", "transport_sim", "util", "transport_rdma?"]),
]

TABLE_HEADER_LINE = 5


def arch_doc(targets):
    """docs/architecture.md with the target table (header on TABLE_HEADER_LINE), third-party
    names mixed in as in the real one."""
    def names(links):
        return [f"(+ {n[:-1]})" if n.endswith("?") else n for n in links]
    lines = ["# SonoLink architecture (planted)", "", "## Modules and targets", "",
             "| target | folder | links (PUBLIC / PRIVATE) | built when |", "|---|---|---|---|"]
    for t in targets:
        if t.interface:
            links = ", ".join(names(t.public)) + " (header-only)"
        elif t.executable:
            links = ", ".join(names(t.private) + ["CLI11"])
        else:
            links = ", ".join(names(t.public) + ["fmt"]) + " / " + ", ".join(names(t.private) + ["spdlog (logging)"])
        lines.append(f"| `{t.name}` | {t.folder} | {links} | always |")
    return "\n".join(lines + ["", "## Rules", ""]) + "\n"


def row_line(targets, name):
    return TABLE_HEADER_LINE + 2 + [t.name for t in targets].index(name)


def cmake_files(targets):
    """CMakeLists.txt files defining the targets: calls over several lines, comments, if() blocks."""
    files, app = {}, []
    for t in targets:
        deps = [f"sonolink::{n.rstrip('?')}" for n in t.private if not n.endswith("?")]
        optional = [f"sonolink::{n[:-1]}" for n in t.public + t.private if n.endswith("?")]
        if t.executable:
            app.append(f"add_executable({t.name} {t.folder.removeprefix('app/')}/main.cpp)\n"
                       f"target_link_libraries({t.name} PRIVATE\n  {' '.join(deps)}\n  CLI11::CLI11)  # sonolink::nothing\n")
            if optional:
                app.append(f"if(SONOLINK_HAVE_RDMA)\n  target_link_libraries({t.name} PRIVATE {' '.join(optional)})\nendif()\n")
            continue
        public = " ".join(f"sonolink::{n}" for n in t.public if not n.endswith("?"))
        text = (f"# {t.name}: planted (a comment naming sonolink::image must not count)\n"
                f"sonolink_add_library(NAME {t.name.removeprefix('sonolink_')}{' INTERFACE' if t.interface else ''}\n"
                f"  SOURCES src/x.cpp  # (a comment with parentheses)\n"
                f"  PUBLIC_DEPS {public}\n              fmt::fmt\n"
                f"  PRIVATE_DEPS {' '.join(deps)} spdlog::spdlog)\n")
        if optional:
            text += f"if(SONOLINK_HAVE_RDMA)\n  target_link_libraries({t.name} PRIVATE {' '.join(optional)})\nendif()\n"
        files[f"{t.folder}/CMakeLists.txt"] = text
    if app:
        files["app/CMakeLists.txt"] = "# app: the executables\n" + "\n".join(app)
    return files


def run_checker(files: dict, targets=None, cmake_targets=None, doc=None):
    """Plants files, a table of targets (DEFAULT_TARGETS) and CMake files of cmake_targets
    (the same targets) into a temporary tree and runs the checker on it."""
    targets = DEFAULT_TARGETS if targets is None else targets
    cmake_targets = targets if cmake_targets is None else cmake_targets
    planted = {"docs/architecture.md": arch_doc(targets) if doc is None else doc, **cmake_files(cmake_targets), **files}
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for t in targets:
            (root / t.folder).mkdir(parents=True, exist_ok=True)
        for rel, text in planted.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
        proc = subprocess.run([sys.executable, str(CHECKER), str(root)], capture_output=True, text=True)
        return proc.returncode, proc.stdout


PUBLIC_HEADERS = {
    "core/util/include/sonolink/util/result.h": "#pragma once\n",
    "core/engine/api/include/sonolink/engine/engine.h": '#pragma once\n#include "sonolink/util/result.h"\n',
    "core/engine/include/sonolink/engine/engine_backends.h": '#pragma once\n#include "sonolink/engine/engine.h"\n',
    "transport/api/include/sonolink/transport/link.h": "#pragma once\n",
    "core/ingest/include/sonolink/ingest/frame.h": '#pragma once\n#include "sonolink/transport/link.h"\n',
    "core/record/include/sonolink/record/recorder.h": '#pragma once\n#include "sonolink/ingest/frame.h"\n',
    "core/beamform/include/sonolink/beamform/beamform_types.h": "#pragma once\n",
}
ALLOW = "module allow-list"
FACADE = "gui reaches the engine only through its facade"


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
                               "app/cli/x.cpp": "#include <cufft.h>\n",
                               "core/beamform/cuda/src/ok.cu": "#include <cuda_runtime.h>\n#include <cufft.h>\n"})
        self.assertEqual(rc, 1, out)
        self.assertIn("core/beamform/src/cpu.cpp:1: CUDA headers only", out)
        self.assertIn("app/cli/x.cpp:1: CUDA headers only", out)
        self.assertNotIn("ok.cu", out)

    def test_cuda_header_in_a_cuda_modules_public_header_fails(self):
        rc, out = run_checker({"core/beamform/cuda/include/sonolink/beamform/cuda/api.h": "#include <cuda_runtime.h>\n",
                               "core/selftest/cuda/src/k.cu": "#include <cuda_runtime.h>\n"})
        self.assertEqual(rc, 1, out)
        self.assertIn("core/beamform/cuda/include/sonolink/beamform/cuda/api.h:1: CUDA headers only", out)
        self.assertNotIn("k.cu:1: CUDA", out)

    def test_cu_file_outside_cuda_module_fails(self):
        rc, out = run_checker({"core/pipeline/src/k.cu": "int x;\n"})
        self.assertEqual(rc, 1, out)
        self.assertIn("CUDA sources only", out)

    def test_transport_may_not_include_core_modules(self):
        rc, out = run_checker({"core/util/include/sonolink/util/result.h": "#pragma once\n",
                               "transport/api/include/x.h": '#include "sonolink/util/result.h"\n'
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
                               "transport/rdma/src/r.cpp": "#include <infiniband/verbs.h>\n#include \"sonolink/util/result.h\"\n",
                               "gui/plot/src/p.cpp": "#include <QPen>\n#include <qwt_plot.h>\n",
                               "core/util/src/q.cpp": "// QObject is mentioned only in a comment\n"})
        self.assertEqual(rc, 0, out)
        self.assertIn("4 files checked, 0 violation(s)", out)

    # --- the per-module allow-list ---------------------------------------------------------

    def test_gui_through_the_facade_passes(self):
        rc, out = run_checker({**PUBLIC_HEADERS, "gui/views/v.cpp": '#include "sonolink/engine/engine.h"\n'
                                                                     '#include "sonolink/util/result.h"\n'})
        self.assertEqual(rc, 0, out)
        self.assertIn(", 0 violation(s)", out)

    def test_gui_beyond_the_facade_fails(self):
        cases = [('"sonolink/transport/link.h"', [ALLOW, FACADE], "sonolink_transport_api"),
                 ('"sonolink/ingest/frame.h"', [ALLOW], "sonolink_ingest"),
                 ('"sonolink/record/recorder.h"', [ALLOW], "sonolink_record"),
                 ('"sonolink/beamform/beamform_types.h"', [ALLOW, FACADE], "sonolink_beamform"),
                 ('"sonolink/engine/engine_backends.h"', [ALLOW], "sonolink_engine"),
                 ("<dcmtk/dcmdata/dctk.h>", [FACADE], None)]
        for include, rules, owner in cases:
            with self.subTest(include=include):
                rc, out = run_checker({**PUBLIC_HEADERS,
                                       "gui/views/v.cpp": f'#include "sonolink/engine/engine.h"\n#include {include}\n'})
                self.assertEqual(rc, 1, out)
                self.assertNotIn("gui/views/v.cpp:1:", out)
                for rule in rules:
                    self.assertIn(f"gui/views/v.cpp:2: {rule}: ", out)
                if owner:
                    self.assertIn(f"sonolink_gui may not include {include.strip(chr(34))} ({owner}'s); "
                                  "it sees only its own headers and sonolink_engine_api, sonolink_util", out)
                self.assertIn(f", {len(rules)} violation(s)", out)

    def test_gui_may_not_include_backend_libraries(self):
        for include in ("<infiniband/verbs.h>", "<rdma/rdma_cma.h>", "<hdf5.h>", "<H5Cpp.h>", "<isa-l.h>",
                        "<cuda_runtime.h>"):
            with self.subTest(include=include):
                rc, out = run_checker({"gui/views/v.cpp": f"#include <QWidget>\n#include {include}\n"})
                self.assertEqual(rc, 1, out)
                self.assertIn("gui/views/v.cpp:2: ", out)
                self.assertNotIn("gui/views/v.cpp:1:", out)

    def test_core_module_outside_its_deps_fails(self):
        rc, out = run_checker({**PUBLIC_HEADERS, "core/dicom/src/x.cpp": '#include "sonolink/util/result.h"\n'
                                                                          '#include "sonolink/engine/engine.h"\n'})
        self.assertEqual(rc, 1, out)
        self.assertIn("core/dicom/src/x.cpp:2: module allow-list: sonolink_dicom may not include "
                      "sonolink/engine/engine.h (sonolink_engine_api's); it sees only its own headers and sonolink_util", out)
        self.assertIn(", 1 violation(s)", out)

    def test_nested_folder_belongs_to_the_longest_prefix(self):
        rc, out = run_checker({**PUBLIC_HEADERS,
                               "core/engine/api/src/e.cpp": '#include "sonolink/engine/engine.h"\n'
                                                            '#include "sonolink/engine/engine_backends.h"\n'})
        self.assertEqual(rc, 1, out)
        self.assertIn("core/engine/api/src/e.cpp:2: module allow-list: sonolink_engine_api may not include "
                      "sonolink/engine/engine_backends.h (sonolink_engine's)", out)
        self.assertIn(", 1 violation(s)", out)

    def test_transitive_public_dep_is_visible_private_is_not(self):
        targets = [T("sonolink_a", "core/a", [], ["b"]), T("sonolink_b", "core/b", ["c"], ["d"]),
                   T("sonolink_c", "core/c"), T("sonolink_d", "core/d")]
        rc, out = run_checker({"core/b/include/sonolink/b/b.h": "#pragma once\n",
                               "core/c/include/sonolink/c/c.h": "#pragma once\n",
                               "core/d/include/sonolink/d/d.h": "#pragma once\n",
                               "core/a/src/a.cpp": '#include "sonolink/b/b.h"\n#include "sonolink/c/c.h"\n'
                                                   '#include <sonolink/d/d.h>\n'}, targets)
        self.assertEqual(rc, 1, out)
        self.assertIn("core/a/src/a.cpp:3: module allow-list: sonolink_a may not include sonolink/d/d.h "
                      "(sonolink_d's); it sees only its own headers and sonolink_b, sonolink_c", out)
        self.assertIn(", 1 violation(s)", out)

    def test_private_header_of_another_module_fails(self):
        rc, out = run_checker({"core/ingest/src/frame_assembler.h": "#pragma once\n",
                               "core/engine/src/e.cpp": '#include "sonolink/ingest/frame_assembler.h"\n'})
        self.assertEqual(rc, 1, out)
        self.assertIn("core/engine/src/e.cpp:1: module allow-list: no public header "
                      "sonolink/ingest/frame_assembler.h (a private header of another module, or a typo)", out)

    def test_header_in_a_folder_without_a_row_is_named(self):
        targets = [t for t in DEFAULT_TARGETS if t.name != "sonolink_engine_api"]
        targets = [T("sonolink_gui", "gui/views", [], ["util"]) if t.name == "sonolink_gui" else t for t in targets]
        targets = [T("sonolink_engine", "core/engine", ["util"]) if t.name == "sonolink_engine" else t for t in targets]
        rc, out = run_checker({**PUBLIC_HEADERS, "gui/views/v.cpp": '#include "sonolink/engine/engine.h"\n'}, targets)
        self.assertEqual(rc, 1, out)
        self.assertIn("gui/views/v.cpp:1: module allow-list: no public header sonolink/engine/engine.h (a private "
                      "header of another module, or a typo); it lies in core/engine/api/include, which is no "
                      "target's include/", out)

    def test_source_outside_every_target_fails(self):
        rc, out = run_checker({"gui/widgets/w.cpp": "#include <QWidget>\n", "app/tool.cpp": "int main() {}\n"})
        self.assertEqual(rc, 1, out)
        self.assertIn("gui/widgets/w.cpp:1: module allow-list: not in any target of docs/architecture.md", out)
        self.assertIn("app/tool.cpp:1: module allow-list: not in any target of docs/architecture.md", out)
        self.assertIn(", 2 violation(s)", out)

    def test_tests_may_include_anything_but_keep_the_global_rules(self):
        rc, out = run_checker({**PUBLIC_HEADERS,
                               "tests/unit/t.cpp": '#include "sonolink/engine/engine_backends.h"\n'
                                                   '#include "sonolink/ingest/frame_assembler.h"\n',
                               "tests/unit/q.cpp": "#include <cufft.h>\n"})
        self.assertEqual(rc, 1, out)
        self.assertIn("tests/unit/q.cpp:1: CUDA headers only", out)
        self.assertNotIn("tests/unit/t.cpp", out)
        self.assertIn(", 1 violation(s)", out)

    def test_clean_planted_tree_passes(self):
        rc, out = run_checker({**PUBLIC_HEADERS,
                               "core/engine/src/engine.cpp": '#include "sonolink/engine/engine_backends.h"\n'
                                                             '#include "sonolink/record/recorder.h"\n'
                                                             '#include "sonolink/transport/link.h"\n',
                               "core/record/src/r.cpp": '#include "sonolink/transport/link.h"\n#include <H5Cpp.h>\n',
                               "app/cli/main.cpp": '#include "sonolink/engine/engine.h"\n#include "sonolink/ingest/frame.h"\n',
                               "gui/views/v.cpp": '#include "sonolink/engine/engine.h"\n'})
        self.assertEqual(rc, 0, out)
        self.assertIn(f"{len(PUBLIC_HEADERS) + 4} files checked, 0 violation(s)", out)

    # --- the table itself, and the table against CMake -------------------------------------

    def test_missing_table_fails(self):
        rc, out = run_checker({}, doc="# SonoLink architecture\n\nNo table here.\n")
        self.assertEqual(rc, 1, out)
        self.assertIn("docs/architecture.md:1: target table: no table", out)

    def test_unknown_target_named_as_dep_fails(self):
        targets = DEFAULT_TARGETS[:-2] + [T("sonolink_gui", "gui/views", [], ["engine_facade", "util"])]
        rc, out = run_checker({}, targets, DEFAULT_TARGETS[:-2] + [T("sonolink_gui", "gui/views", [], ["util"])])
        self.assertEqual(rc, 1, out)
        self.assertIn(f"docs/architecture.md:{row_line(targets, 'sonolink_gui')}: target table: "
                      "sonolink_gui links engine_facade, but sonolink_engine_facade has no row", out)
        self.assertIn(", 1 violation(s)", out)

    def test_table_folder_that_does_not_exist_fails(self):
        targets = DEFAULT_TARGETS + [T("sonolink_image", "core/image", ["util"])]
        doc = arch_doc(targets).replace("| core/image |", "| core/imaging |")
        rc, out = run_checker({}, DEFAULT_TARGETS, doc=doc)
        self.assertEqual(rc, 1, out)
        self.assertIn(f"docs/architecture.md:{row_line(targets, 'sonolink_image')}: target table: "
                      "sonolink_image: folder 'core/imaging' does not exist", out)

    def test_cmake_dep_missing_from_table_fails(self):
        cmake = [T("sonolink_dicom", "core/dicom", ["util"], ["beamform"]) if t.name == "sonolink_dicom" else t
                 for t in DEFAULT_TARGETS]
        rc, out = run_checker({}, DEFAULT_TARGETS, cmake)
        self.assertEqual(rc, 1, out)
        self.assertIn(f"docs/architecture.md:{row_line(DEFAULT_TARGETS, 'sonolink_dicom')}: target table disagrees "
                      "with core/dicom/CMakeLists.txt: sonolink_dicom: CMake has {util / beamform}, "
                      "the table has {util} (only in CMake: beamform)", out)
        self.assertIn(", 1 violation(s)", out)

    def test_public_dep_listed_as_private_fails(self):
        table = [T("sonolink_record", "core/record", ["ingest", "util"], ["beamform"]) if t.name == "sonolink_record"
                 else t for t in DEFAULT_TARGETS]
        rc, out = run_checker({}, table, DEFAULT_TARGETS)
        self.assertEqual(rc, 1, out)
        self.assertIn(f"docs/architecture.md:{row_line(table, 'sonolink_record')}: target table disagrees with "
                      "core/record/CMakeLists.txt: sonolink_record: CMake has {beamform, ingest, util}, "
                      "the table has {ingest, util / beamform} (PUBLIC in CMake, PRIVATE in the table: beamform)", out)
        self.assertIn(", 1 violation(s)", out)

    def test_cmake_target_missing_from_table_fails(self):
        cmake = DEFAULT_TARGETS + [T("sonolink_image", "core/image", ["util"])]
        rc, out = run_checker({}, DEFAULT_TARGETS, cmake)
        self.assertEqual(rc, 1, out)
        self.assertIn(f"docs/architecture.md:{TABLE_HEADER_LINE}: target table disagrees with "
                      "core/image/CMakeLists.txt: sonolink_image: CMake defines it (line 2), the table has no row", out)
        self.assertIn(", 1 violation(s)", out)

    def test_table_target_missing_from_cmake_fails(self):
        cmake = [t for t in DEFAULT_TARGETS if t.name != "sonolink_pipeline"]
        rc, out = run_checker({}, DEFAULT_TARGETS, cmake)
        self.assertEqual(rc, 1, out)
        self.assertIn(f"docs/architecture.md:{row_line(DEFAULT_TARGETS, 'sonolink_pipeline')}: target table "
                      "disagrees with CMake: sonolink_pipeline: the table has a row, no CMakeLists.txt", out)

    def test_conditional_link_of_an_executable_counts(self):
        cmake = [T("sonolink-cli", "app/cli", [], ["engine", "transport_sim", "util"]) if t.name == "sonolink-cli"
                 else t for t in DEFAULT_TARGETS]
        rc, out = run_checker({}, DEFAULT_TARGETS, cmake)
        self.assertEqual(rc, 1, out)
        self.assertIn(f"docs/architecture.md:{row_line(DEFAULT_TARGETS, 'sonolink-cli')}: target table disagrees "
                      "with app/CMakeLists.txt: sonolink-cli: CMake has {engine, transport_sim, util}, "
                      "the table has {engine, transport_rdma, transport_sim, util} (only in the table: transport_rdma)", out)
        self.assertIn(", 1 violation(s)", out)

    def test_consistent_table_and_cmake_pass(self):
        rc, out = run_checker({})
        self.assertEqual(rc, 0, out)
        self.assertIn("0 files checked, 0 violation(s)", out)


if __name__ == "__main__":
    unittest.main()
