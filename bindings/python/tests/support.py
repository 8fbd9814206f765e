# SPDX-License-Identifier: Apache-2.0
"""Small helpers shared by the test files (not tests themselves)."""

from __future__ import annotations

import pathlib

import kgroups

REPO_ROOT = pathlib.Path(__file__).resolve().parents[3]


def keys_for_partition(partition, num_partitions, count, prefix="k"):
    """`count` distinct str keys that land on `partition`."""
    keys = []
    i = 0
    while len(keys) < count:
        key = f"{prefix}{i}"
        if kgroups.partition_for(key, num_partitions) == partition:
            keys.append(key)
        i += 1
    return keys


def append_to(topic, partition, count, prefix="k"):
    """Appends `count` records to `partition`; returns their (key, value) pairs."""
    records = []
    for i, key in enumerate(keys_for_partition(partition, topic.num_partitions, count, prefix)):
        value = f"{key}-value-{i}"
        assert topic.append(key, value) == (partition, topic.end_offset(partition) - 1)
        records.append((key, value))
    return records


def snapshot(topic, groups, consumers):
    """Everything observable without side effects: end offsets, assignments, committed."""
    n = topic.num_partitions
    return (
        [topic.end_offset(p) for p in range(n)],
        {(g, c): topic.assignment(g, c) for g in groups for c in consumers},
        {(g, p): topic.committed(g, p) for g in groups for p in range(n)},
    )
