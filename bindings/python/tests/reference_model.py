# SPDX-License-Identifier: Apache-2.0
"""A small pure-Python implementation of SPEC.md's model, written from the spec.

It is the oracle of test_differential.py and the pure-Python baseline of
bench/python_bench.py. It has the same API, return types and exception types
as the kgroups module, and checks arguments in SPEC.md's order: types first,
then partition ranges and max_records, then assignment, then offset ranges.
Not thread-safe.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping

__all__ = ["NotAssignedError", "Topic", "partition_for", "fnv1a_32"]

_FNV_OFFSET_BASIS = 2166136261
_FNV_PRIME = 16777619


class NotAssignedError(Exception):
    """A commit named a partition that is not assigned to the consumer."""


def fnv1a_32(data: bytes) -> int:
    h = _FNV_OFFSET_BASIS
    for byte in data:
        h = ((h ^ byte) * _FNV_PRIME) & 0xFFFFFFFF
    return h


def _require_key_value(obj, what):
    if not isinstance(obj, (str, bytes)):
        raise TypeError(f"{what} must be str or bytes, not {type(obj).__name__}: serialize first")


def _as_bytes(obj) -> bytes:
    return obj.encode("utf-8") if isinstance(obj, str) else bytes(obj)


def _plain(obj):
    """The value as a plain str or bytes (a subclass instance is copied)."""
    if type(obj) is str or type(obj) is bytes:
        return obj
    return str(obj) if isinstance(obj, str) else bytes(obj)


def _require_text(obj, what):
    if not isinstance(obj, str):
        raise TypeError(f"{what} must be a str, not {type(obj).__name__}")


def _int(obj, what) -> int:
    try:
        return operator.index(obj)
    except TypeError:
        raise TypeError(f"{what} must be an int, not {type(obj).__name__}") from None


def partition_for(key, num_partitions):
    _require_key_value(key, "key")
    n = _int(num_partitions, "num_partitions")
    if n < 1:
        raise ValueError(f"partition_for: num_partitions must be at least 1, got {n}")
    return fnv1a_32(_as_bytes(key)) % n


class _Group:
    def __init__(self):
        self.members = []  # sorted by UTF-8 bytes
        self.assignment = {}  # consumer -> ascending partitions
        self.positions = {}  # consumer -> {partition: position}
        self.committed = {}  # partition -> committed offset


class Topic:
    def __init__(self, num_partitions):
        n = _int(num_partitions, "num_partitions")
        if n < 1:
            raise ValueError(f"Topic: num_partitions must be at least 1, got {n}")
        self._logs = [[] for _ in range(n)]  # per partition: list of (key, value)
        self._groups = {}

    @property
    def num_partitions(self):
        return len(self._logs)

    def _check_partition(self, partition, operation):
        p = _int(partition, "partition")
        if not 0 <= p < len(self._logs):
            raise IndexError(f"{operation}: partition {p} is out of range")
        return p

    def append(self, key, value):
        _require_key_value(key, "key")
        _require_key_value(value, "value")
        partition = fnv1a_32(_as_bytes(key)) % len(self._logs)
        log = self._logs[partition]
        log.append((_plain(key), _plain(value)))
        return (partition, len(log) - 1)

    def end_offset(self, partition):
        return len(self._logs[self._check_partition(partition, "end_offset")])

    def _rebalance(self, group):
        group.members.sort(key=lambda member: member.encode("utf-8"))
        n, m = len(self._logs), len(group.members)
        group.assignment = {}
        group.positions = {}
        start = 0
        for index, member in enumerate(group.members):
            count = n // m + (1 if index < n % m else 0)
            partitions = list(range(start, start + count))
            start += count
            group.assignment[member] = partitions
            group.positions[member] = {p: group.committed.get(p, 0) for p in partitions}

    def join(self, group, consumer_id):
        _require_text(group, "group")
        _require_text(consumer_id, "consumer_id")
        state = self._groups.setdefault(group, _Group())
        if consumer_id in state.assignment:
            return
        state.members.append(consumer_id)
        self._rebalance(state)

    def leave(self, group, consumer_id):
        _require_text(group, "group")
        _require_text(consumer_id, "consumer_id")
        state = self._groups.get(group)
        if state is None or consumer_id not in state.assignment:
            return
        state.members.remove(consumer_id)
        self._rebalance(state)

    def assignment(self, group, consumer_id):
        _require_text(group, "group")
        _require_text(consumer_id, "consumer_id")
        state = self._groups.get(group)
        if state is None:
            return []
        return list(state.assignment.get(consumer_id, []))

    def poll(self, group, consumer_id, max_records=100):
        _require_text(group, "group")
        _require_text(consumer_id, "consumer_id")
        limit = _int(max_records, "max_records")
        if limit < 0:
            raise ValueError(f"poll: max_records must be 0 or more, got {limit}")
        state = self._groups.get(group)
        if state is None or consumer_id not in state.positions:
            return []
        positions = state.positions[consumer_id]
        records = []
        for partition in state.assignment[consumer_id]:
            room = limit - len(records)
            if room <= 0:
                break
            log = self._logs[partition]
            start = positions[partition]
            end = min(len(log), start + room)
            for offset in range(start, end):
                key, value = log[offset]
                records.append({"partition": partition, "offset": offset, "key": key, "value": value})
            positions[partition] = end
        return records

    def commit(self, group, consumer_id, offsets=None):
        _require_text(group, "group")
        _require_text(consumer_id, "consumer_id")
        if offsets is not None and not isinstance(offsets, Mapping):
            raise TypeError(f"offsets must be a mapping, not {type(offsets).__name__}")
        state = self._groups.get(group)
        if offsets is None:
            if state is not None and consumer_id in state.positions:
                state.committed.update(state.positions[consumer_id])
            return
        pairs = [
            (_int(p, "offsets: each partition (key)"), _int(o, "offsets: each offset (value)"))
            for p, o in list(offsets.items())
        ]
        assigned = set() if state is None else set(state.assignment.get(consumer_id, []))
        for partition, _ in sorted(pairs):
            if partition not in assigned:
                raise NotAssignedError(f"commit: partition {partition} is not assigned")
        for partition, offset in sorted(pairs):
            if not 0 <= offset <= len(self._logs[partition]):
                raise ValueError(f"commit: offset {offset} for partition {partition} is out of range")
        for partition, offset in pairs:
            state.committed[partition] = offset

    def committed(self, group, partition):
        _require_text(group, "group")
        p = self._check_partition(partition, "committed")
        state = self._groups.get(group)
        return 0 if state is None else state.committed.get(p, 0)
