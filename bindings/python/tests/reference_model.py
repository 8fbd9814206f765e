# SPDX-License-Identifier: Apache-2.0
"""A small pure-Python implementation of SPEC.md's model, written from the spec.

It is the oracle of test_differential.py and the pure-Python baseline of
bench/python_bench.py. It has the same API, return types and exception types
as the kgroups module, and checks arguments in SPEC.md's order: types first,
then partition ranges and max_records, then assignment, then offset ranges.
It implements the options of SPEC.md's "Options" section too (partitioners,
assignors in reference_assignors.py, auto_offset_reset, lag, rebalances).
Not thread-safe.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping

from reference_assignors import ASSIGNORS, COOPERATIVE_ASSIGNORS

__all__ = ["NoOffsetError", "NotAssignedError", "Topic", "partition_for", "fnv1a_32",
           "murmur2"]

_FNV_OFFSET_BASIS = 2166136261
_FNV_PRIME = 16777619
_MASK32 = 0xFFFFFFFF

PARTITIONERS = ("fnv1a", "murmur2")
ASSIGNOR_NAMES = ("range", "roundrobin", "sticky", "cooperative-sticky")
AUTO_OFFSET_RESETS = ("earliest", "latest", "none")
REBALANCE_HISTORY = 1000


class NotAssignedError(Exception):
    """A commit named a partition that is not assigned to the consumer."""


class NoOffsetError(Exception):
    """poll under auto_offset_reset "none" met partitions with no committed offset."""

    def __init__(self, message, partitions=None):
        super().__init__(message)
        self.partitions = partitions


def fnv1a_32(data: bytes) -> int:
    h = _FNV_OFFSET_BASIS
    for byte in data:
        h = ((h ^ byte) * _FNV_PRIME) & _MASK32
    return h


def murmur2(data: bytes) -> int:
    """Kafka's Utils.murmur2 (seed 0x9747b28c), as the Java int it returns."""
    m = 0x5BD1E995
    h = (0x9747B28C ^ len(data)) & _MASK32
    whole = len(data) - len(data) % 4
    for i in range(0, whole, 4):
        k = int.from_bytes(data[i : i + 4], "little")
        k = (k * m) & _MASK32
        k ^= k >> 24
        k = (k * m) & _MASK32
        h = ((h * m) & _MASK32) ^ k
    tail = data[whole:]
    if len(tail) == 3:
        h ^= tail[2] << 16
    if len(tail) >= 2:
        h ^= tail[1] << 8
    if len(tail) >= 1:
        h ^= tail[0]
        h = (h * m) & _MASK32
    h ^= h >> 13
    h = (h * m) & _MASK32
    h ^= h >> 15
    return h - (1 << 32) if h >= (1 << 31) else h


def _hash_for(partitioner):
    if partitioner == "murmur2":
        return lambda data: murmur2(data) & 0x7FFFFFFF
    return fnv1a_32


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


def _check_choice(value, what, choices):
    if value not in choices:
        raise ValueError(f"{what} must be one of {', '.join(choices)}, got {value!r}")


def partition_for(key, num_partitions, partitioner="fnv1a"):
    _require_key_value(key, "key")
    n = _int(num_partitions, "num_partitions")
    _require_text(partitioner, "partitioner")
    if n < 1:
        raise ValueError(f"partition_for: num_partitions must be at least 1, got {n}")
    _check_choice(partitioner, "partitioner", PARTITIONERS)
    return _hash_for(partitioner)(_as_bytes(key)) % n


class _Group:
    def __init__(self):
        self.members = []  # sorted by UTF-8 bytes
        self.assignment = {}  # consumer -> ascending partitions
        self.positions = {}  # consumer -> {partition: position, or None for no position}
        self.committed = {}  # partition -> committed offset
        self.generation = 0
        self.history = []  # the most recent REBALANCE_HISTORY rebalances, oldest first


class Topic:
    def __init__(self, num_partitions, *, partitioner="fnv1a", assignor="range",
                 auto_offset_reset="earliest"):
        n = _int(num_partitions, "num_partitions")
        _require_text(partitioner, "partitioner")
        _require_text(assignor, "assignor")
        _require_text(auto_offset_reset, "auto_offset_reset")
        if n < 1:
            raise ValueError(f"Topic: num_partitions must be at least 1, got {n}")
        _check_choice(partitioner, "partitioner", PARTITIONERS)
        _check_choice(assignor, "assignor", ASSIGNOR_NAMES)
        _check_choice(auto_offset_reset, "auto_offset_reset", AUTO_OFFSET_RESETS)
        self._logs = [[] for _ in range(n)]  # per partition: list of (key, value)
        self._groups = {}
        self._hash = _hash_for(partitioner)
        self._assign = ASSIGNORS[assignor]
        self._cooperative = assignor in COOPERATIVE_ASSIGNORS
        self._auto_offset_reset = auto_offset_reset

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
        partition = self._hash(_as_bytes(key)) % len(self._logs)
        log = self._logs[partition]
        log.append((_plain(key), _plain(value)))
        return (partition, len(log) - 1)

    def end_offset(self, partition):
        return len(self._logs[self._check_partition(partition, "end_offset")])

    def _start_position(self, group, partition):
        """Where a member starts on a partition assigned to it: the committed offset,
        else what auto_offset_reset says (None: no position)."""
        if partition in group.committed:
            return group.committed[partition]
        if self._auto_offset_reset == "earliest":
            return 0
        if self._auto_offset_reset == "latest":
            return len(self._logs[partition])
        return None

    def _rebalance(self, group, cause, consumer):
        group.members.sort(key=lambda member: member.encode("utf-8"))
        previous = {member: group.assignment.get(member, []) for member in group.members}
        old_positions = group.positions
        group.assignment = {}
        group.positions = {}
        if group.members:
            group.assignment = self._assign(list(group.members), len(self._logs), previous)
        members = []
        for member in group.members:
            before, now = previous[member], group.assignment[member]
            positions = {}
            for partition in now:
                if self._cooperative and partition in before:
                    positions[partition] = old_positions[member][partition]
                else:
                    positions[partition] = self._start_position(group, partition)
            group.positions[member] = positions
            if self._cooperative:
                revoked = [p for p in before if p not in now]
                assigned = [p for p in now if p not in before]
            else:
                revoked, assigned = list(before), list(now)
            members.append({"id": member, "assignment": list(now), "revoked": revoked,
                            "assigned": assigned})
        group.generation += 1
        group.history.append({"generation": group.generation, "cause": cause,
                              "consumer": consumer, "members": members})
        del group.history[:-REBALANCE_HISTORY]

    def join(self, group, consumer_id):
        _require_text(group, "group")
        _require_text(consumer_id, "consumer_id")
        state = self._groups.setdefault(group, _Group())
        if consumer_id in state.assignment:
            return
        state.members.append(consumer_id)
        self._rebalance(state, "join", consumer_id)

    def leave(self, group, consumer_id):
        _require_text(group, "group")
        _require_text(consumer_id, "consumer_id")
        state = self._groups.get(group)
        if state is None or consumer_id not in state.assignment:
            return
        state.members.remove(consumer_id)
        self._rebalance(state, "leave", consumer_id)

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
        if state is None or consumer_id not in state.positions or limit == 0:
            return []
        positions = state.positions[consumer_id]
        # Partitions without a position look for a committed offset once more; if
        # some still have none, nothing changes.
        found = {p: state.committed[p] for p, position in positions.items()
                 if position is None and p in state.committed}
        missing = [p for p, position in sorted(positions.items())
                   if position is None and p not in state.committed]
        if missing:
            raise NoOffsetError(f"poll: no committed offset for partitions {missing}", missing)
        positions.update(found)
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
                for partition, position in state.positions[consumer_id].items():
                    if position is not None:
                        state.committed[partition] = position
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

    def lag(self, group):
        _require_text(group, "group")
        state = self._groups.get(group)
        committed = {} if state is None else state.committed
        return {p: len(log) - committed.get(p, 0) for p, log in enumerate(self._logs)}

    def rebalances(self, group):
        _require_text(group, "group")
        state = self._groups.get(group)
        if state is None:
            return []
        return [
            {**entry, "members": [{**member, "assignment": list(member["assignment"]),
                                    "revoked": list(member["revoked"]),
                                    "assigned": list(member["assigned"])}
                                   for member in entry["members"]]}
            for entry in state.history
        ]
