#!/usr/bin/env python3
"""Checks SonoLink's dependency rules on #include lines (docs/architecture.md, "Rules").

Usage: check_includes.py SOURCE_ROOT
Prints one line per violation (file:line: rule: detail) and exits 1 if there is any, 0 otherwise.

The single source of truth is the target table in docs/architecture.md ("Modules and targets",
header `| target | folder | links (PUBLIC / PRIVATE) | built when |`). From it this script takes
every target, its folder and its links to our other targets (`x` means `sonolink_x`; left of
"/" PUBLIC, right of it PRIVATE; names in parentheses count too; third-party names are skipped,
and a name that looks like one of ours, e.g. `engine_facade` or `sonolink_x`, but has no row
is a fault of the table).

Rules, each checked on every source file (.h .hpp .hh .cpp .cc .cxx .cu .cuh .inl) outside
build/ and .git/:
  global     no Qt in core or transport; CUDA headers and .cu files only in the CUDA modules'
             sources (core/beamform/cuda/src, core/selftest/cuda/src: their public headers are
             plain C++);
             transport includes only sonolink/util and sonolink/transport; core never includes
             gui; gui reaches the engine only through its facade (none of its internals, no DCMTK,
             verbs/rdmacm, HDF5 or ISA-L); Qwt only in gui/plot.
  allow-list every source file under core/, transport/, gui/, app/ belongs to the target with the
             longest matching folder, and includes a sonolink/ header only if that header lies in
             <folder>/include of its own target or of a target it sees: its direct links plus,
             transitively, the PUBLIC links of every target it sees (CMake's usage requirements).
             tests/ may include anything (the global rules still apply there).
  table      the table is well formed (known targets, existing folders) and agrees with the
             CMakeLists.txt files under core/, transport/, gui/, app/: the same targets, each with
             the same links to our targets, PUBLIC and PRIVATE alike (an executable has no
             dependents, so only its set of links is compared).

The target graph enforces the same rules at link time; this check names the offending line
before a build even starts, and catches what the linker cannot (a header-only include of Qt in
core, say, or a header reached through a dependency nobody declared).
"""
import dataclasses
import os
import pathlib
import re
import sys

ARCH_DOC = "docs/architecture.md"
MODULE_TREES = ("core/", "transport/", "gui/", "app/")
SKIPPED_TREES = ("build", ".git")
SOURCE_SUFFIXES = {".h", ".hpp", ".hh", ".cpp", ".cc", ".cxx", ".cu", ".cuh", ".inl"}
CUDA_SOURCES = ("core/beamform/cuda/src/", "core/selftest/cuda/src/")

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
QT = re.compile(r'^(Q[A-Z]\w*|Qt[A-Z]\w*/.*|Qt[A-Z]\w*|qwt.*)(\.h)?$')
CUDA = re.compile(r'^(cuda(_runtime(_api)?|_fp16|_bf16|\.h|_profiler_api|Profiler)?.*|cufft.*|curand.*|'
                  r'cublas.*|cusparse.*|cuComplex\.h|nvrtc\.h|device_launch_parameters\.h|'
                  r'thrust/.*|cub/.*|cuda/.*)$')
QWT = re.compile(r'^qwt[_\w]*\.h$')
GUI_FORBIDDEN = re.compile(r'^sonolink/(transport|beamform|dicom|pipeline|selftest|config)/')
GUI_FORBIDDEN_LIBRARIES = re.compile(r'^(dcmtk/|infiniband/|rdma/|hdf5(_hl)?\.h$|H5\w*\.h$|isa-l)')
TRANSPORT_ALLOWED = re.compile(r'^sonolink/(util|transport)/')

FACADE_RULE = "gui reaches the engine only through its facade"
ALLOW_LIST_RULE = "module allow-list"
TABLE_RULE = "target table"

TABLE_HEADER = re.compile(r'^\|\s*target\s*\|\s*folder\s*\|\s*links\b[^|]*\|\s*built when\s*\|\s*$')
TABLE_SEPARATOR = re.compile(r'^\|(\s*:?-+:?\s*\|)+\s*$')
TARGET_NAME = re.compile(r'^sonolink(_[a-z0-9_]+|-[a-z0-9-]+)?$')
LINK_WORD = re.compile(r'[A-Za-z0-9][\w:.+-]*')
OUR_LOOKING = re.compile(r'^[a-z][a-z0-9]*(_[a-z0-9]+)*$')


# --- the global rules ---------------------------------------------------------------------

def rules_for(rel: str):
    """Yields (rule name, predicate on include text) that apply to a file at rel."""
    if rel.startswith(("core/", "transport/")):
        yield "no Qt in the engine (core, transport)", lambda inc: bool(QT.match(inc))
    if not rel.startswith(CUDA_SOURCES):
        yield f"CUDA headers only in {', '.join(CUDA_SOURCES)}", lambda inc: bool(CUDA.match(inc))
    if rel.startswith("transport/"):
        yield "transport includes only sonolink/util and sonolink/transport", \
            lambda inc: inc.startswith("sonolink/") and not TRANSPORT_ALLOWED.match(inc)
    if rel.startswith("core/"):
        yield "core never includes gui", lambda inc: inc.startswith("sonolink/gui/")
    if rel.startswith("gui/"):
        yield FACADE_RULE, lambda inc: bool(GUI_FORBIDDEN.match(inc) or GUI_FORBIDDEN_LIBRARIES.match(inc))
    if rel.startswith("gui/") and not rel.startswith("gui/plot/"):
        yield "Qwt only in gui/plot", lambda inc: bool(QWT.match(inc))


# --- the target table ---------------------------------------------------------------------

@dataclasses.dataclass
class Target:
    name: str              # sonolink_engine, sonolink-cli
    folder: str            # core/engine
    line: int              # its row in docs/architecture.md
    links: dict            # our target -> "PUBLIC" | "PRIVATE"

    @property
    def executable(self) -> bool:
        return not self.name.startswith("sonolink_")

    def public_links(self):
        return {dep for dep, visibility in self.links.items() if visibility == "PUBLIC"}


@dataclasses.dataclass
class Table:
    targets: dict          # name -> Target
    header_line: int
    problems: list         # violation lines


def table_rows(lines):
    """Yields (line number, cells) of the target table's body rows; None first if no table."""
    for index, line in enumerate(lines):
        if TABLE_HEADER.match(line.strip()):
            yield index + 1, None
            for number, row in enumerate(lines[index + 1:], start=index + 2):
                row = row.strip()
                if not row.startswith("|"):
                    return
                if not TABLE_SEPARATOR.match(row):
                    yield number, [cell.strip() for cell in row.strip("|").split("|")]
            return


def read_table(root: pathlib.Path) -> Table:
    """Parses the target table; what is wrong with it comes back as problems."""
    path = root / ARCH_DOC
    if not path.is_file():
        return Table({}, 1, [f"{ARCH_DOC}:1: {TABLE_RULE}: missing (it lists every target and its links)"])
    rows = list(table_rows(path.read_text(errors="replace").splitlines()))
    if not rows:
        return Table({}, 1, [f"{ARCH_DOC}:1: {TABLE_RULE}: no table with the header "
                             "| target | folder | links (PUBLIC / PRIVATE) | built when |"])
    table = Table({}, rows[0][0], [])
    cells_of = {}
    for number, cells in rows[1:]:
        target = read_row(root, table, number, cells)
        if target:
            table.targets[target.name] = target
            cells_of[target.name] = cells[2]
    stems = our_stems(root, table.targets)
    for target in table.targets.values():
        target.links = read_links(table, target, cells_of[target.name], stems)
    return table


def read_row(root: pathlib.Path, table: Table, number: int, cells):
    """The row's Target without its links, or None (with the problem noted) if the row is broken."""
    def problem(text):
        table.problems.append(f"{ARCH_DOC}:{number}: {TABLE_RULE}: {text}")
    if len(cells) != 4:
        return problem(f"a row has {len(cells)} cells, the header 4")
    name, folder = cells[0].strip("` "), cells[1].strip("` ").rstrip("/")
    if not TARGET_NAME.match(name):
        return problem(f"{name!r} is not a target name (sonolink_<module>, sonolink-<tool> or sonolink)")
    if name in table.targets:
        return problem(f"{name} has two rows")
    if not folder.startswith(MODULE_TREES) or not (root / folder).is_dir():
        return problem(f"{name}: folder {folder!r} does not exist under core/, transport/, gui/ or app/")
    owner = next((t.name for t in table.targets.values() if t.folder == folder), None)
    if owner:
        return problem(f"{name}: folder {folder} is already {owner}'s")
    return Target(name, folder, number, {})


def our_stems(root: pathlib.Path, targets):
    """Words that a name of one of our targets starts with: module names and folder names."""
    stems = {name.removeprefix("sonolink_").split("_")[0] for name in targets if name.startswith("sonolink_")}
    for tree in MODULE_TREES:
        stems.add(tree.rstrip("/"))
        if (root / tree).is_dir():
            stems.update(entry.name for entry in (root / tree).iterdir() if entry.is_dir())
    return stems


def read_links(table: Table, target: Target, cell: str, stems):
    """Our targets named in a links cell: left of "/" PUBLIC, right of it PRIVATE."""
    public, _, private = cell.replace("`", "").partition("/")
    links = {}
    for visibility, text in (("PRIVATE", private), ("PUBLIC", public)):
        for word in LINK_WORD.findall(text):
            dep = our_target(table, target, word, stems)
            if dep:
                links[dep] = visibility
    return links


def our_target(table: Table, target: Target, word: str, stems):
    """sonolink_<word> if that is a target; None for a third-party name; a problem if it looks
    like one of ours but has no row."""
    explicit = word.startswith(("sonolink_", "sonolink::"))
    short = word.removeprefix("sonolink::").removeprefix("sonolink_")
    name = f"sonolink_{short}"
    if name in table.targets:
        return name if name != target.name else None
    if explicit or (OUR_LOOKING.match(short) and short.split("_")[0] in stems):
        table.problems.append(f"{ARCH_DOC}:{target.line}: {TABLE_RULE}: {target.name} links {short}, "
                              f"but {name} has no row")
    return None


def visible_from(table: Table, name: str):
    """The targets whose public headers a file of target `name` may include (besides its own)."""
    seen, todo = set(), list(table.targets[name].links)
    while todo:
        dep = todo.pop()
        if dep not in seen and dep in table.targets:
            seen.add(dep)
            todo.extend(table.targets[dep].public_links())
    seen.discard(name)
    return seen


def owner_of(table: Table, rel: str):
    """The target with the longest folder that contains rel, or None."""
    owners = [t for t in table.targets.values() if rel.startswith(t.folder + "/")]
    return max(owners, key=lambda t: len(t.folder)).name if owners else None


# --- the CMake side -----------------------------------------------------------------------

@dataclasses.dataclass
class CMakeTarget:
    name: str
    path: str              # the CMakeLists.txt that defines it
    line: int
    executable: bool
    helper: bool           # defined by sonolink_add_library (its folder is the file's folder)
    links: dict = dataclasses.field(default_factory=dict)


CMAKE_NOISE = re.compile(r'("(?:[^"\\]|\\.)*")|#\[(=*)\[.*?\]\2\]|#[^\n]*', re.S)
CMAKE_COMMAND = re.compile(r'([A-Za-z_]\w*)[ \t]*\(')
CMAKE_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[()]|[^\s()"]+')
CMAKE_OUR_DEP = re.compile(r'sonolink::(\w+)|^(sonolink_\w+)$')
LINK_KEYWORDS = {"PUBLIC": "PUBLIC", "INTERFACE": "PUBLIC", "LINK_PUBLIC": "PUBLIC",
                 "LINK_INTERFACE_LIBRARIES": "PUBLIC", "PRIVATE": "PRIVATE", "LINK_PRIVATE": "PRIVATE"}


def without_comments(text: str) -> str:
    """CMake text with comments blanked (newlines kept, so line numbers stay right)."""
    return CMAKE_NOISE.sub(lambda m: m.group(1) or "\n" * m.group(0).count("\n"), text)


def cmake_commands(text: str):
    """Yields (command name in lower case, arguments, line) of every call, across lines."""
    text, position = without_comments(text), 0
    while match := CMAKE_COMMAND.search(text, position):
        depth, arguments, position = 1, [], len(text)
        for token in CMAKE_TOKEN.finditer(text, match.end()):
            depth += {"(": 1, ")": -1}.get(token.group(0), 0)
            if depth == 0:
                position = token.end()
                break
            if token.group(0) not in ("(", ")"):
                arguments.append(token.group(0).strip('"'))
        yield match.group(1).lower(), arguments, text.count("\n", 0, match.start()) + 1


def our_deps(arguments, visibility):
    """(sonolink_x, visibility) for each of our targets among link arguments."""
    for argument in arguments:
        for alias, plain in CMAKE_OUR_DEP.findall(argument):
            yield (f"sonolink_{alias}" if alias else plain), visibility


def helper_library(arguments, rel: str, line: int):
    """The CMakeTarget of a sonolink_add_library(NAME x ...) call."""
    lists, current = {"NAME": [], "PUBLIC_DEPS": [], "PRIVATE_DEPS": []}, None
    for argument in arguments:
        if argument in ("NAME", "SOURCES", "PUBLIC_DEPS", "PRIVATE_DEPS"):
            current = lists.setdefault(argument, [])
        elif argument in ("QT", "INTERFACE"):
            current = None
        elif current is not None:
            current.append(argument)
    target = CMakeTarget(f"sonolink_{''.join(lists['NAME'][:1])}", rel, line, False, True)
    private = [] if "INTERFACE" in arguments else lists["PRIVATE_DEPS"]   # as the helper does
    add_links(target, our_deps(private, "PRIVATE"))
    add_links(target, our_deps(lists["PUBLIC_DEPS"], "PUBLIC"))
    return target


def add_links(target: CMakeTarget, deps):
    for dep, visibility in deps:
        if target.links.get(dep) != "PUBLIC":
            target.links[dep] = "PRIVATE" if target.executable else visibility


def read_cmake(root: pathlib.Path):
    """Every target the CMakeLists.txt files under the module trees define, with its links."""
    targets, link_calls = {}, []
    for path in sorted(p for tree in MODULE_TREES for p in (root / tree).rglob("CMakeLists.txt")):
        rel = path.relative_to(root).as_posix()
        for command, arguments, line in cmake_commands(path.read_text(errors="replace")):
            defined = define_target(command, arguments, rel, line)
            if defined:
                targets.setdefault(defined.name, defined)
            elif command == "target_link_libraries" and arguments:
                link_calls.append(arguments)
    for arguments in link_calls:
        target = targets.get(arguments[0].replace("sonolink::", "sonolink_"))
        visibility = "PUBLIC"
        for argument in arguments[1:]:
            visibility = LINK_KEYWORDS.get(argument, visibility)
            if target and argument not in LINK_KEYWORDS:
                add_links(target, our_deps([argument], visibility))
    return targets


def define_target(command: str, arguments, rel: str, line: int):
    """The CMakeTarget a call defines, or None."""
    if command == "sonolink_add_library":
        return helper_library(arguments, rel, line)
    if command in ("add_executable", "add_library") and arguments and arguments[0].startswith("sonolink") \
            and not {"ALIAS", "IMPORTED"} & set(arguments[1:2]):
        return CMakeTarget(arguments[0], rel, line, command == "add_executable", False)
    return None


def describe(links: dict, executable: bool) -> str:
    """{a, b / c}: PUBLIC left of "/", PRIVATE right of it, as in the table."""
    def short(names):
        return ", ".join(sorted(name.removeprefix("sonolink_") for name in names))
    public = [dep for dep, visibility in links.items() if visibility == "PUBLIC"]
    private = [dep for dep, visibility in links.items() if visibility == "PRIVATE"]
    if executable or not private:
        return "{" + short(links if executable else public) + "}"
    return "{" + (short(public) + " " if public else "") + "/ " + short(private) + "}"


def compare_with_cmake(root: pathlib.Path, table: Table):
    """Violations where the table and the CMakeLists.txt files disagree."""
    cmake, problems = read_cmake(root), []
    def row_order(name):
        return (table.targets[name].line if name in table.targets else table.header_line, name)
    for name in sorted(set(table.targets) | set(cmake), key=row_order):
        row, made = table.targets.get(name), cmake.get(name)
        if not row:
            problems.append(f"{ARCH_DOC}:{table.header_line}: target table disagrees with {made.path}: "
                            f"{name}: CMake defines it (line {made.line}), the table has no row")
        elif not made:
            where = f"{row.folder}/CMakeLists.txt" if (root / row.folder / "CMakeLists.txt").is_file() else "CMake"
            problems.append(f"{ARCH_DOC}:{row.line}: target table disagrees with {where}: "
                            f"{name}: the table has a row, no CMakeLists.txt under core/, transport/, gui/, app/ defines it")
        else:
            problems.extend(compare_target(row, made))
    return problems


def compare_target(row: Target, made: CMakeTarget):
    prefix = f"{ARCH_DOC}:{row.line}: target table disagrees with {made.path}: {row.name}"
    if made.helper and pathlib.PurePosixPath(made.path).parent.as_posix() != row.folder:
        yield f"{prefix}: CMake builds it in {pathlib.PurePosixPath(made.path).parent}, the table says {row.folder}"
    table_links = {dep: "PRIVATE" for dep in row.links} if row.executable else row.links
    if made.links != table_links:
        yield (f"{prefix}: CMake has {describe(made.links, row.executable)}, "
               f"the table has {describe(table_links, row.executable)} ({differences(made.links, table_links)})")


def differences(cmake: dict, table: dict) -> str:
    """What differs between two link sets, in words."""
    def short(names):
        return ", ".join(sorted(name.removeprefix("sonolink_") for name in names))
    parts = [("only in CMake: ", cmake.keys() - table.keys()),
             ("only in the table: ", table.keys() - cmake.keys()),
             ("PUBLIC in CMake, PRIVATE in the table: ",
              {d for d in cmake.keys() & table.keys() if cmake[d] == "PUBLIC" != table[d]}),
             ("PRIVATE in CMake, PUBLIC in the table: ",
              {d for d in cmake.keys() & table.keys() if cmake[d] == "PRIVATE" != table[d]})]
    return "; ".join(label + short(names) for label, names in parts if names)


# --- the source files ---------------------------------------------------------------------

def source_files(root: pathlib.Path):
    """Relative paths of every source file, sorted, build/ and .git/ left out."""
    found = []
    for folder, subfolders, files in os.walk(root):
        if pathlib.Path(folder) == root:
            subfolders[:] = [s for s in subfolders if s not in SKIPPED_TREES]
        found += [(pathlib.Path(folder) / f).relative_to(root).as_posix()
                  for f in files if pathlib.Path(f).suffix in SOURCE_SUFFIXES]
    return sorted(found)


class HeaderIndex:
    """Which target's <folder>/include holds a given sonolink/... header, and, for a header no
    target has, which other include/ folders hold it (a folder that lacks its row, say)."""

    def __init__(self, root: pathlib.Path, table: Table, files):
        self.root, self.table, self.cache, self.elsewhere = root, table, {}, {}
        for rel in files:
            folder, found, include = rel.partition("/include/")
            if found and rel.startswith(MODULE_TREES):
                self.elsewhere.setdefault(include, []).append(f"{folder}/include")

    def owners(self, include: str):
        if include not in self.cache:
            self.cache[include] = [t.name for t in self.table.targets.values()
                                   if (self.root / t.folder / "include" / include).is_file()]
        return self.cache[include]


def allow_list_problem(table: Table, headers: HeaderIndex, owner: str, include: str):
    """Why target `owner` may not include the sonolink/ header, or None if it may."""
    owners = headers.owners(include)
    if not owners:
        hint = "".join(f"; it lies in {folder}, which is no target's include/"
                       for folder in headers.elsewhere.get(include, []))
        return f"no public header {include} (a private header of another module, or a typo){hint}"
    allowed = visible_from(table, owner)
    if owner in owners or allowed & set(owners):
        return None
    return (f"{owner} may not include {include} ({owners[0]}'s); it sees only its own headers and "
            f"{', '.join(sorted(allowed)) or 'no other target'}")


def check_file(root: pathlib.Path, rel: str, table: Table, headers: HeaderIndex):
    """Violations in one source file."""
    violations = []
    if rel.endswith((".cu", ".cuh")) and not rel.startswith(CUDA_SOURCES):
        violations.append(f"{rel}:1: CUDA sources only in {', '.join(CUDA_SOURCES)}: {pathlib.PurePosixPath(rel).name}")
    owner = None
    if table.targets and rel.startswith(MODULE_TREES):
        owner = owner_of(table, rel)
        if not owner:
            violations.append(f"{rel}:1: {ALLOW_LIST_RULE}: not in any target of {ARCH_DOC}")
    rules = list(rules_for(rel))
    for number, line in enumerate((root / rel).read_text(errors="replace").splitlines(), start=1):
        match = INCLUDE.match(line)
        if not match:
            continue
        include = match.group(2).strip()
        spelled = f"#include {match.group(1)}{include}{'>' if match.group(1) == '<' else chr(34)}"
        violations += [f"{rel}:{number}: {name}: {spelled}" for name, broken in rules if broken(include)]
        if owner and include.startswith("sonolink/"):
            problem = allow_list_problem(table, headers, owner, include)
            if problem:
                violations.append(f"{rel}:{number}: {ALLOW_LIST_RULE}: {problem}")
    return violations


def check(root: pathlib.Path):
    table = read_table(root)
    violations = list(table.problems)
    if table.targets:
        violations += compare_with_cmake(root, table)
    files = source_files(root)
    headers = HeaderIndex(root, table, files)
    for rel in files:
        violations += check_file(root, rel, table, headers)
    return violations, len(files)


def main(argv):
    if len(argv) != 2:
        print(next(line for line in __doc__.splitlines() if line.startswith("Usage:")), file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1]).resolve()
    if not root.is_dir():
        print(f"check_includes: {root} is not a directory", file=sys.stderr)
        return 2
    violations, checked = check(root)
    for violation in violations:
        print(violation)
    print(f"check_includes: {checked} files checked, {len(violations)} violation(s)")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
