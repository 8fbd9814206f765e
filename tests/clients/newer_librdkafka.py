# SPDX-License-Identifier: Apache-2.0
"""The newer librdkafka some client tests also run with: the one node-rdkafka builds
(scripts/install-deps), loaded by confluent-kafka in a child process in place of Debian's
(LD_LIBRARY_PATH). Tests parametrized over LIBRARIES call library_dir_for(library)."""
import os
from pathlib import Path

import pytest

NEWER_VERSION = "2.12.0"  # node-rdkafka 3.6.1's
NEWER_LIBRDKAFKA = (Path(__file__).resolve().parent
                    / "node_rdkafka/node_modules/node-rdkafka/build/deps")
LIBRARIES = ["confluent-kafka's", NEWER_VERSION]


def library_dir_for(library):
    """None for confluent-kafka's own librdkafka; for NEWER_VERSION the directory holding it,
    or a skip when node-rdkafka is not built."""
    if library != NEWER_VERSION:
        return None
    if not (NEWER_LIBRDKAFKA / "librdkafka.so.1").is_file():
        pytest.skip(f"node-rdkafka's librdkafka is not built in {NEWER_LIBRDKAFKA} "
                    "(scripts/install-deps)")
    return NEWER_LIBRDKAFKA


def child_environment(library_dir):
    """This process's environment, for a child that loads the librdkafka in `library_dir`
    (None: confluent-kafka's own)."""
    env = dict(os.environ)
    if library_dir is not None:
        env["LD_LIBRARY_PATH"] = f"{library_dir}:{env.get('LD_LIBRARY_PATH', '')}".rstrip(":")
    return env


def older_than(version, major_minor):
    """Whether librdkafka `version` ("2.0.2") is older than `major_minor` ((2, 3))."""
    return tuple(int(part) for part in version.split(".")[:2]) < major_minor
