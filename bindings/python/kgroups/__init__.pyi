# SPDX-License-Identifier: Apache-2.0
# Type stub of the kgroups package (its classes live in the native kgroups._kgroups; Broker
# and BrokerError in kgroups/broker.py, which is typed inline).
from typing import Mapping, TypedDict

from kgroups.broker import Broker as Broker
from kgroups.broker import BrokerError as BrokerError

__all__ = ["Broker", "BrokerError", "NotAssignedError", "Topic", "partition_for"]

class NotAssignedError(Exception):
    """A commit named a partition not assigned to the consumer; nothing was committed."""

class _Record(TypedDict):
    """A record from Topic.poll; only for type checkers (poll returns plain dicts)."""

    partition: int
    offset: int
    key: str | bytes
    value: str | bytes

def partition_for(key: str | bytes, num_partitions: int) -> int: ...

class Topic:
    def __init__(self, num_partitions: int) -> None: ...
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
