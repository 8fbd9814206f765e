# SPDX-License-Identifier: Apache-2.0
"""A confluent-kafka consumer whose subscribed topic is deleted is revoked, and its close()
then returns at once (within 2 s): cooperative-sticky and range on a named topic, and a
regex subscription while topics matching it are created and deleted. Each consumer runs in a
child process (close_after_delete.py), killed if close() does not return.

Each case runs with confluent-kafka's own librdkafka (Debian's 2.0.2) and, when it is
installed, with librdkafka 2.12.0 as node-rdkafka builds it (scripts/install-deps) in its
place. librdkafka 2.0.x never finishes close() here, against Kafka as against kgroupsd: when
it unassigns a started partition it stops the fetcher and then resumes the partition, and the
resume leaves a version barrier holding a reference to the partition on the partition's own
fetch queue, which the stop has just unhooked from the consumer's queue. rd_kafka_destroy()
purges that queue only for partitions its topic still lists; a deleted topic's partitions
were dropped from the topic by the Metadata answer (UNKNOWN_TOPIC_OR_PARTITION, no
partitions, as Kafka answers), so they are never freed, keep their broker's reference, and
the broker thread waits for it for ever. librdkafka 2.1.0 purges the queue when such a
partition leaves the group (its pull request #4187). No answer of the broker avoids it short
of hiding the deletion, so with librdkafka 2.0.x the cases are expected to fail (strict
xfail: exactly the hang); docs/CLIENTS.md has the evidence."""
import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from confluent_kafka import libversion

from newer_librdkafka import (LIBRARIES, NEWER_VERSION, child_environment, library_dir_for,
                              older_than)

HERE = Path(__file__).resolve().parent
CLOSE_S = 2.0
STEP_TIMEOUT_S = 60


class CloseHung(AssertionError):
    """close() did not return within CLOSE_S (+ a margin to see it)."""


def leaks_deleted_partitions(version):
    """librdkafka before 2.1.0 (see the module's docstring)."""
    return older_than(version, (2, 1))


def run_consumer(bootstrap, mode, strategy, library_dir=None):
    """Runs close_after_delete.py; returns its lines (dicts). Raises CloseHung when close()
    had not returned CLOSE_S + 1 s after it started (the child is killed)."""
    child = subprocess.Popen(
        [sys.executable, str(HERE / "close_after_delete.py"), bootstrap, mode, strategy],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_environment(library_dir))
    lines, buffer = [], b""
    deadline = time.monotonic() + STEP_TIMEOUT_S
    try:
        while True:
            if any("closed_s" in line or "error" in line for line in lines):
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if any("closing" in line for line in lines):
                    raise CloseHung(f"close() did not return within {CLOSE_S} s; lines {lines}")
                raise AssertionError(f"the consumer timed out; lines {lines}")
            ready, _, _ = select.select([child.stdout], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(child.stdout.fileno(), 65536)
            if not chunk:
                break
            buffer += chunk
            while b"\n" in buffer:
                raw, buffer = buffer.split(b"\n", 1)
                lines.append(json.loads(raw))
                if "closing" in lines[-1]:
                    deadline = time.monotonic() + CLOSE_S + 1.0
    finally:
        child.kill()
        _, stderr = child.communicate()
    errors = [line["error"] for line in lines if "error" in line]
    assert not errors, f"{errors}; librdkafka said:\n{stderr.decode(errors='replace')[-4000:]}"
    return lines


CASES = [("topic", "cooperative-sticky"), ("topic", "range"), ("regex", "cooperative-sticky")]


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("mode,strategy", CASES)
def test_close_returns_at_once_after_the_subscribed_topics_were_deleted(
        kgroupsd, request, mode, strategy, library):
    newer_dir = library_dir_for(library)
    if newer_dir is None:
        if leaks_deleted_partitions(libversion()[0]):
            # Strict for a named topic. With a regex, topics come and go while the member
            # rebalances, and one CI run (at effb097) saw close() return: whether a partition
            # is unassigned while its fetcher runs (what leaks it) is probably a matter of
            # timing there.
            request.applymarker(pytest.mark.xfail(
                raises=CloseHung, strict=mode != "regex",
                reason=f"librdkafka {libversion()[0]} never frees a deleted topic's revoked "
                       "partitions, so close() waits for ever (fixed in librdkafka 2.1.0)"))
    lines = run_consumer(kgroupsd.bootstrap, mode, strategy, newer_dir)
    version = lines[0]["librdkafka"]
    if newer_dir is not None:
        assert version == NEWER_VERSION
    expected = [["life-a", 0], ["life-a", 1], ["life-a", 2]]
    if mode == "regex":
        expected += [["life-b", 0], ["life-b", 1]]
    # The child waited until it owned nothing; a regex member may get a deleted topic's
    # partitions back while the other is still listed, and lose them again.
    assigned = [line["assigned"] for line in lines if "assigned" in line]
    revoked = sorted({tuple(p) for line in lines if "revoked" in line for p in line["revoked"]})
    assert expected in assigned, lines
    assert [list(p) for p in revoked] == expected, lines
    closed = [line["closed_s"] for line in lines if "closed_s" in line]
    assert closed and closed[0] < CLOSE_S, f"close() took {closed} s with librdkafka {version}"
