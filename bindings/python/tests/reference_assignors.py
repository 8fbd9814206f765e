# SPDX-License-Identifier: Apache-2.0
"""The assignors of SPEC.md ("Rebalance" and "Options: Assignors"), written plainly
from the spec for reference_model.py. Each takes the members (already sorted by
UTF-8 bytes), the partition count and the previous assignment {member: [partitions]}
of the members that stay, and returns {member: ascending partitions} for every member.
"""

from __future__ import annotations

__all__ = ["ASSIGNORS", "COOPERATIVE_ASSIGNORS", "range_assign", "roundrobin_assign",
           "sticky_assign"]


def utf8(text):
    return text.encode("utf-8")


def range_assign(members, num_partitions, previous):
    """Consecutive ranges of n // m partitions; the first n % m members get one more."""
    del previous  # the range assignor ignores history
    m = len(members)
    assignment = {}
    start = 0
    for index, member in enumerate(members):
        count = num_partitions // m + (1 if index < num_partitions % m else 0)
        assignment[member] = list(range(start, start + count))
        start += count
    return assignment


def roundrobin_assign(members, num_partitions, previous):
    """Partition p goes to the (p mod m)-th member."""
    del previous
    assignment = {member: [] for member in members}
    for partition in range(num_partitions):
        assignment[members[partition % len(members)]].append(partition)
    return assignment


def sticky_assign(members, num_partitions, previous):
    """SPEC.md's exact sticky rule: balanced, then as few partitions as possible move."""
    m = len(members)
    base, extra = divmod(num_partitions, m)
    owned_before = {member: sorted(previous.get(member, [])) for member in members}
    # The larger shares go to the members that owned the most before (ties: smaller id).
    by_claim = sorted(members, key=lambda member: (-len(owned_before[member]), utf8(member)))
    share = {member: base + (1 if rank < extra else 0) for rank, member in enumerate(by_claim)}
    # Each member keeps its lowest-numbered previous partitions up to its share.
    assignment = {member: owned_before[member][: share[member]] for member in members}
    kept = {partition for partitions in assignment.values() for partition in partitions}
    # The rest, ascending, fill the members below their share in id order.
    leftover = [partition for partition in range(num_partitions) if partition not in kept]
    for member in members:  # members are sorted by id
        while len(assignment[member]) < share[member]:
            assignment[member].append(leftover.pop(0))
    assert not leftover
    return {member: sorted(partitions) for member, partitions in assignment.items()}


ASSIGNORS = {
    "range": range_assign,
    "roundrobin": roundrobin_assign,
    "sticky": sticky_assign,
    "cooperative-sticky": sticky_assign,
}
COOPERATIVE_ASSIGNORS = {"cooperative-sticky"}
