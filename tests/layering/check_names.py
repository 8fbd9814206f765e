#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that no two types of the project share a name in different namespaces: a
class, struct, enum or alias declared at namespace scope in src/, include/, tools/,
bindings/ or bench/. Two `Group`s or two `Connection`s compile, but a reader (or a search)
cannot tell them apart; each must say what it is. Run by ctest (label layering); exits 1
listing each shared name with its places and what to do.

How it reads C++: the tree is clang-formatted with namespaces not indented, so a type at
namespace scope is declared at column 0 (`class Name`, `struct Name`, `enum class Name`,
`using Name =`); nested types are indented and belong to their class, so they are not
counted. The namespace is the innermost `namespace a::b {` opened above the declaration
and not yet closed. Types in anonymous namespaces of .cc files are left out: they are
local to one file (a test's helper struct, say) and cannot collide at link time or be
included elsewhere. Forward declarations (`class Name;`) are left out: they name a type
declared elsewhere.

`--self-test` runs the checker on a small tree it writes to a temporary folder, with one
collision in it, and fails unless the collision is found and nothing else is.
Standard-library only, so any python3 runs it."""
import collections
import pathlib
import re
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
FOLDERS = ("src", "include", "tools", "bindings", "bench")
SKIPPED_PARTS = {"node_modules", "build", "testdata"}
NAMESPACE_OPEN = re.compile(r"^(?:inline\s+)?namespace\s*([\w:]*)\s*\{")
NAMESPACE_CLOSE = re.compile(r"^\}\s*//\s*namespace")
DECLARATION = re.compile(
    r"^(?:template\s*<[^>]*>\s*)?(?:class|struct|union|enum(?:\s+class|\s+struct)?)\s+"
    r"(?:\[\[[^\]]*\]\]\s*)?(\w+)\b(?!\s*;)|^using\s+(\w+)\s*=")


def declarations(path, text):
    """(name, namespace) of each type declared at namespace scope in one file."""
    stack = []
    found = []
    for line in text.splitlines():
        opened = NAMESPACE_OPEN.match(line)
        if opened:
            stack.append(opened.group(1))
            continue
        if NAMESPACE_CLOSE.match(line):
            if stack:
                stack.pop()
            continue
        declared = DECLARATION.match(line)
        if not declared:
            continue
        if path.suffix == ".cc" and "" in stack:
            continue  # local to this file
        namespace = "::".join(part for part in stack if part) or "(global)"
        found.append((declared.group(1) or declared.group(2), namespace))
    return found


def collisions(root):
    places = collections.defaultdict(lambda: collections.defaultdict(set))
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".h", ".cc") or SKIPPED_PARTS & set(path.parts):
                continue
            text = path.read_text(encoding="utf-8")
            for name, namespace in declarations(path, text):
                places[name][namespace].add(path.relative_to(root).as_posix())
    return {name: by_namespace for name, by_namespace in places.items()
            if len(by_namespace) > 1}


def report(found):
    for name, by_namespace in sorted(found.items()):
        where = "; ".join(f"{namespace} in {', '.join(sorted(files))}"
                          for namespace, files in sorted(by_namespace.items()))
        print(f"{name}: declared in {len(by_namespace)} namespaces: {where}")
    if found:
        print(f"{len(found)} type name(s) shared across namespaces: rename all but one of "
              f"each to a name that says what it is (tests/layering/check_names.py)")


def self_test():
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        (root / "src").mkdir()
        (root / "tools").mkdir()
        (root / "src/a.h").write_text(
            "namespace kgroups::broker {\nclass Connection {\n  struct Inner {};\n};\n"
            "class Forward;\n}  // namespace kgroups::broker\n")
        (root / "tools/b.h").write_text(
            "namespace kgroups::cli {\nclass Connection {};\nstruct Inner {};\n"
            "class Forward {};\n}  // namespace kgroups::cli\n")
        (root / "tools/c.cc").write_text(
            "namespace kgroups::cli {\nnamespace {\nstruct Connection2 {};\n}  // namespace\n"
            "}  // namespace kgroups::cli\nnamespace {\nstruct Connection2 {};\n}  // namespace\n")
        found = collisions(root)
    if set(found) != {"Connection"}:
        print(f"check_names self-test: expected exactly Connection to collide, found "
              f"{sorted(found)}")
        return 1
    print("check_names self-test: a shared name is found; nested, forward and file-local "
          "types are not")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    found = collisions(ROOT)
    report(found)
    if found:
        return 1
    print("names: no two types of the project share a name in different namespaces")
    return 0


if __name__ == "__main__":
    sys.exit(main())
