#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the layering of src/: every #include "<dir>/..." of a unit names a unit it may
depend on, as the CMake targets link them (src/broker/CMakeLists.txt draws the layers). Run
by ctest (label layering); exits 1 listing each include that crosses a boundary, with the
rule it breaks. The build enforces the same rule for product code (each layer includes
through its own root, cmake/kgroups_include_root.cmake); this test also covers the tests,
which one program links with every layer, and names the rule when it breaks.

The units and what each may include (besides itself), from the bottom up:
  src/protocol                  nothing of kgroups
  src/group, log, memory, partitioner, share, topic (the model) kgroups/ and each other
  src/broker/runtime            -
  src/broker/security           runtime (no protocol: SASL as plain logic)
  src/broker/config             runtime, protocol
  src/broker/authorizer         runtime (nothing of the wire)
  src/broker/log_format         runtime, protocol (Kafka's on-disk file formats)
  src/broker/storage            config, log_format, runtime, protocol, memory
  src/broker/coordinator        group, share (the model's assignors and share-partition rules)
  src/broker/groups             coordinator, storage and below
  src/broker/transactions       groups and below
  src/broker/faults             protocol
  src/broker/services           transactions, faults and below
  src/broker/events             coordinator, storage and below
  src/broker/node               services, events and below
  src/broker/handlers           node and below
  src/broker/net                handlers and below
  src/broker/playground         node and below, group
  src/broker/http               net, playground and below
Standard-library only, so any python3 runs it."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ENGINE = {"group", "log", "memory", "partitioner", "share", "topic", "kgroups"}

# broker layer -> the layers it links directly (each also reaches what those reach)
LAYERS = {
    "runtime": set(),
    "security": {"runtime"},
    "config": {"runtime"},
    "authorizer": {"runtime"},
    "log_format": {"runtime"},
    "storage": {"config", "log_format"},
    "coordinator": set(),
    "groups": {"coordinator", "storage"},
    "transactions": {"groups"},
    "faults": set(),
    "services": {"transactions", "faults"},
    "events": {"coordinator", "storage"},
    "node": {"services", "events", "security", "authorizer"},
    "handlers": {"node"},
    "net": {"handlers"},
    "playground": {"node"},
    "http": {"net", "playground"},
}
# what a broker layer may include outside src/broker
OUTSIDE = {"coordinator": {"group/", "share/"}, "storage": {"memory/"}, "playground": {"group/"}}
# the layers that know nothing of the wire protocol
WITHOUT_PROTOCOL = {"runtime", "security", "coordinator", "authorizer"}


def below(layer):
    reached = {layer}
    for lower in LAYERS[layer]:
        reached |= below(lower)
    return reached


def broker_allowed(layer):
    reached = below(layer)
    prefixes = {f"broker/{lower}/" for lower in reached}
    for lower in reached:
        prefixes |= OUTSIDE.get(lower, set())
    if layer not in WITHOUT_PROTOCOL:
        prefixes.add("protocol/")
    return prefixes


# unit directory (relative to src/) -> include prefixes it may use
ALLOWED = {
    "protocol": {"protocol/"},
    **{f"broker/{layer}": broker_allowed(layer) for layer in LAYERS},
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
