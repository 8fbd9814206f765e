# SPDX-License-Identifier: Apache-2.0
# Type stub of the kgroups package (its classes live in the native kgroups._kgroups; Broker
# and BrokerError in kgroups/broker.py and Security in kgroups/_security.py, typed inline).
from typing import Iterable, Literal, Mapping, TypedDict, overload

from kgroups.broker import Broker as Broker
from kgroups.broker import BrokerError as BrokerError
from kgroups.broker import Security as Security

__all__ = [
    "Broker",
    "BrokerError",
    "NoOffsetError",
    "NotAcquiredError",
    "NotAssignedError",
    "Security",
    "Topic",
    "partition_for",
]

_Partitioner = Literal["fnv1a", "murmur2"]
_Assignor = Literal["range", "roundrobin", "sticky", "cooperative-sticky"]
_AutoOffsetReset = Literal["earliest", "latest", "none"]
_ShareAutoOffsetReset = Literal["latest", "earliest"]
_AcknowledgeType = Literal["accept", "release", "reject"]

class NotAssignedError(Exception):
    """A commit named a partition not assigned to the consumer; nothing was committed."""

class NoOffsetError(Exception):
    """poll under auto_offset_reset="none" found partitions with no committed offset.

    Nothing changed: no record was returned and no position moved.
    """

    partitions: list[int]
    """The consumer's partitions with neither a position nor a committed offset, ascending."""

class NotAcquiredError(Exception):
    """acknowledge named a record the member does not hold now (never acquired, acquired
    by another member, already acknowledged, or its lock ran out).

    Nothing was acknowledged.
    """

    partition: int
    """The partition of the first record named that the member does not hold."""
    offset: int
    """Its offset."""

class _Record(TypedDict):
    """A record from Topic.poll; only for type checkers (poll returns plain dicts)."""

    partition: int
    offset: int
    key: str | bytes
    value: str | bytes

class _ShareRecord(TypedDict):
    """A record from Topic.share_poll; only for type checkers (it returns plain dicts)."""

    partition: int
    offset: int
    key: str | bytes
    value: str | bytes
    delivery_count: int

class _SharePartitionState(TypedDict):
    """Topic.share_partition_state's dict; only for type checkers."""

    start_offset: int
    end_offset: int
    available: int
    acquired: int
    acknowledged: int
    archived: int
    deliveries: int
    redeliveries: int

class _MemberRebalance(TypedDict):
    """One member of a generation in Topic.rebalances; only for type checkers."""

    id: str
    assignment: list[int]
    revoked: list[int]
    assigned: list[int]

class _Rebalance(TypedDict):
    """One entry of Topic.rebalances; only for type checkers (it returns plain dicts)."""

    generation: int
    cause: Literal["join", "leave"]
    consumer: str
    members: list[_MemberRebalance]

def partition_for(
    key: str | bytes, num_partitions: int, partitioner: _Partitioner = "fnv1a"
) -> int: ...

class Topic:
    def __init__(
        self,
        num_partitions: int,
        *,
        partitioner: _Partitioner = "fnv1a",
        assignor: _Assignor = "range",
        auto_offset_reset: _AutoOffsetReset = "earliest",
        share_auto_offset_reset: _ShareAutoOffsetReset = "latest",
        record_lock_duration_ms: int = 30000,
        delivery_count_limit: int = 5,
        partition_max_record_locks: int = 2000,
    ) -> None: ...
    @property
    def num_partitions(self) -> int: ...
    def append(self, key: str | bytes, value: str | bytes) -> tuple[int, int]: ...
    def end_offset(self, partition: int) -> int: ...
    def join(self, group: str, consumer_id: str) -> None: ...
    def leave(self, group: str, consumer_id: str) -> None: ...
    def assignment(self, group: str, consumer_id: str) -> list[int]: ...
    def poll(self, group: str, consumer_id: str, max_records: int = 100) -> list[_Record]: ...
    def commit(
        self, group: str, consumer_id: str, offsets: Mapping[int, int] | None = None
    ) -> None: ...
    def committed(self, group: str, partition: int) -> int: ...
    def lag(self, group: str) -> dict[int, int]: ...
    def rebalances(self, group: str) -> list[_Rebalance]: ...
    def share_join(self, group: str, member_id: str) -> None: ...
    def share_leave(self, group: str, member_id: str) -> None: ...
    def share_assignment(self, group: str, member_id: str) -> list[int]: ...
    def share_poll(
        self, group: str, member_id: str, max_records: int = 100
    ) -> list[_ShareRecord]: ...
    @overload
    def acknowledge(
        self,
        group: str,
        member_id: str,
        records: Iterable[tuple[int, int] | list[int]] | None,
        type: _AcknowledgeType,
    ) -> None: ...
    @overload
    def acknowledge(self, group: str, member_id: str, type: _AcknowledgeType) -> None: ...
    def advance_clock(self, ms: int) -> None: ...
    def clock(self) -> int: ...
    def share_start_offset(self, group: str, partition: int) -> int: ...
    def share_partition_state(self, group: str, partition: int) -> _SharePartitionState: ...
