# SPDX-License-Identifier: Apache-2.0
"""Kafka's consumer-group model over one topic, on a C++ engine.

    >>> import kgroups
    >>> topic = kgroups.Topic(6)
    >>> topic.join("billing", "A")
    >>> topic.append("order-1", '{"total": 12}')
    (1, 0)

Topic(num_partitions) has append, end_offset, join, leave, assignment, poll,
commit and committed; partition_for(key, num_partitions) gives a key's
partition; NotAssignedError is raised by a commit of a partition the consumer
does not own. SPEC.md states every rule. Keys and values are str or bytes and
come back from poll with the type they were appended with.
"""

from kgroups._kgroups import NotAssignedError, Topic, partition_for

__all__ = ["NotAssignedError", "Topic", "partition_for"]

for _exported in (Topic, partition_for):
    _exported.__module__ = __name__
del _exported
