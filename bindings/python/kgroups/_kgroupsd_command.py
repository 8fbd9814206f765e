# SPDX-License-Identifier: Apache-2.0
"""The kgroupsd command line a Broker runs: which binary, and its flags from keyword options.

Binary, first found wins: the `kgroupsd=` argument, the KGROUPSD environment variable, the
kgroupsd shipped inside this package (kgroups/bin/kgroupsd), then kgroupsd on PATH.

Options, as keyword arguments of Broker: `topics={"orders": 3}` gives `--topic orders:3`,
`manual_clock=True` gives `--manual-clock`, and any other snake_case name gives its
--kebab-case flag: True adds the bare flag, False or None leaves it out, a list or tuple
repeats it, anything else is passed as str(value) (`max_memory="256MiB"` gives
`--max-memory 256MiB`). `extra_args` is appended verbatim.
"""

from __future__ import annotations

import os
import pathlib
import shutil
from typing import Any, Iterable, Mapping

BUNDLED_KGROUPSD = pathlib.Path(__file__).resolve().parent / "bin" / "kgroupsd"

# Flags the Broker sets itself: a free loopback port for both listeners (secured listeners:
# Broker(security=kgroups.Security(...))).
_RESERVED_FLAGS = ("--listen", "--http", "--listeners")
_RESERVED_HINT = ("is chosen by Broker (a free loopback port; secured listeners: "
                  "security=kgroups.Security(...)); leave it out")


def find_kgroupsd(explicit: str | os.PathLike[str] | None = None) -> pathlib.Path:
    """The kgroupsd binary to run. Raises FileNotFoundError listing every place it looked."""
    looked = []
    if explicit is not None:
        return _executable(pathlib.Path(explicit), "the kgroupsd= argument")
    from_environment = os.environ.get("KGROUPSD")
    if from_environment:
        return _executable(pathlib.Path(from_environment), "the KGROUPSD environment variable")
    looked.append("KGROUPSD (not set)")
    if _is_executable(BUNDLED_KGROUPSD):
        return BUNDLED_KGROUPSD
    looked.append(f"{BUNDLED_KGROUPSD} (the copy shipped with the package: absent)")
    on_path = shutil.which("kgroupsd")
    if on_path:
        return pathlib.Path(on_path)
    looked.append("kgroupsd on PATH (none)")
    raise FileNotFoundError(
        "no kgroupsd binary found; looked at: " + "; ".join(looked) + ". Install kgroups with "
        "pip from its sources (which builds kgroupsd into the package), or pass "
        "Broker(kgroupsd='/path/to/kgroupsd'), or set KGROUPSD")


def _executable(path: pathlib.Path, source: str) -> pathlib.Path:
    if not _is_executable(path):
        raise FileNotFoundError(f"kgroupsd from {source} is not an executable file: {path}")
    return path


def _is_executable(path: pathlib.Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def kgroupsd_arguments(topics: Mapping[str, int] | Iterable[str] | None,
                       options: Mapping[str, Any], extra_args: Iterable[str]) -> list[str]:
    """The flags for `topics`, the keyword `options` and `extra_args` (see the module's doc).
    Raises ValueError for a flag the Broker sets itself or a topic without partitions."""
    arguments: list[str] = []
    for topic in _topic_specs(topics):
        arguments += ["--topic", topic]
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if flag in _RESERVED_FLAGS:
            raise ValueError(f"{flag} {_RESERVED_HINT}")
        if value is None or value is False:
            continue
        if value is True:
            arguments.append(flag)
        elif isinstance(value, (list, tuple)):
            for item in value:
                arguments += [flag, str(item)]
        else:
            arguments += [flag, str(value)]
    extra = [str(argument) for argument in extra_args]
    for argument in extra:
        if argument.split("=", 1)[0] in _RESERVED_FLAGS:
            raise ValueError(f"{argument} {_RESERVED_HINT}")
    return arguments + extra


def _topic_specs(topics: Mapping[str, int] | Iterable[str] | None) -> list[str]:
    if topics is None:
        return []
    if isinstance(topics, str):
        raise TypeError('topics must be a mapping {"orders": 3} or a list of "NAME:PARTITIONS"')
    if isinstance(topics, Mapping):
        specs = []
        for name, partitions in topics.items():
            if not isinstance(partitions, int) or isinstance(partitions, bool) or partitions < 1:
                raise ValueError(f"topic {name!r}: partitions must be an int >= 1, "
                                 f"got {partitions!r}")
            specs.append(f"{name}:{partitions}")
        return specs
    return [str(spec) for spec in topics]
