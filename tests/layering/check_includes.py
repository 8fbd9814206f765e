#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the layering of src/: every #include "<dir>/..." of a unit names a unit it may
depend on, as the CMake targets link them. Run by ctest (label layering); exits 1 listing
each include that crosses a boundary, with the rule it breaks.

The units and what each may include (besides itself):
  src/protocol            (kgroups_protocol)    nothing of kgroups
  src/broker/coordinator  (kgroups_coordinator) group/ (the engine's range assignor)
  src/broker              (kgroups_broker)      broker/coordinator, protocol, group, memory
  src/group, log, memory, partitioner, topic (kgroups) kgroups/ and each other
Standard-library only, so any python3 runs it."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ENGINE = {"group", "log", "memory", "partitioner", "topic", "kgroups"}

# unit directory (relative to src/) -> include prefixes it may use
ALLOWED = {
    "protocol": {"protocol/"},
    "broker/coordinator": {"broker/coordinator/", "group/"},
    "broker": {"broker/", "protocol/", "group/", "memory/"},
    **{unit: {f"{name}/" for name in ENGINE} for unit in ENGINE - {"kgroups"}},
}


def unit_of(path):
    relative = path.relative_to(ROOT / "src").as_posix()
    # The most specific unit wins: broker/coordinator before broker.
    for unit in sorted(ALLOWED, key=len, reverse=True):
        if relative.startswith(unit + "/"):
            return unit
    return None


def violations():
    found = []
    for path in sorted((ROOT / "src").rglob("*")):
        if path.suffix not in (".h", ".cc"):
            continue
        unit = unit_of(path)
        if unit is None:
            found.append(f"{path.relative_to(ROOT)}: in no known unit; add it to ALLOWED")
            continue
        for include in INCLUDE.findall(path.read_text(encoding="utf-8")):
            if "/" not in include:
                continue  # a file of the same directory
            if not any(include.startswith(prefix) for prefix in ALLOWED[unit]):
                found.append(f"{path.relative_to(ROOT)}: includes \"{include}\", but src/{unit} "
                             f"may include only {', '.join(sorted(ALLOWED[unit]))}")
    return found


def main():
    found = violations()
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} include(s) cross a unit boundary (tests/layering/check_includes.py)")
        return 1
    print("layering: every include in src/ stays within its unit's dependencies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
