# SPDX-License-Identifier: Apache-2.0
"""Kafka's consumer-group model over one topic, on a C++ engine.

    >>> import kgroups
    >>> topic = kgroups.Topic(6)
    >>> topic.join("billing", "A")
    >>> topic.append("order-1", '{"total": 12}')
    (1, 0)

Topic(num_partitions) has append, end_offset, join, leave, assignment, poll,
commit, committed, lag and rebalances; partition_for(key, num_partitions)
gives a key's partition; NotAssignedError is raised by a commit of a partition
the consumer does not own. SPEC.md states every rule. Keys and values are str
or bytes and come back from poll with the type they were appended with.

Keyword-only options bring in what real Kafka has (the defaults are the lab's):

    >>> kafka_like = kgroups.Topic(6, partitioner="murmur2", assignor="cooperative-sticky",
    ...                            auto_offset_reset="latest")
    >>> kgroups.partition_for("foobar", 6, "murmur2")
    0

auto_offset_reset="none" makes poll raise NoOffsetError (with .partitions)
for partitions the group never committed. help(kgroups.Topic) lists the
choices.

Share groups (Kafka's queues, KIP-932) read the same topic record by record:
share_join, share_poll (records locked to the member, with "delivery_count"),
acknowledge(group, member_id, [(partition, offset), ...], "accept" | "release" |
"reject"), and the topic's own clock (advance_clock) on which locks expire.
NotAcquiredError (with .partition and .offset) is raised by an acknowledgement of
a record the member does not hold.

Broker starts a kgroupsd (the Kafka-protocol broker shipped with this package) for a
test, with fault injection, a manual clock and group inspection; BrokerError is what its
control endpoint raises; Security describes a secured Broker's listeners, users and ACLs.
The pytest plugin kgroups.pytest_plugin gives the kgroups_broker
fixture.
"""

from kgroups._kgroups import (
    NoOffsetError,
    NotAcquiredError,
    NotAssignedError,
    Topic,
    partition_for,
)

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

for _exported in (Topic, partition_for):
    _exported.__module__ = __name__
del _exported


def __getattr__(name):
    # Broker, BrokerError and Security load on first use: `import kgroups` for the model
    # alone does not pay for urllib and subprocess.
    if name in ("Broker", "BrokerError", "Security"):
        from kgroups import broker

        return getattr(broker, name)
    raise AttributeError(f"module 'kgroups' has no attribute {name!r}")
