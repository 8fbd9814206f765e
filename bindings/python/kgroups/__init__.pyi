# SPDX-License-Identifier: Apache-2.0
# Type stub of the kgroups package (its classes live in the native kgroups._kgroups; Broker
# and BrokerError in kgroups/broker.py, which is typed inline).
from typing import Literal, Mapping, TypedDict

from kgroups.broker import Broker as Broker
from kgroups.broker import BrokerError as BrokerError

__all__ = ["Broker", "BrokerError", "NoOffsetError", "NotAssignedError", "Topic", "partition_for"]

_Partitioner = Literal["fnv1a", "murmur2"]
_Assignor = Literal["range", "roundrobin", "sticky", "cooperative-sticky"]
_AutoOffsetReset = Literal["earliest", "latest", "none"]

class NotAssignedError(Exception):
    """A commit named a partition not assigned to the consumer; nothing was committed."""

class NoOffsetError(Exception):
    """poll under auto_offset_reset="none" found partitions with no committed offset.

    Nothing changed: no record was returned and no position moved.
    """

    partitions: list[int]
    """The consumer's partitions with neither a position nor a committed offset, ascending."""

class _Record(TypedDict):
    """A record from Topic.poll; only for type checkers (poll returns plain dicts)."""

    partition: int
    offset: int
    key: str | bytes
    value: str | bytes

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
